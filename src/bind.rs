//! Binding: an interpretation (plus any `--set` overrides) turned into a playable engine.
//!
//! The corpus resolves every parameter of an interpretation and says where each value comes
//! from (a clause, a chosen option, the reading's own `sets`, or a family default). Binding
//! applies overrides, checks them against the family's vocabulary exactly as the loader
//! checks the YAML, builds the engine (which rejects combinations it cannot play), and keeps,
//! for each parameter, the class of what its value rests on for this reading (see
//! [`crate::corpus::provenance`]). That last table is what flags an engine event: an event
//! whose deciding parameter is interpolated is **uncovered** and names the clause that is
//! silent; one whose deciding parameter is borrowed from another source is **borrowed** and
//! names the same place.
//!
//! Architecture Invariant: engines never see interpretation ids; this is the only place that
//! maps a reading to engine parameters.

use serde_json::{Map, Value};

use crate::corpus::{Class, Game, Interpretation, ParamOrigin, ResolvedParam};
use crate::registry::{FamilyParams, FamilyVisitor, GameFamily};

pub use crate::registry::Engine;

/// A bound reading: the engine and the provenance of its parameters.
#[derive(Debug, Clone)]
pub struct Bound {
    /// The engine.
    pub engine: Engine,
    /// Every parameter value, overrides applied.
    pub values: Map<String, Value>,
    /// The overrides, as given (part of a result's identity).
    pub overrides: Map<String, Value>,
    /// For each parameter: `None` if its value is grounded in the reading's basis (or is an
    /// unused engine default), else its class (borrowed or interpolated) and the place that
    /// does not ground it (a clause id, the clause leaving a choice open, the interpretation
    /// id, or `--set`).
    pub provenance: Vec<(String, Option<(Class, String)>)>,
}

impl Bound {
    /// The place behind a parameter whose value is not grounded, with its class.
    pub fn ungrounded(&self, param: &str) -> Option<(Class, &str)> {
        self.provenance
            .iter()
            .find(|(p, _)| p == param)
            .and_then(|(_, c)| c.as_ref())
            .map(|(class, place)| (*class, place.as_str()))
    }

    /// The place behind a parameter whose value is interpolated.
    pub fn silent_place(&self, param: &str) -> Option<&str> {
        self.ungrounded(param)
            .and_then(|(c, place)| (c == Class::Interpolated).then_some(place))
    }

    /// The flag an event decided by a parameter carries: `uncovered:<place>` when its value
    /// is interpolated, `borrowed:<place>` when it is borrowed, none when grounded.
    pub fn flag(&self, param: &str) -> Option<String> {
        self.ungrounded(param).map(|(class, place)| match class {
            Class::Borrowed => format!("borrowed:{place}"),
            _ => format!("uncovered:{place}"),
        })
    }
}

/// Why a reading cannot be played.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BindError {
    /// `--set` without `=`.
    #[error(
        "--set {0}: expected PARAM=VALUE, a parameter of the game's family and its value (`ludotrace show GAME -i READING` lists them)"
    )]
    Syntax(String),
    /// The same parameter given twice: which one was meant is not for the program to guess.
    #[error("--set {name} is given twice ({first} and {second}): set each parameter once")]
    Repeated {
        /// The parameter.
        name: String,
        /// The first value, as given.
        first: String,
        /// The second value, as given.
        second: String,
    },
    /// A value that begins as JSON (`{`, `[` or `"`) but does not parse.
    #[error(
        "--set {name}: the value `{value}` is malformed JSON ({message}); write an object, list or quoted string whole, in single quotes: --set '{name}={{…}}', --set '{name}=[…]' or --set '{name}=\"…\"'"
    )]
    MalformedJson {
        /// The parameter.
        name: String,
        /// The value, as given.
        value: String,
        /// serde_json's message, with line and column.
        message: String,
    },
    /// An override the family does not accept.
    #[error("--set {name}: {message}")]
    Value {
        /// The parameter.
        name: String,
        /// What is wrong, with the accepted values.
        message: String,
    },
    /// A combination of parameters under which no game can ever end (the family's static
    /// check, [`crate::family::FamilyParams::cannot_end`]): every game would only stop at
    /// the run's limit, so it is refused rather than played.
    #[error("{context} cannot end: {reason}")]
    CannotEnd {
        /// Which reading.
        context: String,
        /// Which parameters, why, and what would make it finishable.
        reason: String,
    },
    /// The family's engine rejects the parameters.
    #[error("{context}: {source}")]
    Engine {
        /// Which reading.
        context: String,
        /// Why: the engine's own error.
        source: std::sync::Arc<dyn std::error::Error + Send + Sync>,
    },
}

