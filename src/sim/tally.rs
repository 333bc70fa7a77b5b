//! What a run counts: the [`Tally`] of its games (results, lengths, events by kind, flagged
//! places, per-agent results), the [`Coverage`] that says which events flag which places, and
//! the [`Counter`] a game's events are counted into.
//!
//! Invariant: every aggregate is an integer sum (or a histogram of integers), so that tallies
//! merged in game order are the same whatever the blocks and the threads that made them.

use super::metrics::MetricTally;
use super::record::{GameEnd, GameRecord, Played};
use crate::agents::{self, Lineup};
use crate::games::{EndReason, Event, EventKind, EventSink, Rules};
use crate::stats::Histogram;

/// Which engine events are uncovered in a reading: the silent places (clauses, choices, a
/// reading's own settings, `--set`) and, per event kind, the places its deciding parameters
/// rest on.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    /// The silent places, in first-seen order.
    pub places: Vec<String>,
    /// Per event kind index: indices into `places`.
    pub by_kind: Vec<Vec<usize>>,
    /// Places behind a timeout (the parameters that let a game go on for ever).
    pub timeout: Vec<usize>,
}

impl Coverage {
    /// Builds the table for an engine's event kinds from `silent(param)`, the silent place
    /// behind a parameter whose value is interpolated.
    pub fn new<R: Rules>(silent: impl Fn(&str) -> Option<String>) -> Self {
        Self::of_kinds::<<R::Event as Event>::Kind>(silent)
    }

    fn of_kinds<K: EventKind>(silent: impl Fn(&str) -> Option<String>) -> Self {
        let mut places: Vec<String> = Vec::new();
        let mut index = |params: &[&str]| -> Vec<usize> {
            let mut out = Vec::new();
            for p in params {
                if let Some(place) = silent(p) {
                    let i = match places.iter().position(|x| *x == place) {
                        Some(i) => i,
                        None => {
                            places.push(place);
                            places.len() - 1
                        }
                    };
                    if !out.contains(&i) {
                        out.push(i);
                    }
                }
            }
            out
        };
        let by_kind = K::ALL.iter().map(|k| index(k.params())).collect();
        let timeout = index(K::ENDLESS_PARAMS);
        Coverage {
            places,
            by_kind,
            timeout,
        }
    }
}

/// Counts events by kind into a slice, and notes in `seen` (bit `k` for kind `k`) which
/// kinds occurred, so that the end of a game visits only those (a game meets a handful of
/// the dozens of kinds a family has).
pub(super) struct Counter<'a> {
    /// By kind index: as many as a family may have, so that a kind (whose index the
    /// compiler knows to be below its family's count) needs no bounds check.
    counts: &'a mut [u32; MAX_KINDS],
    pub(super) seen: u128,
}

/// The most event kinds a family may have: the bits of [`Counter::seen`].
pub(super) const MAX_KINDS: usize = 128;

impl<'a> Counter<'a> {
    /// A counter over `counts`, which must be all zero.
    pub(super) fn new(counts: &'a mut [u32; MAX_KINDS]) -> Self {
        Counter { counts, seen: 0 }
    }
}

impl<E: Event> EventSink<E> for Counter<'_> {
    #[inline]
    fn emit(&mut self, event: E) {
        let k = event.kind().index();
        self.counts[k] += 1;
        self.seen |= 1 << k;
    }

    fn emit_cycle(&mut self, cycle: &[E], times: u32) {
        if times == 0 {
            return;
        }
        for event in cycle {
            let k = event.kind().index();
            self.counts[k] += times;
            self.seen |= 1 << k;
        }
    }
}

