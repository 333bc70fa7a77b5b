//! The sowing engine: two-row mancala, played from [`SowingParams`].
//!
//! The board is one closed circuit of `2 × holes` houses, stored in circuit order: seat 0's
//! row is houses `0..n`, from that player's left to his right, and seat 1's row is `n..2n`,
//! likewise from *his* left. Anticlockwise (seen from above, seat 0 nearest) is +1 round the
//! circuit, clockwise −1, so "toward the player's left" is clockwise for both seats and the
//! two rows are symmetric. (Ludii numbers the same board differently; the mapping lives in
//! `crate::ludii`, outside the engine.)
//!
//! The parameters are resolved once, in [`Sowing::new`], into tables (which houses may be
//! sown which way, in list order; a bit mask of capture counts; the caps), so the playout
//! loop only indexes arrays and never allocates: the state is a fixed array plus the position
//! history (used only by a repetition rule, its vectors reused by [`Rules::reset`]). The
//! one exception is the search of what a board can still reach (`Sowing::reach`: a capture,
//! an end, or neither), which a board that ends when no capture is possible, and the proof
//! that a game can never end, need: it runs only once few counters are left on the board
//! (`SEARCH_COUNTERS`), and keeps its set of positions in a per-thread scratch that
//! allocates only when a search outgrows every earlier one.
//!
//! A move may carry the capture decision when the reading makes a capture optional: the
//! player chooses how many houses to take as part of the move, so every choice the rules
//! allow is a distinct legal move. Where captures are compulsory a move is just a house and a
//! direction.
//!
//! The engine is split by concern, each file an `impl Sowing` block of its own (its methods
//! `pub(super)` where another file calls them: private to the engine, shared within it):
//! `resolve` builds the tables from the parameters, `setup` the positions (a given set-up,
//! the start, the distribution), `masks` the bit masks of houses, `sow` one sowing, `relay`
//! a move's sowings and relays, `capture` the takings, `moves` the legal moves and random
//! play's choice, `gifts` the gift, `end` the end rules and the scoring, `reach` the search of
//! what a board can still reach, `stages` the reckonings and boards that follow an end,
//! `events` the events and `text` how moves, events and boards are written. This file holds
//! the types they share and the [`Rules`] impl that dispatches to them.

use std::fmt;

use super::bits::nth_set_bit;
use super::core::{self, CapError, Clock, Limit, kebab_name, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
    event_kinds, view,
};
use crate::family::sowing::{
    BoardTurn, Borrowing, Chain, ChainOrigin, ChainTake, Compulsion, Correspond, Daughters,
    Direction, Distribution, DrivenOff, EmptiedDaughter, EmptyStops, End, EndCheck, ExtraHouses,
    Gift, MoveOrder, NextDistributor, Opposite, OwnCount, Pecked, Points, RelayWhen, Remaining,
    Repetition, RoundStarter, Rounds, Rows, SowingParams, StageEnd, Starter, TargetReach, Tie,
};
use crate::family::sowing::{BorrowingBasis, RelayCycled, SowFrom, Unhoused};

mod capture;
mod end;
mod events;
mod gifts;
mod masks;
mod moves;
mod position;
mod reach;
mod relay;
mod resolve;
mod setup;
mod sow;
mod stages;
mod text;

pub use events::{SowingEvent, SowingEventKind};
pub use setup::{SetupError, SowingSetup};
pub use text::{MoveDisplay, house_name};

use moves::Quick;
use sow::QuickLap;
use stages::IdleStage;
use text::EventDisplay;

/// Sowings of one move after which an uncapped relay counts as never stopping: far beyond
/// any relay that stops (the longest seen in random play are a few hundred), and few enough
/// that a move always returns.
pub const RELAY_LIMIT: u32 = 100_000;

/// The most counters left on the board for which the engine searches whether a capture (or
/// an end) can still be reached: with more, it is taken to be reachable.
pub const SEARCH_COUNTERS: u32 = 16;

/// The most positions that search visits before giving up (a capture is then taken to be
/// reachable). With few counters left the positions are few: 12 houses and 5 counters make
/// 4 368 boards.
pub const SEARCH_POSITIONS: usize = 50_000;

