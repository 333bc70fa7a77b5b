//! What `assess` measures of each game played, and its sums over games.
//!
//! A [`GameObserver`] looks at the start position and at the position after every decision
//! of one game (the legal moves there, each seat's evaluation, the position's key, the sites
//! occupied) and keeps running figures only (sums, new highs), so that its memory grows with
//! the game only by the set of positions met; at the end it gives the game's
//! [`GameMetrics`], each a value in fixed point
//! ([`UNIT`]) or none where the game cannot say (drama in a game nobody won). A
//! [`MetricTally`] sums them over games as integers (count, sum, sum of squares), so that
//! blocks merged in game order give the same figures whoever played them, and keeps the
//! turns of the games a limit stopped or that never end, for a censoring-aware length in
//! turns.
//!
//! The definitions follow Ludii's Evaluation module where it has one (anchors: its
//! `DecisionMoves`, `BranchingFactor`, `LeadChange`, `Drama`, `DecisivenessMoves`,
//! `Stability`, `PositionalRepetition`, `BoardCoverageDefault`), on the family's own
//! evaluation ([`Rules::evaluate`], the one the search agents score by) rather than Ludii's
//! 0.1-second UCT estimate, and with real division where Ludii divides two integers. The
//! guide (`guide/assess.md`) states each one and where it differs.

use std::collections::HashSet;

use crate::games::{Rules, Seat, Sites};
use crate::stats::Histogram;

/// The fixed point of a game's value: one unit is a millionth.
pub const UNIT: f64 = 1e6;

/// What is measured of each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// The share of decisions with more than one legal move.
    DecisionShare,
    /// The mean number of legal moves at a decision.
    Branching,
    /// The share of decisions after which the set of leading seats changed.
    LeadChanges,
    /// In a game with one winner: the share of decisions after which the winner was behind
    /// (not among the leading seats).
    Drama,
    /// In a game with one winner: the share of the game's decisions made before the winner's
    /// lead first exceeded the largest lead any other seat ever held.
    Decisiveness,
    /// The variance of each seat's lead over the game, as a share of the square of the
    /// largest lead or deficit any seat had, averaged over the seats.
    Stability,
    /// The share of positions after a decision that had been met before in the game.
    Repetition,
    /// The share of the board's sites occupied at some point of the game.
    Coverage,
}

/// Every measure, in the order they are kept and printed.
pub const MEASURES: [Measure; 8] = [
    Measure::DecisionShare,
    Measure::Branching,
    Measure::LeadChanges,
    Measure::Drama,
    Measure::Decisiveness,
    Measure::Stability,
    Measure::Repetition,
    Measure::Coverage,
];

impl Measure {
    /// Its index in [`MEASURES`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// A stable name.
    pub fn name(self) -> &'static str {
        match self {
            Measure::DecisionShare => "decision-share",
            Measure::Branching => "branching",
            Measure::LeadChanges => "lead-changes",
            Measure::Drama => "drama",
            Measure::Decisiveness => "decisiveness",
            Measure::Stability => "stability",
            Measure::Repetition => "repetition",
            Measure::Coverage => "coverage",
        }
    }

    /// Whether it is read from the family's evaluation (and says nothing where the
    /// evaluation never moves).
    pub fn uses_evaluation(self) -> bool {
        matches!(
            self,
            Measure::LeadChanges | Measure::Drama | Measure::Decisiveness | Measure::Stability
        )
    }
}

/// One game's values by [`Measure`] index, in [`UNIT`]s; none where the game cannot say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameMetrics {
    /// By measure index.
    pub values: [Option<u64>; MEASURES.len()],
    /// Whether any seat's lead was ever other than nothing (the evaluation moved).
    pub evaluation_moved: bool,
    /// Whether every site of the board was occupied at the start.
    pub covered_at_start: bool,
}

impl GameMetrics {
    /// The value of a measure, as a number.
    pub fn value(&self, m: Measure) -> Option<f64> {
        self.values[m.index()].map(|v| v as f64 / UNIT)
    }
}

fn fixed(x: f64) -> u64 {
    debug_assert!(x >= 0.0 && x.is_finite());
    (x * UNIT).round() as u64
}

