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

use std::fmt;

use super::bits::{below, bit_indices, nth_bit_wide};
use super::core::sticks::{self, Cast};
use super::core::{CapError, Clock, Limit, lot_weights};
use super::{
    Count, EndReason, Event, EventKind, EventSink, MoveSink, NoEvents, Outcome, Result_, Rules,
    Seat, Status, event_kinds,
};
use crate::family::stick_race::{
    Capture, Credits, End, Overshoot, Overtaken, Release, Standstill, Start, Starter,
    StickRaceParams, Track, Unusable,
};

/// The most houses a board may have (one bit each in a `u128`).
pub const MAX_HOUSES: usize = 128;
/// Off the board: a counter borne off, or no house.
pub const OFF: u8 = u8::MAX;
pub use super::core::sticks::THROWS;

/// The name of a throw.
pub fn throw_name(throw: u8) -> &'static str {
    match throw {
        1 => "tâba",
        2 => "yômên",
        4 => "rabî'",
        6 => "séta",
        _ => "?",
    }
}

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

/// A house's name: column letter and row number from the bottom left (`a1`).
pub fn house_name(house: usize, cols: usize) -> String {
    let col = (b'a' + (house % cols) as u8) as char;
    format!("{col}{}", house / cols + 1)
}

impl fmt::Display for StickMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            StickMove::Bank => f.write_str("bank"),
            StickMove::Release { from, to } if from == to => write!(f, "release #{from}"),
            StickMove::Release { from, to } => write!(f, "release #{from}-#{to}"),
            StickMove::CreditRelease { from, to } if from == to => {
                write!(f, "credit-release #{from}")
            }
            StickMove::CreditRelease { from, to } => write!(f, "credit-release #{from}-#{to}"),
            StickMove::Move {
                from,
                to,
                spent,
                with_credit,
            } => {
                if to == OFF {
                    write!(f, "#{from}-off")?;
                } else {
                    write!(f, "#{from}-#{to}")?;
                }
                if with_credit {
                    write!(f, "+{spent}")?;
                }
                Ok(())
            }
            StickMove::Pass => f.write_str("pass"),
        }
    }
}

