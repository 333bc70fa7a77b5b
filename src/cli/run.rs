//! `ludotrace run`: seeded random play of one reading or all of a game's readings.
//!
//! The result (JSON schema_version 1) is a pure function of the corpus content,
//! the game, the reading, the overrides, the agents, the seed, the number of games, the ply
//! limit and the ludotrace version; the table view prints the command that reproduces it.

use std::collections::BTreeMap;
use std::io::IsTerminal;

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::exec::{Exec, Task};
use super::output::{Out, style};
use super::render::OUTPUT_SCHEMA_VERSION;
use super::{Error, Format};
use crate::agents::Lineup;
use crate::bind::{self, Bound};
use crate::corpus::{Choice, ChoiceOption, CorpusFiles, Game, Interpretation};
use crate::family::Cap;
use crate::games::{Event, EventKind, Rules};
use crate::registry::{EngineVisitor, GameFamily};
use crate::rng;
use crate::sim::{self, AgentTally, Coverage, GameEnd, GameRecord, RunSpec, Tally};
use crate::stats::{Rate, Summary, round, wilson};

/// What the user asked `run` for.
#[derive(Debug, Clone)]
pub struct RunArgs {
    /// Game id.
    pub game: String,
    /// One reading, or all (`None` with `all`), or the game's first reading.
    pub interpretation: Option<String>,
    /// Every reading of the game.
    pub all: bool,
    /// Games per reading.
    pub games: u64,
    /// Who plays which seat.
    pub lineup: Lineup,
    /// Run seed.
    pub seed: u64,
    /// Ply limit for readings without an engine cap.
    pub max_plies: u32,
    /// `PARAM=VALUE` overrides.
    pub set: Vec<String>,
    /// `CHOICE=OPTION` switches.
    pub choose: Vec<String>,
    /// Play the reading with each option it does not take switched in alone, too.
    pub each_option: bool,
    /// Worker threads (`None`: one per core).
    pub threads: Option<usize>,
    /// The corpus directory, if not the built-in corpus (for the reproduce line).
    pub corpus: Option<std::path::PathBuf>,
}

/// The most worker threads `run` starts: far more than any machine it runs on has cores, and
/// few enough that starting them cannot exhaust the system.
pub const MAX_THREADS: usize = 256;
/// The largest `--max-plies`: as large as the largest engine cap.
pub const MAX_PLIES: u32 = Cap::MAX;

/// `run --format json` for one reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The ludotrace version that produced it.
    pub ludotrace: String,
    /// Game id.
    pub game: String,
    /// Interpretation id.
    pub interpretation: String,
    /// `--set` overrides, parameter → value (the parameters of options switched in with
    /// `--choose` or `--each-option` included).
    pub overrides: BTreeMap<String, Value>,
    /// Options switched into the reading (`--choose`, `--each-option`), choice → option.
    /// Absent when none was.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub choose: IndexMap<String, String>,
    /// BLAKE3 of the corpus files (paths and contents).
    pub corpus_hash: String,
    /// Run seed.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// The ply limit applied to readings without an engine cap (part of the result's
    /// identity).
    pub max_plies: u32,
    /// The agent of each seat (with `swap`, in game 0: game i rotates them by i places,
    /// seat s played by the agent at seat (s + i) mod k of the `--agents` list of k).
    pub agents: Vec<String>,
    /// Whether the agents rotated over the seats game by game (`--swap`). Absent when not.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub swap: bool,
    /// The `--agents` list as given, before it is cycled over the seats.
    pub lineup: Vec<String>,
    /// Outcomes.
    pub results: RunResults,
    /// Decisions per game (forced passes included).
    pub plies: Summary,
    /// Turns per game (runs of decisions by one seat).
    pub turns: Summary,
    /// Passes per game.
    pub passes: Summary,
    /// Mean number of legal moves per decision.
    pub branching: f64,
    /// Per event kind (and per `uncovered:<place>`): games in which it occurred, and
    /// occurrences per game over all games.
    pub events: IndexMap<String, EventStat>,
}

/// Outcome counts, each game counted once.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunResults {
    /// `wins[i]`: games won by seat i+1 (a game with several winners counts for each).
    pub wins: Vec<u64>,
    /// Draws, capped games that score as draws included.
    pub draws: u64,
    /// Games that did not finish: stopped by the run's ply limit (readings without an engine
    /// cap), or found by the rules never to end.
    pub timeouts: u64,
    /// The timeouts by reason: `ply-limit` (the run's `--max-plies`), `cycle` (a relay or
    /// replay that would go round for ever), `endless` (no end of the game can be reached
    /// any more under the reading's rules). Only reasons that occurred are listed.
    pub timeouts_by_reason: IndexMap<String, u64>,
    /// Games that reached an engine cap, whatever they scored.
    pub capped: u64,
    /// `p1`, `p2` (… one per seat), `draw`, `timeout`: each a rate with its Wilson 95 %
    /// interval.
    pub rates: IndexMap<String, Rate>,
    /// The same games by turn order rather than seat: where a lot decides who begins, seat
    /// results alone mislead.
    pub by_order: ByOrder,
    /// In games that rank their players (the hyena game's degrees of defeat): `ranks[i][k]`
    /// is the number of games in which seat i+1 took place k+1 (1 the best). Absent when no
    /// game of the run ranked its players.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ranks: Vec<Vec<u64>>,
    /// By agent, when two or more different agents played (absent otherwise): each agent's
    /// games, wins and win rate, as first mover and at each seat.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub by_agent: IndexMap<String, AgentResult>,
}

