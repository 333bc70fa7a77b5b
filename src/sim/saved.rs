//! A run's tallies and game records as data that outlives the process: the serde forms the
//! results store and the partial results of a plan's units keep, and their checked way back.
//!
//! A [`SavedTally`] is a [`Tally`] less the names the caller sets for output (event kinds,
//! places): every count, and the length distributions as histograms (value, count) rather
//! than summaries, so that tallies merged after a round trip give the very medians and
//! percentiles of a single run. Names of ends and timeout reasons are kept as text and
//! checked on the way back, in the order the tally met them (the order a report lists them).

use serde::{Deserialize, Serialize};

use super::{
    AgentTally, GameEnd, GameRecord, MEASURES, Measure, MetricTally, Moments, Tally, Timeout, UNIT,
};
use crate::games::{EndReason, Outcome, Result_};
use crate::stats::Histogram;

/// A [`Tally`] as data (its records apart: see [`SavedGame`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedTally {
    /// Games.
    pub games: u64,
    /// Games won by each seat.
    pub wins: Vec<u64>,
    /// Games in which each seat made the first decision of play.
    pub first_moves: Vec<u64>,
    /// Games won by the seat that moved (k+1)-th in turn order.
    pub order_wins: Vec<u64>,
    /// Draws.
    pub draws: u64,
    /// Timeouts.
    pub timeouts: u64,
    /// Timeouts by reason, in the order met.
    pub timeouts_by_reason: Vec<(String, u64)>,
    /// `ranks[seat][k]`: games in which the seat took place k+1.
    pub ranks: Vec<Vec<u64>>,
    /// Games that reached an engine cap.
    pub capped: u64,
    /// Games by how they ended, in the order met.
    pub ends: Vec<(String, u64)>,
    /// Plies per game: (plies, games) for every length that occurred, ascending.
    pub plies: Vec<(u32, u64)>,
    /// Plies of the games a limit of the run stopped, likewise (a part of `plies`).
    pub censored_plies: Vec<(u32, u64)>,
    /// The indices of the games a limit of the run stopped, ascending (absent when none
    /// was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub censored_games: Vec<u64>,
    /// Of those, the games in which no seat's material had changed for at least the last
    /// half of their plies (absent when none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stalled: u64,
    /// Plies of the games found never to end, likewise (a part of `plies`).
    pub endless_plies: Vec<(u32, u64)>,
    /// Turns per game, likewise.
    pub turns: Vec<(u32, u64)>,
    /// Passes per game, likewise.
    pub passes: Vec<(u32, u64)>,
    /// Decisions over all games.
    pub decisions: u64,
    /// Legal moves summed over all decisions.
    pub legal: u64,
    /// Per event kind (by index): games in which it occurred, occurrences.
    pub events: Vec<(u64, u64)>,
    /// Per uncovered place (by index): games, occurrences.
    pub uncovered: Vec<(u64, u64)>,
    /// Per event kind: the sum over games of its count squared.
    pub event_squares: Vec<u64>,
    /// Per uncovered place: likewise.
    pub uncovered_squares: Vec<u64>,
    /// Per distinct agent of a lineup of several.
    pub agents: Vec<SavedAgent>,
    /// What `assess` measured of the games (absent unless the run measured them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<SavedMetrics>,
}

/// A [`MetricTally`] as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedMetrics {
    /// Games measured (every game of the block).
    pub games: u64,
    /// By measure, in the order of `sim::MEASURES`: games measured, the sum of their
    /// values and of their squares, in millionths.
    pub moments: Vec<(u64, u128, u128)>,
    /// Games in which some seat's lead was ever other than nothing.
    pub evaluation_moved: u64,
    /// Games whose every site was occupied at the start.
    pub covered_at_start: u64,
    /// Turns of the games a limit stopped: (turns, games), ascending.
    pub censored_turns: Vec<(u32, u64)>,
    /// Turns of the games found never to end, likewise.
    pub endless_turns: Vec<(u32, u64)>,
}

