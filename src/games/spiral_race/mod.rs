//! The spiral-race engine: Li'b el-Merafib (the hyena game), played from
//! [`SpiralRaceParams`].
//!
//! The spiral is a line of hollows `0..=track_len`: 0 the village, `track_len` the well. Each
//! seat has one mother; she leaves the village on a tâba, walks out (counting up), pays at the
//! well, and walks back (counting down). The first mother home lets the hyena loose in the
//! village; whoever controls it (the reading's `controller`) moves it on his throws: it pays
//! to leave, walks out at double rates, pays at the well, and walks back eating women.
//!
//! Chance is explicit, as in the stick-race engine: a seat about to throw is a
//! [`Status::Chance`] step over the throws 1, 2, 4, 6 (weights 3, 3, 1, 1); one decision of
//! the same seat then uses it. Only a yômên ends a turn (Davies' rule 1, which Ludii's
//! hyena game keeps even for a throw that cannot be used): every other throw, used or not,
//! is followed by another. A seat whose mother was eaten, or is home while another controls
//! the hyena, is passed over.
//!
//! A finished game ranks the players by Davies' degrees of defeat ([`Outcome::ranks`]): home
//! in the order of arrival, then those still on the way, then the eaten. Where the end rule
//! waits for the hyena and his moves (with the credit he can still spend) can no longer add up
//! to his distance from the village, the game is ended as endless ([`EndReason::Endless`]).
//!
//! The engine is split by concern, each file an `impl SpiralRace` block of its own (its
//! methods `pub(super)` where another file calls them): `setup` builds the tables and
//! positions, `moves` the legal moves of a throw, `play` a move played (steps, the costs at
//! the well and in the village, the hyena's meals), `end` the end rules, the ranks and the
//! turn's passing on, and `events` the events and their text. This file holds the types they
//! share and the [`Rules`] impl that dispatches to them.

use super::core::sticks::{self, Cast};
use super::core::{CapError, Clock, Limit, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, MoveSink, NoEvents, Outcome, Result_, Rules, Seat,
    Status, event_kinds, view,
};
use crate::family::spiral_race::{
    Controller, Eats, End, HyenaPurse, HyenaTaba, Leave, MotherOvershoot, OutCredit, ReturnTaba,
    SpiralRaceParams, Starter, WellBanking, WellExit, WellPay, Winner,
};
use std::fmt;

mod end;
mod events;
mod moves;
mod play;
mod position;
mod setup;
mod text;

pub use events::{SpiralRaceEvent, SpiralRaceEventKind};

/// The most players.
pub const MAX_PLAYERS: usize = 8;

/// No seat.
const NONE: u8 = u8::MAX;

/// A decision in a spiral race. The piece is the mover's: his mother, or the hyena he
/// controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SpiralMove {
    /// Use the tâba thrown to leave the village.
    Leave,
    /// Bank the tâba thrown.
    Bank,
    /// Move by the throw to hollow `to`.
    Step {
        /// Where the piece lands.
        to: u16,
    },
    /// Spend a banked tâba to move to hollow `to`.
    Credit {
        /// Where the piece lands.
        to: u16,
    },
    /// Pay one tâba at the well or for the hyena's release: the one thrown, or (`credit`) a
    /// banked one.
    Pay {
        /// Whether a banked tâba is spent (the throw is then lost).
        credit: bool,
    },
    /// Keep the 2, 4 or 6 thrown while waiting at the well, for later.
    Keep,
    /// Leave the well to hollow `to`.
    Exit {
        /// Where the piece lands.
        to: u16,
    },
    /// Play a score kept at the well, to hollow `to`; the throw in hand is still to be used.
    Kept {
        /// The score.
        score: u8,
        /// Where the mother lands.
        to: u16,
    },
    /// Let the throw go: forced, or chosen where the reading allows.
    Pass,
}

