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

pub use crate::solve::DEFAULT_MAX_STATES;

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
    /// The agents to rate against perfect play (`--rate`), where asked.
    pub rate: Option<Vec<crate::agents::Agent>>,
    /// Positions to rate them on (`--positions`).
    pub positions: usize,
    /// The seed of the games the positions are taken from and of the agents' choices.
    pub seed: u64,
    /// Worker threads for the rating (`None`: one per core); results do not depend on it.
    pub threads: Option<usize>,
    /// BLAKE3 of the corpus files.
    pub corpus_hash: String,
}

/// The agents `--rate` rates unless given: random play, greedy, MCTS at three budgets, the
/// alpha-beta levels, and perfect play itself (which keeps the value everywhere, a check).
pub const DEFAULT_RATED: &str = "random,greedy,mcts:30,mcts:300,mcts:3000,weak,fair,strong,perfect";

/// Positions `--rate` rates on unless told otherwise.
pub const DEFAULT_POSITIONS: usize = 1000;

/// The most plies taken from one game of random play for the rating's positions: a game
/// that goes round for ever gives its first positions, and the next game more.
pub const RATE_PLIES: u32 = 400;

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
    /// The agents rated against perfect play (`--rate`), where asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

/// The agents rated against perfect play: at positions met in games of random play, the
/// share of each agent's choices that keep the position's solved value (a won position stays
/// won, one neither seat can win is not lost).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Rating {
    /// Where the positions come from, in words.
    pub positions_from: String,
    /// Distinct decisions rated (positions with two moves or more), in the order met.
    pub positions: u64,
    /// Of them, the positions where some move keeps the value and some move does not: the
    /// only ones where a choice can be wrong.
    pub decisive: u64,
    /// The seed of the games and of the agents' choices.
    pub seed: u64,
    /// Each agent, in the order given.
    pub agents: Vec<AgentRating>,
}

