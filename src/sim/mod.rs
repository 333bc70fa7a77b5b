//! Seeded simulation: random playouts of any engine, in parallel, aggregated in game order.
//!
//! Game *i* of a run draws every random choice (chance steps and moves) from its own
//! `ChaCha8Rng::seed_from_u64(mix(run_seed, reading_key))` with `set_stream(i)`, a portable
//! generator ([`crate::rng`] makes it and its draws), so a game's course depends only on
//! (seed, reading, i). Games are simulated in blocks whose length depends only on the number
//! of games ([`block_len`]), whatever the thread count, and blocks are combined in order;
//! every aggregate is an integer sum, so results are identical at any thread count (and
//! would be at any block length).
//!
//! The random agent picks uniformly among the listed legal moves, as Ludii does (a move
//! listed twice is twice as likely).
//!
//! Architecture Invariant: this module knows engines only through the `Rules` trait and
//! readings only through a 64-bit key; it does no I/O beyond an optional progress callback.
//! It plays the skilled players' games too ([`play_game`]), so it imports `agents`; `agents`
//! never imports it back.

pub mod playthrough;
pub mod saved;

use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;

use crate::agents::{self, Agent, Lineup};
use crate::games::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
};
use crate::rng::{draw, game_rng, run_rng, sample};
use crate::stats::Histogram;

/// The most games per block: the unit of parallel work and of progress reports.
pub const BLOCK: u64 = 256;

/// Blocks a run is cut into at least, where it has games enough: a run of a few hundred long
/// games (Um el Banât's run to thousands of plies) still gives every worker work to the end.
pub const MIN_BLOCKS: u64 = 64;

/// Games per block in a run of `games`: [`BLOCK`], or fewer so that the run makes at least
/// [`MIN_BLOCKS`] blocks. It depends on nothing but the number of games.
pub fn block_len(games: u64) -> u64 {
    games.div_ceil(MIN_BLOCKS).clamp(1, BLOCK)
}

/// The default ply limit for readings without an engine cap.
pub const DEFAULT_MAX_PLIES: u32 = 10_000;

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

/// What a run plays.
#[derive(Debug, Clone, Copy)]
pub struct RunSpec {
    /// Number of games.
    pub games: u64,
    /// The run seed.
    pub seed: u64,
    /// The reading's key ([`crate::rng::reading_key`]).
    pub key: u64,
    /// Plies after which a game of a reading without an engine cap is a timeout.
    pub max_plies: u32,
    /// Keep one record per game (for CSV output).
    pub keep_records: bool,
}

/// How one game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// The game ended (naturally, by an engine rule, or at an engine cap).
    Over(Outcome),
    /// The game did not finish: the run's ply limit stopped a reading with no cap of its
    /// own, or the rules found a move or replay that would go on for ever.
    Timeout(Timeout),
}

/// Why a game is a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// The run's `--max-plies`.
    PlyLimit,
    /// A cycle the rules detected (a relay or a replay that would never end).
    Cycle,
    /// The rules proved that no end can be reached any more ([`EndReason::Endless`]).
    Endless,
}

impl Timeout {
    /// Every reason.
    pub const ALL: [Timeout; 3] = [Timeout::PlyLimit, Timeout::Cycle, Timeout::Endless];

    /// A stable name.
    pub fn name(self) -> &'static str {
        match self {
            Timeout::PlyLimit => "ply-limit",
            Timeout::Cycle => "cycle",
            Timeout::Endless => "endless",
        }
    }
}

/// One simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its index in the run.
    pub index: u64,
    /// How it ended.
    pub end: GameEnd,
    /// Decisions (forced passes included).
    pub plies: u32,
    /// Turns.
    pub turns: u32,
    /// Passes.
    pub passes: u32,
    /// The seat that made the first decision of play, if any decision was made.
    pub first_mover: Option<Seat>,
    /// How often each event kind occurred, by kind index.
    pub events: Vec<u32>,
    /// How often an event was flagged at each place of the run's [`Coverage`] (an
    /// `uncovered:` or `borrowed:` place), by place index.
    pub flags: Vec<u64>,
}