/// An [`AgentTally`] as data.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SavedAgent {
    /// Games in which it held a seat.
    pub games: u64,
    /// Games in which it moved first.
    pub first: u64,
    /// Of those, games it won.
    pub first_wins: u64,
    /// Games by seat held.
    pub seat_games: Vec<u64>,
    /// Wins by seat held.
    pub seat_wins: Vec<u64>,
}

/// Why saved data cannot be a tally or a game: what was read, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn histogram(h: &Histogram) -> Vec<(u32, u64)> {
    h.counts()
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c > 0)
        .map(|(v, &c)| (v as u32, c))
        .collect()
}

/// The largest count of plies, turns or passes a game can reach: the largest engine cap (a
/// saved histogram is dense in memory, so a value from a file is bounded before it is used).
const MAX_LENGTH: u32 = crate::family::Cap::MAX;

fn unhistogram(what: &str, pairs: &[(u32, u64)], games: u64) -> Result<Histogram, Invalid> {
    let mut h = Histogram::default();
    let mut last = None;
    for &(v, c) in pairs {
        if v > MAX_LENGTH {
            return Err(Invalid(format!(
                "{what}: a game of {v}, beyond any game's length ({MAX_LENGTH})"
            )));
        }
        if last.is_some_and(|l| l >= v) || c == 0 || c > games {
            return Err(Invalid(format!(
                "{what}: (value, games) pairs must have ascending values and games above 0, \
                 not ({v}, {c}) here"
            )));
        }
        last = Some(v);
        h.add_n(v, c);
    }
    if h.n() != games {
        return Err(Invalid(format!(
            "{what}: counts {} games, the tally {games}",
            h.n()
        )));
    }
    Ok(h)
}

fn name_of<T: Copy>(
    what: &str,
    name: &str,
    all: &[T],
    name_fn: impl Fn(T) -> &'static str,
) -> Result<&'static str, Invalid> {
    all.iter()
        .map(|&t| name_fn(t))
        .find(|n| *n == name)
        .ok_or_else(|| {
            let known: Vec<&str> = all.iter().map(|&t| name_fn(t)).collect();
            Invalid(format!(
                "{what} `{name}` is not one of {}",
                known.join(", ")
            ))
        })
}

