//! The custodial engine: Seega (Sija), played from [`CustodialParams`].
//!
//! The board is `size × size` cells numbered `size·row + col`, row 0 at the bottom and column 0
//! at the left (Ludii numbers Seega's board the same way, so the adapter in `crate::ludii`
//! maps cells one to one). Each seat's pieces are one bit board (`u128`, enough for 11 × 11);
//! the legal steps of all pieces in one direction are one shift and a mask, and captures are
//! read from per-cell neighbour tables built once in [`Custodial::new`].
//!
//! A game has two phases per seat, as in Ludii: a seat with pieces in hand places, one without
//! moves. Placement runs `per_turn` decisions per turn; when both hands are empty the first
//! mover is chosen by the reading, and a first mover who cannot move is handled by
//! `first_blocked`. A move after a capture (`continuation`) is a separate decision of the same
//! seat, restricted to the piece that captured: the state keeps that piece's cell.
//!
//! The end tests run after every decision in Ludii 1.0.8's order (TRACES.md §3.5): the game's
//! own end (a seat with no pieces left loses), the engine's all-pass draw, the engine's cap,
//! then the rules no Ludii reading uses (a stalled game: a repetition, a run without captures,
//! or a barrier, the two sides walled off from each other; then a blocked player's loss or
//! count).
//!
//! A move is a step of one cell, a rook's move, or (`step: jump`) a step or a jump over one
//! neighbouring piece; a jump is judged, for its captures, with the jumper already moved,
//! since the cell it left is two cells back with a piece between.
//!
//! The engine is split by concern, each file an `impl Custodial` block of its own (its
//! methods `pub(super)` where another file calls them): `setup` builds the tables and
//! positions, `board` the bit-board geometry (shifts, steps, walls), `capture` the custodial
//! captures and the tests that read them, `moves` the legal moves and random play's choice,
//! `play` a decision played (with the fused paths of random play), `end` the end rules,
//! `events` the events and `text` how cells, moves and events are written. The bit-set
//! tricks are shared with the other engines in `crate::games::bits`. This file holds the
//! types they share and the [`Rules`] impl that dispatches to them.

use super::bits::{Bits, bit_indices, nth_bit_sparse, nth_bit_wide, nth_cell, pick4};
use super::core::{self, CapError, Clock, Limit, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
    event_kinds, view,
};
use crate::family::custodial::{
    Blocked, CaptureLine, Continuation, CustodialParams, FirstBlocked, FirstMover, Placing,
    Sandwich, Stall, StallResult, Starter, Step,
};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

mod board;
mod capture;
mod end;
mod events;
mod moves;
mod play;
mod position;
mod setup;
mod text;

pub use events::{CustodialEvent, CustodialEventKind};
pub use setup::{CustodialSetup, SetupError};
pub use text::{cell_name, parse_cell};

use text::EventDisplay;

/// The largest board side.
pub const MAX_SIZE: usize = 11;

/// What one piece is worth in [`Rules::evaluate`] against one move of mobility: more than
/// the most moves a side can have on the largest board (four steps and four jumps a cell).
pub const PIECE_WORTH: i64 = 8 * (MAX_SIZE * MAX_SIZE) as i64 + 1;

/// No cell (off the board, or no piece to continue with).
const NONE: u8 = u8::MAX;

/// Entries of the per-cell tables: a power of two above the most cells, so that indexing with
/// `cell & (SLOTS - 1)` needs no bounds check in the hot paths.
const SLOTS: usize = 128;

/// [`CustodialState::plain`]: a plain step on a board of at most 64 cells.
const PLAIN_NARROW: u8 = 1;

/// [`CustodialState::plain`]: a plain step on a board of more than 64 cells.
const PLAIN_WIDE: u8 = 2;

/// A decision in a custodial game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CustodialMove {
    /// A pass: forced (nothing else is legal), or voluntary where the reading allows it.
    Pass,
    /// Place a piece from the hand on a cell.
    Place(u8),
    /// Move a piece from one cell to another along a rank or file.
    Step {
        /// Where the piece stands.
        from: u8,
        /// Where it goes.
        to: u8,
    },
    /// Place two pieces from the hand at once, as one decision (`placing: pair`); the lower
    /// cell first.
    PlacePair(u8, u8),
}