/// The running figures of one game, fed a position at a time: the start
/// ([`GameObserver::start`]) and after each decision ([`GameObserver::decision`]).
#[derive(Debug, Clone)]
pub struct GameObserver {
    seats: usize,
    sites: usize,
    decisions: u32,
    choices: u32,
    legal: u64,
    /// Positions after a decision.
    rows: u32,
    /// The seats leading at the last position, as bits.
    leaders: u8,
    lead_changes: u32,
    /// By seat: positions after a decision at which it was not among the leaders.
    behind: [u32; 8],
    /// By seat: the sum of its lead over every position looked at (the start included),
    /// and of its square.
    sum: [i128; 8],
    squares: [i128; 8],
    /// The positions looked at, the start included.
    looked: u32,
    /// The largest lead (or deficit) anyone had.
    max_abs: i64,
    /// By seat: the positions at which its lead reached a new high, with that lead (the
    /// start first): the first position at which it exceeds any bound is the first entry
    /// above it.
    highs: [Vec<(u32, i64)>; 8],
    keyed: bool,
    seen: HashSet<u64>,
    repeats: u32,
    covered: Sites,
    covered_at_start: bool,
}

impl GameObserver {
    /// An observer for games of `seats` seats on a board of `sites` sites (0: not said).
    ///
    /// # Panics
    /// If `seats` is not 1 to 8.
    pub fn new(seats: usize, sites: usize) -> Self {
        assert!((1..=8).contains(&seats), "1 to 8 seats");
        GameObserver {
            seats,
            sites,
            decisions: 0,
            choices: 0,
            legal: 0,
            rows: 0,
            leaders: 0,
            lead_changes: 0,
            behind: [0; 8],
            sum: [0; 8],
            squares: [0; 8],
            looked: 0,
            max_abs: 0,
            highs: Default::default(),
            keyed: false,
            seen: HashSet::new(),
            repeats: 0,
            covered: [0; 2],
            covered_at_start: false,
        }
    }

    /// Begins a game at its start position: each seat's evaluation, the position's key
    /// (none where the engine gives none) and the sites occupied.
    pub fn start(&mut self, evals: &[i64], key: Option<u64>, occupied: Sites) {
        debug_assert_eq!(evals.len(), self.seats);
        self.decisions = 0;
        self.choices = 0;
        self.legal = 0;
        self.rows = 0;
        self.lead_changes = 0;
        self.behind = [0; 8];
        self.sum = [0; 8];
        self.squares = [0; 8];
        self.looked = 0;
        self.max_abs = 0;
        for h in &mut self.highs {
            h.clear();
        }
        self.seen.clear();
        self.repeats = 0;
        self.keyed = key.is_some();
        if let Some(k) = key {
            self.seen.insert(k);
        }
        self.covered = occupied;
        self.covered_at_start = self.sites > 0 && count(occupied) == self.sites;
        self.leaders = self.look(evals);
    }

    /// The position after a decision among `legal` moves.
    pub fn decision(&mut self, legal: usize, evals: &[i64], key: Option<u64>, occupied: Sites) {
        self.decisions += 1;
        self.choices += u32::from(legal > 1);
        self.legal += legal as u64;
        self.rows += 1;
        let leaders = self.look(evals);
        if leaders != self.leaders {
            self.lead_changes += 1;
        }
        self.leaders = leaders;
        for seat in 0..self.seats {
            if leaders & (1 << seat) == 0 {
                self.behind[seat] += 1;
            }
        }
        if let Some(k) = key
            && !self.seen.insert(k)
        {
            self.repeats += 1;
        }
        self.covered[0] |= occupied[0];
        self.covered[1] |= occupied[1];
    }

    /// Each seat's lead at a position: its evaluation less the best of the others'. Returns
    /// the leading seats (those whose lead is not below nothing) as bits.
    fn look(&mut self, evals: &[i64]) -> u8 {
        let row = self.looked;
        self.looked += 1;
        let mut leaders = 0u8;
        for seat in 0..self.seats {
            let best_other = (0..self.seats)
                .filter(|&o| o != seat)
                .map(|o| evals[o])
                .max();
            let lead = best_other.map_or(0, |b| evals[seat] - b);
            if lead >= 0 {
                leaders |= 1 << seat;
            }
            self.sum[seat] += i128::from(lead);
            self.squares[seat] += i128::from(lead) * i128::from(lead);
            self.max_abs = self.max_abs.max(lead.abs());
            if self.highs[seat].last().is_none_or(|&(_, h)| lead > h) {
                self.highs[seat].push((row, lead));
            }
        }
        leaders
    }

