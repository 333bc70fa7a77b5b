//! Skilled players: an [`Agent`] chooses a move for any engine through the [`Rules`] trait.
//!
//! Every search scores a position it does not search further on one evaluation a family,
//! [`Rules::evaluate`], as the seat's lead: its evaluation minus the best opponent's
//! ([`lead`]). The families' evaluations:
//!
//! - sowing: counters taken (the stores) plus points across boards (the material);
//! - custodial (Seega): pieces in play, each worth more than any mobility, plus mobility (the
//!   steps, and jumps where the reading has them, the seat's pieces could make now);
//! - stick race (Sijat El Taba): distance run (each released counter's place on its track)
//!   plus a track's length for each counter borne off or enemy counter eaten;
//! - spiral race (the hyena game): distance walked by the mother (out, at the well, back)
//!   and, for the seat that controls the hyena, its walk and the women it has eaten.
//!
//! The agents:
//!
//! - `random`: uniform among the listed legal moves, the very draw `ludotrace run` makes
//!   ([`rng::draw`]), so that a game of random agents is the run's game.
//! - `greedy`: one move ahead. Each legal move is played on a copy; when a chance step follows
//!   it (the next throw), the copy's standing is the expected value over that step's outcomes
//!   by their weights (computed exactly, not sampled). The standing is the mover's lead; the
//!   move with the most is played, ties broken uniformly by the generator.
//! - `mcts:N` (and `mcts:N:D`): UCT with `C = √2` and `N` iterations from the position
//!   ([`mcts`]). A chance step in the tree is sampled by its weights, each outcome a child of
//!   its own; rollouts play uniformly random moves to the end of the game or for at most
//!   [`ROLLOUT_PLIES`] decisions (with a depth `D`, at most `D`), a position left unfinished
//!   then scored on each seat's evaluation against the best opponent's:
//!   `0.5 + 0.45 × (own − best) / (|own| + |best|)`, graded and short of a win
//!   ([`CUT_SCALE`]). Results are backed up per seat (a win 1, a draw 0.5, a loss 0; in a
//!   game of several seats each seat its own); the most visited move is played (ties: the
//!   better mean for the mover, then the first listed).
//! - `ab:D` (and `ab:D:NODES`): alpha-beta to `D` decisions by iterative deepening, within
//!   a budget of `NODES` positions a decision where one is given ([`search`]): chance steps
//!   by their expectation, the other seats as one opponent, a table of best moves and move
//!   ordering; moves of equal value drawn by the generator.
//! - `ex:D` (and `ex:D:NODES`): expectimax, the same search without pruning.
//! - `weak`, `fair`, `strong`: named strength levels, each one of the agents above
//!   ([`Level::agent`]).
//! - `perfect`: the move of best play from the reading's solved table
//!   ([`crate::solve::Table::best_move`]): the first move in legal-move order that keeps the
//!   position's value. Only where `solve` solves the reading: the command that seats it solves
//!   the reading first ([`Lineup::with_table`]) and refuses it, with the reason, where it
//!   cannot.
//!
//! No agent asks whether the engine has a cap, or knows the run's ply limit: a search ends
//! at its own horizon or where the rules end the game.
//!
//! Every choice is drawn from the generator it is given, so a game is a function of that generator's state: `sim::play_game`, which
//! plays a game of agents, draws everything from [`rng::game_rng`].
//!
//! Architecture Invariant: as `sim`, this module knows engines only through the [`Rules`]
//! trait. It imports the engines' trait (`games`), the draws (`rng`) and portable maths
//! (`stats`), never `sim`: `sim` plays agents' games, so it imports this module.

pub mod mcts;
pub mod search;

use std::fmt;
use std::str::FromStr;

use rand::rngs::ChaCha8Rng;

use crate::games::{NoEvents, Rules, Seat, Status};
use crate::rng;
use crate::solve::Table;

/// The most MCTS iterations a decision may take.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// The most decisions of one rollout, and the most a rollout's depth may be.
pub const ROLLOUT_PLIES: u32 = 10_000;

/// How far from a draw's 0.5 a rollout cut at its depth may score on the evaluation: less
/// than 0.5, so that only a game won scores 1.
pub const CUT_SCALE: f64 = 0.45;

/// The deepest alpha-beta or expectimax search, in decisions.
pub const MAX_DEPTH: u32 = 40;

/// The largest node budget of one alpha-beta or expectimax decision.
pub const MAX_NODES: u32 = 100_000_000;