/// One agent against perfect play.
#[derive(Debug, Serialize, JsonSchema)]
pub struct AgentRating {
    /// The agent, as `--agents` names it.
    pub agent: String,
    /// Positions where its choice kept the value.
    pub kept: u64,
    /// The share of all positions rated where it kept the value, with its 95 % Wilson
    /// interval.
    pub share: crate::stats::Rate,
    /// Decisive positions where its choice kept the value.
    pub decisive_kept: u64,
    /// The share of the decisive positions, with its 95 % Wilson interval: the headline.
    pub decisive_share: crate::stats::Rate,
    /// The share a uniformly random choice keeps on average over the decisive positions
    /// (the mean share of value-keeping moves): what the agent is to be measured above.
    pub decisive_chance: f64,
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
    /// For `endless`: the shortest cycle of value-keeping moves through a position of the
    /// principal variation, move by move back to where it starts (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cycle: Vec<PvMove>,
    /// The ply of the principal variation after which the cycle starts (0: at the position
    /// solved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle_after_ply: Option<u32>,
    /// Where the reading has a cap: whether best play ends within it (`false` for an endless
    /// value: under the cap, the game is a draw by cap).
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
    /// The rules it set off, as `explain` names them (`clause:<id>`, `option:<point>=<option>`,
    /// …): those of the events it caused (a lap, a capture, a pass), not those every move
    /// applies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

/// Solves a reading's start, or a position.
///
/// # Errors
/// An unknown game or reading, a bad override or position, and every refusal of
/// [`SolveError`] (chance, too many positions) or of
/// [`crate::games::Rules::position_decides`], as a usage error naming the reason.
pub fn solve(corpus: &Corpus, args: &SolveArgs) -> Result<SolveOutput, Error> {
    attempt(corpus, args)?.map_err(|n| Error::Usage(n.to_string()))
}

/// Why a reading is not solved: what `solve` refuses, as data a report can compose.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{game} / {reading} is not solved: {why}")]
pub struct NotSolved {
    /// Game id.
    pub game: String,
    /// The reading.
    pub reading: String,
    /// The reason, in words, with what to do about it where something can be done.
    pub why: String,
}

impl NotSolved {
    /// The reason without the advice on what to try (a report's table gives it once).
    pub fn reason(&self) -> &str {
        self.why.strip_suffix(TOO_LARGE_HINT).unwrap_or(&self.why)
    }
}

/// [`solve`], with a refusal apart from the errors of the command's arguments.
///
/// # Errors
/// An unknown game or reading, a bad override; a bad position or `--positions`, or no
/// worker threads.
pub fn attempt(corpus: &Corpus, args: &SolveArgs) -> Result<Result<SolveOutput, NotSolved>, Error> {
    let game = game_of(corpus, &args.game)?;
    let interp = interpretation_of(game, &args.interpretation)?;
    let overrides = bind::parse_overrides(&args.set)?;
    let bound = bind::bind(game, interp, &overrides)?;
    let refuse = |why: String| NotSolved {
        game: game.id.clone(),
        reading: interp.id.clone(),
        why,
    };
    let solved = bound
        .engine
        .visit(Solver {
            position: args.position.as_deref(),
            max_states: args.max_states,
            book: &mut crate::analysis::explain::rules::RuleBook::new(corpus, game, interp, &bound),
        })
        .map_err(refuse);
    let (starts, cap) = match solved {
        Ok(s) => s,
        // A position that does not read is the user's mistake, not a refusal.
        Err(n) if n.why.starts_with("--position") => return Err(Error::Usage(n.to_string())),
        Err(n) => return Ok(Err(n)),
    };
    let rating = match &args.rate {
        None => None,
        Some(agents) => {
            if args.positions == 0 {
                return Err(Error::Usage(
                    "--positions must be 1 or more (the positions the agents are rated on)"
                        .to_owned(),
                ));
            }
            let pool = crate::analysis::play::pool(args.threads)?;
            Some(
                bound
                    .engine
                    .visit(Rater {
                        values: &bound.values,
                        position: args.position.as_deref(),
                        agents,
                        positions: args.positions,
                        seed: args.seed,
                        key: crate::rng::reading_key(&game.id, &interp.id),
                        pool: &pool,
                        max_states: args.max_states,
                    })
                    .map_err(refuse),
            )
        }
    };
    let rating = match rating {
        None => None,
        Some(Ok(r)) => Some(r),
        Some(Err(n)) => return Ok(Err(n)),
    };
    Ok(Ok(SolveOutput {
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
        rating,
    }))
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
    if let Some(agents) = &args.rate {
        let list: Vec<String> = agents.iter().map(ToString::to_string).collect();
        c.push_str(&format!(" --rate {}", list.join(",")));
        if args.positions != DEFAULT_POSITIONS {
            c.push_str(&format!(" --positions {}", args.positions));
        }
        if args.seed != 1 {
            c.push_str(&format!(" --seed {}", args.seed));
        }
    }
    c
}

/// Rates agents against perfect play, for any family's engine.
struct Rater<'a> {
    values: &'a serde_json::Map<String, serde_json::Value>,
    position: Option<&'a str>,
    agents: &'a [crate::agents::Agent],
    positions: usize,
    seed: u64,
    key: u64,
    pool: &'a rayon::ThreadPool,
    max_states: usize,
}