/// One agent's results in a run of several. Counted by seat: in a game of several seats an
/// agent may hold more than one, and each seat it holds wins or not.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AgentResult {
    /// Games in which it held a seat.
    pub games: u64,
    /// Seats it held, summed over the games (`games`, where it holds one seat a game).
    pub seat_games: u64,
    /// Of those, seats that won.
    pub wins: u64,
    /// `wins / seat_games` with its Wilson 95 % interval (exact where it holds one seat a
    /// game; where it holds several, its seats in one game are not independent and the
    /// interval is narrower than it should be).
    pub rate: Rate,
    /// Games in which it made the first decision of play.
    pub first_moves: u64,
    /// Of those, games it won.
    pub first_mover_wins: u64,
    /// `first_mover_wins / first_moves` with its Wilson 95 % interval (absent when it never
    /// moved first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_mover_rate: Option<Rate>,
    /// `seats[i]`: its games and wins at seat i+1.
    pub seats: Vec<SeatResult>,
}

/// An agent's games at one seat.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SeatResult {
    /// Games in which it held the seat.
    pub games: u64,
    /// Of those, games the seat won.
    pub wins: u64,
    /// `wins / games` with its Wilson 95 % interval (absent when it never held the seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<Rate>,
}

/// A rate of `k` in `n` with its Wilson interval, rounded for output.
pub(super) fn rate_of(k: u64, n: u64) -> Rate {
    let r = wilson(k, n);
    Rate {
        value: round(r.value, 4),
        lo: round(r.lo, 4),
        hi: round(r.hi, 4),
    }
}

/// Each agent's results, by the lineup's distinct agents.
fn by_agent(lineup: &Lineup, agents: &[AgentTally]) -> IndexMap<String, AgentResult> {
    let some = |k: u64, n: u64| (n > 0).then(|| rate_of(k, n));
    lineup
        .distinct()
        .iter()
        .zip(agents)
        .map(|(agent, t)| {
            (
                agent.to_string(),
                AgentResult {
                    games: t.games,
                    seat_games: t.seat_games_total(),
                    wins: t.seat_wins_total(),
                    rate: rate_of(t.seat_wins_total(), t.seat_games_total()),
                    first_moves: t.first,
                    first_mover_wins: t.first_wins,
                    first_mover_rate: some(t.first_wins, t.first),
                    seats: t
                        .seat_games
                        .iter()
                        .zip(&t.seat_wins)
                        .map(|(&games, &wins)| SeatResult {
                            games,
                            wins,
                            rate: some(wins, games),
                        })
                        .collect(),
                },
            )
        })
        .collect()
}

/// The games of a title, with who played them: `400 random games each`, or `400 games each ·
/// mcts:300 against random, seats rotating` (`each` is what follows the count of games).
pub(super) fn games_played(games: u64, lineup: &Lineup, each: &str) -> String {
    if lineup.is_random() {
        return format!("{games} random games{each}");
    }
    let names: Vec<String> = lineup.agents().iter().map(ToString::to_string).collect();
    let who = if lineup.distinct().len() == 1 {
        format!("{} at every seat", names[0])
    } else if !lineup.swap() {
        names.join(" against ")
    } else if names.len() == 2 {
        format!("{} against {}, seats rotating", names[0], names[1])
    } else {
        let (last, rest) = names.split_last().expect("two or more");
        format!("{} and {last} rotating over the seats", rest.join(", "))
    };
    format!("{games} games{each} · {who}")
}

/// Outcomes by the order in which the seats first moved.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ByOrder {
    /// `first_moves[i]`: games in which seat i+1 made the first decision of play (a game
    /// over before any decision counts for none).
    pub first_moves: Vec<u64>,
    /// `wins[k]`: games won by the seat that moved (k+1)-th, counting from the first mover
    /// in seat order.
    pub wins: Vec<u64>,
    /// `first`, `second` (… one per seat): each a win rate over all games with its Wilson
    /// 95 % interval.
    pub rates: IndexMap<String, Rate>,
}

/// The names of turn-order positions.
const ORDINALS: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// How often an event occurred.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EventStat {
    /// Games in which it occurred at least once.
    pub games: u64,
    /// Occurrences per game, over all games.
    pub per_game: f64,
}

/// `run --all-interpretations --format json`: one result per reading; `run --each-option`:
/// the reading, then one result per option switched in.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RunAllOutput<'a> {
    /// Always 1.
    pub schema_version: u32,
    /// The runs, in the ruleset's order of readings (or of choices and options).
    pub runs: Vec<&'a RunOutput>,
    /// `--each-option`: the options the engine refused to play in the reading, with its
    /// reason. Absent when none was refused.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<Refused>,
}

/// An option the engine cannot play in a reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Refused {
    /// Choice → option.
    pub choose: IndexMap<String, String>,
    /// The engine's reason.
    pub reason: String,
}

/// One row of a run: a reading, the options switched into it, and its overrides.
struct Variant<'a> {
    interp: &'a Interpretation,
    choose: Vec<(&'a Choice, &'a ChoiceOption)>,
    overrides: Map<String, Value>,
}

impl Variant<'_> {
    fn choose_map(&self) -> IndexMap<String, String> {
        self.choose
            .iter()
            .map(|(c, o)| (c.id.clone(), o.id.clone()))
            .collect()
    }

    fn label(&self) -> String {
        if self.choose.is_empty() {
            format!("{} as it stands", self.interp.id)
        } else {
            self.choose
                .iter()
                .map(|(c, o)| format!("{}={}", c.id, o.id))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }

    fn bind(&self, game: &Game) -> Result<Bound, bind::BindError> {
        // A parameter an option sets, or one it resets for the option it switched out.
        let place = |param: &str| {
            self.choose
                .iter()
                .find(|(c, _)| {
                    c.options
                        .iter()
                        .any(|o| o.sets.iter().any(|(p, _)| p == param))
                })
                .map_or_else(
                    || "--set".to_owned(),
                    |(c, o)| format!("--choose {}={}", c.id, o.id),
                )
        };
        bind::bind_with(game, self.interp, &self.overrides, &place)
    }
}