/// The valid forms of an agent spec, for messages.
pub const FORMS: &str = "random, greedy, mcts:N (N iterations, 1 to 1000000) or mcts:N:D \
                         (rollouts cut after D plies, 1 to 10000), ab:D or ab:D:NODES \
                         (alpha-beta, D plies deep, 1 to 40, within NODES positions a move, \
                         1 to 100000000), ex:D or ex:D:NODES (expectimax, the same ranges), \
                         or a level: weak (ab:2), fair (ab:6:2000), strong (ab:8:8000), or \
                         perfect (best play from the solved reading, where `solve` solves it)";

/// A named strength level: a fixed agent, the same in every family (alpha-beta, which
/// values chance steps by their expectation, so that in the dice families it is expectimax
/// with pruning between throws).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// `ab:2`: two plies, no budget.
    Weak,
    /// `ab:6:2000`.
    Fair,
    /// `ab:8:8000`: four times `fair`'s budget, two plies deeper (a skilled self-play game
    /// of Um el Banât, its longest, in a few seconds on one core; BENCHMARKS.md).
    Strong,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Weak, Level::Fair, Level::Strong];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Weak => "weak",
            Level::Fair => "fair",
            Level::Strong => "strong",
        }
    }

    /// The agent the level plays as.
    pub fn agent(self) -> Agent {
        match self {
            Level::Weak => Agent::AlphaBeta {
                depth: 2,
                nodes: None,
            },
            Level::Fair => Agent::AlphaBeta {
                depth: 6,
                nodes: Some(2_000),
            },
            Level::Strong => Agent::AlphaBeta {
                depth: 8,
                nodes: Some(8_000),
            },
        }
    }
}

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Uniform random play.
    Random,
    /// One move ahead by the evaluation.
    Greedy,
    /// UCT search.
    Mcts {
        /// Iterations per decision, `1..=MAX_ITERATIONS`.
        iterations: u32,
        /// Rollouts cut after this many decisions (then scored by the evaluation), or
        /// played out (to [`ROLLOUT_PLIES`]).
        depth: Option<u32>,
    },
    /// Alpha-beta by iterative deepening.
    AlphaBeta {
        /// Decisions deep, `1..=MAX_DEPTH`.
        depth: u32,
        /// Positions a decision may visit, `1..=MAX_NODES`, or no budget.
        nodes: Option<u32>,
    },
    /// Expectimax by iterative deepening (no pruning).
    Expectimax {
        /// Decisions deep, `1..=MAX_DEPTH`.
        depth: u32,
        /// Positions a decision may visit, `1..=MAX_NODES`, or no budget.
        nodes: Option<u32>,
    },
    /// A named strength level.
    Level(Level),
    /// Best play, from the reading's solved table.
    Perfect,
}

/// An agent spec that is none of the valid forms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("agent {spec:?}: {why}; the valid forms are {FORMS}")]
pub struct AgentError {
    /// The text given.
    pub spec: String,
    /// What is wrong with it.
    pub why: String,
}

/// The names an agent spec may start with, as a user would be told them.
const NAMES: [(&str, &str); 9] = [
    ("random", "random"),
    ("greedy", "greedy"),
    ("mcts", "mcts:N"),
    ("ab", "ab:DEPTH"),
    ("ex", "ex:DEPTH"),
    ("weak", "weak"),
    ("fair", "fair"),
    ("strong", "strong"),
    ("perfect", "perfect"),
];

/// Other names for the agents, which a user may try.
const ALIASES: [(&str, &str); 12] = [
    ("alphabeta", "ab:DEPTH"),
    ("alpha-beta", "ab:DEPTH"),
    ("minimax", "ab:DEPTH"),
    ("negamax", "ab:DEPTH"),
    ("expectimax", "ex:DEPTH"),
    ("expectiminimax", "ex:DEPTH"),
    ("uct", "mcts:N"),
    ("montecarlo", "mcts:N"),
    ("monte-carlo", "mcts:N"),
    ("best", "strong"),
    ("solved", "perfect"),
    ("optimal", "perfect"),
];

/// The number of single-character edits from `a` to `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The agent an unknown name most likely meant: an alias, or a name within two edits (one
/// for names of three letters or fewer), ignoring case.
pub fn suggest(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    if let Some((_, to)) = ALIASES.iter().chain(&NAMES).find(|(n, _)| *n == lower) {
        return Some(to);
    }
    NAMES
        .iter()
        .chain(&ALIASES)
        .map(|(n, to)| (edits(&lower, n), *to, n.len()))
        .filter(|&(d, _, len)| d <= if len <= 3 { 1 } else { 2 })
        .min_by_key(|&(d, _, _)| d)
        .map(|(_, to, _)| to)
}

