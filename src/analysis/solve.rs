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
use crate::games::{Rules, Status};
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
        let starts: Vec<(Option<u32>, _)> = match rules.status(&start) {
            Status::Chance => (0..rules.chance_outcomes(&start).len())
                .map(|k| {
                    let mut s = start.clone();
                    rules.apply_chance(&mut s, k, &mut crate::games::NoEvents);
                    (Some(k as u32 + 1), s)
                })
                .collect(),
            _ => vec![(None, start)],
        };
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