/// Parses `CHOICE=OPTION` switches against a game's choices.
///
/// # Errors
/// [`Error::Usage`] for a malformed item, an unknown choice or option (listing the valid
/// ones), or a choice given twice.
fn parse_choose<'a>(
    game: &'a Game,
    items: &[String],
) -> Result<Vec<(&'a Choice, &'a ChoiceOption)>, Error> {
    let mut out: Vec<(&Choice, &ChoiceOption)> = Vec::new();
    for item in items {
        let Some((c, o)) = item.split_once('=') else {
            return Err(Error::Usage(format!(
                "--choose {item}: expected CHOICE=OPTION, e.g. --choose {}",
                game.choices.first().map_or_else(
                    || "CHOICE=OPTION".to_owned(),
                    |c| format!("{}={}", c.id, c.options[0].id)
                )
            )));
        };
        let (c, o) = (c.trim(), o.trim());
        let Some(choice) = game.choices.iter().find(|x| x.id == c) else {
            return Err(Error::Usage(format!(
                "--choose {item}: {} has no choice `{c}`; its choices are {}",
                game.id,
                game.choices
                    .iter()
                    .map(|x| x.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        let Some(option) = choice.options.iter().find(|x| x.id == o) else {
            return Err(Error::Usage(format!(
                "--choose {item}: the choice `{c}` has no option `{o}`; its options are {}",
                choice
                    .options
                    .iter()
                    .map(|x| x.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        if let Some((_, first)) = out.iter().find(|(x, _)| x.id == choice.id) {
            return Err(Error::Usage(format!(
                "--choose {c} is given twice ({} and {o}): switch each choice once",
                first.id
            )));
        }
        out.push((choice, option));
    }
    Ok(out)
}

/// `--set` overrides with the parameters of the options switched into `reading` added
/// ([`Game::switch_sets`]; a default that stands in for an option switched out yields to `--set`).
///
/// # Errors
/// [`Error::Usage`] when a switched option sets a parameter `--set` or another switched
/// option also sets: which value was meant is not for the program to guess.
pub(super) fn merge_options(
    game: &Game,
    reading: &Interpretation,
    set: &Map<String, Value>,
    choose: &[(&Choice, &ChoiceOption)],
) -> Result<Map<String, Value>, Error> {
    let mut merged = set.clone();
    let mut by: BTreeMap<String, String> = BTreeMap::new();
    for (c, o) in choose {
        for (param, value) in game.switch_sets(reading, c, o) {
            let own = o.sets.iter().any(|(k, _)| *k == param);
            let here = format!("--choose {}={}", c.id, o.id);
            if let Some(first) = by.get(param.as_str()) {
                return Err(Error::Usage(format!(
                    "{here} sets `{param}`, which {first} sets too: give each parameter once"
                )));
            }
            if merged.contains_key(&param) {
                if !own {
                    continue;
                }
                return Err(Error::Usage(format!(
                    "{here} sets `{param}`, which --set {param} sets too: give each parameter once"
                )));
            }
            merged.insert(param.clone(), value);
            by.insert(param, here);
        }
    }
    Ok(merged)
}

/// The hash that identifies a corpus's content.
pub fn corpus_hash(files: &CorpusFiles) -> String {
    let mut h = blake3::Hasher::new();
    for f in &files.files {
        h.update(f.path.as_bytes());
        h.update(&[0]);
        match &f.content {
            Ok(text) => h.update(text.as_bytes()),
            Err(e) => h.update(e.as_bytes()),
        };
        h.update(&[0]);
    }
    h.finalize().to_hex().to_string()
}

/// Runs the command.
///
/// # Errors
/// Unknown game or reading, bad overrides, zero games or threads, unsupported format.
pub fn run(
    out: &mut Out,
    exec: &Exec,
    corpus: &crate::corpus::Corpus,
    files: &CorpusFiles,
    args: &RunArgs,
    quiet: bool,
) -> Result<Vec<Played>, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_rotation(args.games, &args.lineup, sim::MAX_GAMES)?;
    let game = super::game_of(corpus, &args.game)?;
    let readings: Vec<&Interpretation> = if args.all {
        game.interpretations.iter().collect()
    } else {
        match &args.interpretation {
            Some(id) => vec![super::interpretation_of(game, id)?],
            None => game.interpretations.iter().take(1).collect(),
        }
    };
    let set = bind::parse_overrides(&args.set)?;
    let chosen = parse_choose(game, &args.choose)?;
    let mut variants: Vec<Variant> = Vec::new();
    for &interp in &readings {
        variants.push(Variant {
            interp,
            choose: chosen.clone(),
            overrides: merge_options(game, interp, &set, &chosen)?,
        });
    }
    if args.each_option {
        let interp = readings[0];
        for choice in &game.choices {
            if chosen.iter().any(|(c, _)| c.id == choice.id) {
                continue;
            }
            let taken = interp
                .choose
                .iter()
                .find(|(c, _)| *c == choice.id)
                .map(|(_, o)| o.as_str());
            for option in choice
                .options
                .iter()
                .filter(|o| Some(o.id.as_str()) != taken)
            {
                let mut choose = chosen.clone();
                choose.push((choice, option));
                let overrides = merge_options(game, interp, &set, &choose)?;
                variants.push(Variant {
                    interp,
                    choose,
                    overrides,
                });
            }
        }
    }
    // Under --each-option an option the engine cannot play is a row of its own (a finding);
    // otherwise it is the command's error.
    let mut refused = Vec::new();
    let mut bound: Vec<Bound> = Vec::new();
    let mut kept: Vec<Variant> = Vec::new();
    for (k, v) in variants.into_iter().enumerate() {
        match v.bind(game) {
            Ok(b) => {
                bound.push(b);
                kept.push(v);
            }
            Err(e) if args.each_option && k > 0 => refused.push(Refused {
                choose: v.choose_map(),
                reason: e.to_string(),
            }),
            Err(e) => return Err(e.into()),
        }
    }
    let variants = kept;
    for b in &bound {
        check_seated(&args.lineup, b)?;
    }
    let pool = pool(args.threads)?;
    let bar = if quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        let bar = indicatif::ProgressBar::new(args.games * variants.len() as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{prefix} [{bar:30}] {pos}/{len} games ({per_sec}, {eta} left)",
            )
            .expect("template is valid")
            .progress_chars("=> "),
        );
        bar
    };
    let hash = corpus_hash(files);
    let keep_records = out.format == Format::Csv;
    let mut results = Vec::new();
    let mut csv = keep_records.then(|| CsvRows::header(out, &bound));
    for (v, b) in variants.iter().zip(&bound) {
        let interp = v.interp;
        bar.set_prefix(v.label());
        let spec = RunSpec {
            games: args.games,
            seed: args.seed,
            key: rng::reading_key(&game.id, &interp.id),
            max_plies: args.max_plies,
            keep_records,
        };
        // Rows go out block by block as the games finish: memory does not grow with the
        // number of games.
        let mut written = Ok(());
        let places = if keep_records {
            b.engine.visit(FlagPlaces { bound: b })
        } else {
            Vec::new()
        };
        let mut sink = |records: &[GameRecord]| {
            if let Some(csv) = &mut csv {
                csv.rows(out, &game.id, &interp.id, &places, &args.lineup, records);
                if written.is_ok() {
                    written = out.flush();
                }
            }
        };
        let task = Task {
            game: &game.id,
            reading: &interp.id,
            bound: b,
            spec: &spec,
            lineup: &args.lineup,
        };
        let tally = play_records(exec, &task, 0..args.games, &pool, &bar, &mut sink);
        written?;
        results.push((interp, b, tally));
    }
    bar.finish_and_clear();
    let outputs: Vec<RunOutput> = results
        .iter()
        .zip(&variants)
        .map(|((interp, b, tally), v)| {
            let mut o = output(game, interp, b, tally, args, &hash);
            o.choose = v.choose_map();
            o
        })
        .collect();
    match out.format {
        Format::Json if args.all || args.each_option => out.json(&RunAllOutput {
            schema_version: OUTPUT_SCHEMA_VERSION,
            runs: outputs.iter().collect(),
            refused,
        }),
        Format::Json => out.json(&outputs[0]),
        Format::Csv => {}
        // (`check_format` refuses csv with `--each-option`.)
        _ if args.each_option => each_option_table(out, game, &variants, &outputs, &refused, args),
        _ => table(out, game, &results, &outputs, args),
    }
    Ok(outputs
        .into_iter()
        .zip(results)
        .map(|(output, (_, _, tally))| Played {
            output,
            plies: tally.plies,
        })
        .collect())
}

/// One row of a run, as played: what `--format json` prints of it, and its games' lengths
/// in full (the report draws their distribution).
#[derive(Debug)]
pub struct Played {
    /// The row's result.
    pub output: RunOutput,
    /// Plies per game.
    pub plies: crate::stats::Histogram,
}

/// Refuses the numbers a user typed for a command that plays games where they are out of
/// bounds, naming the bounds: the games of a run, the ply limit, the worker threads.
pub(super) fn check_numbers(
    games: u64,
    max_plies: u32,
    threads: Option<usize>,
) -> Result<(), Error> {
    if let Err(e) = sim::check_games(games) {
        return Err(Error::Usage(format!(
            "--games must be 1 to {} (a rate needs games to be a rate), not {}",
            sim::MAX_GAMES,
            e.given,
        )));
    }
    if !(1..=MAX_PLIES).contains(&max_plies) {
        return Err(Error::Usage(format!(
            "--max-plies must be 1 to {MAX_PLIES}, not {max_plies}"
        )));
    }
    if let Some(t) = threads
        && !(1..=MAX_THREADS).contains(&t)
    {
        return Err(Error::Usage(format!(
            "--threads must be 1 to {MAX_THREADS}, not {t} (results do not depend on it)"
        )));
    }
    Ok(())
}

/// Refuses a number of games that is not a whole number of `--swap` rotations, where each
/// agent would not play each seat equally often.
pub(super) fn check_rotation(games: u64, lineup: &Lineup, max: u64) -> Result<(), Error> {
    let k = lineup.rotation();
    if !games.is_multiple_of(k) {
        let below = games / k * k;
        let above = below + k;
        let near = match (below, above <= max) {
            (0, _) => format!("{k}"),
            (_, true) => format!("{below} or {above}"),
            (_, false) => format!("{below}"),
        };
        return Err(Error::Usage(format!(
            "--swap rotates {k} agents over the seats, so that each plays each seat equally \
             often: --games must be a multiple of {k} (say {near}), not {games}"
        )));
    }
    Ok(())
}

/// Refuses a lineup with an agent that would never play: more agents than the reading has
/// seats, without `--swap` to rotate them all in.
pub(super) fn check_seated(lineup: &Lineup, b: &Bound) -> Result<(), Error> {
    let seats = b.engine.visit(Seats);
    let listed = lineup.agents().len();
    if !lineup.swap() && listed > seats {
        let idle: Vec<String> = lineup.agents()[seats..]
            .iter()
            .map(ToString::to_string)
            .collect();
        return Err(Error::Usage(format!(
            "--agents lists {listed} agents, but the reading seats {seats}: without --swap, \
             the agents listed after the first {seats} ({}) would never play (list at most \
             {seats}, or add --swap to rotate all {listed} over the seats)",
            idle.join(" and ")
        )));
    }
    Ok(())
}

/// The worker pool of a command that plays games (`None`: one thread per core).
pub(super) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build(),
        None => rayon::ThreadPoolBuilder::new().build(),
    }
    .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))
}

/// Plays games `games` of one reading on `pool`, through `exec` (the store, a plan's units,
/// partial results): the one way a command plays a reading's games into a tally.
pub(super) fn play_reading(
    exec: &Exec,
    task: &Task,
    games: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Tally {
    play_records(exec, task, games, pool, bar, &mut |_| {})
}

/// [`play_reading`], handing each block's records (with `spec.keep_records`) to `records`.
pub(super) fn play_records(
    exec: &Exec,
    task: &Task,
    games: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
    records: &mut (dyn FnMut(&[GameRecord]) + Send),
) -> Tally {
    let key = exec.key(task);
    let spec = RunSpec {
        keep_records: exec.keeps_records(task.spec),
        ..*task.spec
    };
    pool.install(|| {
        task.bound.engine.visit(Simulate {
            exec,
            key: &key,
            bound: task.bound,
            spec: &spec,
            lineup: task.lineup,
            games,
            bar,
            records,
        })
    })
}

/// One reading's simulation, for any family.
struct Simulate<'a> {
    exec: &'a Exec,
    key: &'a crate::store::Key,
    bound: &'a Bound,
    spec: &'a RunSpec,
    lineup: &'a Lineup,
    /// The games to play, of `spec.games`.
    games: std::ops::Range<u64>,
    bar: &'a indicatif::ProgressBar,
    records: &'a mut (dyn FnMut(&[GameRecord]) + Send),
}

impl EngineVisitor for Simulate<'_> {
    type Output = Tally;

    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Tally {
        let coverage = Coverage::new::<F::Rules>(|p| self.bound.flag(p));
        let kinds: Vec<String> = kind_names::<F::Rules>().map(str::to_owned).collect();
        let places = coverage.places.clone();
        let run = self.exec.begin(self.key, self.games.clone());
        let names = ((kinds.as_slice(), places.as_slice()), run);
        let (exec, key, keep) = (self.exec, self.key, self.spec.keep_records);
        let bar = self.bar;
        sim::run_blocks(
            rules,
            self.spec,
            self.lineup,
            &coverage,
            self.games,
            &|n| bar.inc(n),
            &mut sim::Blocks {
                source: &mut |range, like| exec.source(key, range, like, keep, names),
                played: &mut |range, t| exec.played(key, range, t, names),
                records: self.records,
            },
        )
        // Every command checks its number of games by `sim::check_games` before it plays.
        .expect("the command checked its number of games")
        .with_places(coverage.places.iter().cloned())
        .with_kinds(
            <<F::Rules as Rules>::Event as Event>::Kind::ALL
                .iter()
                .map(|k| (k.name(), k.params())),
        )
    }
}

/// The names of an engine's event kinds, in index order.
fn kind_names<R: Rules>() -> impl Iterator<Item = &'static str> {
    <<R::Event as Event>::Kind as EventKind>::ALL
        .iter()
        .map(|k| k.name())
}

fn output(
    game: &Game,
    interp: &Interpretation,
    b: &Bound,
    t: &Tally,
    args: &RunArgs,
    hash: &str,
) -> RunOutput {
    let n = t.games;
    let rate = |k| rate_of(k, n);
    let mut rates = IndexMap::new();
    for (seat, &wins) in t.wins.iter().enumerate() {
        rates.insert(format!("p{}", seat + 1), rate(wins));
    }
    rates.insert("draw".to_owned(), rate(t.draws));
    rates.insert("timeout".to_owned(), rate(t.timeouts));
    let by_order = ByOrder {
        first_moves: t.first_moves.clone(),
        wins: t.order_wins.clone(),
        rates: t
            .order_wins
            .iter()
            .zip(ORDINALS)
            .map(|(&w, name)| (name.to_owned(), rate(w)))
            .collect(),
    };
    let mut events = IndexMap::new();
    for (name, (games, total)) in t.named_events() {
        if games > 0 {
            events.insert(
                name.to_owned(),
                EventStat {
                    games,
                    per_game: round(total as f64 / n as f64, 4),
                },
            );
        }
    }
    RunOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        ludotrace: env!("CARGO_PKG_VERSION").to_owned(),
        game: game.id.clone(),
        interpretation: interp.id.clone(),
        overrides: b
            .overrides
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        choose: IndexMap::new(),
        corpus_hash: hash.to_owned(),
        seed: args.seed,
        games: n,
        max_plies: args.max_plies,
        agents: args.lineup.seating(t.wins.len()),
        swap: args.lineup.swap(),
        lineup: lineup_list(&args.lineup),
        results: RunResults {
            wins: t.wins.to_vec(),
            draws: t.draws,
            timeouts: t.timeouts,
            timeouts_by_reason: t
                .timeouts_by_reason
                .iter()
                .map(|&(name, c)| (name.to_owned(), c))
                .collect(),
            capped: t.capped,
            rates,
            by_order,
            ranks: {
                let places = t.ranks.iter().map(Vec::len).max().unwrap_or(0);
                t.ranks
                    .iter()
                    .map(|c| {
                        let mut c = c.clone();
                        c.resize(places, 0);
                        c
                    })
                    .collect()
            },
            by_agent: by_agent(&args.lineup, &t.agents),
        },
        plies: t.plies.summary(),
        turns: t.turns.summary(),
        passes: t.passes.summary(),
        branching: round(t.branching(), 4),
        events,
    }
}

