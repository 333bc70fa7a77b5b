//! The command line: the only module that knows about argv, terminals and exit codes.
//!
//! Each subcommand loads the corpus (embedded, or `--corpus DIR`), asks the library for what
//! it needs, and renders it as a table (human text), JSON (a versioned, published contract) or
//! Markdown. Data goes to stdout; diagnostics go to stderr, except for `check`, whose
//! diagnostics are its output.

mod output;
mod render;
pub mod replay;
pub mod run;

use std::io::Write;
use std::path::PathBuf;

use clap::{CommandFactory, Parser, Subcommand, ValueEnum};

use crate::cite::Style;
use crate::corpus::{self, Corpus, CorpusFiles, Diagnostic};

pub use output::Out;

/// Browse, check and cite source-annotated rulesets of traditional board games.
#[derive(Debug, Parser)]
#[command(name = "ludotrace", version, about, long_about = None, max_term_width = 100)]
pub struct Cli {
    /// Use the corpus in DIR (holding sources/ and rulesets/) instead of the built-in one.
    #[arg(long, global = true, value_name = "DIR", env = "LUDOTRACE_CORPUS")]
    pub corpus: Option<PathBuf>,
    /// Output format, where the output is data.
    #[arg(long, global = true, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    #[command(flatten)]
    pub color: colorchoice_clap::Color,
    /// Print only data and errors.
    #[arg(long, short, global = true)]
    pub quiet: bool,
    /// Lay tables out to N columns (0: never wrap). Default: the terminal's width, or no wrapping when piped.
    #[arg(long, global = true, value_name = "N", value_parser = output::parse_width)]
    pub width: Option<usize>,
    #[command(subcommand)]
    pub command: Command,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable text and tables.
    Table,
    /// JSON with a `schema_version` (see `ludotrace schema`).
    Json,
    /// Markdown.
    Markdown,
    /// Comma-separated values, one row per game (`run`).
    Csv,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games and their interpretations.
    List,
    /// Show a game's rules with their quotes, its open points and (with -i) one reading.
    Show {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id: mark the options it takes and list every parameter it sets.
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: Option<String>,
    },
    /// List the sources, or show one: a source file, passage, evidence record, encoding or witness.
    Sources {
        /// An id: `davies-1925`, `davies-1925#um-el-banat`, `DLP.Evidence.703`, `ludii-1.0.8#seega`, ...
        id: Option<String>,
    },
    /// Word-level differences between the witnesses of a passage.
    Collate {
        /// Passage anchor, e.g. `davies-1925#um-el-banat`.
        passage: String,
    },
    /// Cite a game's sources.
    Cite {
        /// Game id.
        game: String,
        /// Citation style.
        #[arg(long, value_enum, default_value_t = CiteStyle::Text)]
        style: CiteStyle,
    },
    /// Check the whole corpus and report every problem (exit 1 if there are any).
    Check,
    /// Play a game's readings by seeded random simulation and report outcomes with 95 % intervals.
    #[command(
        after_help = "Examples:\n  ludotrace run um-el-bagara -i ludii-1.0.8 -n 2000\n  ludotrace run um-el-tuweisat --all-interpretations --format json\n  ludotrace run um-el-bagara -i davies --set skip_origin=true --format csv"
    )]
    Run {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id (default: the game's first reading, its primary source).
        #[arg(
            short,
            long,
            value_name = "INTERPRETATION",
            conflicts_with = "all_interpretations"
        )]
        interpretation: Option<String>,
        /// Run every reading of the game.
        #[arg(long)]
        all_interpretations: bool,
        /// Games per reading.
        #[arg(short = 'n', long, default_value_t = 1000)]
        games: u64,
        /// Run seed: game i of a reading uses ChaCha8 seeded from (seed, reading), stream i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies after which a game of a reading with no engine cap is counted as a timeout.
        #[arg(long, default_value_t = crate::sim::DEFAULT_MAX_PLIES)]
        max_plies: u32,
        /// Override a parameter, e.g. `--set skip_origin=true` or `--set 'capture_counts=[2]'` (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
        /// Worker threads (default: one per core). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Replay Ludii's recorded games (a trace file) through a reading, decision by decision;
    /// exit 1 if any decision diverges.
    #[command(
        after_help = "Examples:\n  ludotrace replay seega -i ludii-1.0.8 tests/data/ludii-traces/seega-5x5.jsonl\n  ludotrace replay sijat-el-taba -i ludii-1.0.8 sijat-el-taba.jsonl --format json"
    )]
    Replay {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id (the `ludii-1.0.8` readings reproduce Ludii 1.0.8).
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: String,
        /// A trace file: one recorded playout per line (tests/data/ludii-traces/TRACES.md).
        file: PathBuf,
    },
    /// Print the JSON Schemas of every published format, as one JSON object.
    Schema,
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// Citation styles on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CiteStyle {
    /// BibTeX.
    Bibtex,
    /// CSL-JSON.
    CslJson,
    /// Plain text.
    Text,
}