    /// The game's values, given its one winner, if it had one.
    pub fn finish(&self, winner: Option<Seat>) -> GameMetrics {
        let mut values = [None; MEASURES.len()];
        let mut set = |m: Measure, x: Option<f64>| values[m.index()] = x.map(fixed);
        let d = f64::from(self.decisions);
        let decided = self.decisions > 0;
        set(
            Measure::DecisionShare,
            decided.then(|| f64::from(self.choices) / d),
        );
        set(Measure::Branching, decided.then(|| self.legal as f64 / d));
        set(
            Measure::LeadChanges,
            decided.then(|| f64::from(self.lead_changes) / d),
        );
        let won = winner.filter(|&w| w < self.seats && decided);
        set(Measure::Drama, won.map(|w| f64::from(self.behind[w]) / d));
        set(
            Measure::Decisiveness,
            won.map(|w| {
                // The largest lead any other seat ever held; the winner's first position
                // above it (none: the evaluation never saw the winner clear of it).
                let bound = (0..self.seats)
                    .filter(|&o| o != w)
                    .filter_map(|o| self.highs[o].last().map(|&(_, h)| h))
                    .max()
                    .unwrap_or(0);
                let first = self.highs[w]
                    .iter()
                    .find(|&&(_, lead)| lead > bound)
                    .map_or(self.decisions, |&(row, _)| row);
                f64::from(first) / d
            }),
        );
        set(
            Measure::Stability,
            decided.then(|| {
                if self.max_abs == 0 {
                    return 0.0;
                }
                let n = f64::from(self.looked);
                let scale = self.max_abs as f64 * self.max_abs as f64;
                let mut total = 0.0;
                for seat in 0..self.seats {
                    let mean = self.sum[seat] as f64 / n;
                    let var = (self.squares[seat] as f64 / n - mean * mean).max(0.0);
                    total += var / scale;
                }
                total / self.seats as f64
            }),
        );
        set(
            Measure::Repetition,
            (decided && self.keyed).then(|| f64::from(self.repeats) / d),
        );
        set(
            Measure::Coverage,
            (self.sites > 0).then(|| count(self.covered) as f64 / self.sites as f64),
        );
        GameMetrics {
            values,
            evaluation_moved: self.max_abs > 0,
            covered_at_start: self.covered_at_start,
        }
    }
}

fn count(s: Sites) -> usize {
    (s[0].count_ones() + s[1].count_ones()) as usize
}

/// Looks at a position of `rules` for an observer: each seat's evaluation, the position's
/// key and the sites occupied.
pub(super) fn look_at<R: Rules>(
    rules: &R,
    state: &R::State,
    evals: &mut [i64; 8],
) -> (usize, Option<u64>, Sites) {
    let seats = rules.seats();
    for (seat, e) in evals.iter_mut().enumerate().take(seats) {
        *e = rules.evaluate(state, seat);
    }
    (seats, rules.position_key(state), rules.occupied(state))
}

/// A measure summed over games in [`UNIT`]s: integer sums, so that any grouping of the
/// games adds up to the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Moments {
    /// Games measured.
    pub n: u64,
    /// The sum of their values.
    pub sum: u128,
    /// The sum of their squares.
    pub squares: u128,
}

impl Moments {
    fn add(&mut self, v: u64) {
        self.n += 1;
        self.sum += u128::from(v);
        self.squares += u128::from(v) * u128::from(v);
    }

    fn combine(&mut self, o: &Moments, add: bool) {
        if add {
            self.n += o.n;
            self.sum += o.sum;
            self.squares += o.squares;
        } else {
            const PART: &str = "a tally removes only a part of it";
            self.n = self.n.checked_sub(o.n).expect(PART);
            self.sum = self.sum.checked_sub(o.sum).expect(PART);
            self.squares = self.squares.checked_sub(o.squares).expect(PART);
        }
    }

