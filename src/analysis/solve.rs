//! `ludotrace solve GAME -i READING`: the exact value of a reading's start (or of a position
//! given in the notation), for each starter where the opening lot decides who begins, by
//! [`crate::solve`]: every reachable position listed and solved backwards from the ends.
//!
//! What is refused, with the reason: a reading whose play has chance after the start (the
//! stick games), one whose future depends on more than the position (a repetition rule, a
//! move limit: [`crate::games::Rules::position_decides`]), and one with more reachable
//! positions than `--max-states`. Where the reading carries an engine cap the value is the
//! uncapped game's, and the output says whether its optimal length fits within the cap.

use schemars::JsonSchema;
use serde::Serialize;

use crate::analysis::{Error, OUTPUT_SCHEMA_VERSION, game_of, interpretation_of};
use crate::bind;
use crate::corpus::Corpus;
use crate::games::Rules;
use crate::registry::{EngineVisitor, GameFamily};
use crate::solve::{Graph, SolveError, Value};

/// The most positions `solve` lists unless told otherwise.
pub const DEFAULT_MAX_STATES: usize = 5_000_000;

/// What the user asked `solve` for.
#[derive(Debug, Clone)]
pub struct SolveArgs {
    /// Game id.
    pub game: String,
    /// The reading.
    pub interpretation: String,
    /// `--set PARAM=VALUE` overrides.
    pub set: Vec<String>,
    /// A position to solve instead of the start, in the notation.
    pub position: Option<String>,
    /// The most positions to list.
    pub max_states: usize,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: String,
}

/// `solve --format json`: the value of a reading's start, or of a position.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SolveOutput {
    /// Always 1.
    pub schema_version: u32,
    /// The ludotrace version that produced it.
    pub ludotrace: String,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: String,
    /// Game id.
    pub game: String,
    /// The game's name.
    pub name: String,
    /// The reading.
    pub interpretation: String,
    /// The reading's title.
    pub title: String,
    /// The overrides (`--set`), as given.
    pub overrides: serde_json::Map<String, serde_json::Value>,
    /// The command that solves it again.
    pub command: String,
    /// The position solved, where one was given (`--position`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_position: Option<String>,
    /// Each start solved: one, or one per starter where the opening lot decides who begins.
    pub starts: Vec<Solved>,
    /// The reading's engine cap, in words, where it has one: the values are the uncapped
    /// game's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<String>,
}

/// One start, solved.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Solved {
    /// The seat that begins (from 1), where the lot decides it; none for a single start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starter: Option<u32>,
    /// The position, in the notation.
    pub position: String,
    /// `win`, `draw`, `endless` (neither seat can force a win or any end) or `unfinished`
    /// (the position is over without a result).
    pub value: String,
    /// The winner (from 1) for `win`; for `draw`, the seat that can force the drawn end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
    /// Decisions to the end under best play (`win`: the winner hastening, the loser
    /// delaying; `draw`: at most, by the seat that forces it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// The value in words.
    pub says: String,
    /// The score margin (seat 1's score less seat 2's: counters, or pieces eaten) under
    /// best play for the margin, where both seats can force it: seat 1 an end with at least
    /// this, seat 2 one with at most this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// Where the margin is not forced both ways: the most seat 1 can force the game to end
    /// with (none: it cannot force an end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_at_least: Option<i64>,
    /// Where the margin is not forced both ways: the least seat 2 can force the game to end
    /// with (none: it cannot force an end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub margin_at_most: Option<i64>,
    /// The margin in words.
    pub margin_says: String,
    /// Positions reachable from it (the clock aside).
    pub states: usize,
    /// Moves of best play from it, each with the position it leads to: the first
    /// value-keeping move in legal-move order; for `endless`, until a position recurs.
    pub principal_variation: Vec<PvMove>,
    /// Where the reading has a cap: whether the optimal length fits within it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_cap: Option<bool>,
}

/// One move of a principal variation.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PvMove {
    /// The decision's number from the position solved (1 the first).
    pub ply: u32,
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The position it leads to, in the notation (the clock aside).
    pub position: String,
}

/// Solves a reading's start, or a position.
///
/// # Errors
/// An unknown game or reading, a bad override or position, and every refusal of
/// [`SolveError`] (chance, too many positions) or of
/// [`crate::games::Rules::position_decides`], as a usage error naming the reason.
pub fn solve(corpus: &Corpus, args: &SolveArgs) -> Result<SolveOutput, Error> {
    let game = game_of(corpus, &args.game)?;
    let interp = interpretation_of(game, &args.interpretation)?;
    let overrides = bind::parse_overrides(&args.set)?;
    let bound = bind::bind(game, interp, &overrides)?;
    let refuse =
        |why: String| Error::Usage(format!("{} / {} is not solved: {why}", game.id, interp.id));
    let (starts, cap) = bound
        .engine
        .visit(Solver {
            position: args.position.as_deref(),
            max_states: args.max_states,
        })
        .map_err(refuse)?;
    Ok(SolveOutput {
        schema_version: OUTPUT_SCHEMA_VERSION,
        ludotrace: env!("CARGO_PKG_VERSION").to_owned(),
        corpus_hash: args.corpus_hash.clone(),
        game: game.id.clone(),
        name: game.name.clone(),
        interpretation: interp.id.clone(),
        title: interp.title.clone(),
        overrides: bound.overrides.clone(),
        command: command(args, &game.id, &interp.id),
        from_position: args.position.clone(),
        starts,
        cap,
    })
}