/// The longest gap, in plies, between two searches for an endless game. An endless game
/// stays endless, so after a search that finds an end still reachable the next one waits a
/// gap that doubles up to this: an endless game is stopped at most this many plies late, and
/// the search costs a small part of play instead of most of it.
pub const ENDLESS_SEARCH_GAP: u32 = 64;

/// The most houses in a row.
pub const MAX_HOLES: usize = 16;

const RING: usize = 2 * MAX_HOLES;

/// `take` of a move whose captures are all compulsory: whatever the rules take.
const TAKE_ALL: u8 = u8::MAX;

const NO_SEAT: u8 = 2;

/// A sowing direction round the circuit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Clockwise: toward the mover's left along his own row.
    Cw,
    /// Anticlockwise: toward the mover's right along his own row.
    Ccw,
}

impl Dir {
    /// The short name used in move notation.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Cw => "cw",
            Dir::Ccw => "ccw",
        }
    }
}

/// A decision in a sowing game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SowingMove {
    /// A forced pass: the player has no house he may sow.
    Pass,
    /// Sow the counters of `house` (a circuit index) in `dir`.
    Sow {
        /// The house, as a circuit index (`seat × holes + position from his left`).
        house: u8,
        /// The direction.
        dir: Dir,
        /// How many houses the player takes, where the reading lets him choose; `u8::MAX`
        /// where the rules decide.
        take: u8,
        /// Listed by Ludii 1.0.8's left-hole defect in place of the seat's left house.
        quirk: bool,
    },
    /// The gift: one counter from `house` into the empty-rowed opponent's leftmost house.
    Gift {
        /// The giver's house.
        house: u8,
    },
    /// Distributing: put `count` counters from the hand into `house`.
    Distribute {
        /// The house.
        house: u8,
        /// Counters.
        count: u8,
    },
    /// After the distribution: the other player accepts the board (and plays first).
    Keep,
    /// After the distribution: the other player turns the board round (and plays second).
    Turn,
    /// Before distributing, where the reading leaves the manner to the distributor: he
    /// chooses the manner [`MANNERS`]`[manner]`.
    Manner {
        /// The index into [`MANNERS`].
        manner: u8,
    },
    /// At a reset, the larger holder places his extra houses `downstream` of his row (in
    /// the houses it sows into) or upstream (in those that sow into it).
    PlaceExtra {
        /// Downstream, or upstream.
        downstream: bool,
    },
}

/// The manners a distributor may choose from under `distribution: lane-manners`: Lane's
/// common four a side, half into A and the rest into a, one beyt on each side, or all the
/// beyts.
pub const MANNERS: [Distribution; 4] = [
    Distribution::ConventionalFour,
    Distribution::HalfAndHalf,
    Distribution::OneASide,
    Distribution::AllHouses,
];

impl SowingMove {
    /// A sowing whose captures the rules decide.
    pub fn sow(house: usize, dir: Dir) -> Self {
        SowingMove::Sow {
            house: house as u8,
            dir,
            take: TAKE_ALL,
            quirk: false,
        }
    }
}

