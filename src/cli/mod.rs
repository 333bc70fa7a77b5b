//! The command line: the only module that knows about argv, terminals and exit codes.
//!
//! Each subcommand loads the corpus (embedded, or `--corpus DIR`), asks the library for what
//! it needs, and renders it as a table (human text), JSON (a versioned, published contract) or
//! Markdown. Data goes to stdout; diagnostics go to stderr, except for `check`, whose
//! diagnostics are its output.

pub mod replay;
pub mod units;

use std::io::Write;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use crate::agents::Lineup;
use crate::corpus::{self, Corpus, CorpusFiles, Diagnostic};
use crate::present::cite::Style;

pub use crate::analysis::Error;
use crate::analysis::{diff, flags, play as run};
use crate::analysis::{game_of, interpretation_of};
use crate::exec;
pub use crate::present::{Format, Out};
use crate::present::{register, report, show as render, site};

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
    #[arg(long, global = true, value_name = "N", value_parser = crate::present::out::parse_width)]
    pub width: Option<usize>,
    /// Keep every block of games played in the SQLite results store at PATH, and take
    /// blocks played before from it (default: ludotrace/results.sqlite in the user's data
    /// directory, `$XDG_DATA_HOME` or ~/.local/share; the environment variable
    /// LUDOTRACE_STORE, where set and not empty, names another).
    #[arg(long, global = true, value_name = "PATH")]
    pub store: Option<PathBuf>,
    /// Use no results store: play every game, keep nothing (wins over --store and
    /// LUDOTRACE_STORE).
    #[arg(long, global = true)]
    pub no_store: bool,
    /// Keep a row per game in the store as well (table `games`: outcome, winner, first
    /// mover, plies, scores, events), not only each block's totals.
    #[arg(long, global = true)]
    pub store_games: bool,
    #[command(subcommand)]
    pub command: Command,
    /// Whether `--corpus` came from `LUDOTRACE_CORPUS` (set by [`Cli::from_args`]), so that
    /// an error about that corpus names the variable someone may have forgotten they set.
    #[arg(skip)]
    pub corpus_from_env: bool,
    /// Whether `--format` was given rather than defaulted (set by [`Cli::from_args`]): a
    /// command with a single output (`schema`, `cite`, `completions`) refuses only a format
    /// that was asked for.
    #[arg(skip)]
    pub format_given: bool,
    /// The argument list as given, program name first (set by [`Cli::try_from_args`]):
    /// `run --shard` keeps the command it is a part of.
    #[arg(skip)]
    pub argv: Vec<String>,
}

impl Cli {
    /// The command line's definition, with the version line naming the built-in corpus.
    pub fn definition() -> clap::Command {
        Cli::command().version(version())
    }

    /// Parses the process's arguments; on a usage error, prints clap's message (with its
    /// suggestions) and exits 2.
    pub fn from_args() -> Self {
        Self::try_from_args(std::env::args_os()).unwrap_or_else(|e| e.exit())
    }

    /// Parses an argument list (the program name first), noting where `--corpus` and
    /// `--format` came from.
    ///
    /// # Errors
    /// clap's error for a command line that does not parse.
    pub fn try_from_args<I, T>(args: I) -> Result<Self, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let mut def = Self::definition();
        let args: Vec<T> = args.into_iter().collect();
        let argv = args
            .iter()
            .map(|a| a.clone().into().to_string_lossy().into_owned())
            .collect();
        let matches = def.try_get_matches_from_mut(args)?;
        let mut cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut def))?;
        cli.corpus_from_env = matches.value_source("corpus") == Some(ValueSource::EnvVariable);
        cli.format_given = matches.value_source("format") == Some(ValueSource::CommandLine);
        cli.argv = argv;
        Ok(cli)
    }
}

/// `--version`: the crate version and the hash of the built-in corpus (the hash `run` reports
/// as `corpus_hash`), so that two binaries of the same version with different corpora differ.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        format!(
            "{} (built-in corpus blake3 {})",
            env!("CARGO_PKG_VERSION"),
            run::corpus_hash(&CorpusFiles::embedded())
        )
    })
}