impl FromStr for Agent {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<Self, AgentError> {
        let fail = |why: &str| AgentError {
            spec: text.to_owned(),
            why: why.to_owned(),
        };
        let number = |part: &str, what: &str, max: u32| -> Result<u32, AgentError> {
            let range = |shown: &str| fail(&format!("{what} must be 1 to {max}, not {shown}"));
            match part.parse::<u32>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                Ok(n) => Err(range(&n.to_string())),
                // Digits too many for a number at all, or a negative number: out of range.
                _ if !part.is_empty()
                    && part
                        .strip_prefix('-')
                        .unwrap_or(part)
                        .bytes()
                        .all(|b| b.is_ascii_digit())
                    && part != "-" =>
                {
                    Err(range(part))
                }
                Err(_) => Err(fail(&format!(
                    "{what} {part:?} is not a number (give 1 to {max})"
                ))),
            }
        };
        let text = text.trim();
        let mut parts = text.split(':');
        let head = parts.next().unwrap_or("");
        let args: Vec<&str> = parts.collect();
        let none = |agent: Agent| {
            if args.is_empty() {
                Ok(agent)
            } else {
                Err(fail(&format!("{head} takes no parameters")))
            }
        };
        let search = |name: &str| -> Result<(u32, Option<u32>), AgentError> {
            let Some(d) = args.first() else {
                return Err(fail(&format!("{name} needs its depth, {name}:DEPTH")));
            };
            let depth = number(d, "the depth", MAX_DEPTH)?;
            let nodes = match args.get(1) {
                None => None,
                Some(n) => Some(number(n, "the node budget", MAX_NODES)?),
            };
            if args.len() > 2 {
                return Err(fail("too many parts"));
            }
            Ok((depth, nodes))
        };
        match head {
            "" if args.is_empty() => Err(fail(
                "an empty entry (two commas together, or one at an end?)",
            )),
            "random" => none(Agent::Random),
            "greedy" => none(Agent::Greedy),
            "weak" => none(Agent::Level(Level::Weak)),
            "fair" => none(Agent::Level(Level::Fair)),
            "strong" => none(Agent::Level(Level::Strong)),
            "perfect" => none(Agent::Perfect),
            "mcts" => {
                let Some(n) = args.first() else {
                    return Err(fail("mcts needs its iterations, mcts:N"));
                };
                let iterations = number(n, "the iterations", MAX_ITERATIONS)?;
                let depth = match args.get(1) {
                    None => None,
                    Some(d) => Some(number(d, "the rollout depth", ROLLOUT_PLIES)?),
                };
                if args.len() > 2 {
                    return Err(fail("too many parts"));
                }
                Ok(Agent::Mcts { iterations, depth })
            }
            "ab" => {
                let (depth, nodes) = search("ab")?;
                Ok(Agent::AlphaBeta { depth, nodes })
            }
            "ex" => {
                let (depth, nodes) = search("ex")?;
                Ok(Agent::Expectimax { depth, nodes })
            }
            other => Err(fail(&match suggest(other) {
                Some(s) => format!("unknown agent; did you mean {s}?"),
                None => "unknown agent".to_owned(),
            })),
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let search = |f: &mut fmt::Formatter<'_>, name, depth, nodes: &Option<u32>| match nodes {
            None => write!(f, "{name}:{depth}"),
            Some(n) => write!(f, "{name}:{depth}:{n}"),
        };
        match self {
            Agent::Random => f.write_str("random"),
            Agent::Greedy => f.write_str("greedy"),
            Agent::Mcts {
                iterations,
                depth: None,
            } => write!(f, "mcts:{iterations}"),
            Agent::Mcts {
                iterations,
                depth: Some(d),
            } => write!(f, "mcts:{iterations}:{d}"),
            Agent::AlphaBeta { depth, nodes } => search(f, "ab", depth, nodes),
            Agent::Expectimax { depth, nodes } => search(f, "ex", depth, nodes),
            Agent::Level(level) => f.write_str(level.name()),
            Agent::Perfect => f.write_str("perfect"),
        }
    }
}

/// The most agents a lineup may name: one per seat of the largest game, and then some.
pub const MAX_LINEUP: usize = 8;