impl fmt::Display for SpiralMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SpiralMove::Leave => f.write_str("leave"),
            SpiralMove::Bank => f.write_str("bank"),
            SpiralMove::Step { to } => write!(f, "to {to}"),
            SpiralMove::Credit { to } => write!(f, "credit to {to}"),
            SpiralMove::Pay { credit: false } => f.write_str("pay"),
            SpiralMove::Pay { credit: true } => f.write_str("pay credit"),
            SpiralMove::Keep => f.write_str("keep"),
            SpiralMove::Exit { to } => write!(f, "exit to {to}"),
            SpiralMove::Kept { score, to } => write!(f, "kept {score} to {to}"),
            SpiralMove::Pass => f.write_str("pass"),
        }
    }
}

/// Parameters the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpiralRaceError {
    /// Track length.
    #[error("track_len = {0}: the spiral has 3 to 250 steps from the village to the well")]
    Track(u16),
    /// Players.
    #[error("players = {0}: the spiral-race engine plays 2 to {MAX_PLAYERS} players")]
    Players(u8),
    /// A credit step too long.
    #[error("hyena_credit_step = {0}: a banked tâba moves the hyena 0, 1 or 2 hollows")]
    CreditStep(u8),
    /// Kept scores without paying at once.
    #[error("well_banking: {0} needs well_pay: at-once (under each-throw a 2, 4 or 6 pays)")]
    Banking(&'static str),
    /// Scores marked down for the hyena where a 2, 4 or 6 pays.
    #[error(
        "hyena_keeps = true needs well_pay: at-once (under each-throw a 2, 4 or 6 thrown at \
         the well pays with a banked tâba, so none is left to mark down)"
    )]
    HyenaKeeps,
    /// A second round for the hyena where his coming home ends the game.
    #[error(
        "hyena_again = true with end: {0}: under that end the hyena's coming home ends the \
         game, so he cannot set off again; hyena_again needs end: all-home"
    )]
    AgainWithEnd(&'static str),
    /// A cap that does not bound the game.
    #[error(transparent)]
    Cap(#[from] CapError),
    /// A cost of nothing where the last tâba paid is what takes the piece out of the well.
    #[error(
        "{0} = 0 with well_exit: with-last or two-last: there the last tâbas paid move the \
         piece out of the well, and a cost of 0 leaves no tâba to pay, so nothing would ever \
         move it; {0} takes 1 to 255 under them (0 is played under released and next-throw)"
    )]
    ZeroCostWithLast(&'static str),
}

/// Where a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leg {
    /// In the village, not yet left (a mother), or loose but not yet paid out (the hyena).
    Village,
    /// On the way to the well.
    Out,
    /// At the well, paying.
    Well,
    /// On the way back.
    Back,
    /// Home again.
    Home,
    /// Eaten (mothers only).
    Eaten,
}

/// A mother or the hyena.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    /// Where it is.
    pub leg: Leg,
    /// Its hollow (0 the village, `track_len` the well).
    pub pos: u16,
    /// Tâbas paid where it is (at the well, or for the hyena's release).
    pub paid: u8,
    /// Scores kept at the well: how many 2s, 4s and 6s. (As wide as the ply count: a mother
    /// owing many tâbas may wait through hundreds of throws.)
    pub kept: [u32; 3],
    /// Whether the next move is the first away from the well (for kept scores `added`).
    pub first_back: bool,
}

impl Piece {
    const START: Piece = Piece {
        leg: Leg::Village,
        pos: 0,
        paid: 0,
        kept: [0; 3],
        first_back: false,
    };