/// Parameters that cannot be played together, or out of the engine's range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SowingError {
    /// Board size.
    #[error("holes = {0}: the sowing engine plays rows of 1 to {MAX_HOLES} houses")]
    Holes(u8),
    /// Counters per house.
    #[error("counters = {0}: the sowing engine plays 0 to 64 counters a house")]
    Counters(u8),
    /// Minimum to sow.
    #[error("min_sow = 0: a house must hold at least 1 counter to be sown")]
    MinSow,
    /// Capture count out of range.
    #[error("capture_counts contains {0}: counts must be 1 to 127")]
    CaptureCount(u8),
    /// The all-passed end test needs the neither-can-move end.
    #[error(
        "end_check = all-passed tests \"neither player can move\" once both have passed; it needs end = neither-can-move, not {0}"
    )]
    EndCheck(String),
    /// The quirk needs a second house.
    #[error(
        "ludii_left_hole_quirk needs holes = 2 or more (the quirk turns seat 1's left house into \
         its second)"
    )]
    Quirk,
    /// A cap that does not bound the game.
    #[error(transparent)]
    Cap(#[from] CapError),
    /// Parameters that cannot be played together.
    #[error("{0}")]
    Combination(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Lot,
    /// The distributor sets out the counters.
    Distribute,
    /// The other player accepts or turns the distributed board.
    TurnChoice,
    /// The larger holder places his extra houses at a reset.
    PlaceExtra,
    Play,
    Over,
}

/// The positions met since the last one that cannot recur (houses and player to move), for
/// a repetition rule, each with a hash that a lookup compares first: a scan of words rather
/// than of whole boards (the scan was a sixth of Um el Banât's report, in the random games of
/// the readings with a repetition rule).
#[derive(Debug, Clone, Default, PartialEq)]
struct History {
    hashes: Vec<u64>,
    positions: Vec<([u16; RING], u8)>,
}

impl History {
    fn clear(&mut self) {
        self.hashes.clear();
        self.positions.clear();
    }

    /// Records `position` unless it was met before; whether it was.
    fn met_or_record(&mut self, position: ([u16; RING], u8)) -> bool {
        let (board, mover) = &position;
        let mut h = u64::from(*mover);
        for w in board.chunks_exact(4) {
            let word = w.iter().fold(0u64, |acc, &c| acc << 16 | u64::from(c));
            h = core::mix(h, word);
        }
        let met = self
            .hashes
            .iter()
            .zip(&self.positions)
            .any(|(&k, p)| k == h && *p == position);
        if !met {
            self.hashes.push(h);
            self.positions.push(position);
        }
        met
    }
}

/// A position of a sowing game.
#[derive(Debug, Clone, PartialEq)]
pub struct SowingState {
    pos: Pos,
    mover: u8,
    phase: Phase,
    clock: Clock,
    must_feed: bool,
    outcome: Option<Outcome>,
    history: History,
    /// No search for an endless game before this ply, and the gap after the last search
    /// (see [`ENDLESS_SEARCH_GAP`]).
    search_after: u32,
    search_gap: u32,
    /// Plies made when the current game (re)started: a replayed game that ends again
    /// before any decision would replay for ever.
    game_start: u32,
    /// Counters each seat owes the other (borrowing as a debt).
    debt: [u32; 2],
    /// The stages that ended before any decision (stages that cannot be played), since the
    /// last decision, each by what decides the stages after it: one met again, the stages
    /// cycle (with no decision between them, what follows a state is fixed).
    idle_stages: Vec<IdleStage>,
    /// Points across boards (`rounds: points`).
    points: [i32; 2],
    /// Counters still to distribute.
    hand: u32,
    /// Who distributes (or distributed) the board.
    distributor: u8,
    /// Stages completed.
    stages: u32,
    /// The manner of the board's distribution: the reading's, or under `lane-manners` the
    /// one the distributor chose (`LaneManners` until he has).
    manner: Distribution,
    /// What each seat had at the start of the stage (on the board and kept in hand), to
    /// find who gained in it.
    stake: [u32; 2],
    /// A reset waiting for the larger holder to place his extra houses.
    placing: Option<Placing>,
    /// Whether the holdings were equal at the last reckoning.
    tied: bool,
    /// Dynamic games: the houses each seat may sow, as bit masks, found once a ply by
    /// [`Sowing::settle`] (see [`Sowing::dynamic_masks`]) for its end rules and for random
    /// play's choice alike, instead of once for each.
    sowable: [u32; 2],
    /// Dynamic games: the houses each seat owns, as bit masks, set whenever the owners
    /// change (a restart, a reset between stages) rather than read from `owner` every ply.
    owned: [u32; 2],
}

/// A reset waiting for the larger holder's choice of where his extra houses lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Placing {
    /// The larger holder, who chooses.
    seat: u8,
    /// Houses each seat owns in the next stage.
    houses: [u8; 2],
    /// Who would have moved next (for `round_starter: continue`).
    next: u8,
}