/// Who plays which seat in each game of a run: the agents as given, cycled over the seats
/// (`mcts:400,random` in a game of four seats: MCTS at seats 1 and 3), and, with `swap`,
/// rotated by one place a game, so that over every `k` games (`k` agents) each agent plays
/// each seat equally often: in game `i` seat `s` is played by agent `(s + i mod k) mod k`.
#[derive(Debug, Clone)]
pub struct Lineup {
    agents: Vec<Agent>,
    swap: bool,
    /// The distinct agents, in first-listed order: results are counted by these.
    distinct: Vec<Agent>,
    /// `agents[i]`'s place in `distinct`.
    slot: Vec<usize>,
    /// The reading solved, for `perfect` ([`Lineup::with_table`]): not part of the
    /// lineup's identity, since it is a function of the reading.
    table: Option<std::sync::Arc<Table>>,
}

impl PartialEq for Lineup {
    fn eq(&self, other: &Self) -> bool {
        self.agents == other.agents && self.swap == other.swap
    }
}

impl Eq for Lineup {}

/// A lineup that is none: no agents, or too many.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--agents: {0}")]
pub struct LineupError(String);

impl Lineup {
    /// The agents of `list` (comma-separated specs, cycled over the seats), rotated game by
    /// game with `swap`.
    ///
    /// # Errors
    /// An empty list, more than [`MAX_LINEUP`] agents, or a spec that is none of [`FORMS`].
    pub fn parse(list: &str, swap: bool) -> Result<Self, LineupError> {
        let agents = list
            .split(',')
            .map(|s| s.parse::<Agent>().map_err(|e| LineupError(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        Lineup::new(agents, swap)
    }

    /// The lineup of `agents`.
    ///
    /// # Errors
    /// No agent, or more than [`MAX_LINEUP`].
    pub fn new(agents: Vec<Agent>, swap: bool) -> Result<Self, LineupError> {
        if agents.is_empty() || agents.len() > MAX_LINEUP {
            return Err(LineupError(format!(
                "give 1 to {MAX_LINEUP} agents, comma-separated, one a seat in turn \
                 (for instance mcts:400,random), not {}",
                agents.len()
            )));
        }
        let mut distinct: Vec<Agent> = Vec::new();
        let slot = agents
            .iter()
            .map(|a| match distinct.iter().position(|d| d == a) {
                Some(k) => k,
                None => {
                    distinct.push(*a);
                    distinct.len() - 1
                }
            })
            .collect();
        Ok(Lineup {
            agents,
            swap,
            distinct,
            slot,
            table: None,
        })
    }

    /// Random play at every seat, unswapped: what `run` plays by default.
    pub fn random() -> Self {
        Lineup::new(vec![Agent::Random], false).expect("one agent")
    }

    /// The agents as given.
    pub fn agents(&self) -> &[Agent] {
        &self.agents
    }

    /// Whether the seats rotate game by game.
    pub fn swap(&self) -> bool {
        self.swap
    }

    /// The distinct agents, in first-listed order.
    pub fn distinct(&self) -> &[Agent] {
        &self.distinct
    }

    /// Whether an agent of the lineup is `perfect`, which needs the reading solved.
    pub fn names_perfect(&self) -> bool {
        self.distinct.contains(&Agent::Perfect)
    }

    /// The lineup with `table`, the reading it plays solved, for its `perfect` agents.
    pub fn with_table(&self, table: std::sync::Arc<Table>) -> Lineup {
        Lineup {
            table: Some(table),
            ..self.clone()
        }
    }

    /// The move the agent at `seat` in game `index` plays: [`choose`], with the lineup's
    /// solved table for `perfect`.
    ///
    /// # Panics
    /// As [`choose`]; and for `perfect`, if the lineup has no table (a command seats
    /// `perfect` only with one, [`Lineup::with_table`]).
    pub fn choose<R: Rules>(
        &self,
        index: u64,
        seat: Seat,
        rules: &R,
        state: &R::State,
        legal: &[R::Move],
        rng: &mut ChaCha8Rng,
    ) -> usize {
        decide_with(
            self.agent(index, seat),
            self.table.as_deref(),
            rules,
            state,
            legal,
            rng,
        )
        .index
    }

    /// Whether every seat is played at random: the run's own fast loop plays such a
    /// lineup, game for game the same.
    pub fn is_random(&self) -> bool {
        self.distinct == [Agent::Random]
    }

    /// The games of one full rotation: the number of agents with `swap`, else 1. A run of a
    /// multiple of it seats each agent at each seat equally often.
    pub fn rotation(&self) -> u64 {
        if self.swap {
            self.agents.len() as u64
        } else {
            1
        }
    }

    /// The place in [`Lineup::agents`] of the agent at `seat` in game `index`.
    fn place(&self, index: u64, seat: Seat) -> usize {
        let k = self.agents.len();
        let turn = if self.swap {
            (index % k as u64) as usize
        } else {
            0
        };
        (seat % k + turn) % k
    }

    /// The agent at `seat` in game `index`.
    pub fn agent(&self, index: u64, seat: Seat) -> &Agent {
        &self.agents[self.place(index, seat)]
    }

    /// The place in [`Lineup::distinct`] of the agent at `seat` in game `index`.
    pub fn distinct_at(&self, index: u64, seat: Seat) -> usize {
        self.slot[self.place(index, seat)]
    }

    /// The agent of each of `seats` seats in the first game (and in every game, without
    /// `swap`).
    pub fn seating(&self, seats: usize) -> Vec<String> {
        (0..seats).map(|s| self.agent(0, s).to_string()).collect()
    }
}

impl fmt::Display for Lineup {
    /// The `--agents` list that gives this lineup.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, a) in self.agents.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{a}")?;
        }
        Ok(())
    }
}

/// The index in `legal` (the legal moves of `state`, in [`Rules::legal_moves`]' order, not
/// empty) of the move `agent` plays. `random` always draws one word's worth of choice, as
/// `run` does; the others play a lone legal move without drawing.
///
/// # Panics
/// If `legal` is empty, or (every agent but random, with two moves or more) if `state` is not
/// a seat's decision.
pub fn choose<R: Rules>(
    agent: &Agent,
    rules: &R,
    state: &R::State,
    legal: &[R::Move],
    rng: &mut ChaCha8Rng,
) -> usize {
    decide(agent, rules, state, legal, rng).index
}

/// A decision and what it cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    /// The index in the legal moves of the move played.
    pub index: usize,
    /// The work done: MCTS iterations, or the positions alpha-beta or expectimax visited
    /// (the children of greedy's position; 0 for random play or a lone move).
    pub work: u64,
}