impl EngineVisitor for Rater<'_> {
    type Output = Result<Rating, String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
        use rayon::prelude::*;
        let from = match self.position {
            Some(text) => Some(rules.parse_position(text).map_err(|e| e.to_string())?),
            None => None,
        };
        let table = if self.max_states == DEFAULT_MAX_STATES {
            crate::analysis::perfect::table_for(rules, self.values, from.as_ref())?
        } else {
            rules.position_decides()?;
            let start = from.clone().unwrap_or_else(|| rules.initial());
            std::sync::Arc::new(
                crate::solve::Table::from(rules, &start, self.max_states)
                    .map_err(|e| e.to_string())?,
            )
        };
        // The positions: every decision of two moves or more the table holds with a value to
        // keep, in the order met in games of random play (the run's games 0, 1, …), each
        // once.
        let mut seen = std::collections::HashSet::new();
        let mut picked: Vec<(<F::Rules as Rules>::State, Vec<bool>)> = Vec::new();
        let mut games = 0u64;
        // Each game gives at least one new position or the search is over: a reading whose
        // random games all repeat what is met stops short of the positions asked.
        let mut idle = 0;
        while picked.len() < self.positions && idle < 50 {
            let before = picked.len();
            crate::sim::trace_with(
                rules,
                None,
                from.clone(),
                self.seed,
                self.key,
                games,
                RATE_PLIES,
                |step| {
                    if picked.len() >= self.positions
                        || !matches!(rules.status(step.state), crate::games::Status::ToMove(_))
                    {
                        return;
                    }
                    let k = crate::solve::key(rules, step.state);
                    if seen.contains(&k) {
                        return;
                    }
                    seen.insert(k);
                    if let Some(keeping) = table.keeping(rules, step.state)
                        && keeping.len() > 1
                        && table.value(rules, step.state) != Some(Value::Unfinished)
                    {
                        picked.push((step.state.clone(), keeping));
                    }
                },
            );
            games += 1;
            idle = if picked.len() == before { idle + 1 } else { 0 };
        }
        let decisive: Vec<bool> = picked
            .iter()
            .map(|(_, k)| k.iter().any(|&x| x) && !k.iter().all(|&x| x))
            .collect();
        let n_decisive = decisive.iter().filter(|&&d| d).count() as u64;
        let chance = if n_decisive == 0 {
            0.0
        } else {
            picked
                .iter()
                .zip(&decisive)
                .filter(|(_, d)| **d)
                .map(|((_, k), _)| k.iter().filter(|&&x| x).count() as f64 / k.len() as f64)
                .sum::<f64>()
                / n_decisive as f64
        };
        let mut agents = Vec::new();
        for agent in self.agents {
            // Each position's choice from its own generator, named by the agent and the
            // position's place: the same whatever the threads, and whatever else is rated.
            let stream =
                crate::rng::reading_key(&format!("rate {agent}"), "") ^ self.key.rotate_left(17);
            // A state need not be shared between threads (`Sync`), only sent: the workers
            // take a copy of the positions.
            let owned = picked.clone();
            let (seed, table) = (self.seed, &table);
            let kept: Vec<bool> = self.pool.install(move || {
                owned
                    .into_par_iter()
                    .enumerate()
                    .map(|(i, (state, keeping))| {
                        let mut legal = Vec::new();
                        rules.legal_moves(&state, &mut legal);
                        let mut rng = crate::rng::game_rng(seed, stream, i as u64);
                        let d = crate::agents::decide_with(
                            agent,
                            Some(table),
                            rules,
                            &state,
                            &legal,
                            &mut rng,
                        );
                        keeping[d.index]
                    })
                    .collect()
            });
            let all = kept.iter().filter(|&&k| k).count() as u64;
            let dec = kept
                .iter()
                .zip(&decisive)
                .filter(|(k, d)| **k && **d)
                .count() as u64;
            agents.push(AgentRating {
                agent: agent.to_string(),
                kept: all,
                share: crate::analysis::play::rate_of(all, picked.len() as u64),
                decisive_kept: dec,
                decisive_share: crate::analysis::play::rate_of(dec, n_decisive),
                decisive_chance: crate::stats::round(chance, 4),
            });
        }
        Ok(Rating {
            positions_from: format!(
                "the decisions met in {games} games of random play (the first {RATE_PLIES} \
                 plies of each, seed {}), each position once",
                self.seed
            ),
            positions: picked.len() as u64,
            decisive: n_decisive,
            seed: self.seed,
            agents,
        })
    }
}

