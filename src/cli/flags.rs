//! `ludotrace flags [GAME]`: what a game's sources leave open or dispute ([`crate::flags`]):
//! from the corpus, its open points with who proposes each option, the register readings it
//! declines, the places where two sources support different options, and what each reading
//! borrows or interpolates; from seeded play of every reading, how often each uncovered or
//! borrowed situation arises and how often each rule fires.
//!
//! The result (JSON schema_version 1) is a pure function of the corpus, the games, seed, ply
//! limit, agents and overrides, and the ludotrace version, at any thread count.

use schemars::JsonSchema;
use serde::Serialize;

use std::io::IsTerminal;

use super::output::{Out, style};
use super::render::OUTPUT_SCHEMA_VERSION;
use super::run::{
    Simulate, check_numbers, check_rotation, check_seated, corpus_hash, lineup_list, pool,
};
use super::{Error, Format};
use crate::agents::Lineup;
use crate::bind::{self, Bound};
use crate::corpus::{Corpus, CorpusFiles, Game};
use crate::flags::{Flag, FlagKind, corpus_flags, play_flags};
use crate::sim::{self, RunSpec, Tally};

/// What the user asked `flags` for.
#[derive(Debug, Clone)]
pub struct FlagsArgs {
    /// One game, or every game.
    pub game: Option<String>,
    /// Games per reading.
    pub games: u64,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// Who plays which seat.
    pub lineup: Lineup,
    /// `PARAM=VALUE` overrides of every reading.
    pub set: Vec<String>,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

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
    /// Run seed of the games played.
    pub seed: u64,
    /// Games played per reading.
    pub games: u64,
    /// The ply limit applied to readings without an engine cap.
    pub max_plies: u32,
    /// The agent of each seat (with `swap`, in game 0).
    pub agents: Vec<String>,
    /// The `--agents` list as given.
    pub lineup: Vec<String>,
    /// Whether the agents rotated over the seats game by game. Absent when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub swap: bool,
    /// `--set` overrides of every reading, as given.
    pub overrides: Vec<String>,
    /// The flags, by kind: `choice`, `declined`, `source-conflict`, `borrowing`,
    /// `interpolation`, `uncovered`, `rule-activity`.
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
/// An unknown game (listing the valid ones), bad numbers or overrides, a lineup that does
/// not fit.
pub fn flags(
    out: &mut Out,
    corpus: &Corpus,
    files: &CorpusFiles,
    args: &FlagsArgs,
    quiet: bool,
) -> Result<(), Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_rotation(args.games, &args.lineup, sim::MAX_GAMES)?;
    let games: Vec<&Game> = match &args.game {
        Some(id) => vec![super::game_of(corpus, id)?],
        None => corpus.games.iter().collect(),
    };
    let overrides = bind::parse_overrides(&args.set)?;
    // Every reading of every game bound first, so that a bad override stops the command
    // before any game is played.
    let mut bound: Vec<Vec<Bound>> = Vec::new();
    for g in &games {
        let mut of_game = Vec::new();
        for interp in &g.interpretations {
            let b = bind::bind(g, interp, &overrides)
                .map_err(|e| Error::Usage(format!("{} reading {}: {e}", g.id, interp.id)))?;
            check_seated(&args.lineup, &b)?;
            of_game.push(b);
        }
        bound.push(of_game);
    }
    let pool = pool(args.threads)?;
    let readings: u64 = bound.iter().map(|b| b.len() as u64).sum();
    let bar = if quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(readings * args.games)
    };
    let hash = corpus_hash(files);
    let mut reports = Vec::new();
    for (g, of_game) in games.iter().zip(&bound) {
        let tallies: Vec<Tally> = g
            .interpretations
            .iter()
            .zip(of_game)
            .map(|(interp, b)| {
                let spec = RunSpec {
                    games: args.games,
                    seed: args.seed,
                    key: sim::reading_key(&g.id, &interp.id),
                    max_plies: args.max_plies,
                    keep_records: false,
                };
                pool.install(|| {
                    b.engine.visit(Simulate {
                        bound: b,
                        spec: &spec,
                        lineup: &args.lineup,
                        games: 0..args.games,
                        bar: &bar,
                        records: &mut |_| {},
                    })
                })
            })
            .collect();
        let named: Vec<(&str, &Tally)> = g
            .interpretations
            .iter()
            .map(|i| i.id.as_str())
            .zip(&tallies)
            .collect();
        let mut flags = corpus_flags(corpus, g);
        flags.extend(play_flags(&named));
        reports.push(FlagsOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            ludotrace: env!("CARGO_PKG_VERSION").to_owned(),
            corpus_hash: hash.clone(),
            game: g.id.clone(),
            seed: args.seed,
            games: args.games,
            max_plies: args.max_plies,
            agents: args
                .lineup
                .seating(tallies.first().map_or(2, |t| t.wins.len())),
            lineup: lineup_list(&args.lineup),
            swap: args.lineup.swap(),
            overrides: args.set.clone(),
            flags,
        });
    }
    bar.finish_and_clear();
    match (out.format, &args.game) {
        (Format::Json, Some(_)) => out.json(&reports[0]),
        (Format::Json, None) => out.json(&FlagsAllOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            reports,
        }),
        _ => {
            for (g, r) in games.iter().zip(&reports) {
                render(out, g, r);
            }
            let reproduce = command_line(args);
            let corpus = format!(
                "{} (blake3 {hash})",
                args.corpus
                    .as_ref()
                    .map_or_else(|| "built-in".to_owned(), |p| p.display().to_string()),
            );
            if out.format == Format::Markdown {
                out.para(&format!("corpus: {corpus}"));
                out.para(&format!("reproduce: `{reproduce}`"));
            } else {
                out.styled(style::DIM, "corpus: ");
                out.line(&corpus);
                out.styled(style::DIM, "reproduce: ");
                out.line(&reproduce);
            }
        }
    }
    Ok(())
}

