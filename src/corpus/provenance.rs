//! Provenance: where each rule of a reading comes from, computed from the words it quotes.
//!
//! A reading declares its **basis**, the sources it reads (`davies`: Davies' passage; `dlp`:
//! the DLP's paraphrase; `ludii`: its encoding). Every clause, and the option the reading takes
//! at every choice, is then classed against that basis:
//! - **grounded**: it quotes words of the basis (an encoding's `by:` anchor counts as its
//!   words, which are code);
//! - **borrowed**: it quotes words, but only of other sources (named by label);
//! - **interpolated**: it quotes nothing; its `by:` says who added it.
//!
//! Only quotes that say something count (the loader sets each quote's role): a **term**
//! (`term: true`, the one word an item is about), a **deferral** (`defers:`, "in the same
//! manner as before described") and an option's quote that is its own **question's words**
//! (fewer than three of its words outside the spans its choice cites) are shown beside the
//! item but ground and lend nothing. A deferral's target grounds only through its own words,
//! quoted by the item.
//!
//! The classes are computed here and nowhere else, and nothing in a ruleset can state them:
//! a description may only claim what the quotes carry. A choice's own quotes (the words the
//! question arises from) never ground an option.

use super::model::*;

/// The provenance of one interpretation of a game.
pub(super) fn provenance(corpus: &Corpus, game: &Game, interp: &Interpretation) -> Provenance {
    let classify = |cites: &[Cite], by: &[String]| classify(corpus, game, &interp.basis, cites, by);
    let clauses = game
        .clauses
        .iter()
        .map(|c| (c.id.clone(), classify(&c.cites, &c.by)))
        .collect();
    let choices = interp
        .choose
        .iter()
        .filter_map(|(choice, option)| {
            let o = game
                .choice(choice)?
                .options
                .iter()
                .find(|o| &o.id == option)?;
            Some((choice.clone(), option.clone(), classify(&o.cites, &o.by)))
        })
        .collect();
    let settings = interp
        .params
        .iter()
        .filter(|p| p.kind == crate::family::ParamKind::Rule)
        .filter_map(|p| match &p.origin {
            ParamOrigin::Interpretation(from) => {
                let by = game
                    .interpretation(from)
                    .map_or(&interp.by, |i| &i.by)
                    .clone();
                Some((p.name.clone(), classify(&[], &by)))
            }
            _ => None,
        })
        .collect();
    Provenance {
        clauses,
        choices,
        settings,
    }
}

/// Classes one item (its quotes and its `by:`) against a basis.
pub fn classify(
    corpus: &Corpus,
    game: &Game,
    basis: &[String],
    cites: &[Cite],
    by: &[String],
) -> Classed {
    // The words an item rests on: its quotes that say something (not a term, a deferral or
    // the question's own words), and encodings it names (their words are code).
    let words: Vec<&str> = cites
        .iter()
        .filter(|c| c.says())
        .map(|c| c.at.as_str())
        .chain(
            by.iter()
                .map(String::as_str)
                .filter(|b| corpus.encodings.contains_key(*b)),
        )
        .collect();
    let in_basis = |anchor: &str| {
        let work = anchor.split_once('#').map_or(anchor, |(w, _)| w);
        basis.iter().any(|b| b == anchor || b == work)
    };
    let labels = |keep: &dyn Fn(&str) -> bool| {
        let mut out: Vec<String> = Vec::new();
        for a in words.iter().filter(|a| keep(a)) {
            let l = label(corpus, game, a);
            if !out.contains(&l) {
                out.push(l);
            }
        }
        out
    };
    if words.iter().any(|a| in_basis(a)) {
        Classed {
            class: Class::Grounded,
            sources: labels(&|a| in_basis(a)),
            by: Vec::new(),
        }
    } else if !words.is_empty() {
        Classed {
            class: Class::Borrowed,
            sources: labels(&|_| true),
            by: Vec::new(),
        }
    } else {
        Classed {
            class: Class::Interpolated,
            sources: Vec::new(),
            by: by.to_vec(),
        }
    }
}

/// A source as a reader names it: `DLP` for an evidence record, `Ludii 1.3.12` for an
/// encoding, the author (`Davies`) for a passage on this game, the other game's name for a
/// passage on another game (what a reading borrows from the hyena game is the hyena game's).
pub fn label(corpus: &Corpus, game: &Game, anchor: &str) -> String {
    if corpus.evidence.contains_key(anchor) {
        return "DLP".to_owned();
    }
    if let Some(e) = corpus.encodings.get(anchor) {
        return format!("{} {}", e.system, e.version);
    }
    if let Some(p) = corpus.passages.get(anchor)
        && p.game != game.id
    {
        return corpus
            .game(&p.game)
            .map_or_else(|| p.heading.clone(), |g| g.name.clone());
    }
    let work = anchor.split_once('#').map_or(anchor, |(w, _)| w);
    corpus
        .work(work)
        .and_then(|w| w.csl.as_ref())
        .and_then(|c| c.author.first())
        .map_or_else(|| work.to_owned(), |a| a.family.clone())
}
