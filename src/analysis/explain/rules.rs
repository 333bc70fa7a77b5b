//! The rules a game applied, each once: the clause, chosen option, reading's own setting,
//! override or engine default behind a parameter the engine consulted, with the words it
//! rests on, their place in the source, its class for the reading and, for an option, the
//! open point and the other options.
//!
//! The map from a parameter to what set it is the reading's resolution
//! ([`crate::corpus::ParamOrigin`]); the gaps are the binding's ([`crate::bind::Bound::ungrounded`]),
//! the same table that counts `uncovered` and `borrowed` events in `run`.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::bind::Bound;
use crate::corpus::provenance::{classify, label};
use crate::corpus::{Cite, Class, Classed, Corpus, Game, Interpretation, ParamOrigin};

/// A rule the game applied: what a parameter's value rests on.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Rule {
    /// A stable id within the explanation: `clause:<id>`, `option:<choice>=<option>`,
    /// `reading:<id>/<param>`, `set:<param>` or `default:<param>`.
    pub id: String,
    /// What sets the parameters: `clause`, `option` (the option a reading takes at an open
    /// point), `reading` (the reading's own setting), `override` (`--set`) or `default` (an
    /// engine behaviour no reading sets).
    pub kind: String,
    /// The rule in words.
    pub says: String,
    /// The parameters it sets that the game consulted, with their values.
    pub params: Vec<(String, Value)>,
    /// The words it rests on.
    pub cites: Vec<Quote>,
    /// Interpolated by (a clause's or an option's `by:`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by: Vec<String>,
    /// Its class for the reading: grounded, borrowed or interpolated, with the sources or who
    /// added it. Absent for an engine default, which is no rule of the game.
    pub class: Option<Classed>,
    /// For an option: the open point it answers, and the other answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub choice: Option<OpenPoint>,
}

/// A quote with its place.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Quote {
    /// The passage, evidence record or encoding quoted (`davies-1925#seega`).
    pub at: String,
    /// The words.
    pub quote: String,
    /// Where they stand, for a reader (`Davies 1925: 141`).
    pub locator: String,
    /// What the quote is when it grounds nothing (a term, a deferral, the question's own
    /// words); absent for words that say what the rule says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The open point an option answers.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OpenPoint {
    /// Choice id.
    pub id: String,
    /// The question.
    pub question: String,
    /// The words that raise it.
    pub cites: Vec<Quote>,
    /// The option the reading takes.
    pub taken: String,
    /// Every option, the one taken included, with who proposes it.
    pub options: Vec<OptionShown>,
}

/// An option of an open point.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct OptionShown {
    /// Id.
    pub id: String,
    /// In words.
    pub says: String,
    /// Who proposes it.
    pub by: Vec<String>,
}

/// A rule of an application that no words of the reading's basis decide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Gap {
    /// `interpolated` (no source says it: the situation is *uncovered*) or `borrowed`
    /// (another source's words decide it).
    pub class: Class,
    /// The place that is silent or borrowed: a clause id, the clause leaving an open point
    /// open, the reading, or `--set`.
    pub place: String,
    /// The parameters it decides here.
    pub params: Vec<String>,
}

impl Gap {
    /// The gap in words, for a reader.
    pub fn sentence(&self) -> String {
        let what = self.params.join(", ");
        match self.class {
            Class::Borrowed => format!(
                "borrowed: the reading's own sources do not decide {what} here ({}); its answer \
                 takes another source's words",
                self.place
            ),
            _ => format!(
                "uncovered: no source's words decide {what} here ({}); the reading's answer is \
                 an interpolation",
                self.place
            ),
        }
    }

    /// The flag `run` counts such an event under: `uncovered:<place>` or
    /// `borrowed:<place>`.
    pub fn flag(&self) -> String {
        match self.class {
            Class::Borrowed => format!("borrowed:{}", self.place),
            _ => format!("uncovered:{}", self.place),
        }
    }
}

/// The rules of one reading, gathered as the game consults them.
pub(crate) struct RuleBook<'c> {
    corpus: &'c Corpus,
    game: &'c Game,
    interp: &'c Interpretation,
    bound: &'c Bound,
    /// The rules met so far, in the order first met.
    pub rules: Vec<Rule>,
    /// A rule's index by its id.
    by_id: HashMap<String, usize>,
    /// A parameter's rule, once met.
    by_param: HashMap<&'static str, usize>,
}