/// Counts events by kind into a slice, and notes in `seen` (bit `k` for kind `k`) which
/// kinds occurred, so that the end of a game visits only those (a game meets a handful of
/// the dozens of kinds a family has).
struct Counter<'a> {
    /// By kind index: as many as a family may have, so that a kind (whose index the
    /// compiler knows to be below its family's count) needs no bounds check.
    counts: &'a mut [u32; MAX_KINDS],
    seen: u128,
}

/// The most event kinds a family may have: the bits of [`Counter::seen`].
const MAX_KINDS: usize = 128;

impl<'a> Counter<'a> {
    /// A counter over `counts`, which must be all zero.
    fn new(counts: &'a mut [u32; MAX_KINDS]) -> Self {
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

/// [`draw`] over `n` moves as an index. The number of legal moves is far below 2³² (an
/// engine lists at most a few hundred).
#[inline(always)]
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    debug_assert!(n > 0 && n <= u32::MAX as usize);
    draw(rng, n as u32) as usize
}

/// How a finished game counts: a game the rules cannot finish (a cycle, an endless
/// position) is a timeout detected early, never a draw. Every loop that plays games to
/// their end (`run`'s, `trace`, the agents') counts them by this.
///
/// # Panics
/// If `outcome` is `None`: a game over has an outcome.
pub fn game_end(outcome: Option<Outcome>) -> GameEnd {
    let outcome = outcome.expect("a finished game has an outcome");
    if outcome.result == Result_::Unfinished {
        GameEnd::Timeout(match outcome.end {
            EndReason::Endless => Timeout::Endless,
            _ => Timeout::Cycle,
        })
    } else {
        GameEnd::Over(outcome)
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

/// Per-game figures that the aggregate needs, without allocating.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Played {
    pub(crate) end: GameEnd,
    first: Option<Seat>,
    plies: u32,
    turns: u32,
    passes: u32,
    decisions: u64,
    legal: u64,
}

/// Plays one game from `state` (already reset): with uniformly random moves, or, with
/// `agents` (a lineup and the game's index), each seat's move chosen by its agent. Every
/// loop that plays a game to its end for a tally goes through here (`run`'s, the agents'),
/// so that the ply limit, chance steps and forced stretches are kept in one place. (The test
/// for agents costs random play nothing measurable: instruction counts are those of the
/// loop without it.)
pub(crate) fn playout<R: Rules>(
    rules: &R,
    state: &mut R::State,
    moves: &mut Vec<R::Move>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    sink: &mut impl EventSink<R::Event>,
    agents: Option<(&Lineup, u64)>,
) -> Played {
    let capped = rules.has_cap();
    let mut passes = 0;
    let mut decisions = 0u64;
    let mut legal = 0u64;
    let end = loop {
        match rules.status(state) {
            Status::Over => break game_end(rules.outcome(state)),
            Status::Chance => {
                let k = sample(rules.chance_outcomes(state), rng);
                rules.apply_chance(state, k, sink);
            }
            Status::ToMove(seat) => {
                if !capped && rules.plies(state) >= max_plies {
                    break GameEnd::Timeout(Timeout::PlyLimit);
                }
                if let Some((lineup, index)) = agents {
                    // An agent's choice, among the listed moves. (No forced stretch: its
                    // skip of one word a ply is random play's, not an agent's.)
                    rules.legal_moves(state, moves);
                    let i = agents::choose(lineup.agent(index, seat), rules, state, moves, rng);
                    let mv = moves[i];
                    decisions += 1;
                    legal += moves.len() as u64;
                    passes += u32::from(rules.is_pass(mv));
                    rules.apply(state, mv, sink);
                    continue;
                }
                let (n, pass) = rules.play_random(state, moves, |n| pick(rng, n), sink);
                decisions += 1;
                legal += n as u64;
                if pass {
                    passes += 1;
                } else if n == 1 {
                    // A forced move may open a stretch of them the engine plays at once
                    // (Li'b al-'Aqil's last counter given back and forth to the cap): each
                    // a decision among one move, whose one word `pick(1)` would draw is
                    // skipped. Without a cap, the run's limit bounds the stretch.
                    let budget = if capped {
                        u32::MAX
                    } else {
                        max_plies.saturating_sub(rules.plies(state))
                    };
                    let k = rules.forced_plies(state, budget, sink);
                    if k > 0 {
                        rng.set_word_pos(rng.get_word_pos() + u128::from(k));
                        decisions += u64::from(k);
                        legal += u64::from(k);
                    }
                }
            }
        }
    };
    Played {
        end,
        first: rules.first_mover(state),
        plies: rules.plies(state),
        turns: rules.turns(state),
        passes,
        decisions,
        legal,
    }
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
    /// The timeouts by [`Timeout`] name.
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
    /// One record per game of a block, in order, when asked for: [`run`] hands them to its
    /// `records` callback and keeps none in the total.
    pub records: Vec<GameRecord>,
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

    fn merge(&mut self, other: &AgentTally) {
        self.games += other.games;
        self.first += other.first;
        self.first_wins += other.first_wins;
        for (m, t) in self.seat_games.iter_mut().zip(&other.seat_games) {
            *m += t;
        }
        for (m, t) in self.seat_wins.iter_mut().zip(&other.seat_wins) {
            *m += t;
        }
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

    fn new(kinds: usize, places: usize, seats: usize, lineup: &Lineup) -> Self {
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
    fn add(
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
    }

    /// Counts game `index` by agent, where the lineup has several.
    fn add_agents(&mut self, p: &Played, lineup: &Lineup, index: u64) {
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
        self.games += other.games;
        for (mine, theirs) in self.agents.iter_mut().zip(&other.agents) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.wins.iter_mut().zip(&other.wins) {
            *mine += theirs;
        }
        for (mine, theirs) in self.first_moves.iter_mut().zip(&other.first_moves) {
            *mine += theirs;
        }
        for (mine, theirs) in self.order_wins.iter_mut().zip(&other.order_wins) {
            *mine += theirs;
        }
        self.draws += other.draws;
        self.timeouts += other.timeouts;
        self.capped += other.capped;
        for (name, c) in other.ends {
            bump(&mut self.ends, name, c);
        }
        for (name, c) in other.timeouts_by_reason {
            bump(&mut self.timeouts_by_reason, name, c);
        }
        if self.ranks.len() < other.ranks.len() {
            self.ranks.resize(other.ranks.len(), Vec::new());
        }
        for (mine, theirs) in self.ranks.iter_mut().zip(other.ranks) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        self.plies.merge(&other.plies);
        self.turns.merge(&other.turns);
        self.passes.merge(&other.passes);
        self.decisions += other.decisions;
        self.legal += other.legal;
        for (a, b) in self.events.iter_mut().zip(other.events) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in self.uncovered.iter_mut().zip(other.uncovered) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in self.event_squares.iter_mut().zip(other.event_squares) {
            *a += b;
        }
        for (a, b) in self
            .uncovered_squares
            .iter_mut()
            .zip(other.uncovered_squares)
        {
            *a += b;
        }
        self.records.extend(other.records);
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

    /// Mean legal moves per decision (forced passes count as one move), as Ludii reports it.
    pub fn branching(&self) -> f64 {
        if self.decisions == 0 {
            0.0
        } else {
            self.legal as f64 / self.decisions as f64
        }
    }
}

/// Plays games `range` of a random run on the calling thread (what [`run`] does per block;
/// also what a one-core benchmark measures).
pub fn block<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    coverage: &Coverage,
    range: std::ops::Range<u64>,
) -> Tally {
    block_of(rules, spec, &Lineup::random(), coverage, range)
}

/// [`block`] with `lineup`'s agents at the seats. A lineup of random agents only is played
/// by random play's own loop: the same games, faster.
pub fn block_of<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    range: std::ops::Range<u64>,
) -> Tally {
    let kinds = <<R::Event as Event>::Kind as EventKind>::COUNT;
    let mut tally = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
    let random = lineup.is_random();
    let mut scratch = vec![0u64; coverage.places.len()];
    let covered: Vec<usize> = (0..kinds)
        .filter(|&k| !coverage.by_kind[k].is_empty())
        .collect();
    let mut state = rules.initial();
    let mut moves = Vec::with_capacity(64);
    let mut counts = [0u32; MAX_KINDS];
    // Per event kind, games in which it occurred and occurrences, in two plain arrays (the
    // tally's pairs are folded in at the end of the block): the per-game loop over every
    // kind then compiles to vector adds.
    let mut in_games = vec![0u64; kinds];
    let mut occurrences = vec![0u64; kinds];
    let mut squares = vec![0u64; kinds];
    let mut rng = run_rng(spec.seed, spec.key);
    for index in range {
        // `counts` is all zero here: the end of each game clears what it used.
        let mut sink = Counter::new(&mut counts);
        rules.reset(&mut state, &mut sink);
        rng.set_stream(index);
        let played = playout(
            rules,
            &mut state,
            &mut moves,
            &mut rng,
            spec.max_plies,
            &mut sink,
            (!random).then_some((lineup, index)),
        );
        let seen = sink.seen;
        tally.add(&played, &counts[..kinds], coverage, &covered, &mut scratch);
        tally.add_agents(&played, lineup, index);
        if spec.keep_records {
            tally.records.push(GameRecord {
                index,
                end: played.end,
                plies: played.plies,
                turns: played.turns,
                passes: played.passes,
                first_mover: played.first,
                events: counts[..kinds].to_vec(),
                flags: scratch.clone(),
            });
        }
        let mut kinds_seen = seen;
        while kinds_seen != 0 {
            let k = kinds_seen.trailing_zeros() as usize;
            kinds_seen &= kinds_seen - 1;
            in_games[k] += 1;
            let c = u64::from(std::mem::take(&mut counts[k]));
            occurrences[k] += c;
            squares[k] += c * c;
        }
    }
    for ((e, g), o) in tally.events.iter_mut().zip(in_games).zip(occurrences) {
        e.0 += g;
        e.1 += o;
    }
    for (e, q) in tally.event_squares.iter_mut().zip(squares) {
        *e += q;
    }
    tally
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

/// The most games one run may play: a bound that keeps every count, index and block range
/// far from overflow.
pub const MAX_GAMES: u64 = 1_000_000_000;

/// A number of games no run may play: none, or more than [`MAX_GAMES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a run plays 1 to {MAX_GAMES} games, not {given}")]
pub struct GamesError {
    /// The number refused.
    pub given: u64,
}

/// The one rule on the number of games of a run: 1 to [`MAX_GAMES`]. The command line checks
/// each number of games a user gives by it, and the runner the games it is asked to play, so
/// that the two cannot disagree.
///
/// # Errors
/// [`GamesError`], for none or more than [`MAX_GAMES`].
pub fn check_games(games: u64) -> Result<u64, GamesError> {
    if (1..=MAX_GAMES).contains(&games) {
        Ok(games)
    } else {
        Err(GamesError { given: games })
    }
}

/// Runs `spec.games` random games, in parallel on the current rayon pool: [`run_games`] of
/// them all at random.
///
/// # Errors
/// [`GamesError`] if `spec.games` exceeds [`MAX_GAMES`] (the command line refuses it first,
/// by the same [`check_games`]).
pub fn run<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    coverage: &Coverage,
    progress: &(dyn Fn(u64) + Sync),
    records: &mut dyn FnMut(&[GameRecord]),
) -> Result<Tally, GamesError> {
    run_games(
        rules,
        spec,
        &Lineup::random(),
        coverage,
        0..spec.games,
        progress,
        records,
    )
}

/// Plays games `games` of a run (of `spec.games`, the lineup's agents at the seats), in
/// parallel on the current rayon pool, calling
/// `progress(games_done_in_block)` as blocks finish and, when `spec.keep_records` is set,
/// `records(block)` with each block's records in game order: [`run_blocks`], every block
/// played.
///
/// # Errors
/// [`GamesError`] if `games` ends past [`MAX_GAMES`] (the command line refuses it first, by
/// the same [`check_games`]).
pub fn run_games<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    games: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    records: &mut dyn FnMut(&[GameRecord]),
) -> Result<Tally, GamesError> {
    run_blocks(
        rules,
        spec,
        lineup,
        coverage,
        games,
        progress,
        &mut Blocks {
            records,
            ..Blocks::default()
        },
    )
}

/// The blocks games `games` of a run are played in, in order: consecutive ranges of
/// [`block_len`] games (the last one shorter). They depend on nothing but the range, which
/// is what lets a store, a plan's units and a shard name a block by its range.
pub fn block_ranges(games: std::ops::Range<u64>) -> impl Iterator<Item = std::ops::Range<u64>> {
    let count = games.end.saturating_sub(games.start);
    let len = block_len(count);
    (0..count.div_ceil(len))
        .map(move |b| games.start + b * len..(games.start + (b + 1) * len).min(games.end))
}

/// What a run does with each block besides playing it: where a block's tally may come from,
/// and who is told of each one played. The default plays every block and tells no one.
pub struct Blocks<'a> {
    /// Asked on the calling thread, in order, before a block is played: [`Block::Have`]
    /// gives its tally from elsewhere (a store; with `spec.keep_records`, its records
    /// included), [`Block::Skip`] leaves it out of the total (a unit of work computes only
    /// its own blocks).
    /// `like` is an empty tally of the run, the shape a block's must have.
    pub source: &'a mut dyn FnMut(std::ops::Range<u64>, &Tally) -> Block,
    /// Called with each block played here (records included) as soon as it is played, on
    /// the worker that played it, in no fixed order: a store keeps it at once, so a run
    /// killed midway loses only the blocks in play.
    pub played: &'a (dyn Fn(std::ops::Range<u64>, &Tally) + Sync),
    /// Each block's records in game order (played or had), when `spec.keep_records` is set.
    pub records: &'a mut dyn FnMut(&[GameRecord]),
}

impl Default for Blocks<'_> {
    fn default() -> Self {
        // Leaked no-ops cost nothing: zero-sized closures.
        Blocks {
            source: Box::leak(Box::new(|_, _: &Tally| Block::Play)),
            played: &|_, _: &Tally| {},
            records: Box::leak(Box::new(|_: &[GameRecord]| {})),
        }
    }
}