/// Parameters the engine cannot play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CustodialError {
    /// Board size.
    #[error("size = {0}: the custodial engine plays odd board sides from 3 to {MAX_SIZE}")]
    Size(u8),
    /// Too many or too few pieces.
    #[error(
        "pieces = {pieces} with size = {size}: a {size}×{size} board holds 1 to {max} pieces a \
         side with its middle cell empty (change pieces or size)"
    )]
    Pieces {
        /// Pieces a side.
        pieces: u8,
        /// Board side.
        size: u8,
        /// The most that fit.
        max: u8,
    },
    /// Placements per turn.
    #[error("per_turn = 0: a player places at least one piece a turn")]
    PerTurn,
    /// A no-capture stall of no decisions.
    #[error("stall_plies = 0 with stall: no-capture: the game would end before it starts")]
    StallPlies,
    /// The loose test outside the rules it was made for.
    #[error(
        "ludii_loose_continuation needs step: one and capture_line: single (Ludii 1.0.8's \
         Seega)"
    )]
    Loose,
    /// A cap that does not bound the game.
    #[error(transparent)]
    Cap(#[from] CapError),
    /// A pair placed as one decision where a turn places another number.
    #[error("placing: pair needs per_turn: 2 (per_turn = {0})")]
    Pair(u8),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The toss is pending.
    Toss,
    /// Placing or moving.
    Play,
    /// The game is over.
    Over,
}

/// The hasher of the repetition stall's position set: a multiply-rotate hash of the words
/// (as rustc's Fx hasher), a few instructions per position where the default SipHash costs
/// about a hundred. Not keyed: nothing iterates over the set, so its order never shows, and
/// the positions are the engine's own, not an adversary's.
#[derive(Default)]
pub(crate) struct PositionHasher(u64);

impl Hasher for PositionHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A position in a custodial game.
#[derive(Debug, Clone)]
pub struct CustodialState {
    /// Each seat's pieces, one bit per cell.
    pieces: [u128; 2],
    /// Pieces in hand.
    hand: [u8; 2],
    /// Pieces each seat has eaten.
    taken: [u8; 2],
    /// Pieces each seat lost by moving between two enemies.
    lost: [u8; 2],
    phase: Phase,
    mover: u8,
    /// Who placed first (the toss winner).
    first_placer: u8,
    /// Placements made in this turn.
    placed: u8,
    /// The cell of the piece that must continue after a capture, or [`NONE`].
    cont: u8,
    /// The next normal decision must open a line for the blocked opponent.
    must_open: bool,
    /// The next movement decision is the first of the game.
    first_move: bool,
    /// Whether the next decision is a plain step of a `fused` reading: [`PLAIN_NARROW`] or
    /// [`PLAIN_WIDE`] by the board's bit width (played by [`Custodial::play_plain_narrow`] or
    /// [`Custodial::play_plain_wide`]), 0 if not. A plain step is one where the game is on
    /// and has its first mover, both hands are empty, and no move after a capture, opening
    /// rule or first move is pending. Set by [`Custodial::settle`] after every decision that
    /// may change one of these; a plain step changes none of them, so random play tests one
    /// byte per decision instead of six fields and the board's width.
    plain: u8,
    clock: Clock,
    /// Decisions since the last capture (for the no-capture stall).
    quiet: u32,
    /// Positions since the last capture (for the repetition stall).
    seen: HashSet<(u128, u128, u8, u8), BuildHasherDefault<PositionHasher>>,
    outcome: Option<Outcome>,
}

impl CustodialState {
    /// Who stands on a cell.
    pub fn who(&self, cell: usize) -> Option<Seat> {
        (0..2).find(|&s| self.pieces[s] >> cell & 1 == 1)
    }

    /// Pieces in each hand.
    pub fn hands(&self) -> [u8; 2] {
        self.hand
    }

    /// Pieces each seat has eaten.
    pub fn taken(&self) -> [u8; 2] {
        self.taken
    }

    /// Pieces of a seat on the board and in hand.
    pub fn pieces(&self, seat: Seat) -> u32 {
        self.pieces[seat].count_ones() + u32::from(self.hand[seat])
    }

    /// Every piece ever in play: on the board, in hand, eaten, or lost between two enemies.
    pub fn total(&self) -> u32 {
        (0..2)
            .map(|s| self.pieces(s) + u32::from(self.taken[1 - s]) + u32::from(self.lost[s]))
            .sum()
    }

