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

use std::fmt;

use super::core::sticks::{self, Cast};
use super::core::{CapError, Clock, Limit, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, MoveSink, NoEvents, Outcome, Result_, Rules, Seat,
    Status, event_kinds,
};
use crate::family::spiral_race::{
    Controller, Eats, End, HyenaPurse, HyenaTaba, Leave, MotherOvershoot, OutCredit, ReturnTaba,
    SpiralRaceParams, Starter, WellBanking, WellExit, WellPay, Winner,
};

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

event_kinds! {
    /// The kinds of spiral-race event.
    pub enum SpiralRaceEventKind;
    endless = ["end", "village_exact", "overshoot", "return_taba", "hyena_exact", "cap"];
    /// A lot decided who throws first.
    Lot = "lot" ["starter"],
    /// A mother left the village.
    Left = "left" ["leave"],
    /// A tâba was banked.
    Banked = "banked" [],
    /// A throw would have taken a mother past the well.
    Overshoot = "overshoot" ["overshoot"],
    /// A banked tâba moved a mother on her way out.
    CreditOut = "credit-out" ["out_credit"],
    /// A tâba thrown with a credit step was lost (Ludii: one move per throw).
    TabaDropped = "taba-dropped" ["ludii_credit_drops_taba"],
    /// A mother reached the well.
    AtWell = "at-well" [],
    /// A tâba was paid at the well.
    Paid = "paid" ["well_cost", "well_pay"],
    /// A score thrown at the well was kept for later.
    Kept = "kept" ["well_banking"],
    /// A kept score moved a mother.
    KeptPlayed = "kept-played" ["well_banking"],
    /// A mother left the well.
    LeftWell = "left-well" ["well_exit"],
    /// A tâba moved a mother on her way back.
    ReturnTaba = "return-taba" ["return_taba"],
    /// A banked tâba took a mother into the village.
    ReturnCredit = "return-credit" ["return_taba"],
    /// A mother came home.
    Home = "home" ["village_exact"],
    /// The first mother home let the hyena loose.
    HyenaLoose = "hyena-loose" ["controller"],
    /// A home player waited while another moved the hyena.
    Waiting = "waiting" ["controller"],
    /// A tâba was paid for the hyena's release.
    ReleasePaid = "release-paid" ["hyena_release_cost", "well_pay"],
    /// The hyena left the village.
    HyenaOut = "hyena-out" ["hyena_release_cost"],
    /// A tâba was banked for the hyena.
    HyenaBanked = "hyena-banked" ["hyena_taba"],
    /// A banked tâba moved the hyena.
    HyenaCredit = "hyena-credit" ["hyena_credit_step"],
    /// A throw stopped the hyena at the well short of its full value.
    HyenaStopped = "hyena-stopped" ["hyena_exact"],
    /// The hyena reached the well.
    HyenaAtWell = "hyena-at-well" [],
    /// A tâba was paid for the hyena at the well.
    HyenaPaid = "hyena-paid" ["hyena_well_cost", "well_pay"],
    /// The hyena left the well.
    HyenaLeftWell = "hyena-left-well" ["well_exit"],
    /// The hyena ate a woman.
    Eaten = "eaten" ["eats", "eats_outbound", "eats_at_well"],
    /// The hyena passed a woman still on her way out, who was spared.
    SparedHeadOn = "spared-head-on" ["eats_outbound"],
    /// The hyena came home.
    HyenaHome = "hyena-home" ["village_exact"],
    /// A throw no piece could use was lost.
    Unusable = "unusable" [],
    /// A player let a usable throw go.
    Declined = "declined" ["must_move"],
    /// A yômên stopped the player without being played.
    YomenStops = "yomen-stops" ["yomen_played"],
    /// The end rule ended the game.
    GameEnd = "game-end" ["end"],
    /// The hyena's player won.
    HyenaWins = "hyena-wins" ["winner"],
    /// The survivors won.
    SurvivorsWin = "survivors-win" ["winner"],
    /// Nobody was left to move.
    NoMover = "no-mover" ["controller", "end"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// The hyena can never come home (nor, under `first-eaten`, eat): the game cannot end.
    NeverHome = "never-home" ["end", "village_exact", "hyena_exact", "hyena_taba", "hyena_credit_step", "yomen_played"],
    /// The credit step into the well paid the first of her tâbas there.
    EntryPaid = "entry-paid" ["credit_entry_pays"],
    /// A kept score moved the hyena.
    HyenaKept = "hyena-kept" ["well_banking", "hyena_keeps"],
    /// A score thrown for the hyena at the well was marked down for him.
    HyenaMarked = "hyena-marked" ["hyena_keeps"],
    /// The hyena, home with women still on their way, set off again.
    HyenaAgain = "hyena-again" ["hyena_again"],
    /// A mother came home with credit left, which pays nothing for the hyena.
    CreditSetAside = "credit-set-aside" ["hyena_purse"],
}

/// A spiral-race event with its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpiralRaceEvent {
    /// What happened.
    pub kind: SpiralRaceEventKind,
    /// The seat concerned.
    pub seat: u8,
    /// The hollow concerned, or a count (turns at the cap).
    pub at: u16,
}