/// [`choose`], with the work it took: what the benchmarks count.
///
/// # Panics
/// As [`choose`].
pub fn decide<R: Rules>(
    agent: &Agent,
    rules: &R,
    state: &R::State,
    legal: &[R::Move],
    rng: &mut ChaCha8Rng,
) -> Decision {
    decide_with(agent, None, rules, state, legal, rng)
}

/// [`decide`], with the reading's solved table for `perfect`.
///
/// # Panics
/// As [`choose`]; and for `perfect`, without a table, or with one that does not hold the
/// position (a table of another reading).
pub fn decide_with<R: Rules>(
    agent: &Agent,
    table: Option<&Table>,
    rules: &R,
    state: &R::State,
    legal: &[R::Move],
    rng: &mut ChaCha8Rng,
) -> Decision {
    assert!(!legal.is_empty(), "choose: no legal move");
    let (index, work) = match *agent {
        Agent::Random => (rng::draw(rng, legal.len() as u32) as usize, 0),
        _ if legal.len() == 1 => (0, 0),
        Agent::Greedy => (greedy(rules, state, legal, rng), legal.len() as u64),
        Agent::Mcts { iterations, depth } => (
            mcts::Search::new(rules, depth).run(state, legal, iterations, rng),
            u64::from(iterations),
        ),
        Agent::AlphaBeta { depth, nodes } | Agent::Expectimax { depth, nodes } => {
            let prune = matches!(agent, Agent::AlphaBeta { .. });
            let mut s = search::Searcher::new(rules, mover(rules, state), prune);
            let (index, _) = s.decide(state, legal, depth, nodes, rng);
            (index, s.nodes())
        }
        Agent::Level(level) => return decide(&level.agent(), rules, state, legal, rng),
        // The table holds every position reachable from the start but those after a
        // position it holds as over (an engine's proof that no end can be reached, which
        // play makes later): from there no seat wins whatever is played, and the first move
        // is as good as any.
        Agent::Perfect => (
            table
                .expect("perfect play is seated only with its reading's solved table")
                .best_move(rules, state)
                .unwrap_or(0),
            0,
        ),
    };
    Decision { index, work }
}

/// The seat to move, which a decision needs.
pub(crate) fn mover<R: Rules>(rules: &R, state: &R::State) -> Seat {
    match rules.status(state) {
        Status::ToMove(seat) => seat,
        other => panic!("a decision asked for in a position that is {other:?}"),
    }
}

