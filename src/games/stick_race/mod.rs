//! The stick-race engine: Sijat El Taba, played from [`StickRaceParams`].
//!
//! The board is `rows × cols` houses numbered `cols·row + col`, row 0 at the bottom (seat 1's
//! nearest row) and column 0 at the left, as Ludii numbers Sijat's board, so the adapter in
//! `crate::ludii` maps houses one to one. Each seat has a track, a table of houses; a position
//! on a track is an index into that table (`tracks` lays them out):
//! - `boustrophedon`: over every house, seat 1 from the bottom left eastward, then up a row
//!   and back; seat 2 from the top right westward, then down a row and back. In every row both
//!   run the same way, so counters "never meet each other, but they may catch each other up".
//! - `circuit`: one ring through every house, which both run the same way round, seat 2 half
//!   a lap ahead of seat 1; a course is one lap.
//! - `lanes`: each seat a boustrophedon over its half of the rows; the tracks share no house.
//!
//! Chance is explicit: a seat about to throw is a [`Status::Chance`] step whose outcomes are
//! the throws 1, 2, 4, 6 with weights 3, 3, 1, 1 (three two-sided sticks: one flat side up is
//! a tâba, two a yômên, three a rabî', none a séta). The throw is then used by one decision of
//! the same seat: bank or spend a tâba, move a counter, or pass. A yômên ends the turn; so,
//! under `unusable: end-turn`, does a throw no counter can use. Under `release: credit` (and,
//! with a tâba in hand, `release: at-throw`) a banked tâba releases a counter as a decision of
//! its own, after which the throw in hand is still to be used.
//!
//! Where a move may end beside an enemy (`beside_enemy`), a house can hold a counter of each
//! side, so each side's counters (and released counters) are a bit set of their own. Where a
//! side's counters stack (`stack`), the bit sets say which houses a side holds, and the state
//! also counts the released counters on each house and marks the one not yet released (a
//! starting house holds at most one); an enemy eating on a house eats them all.
//!
//! The end tests run after every decision in Ludii's order (TRACES.md §3.5): the game's own
//! end (`final-rows`, `annihilation` or `courses-run`, decided by captures; `agreed-time` is
//! tested as the sticks pass), then the ends no rule reaches, then the engine's cap. A game that can provably never reach its end (courses
//! that go on round under `courses-run`; tracks that share no house under `annihilation`; a
//! board on which nothing can ever move again, found at a forced pass) is stopped as
//! [`EndReason::Endless`], unless an engine cap will end it, or, under `standstill: decide`,
//! ended and decided as it stands.
//!
//! The engine is split by concern, each file an `impl StickRace` block of its own (its
//! methods `pub(super)` where another file calls them): `setup` builds the tracks, the tables
//! and positions, `board` the counters on the board (the bit sets each side keeps, how far a
//! throw takes a counter, what a move passes and eats), `moves` the legal moves and random
//! play's choice, `end` the end rules, `events` the events and `text` how houses, throws,
//! moves and events are written. The bit-set tricks are shared with the other engines in
//! `crate::games::bits`. This file holds the types they share and the [`Rules`] impl that
//! dispatches to them.

use super::bits::{below, bit_indices, nth_bit_wide};
pub use super::core::sticks::THROWS;
use super::core::sticks::{self, Cast};
use super::core::{CapError, Clock, Limit, lot_weights};
use super::{
    Count, EndReason, Event, EventKind, EventSink, MoveSink, NoEvents, Outcome, Result_, Rules,
    Seat, Status, event_kinds, view,
};
use crate::family::stick_race::{
    Capture, Credits, End, Overshoot, Overtaken, Release, Standstill, Start, Starter,
    StickRaceParams, Track, Unusable,
};
use std::fmt;

mod board;
mod end;
mod events;
mod moves;
mod position;
mod setup;
mod text;

pub use events::{StickRaceEvent, StickRaceEventKind};
pub use setup::{SetupError, StickSetup};
pub use text::{house_name, throw_name};

