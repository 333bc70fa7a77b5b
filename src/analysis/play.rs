//! `ludotrace run`: seeded random play of one reading or all of a game's readings.
//!
//! The result (JSON schema_version 1) is a pure function of the corpus content,
//! the game, the reading, the overrides, the agents, the seed, the number of games, the ply
//! limit and the ludotrace version; the table view prints the command that reproduces it.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use indicatif::ProgressBar;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::agents::Lineup;
use crate::analysis::Error;
use crate::analysis::header::{Header, Played};
use crate::analysis::reproduce::Reproduce;
use crate::bind::{self, Bound};
use crate::corpus::{Choice, ChoiceOption, CorpusFiles, Game, Interpretation};
use crate::exec::{Exec, Task};
use crate::family::Cap;
use crate::games::{Event, EventKind, Rules};
use crate::registry::{EngineVisitor, GameFamily};
use crate::rng;
use crate::sim::{self, AgentTally, Coverage, GameRecord, RunSpec, Tally};
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
    /// Plies with no change in any seat's material after which a game of a reading without
    /// an engine cap is stopped, censored (`0`: never).
    pub max_quiet: u32,
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
    /// What was played, with which corpus and seed, by whom (the fields every played
    /// output opens with).
    #[serde(flatten)]
    pub header: Header,
    /// Interpretation id.
    pub interpretation: String,
    /// `--set` overrides, parameter → value (the parameters of options switched in with
    /// `--choose` or `--each-option` included).
    pub overrides: BTreeMap<String, Value>,
    /// Options switched into the reading (`--choose`, `--each-option`), choice → option.
    /// Absent when none was.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub choose: IndexMap<String, String>,
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
    /// Where the reading does not finish under the run's players (fewer than 95 % of its
    /// games ended): how its other games stopped, and the open points and clauses that
    /// decide whether such a game can end. Absent when it finishes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finishing: Option<crate::analysis::finish::Finishing>,
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
    /// The timeouts by reason: `ply-limit` (the run's `--max-plies`), `search-limit` (an
    /// engine's own search, a relay or idle stages, still going at its bound with no cycle
    /// found), `cycle` (a relay or replay proved to go round for ever), `endless` (no end of
    /// the game can be reached any more under the reading's rules). Only reasons that
    /// occurred are listed.
    pub timeouts_by_reason: IndexMap<String, u64>,
    /// Games that reached an engine cap, whatever they scored.
    pub capped: u64,
    /// Games stopped by a limit (the `ply-limit`, `quiet-limit` and `search-limit` timeouts): *censored*,
    /// neither won, drawn nor lost; their outcome is unknown and their length is more than
    /// where they stopped. A limit belongs to the experiment, not to the reading.
    pub censored: u64,
    /// Games the rules proved can never end (the `cycle` and `endless` timeouts): an outcome
    /// of the reading itself.
    pub endless: u64,
    /// Of the games a limit of the run stopped (`ply-limit`, `quiet-limit`), those in which
    /// no seat's material (counters taken, pieces kept, distance run) had changed for at
    /// least the last half of their plies: play going on with nothing taken.
    pub stalled: u64,
    /// `p1`, `p2` (… one per seat), `draw`, `timeout`: each a rate with its Wilson 95 %
    /// interval.
    pub rates: IndexMap<String, Rate>,
    /// The same outcomes among the games that finished (neither censored nor endless), with
    /// the bounds each rate would reach if every censored game had gone that way or every
    /// one the other way.
    pub finished_rates: FinishedRates,
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

/// Outcomes among the finished games.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FinishedRates {
    /// Games that finished: won, drawn or scored at an engine cap.
    pub games: u64,
    /// `games` as a share of all games, with its Wilson 95 % interval: a reading
    /// *finishes* under a lineup when at least
    /// [`FINISHES`](crate::analysis::finish::FINISHES) of its games end.
    pub share: Rate,
    /// `p1`, `p2` (… one per seat), `draw`: each a share of the finished games with its
    /// Wilson 95 % interval and its bounds over the censored games.
    pub rates: IndexMap<String, FinishedRate>,
}

