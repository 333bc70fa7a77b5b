//! The source files (`sources/*.yaml`): works and their witnesses, passages, evidence records
//! and encodings, each quoted text checked against the witness document it claims to come
//! from, and the folded quotable texts that the rulesets' quotes are later matched against.

use std::collections::HashMap;

use super::refs::tail;
use super::{QuoteTarget, Validator};
use crate::corpus::diag::Place;
use crate::corpus::model::*;
use crate::corpus::raw::{self, SourceKind, Sp};
use crate::corpus::text::{contains_folded, fold, longest_matching_prefix};

impl Validator<'_> {
    fn witness_text(&mut self, corpus: &Corpus, witness: &str) -> Option<String> {
        let doc = corpus.witnesses.get(witness)?;
        match self.files.get(&doc.file) {
            Some(f) => f.content.as_ref().ok().map(|t| fold(t)),
            None => None,
        }
    }

    fn check_in_witness(
        &mut self,
        path: &str,
        loc: &Sp<String>,
        witness_folded: Option<&String>,
        witness: &str,
    ) {
        let Some(doc) = witness_folded else { return };
        self.stats.witness_texts += 1;
        let needle = fold(&loc.value);
        if !contains_folded(doc, &needle) {
            let ok = longest_matching_prefix(doc, &needle);
            self.diags.push(
                Place::at(path, &loc.referenced),
                "witness-mismatch",
                format!(
                    "this text does not occur in witness `{witness}`{}",
                    if ok.is_empty() {
                        String::new()
                    } else {
                        format!("; it matches up to «{}», then departs", tail(ok, 60))
                    }
                ),
            );
        }
    }

    pub(super) fn sources(
        &mut self,
        files: &[(String, raw::SourceFile)],
        corpus: &mut Corpus,
        targets: &mut HashMap<String, Vec<QuoteTarget>>,
    ) {
        let mut file_ids: HashMap<String, String> = HashMap::new();
        // Pass 1: works and witnesses, so that passages anywhere can use any witness.
        for (path, f) in files {
            self.version(path, &f.schema_version);
            if let Some(prev) = file_ids.insert(f.id.value.clone(), path.clone()) {
                self.diags.push(
                    Place::at(path, &f.id.referenced),
                    "duplicate-id",
                    format!("source id `{}` is already used by {prev}", f.id.value),
                );
            }
            corpus.works.push(Work {
                id: f.id.value.clone(),
                kind: f.kind,
                title: f.title.clone(),
                csl: f.csl.as_ref().map(|c| self.csl(path, c)),
                file: path.clone(),
            });
            for w in &f.witnesses {
                if corpus.witnesses.contains_key(&w.id.value) {
                    self.diags.push(
                        Place::at(path, &w.id.referenced),
                        "duplicate-id",
                        format!("witness `{}` is defined twice", w.id.value),
                    );
                    continue;
                }
                let file = format!("sources/{}", w.file.value);
                if self.files.get(&file).is_none_or(|f| f.content.is_err()) {
                    self.diags.push(
                        Place::at(path, &w.file.referenced),
                        "witness-missing",
                        format!("witness document `{file}` not found or unreadable: expected a text file under sources/"),
                    );
                }
                corpus.witnesses.insert(
                    w.id.value.clone(),
                    WitnessDoc {
                        id: w.id.value.clone(),
                        title: w.title.clone(),
                        file,
                        origin: w.origin.clone(),
                        url: w.url.clone(),
                        accessed: w.accessed.as_ref().map(|a| {
                            if !is_iso_date(&a.value) {
                                self.diags.push(
                                    Place::at(path, &a.referenced),
                                    "wrong-type",
                                    format!(
                                        "accessed: `{}` is not a date; write it YYYY-MM-DD (2026-11-23)",
                                        a.value
                                    ),
                                );
                            }
                            a.value.clone()
                        }),
                    },
                );
            }
        }
        let mut folded_witness: HashMap<String, Option<String>> = HashMap::new();
        let mut witness = |v: &mut Self, corpus: &Corpus, id: &str| -> Option<String> {
            folded_witness
                .entry(id.to_owned())
                .or_insert_with(|| v.witness_text(corpus, id))
                .clone()
        };
        // Pass 2: passages, evidence, encodings.
        for (path, f) in files {
            let kind_ok = |k: SourceKind| f.kind == k;
            if !f.passages.is_empty() && !kind_ok(SourceKind::Work) {
                self.diags.push(
                    Place::at(path, &f.id.referenced),
                    "wrong-kind",
                    "only a file of kind `work` holds passages",
                );
            }
            for p in &f.passages {
                self.game_id(path, &p.game);
                self.pages(path, &p.page, "page");
                let anchor = format!("{}#{}", f.id.value, p.id.value);
                if corpus.passages.contains_key(&anchor) {
                    self.diags.push(
                        Place::at(path, &p.id.referenced),
                        "duplicate-id",
                        format!("passage `{anchor}` is defined twice"),
                    );
                    continue;
                }
                let mut readings = Vec::new();
                let mut qt = Vec::new();
                for r in &p.readings {
                    if !corpus.witnesses.contains_key(&r.witness.value) {
                        self.dangling(path, &r.witness, "witness", corpus.witnesses.keys());
                    }
                    if r.segments.is_empty() {
                        self.diags.push(
                            Place::at(path, &r.witness.referenced),
                            "missing-field",
                            "a reading needs at least one segment of text",
                        );
                    }
                    let doc = witness(self, corpus, &r.witness.value);
                    for s in &r.segments {
                        self.check_in_witness(path, &s.text, doc.as_ref(), &r.witness.value);
                    }
                    let reading = Reading {
                        witness: r.witness.value.clone(),
                        segments: r
                            .segments
                            .iter()
                            .map(|s| Segment {
                                page: s.page,
                                figure: s.figure.clone(),
                                after_elision: s.after_elision,
                                text: s.text.value.clone(),
                            })
                            .collect(),
                    };
                    qt.push(QuoteTarget {
                        witness: reading.witness.clone(),
                        runs: reading.runs().iter().map(|r| fold(r)).collect(),
                    });
                    readings.push(reading);
                }
                self.stats.passages += 1;
                targets.insert(anchor.clone(), qt);
                corpus.passages.insert(
                    anchor.clone(),
                    Passage {
                        anchor,
                        work: f.id.value.clone(),
                        game: p.game.value.clone(),
                        heading: p.heading.clone(),
                        page: p.page.value.clone(),
                        readings,
                    },
                );
            }
            for e in &f.evidence {
                self.game_id(path, &e.game);
                if corpus.evidence.contains_key(&e.id.value) {
                    self.diags.push(
                        Place::at(path, &e.id.referenced),
                        "duplicate-id",
                        format!("evidence `{}` is defined twice", e.id.value),
                    );
                    continue;
                }
                for w in &e.witnesses {
                    if corpus.witnesses.contains_key(&w.value) {
                        let doc = witness(self, corpus, &w.value);
                        self.check_in_witness(path, &e.rules, doc.as_ref(), &w.value);
                    } else {
                        self.dangling(path, w, "witness", corpus.witnesses.keys());
                    }
                }
                targets.insert(
                    e.id.value.clone(),
                    vec![QuoteTarget {
                        witness: "rules".into(),
                        runs: vec![fold(&e.rules.value)],
                    }],
                );
                self.stats.passages += 1;
                corpus.evidence.insert(
                    e.id.value.clone(),
                    Evidence {
                        id: e.id.value.clone(),
                        record_type: e.record_type.clone(),
                        game_name: e.game_name.clone(),
                        game: e.game.value.clone(),
                        location: e.location.clone(),
                        date: e.date.clone(),
                        confidence: e.confidence,
                        ages: e.ages.clone(),
                        source: e.source.clone(),
                        rules: e.rules.value.clone(),
                        content_passage: e.content.passage.value.clone(),
                        content_witness: e.content.witness.value.clone(),
                        content_citation: e.content.citation.clone(),
                        witnesses: e.witnesses.iter().map(|w| w.value.clone()).collect(),
                    },
                );
            }
            for e in &f.encodings {
                self.game_id(path, &e.game);
                if corpus.encodings.contains_key(&e.id.value) {
                    self.diags.push(
                        Place::at(path, &e.id.referenced),
                        "duplicate-id",
                        format!("encoding `{}` is defined twice", e.id.value),
                    );
                    continue;
                }
                let mut runs = Vec::new();
                for t in &e.texts {
                    if corpus.witnesses.contains_key(&t.witness.value) {
                        let doc = witness(self, corpus, &t.witness.value);
                        self.check_in_witness(path, &t.text, doc.as_ref(), &t.witness.value);
                    } else {
                        self.dangling(path, &t.witness, "witness", corpus.witnesses.keys());
                    }
                    runs.push(fold(&t.text.value));
                }
                targets.insert(
                    e.id.value.clone(),
                    vec![QuoteTarget {
                        witness: "metadata".into(),
                        runs,
                    }],
                );
                corpus.encodings.insert(
                    e.id.value.clone(),
                    Encoding {
                        id: e.id.value.clone(),
                        game: e.game.value.clone(),
                        system: e.system.clone(),
                        version: e.version.clone(),
                        repository: e.repository.clone(),
                        path: e.path.clone(),
                        commit: e.commit.clone(),
                        system_id: e.system_id.clone(),
                        credit: e.credit.clone(),
                        cites: e.cites.clone(),
                        ruleset: e.ruleset.clone(),
                        note: e.note.clone(),
                        texts: e
                            .texts
                            .iter()
                            .map(|t| {
                                (
                                    t.field.clone(),
                                    t.witness.value.clone(),
                                    t.text.value.clone(),
                                )
                            })
                            .collect(),
                    },
                );
            }
        }
        // Pass 3: evidence content must point at a passage reading.
        for (path, f) in files {
            for e in &f.evidence {
                match corpus.passages.get(&e.content.passage.value) {
                    None => {
                        self.dangling(path, &e.content.passage, "passage", corpus.passages.keys())
                    }
                    Some(p) => {
                        if !p
                            .readings
                            .iter()
                            .any(|r| r.witness == e.content.witness.value)
                        {
                            let valid: Vec<&String> =
                                p.readings.iter().map(|r| &r.witness).collect();
                            self.dangling(
                                path,
                                &e.content.witness,
                                "reading witness",
                                valid.into_iter(),
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Whether a text is a date `YYYY-MM-DD` with a month 01–12 and a day 01–31.
fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| r.clone().all(|i| b[i].is_ascii_digit());
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && (1..=12).contains(&s[5..7].parse::<u32>().unwrap_or(0))
        && (1..=31).contains(&s[8..10].parse::<u32>().unwrap_or(0))
}