/// The seat's lead: its [`Rules::evaluate`] minus the best opponent's.
pub fn lead<R: Rules>(rules: &R, state: &R::State, seat: Seat) -> i64 {
    let best = (0..rules.seats())
        .filter(|&s| s != seat)
        .map(|s| rules.evaluate(state, s))
        .max()
        .unwrap_or(0);
    rules.evaluate(state, seat) - best
}

/// Greedy play: the move with the best expected lead for the mover, as a fraction
/// `num / den` (the weights of the chance step after the move, or 1), ties drawn.
fn greedy<R: Rules>(rules: &R, state: &R::State, legal: &[R::Move], rng: &mut ChaCha8Rng) -> usize {
    let seat = mover(rules, state);
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = (0i128, 1i128);
    for (i, &mv) in legal.iter().enumerate() {
        let mut next = state.clone();
        rules.apply(&mut next, mv, &mut NoEvents);
        let value = if rules.status(&next) == Status::Chance {
            let weights = rules.chance_outcomes(&next);
            let mut num = 0i128;
            let mut den = 0i128;
            for (k, &w) in weights.iter().enumerate() {
                let mut after = next.clone();
                rules.apply_chance(&mut after, k, &mut NoEvents);
                num += i128::from(w) * i128::from(lead(rules, &after, seat));
                den += i128::from(w);
            }
            (num, den.max(1))
        } else {
            (i128::from(lead(rules, &next, seat)), 1)
        };
        // value > best_value, as fractions with positive denominators.
        let order = (value.0 * best_value.1).cmp(&(best_value.0 * value.1));
        if best.is_empty() || order == std::cmp::Ordering::Greater {
            best.clear();
            best.push(i);
            best_value = value;
        } else if order == std::cmp::Ordering::Equal {
            best.push(i);
        }
    }
    if best.len() == 1 {
        best[0]
    } else {
        best[rng::draw(rng, best.len() as u32) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lineup(list: &str, swap: bool) -> Lineup {
        Lineup::parse(list, swap).unwrap()
    }

    #[test]
    fn agents_cycle_over_the_seats() {
        let l = lineup("mcts:400,random", false);
        assert_eq!(l.seating(4), ["mcts:400", "random", "mcts:400", "random"]);
        assert_eq!(l.seating(1), ["mcts:400"]);
        // Without --swap every game seats them alike.
        assert_eq!(l.agent(7, 0), l.agent(0, 0));
        assert_eq!(l.rotation(), 1);
        assert_eq!(l.to_string(), "mcts:400,random");
    }

    /// Over any whole rotation, each agent of the list holds each seat equally often, for
    /// lists shorter than, as long as, and longer than the seats.
    #[test]
    fn a_swapped_rotation_seats_each_agent_at_each_seat_equally() {
        for (list, seats) in [
            ("greedy,random", 2),
            ("greedy,random", 4),
            ("greedy,random", 3),
            ("mcts:5,greedy,random", 2),
            ("mcts:5,greedy,random", 3),
        ] {
            let l = lineup(list, true);
            let k = l.rotation();
            assert_eq!(k as usize, l.agents().len());
            for start in [0, 5 * k] {
                for seat in 0..seats {
                    let mut held = vec![0; l.agents().len()];
                    for game in start..start + k {
                        held[l.place(game, seat)] += 1;
                    }
                    assert!(
                        held.iter().all(|&h| h == 1),
                        "{list}, seat {seat}: {held:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_same_agent_twice_is_one_agent() {
        let l = lineup("random,greedy,random", true);
        assert_eq!(l.distinct(), [Agent::Random, Agent::Greedy]);
        assert_eq!(l.distinct_at(0, 2), 0);
        assert_eq!(l.distinct_at(1, 0), 1);
        assert!(!l.is_random());
        assert!(lineup("random,random", true).is_random());
        assert_eq!(Lineup::random().seating(2), ["random", "random"]);
    }

    #[test]
    fn lineups_of_no_agent_or_too_many_are_refused() {
        let nine = ["random"; 9].join(",");
        let err = Lineup::parse(&nine, false).unwrap_err().to_string();
        assert!(err.contains("1 to 8 agents"), "{err}");
        assert!(Lineup::new(Vec::new(), false).is_err());
        let err = Lineup::parse("greedy,,random", false)
            .unwrap_err()
            .to_string();
        assert!(err.contains("the valid forms are"), "{err}");
    }
}