impl SowingState {
    /// Counters in a house (circuit index).
    pub fn house(&self, house: usize) -> u16 {
        self.pos.board[house]
    }

    /// Counters each seat has taken.
    pub fn stores(&self) -> [u32; 2] {
        self.pos.store
    }

    /// The seat whose daughter a house is, if it is one.
    pub fn daughter(&self, house: usize) -> Option<Seat> {
        match self.pos.mark[house] {
            0 => None,
            m => Some(usize::from(m) - 1),
        }
    }

    /// The seat that owns a house (in games whose houses change hands between stages).
    pub fn owner(&self, house: usize) -> Option<Seat> {
        match self.pos.owner[house] {
            NO_SEAT => None,
            o => Some(usize::from(o)),
        }
    }

    /// Counters on the board and in the stores together, plus those taken out of play.
    pub fn total(&self) -> u32 {
        self.pos.board.iter().map(|&c| u32::from(c)).sum::<u32>()
            + self.pos.store[0]
            + self.pos.store[1]
            + self.pos.discarded
            + self.hand
    }

    fn total_on_board(&self) -> u32 {
        self.pos.board.iter().map(|&c| u32::from(c)).sum()
    }

    /// Who is to move (once the game is over: who would have moved next).
    pub fn mover(&self) -> Seat {
        self.mover as Seat
    }
}

/// What a move changes: the houses, the takings, the daughters' marks and who owns each
/// house. One value, so that look-ahead works on a copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pos {
    board: [u16; RING],
    store: [u32; 2],
    /// 0, or the seat + 1 whose daughter the house is.
    mark: [u8; RING],
    /// The seat that owns (may sow) each house; `NO_SEAT` for none.
    owner: [u8; RING],
    /// Counters out of play (pecked and discarded, or not making a house at a reckoning).
    discarded: u32,
}

/// How a sowing ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Landing {
    /// At `last`, the final lap having started at `origin` (and gone all the way round past
    /// it if `lapped`): the capture rules apply there.
    Stop {
        origin: usize,
        last: usize,
        lapped: bool,
    },
    /// A peck: the mover plays again.
    Again,
    /// A relay that never ends: it came back to a position, round a cycle of this many
    /// sowings (0 where a cap stopped it first).
    Cycle(u32),
    /// A relay still going at the relay limit, no cycle found (uncapped only).
    Unresolved,
    /// A relay stopped by its cap or found to cycle, where the reading makes that a
    /// standstill: the move ends there and nothing is taken.
    Standstill,
}

#[derive(Debug, Clone, Copy)]
struct Cand {
    house: u8,
    dir: Dir,
    quirk: bool,
}