    /// The seat whose decision it is (meaningless once the game is over).
    pub fn mover(&self) -> Seat {
        usize::from(self.mover)
    }

    /// Whether the player to move must open a line for his blocked opponent.
    pub fn must_open(&self) -> bool {
        self.must_open
    }

    /// The cell of the piece that must move again after a capture.
    pub fn continuing(&self) -> Option<usize> {
        (self.cont != NONE).then_some(usize::from(self.cont))
    }
}

/// The custodial rules engine, resolved from [`CustodialParams`].
#[derive(Debug, Clone)]
pub struct Custodial {
    p: CustodialParams,
    n: usize,
    centre: usize,
    full: u128,
    /// Cells not in the left column / right column (masks for east and west shifts).
    not_left: u128,
    not_right: u128,
    /// `nbr[cell][d]`: the neighbour in direction d (north, east, south, west), or NONE.
    nbr: Vec<[u8; 4]>,
    /// `capm[cell][d]`: the bit of the neighbour in direction d (north, east, south, west)
    /// where the cell beyond it is on the board too, else 0. The shifts `own >> n`,
    /// `own >> 1`, `own << n`, `own << 1` bring the far cell's bit onto the neighbour's, so
    /// the single pieces a piece on `cell` encloses are one AND per direction, no branch and
    /// no variable shift ([`Custodial::enclosed_single`]).
    capm: Box<[[u128; 4]; SLOTS]>,
    /// `pair[cell]`: the bits of the north and south neighbours, and of the east and west
    /// ones, where both of a pair are on the board; the cell's own bit otherwise (a mask that
    /// no enemy board holds while a piece stands on the cell). A piece stands between two
    /// enemies when `enemy & pair == pair` for one of the two.
    pair: Box<[[u128; 2]; SLOTS]>,
    /// `around[cell]`: the neighbours of the cell, and the cell itself when one of its
    /// neighbours is off the board (the squares Ludii 1.0.8's loose test looks from).
    around: Box<[u128; SLOTS]>,
    /// `nbrs[cell]`: the neighbours of the cell.
    nbrs: Box<[u128; SLOTS]>,
    /// Cells neither in the left nor in the right column.
    inner: u128,
    /// The cells where a piece between two enemies is reported as such: all but the middle
    /// cell under `centre_safe`.
    sandwich_cells: u128,
    /// `back[w][d]`: the rotation (right) of a 64-bit (w = 0) or 128-bit (w = 1) board that
    /// moves a cell's bit to its neighbour against direction d: where a step in direction d
    /// came from.
    back: [[u32; 4]; 2],
    /// `step_mask[d]`: on a 64-bit board, the cells a step in direction d may land on once the
    /// pieces are rotated left by `back[0][d]` (the columns a wrapped east or west step
    /// would reach are masked; the bits a rotation brings round from the other end are
    /// never cells, and the empty board removes them).
    step_mask: [u64; 4],
    /// `far[cell][d]`: the cell beyond the neighbour in direction d, as a bit index, 127
    /// (never a cell) where off the board.
    far: Box<[[u8; 4]; SLOTS]>,
    /// The board fits in 64 bits.
    narrow: bool,
    /// A blocked player passes (`blocked: pass` or `opponent-opens`).
    blocked_passes: bool,
    /// Random play fuses choosing and applying a step that eats nothing (`play_plain_narrow`, `play_plain_wide`): plain
    /// steps, single captures, safe sandwiches, blocked players pass, no stall rule.
    fused: bool,
    /// `bit[cell]`: the cell's bit (a load is cheaper than a 128-bit shift by a variable).
    bit: Box<[u128; SLOTS]>,
    /// Normal decisions list every one-cell step and nothing else (no compulsory capture, no
    /// voluntary pass): `choose` counts them instead of listing them.
    plain_steps: bool,
    /// The cells a placement may use.
    placeable: u128,
    limit: Limit,
    /// The fewest plies at which the cap can be reached: its move cap, or its turn cap if
    /// lower (a turn holds at least one ply), `u32::MAX` without a cap. Below it the end tests
    /// skip the cap with one compare.
    cap_plies: u32,
    loose: bool,
    /// One piece each ends the game as endless: nothing can be captured any more (a capture
    /// takes two pieces of a side, and so does a sandwich), a lone piece on a board of nine
    /// cells or more always has a step, so no blocked-player rule fires, and no rule of the
    /// reading ends such a game (no repetition or quiet-decisions rule, no cap, no all-pass
    /// draw that voluntary passes could bring about; two lone pieces are never walled off).
    /// In play this arises only with `pieces: 1`: eating never costs the eater a piece.
    lone_is_endless: bool,
}

