//! The checks across files: an id written in one file (a quote's anchor, a witness, a
//! proponent, a point, a register reading) against what another file defines, each miss
//! reported with the ids that would have fitted; and the quotes themselves, matched against
//! the texts of the sources they cite.

use std::collections::HashMap;

use super::{QuoteTarget, Validator};
use crate::corpus::diag::Place;
use crate::corpus::model::closest;
use crate::corpus::model::*;
use crate::corpus::raw::{self, Sp};
use crate::corpus::text::{contains_folded, fold, longest_matching_prefix};

impl Validator<'_> {
    pub(super) fn dangling<'k>(
        &mut self,
        path: &str,
        id: &Sp<String>,
        what: &str,
        valid: impl Iterator<Item = &'k String>,
    ) {
        let valid: Vec<&str> = valid.map(String::as_str).collect();
        let list = if valid.is_empty() {
            "none is defined".to_owned()
        } else {
            valid.join(", ")
        };
        self.diags.push(
            Place::at(path, &id.referenced),
            dangling_code(what),
            format!("no {what} `{}`; expected one of: {list}", id.value),
        );
    }

    pub(super) fn anchor_known(corpus: &Corpus, id: &str) -> bool {
        corpus.passages.contains_key(id)
            || corpus.evidence.contains_key(id)
            || corpus.encodings.contains_key(id)
            || corpus.works.iter().any(|w| w.id == id)
    }

    pub(super) fn proponents(
        &mut self,
        path: &str,
        by: &[Sp<String>],
        corpus: &Corpus,
    ) -> Vec<String> {
        for b in by {
            let v = b.value.trim();
            let reading = v.strip_prefix("reading:").map(str::trim);
            let ok = match reading {
                Some(rest) => !rest.is_empty(),
                None => Self::anchor_known(corpus, v),
            };
            if !ok {
                self.diags.push(
                    Place::at(path, &b.referenced),
                    "unknown-proponent",
                    format!(
                        "`{}` is neither a source anchor of the corpus nor an attribution `reading: <who, and why>`; anchors are passages (e.g. {}), evidence records (e.g. {}), encodings (e.g. {}) or source ids",
                        b.value,
                        corpus.passages.keys().next().map_or("davies-1925#um-el-bagara", String::as_str),
                        corpus.evidence.keys().next().map_or("DLP.Evidence.694", String::as_str),
                        corpus.encodings.keys().next().map_or("ludii-1.0.8#um-el-bagara", String::as_str),
                    ),
                );
            }
        }
        by.iter().map(|b| b.value.trim().to_owned()).collect()
    }

    pub(super) fn cites(
        &mut self,
        path: &str,
        cites: &[raw::Cite],
        corpus: &Corpus,
        targets: &HashMap<String, Vec<QuoteTarget>>,
    ) -> Vec<Cite> {
        let mut out = Vec::new();
        for c in cites {
            let role = self.quote_role(path, c, corpus);
            out.push(Cite {
                at: c.at.value.clone(),
                quote: c.quote.value.clone(),
                witness: c.witness.as_ref().map(|w| w.value.clone()),
                role,
            });
            let Some(ts) = targets.get(&c.at.value) else {
                if corpus.works.iter().any(|w| w.id == c.at.value) {
                    let passages: Vec<&String> = corpus
                        .passages
                        .keys()
                        .filter(|k| k.starts_with(&format!("{}#", c.at.value)))
                        .collect();
                    self.diags.push(
                        Place::at(path, &c.at.referenced),
                        "dangling-anchor",
                        format!(
                            "`{}` is a whole source; cite one of its passages: {}",
                            c.at.value,
                            passages
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                } else {
                    self.diags.push(
                        Place::at(path, &c.at.referenced),
                        "dangling-anchor",
                        format!(
                            "no passage, evidence record or encoding `{}`; passages are: {}",
                            c.at.value,
                            corpus
                                .passages
                                .keys()
                                .map(String::as_str)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                continue;
            };
            if let Some(w) = &c.witness
                && !ts.iter().any(|t| t.witness == w.value)
            {
                let valid: Vec<&String> = ts.iter().map(|t| &t.witness).collect();
                self.dangling(path, w, "witness of this anchor", valid.into_iter());
                continue;
            }
            self.stats.quotes += 1;
            let needle = fold(&c.quote.value);
            let pool: Vec<&QuoteTarget> = ts
                .iter()
                .filter(|t| c.witness.as_ref().is_none_or(|w| w.value == t.witness))
                .collect();
            let found = pool
                .iter()
                .any(|t| t.runs.iter().any(|r| contains_folded(r, &needle)));
            if found {
                self.whole_words(path, c, &needle, &pool);
            } else {
                let best = pool
                    .iter()
                    .flat_map(|t| t.runs.iter())
                    .map(|r| longest_matching_prefix(r, &needle))
                    .max_by_key(|s| s.len())
                    .unwrap_or("");
                let hint = if needle.is_empty() {
                    "the quote is empty".to_owned()
                } else if best.is_empty() {
                    "not even its first word occurs there".to_owned()
                } else {
                    format!("it matches up to «{}», then departs", tail(best, 60))
                };
                self.diags.push(
                    Place::at(path, &c.quote.referenced),
                    "quote-not-found",
                    format!(
                        "quote not found in `{}`{}: {hint}. Quotes must be verbatim (whitespace and quote marks are folded, nothing else); a quote may not span an elision",
                        c.at.value,
                        c.witness.as_ref().map_or(String::new(), |w| format!(" (witness {})", w.value)),
                    ),
                );
            }
        }
        out
    }

    /// What a quote can carry, from its marks (`term:`, `defers:`); a deferral's target is
    /// checked here.
    fn quote_role(&mut self, path: &str, c: &raw::Cite, corpus: &Corpus) -> QuoteRole {
        if let Some(to) = &c.defers {
            let target = to.value.trim();
            let outside = target
                .strip_prefix("outside:")
                .is_some_and(|what| !what.trim().is_empty());
            let known = corpus.passages.contains_key(target)
                || corpus.passages.values().any(|p| p.game == target);
            if !outside && !known {
                self.diags.push(
                    Place::at(path, &to.referenced),
                    "dangling-deferral",
                    format!(
                        "`defers: {target}` names no passage or game of the corpus; a deferral names a passage (e.g. {}), a game (e.g. {}), or one the corpus does not hold as `outside: <what, where>`",
                        corpus.passages.keys().next().map_or("davies-1925#um-el-banat", String::as_str),
                        corpus.passages.values().next().map_or("um-el-banat", |p| p.game.as_str()),
                    ),
                );
            }
            if c.term {
                self.diags.push(
                    Place::at(path, &to.referenced),
                    "term-and-deferral",
                    "a quote is a term (`term: true`) or a deferral (`defers:`), not both",
                );
            }
            return QuoteRole::Defers(target.to_owned());
        }
        if c.term {
            QuoteRole::Term
        } else {
            QuoteRole::Words
        }
    }

    /// A quote is a span of whole words long enough to say something: it starts and ends on
    /// word boundaries where it occurs, and has three words or more unless it is a term.
    fn whole_words(&mut self, path: &str, c: &raw::Cite, needle: &str, pool: &[&QuoteTarget]) {
        let on_boundaries = pool.iter().any(|t| {
            t.runs
                .iter()
                .any(|r| occurrences(r, needle).any(|at| on_word_boundaries(r, at, needle.len())))
        });
        if !on_boundaries {
            self.diags.push(
                Place::at(path, &c.quote.referenced),
                "quote-splits-a-word",
                format!(
                    "«{}» begins or ends inside a word of `{}`: a quote is whole words; extend it to the words' ends",
                    c.quote.value.trim(),
                    c.at.value
                ),
            );
        }
        let n = word_count(needle);
        if n < 3 && !c.term {
            self.diags.push(
                Place::at(path, &c.quote.referenced),
                "quote-too-short",
                format!(
                    "«{}» is {n} word{}: a quote needs at least three words to say something; quote more of the sentence, or mark the one word the item is about with `term: true` (a term grounds nothing)",
                    c.quote.value.trim(),
                    if n == 1 { "" } else { "s" },
                ),
            );
        }
    }

    /// An id that names no point: the message suggests the nearest ids.
    pub(super) fn dangling_point(
        &mut self,
        path: &str,
        id: &Sp<String>,
        corpus: &Corpus,
        what: &str,
    ) {
        let ids: Vec<&String> = corpus.points.keys().collect();
        let near = closest(&id.value.to_lowercase(), &ids, |k| vec![k.to_lowercase()]);
        let hint = if near.is_empty() {
            format!(
                "the register (rulesets/register/) has {} points; `ludotrace point` lists them",
                ids.len()
            )
        } else {
            format!(
                "did you mean {}?",
                near.iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            )
        };
        self.diags.push(
            Place::at(path, &id.referenced),
            "dangling-point",
            format!("no {what} `{}` in the register; {hint}", id.value),
        );
    }

    /// Checks `addresses:` ids against the register.
    pub(super) fn addresses(
        &mut self,
        path: &str,
        ids: &[Sp<String>],
        corpus: &Corpus,
    ) -> Vec<String> {
        for a in ids {
            if !corpus.points.contains_key(&a.value) {
                self.dangling_point(path, a, corpus, "point");
            }
        }
        ids.iter().map(|a| a.value.clone()).collect()
    }

    /// Checks a `register:` list: each reading exists and belongs to a point that the same
    /// clause or choice addresses (directly, or through an encoding note that is the same
    /// point).
    pub(super) fn readings_taken(
        &mut self,
        path: &str,
        readings: &[Sp<String>],
        addresses: &[Sp<String>],
        corpus: &Corpus,
    ) -> Vec<String> {
        for r in readings {
            let Some((point, _)) = corpus.point_reading(&r.value) else {
                let all: Vec<&String> = addresses
                    .iter()
                    .filter_map(|a| corpus.points.get(&a.value))
                    .flat_map(|p| p.effective_readings(corpus).iter().map(|r| &r.id))
                    .collect();
                self.diags.push(
                    Place::at(path, &r.referenced),
                    "dangling-reading",
                    format!(
                        "no register reading `{}`; the readings of the points addressed here are: {}",
                        r.value,
                        if all.is_empty() {
                            "none (address a point first)".to_owned()
                        } else {
                            all.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                        }
                    ),
                );
                continue;
            };
            let covered = addresses.iter().any(|a| {
                a.value == point.id
                    || corpus
                        .points
                        .get(&a.value)
                        .is_some_and(|p| p.same_as.as_deref() == Some(point.id.as_str()))
            });
            if !covered {
                self.diags.push(
                    Place::at(path, &r.referenced),
                    "reading-outside-point",
                    format!(
                        "`{}` is a reading of `{}`, which this clause or choice does not address; add `{}` to its `addresses:`",
                        r.value, point.id, point.id
                    ),
                );
            }
        }
        readings.iter().map(|r| r.value.clone()).collect()
    }

    /// Every point of a game's register must be addressed by its ruleset: a point nobody
    /// addresses is a question the corpus forgot.
    pub(super) fn unaddressed(&mut self, corpus: &Corpus, places: &HashMap<String, Place>) {
        for p in corpus.points.values() {
            let Some(gid) = &p.game else { continue };
            let Some(g) = corpus.game(gid) else { continue };
            let addressed = g
                .clauses
                .iter()
                .flat_map(|c| c.addresses.iter())
                .chain(g.choices.iter().flat_map(|c| c.addresses.iter()))
                .any(|a| a == &p.id);
            if !addressed && let Some(place) = places.get(&p.id) {
                self.diags.push(
                    place.clone(),
                    "unaddressed-point",
                    format!(
                        "point `{}` of {} is addressed by no clause or choice of {}: add it to the `addresses:` of the clause or choice that settles or asks it",
                        p.id, p.file, g.file
                    ),
                );
            }
        }
    }
}

fn dangling_code(what: &str) -> &'static str {
    if what.contains("option") {
        "dangling-option"
    } else if what.contains("choice") {
        "dangling-choice"
    } else if what.contains("interpretation") {
        "dangling-interpretation"
    } else if what.contains("witness") {
        "dangling-witness"
    } else if what.contains("passage") {
        "dangling-passage"
    } else {
        "dangling-anchor"
    }
}

/// The byte offsets at which `needle` occurs in `hay` (both folded), overlaps included.
pub(super) fn occurrences<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        if needle.is_empty() {
            return None;
        }
        let at = from + hay.get(from..)?.find(needle)?;
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
        Some(at)
    })
}