impl Event for SpiralRaceEvent {
    type Kind = SpiralRaceEventKind;
    #[inline]
    fn kind(&self) -> SpiralRaceEventKind {
        self.kind
    }
}

impl fmt::Display for SpiralRaceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} seat={} at={}",
            self.kind.name(),
            self.seat + 1,
            self.at
        )
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

/// For each distance up to `len`, the fewest moves of `credit` hollows among moves adding up
/// to it exactly, the other `steps` costing nothing (`u32::MAX` where none do).
fn fewest_credits(len: u16, steps: &[u16], credit: u16) -> Vec<u32> {
    let mut best = vec![u32::MAX; usize::from(len) + 1];
    best[0] = 0;
    let moves = steps.iter().map(|&k| (k, 0)).chain([(credit, 1)]);
    for d in 1..best.len() {
        for (k, cost) in moves.clone() {
            let k = usize::from(k);
            if k == 0 || k > d || best[d - k] == u32::MAX {
                continue;
            }
            best[d] = best[d].min(best[d - k] + cost);
        }
    }
    best
}

/// Which distances up to `len` a sum of `steps` makes (`exact`), or all of them.
fn reachable(len: u16, steps: &[u16], exact: bool) -> Vec<bool> {
    let mut reach = vec![!exact; usize::from(len) + 1];
    reach[0] = true;
    for d in 1..reach.len() {
        reach[d] = reach[d]
            || steps
                .iter()
                .any(|&k| k > 0 && usize::from(k) <= d && reach[d - usize::from(k)]);
    }
    reach
}