/// The command that solves it again.
fn command(args: &SolveArgs, game: &str, reading: &str) -> String {
    let mut c = format!("ludotrace solve {game} -i {reading}");
    for s in &args.set {
        c.push_str(&format!(" --set '{s}'"));
    }
    if let Some(p) = &args.position {
        let words: Vec<&str> = p.split_whitespace().collect();
        c.push_str(&format!(" --position '{}'", words.join(" ")));
    }
    if args.max_states != DEFAULT_MAX_STATES {
        c.push_str(&format!(" --max-states {}", args.max_states));
    }
    c
}

/// Solves each start of any family's engine.
struct Solver<'a> {
    position: Option<&'a str>,
    max_states: usize,
}

impl EngineVisitor for Solver<'_> {
    type Output = Result<(Vec<Solved>, Option<String>), String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
        rules.position_decides()?;
        let start = match self.position {
            Some(text) => rules
                .parse_position(text)
                .map_err(|e| format!("--position: {e} (see guide/explain.md for the notation)"))?,
            None => rules.initial(),
        };
        // The opening lot is the only chance a solvable game has: each starter is solved.
        let starts = crate::solve::starts(rules, &start);
        let limit = rules.limit();
        let cap = limit.is_on().then(|| cap_words(&limit));
        let mut out = Vec::new();
        for (starter, s) in starts {
            let g = Graph::build(rules, &s, self.max_states).map_err(|e| match e {
                SolveError::Chance { .. } => format!(
                    "{e}; this reading's sticks decide every move, so its value is a chance's, \
                     not a position's"
                ),
                e => e.to_string(),
            })?;
            let solution = g.solve();
            let value = solution.value(0);
            let pv = solution
                .principal_variation(rules, &g, 0, 400)
                .map_err(|e| e.to_string())?;
            let (margin, (at_least, at_most)) = match solution.margin(0) {
                Ok(m) => (Some(m), (None, None)),
                Err(bounds) => (None, bounds),
            };
            let (kind, seat, plies) = match value {
                Value::Win { seat, plies } => ("win", Some(seat as u32 + 1), Some(plies)),
                Value::Draw { seat, plies } => ("draw", Some(seat as u32 + 1), Some(plies)),
                Value::Endless => ("endless", None, None),
                Value::Unfinished => ("unfinished", None, None),
            };
            out.push(Solved {
                starter: starter.filter(|_| rules.seats() > 1),
                position: crate::solve::key(rules, &s),
                value: kind.to_owned(),
                seat,
                plies,
                says: says(value),
                margin,
                margin_at_least: at_least,
                margin_at_most: at_most,
                margin_says: margin_says(margin, at_least, at_most),
                states: g.len(),
                principal_variation: pv
                    .into_iter()
                    .enumerate()
                    .map(|(i, (mv, at))| PvMove {
                        ply: i as u32 + 1,
                        mv,
                        position: g.key(at).to_owned(),
                    })
                    .collect(),
                within_cap: plies
                    .filter(|_| limit.is_on())
                    .map(|p| limit.room(&crate::games::core::Clock::new()) >= p),
            });
        }
        Ok((out, cap))
    }
}

/// An engine cap in words.
fn cap_words(limit: &crate::games::core::Limit) -> String {
    let turns = limit
        .turns()
        .map_or(String::new(), |t| format!(" and {t} turns"));
    match limit.moves() {
        Some(moves) => format!(
            "the engine caps the game at {moves} decisions{turns}, a capped game a draw: the \
             values are the uncapped game's"
        ),
        None => "no cap".to_owned(),
    }
}

/// The margin in words.
fn margin_says(exact: Option<i64>, at_least: Option<i64>, at_most: Option<i64>) -> String {
    let signed = |m: i64| {
        if m > 0 {
            format!("+{m}")
        } else {
            m.to_string()
        }
    };
    match (exact, at_least, at_most) {
        (Some(m), _, _) => format!(
            "the score margin under best play for it is {} (seat 1's score less seat 2's)",
            signed(m)
        ),
        (None, None, None) => "neither seat can force the game to end, so no score margin is \
                               forced"
            .to_owned(),
        (None, a, b) => {
            let part = |who: &str, bound: Option<i64>, how: &str| match bound {
                Some(m) => format!(
                    "seat {who} can force an end with a margin of {how} {}",
                    signed(m)
                ),
                None => format!("seat {who} cannot force an end"),
            };
            format!(
                "{}; {} (seat 1's score less seat 2's); between them, play need not end",
                part("1", a, "at least"),
                part("2", b, "at most")
            )
        }
    }
}