/// Parses `PARAM=VALUE` overrides. A value is read as JSON when it parses as JSON (`true`,
/// `3`, `[2,4]`, `{"moves":500,"outcome":"draw"}`, `null`), otherwise as a string
/// (`either`). A value that begins as JSON text does (`{`, `[`, `"`) must be JSON: read as a
/// bare string it would only fail later, as a value of the wrong type, hiding the typo.
///
/// # Errors
/// [`BindError::Syntax`] for an item without `=`, [`BindError::Repeated`] for a parameter
/// given twice, [`BindError::MalformedJson`] for a value that starts as JSON but is not.
pub fn parse_overrides(items: &[String]) -> Result<Map<String, Value>, BindError> {
    let mut map = Map::new();
    // The values as given, to quote both in the error for a repeated parameter.
    let mut given: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for item in items {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| BindError::Syntax(item.clone()))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(BindError::Syntax(item.clone()));
        }
        let text = value.trim();
        let value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) if text.starts_with(['{', '[', '"']) => {
                return Err(BindError::MalformedJson {
                    name: name.to_owned(),
                    value: text.to_owned(),
                    message: e.to_string(),
                });
            }
            Err(_) => Value::String(text.to_owned()),
        };
        if let Some(first) = given.insert(name, text) {
            return Err(BindError::Repeated {
                name: name.to_owned(),
                first: first.to_owned(),
                second: text.to_owned(),
            });
        }
        map.insert(name.to_owned(), value);
    }
    Ok(map)
}

/// Binds an interpretation of a game, with overrides, to its family's engine.
///
/// # Errors
/// [`BindError`] for an override the family rejects or parameters the engine cannot play.
pub fn bind(
    game: &Game,
    interp: &Interpretation,
    overrides: &Map<String, Value>,
) -> Result<Bound, BindError> {
    bind_with(game, interp, overrides, &|_| "--set".to_owned())
}

/// [`bind`], with the place each override is named by (`--set`, or `--choose CHOICE=OPTION`
/// for the parameters of an option switched into the reading): an override is always an
/// interpolation of the reading, made by whoever typed it.
///
/// # Errors
/// As [`bind`].
pub fn bind_with(
    game: &Game,
    interp: &Interpretation,
    overrides: &Map<String, Value>,
    place: &dyn Fn(&str) -> String,
) -> Result<Bound, BindError> {
    let mut values = interp.param_values();
    for (name, value) in overrides {
        game.family
            .check_value(name, value)
            .map_err(|message| BindError::Value {
                name: name.clone(),
                message,
            })?;
        values.insert(name.clone(), value.clone());
    }
    let provenance = interp
        .params
        .iter()
        .map(|p| {
            let place = if overrides.contains_key(&p.name) {
                Some((Class::Interpolated, place(&p.name)))
            } else {
                ungrounded_place(game, interp, p)
            };
            (p.name.clone(), place)
        })
        .collect();
    let context = format!("{} / {}", game.id, interp.id);
    let engine = game.family.visit(Build {
        values: &values,
        context,
    })?;
    Ok(Bound {
        engine,
        values,
        overrides: overrides.clone(),
        provenance,
    })
}

/// Where a value comes from, when that is not the reading's basis: the class the loader
/// computed, and the place to name. A clause names itself; a chosen option names the clause
/// that leaves its choice open (the rule that is silent or borrowed), or the choice; a
/// reading's own setting names the reading.
fn ungrounded_place(
    game: &Game,
    interp: &Interpretation,
    param: &ResolvedParam,
) -> Option<(Class, String)> {
    let prov = &interp.provenance;
    let (classed, place) = match &param.origin {
        ParamOrigin::Clause(id) => (prov.clause(id)?, id.clone()),
        ParamOrigin::Option { choice, .. } => {
            let clause = game.clauses.iter().find(|c| c.open.contains(choice));
            (
                prov.choice(choice)?,
                clause.map_or_else(|| choice.clone(), |c| c.id.clone()),
            )
        }
        ParamOrigin::Interpretation(id) => {
            let id = if id.is_empty() { &interp.id } else { id };
            // Engine parameters are behaviours, not rules: a reading's own engine setting
            // follows whom the reading names, as before: `reading: …` is an interpolation.
            match prov.setting(&param.name) {
                Some(c) => (c, id.clone()),
                None => {
                    let reading = game.interpretation(id).unwrap_or(interp);
                    let interpolated = reading.by.is_empty()
                        || reading.by.iter().any(|b| b.starts_with("reading:"));
                    return interpolated.then(|| (Class::Interpolated, id.clone()));
                }
            }
        }
        // A default is the absence of an engine behaviour: it never fires an event.
        ParamOrigin::Default => return None,
    };
    (classed.class != Class::Grounded).then_some((classed.class, place))
}

/// Builds the engine of a family from resolved parameter values.
struct Build<'a> {
    values: &'a Map<String, Value>,
    context: String,
}

impl FamilyVisitor for Build<'_> {
    type Output = Result<Engine, BindError>;

    fn visit<F: GameFamily>(self) -> Self::Output {
        let params = F::Params::from_values(self.values).map_err(|message| BindError::Value {
            name: "(all)".to_owned(),
            message,
        })?;
        // What the engine cannot play is refused first (its message names the parameters
        // at fault), then what it could play but never finish.
        let rules = F::build(&params).map_err(|source| BindError::Engine {
            context: self.context.clone(),
            source: std::sync::Arc::new(source),
        })?;
        if let Some(reason) = params.cannot_end() {
            return Err(BindError::CannotEnd {
                context: self.context,
                reason,
            });
        }
        Ok(F::wrap(rules))
    }
}
