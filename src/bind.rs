//! Binding: an interpretation (plus any `--set` overrides) turned into a playable engine.
//!
//! The corpus resolves every parameter of an interpretation and says where each value comes
//! from (a clause, a chosen option, the reading's own `sets`, or a family default). Binding
//! applies overrides, checks them against the family's vocabulary exactly as the loader
//! checks the YAML, builds the engine (which rejects combinations it cannot play), and keeps,
//! for each parameter, whether its value rests on a quote or on an interpolation. That last
//! table is what turns an engine event into an **uncovered** event: an event
//! whose deciding parameter is interpolated names the clause that is silent.
//!
//! Architecture Invariant: engines never see interpretation ids; this is the only place that
//! maps a reading to engine parameters.

use serde_json::{Map, Value};

use crate::corpus::{Game, Interpretation, ParamOrigin};
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
    /// For each parameter: `None` if its value rests on a quote (or is an unused engine
    /// default), else the place that is silent (a clause id, a choice id, the interpretation
    /// id, or `--set`).
    pub interpolated: Vec<(String, Option<String>)>,
}

impl Bound {
    /// The silent place behind a parameter, if its value is interpolated.
    pub fn silent_place(&self, param: &str) -> Option<&str> {
        self.interpolated
            .iter()
            .find(|(p, _)| p == param)
            .and_then(|(_, place)| place.as_deref())
    }
}

/// Why a reading cannot be played.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BindError {
    /// `--set` without `=`.
    #[error("--set {0}: expected PARAM=VALUE, e.g. --set skip_origin=true")]
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
        "--set {name}: the value `{value}` is malformed JSON ({message}); write an object, list or quoted string whole, e.g. --set 'cap={{\"moves\":500,\"outcome\":\"draw\"}}'"
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
    let interpolated = interp
        .params
        .iter()
        .map(|p| {
            let place = if overrides.contains_key(&p.name) {
                Some("--set".to_owned())
            } else {
                silent_place(game, interp, &p.origin)
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
        interpolated,
    })
}

/// Where a value comes from, if that is an interpolation rather than a quote: a clause
/// without quotes, the clause that leaves a choice open when the chosen option quotes
/// nothing, or a reading's own settings when the reading names an interpolator
/// (`reading: …`) rather than a source or an encoding.
fn silent_place(game: &Game, interp: &Interpretation, origin: &ParamOrigin) -> Option<String> {
    match origin {
        ParamOrigin::Clause(id) => {
            let clause = game.clauses.iter().find(|c| &c.id == id)?;
            clause.cites.is_empty().then(|| id.clone())
        }
        ParamOrigin::Option { choice, option } => {
            let quoted = game
                .choice(choice)
                .and_then(|c| c.options.iter().find(|o| &o.id == option))
                .is_some_and(|o| !o.cites.is_empty());
            if quoted {
                return None;
            }
            // The clause that leaves the point open is the one that is silent.
            let clause = game.clauses.iter().find(|c| c.open.contains(choice));
            Some(clause.map_or_else(|| choice.clone(), |c| c.id.clone()))
        }
        ParamOrigin::Interpretation(id) => {
            // A reading's own settings follow whom its `by:` names: an encoding or a source
            // (an emulated engine's cap, say) is not an interpolation; `reading: …` is.
            let id = if id.is_empty() { &interp.id } else { id };
            let reading = game.interpretation(id).unwrap_or(interp);
            let interpolated =
                reading.by.is_empty() || reading.by.iter().any(|b| b.starts_with("reading:"));
            interpolated.then(|| id.clone())
        }
        // A default is the absence of an engine behaviour: it never fires an event.
        ParamOrigin::Default => None,
    }
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
        let rules = F::build(&params).map_err(|source| BindError::Engine {
            context: self.context,
            source: std::sync::Arc::new(source),
        })?;
        Ok(F::wrap(rules))
    }
}