/// The command line that reproduces a run: every option that changes the result (the
/// corpus, the reading, the games, the seed, the ply limit and the overrides), quoted for a
/// POSIX shell.
pub fn command_line(game: &str, interp: Option<&str>, args: &RunArgs) -> String {
    let mut cmd = String::from("ludotrace run");
    if let Some(dir) = &args.corpus {
        cmd.push_str(&format!(
            " --corpus {}",
            shell_quote(&dir.display().to_string())
        ));
    }
    cmd.push_str(&format!(" {}", shell_quote(game)));
    match interp {
        Some(i) => cmd.push_str(&format!(" -i {}", shell_quote(i))),
        None => cmd.push_str(" --all-interpretations"),
    }
    cmd.push_str(&format!(
        " -n {} --seed {} --max-plies {}",
        args.games, args.seed, args.max_plies
    ));
    cmd.push_str(&lineup_words(&args.lineup));
    for s in &args.set {
        cmd.push_str(&format!(" --set {}", shell_quote(s)));
    }
    for c in &args.choose {
        cmd.push_str(&format!(" --choose {}", shell_quote(c)));
    }
    if args.each_option {
        cmd.push_str(" --each-option");
    }
    cmd
}

/// The `--agents` list as given, for JSON.
pub(super) fn lineup_list(lineup: &Lineup) -> Vec<String> {
    lineup.agents().iter().map(ToString::to_string).collect()
}

