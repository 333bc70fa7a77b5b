//! The command line's types: the options and subcommands as clap declares them (their doc
//! comments are the help text), and the small types they parse into (`--games`, `--format`,
//! `--style`). Parsing only: what a command does is [`super::run`]'s.

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use super::Error;
use crate::agents::Lineup;
use crate::corpus::CorpusFiles;
use crate::present::Format;
use crate::present::cite::Style;
use crate::present::out::{MAX_WIDTH, MIN_WIDTH};

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
    #[arg(long, global = true, value_name = "N", value_parser = parse_width)]
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
        Self::try_from_args(std::env::args_os()).unwrap_or_else(|e| usage_exit(&e))
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

/// Prints clap's error and exits: help and the version as clap does, a usage error under
/// the prefix every error of the program has (`ludotrace: error: `; clap's message begins
/// with `error: `), exit 2.
fn usage_exit(e: &clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit()
    }
    anstream::eprint!("ludotrace: {}", e.render().ansi());
    std::process::exit(2)
}

/// `--version`: the crate version and the hash of the built-in corpus (the hash `run` reports
/// as `corpus_hash`), so that two binaries of the same version with different corpora differ.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        format!(
            "{} (built-in corpus blake3 {})",
            env!("CARGO_PKG_VERSION"),
            crate::analysis::play::corpus_hash(&CorpusFiles::embedded())
        )
    })
}