/// Adds `count` to the named counter of a small name-keyed list, keeping first-seen order.
fn bump(counts: &mut Vec<(&'static str, u64)>, name: &'static str, count: u64) {
    // The same name is mostly the same literal: the address compare settles it without
    // reading the text.
    match counts
        .iter_mut()
        .find(|(n, _)| std::ptr::eq(*n, name) || *n == name)
    {
        Some((_, c)) => *c += count,
        None => counts.push((name, count)),
    }
}

/// Whether [`Tally::combine`] adds or takes out.
#[derive(Clone, Copy)]
enum Sign {
    Add,
    Sub,
}

/// Aggregates of a run (or of a block of it).
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games won by each seat (a game with several winners counts for each).
    pub wins: Vec<u64>,
    /// Games in which each seat made the first decision of play.
    pub first_moves: Vec<u64>,
    /// `order_wins[k]`: games won by the seat that moved (k+1)-th in turn order, counting
    /// from the first mover in seat order (the first mover, then the next seat, …).
    pub order_wins: Vec<u64>,
    /// Draws (capped games that score as draws included).
    pub draws: u64,
    /// Timeouts: games stopped at the run's ply limit, and games the rules found could
    /// never end.
    pub timeouts: u64,
    /// The timeouts by [`Timeout`](super::Timeout) name.
    pub timeouts_by_reason: Vec<(&'static str, u64)>,
    /// `ranks[seat][k]`: games in which the seat took place k+1, in games that rank their
    /// players (empty when none did).
    pub ranks: Vec<Vec<u64>>,
    /// Games that reached an engine cap, whatever they scored.
    pub capped: u64,
    /// Games by how they ended (natural, all-pass draw, ...), by [`EndReason`] name.
    pub ends: Vec<(&'static str, u64)>,
    /// Plies per game.
    pub plies: Histogram,
    /// Plies of the games a limit of the run stopped (censored: their length is more than
    /// this), a part of [`Tally::plies`].
    pub censored_plies: Histogram,
    /// The indices of the games a limit of the run stopped, in game order: the games a
    /// raised limit plays further.
    pub censored_games: Vec<u64>,
    /// Of the games a limit of the run stopped, those in which no seat's material had
    /// changed for at least the last half of their plies: play going on without anything
    /// being taken or won (the situation behind most games skilled players do not finish).
    pub stalled: u64,
    /// Plies of the games found never to end (a forced cycle, an endless position), a part
    /// of [`Tally::plies`]: with the censored ones, what the length estimate leaves out of
    /// the finished games.
    pub endless_plies: Histogram,
    /// Turns per game.
    pub turns: Histogram,
    /// Passes per game.
    pub passes: Histogram,
    /// Decisions over all games.
    pub decisions: u64,
    /// Legal moves summed over all decisions.
    pub legal: u64,
    /// For each event kind: games in which it occurred, and total occurrences.
    pub events: Vec<(u64, u64)>,
    /// For each silent place of the [`Coverage`]: games in which an uncovered event named
    /// it, and total occurrences.
    pub uncovered: Vec<(u64, u64)>,
    /// For each event kind, the sum over games of its count in the game squared: with the
    /// occurrences, the spread of its rate per game ([`per_game`]).
    pub event_squares: Vec<u64>,
    /// The same for each place of [`Tally::uncovered`].
    pub uncovered_squares: Vec<u64>,
    /// By agent (the lineup's distinct agents, in its order), when the lineup has two or
    /// more: empty otherwise, where every seat is one agent's.
    pub agents: Vec<AgentTally>,
    /// One record per game of a block, in order, when asked for: [`run`](super::run) hands
    /// them to its `records` callback and keeps none in the total.
    pub records: Vec<GameRecord>,
    /// What `assess` measured of the games (empty unless the run asked: `RunSpec::metrics`).
    pub metrics: MetricTally,
    /// Names of the event kinds, by index (set by the caller for output).
    pub kind_names: Vec<String>,
    /// The parameters that decide each event kind, by index (set with the names).
    pub kind_params: Vec<&'static [&'static str]>,
    /// Names of the uncovered places, by index (set by the caller for output).
    pub place_names: Vec<String>,
}

/// One agent's games in a run of several agents.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentTally {
    /// Games in which it held a seat.
    pub games: u64,
    /// Games in which it made the first decision of play.
    pub first: u64,
    /// Of those, games it won.
    pub first_wins: u64,
    /// `seat_games[s]`: games in which it held seat s.
    pub seat_games: Vec<u64>,
    /// `seat_wins[s]`: games in which it held seat s and that seat won.
    pub seat_wins: Vec<u64>,
}

impl AgentTally {
    /// Seats it held, summed over the games (its games, when it holds one seat a game).
    pub fn seat_games_total(&self) -> u64 {
        self.seat_games.iter().sum()
    }

    /// Of those, seats that won.
    pub fn seat_wins_total(&self) -> u64 {
        self.seat_wins.iter().sum()
    }
}