impl From<&Tally> for SavedTally {
    fn from(t: &Tally) -> Self {
        let names = |v: &[(&'static str, u64)]| v.iter().map(|&(n, c)| (n.to_owned(), c)).collect();
        SavedTally {
            games: t.games,
            wins: t.wins.clone(),
            first_moves: t.first_moves.clone(),
            order_wins: t.order_wins.clone(),
            draws: t.draws,
            timeouts: t.timeouts,
            timeouts_by_reason: names(&t.timeouts_by_reason),
            ranks: t.ranks.clone(),
            capped: t.capped,
            ends: names(&t.ends),
            plies: histogram(&t.plies),
            censored_plies: histogram(&t.censored_plies),
            censored_games: t.censored_games.clone(),
            stalled: t.stalled,
            endless_plies: histogram(&t.endless_plies),
            turns: histogram(&t.turns),
            passes: histogram(&t.passes),
            decisions: t.decisions,
            legal: t.legal,
            events: t.events.clone(),
            uncovered: t.uncovered.clone(),
            event_squares: t.event_squares.clone(),
            uncovered_squares: t.uncovered_squares.clone(),
            agents: t
                .agents
                .iter()
                .map(|a| SavedAgent {
                    games: a.games,
                    first: a.first,
                    first_wins: a.first_wins,
                    seat_games: a.seat_games.clone(),
                    seat_wins: a.seat_wins.clone(),
                })
                .collect(),
            metrics: (t.metrics.games > 0).then(|| SavedMetrics {
                games: t.metrics.games,
                moments: t
                    .metrics
                    .moments
                    .iter()
                    .map(|m| (m.n, m.sum, m.squares))
                    .collect(),
                evaluation_moved: t.metrics.evaluation_moved,
                covered_at_start: t.metrics.covered_at_start,
                censored_turns: histogram(&t.metrics.censored_turns),
                endless_turns: histogram(&t.metrics.endless_turns),
            }),
        }
    }
}

impl SavedMetrics {
    /// The sums back, checked against the block's games and its censored and endless ones.
    fn into_metrics(self, games: u64, censored: u64, endless: u64) -> Result<MetricTally, Invalid> {
        if self.games != games {
            return Err(Invalid(format!(
                "metrics: {} games measured in a block of {games}",
                self.games
            )));
        }
        if self.moments.len() != MEASURES.len() {
            return Err(Invalid(format!(
                "metrics: {} measures, this build keeps {}",
                self.moments.len(),
                MEASURES.len()
            )));
        }
        // A value is a share (at most one) except the branching factor, which is at most
        // the most legal moves an engine lists (far below 2¹⁶): sums beyond that are no
        // game's.
        let most = |k: usize| -> u128 {
            let one = UNIT as u128;
            if k == Measure::Branching.index() {
                one << 16
            } else {
                one
            }
        };
        if self.moments.iter().any(|m| m.0 > games)
            || self.moments.iter().enumerate().any(|(k, m)| {
                m.1 > u128::from(m.0) * most(k) || m.2 > u128::from(m.0) * most(k) * most(k)
            })
            || self.evaluation_moved > games
            || self.covered_at_start > games
        {
            return Err(Invalid(format!(
                "metrics: a count of games above the block's {games}"
            )));
        }
        Ok(MetricTally {
            games,
            moments: self
                .moments
                .iter()
                .map(|&(n, sum, squares)| Moments { n, sum, squares })
                .collect(),
            evaluation_moved: self.evaluation_moved,
            covered_at_start: self.covered_at_start,
            censored_turns: unhistogram("metrics.censored_turns", &self.censored_turns, censored)?,
            endless_turns: unhistogram("metrics.endless_turns", &self.endless_turns, endless)?,
        })
    }
}

impl SavedTally {
    /// Checks that the counts a game adds once add up to the games: every game is a win, a
    /// draw or a timeout, has at most one first mover and one end, and no seat or agent
    /// wins more games than there are.
    fn check_sums(&self) -> Result<(), Invalid> {
        let n = self.games;
        let bad = |what: &str, got: u64| {
            Err(Invalid(format!(
                "{what} add up to {got}, more than the block's {n} games"
            )))
        };
        let sum = |v: &[u64]| v.iter().try_fold(0u64, |a, &b| a.checked_add(b));
        let outcomes = self.draws.saturating_add(self.timeouts);
        if outcomes > n {
            return bad("draws and timeouts", outcomes);
        }
        // (A game with several winners counts for each in `wins` and `order_wins`.)
        match sum(&self.first_moves) {
            Some(s) if s <= n => {}
            s => return bad("first moves", s.unwrap_or(u64::MAX)),
        }
        let by_name = |v: &[(String, u64)]| v.iter().try_fold(0u64, |a, (_, b)| a.checked_add(*b));
        match by_name(&self.ends) {
            Some(s) if s.checked_add(self.timeouts).is_some_and(|t| t <= n) => {}
            s => return bad("ends and timeouts", s.unwrap_or(u64::MAX)),
        }
        match by_name(&self.timeouts_by_reason) {
            Some(s) if s == self.timeouts => {}
            _ => {
                return Err(Invalid(format!(
                    "timeouts by reason do not add up to the {} timeouts",
                    self.timeouts
                )));
            }
        }
        let mut each = self
            .wins
            .iter()
            .chain(&self.order_wins)
            .chain(std::iter::once(&self.capped))
            .chain(self.ranks.iter().flatten())
            .chain(self.events.iter().map(|(g, _)| g))
            .chain(self.uncovered.iter().map(|(g, _)| g));
        if let Some(&over) = each.find(|&&c| c > n) {
            return bad("a count of games", over);
        }
        for a in &self.agents {
            if a.games > n || a.first > n || a.first_wins > a.first {
                return bad("an agent's games", a.games.max(a.first));
            }
        }
        Ok(())
    }

    /// The tally back, checked against the shape of the run it is to join: `like` is a
    /// tally of that run (an empty one will do: seats, event kinds, places and agents are
    /// what is compared).
    ///
    /// # Errors
    /// Another number of games than `games`, a vector of the wrong length, counts that do
    /// not add up (outcomes, first moves, ends, places, agents), an unknown end or timeout
    /// name, a histogram that does not count the tally's games or holds a value no game can
    /// reach.
    pub fn into_tally(self, like: &Tally, games: u64) -> Result<Tally, Invalid> {
        if self.games != games {
            return Err(Invalid(format!(
                "{} games for a block of {games}",
                self.games
            )));
        }
        self.check_sums()?;
        let len = |what: &str, got: usize, want: usize| {
            if got == want {
                Ok(())
            } else {
                Err(Invalid(format!(
                    "{what}: {got} entries, the run has {want}"
                )))
            }
        };
        len("wins", self.wins.len(), like.wins.len())?;
        len(
            "first_moves",
            self.first_moves.len(),
            like.first_moves.len(),
        )?;
        len("order_wins", self.order_wins.len(), like.order_wins.len())?;
        len("events", self.events.len(), like.events.len())?;
        len("event_squares", self.event_squares.len(), like.events.len())?;
        len("uncovered", self.uncovered.len(), like.uncovered.len())?;
        len(
            "uncovered_squares",
            self.uncovered_squares.len(),
            like.uncovered.len(),
        )?;
        len("agents", self.agents.len(), like.agents.len())?;
        if self.ranks.len() > like.wins.len() {
            return Err(Invalid(format!(
                "ranks: {} seats, the run has {}",
                self.ranks.len(),
                like.wins.len()
            )));
        }
        let ends = self
            .ends
            .iter()
            .map(|(n, c)| Ok((name_of("end", n, &EndReason::ALL, EndReason::name)?, *c)))
            .collect::<Result<_, Invalid>>()?;
        let timeouts_by_reason = self
            .timeouts_by_reason
            .iter()
            .map(|(n, c)| {
                Ok((
                    name_of("timeout reason", n, &Timeout::ALL, Timeout::name)?,
                    *c,
                ))
            })
            .collect::<Result<_, Invalid>>()?;
        let reason = |name: &str| {
            self.timeouts_by_reason
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, c)| c)
                .sum::<u64>()
        };
        let censored = reason(Timeout::PlyLimit.name())
            + reason(Timeout::QuietLimit.name())
            + reason(Timeout::SearchLimit.name());
        let by_limit = reason(Timeout::PlyLimit.name()) + reason(Timeout::QuietLimit.name());
        if self.censored_games.len() as u64 != by_limit
            || self.censored_games.windows(2).any(|w| w[0] >= w[1])
        {
            return Err(Invalid(format!(
                "censored_games: {} game indices where {} were expected, ascending, one for \
                 each game a limit of the run stopped",
                self.censored_games.len(),
                by_limit
            )));
        }
        if self.stalled > self.censored_games.len() as u64 {
            return Err(Invalid(format!(
                "stalled: {} games, more than the {} a limit of the run stopped",
                self.stalled,
                self.censored_games.len()
            )));
        }
        let plies = unhistogram("plies", &self.plies, self.games)?;
        let censored_plies = unhistogram("censored_plies", &self.censored_plies, censored)?;
        let endless_plies = unhistogram(
            "endless_plies",
            &self.endless_plies,
            self.timeouts - censored,
        )?;
        // The unfinished games are a part of all games at each length (so that the finished
        // games' lengths are a difference that cannot go below zero).
        let (within, c, e) = (
            plies.counts(),
            censored_plies.counts(),
            endless_plies.counts(),
        );
        for v in 0..c.len().max(e.len()) {
            let part = c.get(v).copied().unwrap_or(0) + e.get(v).copied().unwrap_or(0);
            if part > within.get(v).copied().unwrap_or(0) {
                return Err(Invalid(format!(
                    "censored_plies and endless_plies: {part} games of {v} plies, more than \
                     plies has"
                )));
            }
        }
        // A measured run's blocks carry their measures and an unmeasured run's do not (the
        // run's shape, `like`, says which): a block without them would leave its games out of
        // every figure silently.
        let measured = !like.metrics.moments.is_empty();
        let metrics = match (self.metrics, measured) {
            (Some(m), true) => m.into_metrics(self.games, censored, self.timeouts - censored)?,
            (None, false) => MetricTally::default(),
            (Some(_), false) => {
                return Err(Invalid(
                    "metrics: a measured block for a run that measures nothing".to_owned(),
                ));
            }
            (None, true) => {
                return Err(Invalid(
                    "metrics: absent from a block of a run that measures its games".to_owned(),
                ));
            }
        };
        let turns = unhistogram("turns", &self.turns, self.games)?;
        // The censored and endless games' turns are a part of all games' at each length.
        {
            let (all, c, e) = (
                turns.counts(),
                metrics.censored_turns.counts(),
                metrics.endless_turns.counts(),
            );
            for v in 0..c.len().max(e.len()) {
                let part = c.get(v).copied().unwrap_or(0) + e.get(v).copied().unwrap_or(0);
                if part > all.get(v).copied().unwrap_or(0) {
                    return Err(Invalid(format!(
                        "metrics: {part} censored or endless games of {v} turns, more than turns \
                         has"
                    )));
                }
            }
        }
        let mut agents = Vec::with_capacity(self.agents.len());
        for a in self.agents {
            len("an agent's seat_games", a.seat_games.len(), like.wins.len())?;
            len("an agent's seat_wins", a.seat_wins.len(), like.wins.len())?;
            agents.push(AgentTally {
                games: a.games,
                first: a.first,
                first_wins: a.first_wins,
                seat_games: a.seat_games,
                seat_wins: a.seat_wins,
            });
        }
        Ok(Tally {
            games: self.games,
            wins: self.wins,
            first_moves: self.first_moves,
            order_wins: self.order_wins,
            draws: self.draws,
            timeouts: self.timeouts,
            timeouts_by_reason,
            ranks: self.ranks,
            capped: self.capped,
            ends,
            plies,
            censored_plies,
            censored_games: self.censored_games,
            stalled: self.stalled,
            endless_plies,
            turns,
            passes: unhistogram("passes", &self.passes, self.games)?,
            decisions: self.decisions,
            legal: self.legal,
            events: self.events,
            uncovered: self.uncovered,
            event_squares: self.event_squares,
            uncovered_squares: self.uncovered_squares,
            agents,
            metrics,
            records: Vec::new(),
            kind_names: like.kind_names.clone(),
            kind_params: like.kind_params.clone(),
            place_names: like.place_names.clone(),
        })
    }
}