event_kinds! {
    /// The kinds of stick-race event.
    pub enum StickRaceEventKind;
    endless = ["end", "overshoot", "track", "standstill", "cap"];
    /// A lot decided who throws first.
    Lot = "lot" ["starter"],
    /// A tâba was banked to the player's credit.
    Banked = "banked" [],
    /// A thrown tâba released a counter.
    Released = "released" ["release", "release_moves"],
    /// A banked tâba released a counter.
    CreditRelease = "credit-release" ["release", "release_moves"],
    /// A counter was eaten (whatever the rule that ate it).
    Capture = "capture" [],
    /// A counter was eaten by one landing on it.
    LandingCapture = "landing-capture" ["capture"],
    /// A counter was eaten by one passing over it.
    OvertakingCapture = "overtaking-capture" ["capture", "overtaken"],
    /// A counter was passed over and not eaten (only the first passed is eaten).
    OvertakenSpared = "overtaken-spared" ["overtaken"],
    /// A counter was passed over where only landing eats.
    PassedOver = "passed-over" ["capture"],
    /// Banked tâbas were added to a throw to eat.
    CreditCapture = "credit-capture" ["credits"],
    /// Ludii 1.0.8's credit defect: a capture "with credits" one house short of the throw,
    /// with no credit banked.
    EmptyCredit = "empty-credit" ["ludii_empty_credit_minus_one"],
    /// A yômên stopped the player without being played.
    YomenStops = "yomen-stops" ["yomen_played"],
    /// A throw no counter could use was lost.
    UnusableThrow = "unusable-throw" ["unusable"],
    /// A player let a throw he could use go.
    Declined = "declined" ["must_move"],
    /// A counter stopped on the last house of its track.
    StoppedAtEnd = "stopped-at-end" ["overshoot"],
    /// A counter bore off.
    BorneOff = "borne-off" ["overshoot"],
    /// Every counter stood in its last row: the game ended.
    FinalRows = "final-rows" ["end"],
    /// A side had no counter left: the game ended.
    Annihilation = "annihilation" ["end"],
    /// The game ended with as many eaten on each side: a draw.
    EqualCaptures = "equal-captures" ["end"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// A counter ended its move on an enemy it did not eat, and both stand there.
    SharedHouse = "shared-house" ["beside_enemy"],
    /// A counter went on round past the last house of its track.
    WentRound = "went-round" ["overshoot", "track"],
    /// A throw no counter could use was marked up to the player's credit.
    ThrowBanked = "throw-banked" ["unusable"],
    /// Every counter left had finished its course: the game ended.
    CoursesRun = "courses-run" ["end"],
    /// Nothing could change any more, and the game was ended there and decided.
    Standstill = "standstill" ["standstill"],
    /// The game's end could no longer be reached: it was stopped as unfinished.
    Endless = "endless" ["end", "overshoot", "track", "standstill"],
    /// The agreed number of turns was played: the game ended.
    AgreedTime = "agreed-time" ["end", "agreed_turns"],
    /// Banked tâbas moved a counter in a move that ate nothing, with a throw or alone.
    CreditMove = "credit-move" ["credits"],
}

/// A stick-race event with its data. Houses are board indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StickRaceEvent {
    /// The lot chose `seat` to throw first.
    Lot {
        /// Who throws first.
        seat: Seat,
    },
    /// `seat` banked a tâba.
    Banked {
        /// The seat.
        seat: Seat,
    },
    /// The counter on `house` was released by a thrown tâba.
    Released {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was released by a banked tâba.
    CreditRelease {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was eaten.
    Capture {
        /// The house.
        house: u8,
    },
    /// ... by landing.
    LandingCapture {
        /// The house.
        house: u8,
    },
    /// ... by overtaking.
    OvertakingCapture {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was passed and spared.
    OvertakenSpared {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was passed over where only landing eats.
    PassedOver {
        /// The house.
        house: u8,
    },
    /// `spent` banked tâbas were added to a throw to eat.
    CreditCapture {
        /// Tâbas spent.
        spent: u8,
    },
    /// The −1 credit defect was used.
    EmptyCredit,
    /// A yômên stopped `seat` without being played.
    YomenStops {
        /// The seat.
        seat: Seat,
    },
    /// `seat` lost a throw no counter could use.
    UnusableThrow {
        /// The seat.
        seat: Seat,
        /// The throw.
        throw: u8,
    },
    /// `seat` let a usable throw go.
    Declined {
        /// The seat.
        seat: Seat,
    },
    /// A counter stopped on the last house, `house`.
    StoppedAtEnd {
        /// The house.
        house: u8,
    },
    /// A counter from `house` bore off.
    BorneOff {
        /// The house it left.
        house: u8,
    },
    /// The final-rows end.
    FinalRows,
    /// `seat` had no counter left.
    Annihilation {
        /// The seat.
        seat: Seat,
    },
    /// Equal captures at the end.
    EqualCaptures,
    /// The cap was reached.
    CapReached {
        /// Turns played.
        turns: u32,
        /// Decisions made.
        plies: u32,
    },
    /// A counter ended its move on `house`, beside an enemy it did not eat.
    SharedHouse {
        /// The house.
        house: u8,
    },
    /// A counter went on round past its last house, from `house`.
    WentRound {
        /// The house it moved from.
        house: u8,
    },
    /// `seat` marked an unusable `throw` up to his credit.
    ThrowBanked {
        /// The seat.
        seat: Seat,
        /// The throw.
        throw: u8,
    },
    /// The courses-run end.
    CoursesRun,
    /// Nothing could change any more; the game was decided there.
    Standstill,
    /// The game's end could no longer be reached.
    Endless,
    /// The agreed time was up after `turns` turns.
    AgreedTime {
        /// Turns played.
        turns: u32,
    },
    /// `spent` banked tâbas moved a counter in a move that ate nothing.
    CreditMove {
        /// Tâbas spent.
        spent: u8,
    },
}

impl Event for StickRaceEvent {
    type Kind = StickRaceEventKind;
    #[inline]
    fn kind(&self) -> StickRaceEventKind {
        use StickRaceEventKind as K;
        match self {
            StickRaceEvent::Lot { .. } => K::Lot,
            StickRaceEvent::Banked { .. } => K::Banked,
            StickRaceEvent::Released { .. } => K::Released,
            StickRaceEvent::CreditRelease { .. } => K::CreditRelease,
            StickRaceEvent::Capture { .. } => K::Capture,
            StickRaceEvent::LandingCapture { .. } => K::LandingCapture,
            StickRaceEvent::OvertakingCapture { .. } => K::OvertakingCapture,
            StickRaceEvent::OvertakenSpared { .. } => K::OvertakenSpared,
            StickRaceEvent::PassedOver { .. } => K::PassedOver,
            StickRaceEvent::CreditCapture { .. } => K::CreditCapture,
            StickRaceEvent::EmptyCredit => K::EmptyCredit,
            StickRaceEvent::YomenStops { .. } => K::YomenStops,
            StickRaceEvent::UnusableThrow { .. } => K::UnusableThrow,
            StickRaceEvent::Declined { .. } => K::Declined,
            StickRaceEvent::StoppedAtEnd { .. } => K::StoppedAtEnd,
            StickRaceEvent::BorneOff { .. } => K::BorneOff,
            StickRaceEvent::FinalRows => K::FinalRows,
            StickRaceEvent::Annihilation { .. } => K::Annihilation,
            StickRaceEvent::EqualCaptures => K::EqualCaptures,
            StickRaceEvent::CapReached { .. } => K::CapReached,
            StickRaceEvent::SharedHouse { .. } => K::SharedHouse,
            StickRaceEvent::WentRound { .. } => K::WentRound,
            StickRaceEvent::ThrowBanked { .. } => K::ThrowBanked,
            StickRaceEvent::CoursesRun => K::CoursesRun,
            StickRaceEvent::Standstill => K::Standstill,
            StickRaceEvent::Endless => K::Endless,
            StickRaceEvent::AgreedTime { .. } => K::AgreedTime,
            StickRaceEvent::CreditMove { .. } => K::CreditMove,
        }
    }
}

impl fmt::Display for StickRaceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.kind().name();
        match *self {
            StickRaceEvent::Lot { seat }
            | StickRaceEvent::Banked { seat }
            | StickRaceEvent::YomenStops { seat }
            | StickRaceEvent::Declined { seat }
            | StickRaceEvent::Annihilation { seat } => write!(f, "{name} seat={}", seat + 1),
            StickRaceEvent::Released { house }
            | StickRaceEvent::CreditRelease { house }
            | StickRaceEvent::Capture { house }
            | StickRaceEvent::LandingCapture { house }
            | StickRaceEvent::OvertakingCapture { house }
            | StickRaceEvent::OvertakenSpared { house }
            | StickRaceEvent::PassedOver { house }
            | StickRaceEvent::StoppedAtEnd { house }
            | StickRaceEvent::SharedHouse { house }
            | StickRaceEvent::WentRound { house }
            | StickRaceEvent::BorneOff { house } => write!(f, "{name} house=#{house}"),
            StickRaceEvent::CreditCapture { spent } | StickRaceEvent::CreditMove { spent } => {
                write!(f, "{name} spent={spent}")
            }
            StickRaceEvent::UnusableThrow { seat, throw }
            | StickRaceEvent::ThrowBanked { seat, throw } => {
                write!(f, "{name} seat={} throw={throw}", seat + 1)
            }
            StickRaceEvent::CapReached { turns, plies } => {
                write!(f, "{name} turns={turns} plies={plies}")
            }
            StickRaceEvent::AgreedTime { turns } => write!(f, "{name} turns={turns}"),
            StickRaceEvent::EmptyCredit
            | StickRaceEvent::FinalRows
            | StickRaceEvent::EqualCaptures
            | StickRaceEvent::CoursesRun
            | StickRaceEvent::Standstill
            | StickRaceEvent::Endless => f.write_str(name),
        }
    }
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

/// A position to start from, for tests and worked examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StickSetup<'a> {
    /// The rows from the top down: `x` an active counter of seat 1, `X` one not yet
    /// released, `o` / `O` the same for seat 2, `.` empty.
    pub rows: &'a [&'a str],
    /// Banked tâbas.
    pub bank: [u32; 2],
    /// Counters eaten so far by each seat.
    pub score: [u32; 2],
    /// Who is to throw (or to use `throw`).
    pub to_move: Seat,
    /// A throw in hand, to be used by `to_move`; `None` if he is about to throw.
    pub throw: Option<u8>,
}

/// A position that [`StickRace::setup`] cannot build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rows do not make the board.
    #[error("the setup needs {rows} rows of {cols} houses (x, X, o, O or .)")]
    Shape {
        /// Rows.
        rows: usize,
        /// Houses a row.
        cols: usize,
    },
    /// More counters than a seat has.
    #[error("seat {seat} has {count} counters on the board, more than its {max}")]
    TooMany {
        /// The seat (1-based).
        seat: usize,
        /// Its counters.
        count: usize,
        /// The most it has.
        max: u8,
    },
    /// Not a throw.
    #[error("throw {0}: the sticks score 1, 2, 4 or 6")]
    Throw(u8),
    /// A counter on a house that is not on its side's track (separate lanes).
    #[error("seat {seat} has a counter on {house}, which is not on its track")]
    OffTrack {
        /// The seat (1-based).
        seat: usize,
        /// The house's name.
        house: String,
    },
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
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`StickRaceError`] for a board, counter count or combination the engine cannot play.
    pub fn new(p: &StickRaceParams) -> Result<Self, StickRaceError> {
        let (rows, cols) = (usize::from(p.rows), usize::from(p.cols));
        if !(2..=8).contains(&rows) || !(2..=16).contains(&cols) || rows * cols > MAX_HOUSES {
            return Err(StickRaceError::Board {
                rows: p.rows,
                cols: p.cols,
            });
        }
        if !(1..=crate::family::Cap::MAX).contains(&p.agreed_turns) {
            return Err(StickRaceError::AgreedTurns(p.agreed_turns));
        }
        if p.pieces == 0 || p.pieces > p.cols {
            return Err(StickRaceError::Pieces {
                pieces: p.pieces,
                cols: p.cols,
            });
        }
        if p.track == Track::Circuit && (rows % 2 == 1 || cols % 2 == 1) {
            return Err(StickRaceError::Circuit {
                rows: p.rows,
                cols: p.cols,
            });
        }
        let limit = Limit::new(p.cap)?;
        let houses = rows * cols;
        let track = tracks(p.track, rows, cols);
        let len = track[0].len();
        let mut index = [vec![OFF; houses], vec![OFF; houses]];
        for seat in 0..2 {
            for (i, &h) in track[seat].iter().enumerate() {
                index[seat][usize::from(h)] = i as u8;
            }
        }
        let stretch = |seat: usize| {
            track[seat][len - cols..]
                .iter()
                .fold(0u128, |set, &h| set | 1u128 << h)
        };
        let last_row = [stretch(0), stretch(1)];
        let apart = index[1]
            .iter()
            .zip(&index[0])
            .all(|(&a, &b)| a == OFF || b == OFF);
        Ok(StickRace {
            p: p.clone(),
            rows,
            cols,
            len,
            track,
            index,
            last_row,
            apart,
            below: Box::new(std::array::from_fn(below)),
            counted: p.release == Release::Fresh
                && !p.release_moves
                && p.capture == Capture::Landing
                && p.overshoot == Overshoot::Illegal
                && p.must_move
                && p.credits != Credits::Spare
                && p.credits != Credits::AnyMove
                && !p.stack,
            limit,
        })
    }

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

    /// The starting houses of a seat, as track indices.
    fn start_indices(&self) -> impl Iterator<Item = usize> + '_ {
        let n = usize::from(self.p.pieces);
        let cols = self.cols;
        let (low, high) = match self.p.start {
            Start::SplitEnds => (n.div_ceil(2), n / 2),
            Start::Together => (n, 0),
        };
        (0..low).chain(cols - high..cols)
    }

    /// Builds a position from a setup. The position is then settled as after any decision
    /// (so a finished game is over).
    ///
    /// # Errors
    /// [`SetupError`] for rows that do not make the board, too many counters, a counter off
    /// its side's track, or a throw the sticks cannot make.
    pub fn setup(&self, setup: &StickSetup) -> Result<StickRaceState, SetupError> {
        let shape = SetupError::Shape {
            rows: self.rows,
            cols: self.cols,
        };
        if setup.rows.len() != self.rows
            || setup.rows.iter().any(|r| r.chars().count() != self.cols)
        {
            return Err(shape);
        }
        let mut s = self.initial();
        s.pieces = [0; 2];
        s.active = [0; 2];
        for (i, row) in setup.rows.iter().enumerate() {
            let r = self.rows - 1 - i;
            for (col, ch) in row.chars().enumerate() {
                let bit = 1u128 << (r * self.cols + col);
                match ch {
                    'x' | 'X' => s.pieces[0] |= bit,
                    'o' | 'O' => s.pieces[1] |= bit,
                    '*' => {
                        s.pieces[0] |= bit;
                        s.pieces[1] |= bit;
                        s.active[0] |= bit;
                        s.active[1] |= bit;
                    }
                    '.' => {}
                    _ => return Err(shape),
                }
                match ch {
                    'x' => s.active[0] |= bit,
                    'o' => s.active[1] |= bit,
                    _ => {}
                }
            }
        }
        for seat in 0..2 {
            let count = s.pieces(seat) as usize;
            if count > usize::from(self.p.pieces) {
                return Err(SetupError::TooMany {
                    seat: seat + 1,
                    count,
                    max: self.p.pieces,
                });
            }
            if let Some(h) =
                houses_of(s.pieces[seat]).find(|&h| self.index[seat][usize::from(h)] == OFF)
            {
                return Err(SetupError::OffTrack {
                    seat: seat + 1,
                    house: house_name(usize::from(h), self.cols),
                });
            }
        }
        s.bank = setup.bank;
        s.score = setup.score;
        s.mover = setup.to_move as u8;
        match setup.throw {
            None => s.phase = Phase::Throw,
            Some(t) if THROWS.contains(&t) => {
                s.phase = Phase::Decide;
                s.throw = t;
            }
            Some(t) => return Err(SetupError::Throw(t)),
        }
        self.sync_order(&mut s);
        self.end_tests(&mut s, &mut NoEvents);
        Ok(s)
    }

    /// The board as text: rows from the top, `x`/`X` seat 1 (released / not), `o`/`O` seat 2,
    /// `*` a counter of each side on one house, `.` empty.
    pub fn board_text(&self, s: &StickRaceState) -> String {
        let mut out = String::new();
        for r in (0..self.rows).rev() {
            if r + 1 != self.rows {
                out.push('/');
            }
            for col in 0..self.cols {
                let h = r * self.cols + col;
                out.push(match (s.has(0, h), s.has(1, h)) {
                    (true, true) => '*',
                    (true, false) if s.is_active_of(0, h) => 'x',
                    (true, false) => 'X',
                    (false, true) if s.is_active_of(1, h) => 'o',
                    (false, true) => 'O',
                    (false, false) => '.',
                });
            }
        }
        out
    }

    /// Whether banked tâbas can release counters (so that those the counters not yet released
    /// will need are not spare).
    fn credit_releases(&self) -> bool {
        matches!(self.p.release, Release::Credit | Release::AtThrow)
    }

    /// Banked tâbas that may be added to a throw.
    fn usable_credit(&self, s: &StickRaceState, seat: usize) -> u32 {
        match self.p.credits {
            Credits::None => 0,
            Credits::Any | Credits::All | Credits::AnyMove => s.bank[seat],
            Credits::Spare => {
                // Tâbas the counters not yet released will need are not spare.
                let waiting = if self.credit_releases() {
                    (self.waiting(s, seat)).count_ones()
                } else {
                    0
                };
                s.bank[seat].saturating_sub(waiting)
            }
        }
    }

    /// Where a counter at track index `i` lands going `dist` houses, as a track index (`len`
    /// for off the board; `None` if it cannot). `exact` forbids stopping at the end or bearing
    /// off whatever the reading (moves with credits); going on round is no overshoot, and a
    /// move never goes a whole lap.
    fn target(&self, i: usize, dist: usize, exact: bool) -> Option<usize> {
        let last = self.len - 1;
        let j = i + dist;
        if j <= last {
            return Some(j);
        }
        match self.p.overshoot {
            Overshoot::Round => (dist < self.len).then(|| j - self.len),
            _ if exact => None,
            Overshoot::Illegal => None,
            Overshoot::Stop => (i < last).then_some(last),
            Overshoot::BearOff => Some(self.len),
        }
    }

    /// The track indices a move from `i` to `j` passes over (strictly between them, going on
    /// round where `j` is behind `i`; `j == len` is off the board).
    #[inline]
    fn span(&self, i: usize, j: usize) -> u128 {
        if j > i {
            self.below[j.min(self.len)] & !self.below[i + 1]
        } else {
            (self.below[self.len] & !self.below[i + 1]) | self.below[j]
        }
    }

    /// The enemies a move of `seat` from index `i` to index `j` (`len` for off the board)
    /// passes over and lands on, as bits in the mover's track order; and whether it may be
    /// made at all (never onto a counter of one's own; onto an enemy it does not eat only where
    /// a counter may stand beside an enemy). Each seat's counters are kept in both tracks'
    /// orders (`StickRaceState::order`), so a sweep is two masks, not a walk.
    #[inline]
    fn sweep(&self, s: &StickRaceState, seat: usize, i: usize, j: usize) -> Option<(u128, u128)> {
        let own = s.order[seat][seat];
        let enemy = s.order[seat][1 - seat];
        let passed = enemy & self.span(i, j);
        let mut landed = 0u128;
        if j < self.len {
            let bit = self.below[j + 1] ^ self.below[j];
            if own & bit != 0 && !self.p.stack {
                return None;
            }
            landed = enemy & bit;
            if landed != 0 && !self.p.beside_enemy && self.eaten(i, passed, landed) & landed == 0 {
                return None;
            }
        }
        Some((passed, landed))
    }

    /// What a move from index `i` with this sweep eats (bits in the mover's track order): the
    /// first one is the nearest ahead of `i` (going on round, those before the end of the
    /// track come first), the landing house counting as passed last.
    #[inline]
    fn eaten(&self, i: usize, passed: u128, landed: u128) -> u128 {
        let all = match self.p.capture {
            Capture::Landing => landed,
            Capture::Overtaking => passed,
            Capture::Both => passed | landed,
        };
        match self.p.overtaken {
            Overtaken::All => all,
            Overtaken::First => {
                let ahead = all & !self.below[i + 1];
                let from = if ahead != 0 { ahead } else { all };
                from & from.wrapping_neg()
            }
        }
    }

    /// Puts or takes a counter of `seat` on `house`, in the board and in the track orders of
    /// the tracks the house is on.
    #[inline]
    fn toggle(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        let h = usize::from(house);
        s.pieces[seat] ^= 1u128 << h;
        for view in 0..2 {
            let k = self.index[view][h];
            if k != OFF {
                s.order[view][seat] ^= 1u128 << k;
            }
        }
    }

    /// The houses with a counter of `seat` not yet released.
    #[inline]
    fn waiting(&self, s: &StickRaceState, seat: usize) -> u128 {
        if self.p.stack {
            s.waiting[seat]
        } else {
            s.pieces[seat] & !s.active[seat]
        }
    }

    /// Releases the counter of `seat` waiting on `house` (where counters stack, released
    /// ones of its side may stand there too).
    fn release(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if self.p.stack {
            let h = usize::from(house);
            s.waiting[seat] &= !(1u128 << h);
            if s.stacked[seat][h] == 0 {
                self.set_active(s, seat, house, true);
            }
            s.stacked[seat][h] += 1;
        } else {
            self.set_active(s, seat, house, true);
        }
    }

    /// Takes one released counter of `seat` off `house`.
    fn leave(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if !self.p.stack {
            self.toggle(s, seat, house);
            self.set_active(s, seat, house, false);
            return;
        }
        let h = usize::from(house);
        s.stacked[seat][h] -= 1;
        if s.stacked[seat][h] == 0 {
            self.set_active(s, seat, house, false);
        }
        if s.stacked[seat][h] == 0 && s.waiting[seat] >> h & 1 == 0 {
            self.toggle(s, seat, house);
        } else {
            s.extra[seat] -= 1;
        }
    }

    /// Puts a released counter of `seat` on `house`.
    fn arrive(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if !self.p.stack {
            self.toggle(s, seat, house);
            self.set_active(s, seat, house, true);
            return;
        }
        let h = usize::from(house);
        if s.has(seat, h) {
            s.extra[seat] += 1;
        } else {
            self.toggle(s, seat, house);
        }
        if s.stacked[seat][h] == 0 {
            self.set_active(s, seat, house, true);
        }
        s.stacked[seat][h] += 1;
    }

    /// Takes every counter of `seat` off `house`, as they are eaten; returns how many.
    fn clear(&self, s: &mut StickRaceState, seat: usize, house: u8) -> u32 {
        let h = usize::from(house);
        let n = s.count(seat, h);
        if self.p.stack {
            s.extra[seat] -= n - 1;
            s.stacked[seat][h] = 0;
            s.waiting[seat] &= !(1u128 << h);
        }
        self.toggle(s, seat, house);
        self.set_active(s, seat, house, false);
        n
    }

    /// Marks the counter of `seat` on `house` released (`on`) or not.
    #[inline]
    fn set_active(&self, s: &mut StickRaceState, seat: usize, house: u8, on: bool) {
        let (bit, bit_t) = (
            1u128 << house,
            1u128 << self.index[seat][usize::from(house)],
        );
        if on {
            s.active[seat] |= bit;
            s.active_t[seat] |= bit_t;
        } else {
            s.active[seat] &= !bit;
            s.active_t[seat] &= !bit_t;
        }
    }

    /// Rebuilds the track orders (and, where counters stack, the counts: one a house) from the
    /// board.
    fn sync_order(&self, s: &mut StickRaceState) {
        s.order = [[0; 2]; 2];
        s.active_t = [0; 2];
        s.stacked = [[0; MAX_HOUSES]; 2];
        s.extra = [0; 2];
        s.waiting = [0; 2];
        if self.p.stack {
            for seat in 0..2 {
                s.waiting[seat] = s.pieces[seat] & !s.active[seat];
                for h in houses_of(s.pieces[seat] & s.active[seat]) {
                    s.stacked[seat][usize::from(h)] = 1;
                }
            }
        }
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                s.active_t[seat] |= 1u128 << self.index[seat][usize::from(h)];
            }
        }
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat]) {
                for view in 0..2 {
                    let k = self.index[view][usize::from(h)];
                    if k != OFF {
                        s.order[view][seat] |= 1u128 << k;
                    }
                }
            }
        }
    }

    /// Where a released counter of `seat` on `house` ends (itself, or one house on), if the
    /// release can be made.
    fn release_target(&self, s: &StickRaceState, seat: usize, house: u8) -> Option<u8> {
        if !self.p.release_moves {
            return Some(house);
        }
        let i = usize::from(self.index[seat][usize::from(house)]);
        let j = self.target(i, 1, false)?;
        self.sweep(s, seat, i, j)?;
        Some(if j == self.len {
            OFF
        } else {
            self.track[seat][j]
        })
    }

    /// The moves that use the throw in hand (not the credit releases, not the pass).
    fn throw_moves(&self, s: &StickRaceState, seat: usize, out: &mut impl MoveSink<StickMove>) {
        let t = usize::from(s.throw);
        if t == usize::from(sticks::TABA) {
            out.push(StickMove::Bank);
            if matches!(self.p.release, Release::Fresh | Release::AtThrow) {
                for h in houses_of(self.waiting(s, seat)) {
                    if let Some(to) = self.release_target(s, seat, h) {
                        out.push(StickMove::Release { from: h, to });
                    }
                }
            }
            return;
        }
        let credit = self.usable_credit(s, seat);
        if self.p.capture == Capture::Landing
            && self.p.overshoot == Overshoot::Illegal
            && self.p.credits != Credits::AnyMove
            && !self.p.stack
        {
            return self.landing_moves(s, seat, t, credit, out);
        }
        // Where only a landing eats, what a move passes does not matter: a move is legal
        // unless it lands on a counter of one's own, and a move with credits unless it lands
        // on nothing. Two bit tests instead of a sweep (most readings, Ludii's among them).
        let landing = self.p.capture == Capture::Landing;
        let (own_t, enemy_t) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let at = |set: u128, j: usize| j < self.len && (set >> j) & 1 == 1;
        for h in houses_of(s.pieces[seat] & s.active[seat]) {
            let i = usize::from(self.index[seat][usize::from(h)]);
            let to_house = |j: usize| {
                if j == self.len {
                    OFF
                } else {
                    self.track[seat][j]
                }
            };
            let legal = |j: usize| {
                if landing {
                    self.p.stack || !at(own_t, j)
                } else {
                    self.sweep(s, seat, i, j).is_some()
                }
            };
            if let Some(j) = self.target(i, t, false)
                && legal(j)
            {
                out.push(StickMove::Move {
                    from: h,
                    to: to_house(j),
                    spent: 0,
                    with_credit: false,
                });
            }
            // Credits added to the throw: for a move that eats, or any move under `any-move`.
            let mut extra = |dist: usize, spent: u8| {
                let eats = |j: usize| {
                    if landing {
                        at(enemy_t, j)
                    } else {
                        self.sweep(s, seat, i, j)
                            .is_some_and(|(passed, landed)| self.eaten(i, passed, landed) != 0)
                    }
                };
                if let Some(j) = self.target(i, dist, true)
                    && (if self.p.credits == Credits::AnyMove {
                        legal(j)
                    } else {
                        eats(j)
                    })
                {
                    out.push(StickMove::Move {
                        from: h,
                        to: to_house(j),
                        spent,
                        with_credit: true,
                    });
                }
            };
            match self.p.credits {
                Credits::None => {}
                Credits::Any | Credits::Spare | Credits::AnyMove => {
                    for k in 1..=credit.min(u32::from(u8::MAX)) {
                        extra(t + k as usize, k as u8);
                    }
                }
                Credits::All => {
                    if credit > 0 {
                        extra(t + credit as usize, credit.min(255) as u8);
                    } else if self.p.ludii_empty_credit_minus_one {
                        // Ludii 1.0.8 reads an empty credit as −1 (TRACES.md §7).
                        extra(t - 1, 0);
                    }
                }
            }
        }
    }

    /// [`StickRace::throw_moves`] for a throw of 2, 4 or 6 where only a landing eats and a
    /// counter must land exactly (Ludii's readings and the DLP's): every counter's move at
    /// once, as shifts of the released counters in track order. A move lands on no counter of
    /// one's own; a move with credits lands on an enemy. Moves come in track order of the
    /// counter moved, the plain moves first, then those with credits.
    fn landing_moves(
        &self,
        s: &StickRaceState,
        seat: usize,
        t: usize,
        credit: u32,
        out: &mut impl MoveSink<StickMove>,
    ) {
        let (own, enemy) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let active = s.active_t[seat];
        let track = &self.track[seat];
        let on_board = self.below[self.len];
        let mut push = |targets: u128, dist: usize, spent: u8, with_credit: bool| {
            for j in bit_indices(targets) {
                out.push(StickMove::Move {
                    from: track[j - dist],
                    to: track[j],
                    spent,
                    with_credit,
                });
            }
        };
        push((active << t) & on_board & !own, t, 0, false);
        match self.p.credits {
            Credits::None | Credits::AnyMove => {}
            Credits::Any | Credits::Spare => {
                for k in 1..=credit.min(u32::from(u8::MAX)) as usize {
                    if t + k >= self.len {
                        break;
                    }
                    push((active << (t + k)) & enemy, t + k, k as u8, true);
                }
            }
            Credits::All => {
                let k = credit as usize;
                if credit > 0 && t + k < self.len {
                    push((active << (t + k)) & enemy, t + k, k.min(255) as u8, true);
                } else if credit == 0 && self.p.ludii_empty_credit_minus_one {
                    // Ludii 1.0.8 reads an empty credit as −1 (TRACES.md §7).
                    push((active << (t - 1)) & enemy, t - 1, 0, true);
                }
            }
        }
    }

    /// Every legal decision of the mover, in a stable order.
    fn decisions(&self, s: &StickRaceState, out: &mut Vec<StickMove>) {
        let seat = usize::from(s.mover);
        self.throw_moves(s, seat, out);
        let usable = !out.is_empty();
        let credit_release = match self.p.release {
            Release::Fresh => false,
            Release::Credit => true,
            Release::AtThrow => s.throw == sticks::TABA,
        };
        if credit_release && s.bank[seat] > 0 {
            for h in houses_of(self.waiting(s, seat)) {
                if let Some(to) = self.release_target(s, seat, h) {
                    out.push(StickMove::CreditRelease { from: h, to });
                }
            }
        }
        // Under `any-move`, banked tâbas alone may move a counter, one house each, as a
        // decision of its own: the throw in hand is still to be used.
        if self.p.credits == Credits::AnyMove {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                for k in 1..=s.bank[seat].min(u32::from(u8::MAX)) as usize {
                    if let Some(j) = self.target(i, k, true)
                        && self.sweep(s, seat, i, j).is_some()
                    {
                        out.push(StickMove::Move {
                            from: h,
                            to: self.track[seat][j],
                            spent: k as u8,
                            with_credit: true,
                        });
                    }
                }
            }
        }
        // The throw may be let go when nothing can use it (then the pass is forced, or sits
        // beside the credit releases) or when the reading lets a player decline.
        if !usable || !self.p.must_move {
            out.push(StickMove::Pass);
        }
    }

    /// Moves the counter of `seat` from `from` to `to` (or off), eating what the rules eat.
    fn run(
        &self,
        s: &mut StickRaceState,
        seat: usize,
        from: u8,
        to: u8,
        dist: usize,
        events: &mut impl EventSink<StickRaceEvent>,
    ) {
        let i = usize::from(self.index[seat][usize::from(from)]);
        let j = if to == OFF {
            self.len
        } else {
            usize::from(self.index[seat][usize::from(to)])
        };
        let (passed, landed) = self.sweep(s, seat, i, j).unwrap_or((0, 0));
        let eaten = self.eaten(i, passed, landed);
        // Report in the order met (those ahead before the end of the track first, going on
        // round), and take the eaten off.
        let met = passed | landed;
        let ahead = !self.below[i + 1];
        for k in bit_indices(met & ahead).chain(bit_indices(met & !ahead)) {
            let house = self.track[seat][k];
            let bit = 1u128 << k;
            if eaten & bit != 0 {
                // Every counter on the house is eaten (several where a side's counters stack).
                let n = self.clear(s, 1 - seat, house);
                for _ in 0..n {
                    events.emit(StickRaceEvent::Capture { house });
                    events.emit(if landed & bit != 0 {
                        StickRaceEvent::LandingCapture { house }
                    } else {
                        StickRaceEvent::OvertakingCapture { house }
                    });
                }
                s.score[seat] += n;
            } else if landed & bit != 0 {
                events.emit(StickRaceEvent::SharedHouse { house });
            } else if self.p.capture == Capture::Landing {
                events.emit(StickRaceEvent::PassedOver { house });
            } else {
                events.emit(StickRaceEvent::OvertakenSpared { house });
            }
        }
        self.leave(s, seat, from);
        if to == OFF {
            events.emit(StickRaceEvent::BorneOff { house: from });
            s.home[seat] += 1;
        } else {
            if j < i {
                events.emit(StickRaceEvent::WentRound { house: from });
            } else if i + dist > self.len - 1 && j == self.len - 1 {
                events.emit(StickRaceEvent::StoppedAtEnd { house: to });
            }
            self.arrive(s, seat, to);
        }
    }

    fn over(&self, s: &mut StickRaceState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: s.score,
            ranks: Outcome::UNRANKED,
        });
    }

    /// Ends the game decided by the numbers eaten: the greater eater wins, equal numbers draw.
    fn decide(&self, s: &mut StickRaceState, events: &mut impl EventSink<StickRaceEvent>) {
        let result = match s.score[0].cmp(&s.score[1]) {
            std::cmp::Ordering::Greater => Result_::Win(1),
            std::cmp::Ordering::Less => Result_::Win(2),
            std::cmp::Ordering::Equal => {
                events.emit(StickRaceEvent::EqualCaptures);
                Result_::Draw
            }
        };
        self.over(s, result, EndReason::Natural);
    }

    /// Whether every counter of `seat` on the board has finished its course: they hold the
    /// last houses of the track, one each, with no gap (those borne off are done too).
    fn course_run(&self, s: &StickRaceState, seat: usize) -> bool {
        let own = s.order[seat][seat];
        let m = own.count_ones() as usize;
        m == 0
            || (self.p.overshoot != Overshoot::Round
                && own == self.below[self.len] & !self.below[self.len - m])
    }

    /// A game in which nothing that counts can change any more, under the reading's choice
    /// `standstill`: decided there, or stopped as endless (unless an engine cap will end it).
    /// Returns whether the game is over.
    fn standstill(
        &self,
        s: &mut StickRaceState,
        events: &mut impl EventSink<StickRaceEvent>,
    ) -> bool {
        match self.p.standstill {
            Standstill::Decide => {
                events.emit(StickRaceEvent::Standstill);
                self.decide(s, events);
                true
            }
            Standstill::Endless if self.p.cap.is_none() => {
                events.emit(StickRaceEvent::Endless);
                self.over(s, Result_::Unfinished, EndReason::Endless);
                true
            }
            Standstill::Endless => false,
        }
    }

    /// Whether nothing can move any more, ever: no counter is left to release, and no
    /// counter of either side has a move by any throw, nor with any number of tâbas added
    /// (the bank may still grow). Only the bank can then change, which no end looks at.
    fn frozen(&self, s: &StickRaceState) -> bool {
        let throws: &[usize] = if self.p.yomen_played {
            &[2, 4, 6]
        } else {
            &[4, 6]
        };
        // The cheap tests first: a release, or a throw's own move.
        for seat in 0..2 {
            if houses_of(self.waiting(s, seat)).any(|h| self.release_target(s, seat, h).is_some()) {
                return false;
            }
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                if throws.iter().any(|&t| {
                    self.target(i, t, false)
                        .is_some_and(|j| self.sweep(s, seat, i, j).is_some())
                }) {
                    return false;
                }
            }
        }
        if self.p.credits == Credits::None {
            return true;
        }
        // Any distance a throw and tâbas could make (a superset of the real ones): a yômên and
        // one tâba at least, or one house short of a yômên with Ludii's −1, or one tâba alone
        // under `any-move`.
        let free = self.p.credits == Credits::AnyMove;
        let shortest = if self.p.ludii_empty_credit_minus_one || free {
            1
        } else {
            3
        };
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                // A move with tâbas that must eat needs an enemy ahead on the track.
                if !free
                    && self.p.overshoot != Overshoot::Round
                    && s.order[seat][1 - seat] & !self.below[i + 1] == 0
                {
                    continue;
                }
                for d in shortest..self.len {
                    if let Some(j) = self.target(i, d, true)
                        && let Some((passed, landed)) = self.sweep(s, seat, i, j)
                        && (free || self.eaten(i, passed, landed) != 0)
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The game's own end, then the ends no rule reaches (a game that can never end, under the
    /// reading's choice of what becomes of it), then the engine's cap. Returns whether the
    /// game is over.
    fn end_tests(
        &self,
        s: &mut StickRaceState,
        events: &mut impl EventSink<StickRaceEvent>,
    ) -> bool {
        let ended = match self.p.end {
            End::FinalRows => {
                let done = (0..2).all(|seat| s.pieces[seat] & !self.last_row[seat] == 0);
                if done {
                    events.emit(StickRaceEvent::FinalRows);
                }
                done
            }
            End::Annihilation => match (0..2).find(|&seat| s.pieces[seat] == 0) {
                Some(seat) => {
                    events.emit(StickRaceEvent::Annihilation { seat });
                    true
                }
                None => false,
            },
            End::CoursesRun => {
                let done = (0..2).all(|seat| self.course_run(s, seat));
                if done {
                    events.emit(StickRaceEvent::CoursesRun);
                }
                done
            }
            // Tested as the sticks pass (`end_turn`).
            End::AgreedTime => false,
        };
        if ended {
            self.decide(s, events);
            return true;
        }
        // Courses that go on round never end, whatever happens on the board.
        if self.p.end == End::CoursesRun
            && self.p.overshoot == Overshoot::Round
            && self.p.cap.is_none()
        {
            events.emit(StickRaceEvent::Endless);
            self.over(s, Result_::Unfinished, EndReason::Endless);
            return true;
        }
        // Tracks that share no house: no counter can ever be eaten, so none is ever wiped out.
        if self.p.end == End::Annihilation && self.apart && self.standstill(s, events) {
            return true;
        }
        if s.clock.plies() > 0
            && let Some(reason) = self.limit.reached(&s.clock)
        {
            events.emit(StickRaceEvent::CapReached {
                turns: s.clock.turns(),
                plies: s.clock.plies(),
            });
            self.over(s, Result_::Draw, reason);
            return true;
        }
        false
    }

    /// The sticks pass to the other seat; under `end: agreed-time` the game ends when they
    /// have passed the agreed number of times.
    fn end_turn(&self, s: &mut StickRaceState, events: &mut impl EventSink<StickRaceEvent>) {
        s.mover = 1 - s.mover;
        s.phase = Phase::Throw;
        s.turns_done = s.turns_done.saturating_add(1);
        if self.p.end == End::AgreedTime && s.turns_done >= self.p.agreed_turns {
            events.emit(StickRaceEvent::AgreedTime {
                turns: s.turns_done,
            });
            self.decide(s, events);
        }
    }
}

