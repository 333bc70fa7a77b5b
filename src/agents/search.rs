//! Alpha-beta (`ab:D[:NODES]`) and expectimax (`ex:D[:NODES]`): depth-first search of the
//! engine's tree to `D` decisions, positions left there scored on the family's evaluation
//! ([`Rules::evaluate`], as the root seat's lead over the best opponent).
//!
//! - **Chance steps** (a sowing game's opening lot, the throws of the races) are valued by
//!   the expectation over their outcomes, weighted exactly by [`Rules::chance_outcomes`];
//!   each outcome is searched with the full window, so nothing is pruned across a chance
//!   step. A chance step costs no depth, except one that follows another with no decision
//!   between (a turn ended by a throw, then the next seat's throw), which costs one: so a
//!   search always ends.
//! - **Seats**: the root's seat maximises its lead, every other seat minimises it (the
//!   paranoid reduction: with more than two seats the others play as one opponent).
//! - **Ends**: a game won by the root's seat is worth [`WIN`] plus the depth left (a nearer
//!   win is worth more), one won by another seat the negative, a draw or a game the rules
//!   cannot finish 0. The engine's cap, where the search meets it, ends a game as the rules
//!   say; the search never asks whether one exists.
//! - **Alpha-beta** prunes at decision nodes (fail-soft); **expectimax** searches every
//!   move, the same values by definition, at the cost of every node: it is the plain
//!   reference the alpha-beta agent is tested against, and an agent of its own for the dice
//!   families, where chance steps leave pruning little to do.
//! - **Iterative deepening**: depths 1, 2, …, `D`, each iteration trying the previous one's
//!   best move first. With a node budget, an iteration that would pass it is abandoned and
//!   the last complete one's move played; the first iteration always completes. Nodes are
//!   counted, never time, so a decision is the same on every machine and at any load.
//! - **Move ordering**: the move the table of best moves holds for the position (keyed by
//!   [`Rules::key`], where the engine offers a key; the table only orders, it never stands
//!   for a value, since the engines' states carry history a cheap key leaves out), then the
//!   rest by the evaluation one move ahead (best first for the seat to move), ties in
//!   legal-move order.
//! - **The last decision** before the horizon is searched in legal-move order with each
//!   child made only when its turn comes, so that a cut spares making the rest; above it,
//!   every child is made first, since ordering scores them all. Both give the same values
//!   and count the same nodes.
//! - **Ties** at the root between moves of equal value are drawn uniformly by the
//!   generator handed in (every root move is searched with a window just below the best so
//!   far, so that an equal value is exact): a game is then a function of its seed, and
//!   games from one start differ where moves are alike (deterministic tie-breaking made the
//!   100 games of a seeded pairing the same few games over). One draw is made only when
//!   two moves or more tie. The previous iteration's best, tried first, is the first of its
//!   ties in legal-move order.

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use rand::rngs::ChaCha8Rng;

use super::lead;
use crate::games::{NoEvents, Result_, Rules, Seat, Status};
use crate::rng;

/// The value of a game won by the root's seat, before the depth left is added: above any
/// evaluation's lead.
pub const WIN: f64 = 1e12;

/// The hasher of the table of best moves: the keys are the engines' hashes already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The table of best moves: a position's key to the index of its best move.
type Table = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// The most entries a table may have room for and still be kept for the thread's next
/// decision (a long search's table is let go rather than held for ever).
const TABLE_KEPT: usize = 1 << 16;

thread_local! {
    /// The last finished decision's table, emptied, kept so that the next decision on this
    /// thread starts with room rather than growing a table from nothing: the entries never
    /// carry over, so a decision is the same whichever thread makes it.
    static SPARE_TABLE: Cell<Option<Table>> = const { Cell::new(None) };
}

/// One decision's search.
pub struct Searcher<'r, R: Rules> {
    rules: &'r R,
    /// The seat whose lead is maximised.
    root: Seat,
    /// Alpha-beta (prune) or expectimax (search every move).
    prune: bool,
    /// Nodes visited so far in this decision.
    nodes: u64,
    /// The most nodes the current iteration may reach.
    budget: u64,
    /// The current iteration passed its budget.
    aborted: bool,
    /// Best move (index in the legal moves) by position key: ordering only.
    table: Table,
    /// Move lists, reused.
    pool: Vec<Vec<R::Move>>,
    /// Lists of children, reused (a node's list lives while its children are searched, so
    /// one a level).
    kids: Vec<Vec<R::State>>,
    /// Search orders, reused as the lists of children are.
    orders: Vec<Vec<usize>>,
    /// The children's scores while an order is worked out, reused.
    scores: Vec<f64>,
    /// Whether moves are ordered (the table, the last iteration's best, the evaluation):
    /// always, but for the tests that hold the values equal without it.
    ordering: bool,
}