/// A sowing game's rules, resolved from its parameters.
#[derive(Debug, Clone)]
pub struct Sowing {
    p: SowingParams,
    n: usize,
    r: usize,
    /// The row of each house (`h / n`, a division the move path would otherwise make per
    /// house it examines); `NO_SEAT` beyond the circuit.
    row: [u8; RING],
    /// [`Sowing::can_be_endless`], resolved once: settle asks it at every decision.
    endless_search: bool,
    /// Every house is sown in one direction only (then a dynamic game's moves are its
    /// sowable houses, one each).
    single_dir: bool,
    capture_mask: u128,
    /// `capture_mask` as two words: a test of one is a 64-bit shift, not a 128-bit one.
    capture_words: [u64; 2],
    cands: [[Cand; RING]; 2],
    ncands: [usize; 2],
    optional_take: bool,
    limit: Limit,
    /// Sowings after which a relay counts as never stopping (see `sow_all`).
    relay_limit: u32,
    /// The game's own move limit (`move_limit`), as a limit on the clock.
    rule_limit: Limit,
    /// `order[dir][origin][k]`: the k-th house a sowing from `origin` fills (one lap).
    order: Box<[[[u8; RING]; RING]; 2]>,
    /// `rank[dir][origin][house]`: the inverse of `order`; `NOT_SOWN` for a skipped origin
    /// and for array slots beyond the circuit.
    rank: Box<[[[i16; RING]; RING]; 2]>,
    /// Per seat, the candidate sowings as moves, in list order (compulsory captures).
    cand_moves: [[SowingMove; RING]; 2],
    /// Per seat, the houses of his candidate sowings as a bit mask: in a static game he can
    /// move exactly when one of them holds enough.
    cand_mask: [u32; 2],
    /// Per seat, the houses of his row as a bit mask.
    row_masks: [u32; 2],
    /// Per seat, indexed by which houses of his row hold enough (bit `j` for the row's `j`-th
    /// house), which of his candidates may be sown (bit `i` for `cand_moves[seat][i]`): one
    /// lookup instead of a test per candidate. Built for rows of at most 8 houses whose
    /// candidates all lie in their own row.
    cand_table: Option<Box<[[u32; 256]; 2]>>,
    /// Daughters or stages are in play: houses change hands and get marked, so the sowable
    /// houses are found from the position, not from the static candidate tables.
    dynamic: bool,
    /// The directions a house may be sown in, by its position in its row (dynamic games).
    pos_dirs: [([Dir; 2], u8); MAX_HOLES],
    /// The first of those directions for each house of the circuit: random play's sowing of
    /// a house in a game whose houses are sown one way only.
    house_dir: [Dir; RING],
    /// A dynamic game whose relays take Um el Banât's shape, resolved once so that the relay
    /// loop tests none of it at every sowing: the circuit fits in 16 houses, a sowing relays
    /// from an occupied house, stops only at a house empty now, marks daughters, refills its
    /// origin on a lap and has no relay cap ([`Sowing::relay_dynamic`]'s `QUICK`).
    quick_relay: bool,
    /// Under [`Sowing::quick_relay`], entry `(dir × 16 + origin) × 16 + rem`: what a part
    /// lap of `rem` from `origin` in `dir` adds to each of the 16 houses (1 for the first
    /// `rem` in sowing order), less, at the origin, the `rem` counters taken up (wrapping),
    /// and the house the last counter falls in; empty otherwise.
    lane_adds: Vec<QuickLap>,
    /// A dynamic game whose end rules after the house masks are only `neither-can-move` and
    /// the engine's cap (no stage end on a cleared board, no all-pass draw, no move limit, no
    /// repetition rule, no search for an endless game): settle's other checks cannot apply,
    /// and [`Sowing::settle_quick`] makes none of them.
    quick_settle: bool,
    /// Rounds in fours whose player left with no counters in his ordinary houses is driven
    /// off (settle's test of the bare rows).
    drive_bare: bool,
    /// Per seat, the houses whose position lets him sow them: his row under `own-row`, every
    /// house under `owns` (a dynamic game's sowable houses are those he owns among these).
    sow_rows: [u32; 2],
}

impl Sowing {
    /// The parameters.
    pub fn params(&self) -> &SowingParams {
        &self.p
    }

    /// Houses in a row.
    pub fn holes(&self) -> usize {
        self.n
    }
}

impl Rules for Sowing {
    type State = SowingState;
    type Move = SowingMove;
    type Event = SowingEvent;

    fn initial(&self) -> SowingState {
        let mut s = SowingState {
            pos: Pos {
                board: [0; RING],
                store: [0; 2],
                mark: [0; RING],
                owner: [NO_SEAT; RING],
                discarded: 0,
            },
            mover: 0,
            phase: Phase::Play,
            clock: Clock::new(),
            must_feed: false,
            outcome: None,
            history: History::default(),
            search_after: 0,
            search_gap: 0,
            game_start: 0,
            debt: [0; 2],
            idle_stages: Vec::new(),
            stages: 0,
            stake: [0; 2],
            placing: None,
            tied: false,
            points: [0; 2],
            hand: 0,
            distributor: 0,
            manner: self.p.distribution,
            sowable: [0; 2],
            owned: [0; 2],
        };
        self.reset(&mut s, &mut NoEvents);
        s
    }

    fn reset(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        s.clock = Clock::new();
        s.search_after = 0;
        s.search_gap = 0;
        self.restart(s);
        self.settle(s, events);
    }