/// The narrow bit board, for calls that name it.
type B64 = u64;

impl Custodial {
    /// The parameters.
    pub fn params(&self) -> &CustodialParams {
        &self.p
    }

    /// The board side.
    pub fn size(&self) -> usize {
        self.n
    }

    /// The middle cell.
    pub fn centre(&self) -> usize {
        self.centre
    }
}

impl Rules for Custodial {
    type State = CustodialState;
    type Move = CustodialMove;
    type Event = CustodialEvent;

    fn initial(&self) -> CustodialState {
        let mut s = CustodialState {
            pieces: [0; 2],
            hand: [0; 2],
            taken: [0; 2],
            lost: [0; 2],
            phase: Phase::Play,
            mover: 0,
            first_placer: 0,
            placed: 0,
            cont: NONE,
            must_open: false,
            first_move: false,
            plain: 0,
            clock: Clock::new(),
            quiet: 0,
            seen: HashSet::default(),
            outcome: None,
        };
        self.reset(&mut s, &mut NoEvents);
        s
    }

    fn reset(&self, s: &mut CustodialState, _events: &mut impl EventSink<CustodialEvent>) {
        s.clock = Clock::new();
        s.outcome = None;
        s.first_placer = 0;
        self.start_placement(s);
        s.phase = match self.p.starter {
            Starter::FirstSeat => Phase::Play,
            Starter::Lot => Phase::Toss,
        };
        self.settle(s);
    }

    fn status(&self, s: &CustodialState) -> Status {
        match s.phase {
            Phase::Toss => Status::Chance,
            Phase::Play => Status::ToMove(usize::from(s.mover)),
            Phase::Over => Status::Over,
        }
    }

    fn legal_moves(&self, s: &CustodialState, out: &mut Vec<CustodialMove>) {
        out.clear();
        if s.phase != Phase::Play {
            return;
        }
        let seat = usize::from(s.mover);
        if s.hand[seat] > 0 {
            let cells = self.empty(s) & self.placeable;
            if self.pairs(s, seat, cells.count_ones() as usize) {
                for a in bit_indices(cells) {
                    out.extend(
                        bit_indices(cells & !((2u128 << a) - 1))
                            .map(|b| CustodialMove::PlacePair(a as u8, b as u8)),
                    );
                }
            } else {
                out.extend(bit_indices(cells).map(|c| CustodialMove::Place(c as u8)));
            }
            return;
        }
        if s.cont != NONE {
            let only = 1u128 << s.cont;
            self.steps(s, seat, only, out);
            if self.loose {
                out.retain(|mv| match *mv {
                    CustodialMove::Step { to, .. } => {
                        self.loose_target(&s.pieces, seat, usize::from(to))
                    }
                    _ => false,
                });
            } else {
                out.retain(|mv| match *mv {
                    CustodialMove::Step { from, to } => self.eats_by(&s.pieces, seat, from, to),
                    _ => false,
                });
            }
        } else {
            self.movement_moves(s, seat, out);
            if s.must_open && out.iter().any(|&mv| self.opens(s, seat, mv)) {
                out.retain(|&mv| self.opens(s, seat, mv));
            }
            if self.p.voluntary_pass && !out.is_empty() {
                out.push(CustodialMove::Pass);
            }
        }
        if out.is_empty() {
            out.push(CustodialMove::Pass);
        }
    }