impl<'r, R: Rules> Searcher<'r, R> {
    /// A search for `root`, the seat to move at the root: alpha-beta where `prune`, else
    /// expectimax.
    pub fn new(rules: &'r R, root: Seat, prune: bool) -> Self {
        Searcher {
            rules,
            root,
            prune,
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
            table: SPARE_TABLE
                .try_with(Cell::take)
                .ok()
                .flatten()
                .unwrap_or_default(),
            pool: Vec::new(),
            kids: Vec::new(),
            orders: Vec::new(),
            scores: Vec::new(),
            ordering: true,
        }
    }

    /// The same search with moves taken in legal-move order at every node and no table of
    /// best moves: the values are the same, only the nodes visited differ.
    pub fn unordered(mut self) -> Self {
        self.ordering = false;
        self
    }

    /// Nodes visited so far (every position the search reached, the root's children
    /// included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The index in `legal` (the root's legal moves, not empty) of the move to play after
    /// iterative deepening to `depth` (at least 1), within `budget` nodes (none: no budget),
    /// and its value for the root's seat. Moves of equal value share it: one is drawn
    /// uniformly by `rng` (nothing is drawn when one move is best).
    pub fn decide(
        &mut self,
        state: &R::State,
        legal: &[R::Move],
        depth: u32,
        budget: Option<u32>,
        rng: &mut ChaCha8Rng,
    ) -> (usize, f64) {
        let mut best = (vec![0], 0.0);
        let mut previous = None;
        for d in 1..=depth {
            self.budget = match (d, budget) {
                (1, _) | (_, None) => u64::MAX,
                (_, Some(b)) => u64::from(b),
            };
            self.aborted = false;
            match self.root(state, legal, d, previous) {
                Some(found) => {
                    previous = Some(found.0[0]);
                    best = found;
                }
                None => break,
            }
        }
        let (ties, value) = best;
        let index = match ties.len() {
            1 => ties[0],
            n => ties[rng::draw(rng, n as u32) as usize],
        };
        (index, value)
    }

    /// One iteration at the root: the moves of the best value (in legal-move order) and
    /// that value, or `None` if the budget ran out.
    fn root(
        &mut self,
        state: &R::State,
        legal: &[R::Move],
        depth: u32,
        first: Option<usize>,
    ) -> Option<(Vec<usize>, f64)> {
        let children = self.children(state, legal);
        let order = self.order(&children, self.root, first);
        let mut best = f64::NEG_INFINITY;
        let mut ties: Vec<usize> = Vec::new();
        for &i in &order {
            // A move must only equal the best so far to join it: searched with a window
            // just below the best, an equal value is exact.
            let v = self.value(
                &children[i],
                depth - 1,
                best.next_down(),
                f64::INFINITY,
                false,
            );
            if self.aborted {
                self.recycle(children, order);
                return None;
            }
            if v > best {
                best = v;
                ties.clear();
                ties.push(i);
            } else if v == best {
                ties.push(i);
            }
        }
        self.recycle(children, order);
        ties.sort_unstable();
        Some((ties, best))
    }

    /// The positions after each of `moves`, in a list from the pool ([`Self::recycle`]
    /// returns it).
    fn children(&mut self, state: &R::State, moves: &[R::Move]) -> Vec<R::State> {
        let rules = self.rules;
        let mut kids = self.kids.pop().unwrap_or_default();
        kids.extend(moves.iter().map(|&mv| {
            let mut next = state.clone();
            rules.apply(&mut next, mv, &mut NoEvents);
            next
        }));
        kids
    }

    /// Returns a node's list of children and its order to the pools, emptied.
    fn recycle(&mut self, mut kids: Vec<R::State>, mut order: Vec<usize>) {
        kids.clear();
        self.kids.push(kids);
        order.clear();
        self.orders.push(order);
    }