/// Where one block's tally comes from.
#[derive(Debug)]
pub enum Block {
    /// Play it.
    Play,
    /// Take this tally (the block's, played before).
    Have(Box<Tally>),
    /// Leave it out.
    Skip,
}

/// Plays games `games` of a run (of `spec.games`, the lineup's agents at the seats) block
/// by block ([`block_ranges`]), in parallel on the current rayon pool, taking blocks from and
/// reporting them to `blocks`, and calling `progress(games)` as blocks finish or are had.
///
/// Blocks are played a window at a time (a few per worker) and folded into the total in
/// order as each window finishes, so memory does not grow with the number of games, and the
/// total is the same at any thread count (every aggregate is an integer sum, and blocks are
/// folded in the order of their games whoever played them). For the same reason games
/// `0..a` and `a..b` merged ([`Tally::merge`]) are games `0..b`.
///
/// # Errors
/// [`GamesError`] if `games` ends past [`MAX_GAMES`] (the command line refuses it first, by
/// the same [`check_games`]).
pub fn run_blocks<R: Rules>(
    rules: &R,
    spec: &RunSpec,
    lineup: &Lineup,
    coverage: &Coverage,
    games: std::ops::Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    blocks: &mut Blocks,
) -> Result<Tally, GamesError> {
    // Games `games` lie in a run of `games.end` games (an empty range at the start, in a run
    // of one): that run must be one the rule allows.
    check_games(games.end.max(1))?;
    let kinds = <<R::Event as Event>::Kind as EventKind>::COUNT;
    let ranges: Vec<std::ops::Range<u64>> = block_ranges(games).collect();
    // Enough blocks per worker that the wait for a window's slowest block costs little (a
    // worker idles while the others finish the window: about half a block each, so 1/32 of
    // the window's work); at most 128 in flight bound the memory (each block's length
    // histograms grow with its longest game).
    let window = 16 * rayon::current_num_threads().clamp(1, 8);
    let mut total = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
    for chunk in ranges.chunks(window) {
        let like = Tally::new(kinds, coverage.places.len(), rules.seats(), lineup);
        let sources: Vec<Block> = chunk
            .iter()
            .map(|r| (blocks.source)(r.clone(), &like))
            .collect();
        let played = blocks.played;
        let tallies: Vec<Option<Tally>> = chunk
            .par_iter()
            .zip(sources)
            .map(|(range, source)| {
                let len = range.end - range.start;
                let t = match source {
                    Block::Skip => return None,
                    Block::Have(t) => *t,
                    Block::Play => {
                        let t = block_of(rules, spec, lineup, coverage, range.clone());
                        played(range.clone(), &t);
                        t
                    }
                };
                progress(len);
                Some(t)
            })
            .collect();
        for mut t in tallies.into_iter().flatten() {
            (blocks.records)(&t.records);
            t.records = Vec::new();
            total.merge(t);
        }
    }
    Ok(total)
}