    fn apply(
        &self,
        s: &mut CustodialState,
        mv: CustodialMove,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Play);
        let seat = usize::from(s.mover);
        s.clock.tick(s.mover);
        let mut again = false;
        match mv {
            CustodialMove::Place(c) => {
                again = if self.narrow {
                    self.place::<u64>(s, seat, c, events)
                } else {
                    self.place::<u128>(s, seat, c, events)
                };
            }
            CustodialMove::PlacePair(a, b) => {
                // Both land before either eats: what each encloses is read on one board.
                s.hand[seat] -= 2;
                s.pieces[seat] |= (1 << a) | (1 << b);
                s.placed += 2;
                s.clock.clear_passes();
                let mut eaten = 0u128;
                let mut ate = [false; 2];
                for (i, c) in [a, b].into_iter().enumerate() {
                    let at = usize::from(c);
                    if self.p.placement_capture {
                        let e = self.enclosed(&s.pieces, seat, at, Some(&mut |e| events.emit(e)));
                        ate[i] = e != 0;
                        eaten |= e;
                    } else if self.captures_at(&s.pieces, seat, at) {
                        events.emit(CustodialEvent::PlacementFlank { cell: c });
                    }
                }
                for c in bit_indices(eaten) {
                    events.emit(CustodialEvent::Capture { cell: c as u8 });
                }
                s.pieces[1 - seat] &= !eaten;
                s.taken[seat] += eaten.count_ones() as u8;
                for (i, c) in [a, b].into_iter().enumerate() {
                    if ate[i] {
                        events.emit(CustodialEvent::PlacementCapture { cell: c });
                    }
                }
                again = self.end_of_placing(s, seat);
            }
            CustodialMove::Pass => {
                s.clock.pass();
                if s.cont != NONE {
                    events.emit(CustodialEvent::EmptyContinuation);
                } else if self.can_step(&s.pieces, seat) {
                    events.emit(CustodialEvent::VoluntaryPass { seat });
                    s.must_open = false;
                } else {
                    events.emit(CustodialEvent::ForcedPass { seat });
                    s.must_open = self.p.blocked == Blocked::OpponentOpens;
                }
                s.cont = NONE;
                s.quiet += 1;
            }
            CustodialMove::Step { from, to } => {
                again = if self.narrow {
                    self.step::<u64>(s, seat, from, to, events)
                } else {
                    self.step::<u128>(s, seat, from, to, events)
                };
            }
        }
        if !again {
            s.mover = 1 - s.mover;
        }
        self.after_decision(s, seat, events);
        self.settle(s);
    }

    fn choose(
        &self,
        s: &CustodialState,
        buf: &mut Vec<CustodialMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (CustodialMove, usize) {
        let seat = usize::from(s.mover);
        if s.phase == Phase::Play
            && s.cont != NONE
            && self.p.step == Step::One
            && self.p.capture_line == CaptureLine::Single
        {
            return if self.narrow {
                self.choose_continuation::<u64>(s, seat, pick)
            } else {
                self.choose_continuation::<u128>(s, seat, pick)
            };
        }
        if s.phase == Phase::Play
            && (s.hand[seat] > 0 || (s.cont == NONE && !s.must_open && self.plain_steps))
        {
            return if self.narrow {
                self.choose_fast::<u64>(s, seat, pick)
            } else {
                self.choose_fast::<u128>(s, seat, pick)
            };
        }
        self.legal_moves(s, buf);
        let n = buf.len();
        (buf[pick(n)], n)
    }

    #[inline(always)]
    fn play_random(
        &self,
        s: &mut CustodialState,
        buf: &mut Vec<CustodialMove>,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        // (The mover is 0 or 1: the mask spares the bounds checks.)
        let seat = usize::from(s.mover & 1);
        if s.plain == PLAIN_NARROW {
            return self.play_plain_narrow(s, seat, pick, events);
        }
        if s.plain == PLAIN_WIDE {
            return self.play_plain_wide(s, seat, pick, events);
        }
        if s.phase == Phase::Play {
            if s.hand[seat] > 0 && self.p.placing != Placing::Pair {
                return if self.narrow {
                    self.play_place::<u64>(s, seat, pick, events)
                } else {
                    self.play_place::<u128>(s, seat, pick, events)
                };
            }
            if s.cont != NONE
                && self.p.step == Step::One
                && self.p.capture_line == CaptureLine::Single
            {
                return if self.narrow {
                    self.play_continuation::<u64>(s, seat, pick, events)
                } else {
                    self.play_continuation::<u128>(s, seat, pick, events)
                };
            }
        }
        let (mv, n) = self.choose(s, buf, pick);
        self.apply(s, mv, events);
        (n, mv == CustodialMove::Pass)
    }

    fn chance_outcomes(&self, s: &CustodialState) -> &'static [u32] {
        if s.phase == Phase::Toss {
            lot_weights(2)
        } else {
            &[]
        }
    }

    fn apply_chance(
        &self,
        s: &mut CustodialState,
        k: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        debug_assert_eq!(s.phase, Phase::Toss);
        events.emit(CustodialEvent::Lot { seat: k });
        s.first_placer = k as u8;
        s.mover = k as u8;
        s.phase = Phase::Play;
        self.settle(s);
    }

    fn outcome(&self, s: &CustodialState) -> Option<Outcome> {
        s.outcome
    }

    fn clock<'s>(&self, s: &'s CustodialState) -> &'s Clock {
        &s.clock
    }

    fn limit(&self) -> Limit {
        self.limit
    }

    fn is_pass(&self, mv: CustodialMove) -> bool {
        mv == CustodialMove::Pass
    }

    /// The seat's pieces still in play, on the board and in hand ([`CustodialState::pieces`]):
    /// against the opponent's, a capture gains one and a piece lost between two enemies
    /// costs one.
    fn material(&self, s: &CustodialState, seat: Seat) -> i64 {
        i64::from(s.pieces(seat))
    }

    /// Pieces and mobility: [`PIECE_WORTH`] for each piece in play (the material), plus
    /// one for each step (and, under `step: jump`, each jump) the seat's pieces on the
    /// board could make now. A piece outweighs any mobility a board allows, so a capture is
    /// never traded for room; among equal pieces the side with more room (and the
    /// opponent's with less, since agents score a lead) is preferred.
    fn evaluate(&self, s: &CustodialState, seat: Seat) -> i64 {
        PIECE_WORTH * self.material(s, seat) + i64::from(self.mobility(s, seat))
    }

    /// The position ([`Rules::position_key`]) and the clock's plies.
    fn key(&self, s: &CustodialState) -> Option<u64> {
        let h = self.position_key(s)?;
        Some(core::mix(h, u64::from(s.clock.plies())))
    }

    /// The boards, hands, mover, phase, pending continuation and opening rule.
    fn position_key(&self, s: &CustodialState) -> Option<u64> {
        let mut h = 0;
        for w in [s.pieces[0], s.pieces[1]] {
            h = core::mix(h, w as u64);
            h = core::mix(h, (w >> 64) as u64);
        }
        let small = u64::from(s.hand[0])
            | u64::from(s.hand[1]) << 8
            | u64::from(s.mover) << 16
            | (s.phase as u64) << 24
            | u64::from(s.cont) << 32
            | u64::from(s.must_open) << 40
            | u64::from(s.first_move) << 41
            | u64::from(s.placed) << 48;
        Some(core::mix(h, small))
    }

    /// The cells.
    fn board_sites(&self) -> usize {
        self.n * self.n
    }

    /// The cells that hold a piece.
    fn occupied(&self, s: &CustodialState) -> crate::games::Sites {
        [s.pieces[0] | s.pieces[1], 0]
    }

    fn move_text(&self, mv: CustodialMove) -> String {
        self.display(mv)
    }

    fn event_text(&self, event: &CustodialEvent) -> String {
        EventDisplay {
            event: *event,
            size: Some(self.n),
        }
        .to_string()
    }

    fn chance_text(&self, s: &CustodialState, k: usize) -> String {
        let _ = (s, k);
        "the toss".to_owned()
    }

    fn board(&self, s: &CustodialState) -> view::BoardView {
        self.board_view(s)
    }

    fn move_params(&self, mv: CustodialMove) -> &'static [&'static str] {
        Self::move_rule(mv)
    }

    fn state_text(&self, s: &CustodialState) -> String {
        format!("{} hands={}-{}", self.board_text(s), s.hand[0], s.hand[1])
    }

    fn position_text(&self, s: &CustodialState) -> String {
        self.notation(s)
    }

    fn parse_position(&self, text: &str) -> Result<CustodialState, super::position::PositionError> {
        self.read_position(text)
    }

    fn position_fields(&self) -> &'static [super::position::FieldSpec] {
        position::FIELDS
    }

    fn position_decides(&self) -> Result<(), String> {
        match self.p.stall {
            Stall::Repetition => Err(
                "the reading's stall on a repeated position (stall: repetition) reads the \
                 positions met before, which a position does not hold"
                    .to_owned(),
            ),
            _ => Ok(()),
        }
    }
}