impl Tally {
    /// Every event kind, then every uncovered place, by name, with the games in which it
    /// occurred and its occurrences (the names set by [`Tally::with_kinds`] and
    /// [`Tally::with_places`]).
    pub fn named_events(&self) -> impl Iterator<Item = (&str, (u64, u64))> {
        self.kind_names
            .iter()
            .zip(&self.events)
            .chain(self.place_names.iter().zip(&self.uncovered))
            .map(|(name, &counts)| (name.as_str(), counts))
    }

    pub(super) fn new(kinds: usize, places: usize, seats: usize, lineup: &Lineup) -> Self {
        let agents = if lineup.distinct().len() > 1 {
            vec![
                AgentTally {
                    seat_games: vec![0; seats],
                    seat_wins: vec![0; seats],
                    ..AgentTally::default()
                };
                lineup.distinct().len()
            ]
        } else {
            Vec::new()
        };
        Tally {
            agents,
            wins: vec![0; seats],
            first_moves: vec![0; seats],
            order_wins: vec![0; seats],
            events: vec![(0, 0); kinds],
            uncovered: vec![(0, 0); places],
            event_squares: vec![0; kinds],
            uncovered_squares: vec![0; places],
            ..Tally::default()
        }
    }

    /// Counts one game. `covered` lists the event kinds that name a place of the coverage
    /// (most name none), so that a game's cost does not grow with the number of kinds.
    pub(super) fn add(
        &mut self,
        p: &Played,
        counts: &[u32],
        coverage: &Coverage,
        covered: &[usize],
        scratch: &mut [u64],
    ) {
        scratch.fill(0);
        for &kind in covered {
            let c = counts[kind];
            if c > 0 {
                for &place in &coverage.by_kind[kind] {
                    scratch[place] += u64::from(c);
                }
            }
        }
        if matches!(p.end, GameEnd::Timeout(_)) {
            for &place in &coverage.timeout {
                scratch[place] += 1;
            }
        }
        // Without a branch per place or kind: whether an event fired is data.
        for ((u, sq), &c) in self
            .uncovered
            .iter_mut()
            .zip(self.uncovered_squares.iter_mut())
            .zip(scratch.iter())
        {
            u.0 += u64::from(c > 0);
            u.1 += c;
            *sq += c * c;
        }
        self.games += 1;
        let seats = self.wins.len();
        if let Some(first) = p.first {
            self.first_moves[first] += 1;
        }
        match p.end {
            GameEnd::Timeout(why) => {
                self.timeouts += 1;
                bump(&mut self.timeouts_by_reason, why.name(), 1);
                if why.by_run_limit() && p.quiet >= p.plies / 2 {
                    self.stalled += 1;
                }
                if why.censored() {
                    self.censored_plies.add(p.plies);
                } else {
                    self.endless_plies.add(p.plies);
                }
            }
            GameEnd::Over(o) => {
                if o.is_ranked() {
                    self.ranks.resize(seats, Vec::new());
                    for (seat, counts) in self.ranks.iter_mut().enumerate() {
                        let place = usize::from(o.ranks[seat].max(1)) - 1;
                        if counts.len() <= place {
                            counts.resize(place + 1, 0);
                        }
                        counts[place] += 1;
                    }
                }
                let mut winner = false;
                for seat in 0..seats {
                    if o.won(seat) {
                        self.wins[seat] += 1;
                        if let Some(first) = p.first {
                            self.order_wins[(seat + seats - first) % seats] += 1;
                        }
                        winner = true;
                    }
                }
                if !winner {
                    self.draws += 1;
                }
                if o.end.capped() {
                    self.capped += 1;
                }
                self.count_end(o.end);
            }
        }
        self.plies.add(p.plies);
        self.turns.add(p.turns);
        self.passes.add(p.passes);
        self.decisions += p.decisions;
        self.legal += p.legal;
        if let Some(m) = &p.metrics {
            self.metrics.add(m);
            if let GameEnd::Timeout(why) = p.end {
                if why.censored() {
                    self.metrics.censored_turns.add(p.turns);
                } else {
                    self.metrics.endless_turns.add(p.turns);
                }
            }
        }
    }