/// A rate among finished games.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FinishedRate {
    /// The share of the finished games.
    pub value: f64,
    /// Lower bound of its Wilson 95 % interval.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// `[least, most]`: the share among finished and censored games together, had no
    /// censored game gone this way, or every one: how far the unknown outcomes could move it.
    /// Equal to `value` twice when no game was censored.
    pub if_censored: [f64; 2],
}

/// The outcomes among finished games, and their bounds over the censored ones.
pub(crate) fn finished_rates(t: &crate::sim::Tally) -> FinishedRates {
    let n = t.finished();
    let c = t.censored();
    let one = |k: u64| {
        let r = rate_of(k, n);
        let all = (n + c) as f64;
        let if_censored = if all == 0.0 {
            [0.0, 1.0]
        } else {
            [round(k as f64 / all, 4), round((k + c) as f64 / all, 4)]
        };
        FinishedRate {
            value: r.value,
            lo: r.lo,
            hi: r.hi,
            if_censored,
        }
    };
    let mut rates = IndexMap::new();
    for (seat, &wins) in t.wins.iter().enumerate() {
        rates.insert(format!("p{}", seat + 1), one(wins));
    }
    rates.insert("draw".to_owned(), one(t.draws));
    FinishedRates {
        games: n,
        share: rate_of(n, t.games),
        rates,
    }
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
pub(crate) fn rate_of(k: u64, n: u64) -> Rate {
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
pub(crate) fn games_played(games: u64, lineup: &Lineup, each: &str) -> String {
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
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Refused {
    /// Choice → option.
    pub choose: IndexMap<String, String>,
    /// The engine's reason.
    pub reason: String,
}

/// One row of a run: a reading, the options switched into it, and its overrides.
#[derive(Debug)]
pub struct Variant<'a> {
    /// The reading.
    pub interp: &'a Interpretation,
    /// The options switched into it.
    pub choose: Vec<(&'a Choice, &'a ChoiceOption)>,
    /// Its overrides (`--set` and the options' parameters).
    pub overrides: Map<String, Value>,
}

impl Variant<'_> {
    /// The options switched in, choice → option.
    pub fn choose_map(&self) -> IndexMap<String, String> {
        self.choose
            .iter()
            .map(|(c, o)| (c.id.clone(), o.id.clone()))
            .collect()
    }

    /// The row's name: `READING as it stands`, or the options switched in.
    pub fn label(&self) -> String {
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

    /// What the progress bar says it is playing, row `k` of `rows`: `2 of 6: dlp`, or the
    /// reading with the options switched in (`3 of 9: davies with capture=any`).
    pub fn progress_label(&self, k: usize, rows: usize) -> String {
        let what = if self.choose.is_empty() {
            self.interp.id.clone()
        } else {
            format!("{} with {}", self.interp.id, self.label())
        };
        if rows == 1 {
            what
        } else {
            format!("{} of {rows}: {what}", k + 1)
        }
    }

    pub(crate) fn bind(&self, game: &Game) -> Result<Bound, bind::BindError> {
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

/// A note for each `CHOICE=OPTION` switch that names an option by a former id, merged
/// into another option that sets the same parameters: the switch takes the merged option.
pub fn alias_notes(game: &Game, items: &[String]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| {
            let (c, o) = item.split_once('=')?;
            let choice = game.choice(c.trim())?;
            let into = choice.merged_into(o.trim())?;
            Some(format!(
                "--choose {item}: `{}` is now part of `{}` (the two set the same parameters), which is played",
                o.trim(),
                into.id
            ))
        })
        .collect()
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
        let found = choice.options.iter().find(|x| x.id == o);
        // A former id of a merged option still switches it in (`alias_notes` says so).
        let Some(option) = found.or_else(|| choice.merged_into(o)) else {
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
pub(crate) fn merge_options(
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
pub fn run<'c>(
    exec: &Exec,
    corpus: &'c crate::corpus::Corpus,
    files: &CorpusFiles,
    args: &RunArgs,
    bar: &ProgressBar,
    mut rows: Option<&mut dyn GameRows>,
) -> Result<Run<'c>, Error> {
    check_numbers(args.games, args.max_plies, args.threads)?;
    check_quiet(args.max_quiet)?;
    check_rotation(args.games, &args.lineup, sim::MAX_GAMES)?;
    let game = crate::analysis::game_of(corpus, &args.game)?;
    let readings: Vec<&Interpretation> = if args.all {
        game.interpretations.iter().collect()
    } else {
        match &args.interpretation {
            Some(id) => vec![crate::analysis::interpretation_of(game, id)?],
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
    for (v, b) in variants.iter().zip(&bound) {
        check_seated(&args.lineup, b)?;
        crate::analysis::perfect::check_perfect(&args.lineup, b, &v.interp.id, None)?;
    }
    let pool = pool(args.threads)?;
    bar.inc_length(args.games * variants.len() as u64);
    let hash = corpus_hash(files);
    let keep_records = rows.is_some();
    if let Some(rows) = rows.as_deref_mut() {
        rows.begin(&bound);
    }
    let mut played = Vec::new();
    let count = variants.len();
    for (k, (v, b)) in variants.into_iter().zip(bound).enumerate() {
        let interp = v.interp;
        bar.set_prefix(v.progress_label(k, count));
        let spec = RunSpec {
            games: args.games,
            seed: args.seed,
            key: rng::reading_key(&game.id, &interp.id),
            max_plies: args.max_plies,
            max_quiet: args.max_quiet,
            keep_records,
            metrics: false,
        };
        // Rows go out block by block as the games finish: memory does not grow with the
        // number of games.
        let mut written = Ok(());
        let mut sink = |records: &[GameRecord]| {
            if let Some(rows) = rows.as_deref_mut()
                && written.is_ok()
            {
                written = rows.games(&game.id, &interp.id, &b, &args.lineup, records);
            }
        };
        let task = Task {
            game: &game.id,
            reading: &interp.id,
            bound: &b,
            spec: &spec,
            lineup: &args.lineup,
        };
        let tally = play_records(exec, &task, 0..args.games, &pool, bar, &mut sink);
        written?;
        let mut o = output(game, interp, &b, &tally, args, &hash);
        o.choose = v.choose_map();
        played.push(RunRow {
            variant: v,
            bound: b,
            output: o,
            tally,
        });
    }
    bar.finish_and_clear();
    Ok(Run {
        game,
        rows: played,
        refused,
        hash,
    })
}

/// What `run` played: a row per reading (or per option switched in), each with its result
/// and its tally, and the options the engine refused.
#[derive(Debug)]
pub struct Run<'c> {
    /// The game.
    pub game: &'c Game,
    /// The rows, in the order played.
    pub rows: Vec<RunRow<'c>>,
    /// Under `--each-option`, the options the engine cannot play, with its reason.
    pub refused: Vec<Refused>,
    /// BLAKE3 of the corpus files.
    pub hash: String,
}

/// One row of a run: what it played, its result (what `--format json` prints of it) and its
/// tally (the games' lengths in full, their ends).
#[derive(Debug)]
pub struct RunRow<'c> {
    /// The reading and the options switched into it.
    pub variant: Variant<'c>,
    /// The reading bound to its engine.
    pub bound: Bound,
    /// The row's result.
    pub output: RunOutput,
    /// Its games' integer sums and histograms.
    pub tally: Tally,
}

/// Where `run --format csv` writes a row per game, block by block as the games finish (the
/// analysis keeps no record of its own, so memory does not grow with the games).
pub trait GameRows: Send {
    /// Before any game: every row's reading, bound.
    fn begin(&mut self, bound: &[Bound]);
    /// One block of a row's games.
    ///
    /// # Errors
    /// Output failed.
    fn games(
        &mut self,
        game: &str,
        reading: &str,
        bound: &Bound,
        lineup: &Lineup,
        records: &[GameRecord],
    ) -> std::io::Result<()>;
}

/// Refuses a `--max-quiet` out of bounds, naming them: none (`0`), or from the plies between
/// two looks at the material ([`sim::QUIET_CHECK`]) to the largest ply limit.
pub(crate) fn check_quiet(max_quiet: u32) -> Result<(), Error> {
    if max_quiet != 0 && !(sim::QUIET_CHECK..=MAX_PLIES).contains(&max_quiet) {
        return Err(Error::Usage(format!(
            "--max-quiet must be 0 (never stop a game for being quiet) or {} to {MAX_PLIES}, \
             not {max_quiet} (the material is looked at every {} plies)",
            sim::QUIET_CHECK,
            sim::QUIET_CHECK
        )));
    }
    Ok(())
}

/// Refuses the numbers a user typed for a command that plays games where they are out of
/// bounds, naming the bounds: the games of a run, the ply limit, the worker threads.
pub(crate) fn check_numbers(
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
pub(crate) fn check_rotation(games: u64, lineup: &Lineup, max: u64) -> Result<(), Error> {
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
pub(crate) fn check_seated(lineup: &Lineup, b: &Bound) -> Result<(), Error> {
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
pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    match threads {
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t).build(),
        None => rayon::ThreadPoolBuilder::new().build(),
    }
    .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))
}

/// Plays games `games` of one reading on `pool`, through `exec` (the store, a plan's units,
/// partial results): the one way a command plays a reading's games into a tally.
pub(crate) fn play_reading(
    exec: &Exec,
    task: &Task,
    games: std::ops::Range<u64>,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Tally {
    play_records(exec, task, games, pool, bar, &mut |_| {})
}

/// [`play_reading`], handing each block's records (with `spec.keep_records`) to `records`.
pub(crate) fn play_records(
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
    key: &'a crate::exec::store::Key,
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
        let lineup = crate::analysis::perfect::seated(self.lineup, rules, &self.bound.values, None);
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
            &lineup,
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
pub(crate) fn kind_names<R: Rules>() -> impl Iterator<Item = &'static str> {
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
        header: Header::new(
            Played {
                game: &game.id,
                corpus_hash: hash,
                seed: args.seed,
                games: n,
                max_plies: args.max_plies,
                max_quiet: args.max_quiet,
            },
            &args.lineup,
            t.wins.len(),
        ),
        interpretation: interp.id.clone(),
        finishing: Some(crate::analysis::finish::finishing(
            game,
            interp,
            &b.overrides,
            t,
        ))
        .filter(|f| !f.finishes),
        overrides: b
            .overrides
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        choose: IndexMap::new(),
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
            censored: t.censored(),
            endless: t.endless(),
            stalled: t.stalled,
            rates,
            finished_rates: finished_rates(t),
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
        plies: Summary {
            km: Some(t.km()),
            ..t.plies.summary()
        },
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
    let mut r = Reproduce::new("run", args.corpus.as_deref());
    r.word(game);
    match interp {
        Some(i) => r.option("-i", i),
        None => r.switch("--all-interpretations"),
    };
    r.option("-n", args.games)
        .option("--seed", args.seed)
        .limits(args.max_plies, args.max_quiet)
        .lineup(&args.lineup);
    for s in &args.set {
        r.option("--set", s);
    }
    for c in &args.choose {
        r.option("--choose", c);
    }
    if args.each_option {
        r.switch("--each-option");
    }
    r.line()
}

/// An engine's number of seats.
pub(crate) struct Seats;

impl EngineVisitor for Seats {
    type Output = usize;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> usize {
        rules.seats()
    }
}