/// Each seat's track, as houses in order (see the module docs).
fn tracks(kind: Track, rows: usize, cols: usize) -> [Vec<u8>; 2] {
    let house = |r: usize, c: usize| (r * cols + c) as u8;
    // A boustrophedon over `n` rows from the bottom (seat 1) or the top (seat 2): the first
    // row runs east for seat 1 and west for seat 2, each next row back the other way, so that
    // in every row both armies run the same way.
    let snake = |seat: usize, n: usize| -> Vec<u8> {
        let mut out = Vec::with_capacity(n * cols);
        for k in 0..n {
            let r = if seat == 0 { k } else { rows - 1 - k };
            let east = (k % 2 == 0) == (seat == 0);
            for i in 0..cols {
                out.push(house(r, if east { i } else { cols - 1 - i }));
            }
        }
        out
    };
    match kind {
        Track::Boustrophedon => [snake(0, rows), snake(1, rows)],
        Track::Lanes => [snake(0, rows / 2), snake(1, rows / 2)],
        Track::Circuit => {
            // Seat 1's half lap: its nearest row eastward, then up the right half of the
            // middle rows in a snake that ends beside the top right corner. The other half
            // lap is its turn through half a circle (house n ↔ houses − 1 − n): the top row
            // westward and down the left half to beside the bottom left corner, closing the
            // ring. Seat 2 runs the same ring from half a lap on, starting along its own
            // nearest row: both go the same way round, and neither is nearer the other.
            let half = cols / 2;
            let mut first: Vec<u8> = (0..cols).map(|c| house(0, c)).collect();
            for r in 1..rows - 1 {
                for i in 0..half {
                    let c = if r % 2 == 1 { cols - 1 - i } else { half + i };
                    first.push(house(r, c));
                }
            }
            let last = (rows * cols - 1) as u8;
            let ring: Vec<u8> = first
                .iter()
                .copied()
                .chain(first.iter().map(|&h| last - h))
                .collect();
            let n = ring.len();
            let seat2 = (0..n).map(|i| ring[(i + n / 2) % n]).collect();
            [ring, seat2]
        }
    }
}