    /// Counts game `index` by agent, where the lineup has several.
    pub(super) fn add_agents(&mut self, p: &Played, lineup: &Lineup, index: u64) {
        if self.agents.is_empty() {
            return;
        }
        let won = |seat| matches!(p.end, GameEnd::Over(o) if o.won(seat));
        let mut held = [false; agents::MAX_LINEUP];
        for seat in 0..self.wins.len() {
            let a = lineup.distinct_at(index, seat);
            held[a] = true;
            self.agents[a].seat_games[seat] += 1;
            self.agents[a].seat_wins[seat] += u64::from(won(seat));
        }
        for (a, t) in self.agents.iter_mut().enumerate() {
            t.games += u64::from(held[a]);
        }
        if let Some(first) = p.first {
            let a = lineup.distinct_at(index, first);
            self.agents[a].first += 1;
            self.agents[a].first_wins += u64::from(won(first));
        }
    }

    fn count_end(&mut self, end: EndReason) {
        bump(&mut self.ends, end.name(), 1);
    }

    /// Adds another part of the same run (another block, or more games of it).
    pub fn merge(&mut self, other: Tally) {
        self.combine(&other, Sign::Add);
        self.censored_games.extend(&other.censored_games);
        // Blocks may be merged in any order; the indices are kept in game order.
        self.censored_games.sort_unstable();
        self.records.extend(other.records);
    }

    /// Takes out a part of this run counted in it (some of its games, played again alone):
    /// the tally as if those games had not been played. With [`Tally::merge`], this
    /// replaces games: a raised limit's tally is the run's, with the games its limit stopped
    /// taken out and merged back played further ([`crate::analysis::limits`]).
    ///
    /// # Panics
    /// If `part` counts more than this tally: it is not a part of it.
    pub fn remove(&mut self, part: &Tally) {
        self.combine(part, Sign::Sub);
        self.censored_games
            .retain(|i| part.censored_games.binary_search(i).is_err());
        self.records
            .retain(|r| !part.records.iter().any(|p| p.index == r.index));
    }