    /// The order to search `children` in for `seat`: `first` (the table's or the last
    /// iteration's best), then by the evaluation one move ahead, best first for `seat`
    /// (the root's seat maximises, any other minimises), ties in legal-move order. The
    /// list is from the pool ([`Self::recycle`] returns it).
    fn order(&mut self, children: &[R::State], seat: Seat, first: Option<usize>) -> Vec<usize> {
        let mut order = self.orders.pop().unwrap_or_default();
        order.extend(0..children.len());
        if !self.ordering {
            return order;
        }
        let mut score = std::mem::take(&mut self.scores);
        score.clear();
        score.extend(children.iter().map(|c| self.leaf(c)));
        // Ties fall back on legal-move order explicitly, which makes the unstable sort (it
        // needs no buffer) give the stable sort's order.
        if seat == self.root {
            order.sort_unstable_by(|&a, &b| score[b].total_cmp(&score[a]).then(a.cmp(&b)));
        } else {
            order.sort_unstable_by(|&a, &b| score[a].total_cmp(&score[b]).then(a.cmp(&b)));
        }
        self.scores = score;
        if let Some(f) = first.filter(|&f| f < children.len())
            && let Some(at) = order.iter().position(|&i| i == f)
        {
            order[..=at].rotate_right(1);
        }
        order
    }

    /// The root's lead in an unsearched position (an unfinished game), or the value of a
    /// finished one with no depth left.
    fn leaf(&self, state: &R::State) -> f64 {
        match self.rules.status(state) {
            Status::Over => self.terminal(state, 0),
            _ => lead(self.rules, state, self.root) as f64,
        }
    }

    /// The value of a finished game, `depth` decisions before the search's horizon.
    fn terminal(&self, state: &R::State, depth: u32) -> f64 {
        match self.rules.outcome(state).map(|o| o.result) {
            Some(Result_::Win(mask)) if mask & (1 << self.root) != 0 => WIN + f64::from(depth),
            Some(Result_::Win(_)) => -(WIN + f64::from(depth)),
            _ => 0.0,
        }
    }

    /// The value of `state` for the root's seat, searched `depth` decisions deep within the
    /// window `(alpha, beta)` (alpha-beta; expectimax ignores it). `after_chance`: the
    /// position follows a chance step with no decision between.
    fn value(
        &mut self,
        state: &R::State,
        depth: u32,
        alpha: f64,
        beta: f64,
        after_chance: bool,
    ) -> f64 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return 0.0;
        }
        let rules = self.rules;
        match rules.status(state) {
            Status::Over => self.terminal(state, depth),
            Status::Chance => {
                // A chance step after a chance step costs a unit of depth.
                let depth = if after_chance {
                    match depth.checked_sub(1) {
                        Some(d) => d,
                        None => return self.leaf(state),
                    }
                } else {
                    depth
                };
                let weights = rules.chance_outcomes(state);
                let mut sum = 0.0;
                let mut total = 0u64;
                for (k, &w) in weights.iter().enumerate() {
                    if w == 0 {
                        continue;
                    }
                    let mut next = state.clone();
                    rules.apply_chance(&mut next, k, &mut NoEvents);
                    let v = self.value(&next, depth, f64::NEG_INFINITY, f64::INFINITY, true);
                    if self.aborted {
                        return 0.0;
                    }
                    sum += f64::from(w) * v;
                    total += u64::from(w);
                }
                sum / total.max(1) as f64
            }
            Status::ToMove(seat) => {
                if depth == 0 {
                    return self.leaf(state);
                }
                let mut moves = self.pool.pop().unwrap_or_default();
                rules.legal_moves(state, &mut moves);
                let key = rules.key(state);
                let mut node = Node::new(seat == self.root, alpha, beta);
                if depth == 1 {
                    // The children of a node one decision above the horizon are searched in
                    // legal-move order (no ordering pays at the last decision), so each is
                    // made only when its turn comes and a cut spares making the rest: the
                    // same values and the same nodes counted as making them all first, at
                    // a fraction of the moves applied (most such nodes are cut early).
                    for (i, &mv) in moves.iter().enumerate() {
                        let mut next = state.clone();
                        rules.apply(&mut next, mv, &mut NoEvents);
                        let v = self.value(&next, 0, node.alpha, node.beta, false);
                        if self.aborted {
                            self.pool.push(moves);
                            return 0.0;
                        }
                        if node.take(i, v, self.prune) {
                            break;
                        }
                    }
                    self.pool.push(moves);
                } else {
                    let children = self.children(state, &moves);
                    self.pool.push(moves);
                    let hint = key.and_then(|k| self.table.get(&k)).map(|&i| i as usize);
                    let order = self.order(&children, seat, hint);
                    for &i in &order {
                        let v = self.value(&children[i], depth - 1, node.alpha, node.beta, false);
                        if self.aborted {
                            self.recycle(children, order);
                            return 0.0;
                        }
                        if node.take(i, v, self.prune) {
                            break;
                        }
                    }
                    self.recycle(children, order);
                }
                let (best, best_i) = (node.best, node.best_i);
                if let Some(k) = key.filter(|_| self.ordering) {
                    self.table.insert(k, best_i as u32);
                }
                best
            }
        }
    }
}