impl From<CiteStyle> for Style {
    fn from(s: CiteStyle) -> Self {
        match s {
            CiteStyle::Bibtex => Style::Bibtex,
            CiteStyle::CslJson => Style::CslJson,
            CiteStyle::Text => Style::Text,
        }
    }
}

/// Everything that can stop a command, with the message the user sees.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The corpus directory is unusable.
    #[error(transparent)]
    Files(#[from] corpus::files::FilesError),
    /// The corpus has problems.
    #[error("the corpus has {} problem(s), listed above; `ludotrace check` lists them with a summary", .0.len())]
    Corpus(Vec<Diagnostic>),
    /// No such game.
    #[error("unknown game `{id}`; the games are: {valid}")]
    UnknownGame {
        /// What was asked for.
        id: String,
        /// The valid ids.
        valid: String,
    },
    /// No such interpretation.
    #[error("game `{game}` has no interpretation `{id}`; its interpretations are: {valid}")]
    UnknownInterpretation {
        /// The game.
        game: String,
        /// What was asked for.
        id: String,
        /// The valid ids.
        valid: String,
    },
    /// No such source id.
    #[error(
        "no source, passage, evidence record, encoding or witness `{id}`; source files are: {valid} (run `ludotrace sources` for every id)"
    )]
    UnknownSource {
        /// What was asked for.
        id: String,
        /// The source file ids.
        valid: String,
    },
    /// Not a passage.
    #[error("`{id}` is not a passage; passages are: {valid}")]
    UnknownPassage {
        /// What was asked for.
        id: String,
        /// The passages.
        valid: String,
    },
    /// A reading cannot be bound to its engine.
    #[error(transparent)]
    Bind(#[from] crate::bind::BindError),
    /// A bad option value.
    #[error("{0}")]
    Usage(String),
    /// A format the command does not produce.
    #[error("`{command}` does not produce this format; its formats are: {valid}")]
    Format {
        /// The command.
        command: &'static str,
        /// Its formats.
        valid: &'static str,
    },
    /// A trace file that cannot be read or replayed.
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Trace {
        /// The file.
        file: String,
        /// The line, where one is at fault.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// Output failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// The process exit code: 2 for usage and input errors.
    pub fn exit_code(&self) -> i32 {
        2
    }
}

/// Runs a parsed command line. Returns the exit code for a completed run (0, or 1 when a
/// check found problems).
///
/// # Errors
/// Any [`Error`]; `main` prints it and exits 2.
pub fn run(cli: Cli) -> Result<i32, Error> {
    cli.color.write_global();
    let mut out = Out::new(cli.format, cli.width);
    if cli.format == Format::Csv && !matches!(cli.command, Command::Run { .. }) {
        return Err(Error::Format {
            command: command_name(&cli.command),
            valid: "table, json, markdown",
        });
    }
    match &cli.command {
        Command::Completions { shell } => {
            let mut cmd = Cli::command();
            let mut buf = Vec::new();
            clap_complete::generate(*shell, &mut cmd, "ludotrace", &mut buf);
            out.raw(&String::from_utf8_lossy(&buf));
            out.flush()?;
            return Ok(0);
        }
        Command::Schema => {
            out.json(&render::schema());
            out.flush()?;
            return Ok(0);
        }
        Command::Check => {
            let files = files(&cli)?;
            let loaded = corpus::load(&files);
            let code = render::check(&mut out, &loaded, cli.quiet);
            out.flush()?;
            return Ok(code);
        }
        _ => {}
    }
    let corpus = load(&cli)?;
    match &cli.command {
        Command::List => render::list(&mut out, &corpus),
        Command::Show {
            game,
            interpretation,
        } => {
            let g = game_of(&corpus, game)?;
            let i = match interpretation {
                Some(id) => Some(interpretation_of(g, id)?),
                None => None,
            };
            render::show(&mut out, &corpus, g, i);
        }
        Command::Sources { id } => render::sources(&mut out, &corpus, id.as_deref())?,
        Command::Collate { passage } => {
            let p = corpus
                .passages
                .get(passage)
                .ok_or_else(|| Error::UnknownPassage {
                    id: passage.clone(),
                    valid: corpus
                        .passages
                        .keys()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            render::collate(&mut out, p);
        }
        Command::Cite { game, style } => {
            let g = game_of(&corpus, game)?;
            out.raw(&crate::cite::render(
                &crate::cite::references(&corpus, g),
                (*style).into(),
            ));
        }
        Command::Run {
            game,
            interpretation,
            all_interpretations,
            games,
            seed,
            max_plies,
            set,
            threads,
        } => {
            let files = files(&cli)?;
            let args = run::RunArgs {
                game: game.clone(),
                interpretation: interpretation.clone(),
                all: *all_interpretations,
                games: *games,
                seed: *seed,
                max_plies: *max_plies,
                set: set.clone(),
                threads: *threads,
                corpus: cli.corpus.clone(),
            };
            run::run(&mut out, &corpus, &files, &args, cli.quiet)?;
        }
        Command::Replay {
            game,
            interpretation,
            file,
        } => {
            let code = replay::replay(&mut out, &corpus, game, interpretation, file)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Check | Command::Schema | Command::Completions { .. } => {
            unreachable!("handled above")
        }
    }
    out.flush()?;
    Ok(0)
}

fn command_name(c: &Command) -> &'static str {
    match c {
        Command::List => "list",
        Command::Show { .. } => "show",
        Command::Sources { .. } => "sources",
        Command::Collate { .. } => "collate",
        Command::Cite { .. } => "cite",
        Command::Check => "check",
        Command::Run { .. } => "run",
        Command::Replay { .. } => "replay",
        Command::Schema => "schema",
        Command::Completions { .. } => "completions",
    }
}

fn files(cli: &Cli) -> Result<CorpusFiles, Error> {
    Ok(match &cli.corpus {
        Some(dir) => CorpusFiles::read_dir(dir)?,
        None => CorpusFiles::embedded(),
    })
}

fn load(cli: &Cli) -> Result<Corpus, Error> {
    let files = files(cli)?;
    let loaded = corpus::load(&files);
    match loaded.corpus {
        Some(c) => Ok(c),
        None => {
            let mut err = anstream::stderr();
            for d in &loaded.diagnostics {
                let _ = writeln!(err, "{d}");
            }
            Err(Error::Corpus(loaded.diagnostics))
        }
    }
}

fn interpretation_of<'g>(
    g: &'g corpus::Game,
    id: &str,
) -> Result<&'g corpus::Interpretation, Error> {
    g.interpretation(id)
        .ok_or_else(|| Error::UnknownInterpretation {
            game: g.id.clone(),
            id: id.to_owned(),
            valid: g
                .interpretations
                .iter()
                .map(|i| i.id.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

fn game_of<'c>(corpus: &'c Corpus, id: &str) -> Result<&'c corpus::Game, Error> {
    corpus.game(id).ok_or_else(|| Error::UnknownGame {
        id: id.to_owned(),
        valid: corpus
            .games
            .iter()
            .map(|g| g.id.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    })
}