use text::{EventDisplay, MoveText};

use board::houses_of;

/// The most houses a board may have (one bit each in a `u128`).
pub const MAX_HOUSES: usize = 128;

/// Off the board: a counter borne off, or no house.
pub const OFF: u8 = u8::MAX;

/// A decision in a stick race.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StickMove {
    /// Bank the tâba just thrown.
    Bank,
    /// Release the counter on `from` with the tâba just thrown; it stays (`to == from`) or
    /// moves one house.
    Release {
        /// The counter's house.
        from: u8,
        /// Where it ends.
        to: u8,
    },
    /// Release the counter on `from` by spending a banked tâba; the throw in hand is still to
    /// be used.
    CreditRelease {
        /// The counter's house.
        from: u8,
        /// Where it ends.
        to: u8,
    },
    /// Move an active counter by the throw, plus `spent` banked tâbas. `to` is [`OFF`] for a
    /// counter that bears off. `reach` is how far it goes along its track.
    Move {
        /// The counter's house.
        from: u8,
        /// Where it lands, or [`OFF`].
        to: u8,
        /// Banked tâbas spent on the move (all of them under `credits: all`).
        spent: u8,
        /// The move spends the credit (Ludii's "capture with credits"), even when none is
        /// banked (Ludii 1.0.8's −1 defect).
        with_credit: bool,
    },
    /// Let the throw go: forced (nothing can use it) or, where the reading allows, chosen.
    Pass,
}

/// Parameters the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StickRaceError {
    /// Board shape.
    #[error(
        "rows = {rows}, cols = {cols}: the stick-race engine plays 2 to 8 rows of 2 to 16 \
         houses, at most {MAX_HOUSES} houses"
    )]
    Board {
        /// Rows.
        rows: u8,
        /// Houses a row.
        cols: u8,
    },
    /// An agreed time of no turns, or beyond any cap.
    #[error(
        "agreed_turns = {0}: the agreed time is 1 to {max} turns",
        max = crate::family::Cap::MAX
    )]
    AgreedTurns(u32),
    /// Too many or too few counters.
    #[error(
        "pieces = {pieces} with cols = {cols}: a side has 1 to {cols} counters, one row's worth \
         (change pieces or cols)"
    )]
    Pieces {
        /// Counters a side.
        pieces: u8,
        /// Houses a row.
        cols: u8,
    },
    /// A circuit the board cannot hold.
    #[error(
        "track = circuit with rows = {rows}, cols = {cols}: the circuit needs an even number of \
         rows and of houses a row (change track, rows or cols)"
    )]
    Circuit {
        /// Rows.
        rows: u8,
        /// Houses a row.
        cols: u8,
    },
    /// A cap that does not bound the game.
    #[error(transparent)]
    Cap(#[from] CapError),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The lot is pending.
    Lot,
    /// The mover is to throw.
    Throw,
    /// The mover is to use `throw`.
    Decide,
    /// The game is over.
    Over,
}

/// A position in a stick race.
#[derive(Debug, Clone)]
pub struct StickRaceState {
    /// Each seat's counters, one bit per house.
    pieces: [u128; 2],
    /// `order[view][seat]`: the seat's counters as bits of their indices on `view`'s track.
    order: [[u128; 2]; 2],
    /// Each seat's counters released (free to move), one bit per house.
    active: [u128; 2],
    /// Where a side's counters may stack (`stack`): each seat's released counters on each
    /// house, and its counters not yet released (at most one a house, on its starting houses),
    /// one bit per house; and each seat's counters beyond one a house. Unused otherwise.
    stacked: [[u8; MAX_HOUSES]; 2],
    waiting: [u128; 2],
    extra: [u32; 2],
    /// Each seat's released counters as bits of their indices on its own track.
    active_t: [u128; 2],
    /// Counters borne off.
    home: [u8; 2],
    /// Banked tâbas.
    bank: [u32; 2],
    /// Counters each seat has eaten.
    score: [u32; 2],
    phase: Phase,
    mover: u8,
    /// The throw in hand (phase `Decide`).
    throw: u8,
    clock: Clock,
    /// Turns ended (the sticks passed), a turn a yômên ends at once included.
    turns_done: u32,
    outcome: Option<Outcome>,
}