/// The `--agents` and `--swap` words of a reproduce line (none for random play).
pub(super) fn lineup_words(lineup: &Lineup) -> String {
    let mut words = String::new();
    if !lineup.is_random() || lineup.agents().len() > 1 {
        words.push_str(&format!(" --agents {lineup}"));
    }
    if lineup.swap() {
        words.push_str(" --swap");
    }
    words
}

/// Quotes a word for a POSIX shell where it needs it.
pub(super) fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,@+%".contains(&b));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn pct(r: &Rate) -> (String, String) {
    (
        format!("{:.1} %", r.value * 100.0),
        format!("{:.1}–{:.1} %", r.lo * 100.0, r.hi * 100.0),
    )
}

fn lengths(s: &Summary) -> String {
    format!(
        "mean {:.1} [95 % CI {:.1}–{:.1}] (sd {:.1}), median {}, min {}, p10 {}, p90 {}, max {}",
        s.mean, s.mean_ci[0], s.mean_ci[1], s.sd, s.median, s.min, s.p10, s.p90, s.max
    )
}

fn table(
    out: &mut Out,
    game: &Game,
    results: &[(&Interpretation, &Bound, Tally)],
    outputs: &[RunOutput],
    args: &RunArgs,
) {
    if outputs.len() > 1 {
        title(
            out,
            &format!(
                "{} · every reading · {} · seed {}",
                game.name,
                games_played(args.games, &args.lineup, " each"),
                args.seed
            ),
        );
        let seats = max_seats(outputs);
        let rows = outputs
            .iter()
            .map(|o| {
                let cell = |k: &str| rate_cell(&o.results.rates, k);
                let mut row = vec![o.interpretation.clone()];
                row.extend((1..=seats).map(|s| cell(&format!("p{s}"))));
                let order = |k: &str| {
                    o.results.by_order.rates.get(k).map_or_else(
                        || "–".to_owned(),
                        |r| format!("{} [{}]", pct(r).0, pct(r).1),
                    )
                };
                row.extend([
                    order("first"),
                    order("second"),
                    cell("draw"),
                    cell("timeout"),
                    o.results.capped.to_string(),
                    format!(
                        "{:.1} [{:.1}–{:.1}]",
                        o.plies.mean, o.plies.mean_ci[0], o.plies.mean_ci[1]
                    ),
                    format!("{:.2}", o.branching),
                ]);
                row.extend(agent_cells(o));
                row
            })
            .collect();
        let seat_heads = seat_heads(seats);
        let agent_heads = agent_heads(outputs);
        let mut heads = vec!["reading"];
        heads.extend(seat_heads.iter().map(String::as_str));
        heads.extend([
            "first mover wins",
            "second mover wins",
            "draws",
            "timeouts",
            "capped",
            "mean plies [95 % CI]",
            "branching",
        ]);
        heads.extend(agent_heads.iter().map(String::as_str));
        out.table(&heads, rows);
    } else {
        let (interp, _, _) = &results[0];
        let o = &outputs[0];
        title(
            out,
            &format!(
                "{} · {} ({}) · {} · seed {}",
                game.name,
                interp.id,
                interp.title,
                games_played(o.games, &args.lineup, ""),
                o.seed
            ),
        );
        if !o.overrides.is_empty() {
            let list: Vec<String> = o
                .overrides
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            out.para(&format!("overrides: {}", list.join(", ")));
        }
        let r = &o.results;
        let row = |label: &str, count: u64, key: &str| {
            let (v, ci) = pct(&r.rates[key]);
            vec![label.to_owned(), count.to_string(), v, ci]
        };
        let mut rows: Vec<Vec<String>> = r
            .wins
            .iter()
            .enumerate()
            .map(|(seat, &wins)| {
                row(
                    &format!("seat {} wins", seat + 1),
                    wins,
                    &format!("p{}", seat + 1),
                )
            })
            .collect();
        for (&wins, (name, rate)) in r.by_order.wins.iter().zip(&r.by_order.rates) {
            let (v, ci) = pct(rate);
            rows.push(vec![format!("{name} mover wins"), wins.to_string(), v, ci]);
        }
        rows.push(row("draws", r.draws, "draw"));
        rows.push(row("timeouts", r.timeouts, "timeout"));
        out.table(&["outcome", "games", "rate", "95 % CI (Wilson)"], rows);
        let firsts: Vec<String> = r
            .by_order
            .first_moves
            .iter()
            .enumerate()
            .map(|(seat, n)| format!("seat {} in {n}", seat + 1))
            .collect();
        out.para(&format!("moved first: {}", firsts.join(", ")));
        agent_table(out, &r.by_agent);
        let ends: Vec<String> = results[0]
            .2
            .ends
            .iter()
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        out.para(&format!(
            "games ended: {} · capped by the engine: {}",
            if ends.is_empty() {
                "none".to_owned()
            } else {
                ends.join(", ")
            },
            r.capped
        ));
        if !r.timeouts_by_reason.is_empty() {
            let why: Vec<String> = r
                .timeouts_by_reason
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            out.para(&format!("timeouts by reason: {}", why.join(", ")));
        }
        if !r.ranks.is_empty() {
            let rows = r
                .ranks
                .iter()
                .enumerate()
                .map(|(seat, counts)| {
                    let mut row = vec![format!("seat {}", seat + 1)];
                    row.extend(counts.iter().map(u64::to_string));
                    row
                })
                .collect();
            let places = r.ranks.iter().map(Vec::len).max().unwrap_or(0);
            let mut head = vec!["ranks".to_owned()];
            head.extend((1..=places).map(|k| format!("place {k}")));
            let head: Vec<&str> = head.iter().map(String::as_str).collect();
            out.table(&head, rows);
        }
        out.para(&format!("plies: {}", lengths(&o.plies)));
        out.para(&format!(
            "passes per game: mean {:.2} · legal moves per decision: {:.2}",
            o.passes.mean, o.branching
        ));
        if !o.events.is_empty() {
            let rows = o
                .events
                .iter()
                .map(|(name, e)| {
                    vec![
                        name.clone(),
                        e.games.to_string(),
                        format!("{:.2}", e.per_game),
                    ]
                })
                .collect();
            out.table(&["event", "games", "per game"], rows);
        }
    }
    let interp = if outputs.len() > 1 {
        None
    } else {
        Some(outputs[0].interpretation.as_str())
    };
    footer(
        out,
        &outputs[0].corpus_hash,
        &command_line(&game.id, interp, args),
        args.corpus.as_deref(),
    );
}