impl<R: Rules> Drop for Searcher<'_, R> {
    /// Leaves the table, emptied, for the thread's next decision, unless it grew past
    /// `TABLE_KEPT`.
    fn drop(&mut self) {
        if self.table.capacity() <= TABLE_KEPT {
            let mut table = std::mem::take(&mut self.table);
            table.clear();
            // A thread being torn down has no spare to keep.
            let _ = SPARE_TABLE.try_with(|spare| spare.set(Some(table)));
        }
    }
}

/// A decision node's search so far: its best value and move, and its window.
struct Node {
    /// The root's seat moves here (maximises its lead); else the node minimises it.
    maximise: bool,
    best: f64,
    best_i: usize,
    alpha: f64,
    beta: f64,
}

impl Node {
    fn new(maximise: bool, alpha: f64, beta: f64) -> Self {
        let best = if maximise {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        Node {
            maximise,
            best,
            best_i: 0,
            alpha,
            beta,
        }
    }

    /// Takes child `i`'s value `v`; whether the rest may be cut (alpha-beta only).
    fn take(&mut self, i: usize, v: f64, prune: bool) -> bool {
        if self.maximise {
            if v > self.best {
                self.best = v;
                self.best_i = i;
            }
            if prune {
                self.alpha = self.alpha.max(v);
            }
        } else {
            if v < self.best {
                self.best = v;
                self.best_i = i;
            }
            if prune {
                self.beta = self.beta.min(v);
            }
        }
        prune && self.alpha >= self.beta
    }
}

#[cfg(test)]
mod tests {
    //! A toy game of a few fixed positions, whose values are worked out by hand.

    use super::*;
    use crate::games::core::{Clock, Limit};
    use crate::games::custodial::CustodialEvent;
    use crate::games::{EventSink, Outcome};

    /// Positions by number: 0 the root (seat 0 chooses 1 or 2); 1 a chance step to 3 or 4;
    /// 3, 4 and 2 seat 1's choices between two ends; 5 to 10 ends (seat 0 to move, one move
    /// that stays), worth `WORTH` to seat 0.
    const NEXT: [&[u8]; 11] = [
        &[1, 2],
        &[],
        &[9, 10],
        &[5, 6],
        &[7, 8],
        &[5],
        &[6],
        &[7],
        &[8],
        &[9],
        &[10],
    ];
    const WORTH: [i64; 11] = [0, 0, 0, 0, 0, 10, 4, 1, 2, 3, 2];

    struct Toy {
        weights: &'static [u32],
    }

    #[derive(Debug, Clone)]
    struct ToyState {
        at: u8,
        clock: Clock,
    }

    impl Rules for Toy {
        type State = ToyState;
        type Move = u8;
        type Event = CustodialEvent;