/// `--format`: the output formats, as the command line names and documents them.
impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[Format::Table, Format::Json, Format::Markdown, Format::Csv]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self {
            Format::Table => PossibleValue::new("table").help("Human-readable text and tables"),
            Format::Json => PossibleValue::new("json")
                .help("JSON with a `schema_version` (see `ludotrace schema`)"),
            Format::Markdown => PossibleValue::new("markdown").help("Markdown"),
            Format::Csv => {
                PossibleValue::new("csv").help("Comma-separated values, one row per game (`run`)")
            }
        })
    }
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
        /// Interpretation id: mark the options it takes, the class of every rule against the
        /// sources it reads, and list every parameter it sets.
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: Option<String>,
        /// Show the matrix of the game's open points (rows) × its readings (columns): the
        /// option each reading takes and its class.
        #[arg(long, conflicts_with = "interpretation")]
        readings: bool,
    },
    /// Show a point of the register of open points: its source words, its readings, who
    /// proposes each and which option of which reading takes it. Without ID, list the points.
    #[command(
        after_help = "Examples:\n  ludotrace point UB-18\n  ludotrace point --game seega\n  ludotrace point ENC-3.1 --format json"
    )]
    Point {
        /// Point id: `UB-07` (open), `UB-S01` (settled), `UB-D01` (departed), `ENC-3.1`, `G-4`, `LX-1`.
        id: Option<String>,
        /// List only the points a game addresses.
        #[arg(long, value_name = "GAME", conflicts_with = "id")]
        game: Option<String>,
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
        game: Option<String>,
        /// Cite ludotrace itself and its corpus (version, corpus hash) instead of a game.
        #[arg(long)]
        tool: bool,
        /// Citation style.
        #[arg(long, value_enum, default_value_t = CiteStyle::Text)]
        style: CiteStyle,
        /// With --style text: the Citation Style Language style that renders the
        /// bibliography and the in-text citations (any style hayagriva carries, e.g. apa,
        /// chicago-author-date, cse-name-year; apa when not given).
        #[arg(long, value_name = "NAME")]
        csl: Option<String>,
    },
    /// Check the whole corpus and report every problem (exit 1 if there are any).
    Check,
    /// Play a game's readings by seeded random simulation and report outcomes with 95 % intervals.
    #[command(
        after_help = "Examples:\n  ludotrace run um-el-bagara -i ludii-1.0.8 -n 2000\n  ludotrace run um-el-tuweisat --all-interpretations --format json\n  ludotrace run um-el-bagara -i davies --set skip_origin=true --format csv\n  ludotrace run lib-al-aqil -i lane --choose board-end=no-capture\n  ludotrace run lib-el-merafib --each-option -n 200\n  ludotrace run um-el-bagara -i davies --agents mcts:300,random --swap -n 200"
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
        #[command(flatten)]
        play: Play,
        /// Override a parameter, e.g. `--set skip_origin=true` or `--set 'capture_counts=[2]'` (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
        /// Switch an option of a choice into the reading, e.g. `--choose origin=skip`: its
        /// parameters are set as with `--set` (repeatable; `ludotrace show GAME` lists the
        /// choices and their options).
        #[arg(long = "choose", value_name = "CHOICE=OPTION")]
        choose: Vec<String>,
        /// Play the reading, then the reading with each option of each choice that it does not
        /// take switched in alone (the same games: the same seed and streams), one row each.
        #[arg(long, conflicts_with = "all_interpretations")]
        each_option: bool,
        /// Play only blocks b ≡ I (mod N) of each reading and print them as partial results
        /// (JSON, whatever --format), for `ludotrace merge` to join with the other N − 1
        /// shards into this run's result, byte for byte. Writes no store.
        #[arg(long, value_name = "I/N")]
        shard: Option<crate::exec::units::Shard>,
    },
    /// Compare two readings of a game: the choices on which they differ, and every outcome
    /// under seeded random play with the difference B − A, its 95 % interval, a
    /// Holm-adjusted p-value and a verdict.
    #[command(
        after_help = "Examples:\n  ludotrace diff um-el-tuweisat ludii-1.0.8 ludii-intended -n 20000\n  ludotrace diff um-el-bagara --against davies\n  ludotrace diff seega davies davies --set-b centre_safe=true --format json\n  ludotrace diff um-el-bagara davies ludii-1.0.8 --games auto --precision 0.02\n  ludotrace diff um-el-bagara davies ludii-1.0.8 --agents mcts:300,random --swap -n 200"
    )]
    Diff {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Reading A, the base (see `ludotrace show GAME`); or give it with `--against`.
        #[arg(required_unless_present = "against")]
        a: Option<String>,
        /// Reading B, compared with A (it may be A itself: an A/A test, on other games).
        #[arg(required_unless_present = "against")]
        b: Option<String>,
        /// Compare every other reading of the game with this one, in one table (one Holm
        /// correction across all of them).
        #[arg(long, value_name = "A", conflicts_with_all = ["a", "b"])]
        against: Option<String>,
        #[command(flatten)]
        play: Play,
        /// Override a parameter in both readings (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
        /// Override a parameter in reading A only (repeatable).
        #[arg(long = "set-a", value_name = "PARAM=VALUE")]
        set_a: Vec<String>,
        /// Override a parameter in reading B only (repeatable).
        #[arg(long = "set-b", value_name = "PARAM=VALUE")]
        set_b: Vec<String>,
        /// With `--games auto`: play until the 95 % interval of the difference in the first
        /// mover's win rate has at most this half-width (0.001 to 0.5; default 0.01).
        #[arg(long, value_name = "HALF-WIDTH", allow_negative_numbers = true)]
        precision: Option<f64>,
    },
    /// Split `run`, `diff` or `flags` (`--global` too) into units of work that can run apart,
    /// on a cluster's nodes, and be merged into the single process's result, byte for byte:
    /// writes a plan listing the units (reading × block of games).
    #[command(
        after_help = "Examples:\n  ludotrace plan -o plan.json run um-el-bagara --all-interpretations -n 100000\n  ludotrace plan --units 64 -o plan.json flags seega -n 2000 --global\n  ludotrace work plan.json --unit 0\n  ludotrace merge plan.json plan.unit-*.json --format json"
    )]
    Plan {
        /// Group the blocks into at most N units, dealt round-robin (default: one unit a
        /// block of each reading).
        #[arg(long, value_name = "N")]
        units: Option<u64>,
        /// Write the plan to FILE, and print only its number of units K (for a job array's
        /// `--array=0-$((K-1))`); default: the plan on standard output. An existing file is
        /// replaced only by the same plan.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
        /// The command to plan, as typed after `ludotrace` (`run …`, `diff …`, `flags …`).
        #[arg(
            required = true,
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "COMMAND"
        )]
        command: Vec<String>,
    },
    /// Compute one unit of a plan into its own file of partial results (never a store: on a
    /// cluster only `merge` writes one).
    Work {
        /// The plan file (`ludotrace plan`).
        plan: PathBuf,
        /// The unit to compute, 0 to the plan's units − 1 (in a Slurm job array:
        /// $SLURM_ARRAY_TASK_ID).
        #[arg(long, value_name = "K")]
        unit: u64,
        /// Write the partial results to FILE (default: PLAN's name with `.unit-K.json` for
        /// `.json`, beside it). An existing file is replaced only by the same unit's results.
        #[arg(long, short, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Worker threads (default: one per core). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Merge partial results into the command's result, byte for byte what one process
    /// prints: a plan and all its units' outputs, or all the shards of a `run --shard I/N`.
    /// Every block must be present exactly once, from the same plan or command, corpus and
    /// build; the merged blocks are written to the results store.
    Merge {
        /// The plan, then its units' outputs (any order); or only `run --shard` outputs.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
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
    /// What a game's sources leave open or dispute: its open points with who proposes each
    /// option, the register readings it declines, places where two sources support different
    /// options, what each reading borrows or interpolates, and, from seeded play of every
    /// reading, how often each such situation arises and each rule fires (every game without
    /// GAME).
    #[command(
        after_help = "Examples:\n  ludotrace flags um-el-banat\n  ludotrace flags lib-el-merafib -n 2000 --format json\n  ludotrace flags seega --agents greedy,random --swap\n  ludotrace flags um-el-bagara -n 200 --global\n  ludotrace flags --format markdown"
    )]
    Flags {
        /// Game id (see `ludotrace list`); every game when omitted.
        game: Option<String>,
        #[command(flatten)]
        play: Play,
        /// Override a parameter in every reading (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
        /// Also share out the variance of the outcome among the open points over the game's
        /// whole option space (first-order and total indices): plays the readings of a
        /// seeded design, -n games each.
        #[arg(long)]
        global: bool,
        /// With --global: how many readings the design samples (rows of open points + 2).
        #[arg(
            long,
            value_name = "READINGS",
            default_value_t = 1024,
            requires = "global"
        )]
        design: u64,
        /// With --global: games per reading of the design (-n when not given).
        #[arg(long, value_name = "N", requires = "global")]
        global_games: Option<u64>,
    },
    /// Write a citable report per game into reports/ (Markdown, an HTML page, SVG figures,
    /// BibTeX, CSL-JSON and an index), every table headed by the command that makes it;
    /// --check verifies that the committed reports regenerate byte for byte.
    #[command(
        after_help = "Examples:\n  ludotrace report --all\n  ludotrace report seega --out my-reports\n  ludotrace report --all --check"
    )]
    Report {
        /// Game id (see `ludotrace list`).
        #[arg(conflicts_with = "all", required_unless_present = "all")]
        game: Option<String>,
        /// Every game, and the index.
        #[arg(long)]
        all: bool,
        /// The directory the files go into.
        #[arg(long, value_name = "DIR", default_value = "reports")]
        out: std::path::PathBuf,
        /// Games per reading for the outcomes (the comparisons and flags use their own,
        /// stated in the report).
        #[arg(short = 'n', long, value_name = "GAMES", default_value_t = report::RUN_GAMES)]
        games: u64,
        /// Regenerate in memory and compare with the files in --out: print a diff and exit 1
        /// where they differ.
        #[arg(long)]
        check: bool,
        /// Worker threads (default: one per core). The reports do not depend on it.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
    },
    /// Write a static site to browse the corpus (no server, no outside request): an index
    /// with a search box, a page per game with its source texts, every quoted span marked and
    /// linked to the rule that quotes it, its open points, readings and register points, and
    /// the reports of `report --all` in reports/.
    #[command(
        after_help = "Examples:\n  ludotrace site\n  ludotrace site --out my-site -n 2000\n  ludotrace site --out my-notes --force"
    )]
    Site {
        /// The directory the site goes into: a new or empty one, or one `ludotrace site` made
        /// (its files are replaced; with --force, any directory).
        #[arg(long, value_name = "DIR", default_value = "site")]
        out: std::path::PathBuf,
        /// Games per reading for the reports' outcomes (as `report -n`).
        #[arg(short = 'n', long, value_name = "GAMES", default_value_t = report::RUN_GAMES)]
        games: u64,
        /// Worker threads (default: one per core). The site does not depend on it.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Write into a non-empty directory that `ludotrace site` did not make (files of the
        /// same name are replaced, others left alone).
        #[arg(long)]
        force: bool,
    },
    /// Print the JSON Schemas of every published format, as one JSON object.
    Schema,
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// The options of every command that plays games (`run`, `diff`), written once.
#[derive(Debug, Clone, clap::Args)]
pub struct Play {
    /// Games per reading (`diff` also takes `auto`: as many as `--precision` needs).
    #[arg(
        short = 'n',
        long,
        default_value = "1000",
        value_name = "GAMES",
        allow_hyphen_values = true
    )]
    pub games: Games,
    /// Run seed: game i of a reading draws from ChaCha8 seeded from (seed, reading), stream
    /// i (each arm of a `diff` from its own streams).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game of a reading with no engine cap is counted as a timeout.
    #[arg(long, default_value_t = crate::sim::DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// Worker threads (default: one per core). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// The players, comma-separated, one a seat in turn and cycled over the seats: `random`,
    /// `greedy` (best immediate gain), `mcts:N` (UCT, N iterations a move) or `mcts:N:D`
    /// (rollouts cut after D plies and scored by material), e.g. `mcts:400,random`.
    #[arg(long, default_value = "random", value_name = "AGENT,...")]
    pub agents: String,
    /// Rotate the agents one seat a game, so that each plays each seat equally often (the
    /// games must then be a multiple of the number of agents).
    #[arg(long)]
    pub swap: bool,
}