/// Plays game `index` of a run, recording each decision: for playthroughs and debugging.
pub fn trace<R: Rules>(
    rules: &R,
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
    mut step: impl FnMut(TraceStep<'_, R>),
) -> GameEnd {
    let mut rng = game_rng(seed, key, index);
    let mut state = rules.initial();
    let mut moves = Vec::new();
    let mut start = Vec::new();
    rules.reset(&mut state, &mut start);
    if !start.is_empty() {
        step(TraceStep {
            seat: None,
            chance: None,
            legal: &[],
            chosen: 0,
            events: &start,
            state: &state,
        });
    }
    loop {
        match rules.status(&state) {
            Status::Over => return game_end(rules.outcome(&state)),
            Status::Chance => {
                let k = sample(rules.chance_outcomes(&state), &mut rng);
                let mut events = Vec::new();
                rules.apply_chance(&mut state, k, &mut events);
                step(TraceStep {
                    seat: None,
                    chance: Some(k),
                    legal: &[],
                    chosen: 0,
                    events: &events,
                    state: &state,
                });
            }
            Status::ToMove(seat) => {
                if !rules.has_cap() && rules.plies(&state) >= max_plies {
                    return GameEnd::Timeout(Timeout::PlyLimit);
                }
                rules.legal_moves(&state, &mut moves);
                let k = pick(&mut rng, moves.len());
                let mut events = Vec::new();
                rules.apply(&mut state, moves[k], &mut events);
                step(TraceStep {
                    seat: Some(seat),
                    chance: None,
                    legal: &moves,
                    chosen: k,
                    events: &events,
                    state: &state,
                });
            }
        }
    }
}

/// One step of a traced game, after it was made.
pub struct TraceStep<'a, R: Rules> {
    /// The seat that moved (none for a chance step).
    pub seat: Option<crate::games::Seat>,
    /// The chance outcome, for a chance step.
    pub chance: Option<usize>,
    /// The legal moves (empty for a chance step).
    pub legal: &'a [R::Move],
    /// The index of the move played.
    pub chosen: usize,
    /// What the rules reported.
    pub events: &'a [R::Event],
    /// The position after the step.
    pub state: &'a R::State,
}