/// The command that reproduces a `flags` output.
fn command_line(args: &FlagsArgs) -> String {
    let mut cmd = String::from("ludotrace");
    if let Some(dir) = &args.corpus {
        cmd.push_str(&format!(
            " --corpus {}",
            super::run::shell_quote(&dir.display().to_string())
        ));
    }
    cmd.push_str(" flags");
    if let Some(g) = &args.game {
        cmd.push_str(&format!(" {}", super::run::shell_quote(g)));
    }
    cmd.push_str(&format!(
        " -n {} --seed {} --max-plies {}",
        args.games, args.seed, args.max_plies
    ));
    cmd.push_str(&super::run::lineup_words(&args.lineup));
    for s in &args.set {
        cmd.push_str(&format!(" --set {}", super::run::shell_quote(s)));
    }
    cmd
}

/// One game's flags, kind by kind.
fn render(out: &mut Out, game: &Game, report: &FlagsOutput) {
    let flags = &report.flags;
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
    // From play: a column per reading, the share of games with its interval and the rate
    // per game.
    let readings: Vec<&str> = game.interpretations.iter().map(|i| i.id.as_str()).collect();
    for (kind, head) in [
        (
            FlagKind::Uncovered,
            "met in play (uncovered: interpolated, borrowed: borrowed)",
        ),
        (FlagKind::RuleActivity, "rule"),
    ] {
        let rows: Vec<Vec<String>> = of(kind)
            .map(|f| {
                let mut row = vec![f.id.clone()];
                let freq = f.frequency.as_ref();
                row.extend(readings.iter().map(|r| {
                    freq.and_then(|q| q.by_reading.iter().find(|b| b.reading == *r))
                        .map_or_else(
                            || "–".to_owned(),
                            |b| {
                                format!(
                                    "{:.1} % [{:.1}–{:.1}] · {:.2}/game",
                                    100.0 * b.share.value,
                                    100.0 * b.share.lo,
                                    100.0 * b.share.hi,
                                    b.per_game.value
                                )
                            },
                        )
                }));
                row
            })
            .collect();
        if !rows.is_empty() {
            let mut heads = vec![head.to_owned()];
            heads.extend(
                readings
                    .iter()
                    .map(|r| format!("{r}: games [95 % CI] · per game")),
            );
            let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
            out.table(&heads, rows);
        }
    }
    out.para(&format!(
        "play: {} {} a reading, seed {}, ply limit {}",
        report.games,
        if report.lineup == ["random"] {
            "random games".to_owned()
        } else {
            format!("games of {}", report.lineup.join(","))
        },
        report.seed,
        report.max_plies
    ));
    if !md {
        out.line("");
    }
}