/// A value in words.
fn says(v: Value) -> String {
    match v {
        Value::Win { seat, plies } => format!(
            "seat {} wins in {plies} plies with best play (the winner hastening, the loser \
             delaying)",
            seat + 1
        ),
        Value::Draw { seat, plies } => format!(
            "neither seat can force a win; seat {} can force a drawn end within {plies} plies",
            seat + 1
        ),
        Value::Endless => "neither seat can force a win, nor any end: a draw held by endless \
                           play (the reading has no rule that ends a game going round)"
            .to_owned(),
        Value::Unfinished => "the position is over without a result (the engine proved the \
                              game can never end)"
            .to_owned(),
    }
}

/// The readings solved for the `perfect` agent in this process, by engine, parameter values
/// and start: a table is a function of these alone, so a command that plays a reading in
/// several arms, rounds or games solves it once.
type Solved_ =
    std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<crate::solve::Table>>>;
static SOLVED: std::sync::LazyLock<Solved_> = std::sync::LazyLock::new(Default::default);

/// The reading of `rules` (bound with `values`) solved from `from` (or its start), for the
/// `perfect` agent: from this process's tables where it was solved before.
///
/// # Errors
/// Why the reading is not solved: [`crate::games::Rules::position_decides`]'s reason, or a
/// [`SolveError`] (chance after the start, more than [`DEFAULT_MAX_STATES`] positions).
pub(crate) fn table_for<R: Rules>(
    rules: &R,
    values: &serde_json::Map<String, serde_json::Value>,
    from: Option<&R::State>,
) -> Result<std::sync::Arc<crate::solve::Table>, String> {
    rules.position_decides()?;
    let start = from.cloned().unwrap_or_else(|| rules.initial());
    let id = format!(
        "{} {} {}",
        std::any::type_name::<R>(),
        serde_json::Value::Object(values.clone()),
        crate::solve::key(rules, &start)
    );
    if let Some(t) = SOLVED.lock().expect("solved tables").get(&id) {
        return Ok(t.clone());
    }
    let table = std::sync::Arc::new(
        crate::solve::Table::from(rules, &start, DEFAULT_MAX_STATES).map_err(|e| e.to_string())?,
    );
    SOLVED
        .lock()
        .expect("solved tables")
        .insert(id, table.clone());
    Ok(table)
}

/// `lineup` ready to play `rules`: with the reading solved where it seats `perfect`.
///
/// # Panics
/// If the reading cannot be solved: every command asks [`check_perfect`] first.
pub(crate) fn seated<'a, R: Rules>(
    lineup: &'a crate::agents::Lineup,
    rules: &R,
    values: &serde_json::Map<String, serde_json::Value>,
    from: Option<&R::State>,
) -> std::borrow::Cow<'a, crate::agents::Lineup> {
    if !lineup.names_perfect() {
        return std::borrow::Cow::Borrowed(lineup);
    }
    let table = table_for(rules, values, from)
        .expect("the command checked that the reading is solved (check_perfect)");
    std::borrow::Cow::Owned(lineup.with_table(table))
}

/// Refuses `perfect` where the reading (from `position`, where one is given and reads) is not
/// solved, with the reason; solves it otherwise, for the games to come.
///
/// # Errors
/// A usage error naming the reading and why `solve` cannot solve it.
pub(crate) fn check_perfect(
    lineup: &crate::agents::Lineup,
    bound: &bind::Bound,
    reading: &str,
    position: Option<&str>,
) -> Result<(), Error> {
    if !lineup.names_perfect() {
        return Ok(());
    }
    bound
        .engine
        .visit(CheckPerfect {
            values: &bound.values,
            position,
        })
        .map_err(|why| {
            Error::Usage(format!(
                "--agents perfect plays best play from the reading solved, and {reading} is \
                 not solved: {why}"
            ))
        })
}

/// Solves a reading for `perfect`, from a position where one is given.
struct CheckPerfect<'a> {
    values: &'a serde_json::Map<String, serde_json::Value>,
    position: Option<&'a str>,
}

impl EngineVisitor for CheckPerfect<'_> {
    type Output = Result<(), String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
        // A position that does not read is the command's to report, in its own words.
        let from = self.position.and_then(|p| rules.parse_position(p).ok());
        table_for(rules, self.values, from.as_ref()).map(|_| ())
    }
}
