//! Exact values of small deterministic games: every position reachable from a start is
//! listed, and the game is solved backwards from its ends (retrograde analysis), as the
//! published solutions of Kalah and Awari were.
//!
//! A position is identified by its position notation ([`crate::games::Rules::position_text`])
//! without the clock's words (`ply`, `turn`, `last`, `first`): by the notation's invariant the
//! rest decides how the game goes on, so two positions with one key are one position, reached
//! by two paths. Each position is expanded from its key read back
//! ([`crate::games::Rules::parse_position`]), so its clock starts at nothing: what is solved is
//! the game without an engine's cap, and whether a cap matters is the caller's question (the
//! optimal length against the cap). A reading whose future depends on more than the position
//! (a repetition rule, a move limit) is the caller's to refuse: this module cannot see it.
//!
//! The value of a position is a win for one seat with the plies to the end when both play
//! their best (the winner fastest, the loser slowest), a drawn end one seat can force, or, where
//! neither seat can force any end, play that need not end: a draw held by endless play, with
//! the shortest cycle that holds it. Values are exact or not given: a search that would pass
//! `max_states` stops with the count it reached, never with a guess.
//!
//! Architecture Invariant: nothing here draws at random or depends on a thread count; among
//! equally good moves the first in legal-move order is taken, so a principal variation is a
//! function of the position alone.

use indexmap::IndexSet;

use crate::games::position::PositionError;
use crate::games::{Result_, Rules, Seat, Status};

/// The words of the notation that belong to the clock, which a position's key leaves out.
const CLOCK_WORDS: [&str; 4] = ["ply=", "turn=", "last=", "first="];

/// The most positions a listing holds unless told otherwise (`solve --max-states`; what the
/// `perfect` agent's table may hold).
pub const DEFAULT_MAX_STATES: usize = 5_000_000;

/// The memory ceiling: a listing whose positions would take more (by [`position_bytes`])
/// stops, whatever `max_states` allows, so that no search can exhaust the machine.
pub const MAX_BYTES: usize = 6 << 30;

/// What one position costs, all told, in bytes: its key, where its moves lead and the moves
/// back into it (four bytes each), and its share of the tables (the key's entry and hash,
/// its node, its values and margins). The figure is the measured one (BENCHMARKS.md: about
/// 330 bytes a position of Um el Tuweisat, whose keys are some 30 bytes), so the ceiling is
/// near the memory a listing takes.
pub fn position_bytes(key_len: usize, moves: usize) -> usize {
    key_len + 8 * moves + 280
}

/// A guess at the whole of a listing stopped short, from positions met elsewhere (random
/// play): of `met`, `listed` were among the positions listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// Distinct positions met.
    pub met: u64,
    /// Of them, those listed.
    pub listed: u64,
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "of {} positions met in random play, {} were among those listed",
            self.met, self.listed
        )
    }
}

/// Why a listing stopped short.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `max_states` positions.
    States(usize),
    /// [`MAX_BYTES`].
    Memory(usize),
}

/// `n` to two significant figures: a rough guess shows no more than it knows.
fn two_figures(n: u128) -> u128 {
    let mut scale = 1;
    while n / scale >= 100 {
        scale *= 10;
    }
    (n + scale / 2) / scale * scale
}

/// The words of a listing stopped short: the bound, the count and, where there is one, the
/// guess at the whole (the count over the share of positions met that were listed).
fn too_large_words(
    bound: &Bound,
    reached: usize,
    open: usize,
    estimate: &Option<Estimate>,
) -> String {
    let head = match bound {
        Bound::States(max) => format!("more than {max} positions are reachable"),
        Bound::Memory(bytes) => format!(
            "the positions listed would take more than the memory ceiling of {} MiB",
            bytes >> 20
        ),
    };
    let guess = match estimate {
        Some(e) if e.listed > 0 && e.met > 0 => format!(
            "; {e}, which puts the whole at roughly {} (a rough guess: random play does not \
             meet every position alike)",
            two_figures(reached as u128 * e.met as u128 / e.listed as u128)
        ),
        Some(e) if e.met > 0 => format!("; {e}, so the whole is far larger"),
        _ => String::new(),
    };
    format!(
        "{head} (the search stopped at {reached}, with {open} still to expand, at least \
         {reached} in all{guess})"
    )
}