    /// The mean over the games measured, with a 95 % interval: Student's t interval of the
    /// mean of the per-game values, mean ± t(n−1) s/√n ([`t95`]), kept inside `[lo, hi]`;
    /// none where no game was measured, and no interval from one game (one game bounds
    /// nothing). Every game giving the same value gives an interval of no width: the games
    /// show no spread, which says nothing of games not played.
    pub fn mean(&self, (lo, hi): (f64, f64)) -> Option<(f64, Option<f64>, Option<f64>)> {
        if self.n == 0 {
            return None;
        }
        let n = self.n as f64;
        let sum = self.sum as f64 / UNIT;
        let squares = self.squares as f64 / (UNIT * UNIT);
        let mean = sum / n;
        if self.n == 1 {
            return Some((mean, None, None));
        }
        let var = ((squares - sum * sum / n) / (n - 1.0)).max(0.0);
        let half = t95(self.n - 1) * (var / n).sqrt();
        Some((
            mean,
            Some((mean - half).max(lo)),
            Some((mean + half).min(hi)),
        ))
    }
}

/// The two-sided 95 % quantile of Student's t with `df` degrees of freedom: tabulated to 30,
/// then the value of the table's row at or below `df` (30, 40, 60, 120), so that between rows
/// the interval errs wide; 1.96 from 1 000 on.
pub fn t95(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        31..=39 => 2.042,
        40..=59 => 2.021,
        60..=119 => 2.000,
        120..=999 => 1.980,
        _ => 1.960,
    }
}

/// What a run's games measured ([`GameMetrics`] summed), when `assess` asked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MetricTally {
    /// Games measured.
    pub games: u64,
    /// By [`Measure`] index.
    pub moments: Vec<Moments>,
    /// Games in which some seat's lead was ever other than nothing.
    pub evaluation_moved: u64,
    /// Games whose every site was occupied at the start.
    pub covered_at_start: u64,
    /// Turns of the games a limit stopped (censored).
    pub censored_turns: Histogram,
    /// Turns of the games found never to end.
    pub endless_turns: Histogram,
}

impl MetricTally {
    /// An empty tally of a measured run (its measures present, with no game yet), as
    /// distinct from an unmeasured run's default.
    pub fn measured() -> Self {
        MetricTally {
            moments: vec![Moments::default(); MEASURES.len()],
            ..MetricTally::default()
        }
    }

    /// Counts one game.
    pub(super) fn add(&mut self, g: &GameMetrics) {
        if self.moments.is_empty() {
            self.moments = vec![Moments::default(); MEASURES.len()];
        }
        self.games += 1;
        for (m, v) in self.moments.iter_mut().zip(g.values) {
            if let Some(v) = v {
                m.add(v);
            }
        }
        self.evaluation_moved += u64::from(g.evaluation_moved);
        self.covered_at_start += u64::from(g.covered_at_start);
    }

    /// Adds (or takes out) another tally's games.
    pub(super) fn combine(&mut self, o: &MetricTally, add: bool) {
        if o.games == 0 && o.censored_turns.n() == 0 && o.endless_turns.n() == 0 {
            return;
        }
        if self.moments.is_empty() {
            self.moments = vec![Moments::default(); MEASURES.len()];
        }
        for (m, x) in self.moments.iter_mut().zip(&o.moments) {
            m.combine(x, add);
        }
        if add {
            self.games += o.games;
            self.evaluation_moved += o.evaluation_moved;
            self.covered_at_start += o.covered_at_start;
            self.censored_turns.merge(&o.censored_turns);
            self.endless_turns.merge(&o.endless_turns);
        } else {
            const PART: &str = "a tally removes only a part of it";
            self.games = self.games.checked_sub(o.games).expect(PART);
            self.evaluation_moved = self
                .evaluation_moved
                .checked_sub(o.evaluation_moved)
                .expect(PART);
            self.covered_at_start = self
                .covered_at_start
                .checked_sub(o.covered_at_start)
                .expect(PART);
            self.censored_turns.remove(&o.censored_turns);
            self.endless_turns.remove(&o.endless_turns);
        }
    }

