//! Monte Carlo tree search (`mcts:N[:D]`): UCT over the engine's decisions, chance steps
//! sampled in the tree, rollouts of uniform random play to the end of the game or cut after
//! `D` decisions and scored on the family's evaluation ([`Rules::evaluate`]).
//!
//! A rollout never asks whether the engine has a cap: it plays until the game is over (as
//! the rules end it, an engine cap included, which is then a rule like any other) or until
//! its own horizon, `D` or [`ROLLOUT_PLIES`] decisions from where it started, whichever
//! comes first. Reading whether a cap exists made the same agent search differently under
//! the same rules with a cap added that the game never reached (see [`Search::rollout`]).

use rand::rngs::ChaCha8Rng;

use super::{CUT_SCALE, ROLLOUT_PLIES, mover};
use crate::games::{NoEvents, Outcome, Result_, Rules, Seat, Status};
use crate::rng;

/// The exploration constant of UCT.
const C: f64 = std::f64::consts::SQRT_2;

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
pub(super) struct Search<'r, R: Rules> {
    rules: &'r R,
    depth: Option<u32>,
    nodes: Vec<Node<R::Move>>,
    buf: Vec<R::Move>,
}

impl<'r, R: Rules> Search<'r, R> {
    pub(super) fn new(rules: &'r R, depth: Option<u32>) -> Self {
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

    /// The rewards of an unfinished position, by each seat's evaluation against the best
    /// opponent's: `0.5 + CUT_SCALE × (own − best) / (|own| + |best|)` (0.5 where both are
    /// 0). Graded, so that a bigger lead is worth more, and short of a win (1) and of a loss
    /// (0), so that a position merely won on material is never worth a game won: scored by
    /// the sign of the lead alone, a search well ahead finds every move alike and never
    /// finishes the game (Seega's last pieces are then never taken).
    fn rewards_by_evaluation(&self, state: &R::State) -> Rewards {
        let mut r = [0.5; 8];
        let seats = self.rules.seats();
        let value: Vec<i64> = (0..seats).map(|s| self.rules.evaluate(state, s)).collect();
        for (seat, v) in r.iter_mut().enumerate().take(seats) {
            let own = value[seat];
            let best = (0..seats)
                .filter(|&s| s != seat)
                .map(|s| value[s])
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

    /// Plays uniformly random moves from `state` until the game is over or for the
    /// rollout's horizon: its depth `D`, or [`ROLLOUT_PLIES`] decisions, counted from here;
    /// a rollout cut there is scored on the evaluation. The rewards.
    ///
    /// The horizon is the agent's alone. It once gave way to the engine's cap where one
    /// existed: a rollout then ran on to the cap and was scored as a capped game (a draw,
    /// Ludii's outcome), where without a cap it was cut and scored on material. Under Seega
    /// `davies` a rollout into a blocked board, both sides passing, never ends; it was worth
    /// a graded lead to the side ahead without the cap and a draw with it, so the same agent
    /// chose differently under the same rules merely because a cap it never reached
    /// existed (9 of 10 games ended in endless passing, against 0 of 10). Now only the rules
    /// (a cap among them, when a rollout meets it) and the horizon end a rollout.
    fn rollout(&mut self, state: &mut R::State, rng: &mut ChaCha8Rng) -> Rewards {
        let rules = self.rules;
        let horizon = self.depth.unwrap_or(ROLLOUT_PLIES);
        let mut plies = 0;
        loop {
            match rules.status(state) {
                Status::Over => return self.rewards_of(rules.outcome(state)),
                Status::Chance => {
                    let k = rng::sample(rules.chance_outcomes(state), rng);
                    rules.apply_chance(state, k, &mut NoEvents);
                }
                Status::ToMove(_) => {
                    if plies >= horizon {
                        return self.rewards_by_evaluation(state);
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
    pub(super) fn run(
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