impl SpiralRace {
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`SpiralRaceError`] for a track, player count or combination the engine cannot play.
    pub fn new(p: &SpiralRaceParams) -> Result<Self, SpiralRaceError> {
        if !(3..=250).contains(&p.track_len) {
            return Err(SpiralRaceError::Track(p.track_len));
        }
        if !(2..=MAX_PLAYERS).contains(&usize::from(p.players)) {
            return Err(SpiralRaceError::Players(p.players));
        }
        if p.hyena_credit_step > 2 {
            return Err(SpiralRaceError::CreditStep(p.hyena_credit_step));
        }
        if p.well_pay == WellPay::EachThrow && p.well_banking != WellBanking::Lost {
            return Err(SpiralRaceError::Banking(match p.well_banking {
                WellBanking::Separate => "separate",
                WellBanking::OneATurn => "one-a-turn",
                WellBanking::Hyena => "hyena",
                _ => "added",
            }));
        }
        if p.hyena_keeps && p.well_pay == WellPay::EachThrow {
            return Err(SpiralRaceError::HyenaKeeps);
        }
        if p.hyena_again && p.end != End::AllHome {
            return Err(SpiralRaceError::AgainWithEnd(match p.end {
                End::HyenaHome => "hyena-home",
                _ => "first-eaten",
            }));
        }
        let limit = Limit::new(p.cap)?;
        // A cost of 0 is nothing to pay: the piece is paid up as it arrives (`settle`), and
        // leaves as `well_exit` says. Only `with-last` needs a tâba to leave with. The
        // release cost is not a well's: the hyena leaves the village on his next move.
        if matches!(p.well_exit, WellExit::WithLast | WellExit::TwoLast) {
            if p.well_cost == 0 {
                return Err(SpiralRaceError::ZeroCostWithLast("well_cost"));
            }
            if p.hyena_well_cost == 0 {
                return Err(SpiralRaceError::ZeroCostWithLast("hyena_well_cost"));
            }
        }
        // The hyena's possible moves, for proving that he can never come home: every throw
        // that is played moves him double; a tâba moves him two where it is a move; a credit
        // step counts as always possible (so a proof never rests on his running out of them).
        let mut throws = vec![8, 12];
        if p.yomen_played {
            throws.push(4);
        }
        if p.hyena_taba == HyenaTaba::DoubleOrBank {
            throws.push(2);
        }
        let mut back = throws.clone();
        back.push(u16::from(p.hyena_credit_step));
        Ok(SpiralRace {
            p: p.clone(),
            len: p.track_len,
            players: usize::from(p.players),
            limit,
            home_reach: reachable(p.track_len, &back, p.village_exact),
            well_reach: reachable(p.track_len, &back, p.hyena_exact),
            home_credits: fewest_credits(p.track_len, &throws, u16::from(p.hyena_credit_step)),
            hyena_steps: back,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &SpiralRaceParams {
        &self.p
    }

    /// Steps from the village to the well.
    pub fn track_len(&self) -> u16 {
        self.len
    }

    /// Builds a position for tests and worked examples: each mother and the hyena where the
    /// closure puts them, banks, who is to move and the throw in hand.
    pub fn position(
        &self,
        mothers: &[Piece],
        hyena: Option<(Seat, Piece)>,
        bank: &[u32],
        to_move: Seat,
        throw: Option<u8>,
    ) -> SpiralRaceState {
        let mut s = self.initial();
        for (seat, m) in mothers.iter().enumerate().take(self.players) {
            s.mothers[seat] = *m;
            s.left[seat] = m.leg != Leg::Village;
        }
        if let Some((seat, h)) = hyena {
            s.hyena_player = seat as u8;
            s.hyena = h;
        }
        for (seat, &b) in bank.iter().enumerate().take(self.players) {
            s.bank[seat] = b;
        }
        s.eaten = s.mothers[..self.players]
            .iter()
            .filter(|m| m.leg == Leg::Eaten)
            .count() as u8;
        s.mover = to_move as u8;
        match throw {
            Some(t) => {
                s.throw = t;
                s.phase = Phase::Decide;
            }
            None => s.phase = Phase::Throw,
        }
        self.end_tests(&mut s, &mut NoEvents);
        s
    }

    fn emit(
        &self,
        events: &mut impl EventSink<SpiralRaceEvent>,
        kind: SpiralRaceEventKind,
        seat: usize,
        at: u16,
    ) {
        events.emit(SpiralRaceEvent {
            kind,
            seat: seat as u8,
            at,
        });
    }

    /// The piece a seat plays, if any.
    fn which(&self, s: &SpiralRaceState, seat: usize) -> Option<Which> {
        match s.mothers[seat].leg {
            Leg::Eaten => None,
            Leg::Home => {
                let hyena_moves = s.hyena_player != NONE && s.hyena.leg != Leg::Home;
                let controls = match self.p.controller {
                    Controller::FirstHome => usize::from(s.hyena_player) == seat,
                    Controller::EveryHome => true,
                };
                (hyena_moves && controls).then_some(Which::Hyena)
            }
            _ => Some(Which::Mother),
        }
    }

    /// A mother's target going out by `dist` from `pos`, under the overshoot rule.
    fn out_target(&self, pos: u16, dist: u16) -> Option<u16> {
        let j = pos + dist;
        if j <= self.len {
            return Some(j);
        }
        match self.p.overshoot {
            MotherOvershoot::Forfeit => None,
            MotherOvershoot::Bounce => Some(self.len - (j - self.len).min(self.len - 1)),
            MotherOvershoot::Stop => Some(self.len),
        }
    }

    /// The hyena's target going out by `dist` from `pos`: the well stops him unless he must
    /// reach it exactly.
    fn hyena_out_target(&self, pos: u16, dist: u16) -> Option<u16> {
        let j = pos + dist;
        if j <= self.len {
            Some(j)
        } else if self.p.hyena_exact {
            None
        } else {
            Some(self.len)
        }
    }

    /// A target going back by `dist` from `pos`, under the village rule.
    fn back_target(&self, pos: u16, dist: u16) -> Option<u16> {
        if dist <= pos {
            Some(pos - dist)
        } else if self.p.village_exact {
            None
        } else {
            Some(0)
        }
    }

    /// A tâba payment is due where the piece stands: its cost, if any is still owed.
    fn owed(&self, piece: &Piece, which: Which) -> Option<u8> {
        let cost = match (which, piece.leg) {
            (Which::Mother, Leg::Well) => self.p.well_cost,
            (Which::Hyena, Leg::Well) => self.p.hyena_well_cost,
            (Which::Hyena, Leg::Village) => self.p.hyena_release_cost,
            _ => return None,
        };
        (piece.paid < cost).then_some(cost - piece.paid)
    }

    /// Whether a tâba thrown for the piece on this leg is one its player may bank: a mother's
    /// out or back, the hyena's out, and his way back where his tâba is only banked. (Where
    /// the hyena's tâba moves him back two, it is a move like a 2, 4 or 6.) A credit step
    /// taken with such a tâba in hand banks it.
    fn taba_banks(&self, which: Which, leg: Leg) -> bool {
        match (which, leg) {
            (Which::Mother, Leg::Out | Leg::Back) => true,
            (Which::Hyena, Leg::Village | Leg::Out) => true,
            (Which::Hyena, Leg::Back) => self.p.hyena_taba == HyenaTaba::Bank,
            _ => false,
        }
    }

    /// The moves a throw allows the seat's piece, into `out` (no pass).
    fn throw_moves(&self, s: &SpiralRaceState, seat: usize, out: &mut impl MoveSink<SpiralMove>) {
        let t = u16::from(s.throw);
        let bank = s.bank[seat];
        let Some(which) = self.which(s, seat) else {
            return;
        };
        let piece = s.piece(seat, which);
        if self.owed(&piece, which).is_some() {
            // Paying: a thrown tâba pays; under each-throw a 2, 4 or 6 spends a banked one.
            if t == 1 {
                out.push(SpiralMove::Pay { credit: false });
            } else if self.p.well_pay == WellPay::EachThrow {
                if bank > 0 {
                    out.push(SpiralMove::Pay { credit: true });
                }
            } else {
                // A 2, 4 or 6 marked down: a mother's where her scores are kept, the hyena's
                // at the well where his are (never at his release).
                let keeps = match which {
                    Which::Mother => self.p.well_banking != WellBanking::Lost,
                    Which::Hyena => piece.leg == Leg::Well && self.p.hyena_keeps,
                };
                if keeps {
                    out.push(SpiralMove::Keep);
                }
            }
            return;
        }
        match (which, piece.leg) {
            (Which::Mother, Leg::Village) if t == 1 => out.push(SpiralMove::Leave),
            (Which::Mother, Leg::Out) => {
                let last = piece.pos + 1 == self.len;
                if last && self.p.out_credit == OutCredit::LastHollow && bank > 0 {
                    // Her only move: the credit completes the journey (Davies' "may" is not a
                    // choice here). A tâba in hand is banked with it; a 2, 4 or 6 gives way.
                    out.push(SpiralMove::Credit { to: self.len });
                    return;
                }
                if t == 1 {
                    out.push(SpiralMove::Bank);
                } else if let Some(to) = self.out_target(piece.pos, t) {
                    out.push(SpiralMove::Step { to });
                }
                let optional_here = last && self.p.out_credit == OutCredit::LastHollowOptional;
                let anywhere =
                    matches!(self.p.out_credit, OutCredit::AnyHollow | OutCredit::AnyTime);
                if (anywhere || optional_here) && bank > 0 {
                    out.push(SpiralMove::Credit { to: piece.pos + 1 });
                }
            }
            (_, Leg::Well) => {
                // Paid: leaving.
                match self.p.well_exit {
                    WellExit::NextThrow => out.push(SpiralMove::Exit { to: self.len - 1 }),
                    // Under these two the piece is already on its way back.
                    WellExit::WithLast | WellExit::Released | WellExit::TwoLast => {}
                }
            }
            (Which::Mother, Leg::Back) => {
                // One hollow from home, a credit may take her in (`return_taba: bank`). Unless
                // `return_credit_forced`, it is one move among others, unlike the way out: she
                // may bank the tâba, or step home on the throw where the village allows, and
                // keep her credit.
                if self.p.return_credit_forced
                    && self.p.return_taba == ReturnTaba::Bank
                    && piece.pos == 1
                    && bank > 0
                {
                    // Forced, as into the well: the credit step home is her only move.
                    out.push(SpiralMove::Credit { to: 0 });
                    return;
                }
                let extra = if piece.first_back && self.p.well_banking == WellBanking::Added {
                    piece.kept_sum()
                } else {
                    0
                };
                if t == 1 {
                    out.push(SpiralMove::Bank);
                    if self.p.return_taba == ReturnTaba::MoveOrBank
                        && let Some(to) = self.back_target(piece.pos, extra.saturating_add(1))
                    {
                        out.push(SpiralMove::Step { to });
                    }
                    if self.p.return_taba == ReturnTaba::Bank && piece.pos == 1 && bank > 0 {
                        out.push(SpiralMove::Credit { to: 0 });
                    }
                } else {
                    if let Some(to) = self.back_target(piece.pos, t.saturating_add(extra)) {
                        out.push(SpiralMove::Step { to });
                    }
                    if self.p.return_taba == ReturnTaba::Bank && piece.pos == 1 && bank > 0 {
                        out.push(SpiralMove::Credit { to: 0 });
                    }
                }
            }
            (Which::Hyena, Leg::Village | Leg::Out) => {
                let pos = piece.pos;
                let out_by = |dist: u16| -> Option<(u16, bool)> {
                    let j = pos + dist;
                    if j <= self.len {
                        Some((j, false))
                    } else if self.p.hyena_exact {
                        None
                    } else {
                        Some((self.len, true))
                    }
                };
                if t == 1 {
                    out.push(SpiralMove::Bank);
                    if self.p.hyena_taba == HyenaTaba::DoubleOrBank
                        && let Some((to, _)) = out_by(2)
                    {
                        out.push(SpiralMove::Step { to });
                    }
                } else if let Some((to, _)) = out_by(2 * t) {
                    out.push(SpiralMove::Step { to });
                }
                let c = u16::from(self.p.hyena_credit_step);
                if c > 0
                    && bank > 0
                    && let Some((to, _)) = out_by(c)
                {
                    out.push(SpiralMove::Credit { to });
                }
            }
            (Which::Hyena, Leg::Back) => {
                if t == 1 && self.taba_banks(which, Leg::Back) {
                    out.push(SpiralMove::Bank);
                } else if let Some(to) = self.back_target(piece.pos, 2 * t) {
                    out.push(SpiralMove::Step { to });
                }
                let c = u16::from(self.p.hyena_credit_step);
                if c > 0
                    && bank > 0
                    && let Some(to) = self.back_target(piece.pos, c)
                {
                    out.push(SpiralMove::Credit { to });
                }
            }
            _ => {}
        }
    }

    /// The moves a throw allows, less those onto a hollow another mother blocks.
    fn unblocked_throw_moves(&self, s: &SpiralRaceState, seat: usize, out: &mut Vec<SpiralMove>) {
        self.throw_moves(s, seat, out);
        if self.p.mothers_block {
            out.retain(|&mv| !self.blocked(s, seat, mv));
        }
    }

    /// Whether a move of the seat's mother would land on a hollow of the track where another
    /// mother stands (`mothers_block`; the village and the well hold any number).
    fn blocked(&self, s: &SpiralRaceState, seat: usize, mv: SpiralMove) -> bool {
        if self.which(s, seat) != Some(Which::Mother) {
            return false;
        }
        let to = match mv {
            SpiralMove::Step { to }
            | SpiralMove::Credit { to }
            | SpiralMove::Exit { to }
            | SpiralMove::Kept { to, .. } => to,
            SpiralMove::Leave if self.p.leave == Leave::Step => 1,
            _ => return false,
        };
        to > 0
            && to < self.len
            && (0..self.players).any(|q| {
                let m = s.mothers[q];
                q != seat && matches!(m.leg, Leg::Out | Leg::Back) && m.pos == to
            })
    }

    /// Every legal decision of the mover.
    fn decisions(&self, s: &SpiralRaceState, out: &mut Vec<SpiralMove>) {
        let seat = usize::from(s.mover);
        self.unblocked_throw_moves(s, seat, out);
        let usable = !out.is_empty();
        // Kept scores are played as decisions of their own, the throw kept in hand.
        let m = s.mothers[seat];
        let forced = out.len() == 1 && matches!(out[0], SpiralMove::Credit { to: 0 });
        let separate = matches!(
            self.p.well_banking,
            WellBanking::Separate | WellBanking::OneATurn | WellBanking::Hyena
        );
        let spent = self.p.well_banking == WellBanking::OneATurn && s.kept_played;
        match self.which(s, seat) {
            Some(Which::Mother)
                if separate
                    && !spent
                    && m.leg == Leg::Back
                    && !(forced && self.p.return_credit_forced) =>
            {
                for (k, &n) in m.kept.iter().enumerate() {
                    let score = [2u8, 4, 6][k];
                    if n > 0
                        && let Some(to) = self.back_target(m.pos, u16::from(score))
                    {
                        out.push(SpiralMove::Kept { score, to });
                    }
                }
            }
            // The hyena's own scores marked down at the well (`hyena_keeps`), and her scores
            // left over where they are her player's hyena's: at double rates.
            Some(Which::Hyena)
                if self.p.well_banking == WellBanking::Hyena || self.p.hyena_keeps =>
            {
                let h = s.hyena;
                let mothers = self.p.well_banking == WellBanking::Hyena;
                for k in 0..3 {
                    let n = h.kept[k] + if mothers { m.kept[k] } else { 0 };
                    let score = [2u8, 4, 6][k];
                    let dist = 2 * u16::from(score);
                    let to = match h.leg {
                        Leg::Out => self.hyena_out_target(h.pos, dist),
                        Leg::Back => self.back_target(h.pos, dist),
                        _ => None,
                    };
                    if n > 0
                        && let Some(to) = to
                    {
                        out.push(SpiralMove::Kept { score, to });
                    }
                }
            }
            _ => {}
        }
        if self.p.mothers_block {
            out.retain(|&mv| !self.blocked(s, seat, mv));
        }
        // Under `last-hollow-optional` and `any-time` a credit step is no use of the throw:
        // with nothing else to do she may still keep her credit and let the throw go.
        let credit_only = usable
            && matches!(
                self.p.out_credit,
                OutCredit::LastHollowOptional | OutCredit::AnyTime
            )
            && self.which(s, seat) == Some(Which::Mother)
            && m.leg == Leg::Out
            && out.iter().all(|mv| matches!(mv, SpiralMove::Credit { .. }));
        if !usable || !self.p.must_move || credit_only {
            out.push(SpiralMove::Pass);
        }
    }

    /// A piece has just come where a cost is due (a mother or the hyena at the well, the hyena
    /// let loose in the village). A cost of 0 is nothing to pay, so it is paid up on the spot
    /// and the exit rule applies at once (without this, `pay` would never run and the piece
    /// would wait for ever); otherwise banked tâbas pay under `at-once`.
    fn settle(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let piece = s.piece(seat, which);
        if self.owed(&piece, which).is_none() {
            self.paid_in_full(s, seat, which, events);
        } else {
            self.pay_at_once(s, seat, which, events);
        }
    }

    /// Pays banked tâbas at once where some are owed (`well_pay: at-once`).
    fn pay_at_once(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if self.p.well_pay != WellPay::AtOnce {
            return;
        }
        let piece = s.piece(seat, which);
        if let Some(owed) = self.owed(&piece, which) {
            let n = owed.min(s.bank[seat].min(255) as u8);
            for _ in 0..n {
                self.pay(s, seat, which, events);
                s.bank[seat] -= 1;
            }
        }
    }

    /// One tâba paid by the seat's piece; settles what paying in full does.
    fn pay(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let piece = s.piece_mut(seat, which);
        piece.paid += 1;
        let leg = piece.leg;
        let kind = match (which, leg) {
            (Which::Mother, _) => SpiralRaceEventKind::Paid,
            (Which::Hyena, Leg::Village) => SpiralRaceEventKind::ReleasePaid,
            (Which::Hyena, _) => SpiralRaceEventKind::HyenaPaid,
        };
        let pos = piece.pos;
        self.emit(events, kind, seat, pos);
        if self.owed(&s.piece(seat, which), which).is_none() {
            self.paid_in_full(s, seat, which, events);
        }
    }

    /// A piece that has paid all it owes: the hyena leaves the village; at the well, the exit
    /// rule applies.
    fn paid_in_full(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if which == Which::Hyena && s.hyena.leg == Leg::Well && self.p.eats_at_well {
            // He has drunk: the women waiting at the well are his.
            for q in 0..self.players {
                if s.mothers[q].leg == Leg::Well {
                    s.mothers[q].leg = Leg::Eaten;
                    s.fate[q] = s.clock.plies();
                    s.eaten += 1;
                    self.emit(events, SpiralRaceEventKind::Eaten, q, self.len);
                }
            }
        }
        let piece = s.piece_mut(seat, which);
        match piece.leg {
            Leg::Village => {
                piece.leg = Leg::Out;
                piece.paid = 0;
                self.emit(events, SpiralRaceEventKind::HyenaOut, seat, 0);
            }
            Leg::Well => match self.p.well_exit {
                WellExit::NextThrow => {}
                WellExit::WithLast => {
                    piece.leg = Leg::Back;
                    piece.pos = self.len - 1;
                    piece.first_back = true;
                    self.left_well(events, seat, which, self.len - 1);
                }
                WellExit::Released => {
                    piece.leg = Leg::Back;
                    piece.first_back = true;
                    self.left_well(events, seat, which, self.len);
                }
                WellExit::TwoLast => {
                    let to = self.len - self.come_away(which);
                    piece.leg = Leg::Back;
                    piece.pos = to;
                    piece.first_back = true;
                    self.left_well(events, seat, which, to);
                }
            },
            _ => {}
        }
    }

    /// Hollows the tâbas "to come away with" move a piece out of the well (`two-last`): one
    /// each, two at most, and one where only one is paid.
    fn come_away(&self, which: Which) -> u16 {
        let cost = match which {
            Which::Mother => self.p.well_cost,
            Which::Hyena => self.p.hyena_well_cost,
        };
        u16::from(cost.min(2))
    }

    fn left_well(
        &self,
        events: &mut impl EventSink<SpiralRaceEvent>,
        seat: usize,
        which: Which,
        to: u16,
    ) {
        let kind = match which {
            Which::Mother => SpiralRaceEventKind::LeftWell,
            Which::Hyena => SpiralRaceEventKind::HyenaLeftWell,
        };
        self.emit(events, kind, seat, to);
    }

    /// Moves the seat's mother to `to` (either way), by a credit step or not; settles
    /// arrivals.
    fn move_mother(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        to: u16,
        by_credit: bool,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let m = &mut s.mothers[seat];
        m.pos = to;
        match m.leg {
            Leg::Out if to == self.len => {
                m.leg = Leg::Well;
                m.paid = 0;
                self.emit(events, SpiralRaceEventKind::AtWell, seat, to);
                // The credit that carried her in is the first of her tâbas there.
                if by_credit && self.p.credit_entry_pays && self.p.well_cost > 0 {
                    s.mothers[seat].paid = 1;
                    self.emit(events, SpiralRaceEventKind::EntryPaid, seat, to);
                }
                self.settle(s, seat, Which::Mother, events);
            }
            Leg::Back => {
                if m.first_back {
                    m.first_back = false;
                    if self.p.well_banking == WellBanking::Added {
                        m.kept = [0; 3];
                    }
                }
                if to == 0 {
                    m.leg = Leg::Home;
                    s.fate[seat] = s.clock.plies();
                    self.emit(events, SpiralRaceEventKind::Home, seat, 0);
                    // Her journey is over: under `fresh` what is left of her credit is not the
                    // hyena's to spend.
                    if self.p.hyena_purse == HyenaPurse::Fresh && s.bank[seat] > 0 {
                        let n = s.bank[seat];
                        s.set_aside[seat] += n;
                        s.bank[seat] = 0;
                        self.emit(
                            events,
                            SpiralRaceEventKind::CreditSetAside,
                            seat,
                            u16::try_from(n).unwrap_or(u16::MAX),
                        );
                    }
                    if s.hyena_player == NONE {
                        s.hyena_player = seat as u8;
                        s.hyena = Piece::START;
                        self.emit(events, SpiralRaceEventKind::HyenaLoose, seat, 0);
                        self.settle(s, seat, Which::Hyena, events);
                    }
                }
            }
            _ => {}
        }
    }

    /// Moves the hyena to `to`; on its way back it eats.
    fn move_hyena(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        to: u16,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let from = s.hyena.pos;
        if s.hyena.leg == Leg::Back {
            let (lo, hi) = match self.p.eats {
                // Hollows strictly between, and/or the landing one; or the start and those
                // between (Ludii).
                Eats::Passed => (to + 1, from - 1),
                Eats::Landed => (to, to),
                Eats::Both => (to, from - 1),
                Eats::Sweep => (to + 1, from),
            };
            for seat_m in 0..self.players {
                let m = s.mothers[seat_m];
                let in_reach = m.pos >= lo && m.pos <= hi && m.pos > 0 && m.pos < self.len;
                if !in_reach {
                    continue;
                }
                match m.leg {
                    Leg::Back => {}
                    Leg::Out if self.p.eats_outbound => {}
                    Leg::Out => {
                        self.emit(events, SpiralRaceEventKind::SparedHeadOn, seat_m, m.pos);
                        continue;
                    }
                    _ => continue,
                }
                s.mothers[seat_m].leg = Leg::Eaten;
                s.fate[seat_m] = s.clock.plies();
                s.eaten += 1;
                self.emit(events, SpiralRaceEventKind::Eaten, seat_m, m.pos);
            }
        }
        let h = &mut s.hyena;
        if h.leg == Leg::Village {
            h.leg = Leg::Out;
        }
        h.pos = to;
        match h.leg {
            Leg::Out if to == self.len => {
                h.leg = Leg::Well;
                h.paid = 0;
                self.emit(events, SpiralRaceEventKind::HyenaAtWell, seat, to);
                self.settle(s, seat, Which::Hyena, events);
            }
            Leg::Back if to == 0 => {
                h.leg = Leg::Home;
                self.emit(events, SpiralRaceEventKind::HyenaHome, seat, 0);
                let women_out =
                    (0..self.players).any(|q| !matches!(s.mothers[q].leg, Leg::Home | Leg::Eaten));
                if self.p.hyena_again && women_out {
                    // Round again: loose in the village as at first, his release to pay.
                    s.hyena = Piece::START;
                    self.emit(events, SpiralRaceEventKind::HyenaAgain, seat, 0);
                    self.settle(s, seat, Which::Hyena, events);
                }
            }
            _ => {}
        }
    }

    fn over(&self, s: &mut SpiralRaceState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        let ranks = if end == EndReason::Natural {
            self.ranks(s)
        } else {
            Outcome::UNRANKED
        };
        s.outcome = Some(Outcome {
            result,
            end,
            scores: [0, 0],
            ranks,
        });
    }

    /// Davies' degrees of defeat as places (1 the best): the mothers home first, in the order
    /// they came (the first, the hyena's player, first of all); then those neither home nor
    /// eaten when the game ended, sharing a place; then the eaten, the later eaten above the
    /// earlier, women eaten on one move sharing a place.
    fn ranks(&self, s: &SpiralRaceState) -> [u8; 8] {
        let mut ranks = Outcome::UNRANKED;
        let seats = 0..self.players;
        let home = |seat: usize| s.mothers[seat].leg == Leg::Home;
        let eaten = |seat: usize| s.mothers[seat].leg == Leg::Eaten;
        let n_home = seats.clone().filter(|&q| home(q)).count();
        let n_out = seats.clone().filter(|&q| !home(q) && !eaten(q)).count();
        for seat in seats.clone() {
            let f = s.fate[seat];
            let place = if home(seat) {
                1 + seats.clone().filter(|&q| home(q) && s.fate[q] < f).count()
            } else if !eaten(seat) {
                n_home + 1
            } else {
                n_home + n_out + 1 + seats.clone().filter(|&q| eaten(q) && s.fate[q] > f).count()
            };
            ranks[seat] = place as u8;
        }
        ranks
    }

    /// The seats whose mothers were not eaten.
    fn survivors(&self, s: &SpiralRaceState) -> u8 {
        (0..self.players)
            .filter(|&seat| s.mothers[seat].leg != Leg::Eaten)
            .fold(0, |mask, seat| mask | 1 << seat)
    }

    /// The winner rule, as a result.
    fn result(&self, s: &SpiralRaceState, events: &mut impl EventSink<SpiralRaceEvent>) -> Result_ {
        let hyena = s.hyena_player;
        let hyena_wins = match self.p.winner {
            Winner::Survivors => false,
            Winner::Hyena => hyena != NONE,
            Winner::HyenaIfEats => hyena != NONE && s.eaten > 0,
            // The places are the result (`ranks`): nobody wins alone.
            Winner::Ranking => return Result_::Draw,
        };
        if hyena_wins {
            self.emit(
                events,
                SpiralRaceEventKind::HyenaWins,
                usize::from(hyena),
                0,
            );
            return Result_::Win(1 << hyena);
        }
        let mask = self.survivors(s);
        if mask == 0 {
            return Result_::Draw;
        }
        self.emit(
            events,
            SpiralRaceEventKind::SurvivorsWin,
            0,
            mask.count_ones() as u16,
        );
        Result_::Win(mask)
    }

    /// The end rule, then the cap. Returns whether the game is over.
    fn end_tests(
        &self,
        s: &mut SpiralRaceState,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) -> bool {
        let loose = s.hyena_player != NONE;
        let all_home = (0..self.players).all(|seat| {
            let m = s.mothers[seat];
            matches!(m.leg, Leg::Home | Leg::Eaten)
                // Ludii tests only where the mothers stand: one who never left is "home".
                || (self.p.ludii_unleft_home && !s.left[seat])
        });
        let ended = match self.p.end {
            End::AllHome => loose && all_home,
            End::HyenaHome => loose && s.hyena.leg == Leg::Home,
            End::FirstEaten => s.eaten > 0 || (loose && s.hyena.leg == Leg::Home),
        };
        if ended {
            self.emit(events, SpiralRaceEventKind::GameEnd, 0, 0);
            let result = self.result(s, events);
            self.over(s, result, EndReason::Natural);
            return true;
        }
        if loose && !self.can_end(s) {
            let seat = usize::from(s.hyena_player);
            self.emit(events, SpiralRaceEventKind::NeverHome, seat, s.hyena.pos);
            self.over(s, Result_::Unfinished, EndReason::Endless);
            return true;
        }
        if s.clock.plies() > 0
            && let Some(reason) = self.limit.reached(&s.clock)
        {
            self.emit(events, SpiralRaceEventKind::CapReached, 0, 0);
            self.over(s, Result_::Draw, reason);
            return true;
        }
        false
    }

    /// Whether the hyena, loose, can still come home: exactly, where the village (or the well
    /// on his way there) must be reached exactly, by the moves the reading gives him.
    fn hyena_can_come_home(&self, s: &SpiralRaceState) -> bool {
        let h = s.hyena;
        // Where he starts his way back from the well.
        let from_well = match self.p.well_exit {
            WellExit::Released => self.len,
            WellExit::WithLast | WellExit::NextThrow => self.len - 1,
            WellExit::TwoLast => self.len - self.come_away(Which::Hyena),
        };
        match h.leg {
            Leg::Home => true,
            Leg::Back => {
                let credits = self.credit_for_the_way_home(s);
                self.home_reach[usize::from(h.pos)]
                    && credits.is_none_or(|c| self.home_credits[usize::from(h.pos)] <= c)
            }
            Leg::Well => self.home_reach[usize::from(from_well)],
            Leg::Village | Leg::Out => {
                self.well_reach[usize::from(self.len - h.pos)]
                    && self.home_reach[usize::from(from_well)]
            }
            Leg::Eaten => false,
        }
    }

    /// The credit the hyena can still spend on his way back, where it cannot grow (`None`:
    /// it can). It grows where a tâba thrown for him on his way back is banked, and under
    /// `every-home` while a mother whose credit will be his is still on her way.
    fn credit_for_the_way_home(&self, s: &SpiralRaceState) -> Option<u32> {
        if !self.p.village_exact || self.p.hyena_taba == HyenaTaba::Bank {
            return None;
        }
        match self.p.controller {
            Controller::FirstHome => Some(s.bank[usize::from(s.hyena_player)]),
            Controller::EveryHome => {
                let coming = (0..self.players)
                    .any(|seat| !matches!(s.mothers[seat].leg, Leg::Home | Leg::Eaten));
                if coming && self.p.hyena_purse == HyenaPurse::Credit {
                    return None;
                }
                Some(
                    (0..self.players)
                        .filter(|&seat| s.mothers[seat].leg == Leg::Home)
                        .map(|seat| s.bank[seat])
                        .sum(),
                )
            }
        }
    }

    /// Whether the end rule can still be met, the hyena being loose. Under `hyena-home` he must
    /// be able to come home; under `first-eaten`, that or a woman still to be eaten: one not
    /// yet home, with the hyena able to move on his way back (or still to reach it). `all-home`
    /// is always reachable: a woman can always get home.
    fn can_end(&self, s: &SpiralRaceState) -> bool {
        match self.p.end {
            End::AllHome => true,
            End::HyenaHome => self.hyena_can_come_home(s),
            End::FirstEaten => {
                if self.hyena_can_come_home(s) {
                    return true;
                }
                let prey = (0..self.players)
                    .any(|seat| !matches!(s.mothers[seat].leg, Leg::Home | Leg::Eaten));
                let h = s.hyena;
                // He eats only by moving on his way back: some move of his must still fit.
                let moves = match h.leg {
                    Leg::Back => {
                        !self.p.village_exact
                            || self.hyena_steps.iter().any(|&k| k > 0 && k <= h.pos)
                    }
                    Leg::Village | Leg::Out => self.well_reach[usize::from(self.len - h.pos)],
                    _ => true,
                };
                prey && moves
            }
        }
    }

    /// Passes the sticks on to the next seat with a piece to play. Returns false if there is
    /// none.
    fn next_seat(
        &self,
        s: &mut SpiralRaceState,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) -> bool {
        let from = usize::from(s.mover);
        for k in 1..=self.players {
            let seat = (from + k) % self.players;
            if self.which(s, seat).is_some() {
                s.mover = seat as u8;
                s.phase = Phase::Throw;
                s.kept_played = false;
                return true;
            }
            if s.mothers[seat].leg == Leg::Home {
                self.emit(events, SpiralRaceEventKind::Waiting, seat, 0);
            }
        }
        false
    }

    /// After a decision (or a yômên not played): the turn goes on or passes.
    fn continue_turn(
        &self,
        s: &mut SpiralRaceState,
        again: bool,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if again && self.which(s, usize::from(s.mover)).is_some() {
            s.phase = Phase::Throw;
            return;
        }
        if !self.next_seat(s, events) {
            self.emit(events, SpiralRaceEventKind::NoMover, 0, 0);
            let result = self.result(s, events);
            self.over(s, result, EndReason::Natural);
        }
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
