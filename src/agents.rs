//! Skilled players: an [`Agent`] chooses a move for any engine through the [`Rules`] trait.
//!
//! - `random`: uniform among the listed legal moves, the very draw `ludotrace run` makes
//!   ([`rng::draw`]), so that a game of random agents is the run's game.
//! - `greedy`: one move ahead. Each legal move is played on a copy; when a chance step follows
//!   it (the next throw), the copy's standing is the expected value over that step's outcomes
//!   by their weights (computed exactly, not sampled). The standing is the mover's
//!   [`Rules::material`] minus the best opponent's; the move with the most is played, ties
//!   broken uniformly by the generator.
//! - `mcts:N` (and `mcts:N:D`): UCT with `C = √2` and `N` iterations from the position. A
//!   chance step in the tree is sampled by its weights, each outcome a child of its own;
//!   rollouts play uniformly random moves to the end of the game (at most
//!   [`ROLLOUT_PLIES`] decisions, or the engine's own cap), or, with a depth `D`, for at most
//!   `D` decisions, a position left unfinished then scored on each seat's material against
//!   the best opponent's: `0.5 + 0.45 × (own − best) / (|own| + |best|)`, graded and short
//!   of a win ([`CUT_SCALE`]). Results are backed up per seat (a win 1, a draw 0.5, a loss 0; in a game
//!   of several seats each seat its own); the most visited move is played (ties: the better
//!   mean for the mover, then the first listed).
//!
//! Every choice is drawn from the generator it is given, so a game is a function of that
//! generator's state: `sim::play_game`, which plays a game of agents, draws everything from
//! [`rng::game_rng`].
//!
//! Architecture Invariant: as `sim`, this module knows engines only through the [`Rules`]
//! trait. It imports the engines' trait (`games`), the draws (`rng`) and portable maths
//! (`stats`), never `sim`: `sim` plays agents' games, so it imports this module.

use std::fmt;
use std::str::FromStr;

use rand::rngs::ChaCha8Rng;

use crate::games::{NoEvents, Outcome, Result_, Rules, Seat, Status};
use crate::rng;

/// The most MCTS iterations a decision may take.
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// The most decisions of one rollout (where the engine has no cap of its own to end it).
pub const ROLLOUT_PLIES: u32 = 10_000;

/// How far from a draw's 0.5 a rollout cut at its depth may score on material: less than
/// 0.5, so that only a game won scores 1.
pub const CUT_SCALE: f64 = 0.45;

/// The exploration constant of UCT.
const C: f64 = std::f64::consts::SQRT_2;

/// The valid forms of an agent spec, for messages.
pub const FORMS: &str = "random, greedy, mcts:N (N iterations, 1 to 1000000) or mcts:N:D \
                         (rollouts cut after D plies, 1 to 10000)";

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Uniform random play.
    Random,
    /// One move ahead by [`Rules::material`].
    Greedy,
    /// UCT search.
    Mcts {
        /// Iterations per decision, `1..=MAX_ITERATIONS`.
        iterations: u32,
        /// Rollouts cut after this many decisions (then scored by material), or played out.
        depth: Option<u32>,
    },
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

impl FromStr for Agent {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<Self, AgentError> {
        let fail = |why: &str| AgentError {
            spec: text.to_owned(),
            why: why.to_owned(),
        };
        let number = |part: &str, what: &str, max: u32| -> Result<u32, AgentError> {
            match part.parse::<u32>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                // Digits too many for a number at all are out of range too.
                _ if !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(fail(&format!("{what} must be 1 to {max}")))
                }
                Ok(_) => Err(fail(&format!("{what} must be 1 to {max}"))),
                Err(_) => Err(fail(&format!("{what} {part:?} is not a number"))),
            }
        };
        match text.trim() {
            "" => Err(fail(
                "an empty entry (two commas together, or one at an end?)",
            )),
            "random" => Ok(Agent::Random),
            "greedy" => Ok(Agent::Greedy),
            t => {
                let mut parts = t.split(':');
                if parts.next() != Some("mcts") {
                    return Err(fail("unknown agent"));
                }
                let Some(n) = parts.next() else {
                    return Err(fail("mcts needs its iterations, mcts:N"));
                };
                let iterations = number(n, "the iterations", MAX_ITERATIONS)?;
                let depth = match parts.next() {
                    None => None,
                    Some(d) => Some(number(d, "the rollout depth", ROLLOUT_PLIES)?),
                };
                if parts.next().is_some() {
                    return Err(fail("too many parts"));
                }
                Ok(Agent::Mcts { iterations, depth })
            }
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
        }
    }
}

/// The most agents a lineup may name: one per seat of the largest game, and then some.
pub const MAX_LINEUP: usize = 8;