    /// Every integer sum of `other` added to this tally's, or taken from it.
    fn combine(&mut self, other: &Tally, sign: Sign) {
        let op = |a: &mut u64, b: u64| match sign {
            Sign::Add => *a += b,
            Sign::Sub => *a = a.checked_sub(b).expect("a tally removes only a part of it"),
        };
        let each = |mine: &mut [u64], theirs: &[u64]| {
            for (m, &t) in mine.iter_mut().zip(theirs) {
                op(m, t);
            }
        };
        let pairs = |mine: &mut [(u64, u64)], theirs: &[(u64, u64)]| {
            for (m, &t) in mine.iter_mut().zip(theirs) {
                op(&mut m.0, t.0);
                op(&mut m.1, t.1);
            }
        };
        let named = |mine: &mut Vec<(&'static str, u64)>, theirs: &[(&'static str, u64)]| {
            for &(name, c) in theirs {
                match sign {
                    Sign::Add => bump(mine, name, c),
                    Sign::Sub => {
                        let at = mine
                            .iter()
                            .position(|(n, _)| *n == name)
                            .expect("a tally removes only a part of it");
                        op(&mut mine[at].1, c);
                        // A name no game of the tally has is not in a tally played directly.
                        if mine[at].1 == 0 {
                            mine.remove(at);
                        }
                    }
                }
            }
        };
        let histogram = |mine: &mut Histogram, theirs: &Histogram| match sign {
            Sign::Add => mine.merge(theirs),
            Sign::Sub => mine.remove(theirs),
        };
        op(&mut self.games, other.games);
        for (mine, theirs) in self.agents.iter_mut().zip(&other.agents) {
            op(&mut mine.games, theirs.games);
            op(&mut mine.first, theirs.first);
            op(&mut mine.first_wins, theirs.first_wins);
            each(&mut mine.seat_games, &theirs.seat_games);
            each(&mut mine.seat_wins, &theirs.seat_wins);
        }
        each(&mut self.wins, &other.wins);
        each(&mut self.first_moves, &other.first_moves);
        each(&mut self.order_wins, &other.order_wins);
        op(&mut self.draws, other.draws);
        op(&mut self.timeouts, other.timeouts);
        op(&mut self.capped, other.capped);
        op(&mut self.stalled, other.stalled);
        named(&mut self.ends, &other.ends);
        named(&mut self.timeouts_by_reason, &other.timeouts_by_reason);
        if self.ranks.len() < other.ranks.len() {
            self.ranks.resize(other.ranks.len(), Vec::new());
        }
        for (mine, theirs) in self.ranks.iter_mut().zip(&other.ranks) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            each(mine, theirs);
        }
        histogram(&mut self.plies, &other.plies);
        histogram(&mut self.censored_plies, &other.censored_plies);
        histogram(&mut self.endless_plies, &other.endless_plies);
        histogram(&mut self.turns, &other.turns);
        histogram(&mut self.passes, &other.passes);
        op(&mut self.decisions, other.decisions);
        op(&mut self.legal, other.legal);
        pairs(&mut self.events, &other.events);
        pairs(&mut self.uncovered, &other.uncovered);
        each(&mut self.event_squares, &other.event_squares);
        each(&mut self.uncovered_squares, &other.uncovered_squares);
        self.metrics
            .combine(&other.metrics, matches!(sign, Sign::Add));
    }

    /// Names the event kinds, for output, each with the parameters that decide it.
    pub fn with_kinds(
        mut self,
        kinds: impl Iterator<Item = (&'static str, &'static [&'static str])>,
    ) -> Self {
        (self.kind_names, self.kind_params) = kinds.map(|(n, p)| (n.to_owned(), p)).unzip();
        self
    }

    /// Names the uncovered places, for output.
    pub fn with_places(mut self, names: impl Iterator<Item = String>) -> Self {
        self.place_names = names.collect();
        self
    }

    /// Games stopped by a limit (the run's ply limit, or an engine's search bound): censored,
    /// neither won, drawn nor lost.
    pub fn censored(&self) -> u64 {
        self.censored_plies.n()
    }

    /// Games stopped by the run's `--max-plies` or `--max-quiet`: the ones a higher limit
    /// would take further (a search stopped at an engine's own bound would stop there
    /// again).
    pub fn censored_by_limit(&self) -> u64 {
        self.timeouts_by_reason
            .iter()
            .filter(|(name, _)| {
                *name == super::Timeout::PlyLimit.name()
                    || *name == super::Timeout::QuietLimit.name()
            })
            .map(|(_, c)| c)
            .sum()
    }

    /// Games the rules found never to end.
    pub fn endless(&self) -> u64 {
        self.endless_plies.n()
    }

    /// Games that ended, by a rule of the reading or an engine cap.
    pub fn finished(&self) -> u64 {
        self.games - self.timeouts
    }

    /// The lengths of the finished games alone.
    pub fn finished_plies(&self) -> Histogram {
        let mut h = Histogram::default();
        let (all, c, e) = (
            self.plies.counts(),
            self.censored_plies.counts(),
            self.endless_plies.counts(),
        );
        for (v, &n) in all.iter().enumerate() {
            let left = n - c.get(v).copied().unwrap_or(0) - e.get(v).copied().unwrap_or(0);
            if left > 0 {
                h.add_n(v as u32, left);
            }
        }
        h
    }

    /// The censoring-aware summary of the lengths ([`crate::stats::survival`]).
    pub fn km(&self) -> crate::stats::survival::Km {
        crate::stats::survival::km(&self.finished_plies(), &self.censored_plies, self.endless())
    }

    /// Mean legal moves per decision (forced passes count as one move), as Ludii reports it.
    pub fn branching(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.legal as f64 / self.decisions as f64
        }
    }
}

/// A rate per game from its total over `games` games and the sum of its squared per-game
/// counts: the mean and its 95 % interval (mean ± 1.96 sd/√n, not below 0), as
/// `(mean, lo, hi)`.
pub fn per_game(total: u64, squares: u64, games: u64) -> (f64, f64, f64) {
    if games == 0 {
        return (0.0, 0.0, 0.0);
    }
    let n = games as f64;
    let mean = total as f64 / n;
    let var = if games > 1 {
        ((squares as f64 - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (mean, (mean - half).max(0.0), mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts 1, 2, 3 over three games: mean 2, sample variance 1, so 2 ± 1.96/√3; one game
    /// has no spread; none, nothing; the interval never goes below 0.
    #[test]
    fn per_game_is_the_mean_with_its_interval() {
        let (m, lo, hi) = per_game(6, 14, 3);
        let half = 1.959_963_984_540_054 / 3f64.sqrt();
        assert!((m - 2.0).abs() < 1e-12 && (lo - (2.0 - half)).abs() < 1e-12);
        assert!((hi - (2.0 + half)).abs() < 1e-12);
        assert_eq!(per_game(5, 25, 1), (5.0, 5.0, 5.0));
        assert_eq!(per_game(0, 0, 0), (0.0, 0.0, 0.0));
        let (_, lo, _) = per_game(1, 1, 4);
        assert_eq!(lo, 0.0);
    }
}