impl StickRaceState {
    /// Who has a counter on `house`.
    pub fn who(&self, house: usize) -> Option<Seat> {
        (0..2).find(|&s| self.pieces[s] >> house & 1 == 1)
    }

    /// Whether the counter on `house` has been released (of the first seat that has one
    /// there, as [`StickRaceState::who`] answers).
    pub fn is_active(&self, house: usize) -> bool {
        self.who(house)
            .is_some_and(|seat| self.is_active_of(seat, house))
    }

    /// Whether `seat` has a released counter on `house`.
    pub fn is_active_of(&self, seat: Seat, house: usize) -> bool {
        self.active[seat] >> house & 1 == 1
    }

    /// Whether `seat` has a counter not yet released on `house` (where a side's counters
    /// stack, released ones of its side may stand there too).
    pub fn is_waiting(&self, seat: Seat, house: usize) -> bool {
        self.waiting[seat] >> house & 1 == 1
            || (self.has(seat, house) && !self.is_active_of(seat, house))
    }

    /// Whether `seat` has a counter on `house` (two sides' counters may share a house where
    /// a move may end beside an enemy).
    pub fn has(&self, seat: Seat, house: usize) -> bool {
        self.pieces[seat] >> house & 1 == 1
    }

    /// Banked tâbas.
    pub fn bank(&self) -> [u32; 2] {
        self.bank
    }

    /// Counters each seat has eaten.
    pub fn score(&self) -> [u32; 2] {
        self.score
    }

    /// Counters each seat has borne off.
    pub fn home(&self) -> [u8; 2] {
        self.home
    }

    /// Counters of `seat` on the board.
    pub fn pieces(&self, seat: Seat) -> u32 {
        self.pieces[seat].count_ones() + self.extra[seat]
    }

    /// Counters of `seat` on `house`.
    pub fn count(&self, seat: Seat, house: usize) -> u32 {
        if !self.has(seat, house) {
            0
        } else if self.stacked[seat][house] > 0 || self.waiting[seat] >> house & 1 == 1 {
            u32::from(self.stacked[seat][house]) + (self.waiting[seat] >> house & 1) as u32
        } else {
            1
        }
    }

    /// The seat to throw or to decide.
    pub fn mover(&self) -> Seat {
        usize::from(self.mover)
    }

    /// The throw in hand, if the mover is to use one.
    pub fn throw(&self) -> Option<u8> {
        (self.phase == Phase::Decide).then_some(self.throw)
    }
}

/// The stick-race rules of one reading.
#[derive(Debug, Clone)]
pub struct StickRace {
    p: StickRaceParams,
    rows: usize,
    cols: usize,
    /// Houses on each seat's track (all of them but on separate lanes).
    len: usize,
    /// `track[seat][i]`: the house at index i of the seat's track.
    track: [Vec<u8>; 2],
    /// `index[seat][house]`: the house's index on the seat's track, [`OFF`] if it is not on
    /// it.
    index: [Vec<u8>; 2],
    /// Each seat's last row (the last stretch of a row's length of its track), as a bit set.
    last_row: [u128; 2],
    /// The two tracks share no house, so no counter can ever eat another.
    apart: bool,
    /// `below[n]`: the bits below n (a variable shift of a `u128` is dear; a load is not).
    below: Box<[u128; MAX_HOUSES + 1]>,
    /// Random play counts the moves instead of listing them (`choose`): a fresh tâba releases
    /// a counter where it stands, only a landing eats, a counter lands exactly, and every
    /// usable throw must be used (Ludii's readings and the DLP's).
    counted: bool,
    limit: Limit,
}