/// Plays game `index` of a run (`seed`, reading `key`) with `agents[seat % agents.len()]`
/// at each seat, every choice (chance steps and the agents' own) drawn from
/// [`game_rng`]`(seed, key, index)`; a reading without an engine cap stops after
/// `max_plies` decisions as a timeout. Returns how it ended and the decisions made.
/// With random agents at every seat it is the very game `ludotrace run` plays.
///
/// # Panics
/// If `agents` is empty or longer than [`agents::MAX_LINEUP`].
pub fn play_game<R: Rules>(
    rules: &R,
    agents: &[Agent],
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
) -> (GameEnd, u32) {
    let mut rng = game_rng(seed, key, index);
    let mut state = rules.initial();
    let end = play(rules, agents, &mut rng, max_plies, &mut state);
    (end, rules.plies(&state))
}

/// [`play_game`] on a caller's state and generator: resets `state`, plays the game to its
/// end or to `max_plies` decisions (readings without an engine cap), and leaves the last
/// position in `state`. The game is played by the loop `run` plays its games with.
///
/// # Panics
/// If `agents` is empty or longer than [`agents::MAX_LINEUP`].
pub fn play<R: Rules>(
    rules: &R,
    agents: &[Agent],
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    state: &mut R::State,
) -> GameEnd {
    let lineup = Lineup::new(agents.to_vec(), false).expect("1 to MAX_LINEUP agents");
    rules.reset(state, &mut NoEvents);
    let mut moves = Vec::new();
    playout(
        rules,
        state,
        &mut moves,
        rng,
        max_plies,
        &mut NoEvents,
        Some((&lineup, 0)),
    )
    .end
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    /// A run has 1 to `MAX_GAMES` games; the refusal says so in the user's terms.
    #[test]
    fn a_run_has_one_to_max_games() {
        assert_eq!(check_games(1), Ok(1));
        assert_eq!(check_games(MAX_GAMES), Ok(MAX_GAMES));
        for n in [0, MAX_GAMES + 1, u64::MAX] {
            assert_eq!(check_games(n), Err(GamesError { given: n }));
        }
        assert_eq!(
            GamesError { given: 0 }.to_string(),
            "a run plays 1 to 1000000000 games, not 0"
        );
    }

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

    /// Random agents played through the agents' branch of [`playout`] (a legal-move list
    /// and [`agents::choose`] a decision, no forced stretches) play random play's very games:
    /// the same end, lengths, passes, decisions, legal moves summed and events by kind, for
    /// every reading of the built-in corpus.
    #[test]
    fn the_agents_branch_with_random_agents_is_random_play() {
        struct Both;
        impl crate::registry::EngineVisitor for Both {
            type Output = ();
            fn visit<F: crate::registry::GameFamily>(self, rules: &F::Rules) {
                let lineup = Lineup::random();
                let mut state = rules.initial();
                let mut moves = Vec::new();
                for index in 0..40 {
                    let mut play = |agents: bool| {
                        let mut counts = [0u32; MAX_KINDS];
                        let mut sink = Counter::new(&mut counts);
                        let mut rng = game_rng(5, 77, index);
                        rules.reset(&mut state, &mut sink);
                        let played = if agents {
                            playout(
                                rules,
                                &mut state,
                                &mut moves,
                                &mut rng,
                                3000,
                                &mut sink,
                                Some((&lineup, index)),
                            )
                        } else {
                            playout(
                                rules, &mut state, &mut moves, &mut rng, 3000, &mut sink, None,
                            )
                        };
                        (played, counts)
                    };
                    let (fast, fast_counts) = play(false);
                    let (agents, agents_counts) = play(true);
                    assert_eq!(fast, agents, "game {index}");
                    assert_eq!(fast_counts, agents_counts, "game {index}");
                }
            }
        }
        let corpus = crate::corpus::load(&crate::corpus::CorpusFiles::embedded())
            .corpus
            .expect("corpus loads");
        for game in &corpus.games {
            for interp in &game.interpretations {
                let bound =
                    crate::bind::bind(game, interp, &serde_json::Map::new()).expect("binds");
                bound.engine.visit(Both);
            }
        }
    }

    /// A forced stretch's skipped words are the draws `pick(1)` would have made for its
    /// decisions, one word each: from any place in the stream, over any number of plies
    /// (within a buffered block, to its end, past it), the generator goes on as if it had
    /// drawn them.
    #[test]
    fn a_skipped_stretch_is_one_word_a_forced_decision() {
        for start in [0u32, 5, 63, 64, 200] {
            for plies in [1u32, 2, 58, 59, 64, 65, 1000, 2500] {
                let mut drawn = game_rng(3, 9, u64::from(start));
                let mut skipped = game_rng(3, 9, u64::from(start));
                for _ in 0..start {
                    drawn.next_u32();
                    skipped.next_u32();
                }
                for _ in 0..plies {
                    assert_eq!(pick(&mut drawn, 1), 0);
                }
                skipped.set_word_pos(skipped.get_word_pos() + u128::from(plies));
                for word in 0..70 {
                    assert_eq!(
                        drawn.next_u32(),
                        skipped.next_u32(),
                        "from word {start}, {plies} plies: word {word} after"
                    );
                }
            }
        }
    }
}