/// One game of a run as a row: what the store's `games` table holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGame {
    /// Its index in the run.
    pub index: u64,
    /// `win`, `draw` or `timeout`.
    pub outcome: &'static str,
    /// The winning seats (0-based), for a win.
    pub winners: Vec<u8>,
    /// How it ended: an [`EndReason`] name, or for a timeout its [`Timeout`] name.
    pub end: &'static str,
    /// The seat that made the first decision of play.
    pub first_mover: Option<u8>,
    /// Decisions.
    pub plies: u32,
    /// Turns.
    pub turns: u32,
    /// Passes.
    pub passes: u32,
    /// Final scores (zero where the game does not score; none for a timeout).
    pub scores: Option<[u32; 2]>,
    /// Places by seat (1 the best; 0 past the engine's seats), where the game ranks its
    /// players.
    pub ranks: Option<[u8; 8]>,
    /// Occurrences of each event kind, by index.
    pub events: Vec<u32>,
    /// Flags at each place of the run's coverage, by index.
    pub flags: Vec<u64>,
}

impl From<&GameRecord> for SavedGame {
    fn from(r: &GameRecord) -> Self {
        let (outcome, winners, end, scores, ranks) = match r.end {
            GameEnd::Timeout(why) => ("timeout", Vec::new(), why.name(), None, None),
            GameEnd::Over(o) => {
                let winners: Vec<u8> = (0..8u8).filter(|&s| o.won(usize::from(s))).collect();
                let ranks = o.is_ranked().then_some(o.ranks);
                (
                    if winners.is_empty() { "draw" } else { "win" },
                    winners,
                    o.end.name(),
                    Some(o.scores),
                    ranks,
                )
            }
        };
        SavedGame {
            index: r.index,
            outcome,
            winners,
            end,
            first_mover: r.first_mover.map(|s| s as u8),
            plies: r.plies,
            turns: r.turns,
            passes: r.passes,
            scores,
            ranks,
            events: r.events.clone(),
            flags: r.flags.clone(),
        }
    }
}