    /// A measure's sums (empty where nothing was measured).
    pub fn moments(&self, m: Measure) -> Moments {
        self.moments.get(m.index()).copied().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(g: &GameMetrics, m: Measure) -> Option<f64> {
        g.value(m)
    }

    /// A two-seat game of four decisions, worked out by hand. Evaluations (seat 0, seat 1):
    /// start (0, 0), then (1, 0), (1, 2), (3, 2), (3, 3); legal moves 3, 1, 2, 2; keys
    /// a, b, c, b, a (two positions met again); sites 4, occupied {0,1}, {0,2}, {2}, {3},
    /// {3}.
    fn four_decisions() -> GameObserver {
        let mut o = GameObserver::new(2, 4);
        o.start(&[0, 0], Some(1), [0b0011, 0]);
        o.decision(3, &[1, 0], Some(2), [0b0101, 0]);
        o.decision(1, &[1, 2], Some(3), [0b0100, 0]);
        o.decision(2, &[3, 2], Some(2), [0b1000, 0]);
        o.decision(2, &[3, 3], Some(1), [0b1000, 0]);
        o
    }

    #[test]
    fn a_hand_worked_game_gives_its_values() {
        let o = four_decisions();
        let g = o.finish(Some(0));
        // Decisions with a choice: 3 of 4; legal moves 8 over 4 decisions.
        assert_eq!(val(&g, Measure::DecisionShare), Some(0.75));
        assert_eq!(val(&g, Measure::Branching), Some(2.0));
        // Leaders: start {0,1}; then {0}, {1}, {0}, {0,1}: four changes in four decisions.
        assert_eq!(val(&g, Measure::LeadChanges), Some(1.0));
        // Seat 0 was behind after the second decision only: 1 of 4.
        assert_eq!(val(&g, Measure::Drama), Some(0.25));
        // Seat 1's highest lead was 1 (after the second decision); seat 0's leads were 0,
        // 1, -1, 1, 0: never above 1, so the whole game passed: 4 of 4.
        assert_eq!(val(&g, Measure::Decisiveness), Some(1.0));
        // Seat 0's leads 0, 1, -1, 1, 0: mean 0.2, variance (0+1+1+1+0)/5 - 0.04 = 0.56;
        // seat 1's are the negatives, the same variance; the largest |lead| is 1.
        assert_eq!(val(&g, Measure::Stability), Some(0.56));
        // Keys b (decision 3) and a (decision 4) were met before: 2 of 4.
        assert_eq!(val(&g, Measure::Repetition), Some(0.5));
        // Sites 0, 1, 2, 3 all occupied at some point.
        assert_eq!(val(&g, Measure::Coverage), Some(1.0));
        assert!(g.evaluation_moved);
        assert!(!g.covered_at_start);
    }

    #[test]
    fn drama_and_decisiveness_need_one_winner() {
        let g = four_decisions().finish(None);
        assert_eq!(val(&g, Measure::Drama), None);
        assert_eq!(val(&g, Measure::Decisiveness), None);
        assert_eq!(val(&g, Measure::DecisionShare), Some(0.75));
        // Seat 1 won instead: behind after the first and third decisions (2 of 4); seat 0's
        // highest lead was 1, seat 1's leads 0, -1, 1, -1, 0 never above it.
        let g = four_decisions().finish(Some(1));
        assert_eq!(val(&g, Measure::Drama), Some(0.5));
        assert_eq!(val(&g, Measure::Decisiveness), Some(1.0));
    }

    /// A winner who pulls clear for good: leads 0, 1, 2, 3 (seat 0) against a loser whose
    /// best was 0 at the start: the winner's lead first exceeds 0 after decision 1 of 3.
    #[test]
    fn decisiveness_is_the_share_before_the_winner_clears_the_others_best() {
        let mut o = GameObserver::new(2, 0);
        o.start(&[0, 0], None, [0; 2]);
        o.decision(2, &[1, 0], None, [0; 2]);
        o.decision(2, &[2, 0], None, [0; 2]);
        o.decision(2, &[3, 0], None, [0; 2]);
        let g = o.finish(Some(0));
        assert_eq!(
            val(&g, Measure::Decisiveness),
            Some(1.0 / 3.0_f64).map(|x| (x * UNIT).round() / UNIT)
        );
        assert_eq!(val(&g, Measure::Drama), Some(0.0));
        // No key, no board: not measured.
        assert_eq!(val(&g, Measure::Repetition), None);
        assert_eq!(val(&g, Measure::Coverage), None);
    }

    /// An evaluation that never moves: no lead changes, stability nothing, and the game says
    /// so; a board full from the start says so too.
    #[test]
    fn a_still_evaluation_and_a_full_board_are_noted() {
        let mut o = GameObserver::new(2, 2);
        o.start(&[5, 5], Some(1), [0b11, 0]);
        o.decision(1, &[5, 5], Some(2), [0b11, 0]);
        let g = o.finish(Some(1));
        assert!(!g.evaluation_moved);
        assert!(g.covered_at_start);
        assert_eq!(val(&g, Measure::LeadChanges), Some(0.0));
        assert_eq!(val(&g, Measure::Stability), Some(0.0));
        assert_eq!(val(&g, Measure::Drama), Some(0.0));
    }

    /// Three seats: a seat's lead is over the best of the others; the leaders are those
    /// not behind anyone.
    #[test]
    fn with_three_seats_a_lead_is_over_the_best_other() {
        let mut o = GameObserver::new(3, 0);
        o.start(&[0, 0, 0], None, [0; 2]);
        o.decision(2, &[2, 1, 0], None, [0; 2]);
        o.decision(2, &[2, 3, 0], None, [0; 2]);
        let g = o.finish(Some(2));
        // Leaders {0,1,2}, {0}, {1}: two changes in two decisions; seat 2 behind twice.
        assert_eq!(val(&g, Measure::LeadChanges), Some(1.0));
        assert_eq!(val(&g, Measure::Drama), Some(1.0));
    }

    /// Sums are integers: any split of the games adds up to the same, and taking a part out
    /// gives back the rest.
    #[test]
    fn sums_split_and_take_out_exactly() {
        let games: Vec<GameMetrics> = [Some(0), Some(1), None]
            .iter()
            .map(|&w| four_decisions().finish(w))
            .collect();
        let mut all = MetricTally::default();
        for g in &games {
            all.add(g);
        }
        let mut a = MetricTally::default();
        a.add(&games[0]);
        let mut b = MetricTally::default();
        b.add(&games[1]);
        b.add(&games[2]);
        let mut joined = a.clone();
        joined.combine(&b, true);
        assert_eq!(joined, all);
        joined.combine(&b, false);
        assert_eq!(joined, a);
        let drama = all.moments(Measure::Drama);
        assert_eq!(drama.n, 2);
        let (mean, lo, hi) = drama.mean((0.0, 1.0)).unwrap();
        assert!((mean - 0.375).abs() < 1e-12);
        // Two values 0.25 and 0.5: s = 0.1768, half-width t(1) s / √2 = 12.706 × 0.125,
        // far beyond both ends of [0, 1].
        assert_eq!((lo, hi), (Some(0.0), Some(1.0)));
        // Thirty-one games, sixteen at 0.25 and fifteen at 0.5: mean 0.3710, s = 0.1270,
        // half-width t(30) s / √31 = 2.042 × 0.02281 = 0.04658.
        let mut many = MetricTally::default();
        for k in 0..31 {
            let mut g = GameMetrics::default();
            g.values[Measure::Drama.index()] = Some(if k < 16 { 250_000 } else { 500_000 });
            many.add(&g);
        }
        let (mean, lo, hi) = many.moments(Measure::Drama).mean((0.0, 1.0)).unwrap();
        assert!((mean - 0.370_968).abs() < 1e-6, "{mean}");
        let (lo, hi) = (lo.unwrap(), hi.unwrap());
        assert!(
            (mean - lo - 0.046_58).abs() < 1e-4 && (hi - mean - 0.046_58).abs() < 1e-4,
            "{lo} {hi}"
        );
        // One game bounds nothing.
        let mut one = MetricTally::default();
        one.add(&games[0]);
        assert_eq!(
            one.moments(Measure::Drama).mean((0.0, 1.0)).unwrap().1,
            None
        );
    }
}