/// Whether `hay[at..at + len]` neither begins nor ends inside a word.
fn on_word_boundaries(hay: &str, at: usize, len: usize) -> bool {
    let before = hay[..at].chars().next_back();
    let first = hay[at..].chars().next();
    let last = hay[..at + len].chars().next_back();
    let after = hay[at + len..].chars().next();
    let joins = |a: Option<char>, b: Option<char>| matches!((a, b), (Some(a), Some(b)) if a.is_alphanumeric() && b.is_alphanumeric());
    !joins(before, first) && !joins(last, after)
}

/// The words of a folded text: its space-separated runs that hold a letter or a digit.
pub(super) fn word_count(folded: &str) -> usize {
    folded
        .split(' ')
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
}

/// Whether an option's quote is its choice's question: wherever it occurs, fewer than three
/// of its words lie outside every span the choice cites for the question (in the same
/// text). Found by span, so nobody has to remember to mark it.
pub(super) fn is_question(
    quote: &Cite,
    question: &[Cite],
    targets: &HashMap<String, Vec<QuoteTarget>>,
) -> bool {
    let asked: Vec<String> = question
        .iter()
        .filter(|q| q.at == quote.at)
        .map(|q| fold(&q.quote))
        .collect();
    if asked.is_empty() {
        return false;
    }
    let needle = fold(&quote.quote);
    let Some(ts) = targets.get(&quote.at) else {
        return false;
    };
    let mut seen = false;
    for t in ts
        .iter()
        .filter(|t| quote.witness.as_ref().is_none_or(|w| w == &t.witness))
    {
        for run in &t.runs {
            let mut covered = vec![false; run.len()];
            for q in &asked {
                for at in occurrences(run, q) {
                    covered[at..at + q.len()].fill(true);
                }
            }
            for at in occurrences(run, &needle) {
                seen = true;
                let mut start = at;
                let mut left = 0;
                for w in needle.split(' ') {
                    let span = start..start + w.len();
                    start = span.end + 1;
                    if w.chars().any(char::is_alphanumeric) && !covered[span].iter().all(|&c| c) {
                        left += 1;
                    }
                }
                if left >= 3 {
                    return false;
                }
            }
        }
    }
    seen
}

/// The last `n` characters of `s`, with an ellipsis if cut.
pub(super) fn tail(s: &str, n: usize) -> String {
    let count = s.chars().count();
    if count <= n {
        s.to_owned()
    } else {
        format!("…{}", s.chars().skip(count - n).collect::<String>())
    }
}