impl SavedGame {
    /// The record back.
    ///
    /// # Errors
    /// An outcome, end or seat the engines do not have.
    pub fn into_record(self) -> Result<GameRecord, Invalid> {
        let end = match self.outcome {
            "timeout" => {
                let name = name_of("timeout reason", self.end, &Timeout::ALL, Timeout::name)?;
                GameEnd::Timeout(
                    Timeout::ALL
                        .into_iter()
                        .find(|t| t.name() == name)
                        .expect("named above"),
                )
            }
            "win" | "draw" => {
                let name = name_of("end", self.end, &EndReason::ALL, EndReason::name)?;
                let end = EndReason::ALL
                    .into_iter()
                    .find(|e| e.name() == name)
                    .expect("named above");
                let mut mask = 0u8;
                for &s in &self.winners {
                    if s >= 8 {
                        return Err(Invalid(format!("winner seat {s}: seats are 0 to 7")));
                    }
                    mask |= 1 << s;
                }
                let result = match (self.outcome, mask) {
                    ("win", 1..) => Result_::Win(mask),
                    ("draw", 0) => Result_::Draw,
                    _ => {
                        return Err(Invalid(format!(
                            "a {} with winners {:?}",
                            self.outcome, self.winners
                        )));
                    }
                };
                let ranks = match self.ranks {
                    Some(r) if r[0] == 0 => {
                        return Err(Invalid(format!(
                            "ranks {r:?}: a ranked game places its first seat (1 or more)"
                        )));
                    }
                    Some(r) => r,
                    None => Outcome::UNRANKED,
                };
                GameEnd::Over(Outcome {
                    result,
                    end,
                    scores: self.scores.unwrap_or([0, 0]),
                    ranks,
                })
            }
            other => {
                return Err(Invalid(format!(
                    "outcome `{other}` is not one of win, draw, timeout"
                )));
            }
        };
        Ok(GameRecord {
            index: self.index,
            end,
            plies: self.plies,
            turns: self.turns,
            passes: self.passes,
            first_mover: self.first_mover.map(usize::from),
            events: self.events,
            flags: self.flags,
        })
    }

