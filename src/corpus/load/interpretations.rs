//! A ruleset's interpretations resolved: the chain of readings each extends, the option it
//! takes of each choice, and every parameter of the family set exactly once (rule parameters
//! by the ruleset, engine parameters by it or by default), each with its origin.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::Value;

use super::Validator;
use crate::corpus::diag::Place;
use crate::corpus::model::*;
use crate::corpus::raw;
use crate::family::{Family, ParamKind};

impl Validator<'_> {
    pub(super) fn interpretations(
        &mut self,
        path: &str,
        f: &raw::RulesetFile,
        corpus: &Corpus,
        choices: &[Choice],
        choice_places: &HashMap<String, HashMap<String, Place>>,
        clause_sets: &[(String, Place, Value, ParamOrigin)],
    ) -> Vec<Interpretation> {
        let family = f.family;
        let mut by_id: IndexMap<String, &raw::Interpretation> = IndexMap::new();
        for i in &f.interpretations {
            if by_id.contains_key(&i.id.value) {
                self.diags.push(
                    Place::at(path, &i.id.referenced),
                    "duplicate-id",
                    format!("interpretation `{}` is defined twice", i.id.value),
                );
                continue;
            }
            by_id.insert(i.id.value.clone(), i);
        }
        if by_id.is_empty() {
            self.diags.push(
                Place::at(path, &f.id.referenced),
                "missing-field",
                "a ruleset needs at least one interpretation",
            );
        }
        let ids: Vec<String> = by_id.keys().cloned().collect();
        let mut out = Vec::new();
        for (id, interp) in &by_id {
            // The chain of interpretations this one extends, nearest last.
            let mut chain: Vec<&raw::Interpretation> = vec![interp];
            let mut broken = false;
            let mut cur = *interp;
            while let Some(parent) = &cur.extends {
                match by_id.get(&parent.value) {
                    None => {
                        if cur.id.value == *id {
                            self.dangling(path, parent, "interpretation", ids.iter());
                        }
                        broken = true;
                        break;
                    }
                    Some(p) => {
                        if chain.iter().any(|c| c.id.value == p.id.value) {
                            if cur.id.value == *id || p.id.value == *id {
                                self.diags.push(
                                    Place::at(path, &parent.referenced),
                                    "extends-cycle",
                                    format!(
                                        "interpretation `{id}` extends itself through `{}`",
                                        parent.value
                                    ),
                                );
                            }
                            broken = true;
                            break;
                        }
                        chain.push(p);
                        cur = p;
                    }
                }
            }
            chain.reverse();
            // Effective choices and sets: later (nearer) interpretations override.
            let mut choose: IndexMap<String, (String, Place)> = IndexMap::new();
            let mut sets: IndexMap<String, (Value, Place, String)> = IndexMap::new();
            let mut choose_error = false;
            for link in &chain {
                let own = link.id.value == *id;
                for (c, o) in &link.choose {
                    let Some(places) = choice_places.get(&c.value) else {
                        choose_error = true;
                        if own {
                            self.dangling(path, c, "choice", choices.iter().map(|c| &c.id));
                        }
                        continue;
                    };
                    if !places.contains_key(&o.value) {
                        choose_error = true;
                        let merged = choices
                            .iter()
                            .find(|ch| ch.id == c.value)
                            .and_then(|ch| ch.merged_into(&o.value));
                        if own && let Some(into) = merged {
                            self.diags.push(
                                Place::at(path, &o.referenced),
                                "dangling-option",
                                format!(
                                    "`{}` of choice `{}` was merged into `{}` (the two set the same parameters): write `{}`",
                                    o.value, c.value, into.id, into.id
                                ),
                            );
                        } else if own {
                            let valid: Vec<String> = choices
                                .iter()
                                .find(|ch| ch.id == c.value)
                                .map(|ch| ch.options.iter().map(|o| o.id.clone()).collect())
                                .unwrap_or_default();
                            self.dangling(
                                path,
                                o,
                                &format!("option of choice `{}`", c.value),
                                valid.iter(),
                            );
                        }
                        continue;
                    }
                    choose.insert(
                        c.value.clone(),
                        (o.value.clone(), Place::at(path, &o.referenced)),
                    );
                }
                let checked = if own {
                    self.sets(path, family, &link.sets)
                } else {
                    link.sets
                        .iter()
                        .filter(|(k, v)| family.check_value(&k.value, &v.value).is_ok())
                        .map(|(k, v)| (k.value.clone(), v.value.clone()))
                        .collect()
                };
                for (k, _) in &link.sets {
                    if let Some((_, v)) = checked.iter().find(|(n, _)| n == &k.value) {
                        sets.insert(
                            k.value.clone(),
                            (
                                v.clone(),
                                Place::at(path, &k.referenced),
                                link.id.value.clone(),
                            ),
                        );
                    }
                }
            }
            // Only the interpretation's own `by` is checked here; inherited ones were checked
            // with their own interpretation.
            self.proponents(path, &interp.by, corpus);
            if let Some(own) = &interp.basis {
                for b in own {
                    if !Self::anchor_known(corpus, &b.value) {
                        self.dangling(
                            path,
                            b,
                            "source (work, passage, evidence record or encoding) for a basis",
                            corpus
                                .works
                                .iter()
                                .map(|w| &w.id)
                                .chain(corpus.passages.keys())
                                .chain(corpus.evidence.keys())
                                .chain(corpus.encodings.keys()),
                        );
                    }
                }
                if own.is_empty() {
                    self.diags.push(
                        Place::at(path, &interp.id.referenced),
                        "missing-basis",
                        format!(
                            "interpretation `{id}` has an empty `basis:`: name the sources it reads"
                        ),
                    );
                }
            }
            let basis: Vec<String> = chain
                .iter()
                .rev()
                .find_map(|l| l.basis.as_ref())
                .map(|b| b.iter().map(|x| x.value.clone()).collect())
                .unwrap_or_default();
            if basis.is_empty() && !broken && interp.basis.is_none() {
                self.diags.push(
                    Place::at(path, &interp.id.referenced),
                    "missing-basis",
                    format!(
                        "interpretation `{id}` does not say which sources it reads (`basis:`, e.g. [davies-1925#{}]), nor does any reading it extends",
                        f.id.value
                    ),
                );
            }
            if broken {
                continue;
            }
            let by_all: Vec<String> = chain
                .iter()
                .flat_map(|l| l.by.iter().map(|b| b.value.trim().to_owned()))
                .collect();

            // Gather every assignment with its origin, then check once / never.
            let mut assigned: Vec<(String, Value, Place, ParamOrigin)> = clause_sets
                .iter()
                .map(|(n, p, v, o)| (n.clone(), v.clone(), p.clone(), o.clone()))
                .collect();
            for choice in choices {
                if let Some((opt_id, _)) = choose.get(&choice.id)
                    && let Some(opt) = choice.options.iter().find(|o| &o.id == opt_id)
                {
                    let place = choice_places[&choice.id][opt_id].clone();
                    for (n, v) in &opt.sets {
                        assigned.push((
                            n.clone(),
                            v.clone(),
                            place.clone(),
                            ParamOrigin::Option {
                                choice: choice.id.clone(),
                                option: opt_id.clone(),
                            },
                        ));
                    }
                }
            }
            for (n, (v, place, from)) in &sets {
                assigned.push((
                    n.clone(),
                    v.clone(),
                    place.clone(),
                    ParamOrigin::Interpretation(from.clone()),
                ));
            }
            let here = Place::at(path, &interp.id.referenced);
            let mut params = Vec::new();
            let defaults = family_defaults(family);
            for info in family.params() {
                let hits: Vec<&(String, Value, Place, ParamOrigin)> =
                    assigned.iter().filter(|a| a.0 == info.name).collect();
                match (hits.len(), info.kind) {
                    // A reading whose `choose:` is already reported as broken would only
                    // repeat that problem here.
                    (0, ParamKind::Rule) if choose_error => {}
                    (0, ParamKind::Rule) => {
                        self.diags.push(
                            here.clone(),
                            "param-missing",
                            format!(
                                "interpretation `{id}` never sets rule parameter `{}` ({}); set it in a clause, in an option this interpretation chooses, or in its own `sets:` with `by:`",
                                info.name,
                                crate::family::doc_line(info.doc)
                            ),
                        );
                    }
                    (0, ParamKind::Engine) => params.push(ResolvedParam {
                        name: info.name.to_owned(),
                        kind: info.kind,
                        value: defaults.get(info.name).cloned().unwrap_or(Value::Null),
                        origin: ParamOrigin::Default,
                    }),
                    (1, _) => {
                        let (_, v, place, origin) = hits[0];
                        if info.kind == ParamKind::Rule
                            && matches!(origin, ParamOrigin::Interpretation(_))
                            && by_all.is_empty()
                        {
                            self.diags.push(
                                place.clone(),
                                "unsourced-setting",
                                format!(
                                    "interpretation `{id}` sets rule parameter `{}` itself, so it must say whom it follows (`by:` on the interpretation)",
                                    info.name
                                ),
                            );
                        }
                        params.push(ResolvedParam {
                            name: info.name.to_owned(),
                            kind: info.kind,
                            value: v.clone(),
                            origin: origin.clone(),
                        });
                    }
                    _ => {
                        let list = hits
                            .iter()
                            .map(|(_, _, p, o)| format!("{o} at {p}"))
                            .collect::<Vec<_>>()
                            .join("; ");
                        self.diags.push(
                            here.clone(),
                            "param-twice",
                            format!(
                                "interpretation `{id}` sets parameter `{}` {} times: {list}; each parameter must be set exactly once",
                                info.name,
                                hits.len()
                            ),
                        );
                    }
                }
            }
            self.stats.interpretations += 1;
            let choose_out = choices
                .iter()
                .filter_map(|c| choose.get(&c.id).map(|(o, _)| (c.id.clone(), o.clone())))
                .collect();
            out.push(Interpretation {
                id: id.clone(),
                title: interp.title.clone(),
                about: interp.about.clone(),
                extends: interp.extends.as_ref().map(|e| e.value.clone()),
                choose: choose_out,
                by: by_all,
                params,
                basis,
                provenance: Provenance::default(),
                departs: Vec::new(),
            });
        }
        out
    }
}

fn family_defaults(family: Family) -> serde_json::Map<String, Value> {
    family.engine_defaults()
}