    fn status(&self, s: &SowingState) -> Status {
        match s.phase {
            Phase::Lot => Status::Chance,
            Phase::Distribute => Status::ToMove(s.distributor as usize),
            Phase::TurnChoice => Status::ToMove(1 - s.distributor as usize),
            Phase::PlaceExtra => Status::ToMove(s.placing.map_or(0, |p| usize::from(p.seat))),
            Phase::Play => Status::ToMove(s.mover as usize),
            Phase::Over => Status::Over,
        }
    }

    fn legal_moves(&self, s: &SowingState, out: &mut Vec<SowingMove>) {
        out.clear();
        match s.phase {
            Phase::Play => {}
            Phase::Distribute => return self.distribution_moves(s, out),
            Phase::TurnChoice => {
                out.extend([SowingMove::Keep, SowingMove::Turn]);
                return;
            }
            Phase::PlaceExtra => {
                out.extend([
                    SowingMove::PlaceExtra { downstream: true },
                    SowingMove::PlaceExtra { downstream: false },
                ]);
                return;
            }
            Phase::Lot | Phase::Over => return,
        }
        let seat = s.mover as usize;
        if self.p.gift != Gift::None && self.row_empty(&s.pos, 1 - seat) {
            // The gift is due: one counter from any of the mover's houses.
            self.gift_moves(&s.pos, seat, out);
            if !out.is_empty() {
                return;
            }
        }
        self.candidate_moves(&s.pos, seat, out);
        if s.must_feed {
            out.retain(|&mv| self.feeds(s, seat, mv));
        }
        if out.is_empty() {
            out.push(SowingMove::Pass);
        }
    }

    fn apply(&self, s: &mut SowingState, mv: SowingMove, events: &mut impl EventSink<SowingEvent>) {
        debug_assert!(matches!(
            s.phase,
            Phase::Play | Phase::Distribute | Phase::TurnChoice | Phase::PlaceExtra
        ));
        if let (Phase::PlaceExtra, SowingMove::PlaceExtra { downstream }) = (s.phase, mv) {
            // The reset resumes: a decision before the stage's play, as a distribution is.
            let Some(placing) = s.placing.take() else {
                return;
            };
            s.clock.setup_tick(placing.seat);
            events.emit(SowingEvent::ExtraHousesChosen {
                seat: usize::from(placing.seat),
            });
            s.mover = placing.next;
            s.phase = Phase::Play;
            for (store, &count) in s.pos.store.iter_mut().zip(&placing.houses) {
                *store -= 4 * u32::from(count);
            }
            self.reset_board(
                s,
                usize::from(placing.seat),
                placing.houses,
                downstream,
                events,
            );
            return;
        }
        if s.phase == Phase::Distribute {
            s.mover = s.distributor;
        } else if s.phase == Phase::TurnChoice {
            s.mover = 1 - s.distributor;
        }
        let seat = s.mover as usize;
        if s.phase == Phase::Play {
            s.clock.tick(s.mover);
        } else {
            // Setting out the counters and turning the board come before play.
            s.clock.setup_tick(s.mover);
        }
        match mv {
            SowingMove::Pass => {
                s.clock.pass();
                events.emit(SowingEvent::ForcedPass { seat });
            }
            // Listed only at a reset (handled above).
            SowingMove::PlaceExtra { .. } => return,
            SowingMove::Distribute { house, count } => {
                s.pos.board[usize::from(house)] += u16::from(count);
                s.hand -= u32::from(count);
                if s.hand == 0 {
                    events.emit(SowingEvent::Distributed { seat });
                    if self.p.turn_board {
                        s.phase = Phase::TurnChoice;
                    } else {
                        // The other player plays first.
                        s.phase = Phase::Play;
                        s.mover = 1 - s.distributor;
                        self.settle(s, events);
                        return;
                    }
                }
                // The cap counts the distribution's decisions as it counts any other.
                self.capped(s, events);
                return;
            }
            SowingMove::Manner { manner } => {
                if let Some(&m) = MANNERS.get(usize::from(manner)) {
                    s.manner = m;
                    events.emit(SowingEvent::Manner { manner });
                }
                self.capped(s, events);
                return;
            }
            SowingMove::Keep | SowingMove::Turn => {
                if mv == SowingMove::Turn {
                    // Turned round: each row goes to the other side, and the distributor
                    // plays first. A half-turn puts each house at the same position of the
                    // other row from its new owner's left; a mirror flip puts it directly
                    // opposite, reversing each row's order for its new owner.
                    let b = s.pos.board;
                    for (h, &c) in b.iter().enumerate().take(self.r) {
                        let to = match self.p.board_turn {
                            BoardTurn::HalfTurn => (h + self.n) % self.r,
                            BoardTurn::Mirror => self.r - 1 - h,
                        };
                        s.pos.board[to] = c;
                    }
                    events.emit(SowingEvent::BoardTurned { seat });
                    s.mover = s.distributor;
                } else {
                    s.mover = 1 - s.distributor;
                }
                s.phase = Phase::Play;
                self.settle(s, events);
                return;
            }
            SowingMove::Gift { house } => return self.give(s, usize::from(house), events),
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => return self.sow_move(s, (house, dir, take, quirk), events),
        }
        s.mover = 1 - s.mover;
        self.settle(s, events);
    }