impl StickRace {
    /// The parameters.
    pub fn params(&self) -> &StickRaceParams {
        &self.p
    }

    /// Rows of houses.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Houses a row.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The houses of a seat's track, in order.
    pub fn track(&self, seat: Seat) -> &[u8] {
        &self.track[seat]
    }
}

impl Rules for StickRace {
    type State = StickRaceState;
    type Move = StickMove;
    type Event = StickRaceEvent;

    fn initial(&self) -> StickRaceState {
        let mut s = StickRaceState {
            pieces: [0; 2],
            order: [[0; 2]; 2],
            active: [0; 2],
            stacked: [[0; MAX_HOUSES]; 2],
            waiting: [0; 2],
            extra: [0; 2],
            active_t: [0; 2],
            home: [0; 2],
            bank: [0; 2],
            score: [0; 2],
            phase: Phase::Throw,
            mover: 0,
            throw: 0,
            clock: Clock::new(),
            turns_done: 0,
            outcome: None,
        };
        self.reset(&mut s, &mut NoEvents);
        s
    }

    fn reset(&self, s: &mut StickRaceState, _events: &mut impl EventSink<StickRaceEvent>) {
        s.pieces = [0; 2];
        for seat in 0..2 {
            for i in self.start_indices() {
                s.pieces[seat] |= 1u128 << self.track[seat][i];
            }
        }
        s.active = [0; 2];
        self.sync_order(s);
        s.home = [0; 2];
        s.bank = [0; 2];
        s.score = [0; 2];
        s.mover = 0;
        s.throw = 0;
        s.clock = Clock::new();
        s.turns_done = 0;
        s.outcome = None;
        s.phase = match self.p.starter {
            Starter::FirstSeat => Phase::Throw,
            Starter::Lot => Phase::Lot,
        };
    }

    fn status(&self, s: &StickRaceState) -> Status {
        match s.phase {
            Phase::Lot | Phase::Throw => Status::Chance,
            Phase::Decide => Status::ToMove(usize::from(s.mover)),
            Phase::Over => Status::Over,
        }
    }

    fn legal_moves(&self, s: &StickRaceState, out: &mut Vec<StickMove>) {
        out.clear();
        if s.phase == Phase::Decide {
            self.decisions(s, out);
        }
    }