/// Solves each start of any family's engine.
struct Solver<'a> {
    position: Option<&'a str>,
    max_states: usize,
    /// The reading's rules, which name the clauses each move of a principal variation
    /// applies.
    book: &'a mut crate::analysis::explain::rules::RuleBook<'a>,
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
            let g = Graph::build_estimating(
                rules,
                std::slice::from_ref(&s),
                self.max_states,
                |listed| Some(estimate(rules, &s, listed)),
            )
            .map_err(|e| match e {
                SolveError::Chance { .. } => format!(
                    "{e}; this reading's sticks decide every move, so its value is a chance's, \
                     not a position's"
                ),
                e @ SolveError::TooLarge { .. } => format!("{e}{TOO_LARGE_HINT}"),
                e => e.to_string(),
            })?;
            let solution = g.solve();
            let value = solution.value(0);
            let pv = solution
                .principal_variation(rules, &g, 0, 400)
                .map_err(|e| e.to_string())?;
            let line: Vec<u32> = pv.iter().map(|(_, at)| *at).collect();
            let mut fired = Vec::new();
            for (from, to) in std::iter::once(0).chain(line.iter().copied()).zip(&line) {
                fired.push(applied(rules, &mut *self.book, &g, (from, *to))?);
            }
            let (cycle, cycle_after_ply) = match solution.shortest_cycle(&g, 0, &line) {
                None => (Vec::new(), None),
                Some((place, positions)) => {
                    let mut moves = Vec::new();
                    let mut legal = Vec::new();
                    for (k, w) in positions.windows(2).enumerate() {
                        let state = rules
                            .parse_position(g.key(w[0]))
                            .map_err(|e| e.to_string())?;
                        rules.legal_moves(&state, &mut legal);
                        let Some(m) = g.move_between(w[0], w[1]) else {
                            return Err("a cycle's move is not in the graph".to_owned());
                        };
                        moves.push(PvMove {
                            ply: k as u32 + 1,
                            mv: rules.move_text(legal[m]),
                            position: g.key(w[1]).to_owned(),
                            rules: applied(rules, &mut *self.book, &g, (w[0], w[1]))?,
                        });
                    }
                    (moves, Some(place as u32))
                }
            };
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
                        rules: fired.get(i).cloned().unwrap_or_default(),
                    })
                    .collect(),
                // Play that need not end never ends within a cap: under it, a draw by cap.
                cycle,
                cycle_after_ply,
                within_cap: match (value, limit.is_on()) {
                    (_, false) => None,
                    (Value::Endless, true) => Some(false),
                    (_, true) => plies.map(|p| limit.room(&crate::games::core::Clock::new()) >= p),
                },
            });
        }
        Ok((out, cap))
    }
}

/// Positions met in random play from `start`, and how many of them `listed` holds: what a
/// listing stopped short guesses the whole from. One position a game, at a ply spread over
/// the first [`RATE_PLIES`] by the game's index (the last, where the game ends sooner), so
/// that the positions near the start, which every game passes, are not met over and over.
fn estimate<R: Rules>(
    rules: &R,
    start: &R::State,
    listed: &dyn Fn(&str) -> bool,
) -> crate::solve::Estimate {
    let mut seen = std::collections::HashSet::new();
    let mut hits = 0u64;
    let key = crate::rng::reading_key("solve estimate", "");
    for game in 0..ESTIMATE_GAMES {
        let at = 1 + crate::rng::splitmix64(game) % u64::from(RATE_PLIES);
        let mut ply = 0u64;
        let mut last = None;
        crate::sim::trace_with(
            rules,
            None,
            Some(start.clone()),
            1,
            key,
            game,
            at as u32,
            |step| {
                ply += 1;
                if ply <= at {
                    last = Some(crate::solve::key(rules, step.state));
                }
            },
        );
        if let Some(k) = last
            && !seen.contains(&k)
        {
            hits += u64::from(listed(&k));
            seen.insert(k);
        }
    }
    crate::solve::Estimate {
        met: seen.len() as u64,
        listed: hits,
    }
}

/// What to do about a listing stopped short.
const TOO_LARGE_HINT: &str = "; raise --max-states or solve a smaller setting (--set) or a \
                              later position (--position)";

/// The games [`estimate`] plays, one position from each.
const ESTIMATE_GAMES: u64 = 2_000;

/// The rules the move from position `from` to position `to` sets off, as `explain` names
/// them: each event's (and the clauses of the rules they belong to), each once.
fn applied<R: Rules>(
    rules: &R,
    book: &mut crate::analysis::explain::rules::RuleBook<'_>,
    g: &Graph,
    (from, to): (u32, u32),
) -> Result<Vec<String>, String> {
    use crate::games::{Event, EventKind};
    let mut state = rules
        .parse_position(g.key(from))
        .map_err(|e| e.to_string())?;
    let mut legal = Vec::new();
    rules.legal_moves(&state, &mut legal);
    let k = g
        .move_between(from, to)
        .ok_or_else(|| "a move of the line is not in the graph".to_owned())?;
    let mv = legal[k];
    let mut events: Vec<R::Event> = Vec::new();
    rules.apply(&mut state, mv, &mut events);
    // The move's own rules (its direction, the house it may start from) are those of every
    // move: what the line shows is what the move set off.
    let mut ids: Vec<String> = Vec::new();
    for e in events {
        let kind = e.kind();
        for id in book.apply(kind.params(), kind.context()).0 {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    Ok(ids)
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