/// The heads of the by-agent columns of a table of runs (none for one agent).
fn agent_heads(outputs: &[RunOutput]) -> Vec<String> {
    outputs[0]
        .results
        .by_agent
        .keys()
        .map(|a| format!("{a} win rate"))
        .collect()
}

/// A run's by-agent cells: each agent's win rate with its interval.
fn agent_cells(o: &RunOutput) -> impl Iterator<Item = String> + '_ {
    o.results.by_agent.values().map(|a| {
        let (v, ci) = pct(&a.rate);
        format!("{v} [{ci}]")
    })
}

/// The by-agent table of a run of several agents (nothing for one).
fn agent_table(out: &mut Out, by_agent: &IndexMap<String, AgentResult>) {
    let Some(seats) = by_agent.values().map(|a| a.seats.len()).max() else {
        return;
    };
    let cell = |r: Option<&Rate>| {
        r.map_or_else(
            || "–".to_owned(),
            |r| {
                let (v, ci) = pct(r);
                format!("{v} [{ci}]")
            },
        )
    };
    let rows = by_agent
        .iter()
        .map(|(name, a)| {
            let mut row = vec![
                name.clone(),
                a.games.to_string(),
                a.seat_games.to_string(),
                a.wins.to_string(),
                cell(Some(&a.rate)),
                a.first_moves.to_string(),
                cell(a.first_mover_rate.as_ref()),
            ];
            row.extend(
                a.seats
                    .iter()
                    .map(|s| format!("{} in {}", cell(s.rate.as_ref()), s.games)),
            );
            row
        })
        .collect();
    let mut heads = vec![
        "agent".to_owned(),
        "games".to_owned(),
        "seats held".to_owned(),
        "seats won".to_owned(),
        "win rate [95 % CI]".to_owned(),
        "moved first".to_owned(),
        "win rate moving first".to_owned(),
    ];
    heads.extend((1..=seats).map(|s| format!("win rate at seat {s}")));
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    out.table(&heads, rows);
}