        fn initial(&self) -> ToyState {
            ToyState {
                at: 0,
                clock: Clock::new(),
            }
        }
        fn reset(&self, s: &mut ToyState, _: &mut impl EventSink<CustodialEvent>) {
            *s = self.initial();
        }
        fn status(&self, s: &ToyState) -> Status {
            match s.at {
                1 => Status::Chance,
                2..=4 => Status::ToMove(1),
                _ => Status::ToMove(0),
            }
        }
        fn legal_moves(&self, s: &ToyState, out: &mut Vec<u8>) {
            out.clear();
            out.extend_from_slice(NEXT[usize::from(s.at)]);
        }
        fn apply(&self, s: &mut ToyState, mv: u8, _: &mut impl EventSink<CustodialEvent>) {
            s.at = mv;
        }
        fn chance_outcomes(&self, s: &ToyState) -> &'static [u32] {
            if s.at == 1 { self.weights } else { &[] }
        }
        fn apply_chance(&self, s: &mut ToyState, k: usize, _: &mut impl EventSink<CustodialEvent>) {
            s.at = 3 + k as u8;
        }
        fn outcome(&self, _: &ToyState) -> Option<Outcome> {
            None
        }
        fn clock<'s>(&self, s: &'s ToyState) -> &'s Clock {
            &s.clock
        }
        fn limit(&self) -> Limit {
            Limit::new(None).expect("no cap")
        }
        fn is_pass(&self, _: u8) -> bool {
            false
        }
        fn material(&self, s: &ToyState, seat: Seat) -> i64 {
            if seat == 0 {
                WORTH[usize::from(s.at)]
            } else {
                0
            }
        }
        fn state_text(&self, s: &ToyState) -> String {
            s.at.to_string()
        }
        fn chance_text(&self, _: &ToyState, k: usize) -> String {
            format!("outcome {k}")
        }
        fn board(&self, s: &ToyState) -> crate::games::view::BoardView {
            crate::games::view::BoardView {
                rows: vec![],
                notes: vec![("at".to_owned(), s.at.to_string())],
            }
        }
        fn move_params(&self, _: u8) -> &'static [&'static str] {
            &["toy"]
        }
        fn position_text(&self, s: &ToyState) -> String {
            format!("at={}", s.at)
        }
        fn parse_position(
            &self,
            text: &str,
        ) -> Result<ToyState, crate::games::position::PositionError> {
            let f = crate::games::position::Fields::parse(text, TOY_FIELDS)?;
            let at = f.required("at")?;
            Ok(ToyState {
                at: at.number::<u8>()?.min(10),
                clock: f.clock(2)?,
            })
        }
        fn position_fields(&self) -> &'static [crate::games::position::FieldSpec] {
            TOY_FIELDS
        }
        fn position_decides(&self) -> Result<(), String> {
            Ok(())
        }
    }

    const TOY_FIELDS: &[crate::games::position::FieldSpec] = &[crate::games::position::FieldSpec {
        key: "at",
        form: "the position's number, 0 to 10 (at=3)",
        required: true,
    }];

    fn search(weights: &'static [u32], prune: bool, depth: u32) -> (usize, f64) {
        let toy = Toy { weights };
        let root = toy.initial();
        let mut rng = rng::game_rng(1, 0, 0);
        Searcher::new(&toy, 0, prune).decide(&root, &[1, 2], depth, None, &mut rng)
    }

    /// Weights 1 and 3: move 1 is worth (1 × min(10, 4) + 3 × min(1, 2)) / 4 = 7/4, move 2
    /// min(3, 2) = 2, so move 2 (index 1) is played; weights 3 and 1 make move 1 worth
    /// (3 × 4 + 1 × 1) / 4 = 13/4, and it is played.
    #[test]
    fn chance_steps_are_weighted_exactly() {
        for prune in [false, true] {
            assert_eq!(search(&[1, 3], prune, 2), (1, 2.0));
            assert_eq!(search(&[3, 1], prune, 2), (0, 3.25));
        }
        // One ply deep the ends are not reached: seat 1's positions are worth 0 to seat 0,
        // the two moves tie, and the generator draws one.
        assert_eq!(search(&[1, 3], true, 1).1, 0.0);
    }

    /// A node budget stops the deepening after the first iteration, which always completes.
    #[test]
    fn a_budget_keeps_the_last_complete_iteration() {
        let toy = Toy { weights: &[3, 1] };
        let root = toy.initial();
        let mut rng = rng::game_rng(1, 0, 0);
        let mut s = Searcher::new(&toy, 0, true);
        assert_eq!(s.decide(&root, &[1, 2], 2, Some(1), &mut rng).1, 0.0);
        let mut s = Searcher::new(&toy, 0, true);
        assert_eq!(s.decide(&root, &[1, 2], 2, Some(1000), &mut rng), (0, 3.25));
        assert!(s.nodes() > 2, "{}", s.nodes());
    }
}