    /// The `outcome` and `end` names as static strings, from text read back.
    ///
    /// # Errors
    /// A name the engines do not have.
    pub fn names(outcome: &str, end: &str) -> Result<(&'static str, &'static str), Invalid> {
        let outcome = ["win", "draw", "timeout"]
            .into_iter()
            .find(|o| *o == outcome)
            .ok_or_else(|| {
                Invalid(format!(
                    "outcome `{outcome}` is not one of win, draw, timeout"
                ))
            })?;
        let end = if outcome == "timeout" {
            name_of("timeout reason", end, &Timeout::ALL, Timeout::name)?
        } else {
            name_of("end", end, &EndReason::ALL, EndReason::name)?
        };
        Ok((outcome, end))
    }
}

/// Whether a count is zero (a field left out of the saved form when it is).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_round_trip_sparse() {
        let mut h = Histogram::default();
        for v in [3, 3, 7, 100] {
            h.add(v);
        }
        let pairs = histogram(&h);
        assert_eq!(pairs, vec![(3, 2), (7, 1), (100, 1)]);
        assert_eq!(unhistogram("plies", &pairs, 4).unwrap(), h);
        assert!(
            unhistogram("plies", &[(u32::MAX, 1)], 1).is_err(),
            "bounded"
        );
        assert!(unhistogram("plies", &pairs, 5).is_err());
        assert!(unhistogram("plies", &[(7, 1), (3, 1)], 2).is_err());
        assert!(unhistogram("plies", &[(3, 0)], 0).is_err());
    }

    #[test]
    fn unknown_names_are_refused_with_the_known_ones() {
        let e = SavedGame::names("win", "checkmate").unwrap_err();
        assert!(e.0.contains("natural, all-pass-draw"), "{e}");
        let e = SavedGame::names("lost", "natural").unwrap_err();
        assert!(e.0.contains("win, draw, timeout"), "{e}");
    }
}