/// A table's title: bold, a paragraph of its own, in Markdown; a styled line and a blank
/// one elsewhere.
fn title(out: &mut Out, text: &str) {
    if out.format == Format::Markdown {
        out.para(&format!("**{text}**"));
    } else {
        out.styled(style::HEAD, text);
        out.line("");
    }
}

/// The lines under a run's table: the corpus with its hash, and the command that reproduces
/// the run (in Markdown, paragraphs of their own).
pub(super) fn footer(out: &mut Out, hash: &str, reproduce: &str, corpus: Option<&std::path::Path>) {
    let corpus = format!(
        "{} (blake3 {hash})",
        corpus.map_or_else(|| "built-in".to_owned(), |dir| dir.display().to_string())
    );
    if out.format == Format::Markdown {
        out.para(&format!("corpus: {corpus}"));
        out.para(&format!("reproduce: `{reproduce}`"));
    } else {
        out.styled(style::DIM, "corpus: ");
        out.line(&corpus);
        out.styled(style::DIM, "reproduce: ");
        out.line(reproduce);
    }
}

/// The most seats among runs (readings of one game, or its options, may seat different
/// numbers of players): the table's seat columns.
fn max_seats(outputs: &[RunOutput]) -> usize {
    outputs
        .iter()
        .map(|o| o.results.wins.len())
        .max()
        .unwrap_or(2)
}

/// A rate with its interval in one cell, or `–` where the run has no such rate.
fn rate_cell(rates: &IndexMap<String, Rate>, key: &str) -> String {
    match rates.get(key) {
        Some(rate) => {
            let (v, ci) = pct(rate);
            format!("{v} [{ci}]")
        }
        None => "–".to_owned(),
    }
}

/// The headings of the per-seat win columns (the first with its interval's name).
fn seat_heads(seats: usize) -> Vec<String> {
    (1..=seats)
        .map(|s| {
            if s == 1 {
                "seat 1 wins [95 % CI]".to_owned()
            } else {
                format!("seat {s} wins")
            }
        })
        .collect()
}