/// Why a game was not solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A chance step after the start: the game is not deterministic.
    #[error(
        "a chance step ({what}) comes after the start: only games whose play has no chance \
         (the sowing games and Seega, past the opening lot) are solved"
    )]
    Chance {
        /// The chance step, in words.
        what: String,
    },
    /// More positions than allowed, or than the memory ceiling holds.
    #[error("{}", too_large_words(bound, *reached, *open, estimate))]
    TooLarge {
        /// The bound passed.
        bound: Bound,
        /// Positions listed when the search stopped.
        reached: usize,
        /// Positions listed but not yet expanded.
        open: usize,
        /// A guess at the whole, where the caller made one.
        estimate: Option<Estimate>,
    },
    /// A position the engine's notation cannot read back (a bug in the engine's notation).
    #[error("the position {key:?} does not read back: {error}")]
    Notation {
        /// The key.
        key: String,
        /// Why.
        error: PositionError,
    },
}

/// What a position is worth when both seats play their best.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// `seat` wins, in `plies` decisions (the winner hastening, the loser delaying).
    Win {
        /// The winner.
        seat: Seat,
        /// Decisions to the end.
        plies: u32,
    },
    /// Neither seat can force a win, and `seat` can force a drawn end within `plies`.
    Draw {
        /// A seat that can force the drawn end (the first that can).
        seat: Seat,
        /// Decisions to that end, at most.
        plies: u32,
    },
    /// Neither seat can force a win, nor any end: a draw held by endless play.
    Endless,
    /// The position is itself over without a winner or a draw: the engine proved the game
    /// can never end, or stopped it unfinished.
    Unfinished,
}

/// One position of the graph.
#[derive(Debug, Clone)]
enum Node {
    /// The game is over.
    Over(Result_),
    /// `seat` decides among `children` (indices into the graph, in legal-move order, with
    /// each move's text).
    Move { seat: Seat, children: Vec<u32> },
}

/// Every position reachable from a start, with the moves between them.
#[derive(Debug)]
pub struct Graph {
    keys: IndexSet<Box<str>>,
    nodes: Vec<Node>,
    /// Each ended position's score margin (seat 1's score less seat 2's); 0 elsewhere.
    margins: Vec<i64>,
}