#[cfg(test)]
mod metric_tests {
    use super::*;
    use crate::agents::Lineup;
    use crate::registry::{EngineVisitor, GameFamily};
    use crate::sim::{Coverage, RunSpec, block_of};

    /// A measured block of Um el Tuweisat's first reading (20 random games), and an
    /// unmeasured one, with the run's shape (`like`) of each.
    fn blocks() -> (Tally, Tally, Tally, Tally) {
        struct Play;
        impl EngineVisitor for Play {
            type Output = (Tally, Tally, Tally, Tally);
            fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
                let coverage = Coverage::new::<F::Rules>(|_| None);
                let mut spec = RunSpec {
                    games: 20,
                    seed: 1,
                    key: 7,
                    max_plies: 10_000,
                    max_quiet: 0,
                    keep_records: false,
                    metrics: true,
                };
                let lineup = Lineup::random();
                let measured = block_of(rules, &spec, &lineup, &coverage, 0..20);
                spec.metrics = false;
                let plain = block_of(rules, &spec, &lineup, &coverage, 0..20);
                let like_plain = block_of(rules, &spec, &lineup, &coverage, 0..0);
                let mut like_measured = like_plain.clone();
                like_measured.metrics = MetricTally::measured();
                (measured, plain, like_measured, like_plain)
            }
        }
        let corpus = crate::corpus::load(&crate::corpus::CorpusFiles::embedded())
            .corpus
            .expect("corpus loads");
        let game = corpus
            .games
            .iter()
            .find(|g| g.id == "um-el-tuweisat")
            .unwrap();
        // The game's first reading (this module names no reading: `tests/tidy.rs`).
        let interp = &game.interpretations[0];
        let bound = crate::bind::bind(game, interp, &serde_json::Map::new()).expect("binds");
        bound.engine.visit(Play)
    }

    /// A measured block round-trips with its measures; a block that lacks them for a
    /// measured run, or has them for an unmeasured one, or whose measures do not fit its
    /// games, is refused, never taken with its games left out of the figures.
    #[test]
    fn measures_round_trip_and_a_block_that_does_not_fit_is_refused() {
        let (measured, plain, like_measured, like_plain) = blocks();
        assert_eq!(measured.metrics.games, 20);
        let back = SavedTally::from(&measured)
            .into_tally(&like_measured, 20)
            .expect("a measured block fits a measured run");
        assert_eq!(back.metrics, measured.metrics);
        SavedTally::from(&plain)
            .into_tally(&like_plain, 20)
            .expect("an unmeasured block fits an unmeasured run");
        let e = SavedTally::from(&plain)
            .into_tally(&like_measured, 20)
            .unwrap_err();
        assert!(e.0.contains("absent from a block"), "{e}");
        let e = SavedTally::from(&measured)
            .into_tally(&like_plain, 20)
            .unwrap_err();
        assert!(e.0.contains("measures nothing"), "{e}");
        // More games measured than played; a sum no share can reach.
        let mut bad = SavedTally::from(&measured);
        bad.metrics.as_mut().unwrap().moments[0].0 = 21;
        assert!(bad.into_tally(&like_measured, 20).is_err());
        let mut bad = SavedTally::from(&measured);
        let m = &mut bad.metrics.as_mut().unwrap().moments[0];
        m.1 = u128::from(m.0) * 1_000_000 + 1;
        assert!(bad.into_tally(&like_measured, 20).is_err());
    }
}
