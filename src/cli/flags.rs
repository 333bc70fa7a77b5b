//! `ludotrace flags [GAME]`: what a game's sources leave open or dispute, from the corpus
//! ([`crate::flags`]): its open points with who proposes each option, the register readings
//! it declines, the places where two sources support different options, and what each reading
//! borrows or interpolates.
//!
//! The result (JSON schema_version 1) is a pure function of the corpus and the ludotrace
//! version.

use schemars::JsonSchema;
use serde::Serialize;

use super::output::{Out, style};
use super::render::OUTPUT_SCHEMA_VERSION;
use super::run::corpus_hash;
use super::{Error, Format};
use crate::corpus::{Corpus, CorpusFiles, Game};
use crate::flags::{Flag, FlagKind, corpus_flags};

/// `flags GAME --format json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagsOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The ludotrace version that produced it.
    pub ludotrace: String,
    /// BLAKE3 of the corpus files (paths and contents).
    pub corpus_hash: String,
    /// Game id.
    pub game: String,
    /// The flags, by kind: `choice`, `declined`, `source-conflict`, `borrowing`,
    /// `interpolation`.
    pub flags: Vec<Flag>,
}

/// `flags --format json` (every game).
#[derive(Debug, Serialize, JsonSchema)]
pub struct FlagsAllOutput {
    /// Always 1.
    pub schema_version: u32,
    /// One report per game, in the corpus's order.
    pub reports: Vec<FlagsOutput>,
}

/// Runs `flags` for one game, or for every game.
///
/// # Errors
/// An unknown game (listing the valid ones).
pub fn flags(
    out: &mut Out,
    corpus: &Corpus,
    files: &CorpusFiles,
    game: Option<&str>,
) -> Result<(), Error> {
    let games: Vec<&Game> = match game {
        Some(id) => vec![super::game_of(corpus, id)?],
        None => corpus.games.iter().collect(),
    };
    let hash = corpus_hash(files);
    let reports: Vec<FlagsOutput> = games
        .iter()
        .map(|g| FlagsOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            ludotrace: env!("CARGO_PKG_VERSION").to_owned(),
            corpus_hash: hash.clone(),
            game: g.id.clone(),
            flags: corpus_flags(corpus, g),
        })
        .collect();
    match (out.format, game) {
        (Format::Json, Some(_)) => out.json(&reports[0]),
        (Format::Json, None) => out.json(&FlagsAllOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            reports,
        }),
        _ => {
            for (g, r) in games.iter().zip(&reports) {
                render(out, g, &r.flags);
            }
        }
    }
    Ok(())
}

/// One game's flags, kind by kind.
fn render(out: &mut Out, game: &Game, flags: &[Flag]) {
    let md = out.format == Format::Markdown;
    let count = |k: FlagKind| flags.iter().filter(|f| f.kind == k).count();
    let title = format!(
        "{} · {} open points, {} declined register readings, {} source conflicts, {} \
         borrowed and {} interpolated items",
        game.name,
        count(FlagKind::Choice),
        count(FlagKind::Declined),
        count(FlagKind::SourceConflict),
        count(FlagKind::Borrowing),
        count(FlagKind::Interpolation),
    );
    if md {
        out.para(&format!("**{title}**"));
    } else {
        out.styled(style::HEAD, &title);
        out.line("");
    }
    let of = |k: FlagKind| flags.iter().filter(move |f| f.kind == k);
    let rows: Vec<Vec<String>> = of(FlagKind::Choice)
        .map(|f| {
            let options: Vec<String> = f
                .options
                .iter()
                .map(|o| {
                    let taken: Vec<String> = o
                        .taken_by
                        .iter()
                        .map(|t| format!("{} ({})", t.reading, t.class.as_str()))
                        .collect();
                    format!(
                        "{}: by {}{}",
                        o.id,
                        if o.by.is_empty() {
                            "nobody named".to_owned()
                        } else {
                            o.by.join("; ")
                        },
                        if taken.is_empty() {
                            String::new()
                        } else {
                            format!(" · taken by {}", taken.join(", "))
                        }
                    )
                })
                .collect();
            // One option a line: in a Markdown cell, a line break is `<br>`.
            let sep = if md { "<br>" } else { "\n" };
            vec![f.id.clone(), f.title.clone(), options.join(sep)]
        })
        .collect();
    if !rows.is_empty() {
        out.table(
            &["open point", "question", "options: proposed by · taken by"],
            rows,
        );
    }
    let rows: Vec<Vec<String>> = of(FlagKind::SourceConflict)
        .map(|f| vec![f.title.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["source conflict", "the words on each side"], rows);
    }
    for (kind, head, whom) in [
        (FlagKind::Borrowing, "borrowed item", "readings · from"),
        (
            FlagKind::Interpolation,
            "interpolated item",
            "readings · added by",
        ),
    ] {
        let rows: Vec<Vec<String>> = of(kind)
            .map(|f| {
                let (item, rest) = f.title.split_once(": ").unwrap_or((&f.title, ""));
                vec![item.to_owned(), rest.to_owned()]
            })
            .collect();
        if !rows.is_empty() {
            out.table(&[head, whom], rows);
        }
    }
    let rows: Vec<Vec<String>> = of(FlagKind::Declined)
        .map(|f| vec![f.id.clone(), f.text.clone()])
        .collect();
    if !rows.is_empty() {
        out.table(&["declined register reading", "why"], rows);
    }
    if !md {
        out.line("");
    }
}