/// Who plays which seat in each game of a run: the agents as given, cycled over the seats
/// (`mcts:400,random` in a game of four seats: MCTS at seats 1 and 3), and, with `swap`,
/// rotated by one place a game, so that over every `k` games (`k` agents) each agent plays
/// each seat equally often: in game `i` seat `s` is played by agent `(s + i mod k) mod k`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lineup {
    agents: Vec<Agent>,
    swap: bool,
    /// The distinct agents, in first-listed order: results are counted by these.
    distinct: Vec<Agent>,
    /// `agents[i]`'s place in `distinct`.
    slot: Vec<usize>,
}

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
/// If `legal` is empty, or (greedy and MCTS, with two moves or more) if `state` is not a
/// seat's decision.
pub fn choose<R: Rules>(
    agent: &Agent,
    rules: &R,
    state: &R::State,
    legal: &[R::Move],
    rng: &mut ChaCha8Rng,
) -> usize {
    assert!(!legal.is_empty(), "choose: no legal move");
    match *agent {
        Agent::Random => rng::draw(rng, legal.len() as u32) as usize,
        _ if legal.len() == 1 => 0,
        Agent::Greedy => greedy(rules, state, legal, rng),
        Agent::Mcts { iterations, depth } => {
            Search::new(rules, depth).run(state, legal, iterations, rng)
        }
    }
}

/// The seat to move, which a decision needs.
fn mover<R: Rules>(rules: &R, state: &R::State) -> Seat {
    match rules.status(state) {
        Status::ToMove(seat) => seat,
        other => panic!("a decision asked for in a position that is {other:?}"),
    }
}