/// The houses of a bit set, lowest first.
#[inline]
fn houses_of(set: u128) -> impl Iterator<Item = u8> {
    bit_indices(set).map(|h| h as u8)
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

    /// Where the moves can be counted (`counted`), the k-th is found from the masks
    /// `StickRace::landing_moves` and the release list are built from, in the same order,
    /// without listing them.
    fn choose(
        &self,
        s: &StickRaceState,
        buf: &mut Vec<StickMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (StickMove, usize) {
        if !self.counted || s.phase != Phase::Decide {
            self.legal_moves(s, buf);
            let n = buf.len();
            return (buf[pick(n)], n);
        }
        let seat = usize::from(s.mover);
        let t = usize::from(s.throw);
        if t == usize::from(sticks::TABA) {
            // Bank, then a release of each counter not yet released, in house order.
            let waiting = self.waiting(s, seat);
            let n = 1 + waiting.count_ones() as usize;
            let k = pick(n);
            if k == 0 {
                return (StickMove::Bank, n);
            }
            let h = nth_bit_wide(waiting, (k - 1) as u32).1;
            return (StickMove::Release { from: h, to: h }, n);
        }
        let (own, enemy) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let active = s.active_t[seat];
        let plain = (active << t) & self.below[self.len] & !own;
        // The moves with credits: (targets, distance, tâbas spent), as `landing_moves` lists
        // them. At most one group but under `any`, whose groups come in order of tâbas spent.
        let bank = s.bank[seat];
        let group = |k: usize| -> u128 {
            if t + k < self.len {
                (active << (t + k)) & enemy
            } else {
                0
            }
        };
        let mut n = plain.count_ones() as usize;
        let mut single: Option<(u128, usize, u8)> = None;
        match self.p.credits {
            Credits::None | Credits::Spare | Credits::AnyMove => {}
            Credits::All => {
                if bank > 0 {
                    let k = bank as usize;
                    single = Some((group(k), t + k, k.min(255) as u8));
                } else if self.p.ludii_empty_credit_minus_one {
                    single = Some(((active << (t - 1)) & enemy, t - 1, 0));
                }
            }
            Credits::Any => {
                for k in 1..=bank.min(u32::from(u8::MAX)) as usize {
                    if t + k >= self.len {
                        break;
                    }
                    n += group(k).count_ones() as usize;
                }
            }
        }
        if let Some((targets, _, _)) = single {
            n += targets.count_ones() as usize;
        }
        if n == 0 {
            // The forced pass is the one listed move: it is still picked, as from a list.
            let _ = pick(1);
            return (StickMove::Pass, 1);
        }
        let mut k = pick(n);
        let track = &self.track[seat];
        let mv = |targets: u128, k: usize, dist: usize, spent: u8, with_credit: bool| {
            let j = usize::from(nth_bit_wide(targets, k as u32).1);
            StickMove::Move {
                from: track[j - dist],
                to: track[j],
                spent,
                with_credit,
            }
        };
        let c = plain.count_ones() as usize;
        if k < c {
            return (mv(plain, k, t, 0, false), n);
        }
        k -= c;
        if let Some((targets, dist, spent)) = single {
            return (mv(targets, k, dist, spent, true), n);
        }
        for spent in 1..=bank.min(u32::from(u8::MAX)) as usize {
            let targets = group(spent);
            let c = targets.count_ones() as usize;
            if k < c {
                return (mv(targets, k, t + spent, spent as u8, true), n);
            }
            k -= c;
        }
        unreachable!("the k-th of {n} counted moves exists")
    }

    fn move_text(&self, mv: StickMove) -> String {
        let name = |h: u8| {
            if h == OFF {
                "off".to_owned()
            } else {
                house_name(usize::from(h), self.cols)
            }
        };
        match mv {
            StickMove::Bank => "bank".to_owned(),
            StickMove::Release { from, to } if from == to => format!("release {}", name(from)),
            StickMove::Release { from, to } => format!("release {}-{}", name(from), name(to)),
            StickMove::CreditRelease { from, to } if from == to => {
                format!("credit-release {}", name(from))
            }
            StickMove::CreditRelease { from, to } => {
                format!("credit-release {}-{}", name(from), name(to))
            }
            StickMove::Move {
                from,
                to,
                spent,
                with_credit,
            } => {
                let credit = if with_credit {
                    format!(" +{spent} credit")
                } else {
                    String::new()
                };
                format!("{}-{}{credit}", name(from), name(to))
            }
            StickMove::Pass => "pass".to_owned(),
        }
    }

    fn event_text(&self, event: &StickRaceEvent) -> String {
        let kind = event.kind().name();
        let name = |h: u8| house_name(usize::from(h), self.cols);
        match *event {
            StickRaceEvent::Released { house }
            | StickRaceEvent::CreditRelease { house }
            | StickRaceEvent::Capture { house }
            | StickRaceEvent::LandingCapture { house }
            | StickRaceEvent::OvertakingCapture { house }
            | StickRaceEvent::OvertakenSpared { house }
            | StickRaceEvent::PassedOver { house }
            | StickRaceEvent::StoppedAtEnd { house }
            | StickRaceEvent::SharedHouse { house }
            | StickRaceEvent::WentRound { house }
            | StickRaceEvent::BorneOff { house } => format!("{kind} {}", name(house)),
            _ => event.to_string(),
        }
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