    /// The kept scores added up, as a distance. Any sum past the longest spiral moves her
    /// the same (home, or not at all under an exact village), so it saturates.
    fn kept_sum(&self) -> u16 {
        let sum =
            u64::from(self.kept[0]) * 2 + u64::from(self.kept[1]) * 4 + u64::from(self.kept[2]) * 6;
        u16::try_from(sum).unwrap_or(u16::MAX)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Lot,
    Throw,
    Decide,
    Over,
}

/// A position in a spiral race.
#[derive(Debug, Clone)]
pub struct SpiralRaceState {
    mothers: [Piece; MAX_PLAYERS],
    /// The hyena (leg `Village` before it is loose: see `hyena_player`).
    hyena: Piece,
    /// The player whose mother came home first, or [`NONE`] while the hyena is not loose.
    hyena_player: u8,
    /// Whether a mother left the village at all (Ludii 1.0.8's village test).
    left: [bool; MAX_PLAYERS],
    bank: [u32; MAX_PLAYERS],
    /// Credit left from a mother's journey when she came home, which pays nothing for the
    /// hyena (`hyena_purse: fresh`).
    set_aside: [u32; MAX_PLAYERS],
    /// The ply on which each mother came home or was eaten (0 while neither), for the ranks.
    fate: [u32; MAX_PLAYERS],
    /// Women the hyena has eaten.
    eaten: u8,
    /// Whether the mover has played a kept score this turn (`well_banking: one-a-turn`).
    kept_played: bool,
    phase: Phase,
    mover: u8,
    throw: u8,
    clock: Clock,
    outcome: Option<Outcome>,
}

impl SpiralRaceState {
    /// The piece a seat plays: its mother or the hyena.
    fn piece(&self, seat: Seat, which: Which) -> Piece {
        match which {
            Which::Mother => self.mothers[seat],
            Which::Hyena => self.hyena,
        }
    }

    /// The piece a seat plays, to change.
    fn piece_mut(&mut self, seat: Seat, which: Which) -> &mut Piece {
        match which {
            Which::Mother => &mut self.mothers[seat],
            Which::Hyena => &mut self.hyena,
        }
    }

    /// A seat's mother.
    pub fn mother(&self, seat: Seat) -> Piece {
        self.mothers[seat]
    }

    /// The hyena, once loose.
    pub fn hyena(&self) -> Option<Piece> {
        (self.hyena_player != NONE).then_some(self.hyena)
    }

    /// The player who let the hyena loose.
    pub fn hyena_player(&self) -> Option<Seat> {
        (self.hyena_player != NONE).then_some(usize::from(self.hyena_player))
    }

    /// Banked tâbas of a seat.
    pub fn bank(&self, seat: Seat) -> u32 {
        self.bank[seat]
    }

    /// Credit left from a seat's mother's journey that pays nothing for the hyena
    /// (`hyena_purse: fresh`).
    pub fn set_aside(&self, seat: Seat) -> u32 {
        self.set_aside[seat]
    }

    /// The seat to throw or decide.
    pub fn mover(&self) -> Seat {
        usize::from(self.mover)
    }

    /// The throw in hand, if the mover is to use one.
    pub fn throw(&self) -> Option<u8> {
        (self.phase == Phase::Decide).then_some(self.throw)
    }

    /// Women eaten so far.
    pub fn eaten(&self) -> u8 {
        self.eaten
    }
}

/// Which piece a seat plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Mother,
    Hyena,
}

/// The spiral-race rules of one reading.
#[derive(Debug, Clone)]
pub struct SpiralRace {
    p: SpiralRaceParams,
    len: u16,
    players: usize,
    limit: Limit,
    /// `home_reach[d]`: whether the hyena's moves on his way back can add up to exactly `d`
    /// hollows (every `d` where the village need not be reached exactly).
    home_reach: Vec<bool>,
    /// The hollows one move of the hyena can take him (0: a credit step of nothing).
    hyena_steps: Vec<u16>,
    /// `home_credits[d]`: the fewest credit steps among moves adding up to exactly `d`
    /// hollows on his way back (`u32::MAX`: none do), for a hyena whose credit cannot grow.
    home_credits: Vec<u32>,
    /// `well_reach[d]`: the same for his moves out, to the well (every `d` where he need not
    /// reach it exactly).
    well_reach: Vec<bool>,
}

impl SpiralRace {
    /// The parameters.
    pub fn params(&self) -> &SpiralRaceParams {
        &self.p
    }

    /// Steps from the village to the well.
    pub fn track_len(&self) -> u16 {
        self.len
    }
}