/// `--format`: the output formats, as the command line names and documents them.
impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Format::Table,
            Format::Json,
            Format::Markdown,
            Format::Csv,
            Format::Html,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self {
            Format::Table => PossibleValue::new("table")
                .alias("text")
                .help("Human-readable text and tables"),
            Format::Json => PossibleValue::new("json")
                .help("JSON with a `schema_version` (see `ludotrace schema`)"),
            Format::Markdown => PossibleValue::new("markdown").help("Markdown"),
            Format::Csv => {
                PossibleValue::new("csv").help("Comma-separated values, one row per game (`run`)")
            }
            Format::Html => PossibleValue::new("html")
                .help("A page that works offline: the step-through viewer (`explain`)"),
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
        /// sources it reads, and list every parameter it sets. With `--format markdown`, the
        /// reading as a rule book: its rules in prose, in play order, each footnoted with the
        /// words it rests on and its class, and the open points it decides.
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
    /// Measure agents against each other in one reading: each adjacent pair of the levels
    /// (every pair with --all-pairs) plays with the seats rotating game by game, and the
    /// first agent's score over the finished games comes with its 95 % interval and a verdict.
    #[command(
        after_help = "Examples:\n  ludotrace ladder um-el-tuweisat\n  ludotrace ladder um-el-tuweisat --levels random,greedy,weak -n 20\n  ludotrace ladder seega -i davies --levels fair,strong -n 100 --max-plies 20000 --format json"
    )]
    Ladder {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id (default: the game's first reading).
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: Option<String>,
        /// The agents, comma-separated, weakest first: levels (weak, fair, strong) or any
        /// agent spec (random, greedy, mcts:N, ab:DEPTH, ex:DEPTH …).
        #[arg(long, default_value = crate::analysis::ladder::DEFAULT_LEVELS, value_name = "AGENT,...")]
        levels: String,
        /// Play every pair of the levels, not only adjacent ones.
        #[arg(long)]
        all_pairs: bool,
        /// Games per pairing (a multiple of 2: each agent plays each seat equally often).
        #[arg(short = 'n', long, default_value_t = 100, value_name = "GAMES")]
        games: u64,
        /// Run seed: game i of a pairing draws from ChaCha8 seeded from (seed, reading,
        /// pairing), stream i.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies after which a game of a reading with no engine cap is stopped (censored).
        #[arg(long, default_value_t = crate::sim::DEFAULT_MAX_PLIES)]
        max_plies: u32,
        /// Worker threads (default: one per core). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// How each reading plays under self-play: the metrics of Ludii's Evaluation module and
    /// Browne's criteria (completion, balance, first-mover advantage, length, decisions,
    /// branching, lead changes, drama, decisiveness, stability, repetition, board coverage),
    /// each with its 95 % interval, at each strength (each agent at every seat), and a
    /// verdict per reading on stated criteria: met, failed, or uncertain where the interval
    /// straddles the threshold. They describe how agents play a reading, not how likely it
    /// is historically.
    #[command(
        after_help = "Examples:\n  ludotrace assess um-el-bagara --all-interpretations --agents random,fair\n  ludotrace assess seega -i davies -i ludii-1.0.8 -n 200\n  ludotrace assess um-el-tuweisat --all-interpretations --criteria my-criteria.yaml --format json"
    )]
    Assess {
        /// Game id (see `ludotrace list`).
        game: String,
        /// A reading to assess (repeatable; default: the game's first reading).
        #[arg(
            short,
            long = "interpretation",
            value_name = "INTERPRETATION",
            conflicts_with = "all_interpretations"
        )]
        interpretations: Vec<String>,
        /// Assess every reading of the game.
        #[arg(long)]
        all_interpretations: bool,
        /// The strengths, comma-separated: each agent plays every seat of its own games
        /// (self-play), listed weakest first. Random play is best shown beside skilled play: list two
        /// skilled levels to see which metrics depend on how well the reading is played.
        #[arg(long, default_value = crate::analysis::assess::DEFAULT_AGENTS, value_name = "AGENT,...")]
        agents: String,
        /// Games per reading and strength.
        #[arg(short = 'n', long, default_value_t = crate::analysis::assess::DEFAULT_GAMES, value_name = "GAMES")]
        games: u64,
        /// Run seed: game i of a reading draws from ChaCha8 seeded from (seed, reading),
        /// stream i, the very games `run` plays with the same agents.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies after which a game of a reading with no engine cap is stopped (censored).
        #[arg(long, default_value_t = crate::sim::DEFAULT_MAX_PLIES)]
        max_plies: u32,
        /// Plies with no change in any seat's material after which a game is stopped and
        /// counted as censored (0: never; otherwise 256 or more).
        #[arg(long, default_value_t = crate::analysis::assess::DEFAULT_MAX_QUIET, value_name = "PLIES")]
        max_quiet: u32,
        /// Override a parameter in every reading (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
        /// A YAML file of criteria (`criteria:` a list of `metric:` with one of `at_least`,
        /// `at_most`, `within`, `between`); default: finished at least 95 %, first-mover
        /// advantage within ±10 points, draws at most 20 %, median turns between 10 and 1000.
        #[arg(long, value_name = "FILE")]
        criteria: Option<std::path::PathBuf>,
        /// Also switch each open point of each reading one option at a time, under each
        /// skilled strength, and name the points whose options move the reading across a
        /// criterion.
        #[arg(long)]
        by_point: bool,
        /// With --by-point, switch only this open point: a choice's id, or a register point
        /// it addresses, such as UB-18 (repeatable; default: every open point).
        #[arg(long = "point", value_name = "POINT", requires = "by_point")]
        points: Vec<String>,
        /// Worker threads (default: one per core). Results do not depend on it.
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Split `run`, `diff`, `flags` (`--global` too) or `assess` into units of work that can
    /// run apart, on a cluster's nodes, and be merged into the single process's result, byte
    /// for byte: writes a plan listing the units (reading × block of games).
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
        /// The command to plan, as typed after `ludotrace` (`run …`, `diff …`, `flags …`,
        /// `assess …`).
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
    /// See what the results store holds (its size, games, runs by command and by game, and
    /// their age), export every run's results, or prune it.
    #[command(
        after_help = "Examples:\n  ludotrace store\n  ludotrace store export > results.csv\n  ludotrace store export --format json\n  ludotrace store prune --older-than 30\n  ludotrace store prune --command flags --game seega"
    )]
    Store {
        /// What to do (default: show what it holds).
        #[command(subcommand)]
        action: Option<StoreAction>,
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
        /// A trace file: one recorded playout per line (the format: TRACES.md in ludotrace's
        /// source repository, under tests/data/ludii-traces/).
        file: PathBuf,
    },
    /// One game, move by move: the board, each move and each rule it applies (sowing, relay,
    /// capture, pass, payment, stage end…) with the clause or option behind it, the words it
    /// rests on and their class, the open point and its other options where the reading took
    /// one, and the situations no words decide. The game is game K of `run` with the same
    /// seed. With --against, the same game under a second reading, and where they part.
    #[command(
        after_help = "Examples:\n  ludotrace explain um-el-bagara -i davies --plies 1..12\n  ludotrace explain seega -i davies --against ludii --plies 1..30\n  ludotrace explain sijat-el-taba -i davies --game 3 --format json\n  ludotrace explain um-el-tuweisat -i davies --format html > game.html\n  ludotrace explain um-el-tuweisat -i ludii --position 'rows=0,2,1/3,0,0 to-move=1 taken=6,6'"
    )]
    Explain {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id (default: the game's first reading, its primary source).
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: Option<String>,
        /// A second reading: it replays the first reading's moves while they are legal in
        /// it, with the same chance outcomes, then its own agent plays on; the output names
        /// the ply where the games part and the open point that parts them.
        #[arg(long, value_name = "INTERPRETATION")]
        against: Option<String>,
        /// The game's index in the run (game K of `run -n N --seed S`), from 0.
        #[arg(
            long = "game",
            id = "game_index",
            value_name = "K",
            default_value_t = 0
        )]
        index: u64,
        /// Games in the run the game belongs to: --game must be below it.
        #[arg(short = 'n', long, value_name = "GAMES", default_value_t = 1000)]
        games: u64,
        /// Run seed, as `run` takes it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Plies after which a game of a reading with no engine cap stops as a timeout.
        #[arg(long, default_value_t = crate::sim::DEFAULT_MAX_PLIES)]
        max_plies: u32,
        /// The players, as `run` takes them (e.g. `fair,random`).
        #[arg(long, default_value = "random", value_name = "AGENT,...")]
        agents: String,
        /// Rotate the agents one seat a game, as `run --swap` does.
        #[arg(long)]
        swap: bool,
        /// Show only plies A to B (from 1; the whole game is still played), e.g. `1..40` or
        /// `120..`.
        #[arg(long, value_name = "A..B", value_parser = parse_plies)]
        plies: Option<(u32, u32)>,
        /// Start from this position, in the notation `explain` prints under every step
        /// (e.g. 'rows=0,2,1/3,0,0 to-move=1 taken=6,6'), instead of the start: the seat's
        /// agents play on from it with game K's generator. See guide/explain.md.
        #[arg(long, value_name = "POSITION")]
        position: Option<String>,
        /// Override a parameter, as `run --set` does (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
    },
    /// The exact value of a reading's start (or of a position), for each starter where the
    /// lot decides who begins: a win with the plies to the end under best play, a drawn end a
    /// seat can force, or play that need not end; the positions reachable and a principal
    /// variation. For the games without dice (the sowing games, Seega) small enough to list
    /// every position.
    #[command(
        after_help = "Examples:\n  ludotrace solve um-el-tuweisat -i ludii-1.0.8\n  ludotrace solve um-el-tuweisat -i davies --format json\n  ludotrace solve um-el-bagara -i ludii --set holes=3 --set counters=2\n  ludotrace solve um-el-tuweisat -i ludii --position 'rows=0,2,1/3,0,0 to-move=1 taken=6,6'"
    )]
    Solve {
        /// Game id (see `ludotrace list`).
        game: String,
        /// Interpretation id (default: the game's first reading, its primary source).
        #[arg(short, long, value_name = "INTERPRETATION")]
        interpretation: Option<String>,
        /// Solve this position, in the notation `explain` prints, instead of the start.
        #[arg(long, value_name = "POSITION")]
        position: Option<String>,
        /// The most positions to list before refusing (with the count reached).
        #[arg(long, value_name = "N", default_value_t = crate::analysis::solve::DEFAULT_MAX_STATES)]
        max_states: usize,
        /// Rate agents against perfect play: the share of positions (met in games of random
        /// play) where each agent's move keeps the solved value. Without a list: random,
        /// greedy, mcts:30, mcts:300, mcts:3000, weak, fair, strong, perfect.
        #[arg(long, value_name = "AGENTS", num_args = 0..=1, default_missing_value = crate::analysis::solve::DEFAULT_RATED)]
        rate: Option<String>,
        /// Positions to rate the agents on (with --rate).
        #[arg(long, value_name = "N", default_value_t = crate::analysis::solve::DEFAULT_POSITIONS)]
        positions: usize,
        /// Seed of the games the positions come from and of the agents' choices (with
        /// --rate).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads for the rating (default: one per core). Results do not depend on
        /// it.
        #[arg(long, value_name = "N")]
        threads: Option<usize>,
        /// Override a parameter, as `run --set` does (repeatable).
        #[arg(long = "set", value_name = "PARAM=VALUE")]
        set: Vec<String>,
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
    // One of a game and --all: clap's message then names both (`<GAME|--all>`).
    #[command(group(clap::ArgGroup::new("which").required(true).args(["game", "all"])))]
    Report {
        /// Game id (see `ludotrace list`).
        #[arg(conflicts_with = "all")]
        game: Option<String>,
        /// Every game, and the index.
        #[arg(long)]
        all: bool,
        /// The directory the files go into.
        #[arg(long, value_name = "DIR", default_value = "reports")]
        out: std::path::PathBuf,
        /// Games per reading for the outcomes (the comparisons and flags use their own,
        /// stated in the report).
        #[arg(short = 'n', long, value_name = "GAMES", default_value_t = crate::present::report::RUN_GAMES)]
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
        #[arg(short = 'n', long, value_name = "GAMES", default_value_t = crate::present::report::RUN_GAMES)]
        games: u64,
        /// Take the reports from DIR, as `report --all --out DIR` wrote them (the committed
        /// `reports/`, say), instead of making them again: no game is played. Refused when a
        /// game's report is missing or was made by another ludotrace or from another corpus.
        #[arg(long, value_name = "DIR", conflicts_with = "games")]
        reports: Option<std::path::PathBuf>,
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
    /// Plies with no change in any seat's material (counters taken, pieces kept, distance
    /// run) after which a game of a reading with no engine cap is stopped and counted as
    /// censored, like one at --max-plies: for skilled players, who may move for ever without
    /// taking anything. 0 (the default) never stops a game so; otherwise 256 or more (the
    /// material is looked at every 256 plies).
    #[arg(long, default_value_t = 0, value_name = "PLIES")]
    pub max_quiet: u32,
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
    pub fn lineup(&self) -> Result<Lineup, Error> {
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

/// Parses `--width`: `0` (no wrapping) or a width from [`MIN_WIDTH`] to [`MAX_WIDTH`].
///
/// # Errors
/// A message naming what is accepted, for clap to report (exit 2).
pub fn parse_width(s: &str) -> Result<usize, String> {
    let expected =
        format!("expected 0 (no wrapping) or a width from {MIN_WIDTH} to {MAX_WIDTH} columns");
    match s.trim().parse::<u64>() {
        Ok(0) => Ok(0),
        Ok(n) if (MIN_WIDTH as u64..=MAX_WIDTH as u64).contains(&n) => Ok(n as usize),
        Ok(n) => Err(format!("{n} is out of range; {expected}")),
        Err(_) => Err(format!("`{s}` is not a number; {expected}")),
    }
}

/// `--plies A..B`: a range of plies from 1, `A..` to the end, or `A` alone.
pub fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let expected = "expected a range of plies from 1, like 1..40, 120.. or 7";
    let num = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{t}` is not a ply number; {expected}"))
    };
    let (a, b) = match s.split_once("..") {
        Some((a, "")) => (num(a)?, u32::MAX),
        Some((a, b)) => (num(a)?, num(b.trim_start_matches('='))?),
        None => {
            let a = num(s)?;
            (a, a)
        }
    };
    if a == 0 {
        return Err(format!("plies are numbered from 1, not 0; {expected}"));
    }
    if b < a {
        return Err(format!(
            "the range ends ({b}) before it starts ({a}); {expected}"
        ));
    }
    Ok((a, b))
}

/// `store prune --older-than`: a whole number of days, said in those words when it is not one.
pub fn parse_days(s: &str) -> Result<u32, String> {
    s.trim()
        .parse::<u32>()
        .map_err(|_| format!("expected a whole number of days (0 or more), not \"{s}\""))
}

/// The width tables are laid out to, or `None` for no wrapping.
///
/// An explicit `--width` wins everywhere, piped or not (`0` turning wrapping off). Without
/// it, only a terminal wraps: to `COLUMNS` when that is a positive number (clamped to
/// [`MIN_WIDTH`]..=[`MAX_WIDTH`], since a shell's stale or odd value should not stop the
/// output), else to the terminal's size. `COLUMNS` is ignored off a terminal because shells
/// export it to pipelines whose output is not displayed at that width.
pub(crate) fn table_width(flag: Option<usize>) -> Option<usize> {
    match flag {
        Some(0) => None,
        Some(n) => Some(n.clamp(MIN_WIDTH, MAX_WIDTH)),
        None if std::io::IsTerminal::is_terminal(&std::io::stdout()) => {
            let columns = std::env::var("COLUMNS")
                .ok()
                .and_then(|c| c.trim().parse::<u64>().ok())
                .filter(|&c| c > 0)
                .map(|c| c.min(MAX_WIDTH as u64) as usize);
            columns
                .or_else(|| comfy_table::Table::new().width().map(usize::from))
                .map(|w| w.clamp(MIN_WIDTH, MAX_WIDTH))
        }
        None => None,
    }
}

/// What `store` does besides showing what the store holds.
#[derive(Debug, Clone, Subcommand)]
pub enum StoreAction {
    /// Every run's results: one CSV row per run and metric (each seat's wins, the first and
    /// second mover's, draws, timeouts, mean plies) with its 95 % interval; or JSON with
    /// --format json.
    Export,
    /// Remove the runs that match every filter given, then the games no remaining run is
    /// made of, and compact the file.
    Prune {
        /// Runs last asked for more than DAYS days ago.
        #[arg(long, value_name = "DAYS", value_parser = parse_days)]
        older_than: Option<u32>,
        /// Runs first asked for by this command.
        #[arg(long, value_name = "NAME", value_parser = crate::exec::housekeeping::COMMANDS)]
        command: Option<String>,
        /// Runs of this game (see `ludotrace list`).
        #[arg(long, value_name = "GAME")]
        game: Option<String>,
    },
}