impl Play {
    /// The lineup of `--agents` and `--swap`.
    fn lineup(&self) -> Result<Lineup, Error> {
        Lineup::parse(&self.agents, self.swap).map_err(|e| Error::Usage(e.to_string()))
    }
}

/// `--games`: a number of games, or `auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Games {
    /// This many.
    Count(u64),
    /// As many as the stated precision needs (`diff`).
    Auto,
}

impl std::str::FromStr for Games {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s == "auto" {
            return Ok(Games::Auto);
        }
        s.parse().map(Games::Count).map_err(|_| {
            format!("expected a whole number of games, or `auto` (diff only), not {s:?}")
        })
    }
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

/// Runs a parsed command line. Returns the exit code for a completed run (0, or 1 when a
/// check found problems).
///
/// # Errors
/// Any [`Error`]; `main` prints it and exits 2.
pub fn run(cli: Cli) -> Result<i32, Error> {
    cli.color.write_global();
    let mut out = Out::new(cli.format, cli.width);
    check_format(&cli)?;
    match &cli.command {
        Command::Completions { shell } => {
            let corpus = load(&cli)?;
            let mut cmd = completion_definition(&corpus);
            let mut buf = Vec::new();
            clap_complete::generate(*shell, &mut cmd, "ludotrace", &mut buf);
            out.raw(&String::from_utf8_lossy(&buf));
            if *shell == clap_complete::Shell::Fish {
                out.raw(&fish_game_completions(&corpus));
            }
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
            let mut loaded = corpus::load(&files);
            // A reading that loads must also play: its engine may refuse a combination of
            // parameters (a cap of 0 moves, a board too small for its pieces).
            if let Some(c) = &loaded.corpus {
                for g in &c.games {
                    for i in &g.interpretations {
                        if let Err(e) = crate::bind::bind(g, i, &serde_json::Map::new()) {
                            loaded.diagnostics.push(Diagnostic {
                                place: corpus::Place::file(&g.file),
                                code: "unplayable-reading",
                                message: format!("interpretation `{}` cannot be played: {e}", i.id),
                            });
                        }
                    }
                }
            }
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
            readings: true,
            ..
        } => {
            let g = game_of(&corpus, game)?;
            register::matrix(&mut out, &corpus, g);
        }
        Command::Point { id: Some(id), .. } => {
            let p = register::point_of(&corpus, id)?;
            register::point(&mut out, &corpus, p);
        }
        Command::Point { id: None, game } => {
            let g = match game {
                Some(g) => Some(game_of(&corpus, g)?),
                None => None,
            };
            register::points(&mut out, &corpus, g);
        }
        Command::Sources { id: Some(id) } if corpus.point(id).is_some() => {
            // A register id typed where a source was expected: the register is part of the
            // corpus, so show the point rather than refuse.
            if let Some(p) = corpus.point(id) {
                register::point(&mut out, &corpus, p);
            }
        }
        Command::Show {
            game,
            interpretation,
            ..
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
        Command::Cite {
            game,
            style,
            tool,
            csl,
        } => {
            if csl.is_some() && !matches!(style, CiteStyle::Text) {
                return Err(Error::Usage(
                    "--csl chooses how the text is rendered: it goes with --style text, not \
                     with bibtex or csl-json (which are data)"
                        .to_owned(),
                ));
            }
            let csl = crate::present::cite::csl_style(
                csl.as_deref().unwrap_or(crate::present::cite::DEFAULT_CSL),
            )
            .map_err(|e| Error::Usage(e.to_string()))?;
            let hash = run::corpus_hash(&files(&cli)?);
            let refs = match (game, tool) {
                (Some(g), false) => {
                    crate::present::cite::references(&corpus, game_of(&corpus, g)?, &hash)
                }
                (None, true) => vec![crate::present::cite::tool(&hash)],
                _ => {
                    return Err(Error::Usage(
                        "cite takes a game id (see `ludotrace list`) or --tool, one of the two"
                            .to_owned(),
                    ));
                }
            };
            out.raw(&match style {
                CiteStyle::Text => crate::present::cite::text(&refs, &csl),
                _ => crate::present::cite::render(&refs, (*style).into()),
            });
        }
        Command::Run {
            shard: Some(shard), ..
        } => return units::shard(&cli, *shard),
        Command::Plan {
            units,
            out: file,
            command,
        } => return units::plan(&cli, *units, file.as_deref(), command),
        Command::Work {
            plan,
            unit,
            out: file,
            threads,
        } => return units::work(&cli, plan, *unit, file.as_deref(), *threads),
        Command::Merge { files } => return units::merge(&cli, files),
        Command::Run { .. }
        | Command::Diff { .. }
        | Command::Flags { .. }
        | Command::Report { .. }
        | Command::Site { .. } => {
            let files = files(&cli)?;
            let store = open_store(&cli)?;
            let exec = exec::Exec::new(
                exec::Mode::Play,
                run::corpus_hash(&files),
                store,
                cli.store_games,
            );
            let code = play_command(&cli, &mut out, &corpus, &files, &exec)?;
            // A store that failed mid-run leaves the results whole (a block it could not
            // give back was played): print them, then report the failure.
            out.flush()?;
            exec.finish()?;
            if let Some(store) = exec.store()
                && !cli.quiet
            {
                let (had, played) = exec.counts();
                if had > 0 {
                    anstream::eprintln!(
                        "ludotrace: {had} of {} blocks of games taken from the results store {} \
                         (--no-store plays them all)",
                        had + played,
                        store.path().display()
                    );
                }
            }
            out.flush()?;
            return Ok(code);
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

/// Runs a command that plays games (`run`, `diff`, `flags`, `report`, `site`) through `exec`,
/// rendering into `out` (not flushed): what a plain run, a plan's units and `merge` share.
/// Returns the exit code.
///
/// # Errors
/// The command's.
pub(super) fn play_command(
    cli: &Cli,
    out: &mut Out,
    corpus: &Corpus,
    files: &CorpusFiles,
    exec: &exec::Exec,
) -> Result<i32, Error> {
    match &cli.command {
        Command::Run {
            game,
            interpretation,
            all_interpretations,
            play,
            set,
            choose,
            each_option,
            shard: _,
        } => {
            choices_are_not_parameters(game_of(corpus, game)?, set)?;
            let Games::Count(games) = play.games else {
                return Err(Error::Usage(
                    "--games auto is diff's (it plays until the difference of the first \
                     mover's win rate is known to --precision); give run a number of games"
                        .to_owned(),
                ));
            };
            let args = run::RunArgs {
                game: game.clone(),
                interpretation: interpretation.clone(),
                all: *all_interpretations,
                games,
                lineup: play.lineup()?,
                seed: play.seed,
                max_plies: play.max_plies,
                set: set.clone(),
                choose: choose.clone(),
                each_option: *each_option,
                threads: play.threads,
                corpus: cli.corpus.clone(),
            };
            let bar = progress(cli.quiet, true);
            let played = if out.format == Format::Csv {
                let mut rows = crate::present::run::CsvRows::new(out);
                run::run(exec, corpus, files, &args, &bar, Some(&mut rows))?
            } else {
                run::run(exec, corpus, files, &args, &bar, None)?
            };
            crate::present::run::print(out, &played, &args);
        }
        Command::Diff {
            game,
            a,
            b,
            against,
            play,
            set,
            set_a,
            set_b,
            precision,
        } => {
            let g = game_of(corpus, game)?;
            for list in [set, set_a, set_b] {
                choices_are_not_parameters(g, list)?;
            }
            let games = match (play.games, precision) {
                (Games::Count(n), None) => diff::DiffGames::Count(n),
                (Games::Auto, p) => diff::DiffGames::Auto {
                    precision: p.unwrap_or(diff::DEFAULT_PRECISION),
                },
                (Games::Count(_), Some(_)) => {
                    return Err(Error::Usage(
                        "--precision goes with --games auto (a number of games needs none)"
                            .to_owned(),
                    ));
                }
            };
            let args = diff::DiffArgs {
                game: game.clone(),
                a: against.clone().or_else(|| a.clone()).unwrap_or_default(),
                b: if against.is_some() { None } else { b.clone() },
                against: against.is_some(),
                games,
                lineup: play.lineup()?,
                seed: play.seed,
                max_plies: play.max_plies,
                set: set.clone(),
                set_a: set_a.clone(),
                set_b: set_b.clone(),
                threads: play.threads,
                corpus: cli.corpus.clone(),
            };
            let d = diff::diff(exec, corpus, files, &args, &progress(cli.quiet, false))?;
            crate::present::diff::print(out, &d, &args);
        }
        Command::Flags {
            game,
            play,
            set,
            global,
            design,
            global_games,
        } => {
            let Games::Count(games) = play.games else {
                return Err(Error::Usage(
                    "--games auto is diff's; give flags a number of games".to_owned(),
                ));
            };
            let args = flags::FlagsArgs {
                game: game.clone(),
                games,
                seed: play.seed,
                max_plies: play.max_plies,
                lineup: play.lineup()?,
                set: set.clone(),
                threads: play.threads,
                corpus: cli.corpus.clone(),
                global: global.then_some(*design),
                global_games: *global_games,
            };
            let f = flags::flags(exec, corpus, files, &args, &progress(cli.quiet, false))?;
            crate::present::flags::print(out, &f, &args);
        }
        Command::Report {
            game,
            all: _,
            out: dir,
            games,
            check,
            threads,
        } => {
            let args = report::ReportArgs {
                game: game.clone(),
                out: dir.clone(),
                games: *games,
                check: *check,
                threads: *threads,
                corpus: cli.corpus.clone(),
            };
            let code = report::report(out, exec, corpus, files, &args)?;
            out.flush()?;
            return Ok(code);
        }
        Command::Site {
            out: dir,
            games,
            threads,
            force,
        } => {
            let args = site::SiteArgs {
                out: dir.clone(),
                games: *games,
                threads: *threads,
                force: *force,
                corpus: cli.corpus.clone(),
            };
            let code = site::site(out, exec, corpus, files, &args)?;
            out.flush()?;
            return Ok(code);
        }
        _ => unreachable!("play_command is called for the commands that play"),
    }
    Ok(0)
}

/// The results store a command uses: `--store`/`LUDOTRACE_STORE`, else the user's data
/// directory's, none with `--no-store` (or, with a warning, where no data directory is
/// known).
///
/// # Errors
/// A store that cannot be opened.
pub(super) fn open_store(cli: &Cli) -> Result<Option<crate::exec::store::Store>, Error> {
    if cli.no_store {
        return Ok(None);
    }
    // (Read here rather than by clap, so that an empty variable means unset.)
    let from_env = std::env::var_os("LUDOTRACE_STORE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let path = match cli.store.clone().or(from_env) {
        Some(p) => p,
        None => match crate::exec::store::default_path() {
            Some(p) => p,
            None => {
                if !cli.quiet {
                    anstream::eprintln!(
                        "ludotrace: warning: no data directory (neither XDG_DATA_HOME nor HOME \
                         is set): results are not stored; give --store PATH to keep them"
                    );
                }
                return Ok(None);
            }
        },
    };
    crate::exec::store::Store::open(&path)
        .map(Some)
        .map_err(|e| Error::Usage(format!("{e} (--no-store runs without one)")))
}

pub(super) fn command_name(c: &Command) -> &'static str {
    match c {
        Command::List => "list",
        Command::Show { .. } => "show",
        Command::Point { .. } => "point",
        Command::Sources { .. } => "sources",
        Command::Collate { .. } => "collate",
        Command::Cite { .. } => "cite",
        Command::Check => "check",
        Command::Run { .. } => "run",
        Command::Diff { .. } => "diff",
        Command::Flags { .. } => "flags",
        Command::Replay { .. } => "replay",
        Command::Report { .. } => "report",
        Command::Site { .. } => "site",
        Command::Plan { .. } => "plan",
        Command::Work { .. } => "work",
        Command::Merge { .. } => "merge",
        Command::Schema => "schema",
        Command::Completions { .. } => "completions",
    }
}

/// The formats a command produces, and a word on the others where there is a better way.
fn formats(c: &Command) -> (&'static [Format], &'static str) {
    use Format::{Csv, Json, Markdown, Table};
    match c {
        Command::List
        | Command::Show { .. }
        | Command::Point { .. }
        | Command::Sources { .. }
        | Command::Collate { .. } => (&[Table, Json, Markdown], ""),
        Command::Check => (&[Table, Json], ""),
        Command::Run {
            each_option: true, ..
        } => (
            &[Table, Json, Markdown],
            " (with --each-option, one row per option: csv is one row per game)",
        ),
        Command::Run { shard: Some(_), .. } => (
            &[Table, Json],
            " (with --shard it prints partial results as JSON, for `merge`)",
        ),
        Command::Run { .. } => (&[Table, Json, Markdown, Csv], ""),
        Command::Plan { .. } => (&[Table, Json], " (a plan is JSON)"),
        Command::Work { .. } => (&[Table], " (it writes partial results, JSON, to a file)"),
        Command::Merge { .. } => (
            &[Table, Json, Markdown],
            " (the merged command's formats; per-game csv rows are not in partial results)",
        ),
        Command::Diff { .. } | Command::Flags { .. } => (&[Table, Json, Markdown], ""),
        Command::Replay { .. } => (&[Table, Json], ""),
        Command::Report { .. } => (
            &[Table],
            " (it writes Markdown, HTML, SVG, BibTeX and CSL-JSON files)",
        ),
        Command::Site { .. } => (&[Table], " (it writes HTML pages)"),
        Command::Cite { .. } => (
            &[Table],
            "; --style chooses the citation format (bibtex, csl-json for JSON, text)",
        ),
        Command::Schema => (&[Json], " (it prints the JSON Schemas)"),
        Command::Completions { .. } => (&[], ": it prints a shell script and takes no --format"),
    }
}

/// Refuses a `--format` the command does not produce. The default (`table`) is refused only
/// where it was asked for: `schema` prints JSON and `completions` a script without being told.
fn check_format(cli: &Cli) -> Result<(), Error> {
    let (valid, note) = formats(&cli.command);
    if valid.contains(&cli.format) || (cli.format == Format::Table && !cli.format_given) {
        return Ok(());
    }
    let name = |f: &Format| match f {
        Format::Table => "table",
        Format::Json => "json",
        Format::Markdown => "markdown",
        Format::Csv => "csv",
    };
    let format = name(&cli.format);
    let valid = if valid.is_empty() {
        note.trim_start_matches(": ").to_owned()
    } else {
        format!(
            "its formats are: {}{note}",
            valid.iter().map(name).collect::<Vec<_>>().join(", ")
        )
    };
    Err(Error::FormatNotProduced {
        command: command_name(&cli.command),
        format,
        valid,
    })
}

/// The command line's definition for a completion script: the same arguments, with the ids
/// of the corpus (the built-in one, or `--corpus`) as the values a shell offers for a game,
/// a reading (of any game: a static script cannot know which game was typed) and a `--set`
/// parameter. Only the script sees these lists; parsing stays as lenient as `game_of`.
fn completion_definition(corpus: &Corpus) -> clap::Command {
    use clap::builder::PossibleValuesParser;
    let games: Vec<String> = corpus.games.iter().map(|g| g.id.clone()).collect();
    let mut readings: Vec<String> = Vec::new();
    let mut params: Vec<String> = Vec::new();
    for g in &corpus.games {
        for i in &g.interpretations {
            if !readings.contains(&i.id) {
                readings.push(i.id.clone());
            }
        }
        for p in g.family.params() {
            let set = format!("{}=", p.name);
            if !params.contains(&set) {
                params.push(set);
            }
        }
    }
    let with = |cmd: clap::Command, arg: &str, values: &[String]| {
        let values = values.to_vec();
        cmd.mut_arg(arg, |a| a.value_parser(PossibleValuesParser::new(values)))
    };
    let mut def = Cli::definition();
    for sub in ["show", "cite", "run", "replay"] {
        def = def.mut_subcommand(sub, |c| {
            let c = with(c, "game", &games);
            if sub == "cite" {
                c
            } else if sub == "run" {
                with(with(c, "interpretation", &readings), "set", &params)
            } else {
                with(c, "interpretation", &readings)
            }
        });
    }
    def
}

/// clap's fish script offers no values for positional arguments, so the game of each command
/// that takes one is added here, in the script's own idiom.
fn fish_game_completions(corpus: &Corpus) -> String {
    let games: Vec<&str> = corpus.games.iter().map(|g| g.id.as_str()).collect();
    ["show", "cite", "run", "replay"]
        .iter()
        .map(|sub| {
            // `replay` takes a trace file after the game: keep fish's file completion there.
            let no_files = if *sub == "replay" { "" } else { " -f" };
            format!(
                "complete -c ludotrace -n \"__fish_ludotrace_using_subcommand {sub}\"{no_files} -a \"{}\"\n",
                games.join(" ")
            )
        })
        .collect()
}

pub(super) fn files(cli: &Cli) -> Result<CorpusFiles, Error> {
    Ok(match &cli.corpus {
        Some(dir) if cli.corpus_from_env => CorpusFiles::read_dir(dir).map_err(Error::EnvFiles)?,
        Some(dir) => CorpusFiles::read_dir(dir)?,
        None => CorpusFiles::embedded(),
    })
}

pub(super) fn load(cli: &Cli) -> Result<Corpus, Error> {
    let files = files(cli)?;
    let loaded = corpus::load(&files);
    match loaded.corpus {
        Some(c) => Ok(c),
        None => {
            let mut err = anstream::stderr();
            for d in &loaded.diagnostics {
                let _ = writeln!(err, "{d}");
            }
            let origin = match &cli.corpus {
                Some(dir) if cli.corpus_from_env => {
                    format!(" in {}, named by LUDOTRACE_CORPUS,", dir.display())
                }
                _ => String::new(),
            };
            Err(Error::Corpus {
                problems: loaded.diagnostics,
                origin,
            })
        }
    }
}

/// `--set CHOICE=…` names an open point of the ruleset, not an engine parameter: say which
/// parameters its options set and how to take one, rather than "unknown parameter".
fn choices_are_not_parameters(g: &corpus::Game, set: &[String]) -> Result<(), Error> {
    let overrides = crate::bind::parse_overrides(set)?;
    for (name, value) in &overrides {
        if g.family.params().iter().any(|p| p.name == name) {
            continue;
        }
        let Some(choice) = g
            .choices
            .iter()
            .find(|c| corpus::fold_name(&c.id) == corpus::fold_name(name))
        else {
            continue;
        };
        let mut params: Vec<&str> = Vec::new();
        for o in &choice.options {
            for (p, _) in &o.sets {
                if !params.contains(&p.as_str()) {
                    params.push(p);
                }
            }
        }
        let sets = |o: &corpus::ChoiceOption| {
            o.sets
                .iter()
                .map(|(p, v)| format!("--set {p}={}", set_text(v)))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let asked = value
            .as_str()
            .and_then(|v| choice.options.iter().find(|o| o.id.eq_ignore_ascii_case(v)));
        let how = match asked {
            Some(o) => format!(
                "To play its option `{}`, write --choose {}={} (or {})",
                o.id,
                choice.id,
                o.id,
                sets(o)
            ),
            None => format!(
                "Switch one in with --choose {}=OPTION; its options are: {}",
                choice.id,
                choice
                    .options
                    .iter()
                    .map(|o| format!("`{}` ({})", o.id, sets(o)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(Error::Usage(format!(
            "--set {name}: `{}` is a choice, not a parameter; it sets {}. {how}; or pick a reading that takes the option you want (`ludotrace show {}` marks each reading's options with -i)",
            choice.id,
            params
                .iter()
                .map(|p| format!("`{p}`"))
                .collect::<Vec<_>>()
                .join(", "),
            g.id
        )));
    }
    Ok(())
}

/// A parameter value as `--set` takes it: a bare word for a string, JSON otherwise.
fn set_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The progress bar of a command that plays, on stderr when it is a terminal (hidden under
/// `--quiet` or in a pipe); `named` shows the reading being played before the bar.
fn progress(quiet: bool, named: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    if named {
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} games ({per_sec}, {eta} left)",
            )
            .expect("template is valid")
            .progress_chars("=> "),
        );
    }
    bar
}