impl Rules for SpiralRace {
    type State = SpiralRaceState;
    type Move = SpiralMove;
    type Event = SpiralRaceEvent;

    fn initial(&self) -> SpiralRaceState {
        let mut s = SpiralRaceState {
            mothers: [Piece::START; MAX_PLAYERS],
            hyena: Piece::START,
            hyena_player: NONE,
            left: [false; MAX_PLAYERS],
            bank: [0; MAX_PLAYERS],
            set_aside: [0; MAX_PLAYERS],
            fate: [0; MAX_PLAYERS],
            eaten: 0,
            kept_played: false,
            phase: Phase::Throw,
            mover: 0,
            throw: 0,
            clock: Clock::new(),
            outcome: None,
        };
        self.reset(&mut s, &mut NoEvents);
        s
    }

    fn reset(&self, s: &mut SpiralRaceState, _events: &mut impl EventSink<SpiralRaceEvent>) {
        s.mothers = [Piece::START; MAX_PLAYERS];
        s.hyena = Piece::START;
        s.hyena_player = NONE;
        s.left = [false; MAX_PLAYERS];
        s.bank = [0; MAX_PLAYERS];
        s.set_aside = [0; MAX_PLAYERS];
        s.fate = [0; MAX_PLAYERS];
        s.eaten = 0;
        s.kept_played = false;
        s.mover = 0;
        s.throw = 0;
        s.clock = Clock::new();
        s.outcome = None;
        s.phase = match self.p.starter {
            Starter::FirstSeat => Phase::Throw,
            Starter::Lot => Phase::Lot,
        };
    }

    fn status(&self, s: &SpiralRaceState) -> Status {
        match s.phase {
            Phase::Lot | Phase::Throw => Status::Chance,
            Phase::Decide => Status::ToMove(usize::from(s.mover)),
            Phase::Over => Status::Over,
        }
    }

    fn legal_moves(&self, s: &SpiralRaceState, out: &mut Vec<SpiralMove>) {
        out.clear();
        if s.phase == Phase::Decide {
            self.decisions(s, out);
        }
    }