/// `--each-option`'s table: the reading as it stands, then one row per option switched in
/// alone, with the register readings each option is and why games did not end.
fn each_option_table(
    out: &mut Out,
    game: &Game,
    variants: &[Variant],
    outputs: &[RunOutput],
    refused: &[Refused],
    args: &RunArgs,
) {
    let interp = variants[0].interp;
    let head = format!(
        "{} · {} with each option it does not take switched in alone · {} · seed {}",
        game.name,
        interp.id,
        games_played(args.games, &args.lineup, " each (the same games)"),
        args.seed
    );
    title(out, &head);
    let seats = max_seats(outputs);
    let rows = variants
        .iter()
        .zip(outputs)
        .map(|(v, o)| {
            let cell = |k: &str| rate_cell(&o.results.rates, k);
            let register: Vec<&str> = v
                .choose
                .iter()
                .flat_map(|(_, o)| o.register.iter().map(String::as_str))
                .collect();
            let mut row = vec![v.label(), register.join(" ")];
            row.extend((1..=seats).map(|s| cell(&format!("p{s}"))));
            let reasons: Vec<String> = o
                .results
                .timeouts_by_reason
                .iter()
                .map(|(name, n)| format!("{name} {n}"))
                .collect();
            row.extend([
                cell("draw"),
                cell("timeout"),
                reasons.join(", "),
                format!(
                    "{:.1} [{:.1}–{:.1}]",
                    o.plies.mean, o.plies.mean_ci[0], o.plies.mean_ci[1]
                ),
            ]);
            row.extend(agent_cells(o));
            row
        })
        .collect();
    let seat_heads = seat_heads(seats);
    let agent_heads = agent_heads(outputs);
    let mut heads = vec!["option switched in", "register"];
    heads.extend(seat_heads.iter().map(String::as_str));
    heads.extend([
        "draws",
        "timeouts",
        "timeouts by reason",
        "mean plies [95 % CI]",
    ]);
    heads.extend(agent_heads.iter().map(String::as_str));
    out.table(&heads, rows);
    for r in refused {
        let label: Vec<String> = r.choose.iter().map(|(c, o)| format!("{c}={o}")).collect();
        out.para(&format!("refused: {}: {}", label.join(" "), r.reason));
    }
    if !game.declined.is_empty() {
        let rows = game
            .declined
            .iter()
            .map(|d| vec![d.reading.clone(), d.why.clone()])
            .collect();
        out.para(&format!(
            "Register readings no option offers ({}; `ludotrace point ID` gives each):",
            game.declined.len()
        ));
        out.table(&["declined reading", "why"], rows);
    }
    let endless: Vec<String> = variants
        .iter()
        .zip(outputs)
        .filter(|(_, o)| o.results.timeouts == o.games)
        .map(|(v, _)| v.label())
        .collect();
    if !endless.is_empty() {
        out.para(&format!(
            "no game ended under: {} (each a finding about the combination)",
            endless.join(", ")
        ));
    }
    footer(
        out,
        &outputs[0].corpus_hash,
        &command_line(&game.id, Some(&interp.id), args),
        args.corpus.as_deref(),
    );
}

/// The CSV view: one row per game, written block by block as the games finish.
struct CsvRows {
    seats: usize,
}

impl CsvRows {
    /// Writes the header (the event columns are those of the game's family) and returns the
    /// writer.
    fn header(out: &mut Out, bound: &[Bound]) -> Self {
        let kinds: Vec<&str> = bound
            .first()
            .map(|b| b.engine.visit(KindNames))
            .unwrap_or_default();
        let mut header = vec![
            "game",
            "interpretation",
            "index",
            "result",
            "winner",
            "end",
            "plies",
            "turns",
            "passes",
            "score1",
            "score2",
        ];
        header.extend(kinds);
        // Added after the event columns, so that every column kept its place.
        header.push("first_mover");
        // A reading's flagged places differ from another's, so each is one column of
        // `place=count` pairs (`;`-separated) rather than a column per place.
        header.push("uncovered");
        header.push("borrowed");
        // Who played each seat in the game, `;`-separated by seat.
        header.push("agents");
        out.line(&header.join(","));
        let seats = bound
            .iter()
            .map(|b| b.engine.visit(Seats))
            .max()
            .unwrap_or(2);
        CsvRows { seats }
    }

    fn rows(
        &mut self,
        out: &mut Out,
        game: &str,
        interp: &str,
        places: &[String],
        lineup: &Lineup,
        records: &[GameRecord],
    ) {
        for rec in records {
            let (result, winner, end, scores) = match rec.end {
                GameEnd::Timeout(why) => ("timeout", String::new(), why.name(), [0, 0]),
                GameEnd::Over(o) => {
                    let winners: Vec<String> = (0..self.seats)
                        .filter(|&s| o.won(s))
                        .map(|s| (s + 1).to_string())
                        .collect();
                    let result = if winners.is_empty() { "draw" } else { "win" };
                    (result, winners.join(" "), o.end.name(), o.scores)
                }
            };
            let mut row = vec![
                game.to_owned(),
                interp.to_owned(),
                rec.index.to_string(),
                result.to_owned(),
                winner,
                end.to_owned(),
                rec.plies.to_string(),
                rec.turns.to_string(),
                rec.passes.to_string(),
                scores[0].to_string(),
                scores[1].to_string(),
            ];
            row.extend(rec.events.iter().map(u32::to_string));
            row.push(
                rec.first_mover
                    .map(|s| (s + 1).to_string())
                    .unwrap_or_default(),
            );
            for prefix in ["uncovered:", "borrowed:"] {
                let pairs: Vec<String> = places
                    .iter()
                    .zip(&rec.flags)
                    .filter(|(_, n)| **n > 0)
                    .filter_map(|(p, n)| p.strip_prefix(prefix).map(|p| format!("{p}={n}")))
                    .collect();
                row.push(pairs.join(";"));
            }
            let agents: Vec<String> = (0..self.seats)
                .map(|seat| lineup.agent(rec.index, seat).to_string())
                .collect();
            row.push(agents.join(";"));
            out.line(&row.join(","));
        }
    }
}

/// The flagged places of a bound reading (`uncovered:<place>`, `borrowed:<place>`), in the
/// order of its [`Coverage`]: the names of a [`GameRecord`]'s `flags`.
struct FlagPlaces<'a> {
    bound: &'a Bound,
}

impl EngineVisitor for FlagPlaces<'_> {
    type Output = Vec<String>;
    fn visit<F: GameFamily>(self, _: &F::Rules) -> Self::Output {
        Coverage::new::<F::Rules>(|p| self.bound.flag(p)).places
    }
}

/// An engine's event kind names.
struct KindNames;

impl EngineVisitor for KindNames {
    type Output = Vec<&'static str>;
    fn visit<F: GameFamily>(self, _: &F::Rules) -> Self::Output {
        kind_names::<F::Rules>().collect()
    }
}

/// An engine's number of seats.
struct Seats;

impl EngineVisitor for Seats {
    type Output = usize;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
        rules.seats()
    }
}
