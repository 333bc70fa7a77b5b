//! The rulesets (`rulesets/<game>.yaml`): a game's choices and their options, its clauses,
//! its `sets:` blocks checked against the family's vocabulary, and the coverage of the
//! register's readings (each offered or declined, never both).

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::Value;

use super::refs::is_question;
use super::{QuoteTarget, Validator};
use crate::corpus::diag::Place;
use crate::corpus::model::closest;
use crate::corpus::model::*;
use crate::corpus::raw::{self, Sets, Sp};
use crate::family::Family;

impl Validator<'_> {
    pub(super) fn ruleset(
        &mut self,
        path: &str,
        f: &raw::RulesetFile,
        corpus: &Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> Option<Game> {
        self.version(path, &f.schema_version);
        self.game_id(path, &f.id);
        let expected = format!("rulesets/{}.yaml", f.id.value);
        if path != expected {
            self.diags.push(
                Place::at(path, &f.id.referenced),
                "file-name-mismatch",
                format!("game `{}` must be in `{expected}`", f.id.value),
            );
        }
        for s in &f.sources {
            if !Self::anchor_known(corpus, &s.value) {
                self.dangling(
                    path,
                    s,
                    "source anchor",
                    corpus
                        .passages
                        .keys()
                        .chain(corpus.evidence.keys())
                        .chain(corpus.encodings.keys()),
                );
            }
        }
        let family = f.family;

        // Choices first, so that clauses can refer to them.
        let mut choice_ids = HashSet::new();
        let mut choices = Vec::new();
        let mut choice_places: HashMap<String, HashMap<String, Place>> = HashMap::new();
        for c in &f.choices {
            if !choice_ids.insert(c.id.value.clone()) {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "duplicate-id",
                    format!("choice `{}` is defined twice", c.id.value),
                );
                continue;
            }
            if c.options.is_empty() {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "missing-field",
                    format!("choice `{}` has no options", c.id.value),
                );
            }
            let choice_cites = self.cites(path, &c.cites, corpus, targets);
            let mut options = Vec::new();
            let mut option_ids = HashSet::new();
            let places = choice_places.entry(c.id.value.clone()).or_default();
            for o in &c.options {
                if !option_ids.insert(o.id.value.clone()) {
                    self.diags.push(
                        Place::at(path, &o.id.referenced),
                        "duplicate-id",
                        format!(
                            "option `{}` appears twice in choice `{}`",
                            o.id.value, c.id.value
                        ),
                    );
                    continue;
                }
                places.insert(o.id.value.clone(), Place::at(path, &o.id.referenced));
                if o.by.is_empty() {
                    self.diags.push(
                        Place::at(path, &o.id.referenced),
                        "no-proponent",
                        format!("option `{}` must say who proposes it (`by:`)", o.id.value),
                    );
                }
                let by = self.proponents(path, &o.by, corpus);
                let mut cites = self.cites(path, &o.cites, corpus, targets);
                for q in cites.iter_mut().filter(|q| q.role == QuoteRole::Words) {
                    if is_question(q, &choice_cites, targets) {
                        q.role = QuoteRole::Question;
                    }
                }
                let sets = self.sets(path, family, &o.sets);
                let register = self.readings_taken(path, &o.register, &c.addresses, corpus);
                let engine = o
                    .engine
                    .as_ref()
                    .map(|e| self.engine_option(path, e, o, corpus));
                options.push(ChoiceOption {
                    id: o.id.value.clone(),
                    says: o.says.clone(),
                    by,
                    cites,
                    sets,
                    register,
                    engine,
                    aliases: o.aliases.iter().map(|a| a.value.clone()).collect(),
                });
            }
            self.merged_options(path, c, &options);
            let addresses = self.addresses(path, &c.addresses, corpus);
            choices.push(Choice {
                id: c.id.value.clone(),
                question: c.question.clone(),
                cites: choice_cites,
                addresses,
                options,
            });
        }

        let mut clause_ids = HashSet::new();
        let mut clauses = Vec::new();
        let mut clause_sets_places: Vec<(String, Place, Value, ParamOrigin)> = Vec::new();
        for c in &f.rules {
            if !clause_ids.insert(c.id.value.clone()) {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "duplicate-id",
                    format!("clause `{}` is defined twice", c.id.value),
                );
                continue;
            }
            if c.cites.is_empty() && c.by.is_empty() {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "uncited-clause",
                    format!(
                        "clause `{}` neither cites the words it rests on (`cites:`) nor says who interpolated it (`by:`)",
                        c.id.value
                    ),
                );
            }
            let cites = self.cites(path, &c.cites, corpus, targets);
            if !cites.is_empty() && !cites.iter().any(Cite::says) && c.by.is_empty() {
                self.diags.push(
                    Place::at(path, &c.id.referenced),
                    "uncited-clause",
                    format!(
                        "clause `{}` quotes only terms or deferrals, which ground nothing: cite the words that say the rule (those of the passage deferred to, or whoever states it), or say who interpolated it (`by:`)",
                        c.id.value
                    ),
                );
            }
            let by = self.proponents(path, &c.by, corpus);
            for o in &c.open {
                if !choice_ids.contains(&o.value) {
                    self.dangling(path, o, "choice", choices.iter().map(|c| &c.id));
                }
            }
            let sets = self.sets(path, family, &c.sets);
            for (k, v) in &c.sets {
                if sets.iter().any(|(n, _)| n == &k.value) {
                    clause_sets_places.push((
                        k.value.clone(),
                        Place::at(path, &k.referenced),
                        v.value.clone(),
                        ParamOrigin::Clause(c.id.value.clone()),
                    ));
                }
            }
            let register = self.readings_taken(path, &c.register, &c.addresses, corpus);
            clauses.push(Clause {
                id: c.id.value.clone(),
                says: c.says.clone(),
                cites,
                by,
                sets,
                open: c.open.iter().map(|o| o.value.clone()).collect(),
                addresses: self.addresses(path, &c.addresses, corpus),
                register,
            });
        }
        let declined = self.coverage(path, f, corpus);
        let remarks = self.remarks(path, &f.remarks, corpus, targets);

        let interpretations = self.interpretations(
            path,
            f,
            corpus,
            &choices,
            &choice_places,
            &clause_sets_places,
        );
        let mut game = Game {
            id: f.id.value.clone(),
            name: f.name.clone(),
            aliases: f.aliases.clone(),
            people: f.people.clone(),
            observed: f.observed,
            family,
            sources: f.sources.iter().map(|s| s.value.clone()).collect(),
            file: path.to_owned(),
            clauses,
            choices,
            interpretations,
            declined,
            remarks,
        };
        self.departures(path, f, corpus, &mut game);
        Some(game)
    }

    /// A reading that reads a source takes, at every choice, an option that source's words
    /// ground, wherever one is offered; where it takes another, its `departs:` (or that of a
    /// reading it extends) says why. A reason where the reading does not depart is stale.
    fn departures(&mut self, path: &str, f: &raw::RulesetFile, corpus: &Corpus, game: &mut Game) {
        let raws: HashMap<&str, &raw::Interpretation> = f
            .interpretations
            .iter()
            .map(|i| (i.id.value.as_str(), i))
            .collect();
        let mut found = Vec::new();
        for interp in &game.interpretations {
            let Some(own) = raws.get(interp.id.as_str()) else {
                continue;
            };
            // The reasons, the reading's own first, then those of the readings it extends.
            let mut reasons: Vec<(&Sp<String>, &String, bool)> = Vec::new();
            let mut link = Some(*own);
            let mut hops = 0;
            while let Some(l) = link
                && hops <= raws.len()
            {
                for (c, why) in &l.departs {
                    if !reasons.iter().any(|(k, _, _)| k.value == c.value) {
                        reasons.push((c, why, hops == 0));
                    }
                }
                link = l
                    .extends
                    .as_ref()
                    .and_then(|e| raws.get(e.value.as_str()).copied());
                hops += 1;
            }
            let mut departs = Vec::new();
            let mut used = HashSet::new();
            if !interp.basis.is_empty() {
                for (c, takes) in &interp.choose {
                    let Some(choice) = game.choice(c) else {
                        continue;
                    };
                    let grounded: Vec<String> = choice
                        .options
                        .iter()
                        .filter(|o| {
                            crate::corpus::provenance::classify(
                                corpus,
                                game,
                                &interp.basis,
                                &o.cites,
                                &o.by,
                            )
                            .class
                                == Class::Grounded
                        })
                        .map(|o| o.id.clone())
                        .collect();
                    if grounded.is_empty() || grounded.contains(takes) {
                        continue;
                    }
                    match reasons.iter().find(|(k, _, _)| &k.value == c) {
                        Some((_, why, _)) => {
                            used.insert(c.clone());
                            departs.push(Departure {
                                choice: c.clone(),
                                takes: takes.clone(),
                                grounded,
                                why: why.trim().to_owned(),
                            });
                        }
                        None => self.diags.push(
                            Place::at(path, &own.id.referenced),
                            "undeclared-departure",
                            format!(
                                "reading `{}` takes `{takes}` at `{c}`, but its basis grounds {}: take {}, or say why not in `departs: {{ {c}: <why> }}`",
                                interp.id,
                                grounded.iter().map(|g| format!("`{g}`")).collect::<Vec<_>>().join(", "),
                                if grounded.len() == 1 { "it" } else { "one" },
                            ),
                        ),
                    }
                }
            }
            for (c, _, is_own) in &reasons {
                if *is_own && !used.contains(&c.value) {
                    self.diags.push(
                        Place::at(path, &c.referenced),
                        "stale-departure",
                        format!(
                            "reading `{}` gives a reason to depart at `{}`, but it takes an option its basis grounds there (or none is grounded): drop the reason",
                            interp.id, c.value
                        ),
                    );
                }
            }
            found.push(departs);
        }
        for (interp, departs) in game.interpretations.iter_mut().zip(found) {
            interp.departs = departs;
        }
    }

    /// Two options of one choice that set the same parameters are one rule: the corpus holds
    /// it once, with every proponent, the other id kept as an alias (so that `flags` never
    /// reports a conflict between identical rules). An alias names no other option.
    fn merged_options(&mut self, path: &str, c: &raw::Choice, options: &[ChoiceOption]) {
        let key = |o: &ChoiceOption| {
            let mut sets = o.sets.clone();
            sets.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::to_string(&sets).unwrap_or_default()
        };
        for (i, o) in options.iter().enumerate() {
            if let Some(first) = options[..i].iter().find(|p| key(p) == key(o)) {
                let at = c.options.iter().find(|r| r.id.value == o.id);
                if let Some(r) = at {
                    self.diags.push(
                        Place::at(path, &r.id.referenced),
                        "duplicate-option",
                        format!(
                            "options `{}` and `{}` of choice `{}` set the same parameters: they are one rule; merge them into `{}`, listing every proponent in its `by:` and its quotes, with `aliases: [{}]`",
                            first.id, o.id, c.id.value, first.id, o.id
                        ),
                    );
                }
            }
        }
        let mut seen: HashSet<&str> = options.iter().map(|o| o.id.as_str()).collect();
        for a in c.options.iter().flat_map(|o| &o.aliases) {
            if !seen.insert(a.value.as_str()) {
                self.diags.push(
                    Place::at(path, &a.referenced),
                    "duplicate-id",
                    format!(
                        "alias `{}` of choice `{}` is already an option or an alias there",
                        a.value, c.id.value
                    ),
                );
            }
        }
    }

    /// Checks the remarks: unique ids, a kind of the closed set, and quotes, checked as a
    /// clause's are.
    fn remarks(
        &mut self,
        path: &str,
        remarks: &[raw::Remark],
        corpus: &Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> Vec<Remark> {
        let mut ids = HashSet::new();
        let mut out = Vec::new();
        for r in remarks {
            if !ids.insert(r.id.value.as_str()) {
                self.diags.push(
                    Place::at(path, &r.id.referenced),
                    "duplicate-id",
                    format!("remark `{}` is defined twice", r.id.value),
                );
                continue;
            }
            let kind = RemarkKind::parse(r.kind.value.trim());
            if kind.is_none() {
                self.diags.push(
                    Place::at(path, &r.kind.referenced),
                    "remark-kind",
                    format!(
                        "remark `{}` has the kind `{}`; a remark's kind is one of: {}",
                        r.id.value,
                        r.kind.value,
                        RemarkKind::ALL
                            .iter()
                            .map(|k| format!("`{}`", k.as_str()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            if r.cites.is_empty() {
                self.diags.push(
                    Place::at(path, &r.id.referenced),
                    "uncited-remark",
                    format!(
                        "remark `{}` quotes nothing: a remark says what a source says, so it cites the source's words (`cites:`)",
                        r.id.value
                    ),
                );
            }
            let cites = self.cites(path, &r.cites, corpus, targets);
            if let Some(kind) = kind {
                out.push(Remark {
                    id: r.id.value.clone(),
                    kind,
                    says: r.says.clone(),
                    cites,
                });
            }
        }
        out
    }

    /// Checks an option marked as an engine's behaviour (`engine:`): it names the engine, and
    /// no source's words support it (its quotes and proponents are encodings, or readings).
    fn engine_option(
        &mut self,
        path: &str,
        engine: &Sp<String>,
        o: &raw::ChoiceOption,
        corpus: &Corpus,
    ) -> String {
        if engine.value.trim().is_empty() {
            self.diags.push(
                Place::at(path, &engine.referenced),
                "empty-engine",
                "`engine:` names the engine whose behaviour the option is (`Ludii 1.0.8, as traced`)",
            );
        }
        let anchors =
            o.by.iter()
                .filter(|b| !b.value.trim().starts_with("reading:"))
                .map(|b| (b.value.trim(), &b.referenced))
                .chain(
                    o.cites
                        .iter()
                        .map(|c| (c.at.value.as_str(), &c.at.referenced)),
                );
        for (anchor, at) in anchors {
            if !corpus.encodings.contains_key(anchor) && Self::anchor_known(corpus, anchor) {
                self.diags.push(
                    Place::at(path, at),
                    "engine-with-source",
                    format!(
                        "option `{}` is marked as an engine's behaviour (`engine:`), but `{anchor}` is a source's words, not an encoding's: an option a source supports is a reading of that source; drop `engine:` or the anchor",
                        o.id.value
                    ),
                );
            }
        }
        engine.value.trim().to_owned()
    }

    /// Checks every assignment of a `sets:` block against the family, once.
    pub(super) fn sets(&mut self, path: &str, family: Family, sets: &Sets) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        for (k, v) in sets {
            match family.check_value(&k.value, &v.value) {
                Ok(()) => out.push((k.value.clone(), v.value.clone())),
                Err(msg) => {
                    let known = family.params().iter().any(|p| p.name == k.value);
                    if known {
                        self.diags
                            .push(Place::at(path, &v.referenced), "param-type", msg);
                        // Still counts as set, so that a mistyped value is reported once and
                        // not again as a missing parameter for every reading. The corpus is
                        // not handed out while any diagnostic stands.
                        out.push((k.value.clone(), v.value.clone()));
                    } else {
                        self.diags
                            .push(Place::at(path, &k.referenced), "param-unknown", msg);
                    }
                }
            }
        }
        out
    }

    /// Every reading of every point the ruleset addresses is offered (by an option or a
    /// clause) or declined with a reason; nothing is both.
    fn coverage(&mut self, path: &str, f: &raw::RulesetFile, corpus: &Corpus) -> Vec<Declined> {
        let mut offered: HashSet<&str> = HashSet::new();
        for c in &f.rules {
            offered.extend(c.register.iter().map(|r| r.value.as_str()));
        }
        for c in &f.choices {
            for o in &c.options {
                offered.extend(o.register.iter().map(|r| r.value.as_str()));
            }
        }
        let mut declined: HashMap<&str, Place> = HashMap::new();
        let mut out = Vec::new();
        for d in &f.declined {
            let here = Place::at(path, &d.reading.referenced);
            if corpus.point_reading(&d.reading.value).is_none() {
                let all: Vec<&String> = corpus
                    .points
                    .values()
                    .flat_map(|p| p.readings.iter().map(|r| &r.id))
                    .collect();
                let near = closest(&d.reading.value, &all, |k| vec![(*k).clone()]);
                self.diags.push(
                    here,
                    "dangling-reading",
                    format!(
                        "no register reading `{}`{}",
                        d.reading.value,
                        if near.is_empty() {
                            String::new()
                        } else {
                            format!("; did you mean `{}`?", near[0])
                        }
                    ),
                );
                continue;
            }
            if offered.contains(d.reading.value.as_str()) {
                self.diags.push(
                    here.clone(),
                    "declined-and-offered",
                    format!("`{}` is declined here but an option or clause offers it (`register:`); drop one", d.reading.value),
                );
            }
            if d.why.trim().is_empty() {
                self.diags.push(
                    here.clone(),
                    "missing-field",
                    format!("declining `{}` needs a reason (`why:`)", d.reading.value),
                );
            }
            if let Some(prev) = declined.insert(d.reading.value.as_str(), here.clone()) {
                self.diags.push(
                    here,
                    "duplicate-id",
                    format!("`{}` is already declined at {prev}", d.reading.value),
                );
                continue;
            }
            out.push(Declined {
                reading: d.reading.value.clone(),
                why: d.why.clone(),
            });
        }
        // The points addressed, each with its first place.
        let mut addressed: IndexMap<&str, &Sp<String>> = IndexMap::new();
        for a in f
            .rules
            .iter()
            .flat_map(|c| c.addresses.iter())
            .chain(f.choices.iter().flat_map(|c| c.addresses.iter()))
        {
            addressed.entry(a.value.as_str()).or_insert(a);
        }
        for (id, at) in &addressed {
            let Some(point) = corpus.points.get(*id) else {
                continue;
            };
            let missing: Vec<&str> = point
                .effective_readings(corpus)
                .iter()
                .map(|r| r.id.as_str())
                .filter(|r| !offered.contains(r) && !declined.contains_key(r))
                .collect();
            if !missing.is_empty() {
                self.diags.push(
                    Place::at(path, &at.referenced),
                    "reading-not-offered",
                    format!(
                        "point `{id}` is addressed here, but its reading{} {} {} neither offered by an option or clause (`register: [{}]`) nor declined (`declined: - reading: {} / why: ...`)",
                        if missing.len() == 1 { "" } else { "s" },
                        missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "),
                        if missing.len() == 1 { "is" } else { "are" },
                        missing[0],
                        missing[0],
                    ),
                );
            }
        }
        out
    }
}