    fn apply(
        &self,
        s: &mut SpiralRaceState,
        mv: SpiralMove,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Decide);
        let seat = usize::from(s.mover);
        s.clock.tick(s.mover);
        let which = self.which(s, seat).unwrap_or(Which::Mother);
        let mut keep_throw = false;
        match mv {
            SpiralMove::Leave => {
                s.left[seat] = true;
                let m = &mut s.mothers[seat];
                m.leg = Leg::Out;
                match self.p.leave {
                    Leave::Step => m.pos = 1,
                    Leave::Release => {}
                    Leave::ReleaseAndBank => s.bank[seat] += 1,
                }
                self.emit(events, SpiralRaceEventKind::Left, seat, s.mothers[seat].pos);
            }
            SpiralMove::Bank => {
                s.bank[seat] += 1;
                let kind = match which {
                    Which::Mother => SpiralRaceEventKind::Banked,
                    Which::Hyena => SpiralRaceEventKind::HyenaBanked,
                };
                self.emit(events, kind, seat, 0);
            }
            SpiralMove::Step { to } => match which {
                Which::Mother => {
                    let m = s.mothers[seat];
                    if m.leg == Leg::Out && m.pos + u16::from(s.throw) > self.len {
                        self.emit(events, SpiralRaceEventKind::Overshoot, seat, m.pos);
                    }
                    if m.leg == Leg::Back && s.throw == 1 {
                        self.emit(events, SpiralRaceEventKind::ReturnTaba, seat, to);
                    }
                    self.move_mother(s, seat, to, false, events);
                }
                Which::Hyena => {
                    let h = s.hyena;
                    let dist = 2 * u16::from(s.throw);
                    if matches!(h.leg, Leg::Out | Leg::Village) && h.pos + dist > self.len {
                        self.emit(events, SpiralRaceEventKind::HyenaStopped, seat, h.pos);
                    }
                    self.move_hyena(s, seat, to, events);
                }
            },
            SpiralMove::Credit { to } => {
                // A tâba thrown with the step is marked down first, as every tâba that does
                // not move the piece is ("marked down ... to the credit of the player"): the
                // step spends a credit, never the throw. Before, the throw was dropped here.
                let leg = match which {
                    Which::Mother => s.mothers[seat].leg,
                    Which::Hyena => s.hyena.leg,
                };
                // Under `any-time` a credit on her way out is spent beside the throw, which
                // stays in hand.
                let beside = which == Which::Mother
                    && leg == Leg::Out
                    && self.p.out_credit == OutCredit::AnyTime;
                if beside {
                    keep_throw = true;
                } else if s.throw == 1
                    && self.taba_banks(which, leg)
                    && self.p.ludii_credit_drops_taba
                {
                    // Ludii makes one move per throw: the credit step uses the throw up.
                    self.emit(events, SpiralRaceEventKind::TabaDropped, seat, 0);
                } else if s.throw == 1 && self.taba_banks(which, leg) {
                    s.bank[seat] += 1;
                    let kind = match which {
                        Which::Mother => SpiralRaceEventKind::Banked,
                        Which::Hyena => SpiralRaceEventKind::HyenaBanked,
                    };
                    self.emit(events, kind, seat, 0);
                }
                s.bank[seat] -= 1;
                match which {
                    Which::Mother => {
                        let kind = if s.mothers[seat].leg == Leg::Back {
                            SpiralRaceEventKind::ReturnCredit
                        } else {
                            SpiralRaceEventKind::CreditOut
                        };
                        self.emit(events, kind, seat, to);
                        self.move_mother(s, seat, to, true, events);
                    }
                    Which::Hyena => {
                        self.emit(events, SpiralRaceEventKind::HyenaCredit, seat, to);
                        self.move_hyena(s, seat, to, events);
                    }
                }
            }
            SpiralMove::Pay { credit } => {
                if credit {
                    s.bank[seat] -= 1;
                }
                self.pay(s, seat, which, events);
            }
            SpiralMove::Keep => {
                let k = match s.throw {
                    2 => 0,
                    4 => 1,
                    _ => 2,
                };
                s.piece_mut(seat, which).kept[k] += 1;
                let kind = match which {
                    Which::Mother => SpiralRaceEventKind::Kept,
                    Which::Hyena => SpiralRaceEventKind::HyenaMarked,
                };
                self.emit(events, kind, seat, u16::from(s.throw));
            }
            SpiralMove::Exit { to } => {
                let piece = s.piece_mut(seat, which);
                piece.leg = Leg::Back;
                piece.pos = to;
                piece.first_back = true;
                self.left_well(events, seat, which, to);
            }
            SpiralMove::Kept { score, to } => {
                let k = usize::from(score / 2 - 1).min(2);
                // The hyena plays his own marked scores first, then those his mother left.
                if which == Which::Hyena && s.hyena.kept[k] > 0 {
                    s.hyena.kept[k] -= 1;
                } else {
                    s.mothers[seat].kept[k] -= 1;
                }
                s.kept_played = true;
                match which {
                    Which::Mother => {
                        self.emit(events, SpiralRaceEventKind::KeptPlayed, seat, to);
                        self.move_mother(s, seat, to, false, events);
                    }
                    Which::Hyena => {
                        self.emit(events, SpiralRaceEventKind::HyenaKept, seat, to);
                        self.move_hyena(s, seat, to, events);
                    }
                }
                keep_throw = true;
            }
            SpiralMove::Pass => {
                let mut usable = Vec::new();
                self.unblocked_throw_moves(s, seat, &mut usable);
                let kind = if usable.is_empty() {
                    SpiralRaceEventKind::Unusable
                } else {
                    SpiralRaceEventKind::Declined
                };
                self.emit(events, kind, seat, u16::from(s.throw));
                // Under `added`, a 2, 4 or 6 is her first move away, the kept scores added to
                // it. If that move would pass an exact village it is lost, and the scores with
                // it, as any throw past the village is: kept for the next throw instead, they
                // could outgrow her way home and hold her at the well for ever.
                let m = &mut s.mothers[seat];
                if usable.is_empty()
                    && which == Which::Mother
                    && m.leg == Leg::Back
                    && m.first_back
                    && self.p.well_banking == WellBanking::Added
                    && s.throw != 1
                {
                    m.kept = [0; 3];
                    m.first_back = false;
                }
            }
        }
        if self.end_tests(s, events) {
            return;
        }
        // The throw in hand is still to be used, by the same piece (a mother whose kept score
        // took her home and let the hyena loose has no use for it).
        if keep_throw && self.which(s, seat) == Some(which) {
            return;
        }
        let again = sticks::throws_on(s.throw);
        self.continue_turn(s, again, events);
    }

    fn chance_outcomes(&self, s: &SpiralRaceState) -> &'static [u32] {
        match s.phase {
            Phase::Lot => lot_weights(self.players),
            Phase::Throw => &sticks::WEIGHTS,
            _ => &[],
        }
    }

    fn apply_chance(
        &self,
        s: &mut SpiralRaceState,
        k: usize,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        match s.phase {
            Phase::Lot => {
                self.emit(events, SpiralRaceEventKind::Lot, k, 0);
                s.mover = k as u8;
                s.phase = Phase::Throw;
            }
            Phase::Throw => {
                let seat = usize::from(s.mover);
                if let Cast::Play(throw) = sticks::cast(k, self.p.yomen_played) {
                    s.throw = throw;
                    s.phase = Phase::Decide;
                    // Under `at-once`, tâbas banked by a player who has just taken over the
                    // hyena (or any still owed) are paid before he uses his throw.
                    if let Some(which) = self.which(s, seat) {
                        let eaten = s.eaten;
                        self.pay_at_once(s, seat, which, events);
                        // Paid up at the well, the hyena may have eaten there: the end rule
                        // looks at once.
                        if s.eaten != eaten {
                            self.end_tests(s, events);
                        }
                    }
                } else {
                    self.emit(events, SpiralRaceEventKind::YomenStops, seat, 0);
                    self.continue_turn(s, false, events);
                }
            }
            _ => debug_assert!(false, "no chance step is pending"),
        }
    }

    fn outcome(&self, s: &SpiralRaceState) -> Option<Outcome> {
        s.outcome
    }

    fn clock<'s>(&self, s: &'s SpiralRaceState) -> &'s Clock {
        &s.clock
    }

    fn limit(&self) -> Limit {
        self.limit
    }

    fn seats(&self) -> usize {
        self.players
    }

    fn is_pass(&self, mv: SpiralMove) -> bool {
        mv == SpiralMove::Pass
    }

    /// The pieces (leg, hollow, tâbas paid, scores kept), who holds the hyena, the banks and
    /// purses, the women eaten, the mover, the phase and the throw in hand.
    fn position_key(&self, s: &SpiralRaceState) -> Option<u64> {
        let piece = |h: u64, p: &Piece| {
            let h = super::core::mix(
                h,
                p.leg as u64
                    | u64::from(p.pos) << 8
                    | u64::from(p.paid) << 24
                    | u64::from(p.first_back) << 32,
            );
            super::core::mix(
                h,
                u64::from(p.kept[0]) ^ u64::from(p.kept[1]) << 21 ^ u64::from(p.kept[2]) << 42,
            )
        };
        let mut h = 0;
        for seat in 0..self.players {
            h = piece(h, &s.mothers[seat]);
            h = super::core::mix(
                h,
                u64::from(s.bank[seat])
                    | u64::from(s.set_aside[seat]) << 32
                    | u64::from(s.left[seat]) << 63,
            );
        }
        h = piece(h, &s.hyena);
        Some(super::core::mix(
            h,
            u64::from(s.hyena_player)
                | u64::from(s.eaten) << 8
                | u64::from(s.kept_played) << 16
                | (s.phase as u64) << 24
                | u64::from(s.mover) << 32
                | u64::from(s.throw) << 40,
        ))
    }

    /// The hollows of the spiral, the village (0) to the well.
    fn board_sites(&self) -> usize {
        usize::from(self.len) + 1
    }

    /// The hollows a mother or the loose hyena stands in (the village for one waiting there
    /// or home again).
    fn occupied(&self, s: &SpiralRaceState) -> crate::games::Sites {
        let mut out = [0u128; 2];
        let mut mark = |p: &Piece| {
            let hollow = match p.leg {
                Leg::Village | Leg::Home => 0,
                Leg::Out | Leg::Back => usize::from(p.pos),
                Leg::Well => usize::from(self.len),
                Leg::Eaten => return,
            };
            out[hollow / 128] |= 1 << (hollow % 128);
        };
        for seat in 0..self.players {
            mark(&s.mothers[seat]);
        }
        if s.hyena_player != NONE {
            mark(&s.hyena);
        }
        out
    }

    /// Progress along the spiral, in hollows: the seat's mother counts the hollows she has
    /// walked (out to the well, `track_len`, then back), one more for each tâba paid at the
    /// well, and `2 × track_len + 1` once home; eaten, nothing. A seat that controls the loose
    /// hyena (the first home, or under `controller: every-home` every seat whose mother is
    /// home) adds the hyena's progress counted the same way and `2 × track_len` for each woman
    /// he has eaten.
    fn material(&self, s: &SpiralRaceState, seat: Seat) -> i64 {
        let len = i64::from(self.len);
        let walked = |p: &Piece| -> i64 {
            match p.leg {
                Leg::Village | Leg::Eaten => 0,
                Leg::Out => i64::from(p.pos),
                Leg::Well => len + i64::from(p.paid),
                Leg::Back => 2 * len - i64::from(p.pos) + 1,
                Leg::Home => 2 * len + 1,
            }
        };
        let mut total = walked(&s.mothers[seat]);
        let controls = s.hyena_player != NONE
            && match self.p.controller {
                Controller::FirstHome => usize::from(s.hyena_player) == seat,
                Controller::EveryHome => s.mothers[seat].leg == Leg::Home,
            };
        if controls {
            total += walked(&s.hyena) + 2 * len * i64::from(s.eaten);
        }
        total
    }

    fn chance_text(&self, s: &SpiralRaceState, k: usize) -> String {
        match s.phase {
            Phase::Throw => {
                let t = sticks::THROWS[k];
                format!("the sticks fall {t} ({})", super::stick_race::throw_name(t))
            }
            _ => "the lot".to_owned(),
        }
    }

    fn board(&self, s: &SpiralRaceState) -> view::BoardView {
        self.board_view(s)
    }

    fn move_params(&self, mv: SpiralMove) -> &'static [&'static str] {
        Self::move_rule(mv)
    }

    fn position_text(&self, s: &SpiralRaceState) -> String {
        self.notation(s)
    }

    fn parse_position(
        &self,
        text: &str,
    ) -> Result<SpiralRaceState, super::position::PositionError> {
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

    fn state_text(&self, s: &SpiralRaceState) -> String {
        let piece = |p: &Piece| match p.leg {
            Leg::Village => "V".to_owned(),
            Leg::Out => format!("{}>", p.pos),
            Leg::Well => format!("W{}", p.paid),
            Leg::Back => format!("<{}", p.pos),
            Leg::Home => "H".to_owned(),
            Leg::Eaten => "x".to_owned(),
        };
        let mothers: Vec<String> = s.mothers[..self.players].iter().map(piece).collect();
        let banks: Vec<String> = s.bank[..self.players].iter().map(u32::to_string).collect();
        let hyena = match s.hyena_player {
            NONE => "-".to_owned(),
            seat => format!("{}@{}", piece(&s.hyena), seat + 1),
        };
        let throw = match s.phase {
            Phase::Decide => format!(" throw={}", s.throw),
            _ => String::new(),
        };
        format!(
            "mothers={} hyena={hyena} bank={}{throw}",
            mothers.join(","),
            banks.join("-")
        )
    }
}