impl<'c> RuleBook<'c> {
    pub fn new(
        corpus: &'c Corpus,
        game: &'c Game,
        interp: &'c Interpretation,
        bound: &'c Bound,
    ) -> Self {
        RuleBook {
            corpus,
            game,
            interp,
            bound,
            rules: Vec::new(),
            by_id: HashMap::new(),
            by_param: HashMap::new(),
        }
    }

    /// The rules behind `params`, each once, in the order of the parameters, then the
    /// clauses that state the rule of `context` (parameters that do not decide it); and the
    /// gaps among the rules of `params`.
    pub fn apply(
        &mut self,
        params: &[&'static str],
        context: &[&'static str],
    ) -> (Vec<String>, Vec<Gap>) {
        let mut ids: Vec<String> = Vec::new();
        let mut gaps: Vec<Gap> = Vec::new();
        for &p in context {
            let stated = match self.interp.params.iter().find(|x| x.name == p) {
                Some(x) => match &x.origin {
                    ParamOrigin::Clause(id) => Some(id.as_str()),
                    _ => self.opened_by(p),
                },
                None => None,
            };
            if let Some(c) = stated {
                let id = self.clause_id(c);
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        for &p in params {
            // An option comes with the clause that leaves its open point open: the general
            // rule, then the reading's answer.
            if let Some(c) = self.opened_by(p) {
                let id = self.clause_id(c);
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            let i = self.rule_of(p);
            let id = &self.rules[i].id;
            if !ids.contains(id) {
                ids.push(id.clone());
            }
            if let Some((class, place)) = self.bound.ungrounded(p) {
                match gaps
                    .iter_mut()
                    .find(|g| g.place == place && g.class == class)
                {
                    Some(g) => g.params.push(p.to_owned()),
                    None => gaps.push(Gap {
                        class,
                        place: place.to_owned(),
                        params: vec![p.to_owned()],
                    }),
                }
            }
        }
        (ids, gaps)
    }

    /// The rule behind a parameter, added on first sight.
    fn rule_of(&mut self, param: &'static str) -> usize {
        if let Some(&i) = self.by_param.get(param) {
            return i;
        }
        let value = self.bound.values.get(param).cloned().unwrap_or(Value::Null);
        let rule = self.make(param);
        let i = match self.by_id.get(&rule.id) {
            Some(&i) => i,
            None => {
                self.rules.push(rule);
                self.by_id.insert(
                    self.rules.last().expect("pushed").id.clone(),
                    self.rules.len() - 1,
                );
                self.rules.len() - 1
            }
        };
        self.rules[i].params.push((param.to_owned(), value));
        self.by_param.insert(param, i);
        i
    }

    /// A new rule for a parameter, its parameters still to be listed.
    fn make(&self, param: &str) -> Rule {
        let quotes = |cites: &[Cite]| quotes(self.corpus, cites);
        let blank = |id: String, kind: &str, says: String, class: Option<Classed>| Rule {
            id,
            kind: kind.to_owned(),
            says,
            params: Vec::new(),
            cites: Vec::new(),
            by: Vec::new(),
            class,
            choice: None,
        };
        if self.bound.overrides.contains_key(param) {
            let place = self
                .bound
                .ungrounded(param)
                .map_or("--set", |(_, place)| place)
                .to_owned();
            return blank(
                format!("set:{param}"),
                "override",
                format!("{place} sets {param} for this run"),
                Some(classed(Class::Interpolated, vec![], vec![place])),
            );
        }
        let origin = self
            .interp
            .params
            .iter()
            .find(|p| p.name == param)
            .map_or(ParamOrigin::Default, |p| p.origin.clone());
        let prov = &self.interp.provenance;
        match origin {
            ParamOrigin::Clause(id) => self.clause_rule(&id),
            ParamOrigin::Option { choice, option } => {
                let id = format!("option:{choice}={option}");
                let Some(ch) = self.game.choice(&choice) else {
                    return blank(id, "option", String::new(), None);
                };
                let Some(o) = ch.options.iter().find(|o| o.id == option) else {
                    return blank(id, "option", String::new(), None);
                };
                Rule {
                    cites: quotes(&o.cites),
                    by: o.by.clone(),
                    choice: Some(OpenPoint {
                        id: ch.id.clone(),
                        question: ch.question.clone(),
                        cites: quotes(&ch.cites),
                        taken: o.id.clone(),
                        options: ch
                            .options
                            .iter()
                            .map(|o| OptionShown {
                                id: o.id.clone(),
                                says: o.says.clone(),
                                by: o.by.clone(),
                            })
                            .collect(),
                    }),
                    ..blank(id, "option", o.says.clone(), prov.choice(&choice).cloned())
                }
            }
            ParamOrigin::Interpretation(id) => {
                let id = if id.is_empty() {
                    self.interp.id.clone()
                } else {
                    id
                };
                let reading = self.game.interpretation(&id).unwrap_or(self.interp);
                // As the binding classes it (the gaps are the binding's): an engine
                // setting of someone's reading is an interpolation; one of an encoding's
                // reading rests on the encoding it names.
                let class = prov.setting(param).cloned().unwrap_or_else(|| {
                    match self.bound.ungrounded(param) {
                        Some((class, _)) => classed(class, vec![], reading.by.clone()),
                        None => {
                            let c =
                                classify(self.corpus, self.game, &reading.basis, &[], &reading.by);
                            if c.class == Class::Grounded {
                                c
                            } else {
                                let sources = reading
                                    .basis
                                    .iter()
                                    .map(|a| label(self.corpus, self.game, a))
                                    .collect();
                                classed(Class::Grounded, sources, vec![])
                            }
                        }
                    }
                });
                Rule {
                    by: reading.by.clone(),
                    ..blank(
                        format!("reading:{id}/{param}"),
                        "reading",
                        format!("the reading `{id}` ({}) sets {param} itself", reading.title),
                        Some(class),
                    )
                }
            }
            ParamOrigin::Default => blank(
                format!("default:{param}"),
                "default",
                format!(
                    "the engine's default for {param}: a behaviour of the program, which no \
                     source or reading sets"
                ),
                None,
            ),
        }
    }
}

impl<'c> RuleBook<'c> {
    /// The clause that leaves open the open point whose option set `param`, if any.
    fn opened_by(&self, param: &str) -> Option<&'c str> {
        if self.bound.overrides.contains_key(param) {
            return None;
        }
        let choice = self
            .interp
            .params
            .iter()
            .find(|p| p.name == param)
            .and_then(|p| match &p.origin {
                ParamOrigin::Option { choice, .. } => Some(choice.as_str()),
                _ => None,
            })?;
        self.game
            .clauses
            .iter()
            .find(|c| c.open.iter().any(|o| o == choice))
            .map(|c| c.id.as_str())
    }

    /// A clause's rule id, the rule added on first sight.
    fn clause_id(&mut self, clause: &str) -> String {
        let id = format!("clause:{clause}");
        if !self.by_id.contains_key(&id) {
            let rule = self.clause_rule(clause);
            self.by_id.insert(id.clone(), self.rules.len());
            self.rules.push(rule);
        }
        id
    }

    /// A clause as a rule, its parameters still to be listed.
    fn clause_rule(&self, id: &str) -> Rule {
        let Some(c) = self.game.clauses.iter().find(|c| c.id == id) else {
            return Rule {
                id: format!("clause:{id}"),
                kind: "clause".to_owned(),
                says: String::new(),
                params: Vec::new(),
                cites: Vec::new(),
                by: Vec::new(),
                class: None,
                choice: None,
            };
        };
        Rule {
            id: format!("clause:{id}"),
            kind: "clause".to_owned(),
            says: c.says.clone(),
            params: Vec::new(),
            cites: quotes(self.corpus, &c.cites),
            by: c.by.clone(),
            class: self.interp.provenance.clause(id).cloned(),
            choice: None,
        }
    }
}

/// Quotes with their places.
fn quotes(corpus: &Corpus, cites: &[Cite]) -> Vec<Quote> {
    cites
        .iter()
        .map(|c| Quote {
            at: c.at.clone(),
            quote: c.quote.clone(),
            locator: corpus.locator(c),
            note: c.role.note(),
        })
        .collect()
}

/// A class with its sources or authors.
fn classed(class: Class, sources: Vec<String>, by: Vec<String>) -> Classed {
    Classed { class, sources, by }
}