/// A position's key: its notation without the clock's words.
pub fn key<R: Rules>(rules: &R, state: &R::State) -> String {
    rules
        .position_text(state)
        .split(' ')
        .filter(|w| !CLOCK_WORDS.iter().any(|c| w.starts_with(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Graph {
    /// Lists every position reachable from `start` (which must not be a chance step),
    /// expanding each from its key read back.
    ///
    /// # Errors
    /// [`SolveError`]: a chance step, more than `max_states` positions, a key that does not
    /// read back.
    pub fn build<R: Rules>(
        rules: &R,
        start: &R::State,
        max_states: usize,
    ) -> Result<Self, SolveError> {
        Graph::build_all(rules, std::slice::from_ref(start), max_states)
    }

    /// [`Graph::build`] from several starts at once (each starter of an opening lot): the
    /// positions reachable from any of them, the starts first, in order (a start met twice
    /// is listed once).
    ///
    /// # Errors
    /// As [`Graph::build`].
    pub fn build_all<R: Rules>(
        rules: &R,
        starts: &[R::State],
        max_states: usize,
    ) -> Result<Self, SolveError> {
        Graph::build_estimating(rules, starts, max_states, |_| None)
    }

    /// [`Graph::build_all`]; where the listing stops short, `estimate` is asked, with a test
    /// of whether a key was listed, for a guess at the whole (this module draws nothing at
    /// random: the caller samples).
    ///
    /// # Errors
    /// As [`Graph::build`].
    pub fn build_estimating<R: Rules>(
        rules: &R,
        starts: &[R::State],
        max_states: usize,
        estimate: impl FnOnce(&dyn Fn(&str) -> bool) -> Option<Estimate>,
    ) -> Result<Self, SolveError> {
        let mut keys: IndexSet<Box<str>> = IndexSet::new();
        let mut bytes = 0usize;
        for start in starts {
            keys.insert(key(rules, start).into_boxed_str());
        }
        let mut nodes = Vec::new();
        let mut margins = Vec::new();
        let mut legal = Vec::new();
        while nodes.len() < keys.len() {
            let at = nodes.len();
            let k: &str = &keys[at];
            let key_len = k.len();
            let state = rules
                .parse_position(k)
                .map_err(|error| SolveError::Notation {
                    key: k.to_owned(),
                    error,
                })?;
            match rules.status(&state) {
                Status::Over => {
                    let outcome = rules.outcome(&state);
                    let result = outcome.map_or(Result_::Unfinished, |o| o.result);
                    nodes.push(Node::Over(result));
                    margins.push(
                        outcome.map_or(0, |o| i64::from(o.scores[0]) - i64::from(o.scores[1])),
                    );
                }
                Status::Chance => {
                    return Err(SolveError::Chance {
                        what: rules.chance_text(&state, 0),
                    });
                }
                Status::ToMove(seat) => {
                    rules.legal_moves(&state, &mut legal);
                    let mut children = Vec::with_capacity(legal.len());
                    for &mv in &legal {
                        let mut next = state.clone();
                        rules.apply(&mut next, mv, &mut crate::games::NoEvents);
                        let (i, _) = keys.insert_full(key(rules, &next).into_boxed_str());
                        children.push(i as u32);
                    }
                    bytes += position_bytes(key_len, children.len());
                    nodes.push(Node::Move { seat, children });
                    margins.push(0);
                    let bound = if keys.len() > max_states {
                        Some(Bound::States(max_states))
                    } else if bytes > MAX_BYTES {
                        Some(Bound::Memory(MAX_BYTES))
                    } else {
                        None
                    };
                    if let Some(bound) = bound {
                        let (reached, open) = (keys.len(), keys.len() - nodes.len());
                        let estimate = estimate(&|k: &str| keys.contains(k));
                        return Err(SolveError::TooLarge {
                            bound,
                            reached,
                            open,
                            estimate,
                        });
                    }
                }
            }
        }
        Ok(Graph {
            keys,
            nodes,
            margins,
        })
    }

    /// Positions listed.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph is empty (never: the start is in it).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// A position's key.
    pub fn key(&self, i: u32) -> &str {
        &self.keys[i as usize]
    }

    /// The index of the position with key `key`, where it is listed.
    pub fn find(&self, key: &str) -> Option<u32> {
        self.keys.get_index_of(key).map(|i| i as u32)
    }

    /// Solves every position.
    pub fn solve(&self) -> Solution {
        Solution::of(self)
    }
}

/// Every position's value.
#[derive(Debug)]
pub struct Solution {
    values: Vec<Value>,
    /// For each position, the most plies in which each seat can force a drawn end (among
    /// the positions neither seat wins), or [`NONE`]: a drawn value names one seat's, and
    /// best play keeps to that seat's count.
    draw_dist: Vec<[u32; 2]>,
    /// Each position's score margin (seat 1's score less seat 2's) that seat 1 can force
    /// the game to end with at least, and that seat 2 can force it to end with at most;
    /// `None` where the seat cannot force the game to end at all.
    margins: Vec<(Option<i64>, Option<i64>)>,
}

/// The positions from which `seat` can force the game into `targets`, each with the most
/// plies it takes (`None` where it cannot), among the positions `open` admits: backward from
/// the targets, a position of `seat`'s joins with one move into the set, one of the other
/// seat's once every move it has into an open position leads into the set.
fn attractor(
    g: &Graph,
    parents: &[Vec<u32>],
    seat: usize,
    targets: &[u32],
    open: impl Fn(usize) -> bool,
) -> Vec<Option<u32>> {
    let n = g.nodes.len();
    let mut dist: Vec<Option<u32>> = vec![None; n];
    let mut left: Vec<u32> = g
        .nodes
        .iter()
        .map(|node| match node {
            Node::Move { children, .. } => {
                children.iter().filter(|&&c| open(c as usize)).count() as u32
            }
            Node::Over(_) => 0,
        })
        .collect();
    let mut queue = std::collections::VecDeque::new();
    for &t in targets {
        dist[t as usize] = Some(0);
        queue.push_back(t);
    }
    while let Some(c) = queue.pop_front() {
        let d = dist[c as usize].unwrap_or(0);
        for &p in &parents[c as usize] {
            let p = p as usize;
            if dist[p].is_some() || !open(p) {
                continue;
            }
            let Node::Move { seat: mover, .. } = g.nodes[p] else {
                continue;
            };
            let take = if mover == seat {
                true
            } else {
                left[p] -= 1;
                left[p] == 0
            };
            if take {
                dist[p] = Some(d + 1);
                queue.push_back(p as u32);
            }
        }
    }
    dist
}

/// The margin bounds one seat can force: for each position, the best margin it can force
/// the game to end with (seat 1 the highest, seat 2 the lowest), by a backward pass for each
/// margin an ended position has (the positions from which the seat can force an end with at
/// least, or at most, that margin).
fn forced_margins(g: &Graph, parents: &[Vec<u32>], seat: usize) -> Vec<Option<i64>> {
    let n = g.nodes.len();
    let mut ends: Vec<i64> = (0..n)
        .filter(|&i| matches!(g.nodes[i], Node::Over(_)))
        .map(|i| g.margins[i])
        .collect();
    ends.sort_unstable();
    ends.dedup();
    // Seat 1 tries the margins from the highest down, seat 2 from the lowest up: the first
    // threshold a position is won at is its bound.
    if seat == 0 {
        ends.reverse();
    }
    let mut bound = vec![None; n];
    for t in ends {
        let good = |m: i64| if seat == 0 { m >= t } else { m <= t };
        let targets: Vec<u32> = (0..n as u32)
            .filter(|&i| {
                matches!(g.nodes[i as usize], Node::Over(_)) && good(g.margins[i as usize])
            })
            .collect();
        let reached = attractor(g, parents, seat, &targets, |_| true);
        for (b, r) in bound.iter_mut().zip(reached) {
            if r.is_some() && b.is_none() {
                *b = Some(t);
            }
        }
    }
    bound
}

/// No value yet, in the retrograde pass.
const OPEN: u8 = u8::MAX;

/// No drawn end forced, in [`Solution::draw_dist`].
const NONE: u32 = u32::MAX;

impl Solution {
    fn of(g: &Graph) -> Self {
        let n = g.nodes.len();
        // Who moves, and the moves back into each position.
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (p, node) in g.nodes.iter().enumerate() {
            if let Node::Move { children, .. } = node {
                for &c in children {
                    parents[c as usize].push(p as u32);
                }
            }
        }
        // Wins and losses, backwards from the won ends, breadth first by plies: a position
        // whose mover has a winning move is a win at one ply more than its fastest; one all of
        // whose moves lose is lost at one ply more than its slowest (the last to be found).
        let mut winner = vec![OPEN; n];
        let mut plies = vec![0u32; n];
        let mut left: Vec<u32> = g
            .nodes
            .iter()
            .map(|node| match node {
                Node::Move { children, .. } => children.len() as u32,
                Node::Over(_) => 0,
            })
            .collect();
        let mut queue = std::collections::VecDeque::new();
        for (i, node) in g.nodes.iter().enumerate() {
            if let Node::Over(Result_::Win(mask)) = node
                && mask.count_ones() == 1
            {
                winner[i] = mask.trailing_zeros() as u8;
                queue.push_back(i as u32);
            }
        }
        while let Some(c) = queue.pop_front() {
            let (w, d) = (winner[c as usize], plies[c as usize]);
            for &p in &parents[c as usize] {
                let p = p as usize;
                if winner[p] != OPEN {
                    continue;
                }
                let Node::Move { seat, .. } = g.nodes[p] else {
                    continue;
                };
                // A move may lead to the same position twice: each counts once as a loss.
                if usize::from(w) == seat {
                    winner[p] = w;
                    plies[p] = d + 1;
                    queue.push_back(p as u32);
                } else {
                    left[p] -= 1;
                    if left[p] == 0 {
                        winner[p] = w;
                        plies[p] = d + 1;
                        queue.push_back(p as u32);
                    }
                }
            }
        }
        // Among the rest, where neither seat can force a win: the drawn ends each seat can
        // force, with the plies to them (the same backward pass, over the positions left).
        let mut draw_by = vec![OPEN; n];
        let mut draw_plies = vec![0u32; n];
        let mut draw_dist = vec![[NONE; 2]; n];
        let drawn: Vec<u32> = (0..n as u32)
            .filter(|&i| {
                matches!(g.nodes[i as usize], Node::Over(Result_::Draw))
                    || matches!(g.nodes[i as usize], Node::Over(Result_::Win(m)) if m.count_ones() > 1)
            })
            .collect();
        for seat in 0..2u8 {
            // Moves into positions a seat wins are never taken by the seat that would lose
            // them; from the positions left, every such move loses for its mover, so only the
            // moves into positions left count.
            let reached = attractor(g, &parents, usize::from(seat), &drawn, |c| {
                winner[c] == OPEN
            });
            for (i, d) in reached.into_iter().enumerate() {
                if let Some(d) = d {
                    draw_dist[i][usize::from(seat)] = d;
                }
                if let Some(d) = d
                    && draw_by[i] == OPEN
                {
                    draw_by[i] = seat;
                    draw_plies[i] = d;
                }
            }
        }
        let values = (0..n)
            .map(|i| {
                if winner[i] != OPEN {
                    Value::Win {
                        seat: usize::from(winner[i]),
                        plies: plies[i],
                    }
                } else if draw_by[i] != OPEN {
                    Value::Draw {
                        seat: usize::from(draw_by[i]),
                        plies: draw_plies[i],
                    }
                } else if matches!(g.nodes[i], Node::Over(_)) {
                    Value::Unfinished
                } else {
                    Value::Endless
                }
            })
            .collect();
        let high = forced_margins(g, &parents, 0);
        let low = forced_margins(g, &parents, 1);
        Solution {
            values,
            draw_dist,
            margins: high.into_iter().zip(low).collect(),
        }
    }

    /// The score margin (seat 1's score less seat 2's) of position `i` under best play for
    /// the margin: `Ok(m)` where seat 1 can force an end with at least `m` and seat 2 one
    /// with at most `m`; otherwise `Err` with what each can force (`None`: it cannot force
    /// the game to end), the rest being play that need not end.
    pub fn margin(&self, i: u32) -> Result<i64, (Option<i64>, Option<i64>)> {
        match self.margins[i as usize] {
            (Some(a), Some(b)) if a == b => Ok(a),
            bounds => Err(bounds),
        }
    }

    /// A position's value.
    pub fn value(&self, i: u32) -> Value {
        self.values[i as usize]
    }

    /// The place, in position `at`'s legal-move order, of the first move that keeps its value
    /// (a win at one ply less, a loss at one ply less, a drawn end one ply nearer for the seat
    /// that forces it, a position where play need not end): the move of best play, which the
    /// principal variation and the `perfect` agent take. `None` where the game is over.
    pub fn best_move(&self, g: &Graph, at: u32) -> Option<usize> {
        let Node::Move { children, .. } = &g.nodes[at as usize] else {
            return None;
        };
        let v = self.value(at);
        let keeps = |c: u32| match (v, self.value(c)) {
            (
                Value::Win { seat: w, plies },
                Value::Win {
                    seat: w2,
                    plies: p2,
                },
            ) => w == w2 && p2 + 1 == plies,
            // One ply nearer the drawn end by the count of the seat that forces it: that
            // seat keeps to it, and the other, which has no move out of it that does not
            // lose, delays it.
            (Value::Draw { seat, plies }, Value::Draw { .. }) => {
                self.draw_dist[c as usize][seat] + 1 == plies
            }
            // Play that need not end goes on, or reaches an end the engine calls unfinished
            // (a game it proved can never end): neither wins.
            (Value::Endless, Value::Endless | Value::Unfinished) => true,
            _ => false,
        };
        children.iter().position(|&c| keeps(c))
    }

    /// For each move of position `at`, in legal-move order, whether it keeps the position's
    /// value for the seat to move: a won position stays won, one neither seat can win
    /// (a draw, or endless play) is not lost. This is the yardstick the agents are rated by:
    /// it asks for the value, not for the fastest way to it. `None` where the game is over.
    pub fn keeping(&self, g: &Graph, at: u32) -> Option<Vec<bool>> {
        let Node::Move { seat, children } = &g.nodes[at as usize] else {
            return None;
        };
        let class = |v: Value| match v {
            Value::Win { seat: w, .. } if w == *seat => 2,
            Value::Win { .. } => 0,
            _ => 1,
        };
        let here = class(self.value(at));
        Some(
            children
                .iter()
                .map(|&c| class(self.value(c)) == here)
                .collect(),
        )
    }

    /// The moves of best play from position `i`, at most `limit` of them: each
    /// [`Solution::best_move`], with the position it leads to; for an endless value, until a
    /// position recurs.
    ///
    /// The moves' texts are found again from each position read back: the graph keeps only
    /// where a move leads, in legal-move order, not what it is called.
    ///
    /// # Errors
    /// A position that does not read back (a bug in the engine's notation).
    pub fn principal_variation<R: Rules>(
        &self,
        rules: &R,
        g: &Graph,
        i: u32,
        limit: usize,
    ) -> Result<Vec<(String, u32)>, SolveError> {
        let mut legal = Vec::new();
        let mut out = Vec::new();
        let mut at = i;
        let mut seen = std::collections::HashSet::new();
        while out.len() < limit {
            let Some(k) = self.best_move(g, at) else {
                break;
            };
            let Node::Move { children, .. } = &g.nodes[at as usize] else {
                break;
            };
            let c = children[k];
            let state = rules
                .parse_position(g.key(at))
                .map_err(|error| SolveError::Notation {
                    key: g.key(at).to_owned(),
                    error,
                })?;
            rules.legal_moves(&state, &mut legal);
            out.push((rules.move_text(legal[k]), c));
            if matches!(self.value(at), Value::Endless) && !seen.insert(c) {
                break;
            }
            at = c;
        }
        Ok(out)
    }
}

impl Graph {
    /// The place in position `a`'s legal-move order of the first move that leads to `b`.
    pub fn move_between(&self, a: u32, b: u32) -> Option<usize> {
        match &self.nodes[a as usize] {
            Node::Move { children, .. } => children.iter().position(|&c| c == b),
            Node::Over(_) => None,
        }
    }
}

impl Solution {
    /// For an endless value: the shortest cycle of value-keeping moves (every position on it
    /// endless, so neither seat can force a win or an end from any) through a position of
    /// `line` (a principal variation's positions, from `i` on): the place in `line` where
    /// it starts (0 for `i` itself) and the positions it goes through, back to that one.
    /// `None` where the value is not endless or no such cycle passes the line.
    pub fn shortest_cycle(&self, g: &Graph, i: u32, line: &[u32]) -> Option<(usize, Vec<u32>)> {
        if self.value(i) != Value::Endless {
            return None;
        }
        let endless = |c: u32| self.value(c) == Value::Endless;
        let mut best: Option<(usize, Vec<u32>)> = None;
        let mut from: Vec<u32> = vec![u32::MAX; g.len()];
        let mut touched = Vec::new();
        for (place, &p) in std::iter::once(&i).chain(line).enumerate() {
            if !endless(p) {
                continue;
            }
            // Breadth first from `p` over endless positions, until `p` is met again or the
            // cycle could no longer be shorter than the best.
            for t in touched.drain(..) {
                from[t as usize] = u32::MAX;
            }
            let mut queue = std::collections::VecDeque::from([(p, 0usize)]);
            let limit = best.as_ref().map_or(usize::MAX, |(_, c)| c.len());
            let mut found = None;
            'search: while let Some((at, depth)) = queue.pop_front() {
                if depth + 1 >= limit {
                    break;
                }
                let Node::Move { children, .. } = &g.nodes[at as usize] else {
                    continue;
                };
                for &c in children {
                    if !endless(c) {
                        continue;
                    }
                    if c == p {
                        found = Some(at);
                        break 'search;
                    }
                    if from[c as usize] == u32::MAX {
                        from[c as usize] = at;
                        touched.push(c);
                        queue.push_back((c, depth + 1));
                    }
                }
            }
            if let Some(last) = found {
                let mut cycle = vec![p];
                let mut at = last;
                while at != p {
                    cycle.push(at);
                    at = from[at as usize];
                }
                cycle[1..].reverse();
                cycle.push(p);
                best = Some((place, cycle));
            }
        }
        best
    }
}

/// The starts of a game from `start`: the position itself, or, where an opening lot decides
/// who begins (a chance step at the start), the position after each outcome, numbered by
/// the seat (from 1) that outcome names to begin.
pub fn starts<R: Rules>(rules: &R, start: &R::State) -> Vec<(Option<u32>, R::State)> {
    match rules.status(start) {
        Status::Chance => (0..rules.chance_outcomes(start).len())
            .map(|k| {
                let mut s = start.clone();
                rules.apply_chance(&mut s, k, &mut crate::games::NoEvents);
                (Some(k as u32 + 1), s)
            })
            .collect(),
        _ => vec![(None, start.clone())],
    }
}

/// A reading solved from its start (every starter of its lot): what the `perfect` agent
/// plays by and the agents are rated against. It is built only where a command or an agent
/// names it, and held in memory, never read from disk.
pub struct Table {
    graph: Graph,
    solution: Solution,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} positions)", self.graph.len())
    }
}