    // Inlined into random play's decision (`Rules::play_random`), its one hot caller:
    // with the agents' callers too the compiler would otherwise keep it a call.
    #[inline]
    fn apply(
        &self,
        s: &mut StickRaceState,
        mv: StickMove,
        events: &mut impl EventSink<StickRaceEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Decide);
        let seat = usize::from(s.mover);
        s.clock.tick(s.mover);
        let throw = s.throw;
        // Whether the throw in hand has been used (or lost), and whether the turn goes on.
        let mut used = true;
        let mut again = sticks::throws_on(throw);
        let mut forced = false;
        match mv {
            StickMove::Bank => {
                s.bank[seat] += 1;
                events.emit(StickRaceEvent::Banked { seat });
            }
            StickMove::Release { from, to } => {
                events.emit(StickRaceEvent::Released { house: from });
                self.release(s, seat, from);
                if to != from {
                    self.run(s, seat, from, to, 1, events);
                }
            }
            StickMove::CreditRelease { from, to } => {
                s.bank[seat] -= 1;
                events.emit(StickRaceEvent::CreditRelease { house: from });
                self.release(s, seat, from);
                if to != from {
                    self.run(s, seat, from, to, 1, events);
                }
                used = false;
            }
            StickMove::Move {
                from,
                to,
                spent,
                with_credit,
            } => {
                let i = usize::from(self.index[seat][usize::from(from)]);
                let j = if to == OFF {
                    self.len
                } else {
                    usize::from(self.index[seat][usize::from(to)])
                };
                // A move with tâbas alone (`any-move`) goes as far as the tâbas spent, never
                // off the board; one with the throw goes further by the throw.
                let alone = with_credit
                    && self.p.credits == Credits::AnyMove
                    && j < self.len
                    && (j + self.len - i) % self.len == usize::from(spent);
                if with_credit {
                    if s.bank[seat] == 0 {
                        events.emit(StickRaceEvent::EmptyCredit);
                    } else if self.p.credits == Credits::AnyMove
                        && self
                            .sweep(s, seat, i, j)
                            .is_none_or(|(passed, landed)| self.eaten(i, passed, landed) == 0)
                    {
                        events.emit(StickRaceEvent::CreditMove { spent });
                    } else {
                        events.emit(StickRaceEvent::CreditCapture { spent });
                    }
                    s.bank[seat] -= u32::from(spent);
                }
                // The Ludii defect moves one house short of the throw.
                let dist = if alone {
                    usize::from(spent)
                } else if with_credit && spent == 0 {
                    usize::from(throw) - 1
                } else {
                    usize::from(throw) + usize::from(spent)
                };
                self.run(s, seat, from, to, dist, events);
                if alone {
                    used = false;
                }
            }
            StickMove::Pass => {
                let mut usable = Count(0);
                self.throw_moves(s, seat, &mut usable);
                forced = usable.0 == 0;
                if forced {
                    events.emit(StickRaceEvent::UnusableThrow { seat, throw });
                    match self.p.unusable {
                        Unusable::ThrowAgain => {}
                        Unusable::EndTurn => again = false,
                        Unusable::Bank => {
                            s.bank[seat] += u32::from(throw);
                            events.emit(StickRaceEvent::ThrowBanked { seat, throw });
                        }
                    }
                } else {
                    events.emit(StickRaceEvent::Declined { seat });
                }
            }
        }
        if self.end_tests(s, events) {
            return;
        }
        // Nothing could use the throw: if nothing can ever move again, the game cannot reach
        // its end (a frozen board shows itself first by a forced pass).
        if forced && self.p.end != End::AgreedTime && self.frozen(s) && self.standstill(s, events) {
            return;
        }
        if !used {
            return;
        }
        if again {
            s.phase = Phase::Throw;
        } else {
            self.end_turn(s, events);
        }
    }

    fn chance_outcomes(&self, s: &StickRaceState) -> &'static [u32] {
        match s.phase {
            Phase::Lot => lot_weights(2),
            Phase::Throw => &sticks::WEIGHTS,
            _ => &[],
        }
    }

    fn apply_chance(
        &self,
        s: &mut StickRaceState,
        k: usize,
        events: &mut impl EventSink<StickRaceEvent>,
    ) {
        match s.phase {
            Phase::Lot => {
                events.emit(StickRaceEvent::Lot { seat: k });
                s.mover = k as u8;
                s.phase = Phase::Throw;
            }
            Phase::Throw => match sticks::cast(k, self.p.yomen_played) {
                Cast::Stops => {
                    events.emit(StickRaceEvent::YomenStops {
                        seat: usize::from(s.mover),
                    });
                    self.end_turn(s, events);
                }
                Cast::Play(throw) => {
                    s.throw = throw;
                    s.phase = Phase::Decide;
                }
            },
            _ => debug_assert!(false, "no chance step is pending"),
        }
    }

    fn outcome(&self, s: &StickRaceState) -> Option<Outcome> {
        s.outcome
    }

    fn clock<'s>(&self, s: &'s StickRaceState) -> &'s Clock {
        &s.clock
    }

    fn limit(&self) -> Limit {
        self.limit
    }

    fn is_pass(&self, mv: StickMove) -> bool {
        mv == StickMove::Pass
    }

    /// Each seat's counters and which are released (with their stacks), those borne off,
    /// the banked tâbas, the counters eaten, the mover, the phase and the throw in hand.
    fn position_key(&self, s: &StickRaceState) -> Option<u64> {
        let mix = super::core::mix;
        let mut h = 0;
        for seat in 0..2 {
            for w in [s.pieces[seat], s.active[seat], s.waiting[seat]] {
                h = mix(h, w as u64);
                h = mix(h, (w >> 64) as u64);
            }
            if self.p.stack {
                for chunk in s.stacked[seat].chunks(8) {
                    let word = chunk
                        .iter()
                        .enumerate()
                        .fold(0u64, |w, (i, &c)| w | u64::from(c) << (8 * i));
                    h = mix(h, word);
                }
                h = mix(h, u64::from(s.extra[seat]));
            }
            h = mix(
                h,
                u64::from(s.home[seat])
                    | u64::from(s.bank[seat]) << 8
                    | u64::from(s.score[seat]) << 40,
            );
        }
        Some(mix(
            h,
            (s.phase as u64) | u64::from(s.mover) << 8 | u64::from(s.throw) << 16,
        ))
    }

    /// The houses.
    fn board_sites(&self) -> usize {
        self.rows * self.cols
    }

    /// The houses that hold a counter.
    fn occupied(&self, s: &StickRaceState) -> crate::games::Sites {
        [s.pieces[0] | s.pieces[1], 0]
    }

    /// Progress along the seat's track and captures, in houses: each released counter counts
    /// its index on the seat's track plus one (a counter not yet released counts nothing),
    /// each counter borne off and each enemy counter eaten ([`StickRaceState::score`]) a whole
    /// track's length. Banked tâbas do not count.
    fn material(&self, s: &StickRaceState, seat: Seat) -> i64 {
        let len = self.len as i64;
        let mut progress = 0i64;
        for h in houses_of(s.pieces[seat] & s.active[seat]) {
            let released = if self.p.stack {
                i64::from(s.stacked[seat][usize::from(h)])
            } else {
                1
            };
            let k = self.index[seat][usize::from(h)];
            if k != OFF {
                progress += released * (i64::from(k) + 1);
            }
        }
        progress + len * (i64::from(s.score[seat]) + i64::from(s.home[seat]))
    }

    /// Where the moves can be counted, the k-th is found without listing them
    /// ([`StickRace::choose_counted`]).
    #[inline]
    fn choose(
        &self,
        s: &StickRaceState,
        buf: &mut Vec<StickMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (StickMove, usize) {
        self.choose_counted(s, buf, pick)
    }

    fn move_text(&self, mv: StickMove) -> String {
        MoveText {
            mv,
            cols: Some(self.cols),
        }
        .to_string()
    }

    fn event_text(&self, event: &StickRaceEvent) -> String {
        EventDisplay {
            event: *event,
            cols: Some(self.cols),
        }
        .to_string()
    }

    fn chance_text(&self, s: &StickRaceState, k: usize) -> String {
        match s.phase {
            Phase::Throw => {
                let t = sticks::THROWS[k];
                format!("the sticks fall {t} ({})", throw_name(t))
            }
            _ => "the lot".to_owned(),
        }
    }

    fn board(&self, s: &StickRaceState) -> view::BoardView {
        self.board_view(s)
    }

    fn move_params(&self, mv: StickMove) -> &'static [&'static str] {
        Self::move_rule(mv)
    }

    fn position_text(&self, s: &StickRaceState) -> String {
        self.notation(s)
    }

    fn parse_position(&self, text: &str) -> Result<StickRaceState, super::position::PositionError> {
        self.read_position(text)
    }

    fn position_fields(&self) -> &'static [super::position::FieldSpec] {
        position::FIELDS
    }

    fn position_decides(&self) -> Result<(), String> {
        // The position decides what follows, but the sticks decide it too: `solve` refuses
        // the game for its chance, not for its history.
        Ok(())
    }

    fn state_text(&self, s: &StickRaceState) -> String {
        let throw = match s.phase {
            Phase::Decide => format!(" throw={}", s.throw),
            _ => String::new(),
        };
        format!(
            "{} bank={}-{} eaten={}-{}{throw}",
            self.board_text(s),
            s.bank[0],
            s.bank[1],
            s.score[0],
            s.score[1]
        )
    }
}