/// The seat's material lead: its [`Rules::material`] minus the best opponent's.
pub fn lead<R: Rules>(rules: &R, state: &R::State, seat: Seat) -> i64 {
    let best = (0..rules.seats())
        .filter(|&s| s != seat)
        .map(|s| rules.material(state, s))
        .max()
        .unwrap_or(0);
    rules.material(state, seat) - best
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

/// Rewards per seat, at most eight seats.
type Rewards = [f64; 8];

/// What a node of the search tree is.
enum Kind<M> {
    /// A seat chooses among `moves`; `untried` counts the moves with no child yet.
    Decide {
        seat: Seat,
        moves: Vec<M>,
        untried: usize,
    },
    /// A chance step over these weights.
    Chance { weights: &'static [u32] },
    /// The game is over (or the search may not go deeper); its rewards.
    Over(Rewards),
}

/// A node: its kind, its children (by move or outcome index; `NONE` where none yet), its
/// visits and the rewards summed over them, per seat.
struct Node<M> {
    kind: Kind<M>,
    children: Vec<u32>,
    visits: u32,
    reward: Rewards,
}

/// No child.
const NONE: u32 = u32::MAX;

/// One UCT search.
struct Search<'r, R: Rules> {
    rules: &'r R,
    depth: Option<u32>,
    nodes: Vec<Node<R::Move>>,
    buf: Vec<R::Move>,
}

impl<'r, R: Rules> Search<'r, R> {
    fn new(rules: &'r R, depth: Option<u32>) -> Self {
        Search {
            rules,
            depth,
            nodes: Vec::new(),
            buf: Vec::new(),
        }
    }

    /// The rewards of a finished game: each winner 1, each other seat 0; a draw (or a game
    /// the rules cannot finish) 0.5 each.
    fn rewards_of(&self, outcome: Option<Outcome>) -> Rewards {
        let mut r = [0.5; 8];
        if let Some(Outcome {
            result: Result_::Win(mask),
            ..
        }) = outcome
        {
            for (seat, v) in r.iter_mut().enumerate() {
                *v = if mask & (1 << seat) != 0 { 1.0 } else { 0.0 };
            }
        }
        r
    }

    /// The rewards of an unfinished position, by each seat's material against the best
    /// opponent's: `0.5 + CUT_SCALE × (own − best) / (|own| + |best|)` (0.5 where both are
    /// 0). Graded, so that a bigger lead is worth more, and short of a win (1) and of a loss
    /// (0), so that a position merely won on material is never worth a game won: scored by
    /// the sign of the lead alone, a search well ahead finds every move alike and never
    /// finishes the game (Seega's last pieces are then never taken).
    fn rewards_by_material(&self, state: &R::State) -> Rewards {
        let mut r = [0.5; 8];
        let seats = self.rules.seats();
        let material: Vec<i64> = (0..seats).map(|s| self.rules.material(state, s)).collect();
        for (seat, v) in r.iter_mut().enumerate().take(seats) {
            let own = material[seat];
            let best = (0..seats)
                .filter(|&s| s != seat)
                .map(|s| material[s])
                .max()
                .unwrap_or(0);
            let scale = own.unsigned_abs() + best.unsigned_abs();
            if scale > 0 {
                *v = 0.5 + CUT_SCALE * (own - best) as f64 / scale as f64;
            }
        }
        r
    }

    /// A new node for `state`.
    fn node(&mut self, state: &R::State) -> u32 {
        let kind = match self.rules.status(state) {
            Status::Over => Kind::Over(self.rewards_of(self.rules.outcome(state))),
            Status::Chance => Kind::Chance {
                weights: self.rules.chance_outcomes(state),
            },
            Status::ToMove(seat) => {
                let mut moves = Vec::new();
                self.rules.legal_moves(state, &mut moves);
                Kind::Decide {
                    seat,
                    untried: moves.len(),
                    moves,
                }
            }
        };
        let arity = match &kind {
            Kind::Decide { moves, .. } => moves.len(),
            Kind::Chance { weights } => weights.len(),
            Kind::Over(_) => 0,
        };
        self.nodes.push(Node {
            kind,
            children: vec![NONE; arity],
            visits: 0,
            reward: [0.0; 8],
        });
        (self.nodes.len() - 1) as u32
    }

    /// Plays uniformly random moves from `state` to the end of the game, to the rollout's
    /// depth, or to [`ROLLOUT_PLIES`] decisions; the rewards.
    fn rollout(&mut self, state: &mut R::State, rng: &mut ChaCha8Rng) -> Rewards {
        let rules = self.rules;
        let limit = self.depth.unwrap_or(ROLLOUT_PLIES);
        let capped = rules.has_cap();
        let mut plies = 0;
        loop {
            match rules.status(state) {
                Status::Over => return self.rewards_of(rules.outcome(state)),
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(state), rng);
                    rules.apply_chance(state, k, &mut NoEvents);
                }
                Status::ToMove(_) => {
                    if plies >= limit && (self.depth.is_some() || !capped) {
                        return self.rewards_by_material(state);
                    }
                    rules.play_random(
                        state,
                        &mut self.buf,
                        |n| rng::draw(rng, n as u32) as usize,
                        &mut NoEvents,
                    );
                    plies += 1;
                }
            }
        }
    }

    /// The UCT child of a decision node for its seat.
    fn select(&self, node: u32, seat: Seat) -> usize {
        let n = &self.nodes[node as usize];
        // Portable: the same decisions on every platform.
        let log = crate::stats::portable::ln(f64::from(n.visits));
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (i, &c) in n.children.iter().enumerate() {
            let child = &self.nodes[c as usize];
            let visits = f64::from(child.visits);
            let score = child.reward[seat] / visits + C * (log / visits).sqrt();
            if score > best_score {
                best = i;
                best_score = score;
            }
        }
        best
    }

    /// Runs `iterations` iterations from `root` (whose legal moves are `legal`) and returns the
    /// index of the most visited move.
    fn run(
        mut self,
        root: &R::State,
        legal: &[R::Move],
        iterations: u32,
        rng: &mut ChaCha8Rng,
    ) -> usize {
        let seat = mover(self.rules, root);
        self.nodes.push(Node {
            kind: Kind::Decide {
                seat,
                moves: legal.to_vec(),
                untried: legal.len(),
            },
            children: vec![NONE; legal.len()],
            visits: 0,
            reward: [0.0; 8],
        });
        let mut path: Vec<u32> = Vec::new();
        for _ in 0..iterations {
            let mut state = root.clone();
            let mut at = 0u32;
            path.clear();
            path.push(at);
            let rewards = loop {
                let node = &self.nodes[at as usize];
                match &node.kind {
                    Kind::Over(r) => break *r,
                    Kind::Chance { weights } => {
                        let k = rng::sample(weights, rng);
                        self.rules.apply_chance(&mut state, k, &mut NoEvents);
                        let child = node.children[k];
                        if child == NONE {
                            let c = self.node(&state);
                            self.nodes[at as usize].children[k] = c;
                            path.push(c);
                            break self.rollout(&mut state, rng);
                        }
                        at = child;
                        path.push(at);
                    }
                    Kind::Decide {
                        seat,
                        moves,
                        untried,
                    } => {
                        if *untried > 0 {
                            // Expand an untried move, drawn uniformly among them.
                            let j = rng::draw(rng, *untried as u32) as usize;
                            let i = node
                                .children
                                .iter()
                                .enumerate()
                                .filter(|(_, c)| **c == NONE)
                                .nth(j)
                                .map(|(i, _)| i)
                                .expect("an untried move");
                            let mv = moves[i];
                            self.rules.apply(&mut state, mv, &mut NoEvents);
                            let c = self.node(&state);
                            let n = &mut self.nodes[at as usize];
                            n.children[i] = c;
                            if let Kind::Decide { untried, .. } = &mut n.kind {
                                *untried -= 1;
                            }
                            path.push(c);
                            break self.rollout(&mut state, rng);
                        }
                        let i = self.select(at, *seat);
                        let mv = moves[i];
                        self.rules.apply(&mut state, mv, &mut NoEvents);
                        at = self.nodes[at as usize].children[i];
                        path.push(at);
                    }
                }
            };
            for &n in &path {
                let node = &mut self.nodes[n as usize];
                node.visits += 1;
                for (sum, r) in node.reward.iter_mut().zip(rewards) {
                    *sum += r;
                }
            }
        }
        let root = &self.nodes[0];
        let mut best = 0;
        let mut best_key = (0u32, f64::NEG_INFINITY);
        for (i, &c) in root.children.iter().enumerate() {
            if c == NONE {
                continue;
            }
            let child = &self.nodes[c as usize];
            let key = (child.visits, child.reward[seat] / f64::from(child.visits));
            if key.0 > best_key.0 || (key.0 == best_key.0 && key.1 > best_key.1) {
                best = i;
                best_key = key;
            }
        }
        best
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