impl Table {
    /// Solves every position reachable from the reading's start.
    ///
    /// # Errors
    /// As [`Graph::build`].
    pub fn of_start<R: Rules>(rules: &R, max_states: usize) -> Result<Self, SolveError> {
        Table::from(rules, &rules.initial(), max_states)
    }

    /// Solves every position reachable from `start` (from each starter, where it is the
    /// opening lot).
    ///
    /// # Errors
    /// As [`Graph::build`].
    pub fn from<R: Rules>(
        rules: &R,
        start: &R::State,
        max_states: usize,
    ) -> Result<Self, SolveError> {
        let starts: Vec<R::State> = starts(rules, start).into_iter().map(|(_, s)| s).collect();
        let graph = Graph::build_all(rules, &starts, max_states)?;
        let solution = graph.solve();
        Ok(Table { graph, solution })
    }

    /// Positions solved.
    pub fn len(&self) -> usize {
        self.graph.len()
    }

    /// Whether no position is solved (never: the start is).
    pub fn is_empty(&self) -> bool {
        self.graph.is_empty()
    }

    /// The index of `state`, where the table holds it.
    pub fn find<R: Rules>(&self, rules: &R, state: &R::State) -> Option<u32> {
        self.graph.find(&key(rules, state))
    }

    /// The move of best play at `state` ([`Solution::best_move`]), by its place in the
    /// legal moves; `None` where the table does not hold the position.
    ///
    /// A position the table holds as over can still be a decision in play: an engine that
    /// proves a game can never end proves it of a position read back at once, and in play
    /// only at its next check. Neither seat wins it whatever is played, so every move keeps
    /// its value, and the first is played.
    pub fn best_move<R: Rules>(&self, rules: &R, state: &R::State) -> Option<usize> {
        let i = self.find(rules, state)?;
        Some(self.solution.best_move(&self.graph, i).unwrap_or(0))
    }

    /// Whether each legal move at `state` keeps its value ([`Solution::keeping`]); `None`
    /// where the table does not hold the position. At a position the table holds as over
    /// (see [`Table::best_move`]) every move does.
    pub fn keeping<R: Rules>(&self, rules: &R, state: &R::State) -> Option<Vec<bool>> {
        let i = self.find(rules, state)?;
        Some(self.solution.keeping(&self.graph, i).unwrap_or_else(|| {
            let mut legal = Vec::new();
            rules.legal_moves(state, &mut legal);
            vec![true; legal.len()]
        }))
    }

    /// The value of `state`, where the table holds it.
    pub fn value<R: Rules>(&self, rules: &R, state: &R::State) -> Option<Value> {
        Some(self.solution.value(self.find(rules, state)?))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_guess_keeps_two_figures() {
        assert_eq!(super::two_figures(24_000_160), 24_000_000);
        assert_eq!(super::two_figures(19_288), 19_000);
        assert_eq!(super::two_figures(86_405), 86_000);
        assert_eq!(super::two_figures(95), 95);
        assert_eq!(super::two_figures(996), 1_000);
    }
}