    fn chance_outcomes(&self, s: &SowingState) -> &'static [u32] {
        if s.phase == Phase::Lot {
            lot_weights(2)
        } else {
            &[]
        }
    }

    fn apply_chance(
        &self,
        s: &mut SowingState,
        k: usize,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Lot);
        events.emit(SowingEvent::Lot { seat: k });
        s.mover = k as u8;
        if self.p.distribution == Distribution::Even {
            s.phase = Phase::Play;
            self.settle(s, events);
        } else {
            // The lot chose the distributor.
            s.distributor = k as u8;
            s.phase = Phase::Distribute;
        }
    }

    fn outcome(&self, s: &SowingState) -> Option<Outcome> {
        s.outcome
    }

    fn clock<'s>(&self, s: &'s SowingState) -> &'s Clock {
        &s.clock
    }

    fn limit(&self) -> Limit {
        self.limit
    }

    fn is_pass(&self, mv: SowingMove) -> bool {
        mv == SowingMove::Pass
    }

    /// Counters the seat has taken ([`SowingState::stores`]) plus, in games played over
    /// several boards to a target, its points so far. A new board empties the stores into
    /// the winner's points (in counters, the excess of his takings), so ending a board keeps
    /// its standing; in games in stages (Um el Banât), the stores are what the seat holds in
    /// the stage. Counters on the board, daughters and debts do not count.
    fn material(&self, s: &SowingState, seat: Seat) -> i64 {
        i64::from(s.pos.store[seat]) + i64::from(s.points[seat])
    }

    /// The material, and in games whose houses change hands between stages (Um el Banât)
    /// also the counters in the houses the seat owns: a stage's takings become the houses
    /// of the next, so a standing counted on the stores alone would fall to nothing at every
    /// reset and a search could not tell a stage won from one lost.
    fn evaluate(&self, s: &SowingState, seat: Seat) -> i64 {
        let mut value = self.material(s, seat);
        if self.dynamic {
            let mut owned = s.owned[seat];
            while owned != 0 {
                let h = owned.trailing_zeros() as usize;
                owned &= owned - 1;
                value += i64::from(s.pos.board[h]);
            }
        }
        value
    }

    /// The position ([`Rules::position_key`]) and the clock's plies.
    fn key(&self, s: &SowingState) -> Option<u64> {
        let h = self.position_key(s)?;
        Some(core::mix(h, u64::from(s.clock.plies())))
    }

    /// The board, stores and daughters, the mover, phase and hand, and the points.
    fn position_key(&self, s: &SowingState) -> Option<u64> {
        let mut h = 0;
        for chunk in s.pos.board.chunks(4) {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &c)| w | u64::from(c) << (16 * i));
            h = core::mix(h, word);
        }
        for chunk in s.pos.mark.chunks(8) {
            let word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (i, &m)| w | u64::from(m) << (8 * i));
            h = core::mix(h, word);
        }
        h = core::mix(
            h,
            u64::from(s.pos.store[0]) | u64::from(s.pos.store[1]) << 32,
        );
        h = core::mix(
            h,
            u64::from(s.points[0] as u32) | u64::from(s.points[1] as u32) << 32,
        );
        let small = u64::from(s.mover)
            | (s.phase as u64) << 8
            | u64::from(s.must_feed) << 16
            | u64::from(s.hand) << 32;
        Some(core::mix(h, small))
    }

    /// The houses of both rows.
    fn board_sites(&self) -> usize {
        self.r
    }

    /// The houses that hold counters.
    fn occupied(&self, s: &SowingState) -> crate::games::Sites {
        let mut out = [0u128; 2];
        for (h, &c) in s.pos.board.iter().enumerate().take(self.r) {
            if c > 0 {
                out[h / 128] |= 1 << (h % 128);
            }
        }
        out
    }

    fn choose(
        &self,
        s: &SowingState,
        buf: &mut Vec<SowingMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (SowingMove, usize) {
        self.choose_from(self.sowable_mask(s), s, buf, pick)
    }

    #[inline]
    fn play_random(
        &self,
        s: &mut SowingState,
        buf: &mut Vec<SowingMove>,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<SowingEvent>,
    ) -> (usize, bool) {
        let quick = self.sowable_mask(s);
        if let Some(Quick::Gifts(mask)) = quick {
            // A gift in play: `apply`'s preamble is the clock's tick, then the gift itself.
            let n = mask.count_ones() as usize;
            let h = nth_set_bit(mask, pick(n) as u32);
            s.clock.tick(s.mover);
            self.give(s, h, events);
            return (n, false);
        }
        let (mv, n) = self.choose_from(quick, s, buf, pick);
        match mv {
            // A sowing in play, `apply`'s preamble being the clock's tick.
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } if s.phase == Phase::Play => {
                s.clock.tick(s.mover);
                self.sow_move(s, (house, dir, take, quirk), events);
            }
            _ => self.apply(s, mv, events),
        }
        (n, mv == SowingMove::Pass)
    }

    #[inline]
    fn forced_plies(
        &self,
        s: &mut SowingState,
        budget: u32,
        events: &mut impl EventSink<SowingEvent>,
    ) -> u32 {
        if self.p.gift == Gift::None {
            return 0;
        }
        self.gift_stretch(s, budget, events)
    }

    fn move_text(&self, mv: SowingMove) -> String {
        self.display(mv).to_string()
    }

    fn event_text(&self, event: &SowingEvent) -> String {
        // The Display form names houses by circuit index; here they get their names.
        EventDisplay {
            event: *event,
            holes: Some(self.n),
        }
        .to_string()
    }

    fn chance_text(&self, s: &SowingState, k: usize) -> String {
        let _ = (s, k);
        "the lot".to_owned()
    }

    fn board(&self, s: &SowingState) -> view::BoardView {
        self.board_view(s)
    }

    fn move_params(&self, mv: SowingMove) -> &'static [&'static str] {
        Self::move_rule(mv)
    }

    fn state_text(&self, s: &SowingState) -> String {
        self.board_text(s)
    }

    fn position_text(&self, s: &SowingState) -> String {
        self.notation(s)
    }

    fn parse_position(&self, text: &str) -> Result<SowingState, super::position::PositionError> {
        self.read_position(text)
    }

    fn position_fields(&self) -> &'static [super::position::FieldSpec] {
        position::FIELDS
    }

    fn position_decides(&self) -> Result<(), String> {
        if self.p.repetition != Repetition::None {
            return Err(format!(
                "the reading's repetition rule (repetition: {}) reads the positions met before, \
                 which a position does not hold",
                core::kebab_name(&self.p.repetition)
            ));
        }
        if self.rule_limit.is_on() {
            return Err(
                "the reading's limit on moves (move_limit) reads the clock, which a position \
                 does not decide"
                    .to_owned(),
            );
        }
        Ok(())
    }
}
