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

use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use super::bits::{Bits, bit_indices, nth_bit_sparse, nth_bit_wide, nth_cell, pick4};
use super::core::{CapError, Clock, Limit, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
    event_kinds,
};
use crate::family::custodial::{
    Blocked, CaptureLine, Continuation, CustodialParams, FirstBlocked, FirstMover, Placing,
    Sandwich, Stall, StallResult, Starter, Step,
};

/// The largest board side.
pub const MAX_SIZE: usize = 11;
/// No cell (off the board, or no piece to continue with).
const NONE: u8 = u8::MAX;
/// Entries of the per-cell tables: a power of two above the most cells, so that indexing with
/// `cell & (SLOTS - 1)` needs no bounds check in the hot paths.
const SLOTS: usize = 128;

/// [`CustodialState::plain`]: a plain step on a board of at most 64 cells.
const PLAIN_NARROW: u8 = 1;
/// [`CustodialState::plain`]: a plain step on a board of more than 64 cells.
const PLAIN_WIDE: u8 = 2;

/// A per-cell table padded to [`SLOTS`] entries.
fn slots<T: Copy + Default>(cells: impl Iterator<Item = T>) -> Box<[T; SLOTS]> {
    let mut out = Box::new([T::default(); SLOTS]);
    for (slot, value) in out.iter_mut().zip(cells) {
        *slot = value;
    }
    out
}

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

/// A cell's name: column letter and row number from the bottom left (`a1`), as in chess.
pub fn cell_name(cell: usize, size: usize) -> String {
    let col = (b'a' + (cell % size) as u8) as char;
    format!("{col}{}", cell / size + 1)
}

/// Reads a cell name (`c3`) on a board of the given side.
pub fn parse_cell(text: &str, size: usize) -> Option<u8> {
    let mut chars = text.chars();
    let col = chars.next()?;
    let row: usize = chars.as_str().parse().ok()?;
    let col = (col as usize).checked_sub('a' as usize)?;
    (col < size && (1..=size).contains(&row)).then(|| ((row - 1) * size + col) as u8)
}

impl fmt::Display for CustodialMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CustodialMove::Pass => f.write_str("pass"),
            CustodialMove::Place(c) => write!(f, "place #{c}"),
            CustodialMove::Step { from, to } => write!(f, "#{from}-#{to}"),
            CustodialMove::PlacePair(a, b) => write!(f, "place #{a}+#{b}"),
        }
    }
}

event_kinds! {
    /// The kinds of custodial event.
    pub enum CustodialEventKind;
    endless = ["stall", "blocked", "cap", "voluntary_pass", "all_pass_draw"];
    /// The toss decided who places first.
    Lot = "lot" ["starter"],
    /// A piece was eaten.
    Capture = "capture" [],
    /// One direction of a capture ate a line of two or more pieces.
    LineCapture = "line-capture" ["capture_line"],
    /// An enemy piece on the middle cell was enclosed but not eaten.
    CentreSafe = "centre-safe" ["centre_safe"],
    /// An enemy piece on the middle cell was eaten.
    CentreTaken = "centre-taken" ["centre_safe"],
    /// A piece moved in between two enemy pieces and was removed.
    Suicide = "suicide" ["sandwich"],
    /// A piece moved in between two enemy pieces and stayed.
    SandwichSafe = "sandwich-safe" ["sandwich"],
    /// A placement ate an enemy piece.
    PlacementCapture = "placement-capture" ["placement_capture"],
    /// A placement enclosed an enemy piece, which was not eaten.
    PlacementFlank = "placement-flank" ["placement_capture"],
    /// The capturing piece was given another move.
    Continuation = "continuation" ["continuation"],
    /// Ludii 1.0.8's loose test gave the capturing player another decision.
    LooseContinuation = "loose-continuation" ["ludii_loose_continuation"],
    /// The extra decision of the loose test had no step: a forced pass.
    EmptyContinuation = "empty-continuation" ["ludii_loose_continuation"],
    /// The capturing piece could have captured again, but the turn ended.
    ContinuationForgone = "continuation-forgone" ["continuation"],
    /// A capture was made where the rules compel one.
    CaptureForced = "capture-forced" ["compulsory_capture"],
    /// A player with no move passed.
    ForcedPass = "forced-pass" ["blocked"],
    /// A move opened a line for the blocked opponent, as the rules required.
    Opening = "opening" ["blocked"],
    /// The blocked opponent's player had no move that opens a line.
    NoOpening = "no-opening" ["blocked"],
    /// A player with no move lost.
    BlockedLoss = "blocked-loss" ["blocked"],
    /// A player with no move ended the game, and the pieces were counted.
    BlockedCount = "blocked-count" ["blocked"],
    /// The first mover had no move at the start of play.
    FirstBlocked = "first-blocked" ["first_blocked"],
    /// The pieces were placed again because the first mover had no move.
    PlacementRedone = "placement-redone" ["first_blocked"],
    /// A player who could move passed.
    VoluntaryPass = "voluntary-pass" ["voluntary_pass"],
    /// A piece moved more than one cell.
    LongStep = "long-step" ["step"],
    /// The stall rule ended the game.
    StallEnd = "stall-end" ["stall", "stall_result"],
    /// A player lost his last piece.
    TotalCapture = "total-capture" [],
    /// An engine's implicit all-pass draw ended the game.
    AllPassDraw = "all-pass-draw" ["all_pass_draw"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// A piece jumped over another.
    Jump = "jump" ["step"],
    /// Each side had one piece left, so neither could capture again, and no rule of the
    /// reading ends such a game: it was ended as endless.
    LonePieces = "lone-pieces" ["stall", "cap", "voluntary_pass", "all_pass_draw"],
}

/// A custodial event with its data. Cells are board indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CustodialEvent {
    /// The toss chose `seat` to place first.
    Lot {
        /// Who places first.
        seat: Seat,
    },
    /// The piece on `cell` was eaten.
    Capture {
        /// The cell.
        cell: u8,
    },
    /// A line of `pieces` was eaten in one direction.
    LineCapture {
        /// How many.
        pieces: u8,
    },
    /// The enemy piece on the middle cell was enclosed but not eaten.
    CentreSafe,
    /// The enemy piece on the middle cell was eaten.
    CentreTaken,
    /// The piece that moved to `cell` was removed between two enemies.
    Suicide {
        /// The cell.
        cell: u8,
    },
    /// The piece that moved to `cell` stands between two enemies.
    SandwichSafe {
        /// The cell.
        cell: u8,
    },
    /// The placement on `cell` ate.
    PlacementCapture {
        /// The cell.
        cell: u8,
    },
    /// The placement on `cell` enclosed an enemy piece that was not eaten.
    PlacementFlank {
        /// The cell.
        cell: u8,
    },
    /// The piece on `cell` moves again.
    Continuation {
        /// The cell.
        cell: u8,
    },
    /// Ludii 1.0.8's loose test: the piece on `cell` moves again.
    LooseContinuation {
        /// The cell.
        cell: u8,
    },
    /// The loose test's extra decision had no step.
    EmptyContinuation,
    /// The piece on `cell` could have captured again.
    ContinuationForgone {
        /// The cell.
        cell: u8,
    },
    /// A compulsory capture.
    CaptureForced,
    /// `seat` could not move and passed.
    ForcedPass {
        /// Who.
        seat: Seat,
    },
    /// `seat` opened a line for the blocked opponent.
    Opening {
        /// Who opened.
        seat: Seat,
    },
    /// `seat` had no move that opens a line for the blocked opponent.
    NoOpening {
        /// Who.
        seat: Seat,
    },
    /// `seat` could not move and lost.
    BlockedLoss {
        /// Who.
        seat: Seat,
    },
    /// `seat` could not move; the pieces were counted.
    BlockedCount {
        /// Who.
        seat: Seat,
        /// Pieces of each seat.
        pieces: [u8; 2],
    },
    /// The first mover, `seat`, could not move.
    FirstBlocked {
        /// Who.
        seat: Seat,
    },
    /// The board was cleared and placed again.
    PlacementRedone,
    /// `seat` passed though he could move.
    VoluntaryPass {
        /// Who.
        seat: Seat,
    },
    /// A move of `cells` cells.
    LongStep {
        /// The distance.
        cells: u8,
    },
    /// The stall rule ended the game with these piece counts.
    StallEnd {
        /// Pieces of each seat.
        pieces: [u8; 2],
    },
    /// `seat` has no pieces left.
    TotalCapture {
        /// Who.
        seat: Seat,
    },
    /// The engine's all-pass draw.
    AllPassDraw,
    /// The engine's cap, in this turn and ply.
    CapReached {
        /// The turn.
        turns: u32,
        /// The decisions.
        plies: u32,
    },
    /// The moving piece jumped over the piece on `over`.
    Jump {
        /// The cell jumped over.
        over: u8,
    },
    /// One piece each: no end is reachable any more.
    LonePieces,
}

impl Event for CustodialEvent {
    type Kind = CustodialEventKind;
    #[inline]
    fn kind(&self) -> CustodialEventKind {
        use CustodialEventKind as K;
        match self {
            CustodialEvent::Lot { .. } => K::Lot,
            CustodialEvent::Capture { .. } => K::Capture,
            CustodialEvent::LineCapture { .. } => K::LineCapture,
            CustodialEvent::CentreSafe => K::CentreSafe,
            CustodialEvent::CentreTaken => K::CentreTaken,
            CustodialEvent::Suicide { .. } => K::Suicide,
            CustodialEvent::SandwichSafe { .. } => K::SandwichSafe,
            CustodialEvent::PlacementCapture { .. } => K::PlacementCapture,
            CustodialEvent::PlacementFlank { .. } => K::PlacementFlank,
            CustodialEvent::Continuation { .. } => K::Continuation,
            CustodialEvent::LooseContinuation { .. } => K::LooseContinuation,
            CustodialEvent::EmptyContinuation => K::EmptyContinuation,
            CustodialEvent::ContinuationForgone { .. } => K::ContinuationForgone,
            CustodialEvent::CaptureForced => K::CaptureForced,
            CustodialEvent::ForcedPass { .. } => K::ForcedPass,
            CustodialEvent::Opening { .. } => K::Opening,
            CustodialEvent::NoOpening { .. } => K::NoOpening,
            CustodialEvent::BlockedLoss { .. } => K::BlockedLoss,
            CustodialEvent::BlockedCount { .. } => K::BlockedCount,
            CustodialEvent::FirstBlocked { .. } => K::FirstBlocked,
            CustodialEvent::PlacementRedone => K::PlacementRedone,
            CustodialEvent::VoluntaryPass { .. } => K::VoluntaryPass,
            CustodialEvent::LongStep { .. } => K::LongStep,
            CustodialEvent::StallEnd { .. } => K::StallEnd,
            CustodialEvent::TotalCapture { .. } => K::TotalCapture,
            CustodialEvent::AllPassDraw => K::AllPassDraw,
            CustodialEvent::CapReached { .. } => K::CapReached,
            CustodialEvent::Jump { .. } => K::Jump,
            CustodialEvent::LonePieces => K::LonePieces,
        }
    }
}

impl fmt::Display for CustodialEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.kind().name();
        match *self {
            CustodialEvent::Capture { cell }
            | CustodialEvent::Suicide { cell }
            | CustodialEvent::SandwichSafe { cell }
            | CustodialEvent::PlacementCapture { cell }
            | CustodialEvent::PlacementFlank { cell }
            | CustodialEvent::Continuation { cell }
            | CustodialEvent::LooseContinuation { cell }
            | CustodialEvent::ContinuationForgone { cell }
            | CustodialEvent::Jump { over: cell } => write!(f, "{name} cell=#{cell}"),
            CustodialEvent::Lot { seat }
            | CustodialEvent::ForcedPass { seat }
            | CustodialEvent::Opening { seat }
            | CustodialEvent::NoOpening { seat }
            | CustodialEvent::BlockedLoss { seat }
            | CustodialEvent::FirstBlocked { seat }
            | CustodialEvent::VoluntaryPass { seat }
            | CustodialEvent::TotalCapture { seat } => write!(f, "{name} seat={}", seat + 1),
            CustodialEvent::BlockedCount { seat, pieces } => write!(
                f,
                "{name} seat={} pieces={}-{}",
                seat + 1,
                pieces[0],
                pieces[1]
            ),
            CustodialEvent::StallEnd { pieces } => {
                write!(f, "{name} pieces={}-{}", pieces[0], pieces[1])
            }
            CustodialEvent::LineCapture { pieces } => write!(f, "{name} pieces={pieces}"),
            CustodialEvent::LongStep { cells } => write!(f, "{name} cells={cells}"),
            CustodialEvent::CapReached { turns, plies } => {
                write!(f, "{name} turn={turns} plies={plies}")
            }
            CustodialEvent::CentreSafe
            | CustodialEvent::CentreTaken
            | CustodialEvent::EmptyContinuation
            | CustodialEvent::PlacementRedone
            | CustodialEvent::CaptureForced
            | CustodialEvent::AllPassDraw
            | CustodialEvent::LonePieces => f.write_str(name),
        }
    }
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

/// A position to start from, for tests and worked examples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustodialSetup<'a> {
    /// The rows from the top down: `x` a piece of seat 1, `o` of seat 2, `.` empty.
    pub rows: &'a [&'a str],
    /// Pieces still in hand.
    pub hands: [u8; 2],
    /// Who moves.
    pub to_move: Seat,
}

/// A position that [`Custodial::setup`] cannot build.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rows do not make the board.
    #[error("the setup needs {size} rows of {size} cells (x, o or .)")]
    Shape {
        /// The board side.
        size: usize,
    },
    /// More pieces than a seat has.
    #[error("seat {seat} has {count} pieces on the board and in hand, more than its {max}")]
    TooMany {
        /// The seat (1-based).
        seat: usize,
        /// Its pieces.
        count: usize,
        /// The most it has.
        max: u8,
    },
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
    /// Resolves the parameters.
    ///
    /// # Errors
    /// [`CustodialError`] for a board, piece count or combination the engine cannot play.
    pub fn new(p: &CustodialParams) -> Result<Self, CustodialError> {
        let n = usize::from(p.size);
        if !(3..=MAX_SIZE).contains(&n) || n % 2 == 0 {
            return Err(CustodialError::Size(p.size));
        }
        let cells = n * n;
        let max = ((cells - 1) / 2) as u8;
        if p.pieces == 0 || p.pieces > max {
            return Err(CustodialError::Pieces {
                pieces: p.pieces,
                size: p.size,
                max,
            });
        }
        if p.per_turn == 0 {
            return Err(CustodialError::PerTurn);
        }
        if p.stall == Stall::NoCapture && p.stall_plies == 0 {
            return Err(CustodialError::StallPlies);
        }
        // The loose test is Ludii's test for its while-capturing rule, and it decides the move
        // after a capture in place of `continuation` (so it can be switched into a reading
        // whose continuation is another); steps other than one and capture lines are cases it
        // was never made for.
        if p.ludii_loose_continuation
            && (p.step != Step::One || p.capture_line != CaptureLine::Single)
        {
            return Err(CustodialError::Loose);
        }
        if p.placing == Placing::Pair && p.per_turn != 2 {
            return Err(CustodialError::Pair(p.per_turn));
        }
        let limit = Limit::new(p.cap)?;
        let full = if cells == 128 {
            u128::MAX
        } else {
            (1u128 << cells) - 1
        };
        let mut left = 0u128;
        for row in 0..n {
            left |= 1 << (row * n);
        }
        let right = left << (n - 1);
        let nbr: Vec<[u8; 4]> = (0..cells)
            .map(|c| {
                let (row, col) = (c / n, c % n);
                let at = |ok: bool, cell: usize| if ok { cell as u8 } else { NONE };
                [
                    at(row + 1 < n, c + n),
                    at(col + 1 < n, c + 1),
                    at(row > 0, c.wrapping_sub(n)),
                    at(col > 0, c.wrapping_sub(1)),
                ]
            })
            .collect();
        let centre = cells / 2;
        let bit = |c: u8| if c == NONE { 0 } else { 1u128 << c };
        let beyond = |c: usize, d: usize| {
            let x = nbr[c][d];
            if x == NONE {
                NONE
            } else {
                nbr[usize::from(x)][d]
            }
        };
        let capm = slots((0..cells).map(|c| {
            std::array::from_fn(|d| {
                if beyond(c, d) == NONE {
                    0
                } else {
                    bit(nbr[c][d])
                }
            })
        }));
        let pair = slots((0..cells).map(|c| {
            let near = nbr[c];
            std::array::from_fn(|h| {
                let (a, b) = (near[h], near[h + 2]);
                if a == NONE || b == NONE {
                    1u128 << c
                } else {
                    bit(a) | bit(b)
                }
            })
        }));
        let around = slots((0..cells).map(|c| {
            nbr[c]
                .iter()
                .map(|&x| if x == NONE { 1u128 << c } else { bit(x) })
                .fold(0, |a, b| a | b)
        }));
        let nbrs = slots((0..cells).map(|c| nbr[c].iter().map(|&x| bit(x)).fold(0, |a, b| a | b)));
        let far = slots((0..cells).map(|c| {
            std::array::from_fn(|d| {
                let x = nbr[c][d];
                if x == NONE {
                    127
                } else {
                    nbr[usize::from(x)][d].min(127)
                }
            })
        }));
        Ok(Custodial {
            p: p.clone(),
            n,
            centre,
            full,
            not_left: full & !left,
            not_right: full & !right,
            nbr,
            capm,
            pair,
            around,
            nbrs,
            inner: full & !left & !right,
            sandwich_cells: if p.centre_safe {
                full & !(1u128 << centre)
            } else {
                full
            },
            back: [64, 128].map(|w| [n as u32, 1, w - n as u32, w - 1]),
            step_mask: [
                u64::MAX,
                (full & !left) as u64,
                u64::MAX,
                (full & !right) as u64,
            ],
            far,
            narrow: cells <= 64,
            blocked_passes: matches!(p.blocked, Blocked::Pass | Blocked::OpponentOpens),
            fused: p.step == Step::One
                && !p.compulsory_capture
                && !p.voluntary_pass
                && p.capture_line == CaptureLine::Single
                && p.sandwich == Sandwich::Safe
                && p.stall == Stall::None
                && matches!(p.blocked, Blocked::Pass | Blocked::OpponentOpens),
            bit: slots((0..cells).map(|c| 1u128 << c)),
            plain_steps: p.step == Step::One && !p.compulsory_capture && !p.voluntary_pass,
            placeable: full & !(1u128 << centre),
            limit,
            cap_plies: p
                .cap
                .map_or(u32::MAX, |c| c.moves.min(c.turns.unwrap_or(u32::MAX))),
            loose: p.ludii_loose_continuation,
            lone_is_endless: matches!(p.stall, Stall::None | Stall::Barrier)
                && p.cap.is_none()
                && !(p.all_pass_draw && p.voluntary_pass),
        })
    }

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

    /// A move in notation with cell names (`place c3`, `b3-c3`).
    pub fn display(&self, mv: CustodialMove) -> String {
        let name = |c: u8| cell_name(usize::from(c), self.n);
        match mv {
            CustodialMove::Pass => "pass".to_owned(),
            CustodialMove::Place(c) => format!("place {}", name(c)),
            CustodialMove::Step { from, to } => format!("{}-{}", name(from), name(to)),
            CustodialMove::PlacePair(a, b) => format!("place {}+{}", name(a), name(b)),
        }
    }

    /// A position built from rows of `x`, `o` and `.`, in the movement phase unless a hand
    /// holds pieces. The position is then settled as after any decision (so a seat left with
    /// no pieces has lost, and a blocked seat to move is dealt with by the reading).
    ///
    /// # Errors
    /// [`SetupError`] for rows that do not make the board, or more pieces than a seat has.
    pub fn setup(&self, setup: &CustodialSetup) -> Result<CustodialState, SetupError> {
        let mut s = self.initial();
        if setup.rows.len() != self.n || setup.rows.iter().any(|r| r.chars().count() != self.n) {
            return Err(SetupError::Shape { size: self.n });
        }
        s.pieces = [0; 2];
        for (i, row) in setup.rows.iter().enumerate() {
            let r = self.n - 1 - i;
            for (col, ch) in row.chars().enumerate() {
                let bit = 1u128 << (r * self.n + col);
                match ch {
                    'x' => s.pieces[0] |= bit,
                    'o' => s.pieces[1] |= bit,
                    '.' => {}
                    _ => return Err(SetupError::Shape { size: self.n }),
                }
            }
        }
        s.hand = setup.hands;
        for seat in 0..2 {
            let count = s.pieces(seat) as usize;
            if count > usize::from(self.p.pieces) {
                return Err(SetupError::TooMany {
                    seat: seat + 1,
                    count,
                    max: self.p.pieces,
                });
            }
            // The pieces missing were eaten by the other seat.
            s.taken[1 - seat] = self.p.pieces - count as u8;
        }
        s.phase = Phase::Play;
        s.mover = setup.to_move as u8;
        s.first_move = false;
        // Settled as if the other seat had just moved.
        self.after_decision(&mut s, 1 - setup.to_move, &mut NoEvents);
        self.settle(&mut s);
        Ok(s)
    }

    /// The board as text: rows from the top, `x` seat 1, `o` seat 2, `.` empty.
    pub fn board_text(&self, s: &CustodialState) -> String {
        let mut out = String::new();
        for r in (0..self.n).rev() {
            if r + 1 != self.n {
                out.push('/');
            }
            for col in 0..self.n {
                out.push(match s.who(r * self.n + col) {
                    Some(0) => 'x',
                    Some(_) => 'o',
                    None => '.',
                });
            }
        }
        out
    }

    #[inline]
    fn shift(&self, bits: u128, d: usize) -> u128 {
        match d {
            0 => (bits << self.n) & self.full,
            1 => (bits << 1) & self.not_left,
            2 => bits >> self.n,
            _ => (bits >> 1) & self.not_right,
        }
    }

    #[inline]
    fn empty(&self, s: &CustodialState) -> u128 {
        self.full & !(s.pieces[0] | s.pieces[1])
    }

    /// Whether `seat`'s placing decision is a pair (`placing: pair`, two pieces in hand, none
    /// placed yet this turn, and two cells to place on; a side has at most half the cells
    /// but the middle, so there always are).
    #[inline]
    fn pairs(&self, s: &CustodialState, seat: usize, cells: usize) -> bool {
        self.p.placing == Placing::Pair && s.hand[seat] >= 2 && s.placed == 0 && cells >= 2
    }

    /// Whether a seat has a move: a piece with an empty neighbour, or, under `step: jump`,
    /// a piece next to a piece with an empty cell beyond.
    #[inline]
    fn can_step(&self, pieces: &[u128; 2], seat: usize) -> bool {
        if self.p.step != Step::Jump {
            return if self.narrow {
                self.has_target::<u64>(pieces, seat)
            } else {
                self.has_target::<u128>(pieces, seat)
            };
        }
        let empty = self.full & !(pieces[0] | pieces[1]);
        (0..4).any(|d| self.shift(pieces[seat], d) & empty != 0)
            || (0..4).any(|d| self.jumps(pieces, seat, d) != 0)
    }

    /// Whether a piece of `seat` has an empty neighbour: the four step targets at once.
    #[inline(always)]
    fn has_target<B: Bits>(&self, pieces: &[u128; 2], seat: usize) -> bool {
        let own = B::of(pieces[seat]);
        let empty = B::of(self.full) & !(own | B::of(pieces[1 - seat]));
        let [a, b, c, d] = self.targets(own, empty);
        (a | b | c | d) != B::ZERO
    }

    /// The landing cells of `seat`'s jumps in direction `d`: over an adjacent piece of either
    /// side to the empty cell beyond it.
    #[inline]
    fn jumps(&self, pieces: &[u128; 2], seat: usize, d: usize) -> u128 {
        let occupied = pieces[0] | pieces[1];
        self.shift(self.shift(pieces[seat], d) & occupied, d) & self.full & !occupied
    }

    /// Whether the two sides are walled off from each other (`stall: barrier`): no empty cell
    /// is reached by both, a side reaching every empty cell joined to one of its pieces
    /// through empty cells and its own pieces (and by jumps, under `step: jump`). The reach
    /// of a side counts its own pieces as passable because they may move away: the test
    /// errs towards "not walled off", never the other way.
    fn walled_off(&self, pieces: &[u128; 2]) -> bool {
        let occupied = pieces[0] | pieces[1];
        let empty = self.full & !occupied;
        let reach = |seat: usize| {
            let open = pieces[seat] | empty;
            let mut r = pieces[seat];
            loop {
                let mut grown = r;
                for d in 0..4 {
                    grown |= self.shift(r, d) & open;
                    if self.p.step == Step::Jump {
                        grown |= self.shift(self.shift(r, d) & occupied, d) & empty;
                    }
                }
                if grown == r {
                    return r & empty;
                }
                r = grown;
            }
        };
        reach(0) & reach(1) == 0
    }

    /// The barrier of `stall: barrier`: the sides are walled off, and neither is made to open
    /// its wall: each has no move at all, or a move after which they are still walled off
    /// (so a side whose every move opens the wall, as a first mover who must step into the
    /// middle from beside an enemy, plays on). No move eats while the sides are walled off:
    /// a landing next to an enemy would be reached by both.
    fn barrier(&self, pieces: &[u128; 2]) -> bool {
        self.walled_off(pieces) && (0..2).all(|seat| self.can_keep_wall(pieces, seat))
    }

    /// Whether `seat` has no move, or a move that keeps the sides walled off.
    fn can_keep_wall(&self, pieces: &[u128; 2], seat: usize) -> bool {
        let occupied = pieces[0] | pieces[1];
        let mut moves = false;
        for from in bit_indices(pieces[seat]) {
            let keeps = |to: u8| {
                let mut after = *pieces;
                after[seat] ^= (1 << from) | (1 << to);
                self.walled_off(&after)
            };
            for d in 0..4 {
                let mut c = self.nbr[from][d];
                while c != NONE && occupied >> c & 1 == 0 {
                    moves = true;
                    if keeps(c) {
                        return true;
                    }
                    if self.p.step != Step::Rook {
                        break;
                    }
                    c = self.nbr[usize::from(c)][d];
                }
                let (over, to) = (self.nbr[from][d], self.far[from & (SLOTS - 1)][d]);
                if self.p.step == Step::Jump
                    && over != NONE
                    && occupied >> over & 1 == 1
                    && to != 127
                    && occupied >> to & 1 == 0
                {
                    moves = true;
                    if keeps(to) {
                        return true;
                    }
                }
            }
        }
        !moves
    }

    /// The enemy pieces a piece of `seat` standing on `at` encloses, as a bit board; with
    /// `events`, reports each direction's line and the middle cell's safety.
    #[inline]
    fn enclosed(
        &self,
        pieces: &[u128; 2],
        seat: usize,
        at: usize,
        events: Option<&mut dyn FnMut(CustodialEvent)>,
    ) -> u128 {
        let own = pieces[seat];
        let enemy = pieces[1 - seat];
        let mut out = 0u128;
        let mut report = events;
        for d in 0..4 {
            let mut c = self.nbr[at][d];
            let mut line = 0u128;
            while c != NONE && enemy >> c & 1 == 1 {
                line |= 1 << c;
                c = self.nbr[usize::from(c)][d];
                if self.p.capture_line == CaptureLine::Single {
                    break;
                }
            }
            if line == 0 || c == NONE || own >> c & 1 == 0 {
                continue;
            }
            let centre = 1u128 << self.centre;
            if line & centre != 0 {
                if let Some(f) = report.as_mut() {
                    f(if self.p.centre_safe {
                        CustodialEvent::CentreSafe
                    } else {
                        CustodialEvent::CentreTaken
                    });
                }
                if self.p.centre_safe {
                    line &= !centre;
                }
            }
            if line.count_ones() > 1
                && let Some(f) = report.as_mut()
            {
                f(CustodialEvent::LineCapture {
                    pieces: line.count_ones() as u8,
                });
            }
            out |= line;
        }
        out
    }

    /// The single enemy pieces among `enemy` that a piece on `at` encloses against `own`:
    /// each direction's neighbour (where the cell beyond is on the board) if it is an enemy
    /// and the shifted `own` has the far cell's piece on it; four shifts and ANDs, no branch.
    /// (`own` may or may not hold the piece's own cell and the cell a step came from: neither
    /// is ever a far cell of `at`.)
    #[inline(always)]
    fn enclosed_single<B: Bits>(&self, own: B, enemy: B, at: usize) -> B {
        let m = &self.capm[at & (SLOTS - 1)];
        let n = self.shift_n();
        enemy
            & (((own >> n) & B::of(m[0]))
                | ((own >> 1) & B::of(m[1]))
                | ((own << n) & B::of(m[2]))
                | ((own << 1) & B::of(m[3])))
    }

    /// Whether a piece on `at` encloses any single piece of `enemy` against `own`.
    #[inline(always)]
    fn encloses_any<B: Bits>(&self, own: B, enemy: B, at: usize) -> bool {
        self.enclosed_single(own, enemy, at) != B::ZERO
    }

    /// Every cell on which a piece of `own` would enclose a single piece of `enemy` (an enemy
    /// next to it on a rank or file with a piece of `own` just beyond), for the whole board
    /// at once: an enemy with `own` behind it, shifted back one cell, per direction. Bits
    /// off the board may be set: callers AND with cells of the board. (A cell that `own`
    /// occupies is listed as if its piece were elsewhere; no caller asks about such a cell
    /// except as the piece that moves, which is never its own far cell.)
    #[inline(always)]
    fn flank_set<B: Bits>(&self, own: B, enemy: B) -> B {
        let n = self.shift_n();
        let inner = B::of(self.inner);
        ((enemy & (own >> n)) >> n)
            | ((enemy & (own << n)) << n)
            | ((enemy & (own >> 1) & inner) >> 1)
            | ((enemy & (own << 1) & inner) << 1)
    }

    /// The board side as a shift of a whole bit board by a row: masked to below 64, which it
    /// is, so that a 128-bit shift needs no test of whether it crosses the middle word.
    #[inline(always)]
    fn shift_n(&self) -> usize {
        self.n & 63
    }

    /// The targets of one-cell steps of `own` into `empty`, north, east, south, west.
    #[inline(always)]
    fn targets<B: Bits>(&self, own: B, empty: B) -> [B; 4] {
        let n = self.shift_n();
        [
            (own << n) & empty,
            (own << 1) & B::of(self.not_left) & empty,
            (own >> n) & empty,
            (own >> 1) & B::of(self.not_right) & empty,
        ]
    }

    /// The `k`-th legal move of a placement or of a plain normal decision, found by counting.
    #[inline(always)]
    fn choose_fast<B: Bits>(
        &self,
        s: &CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
    ) -> (CustodialMove, usize) {
        let empty = B::of(self.empty(s));
        if s.hand[seat] > 0 {
            let cells = empty & B::of(self.placeable);
            let n = cells.ones() as usize;
            if self.pairs(s, seat, n) {
                // The k-th pair in the list's order: by lower cell, then higher.
                let total = n * (n - 1) / 2;
                let mut k = pick(total);
                let mut i = 0;
                while k >= n - 1 - i {
                    k -= n - 1 - i;
                    i += 1;
                }
                let a = nth_cell(cells, i as u32);
                let b = nth_cell(cells, (i + 1 + k) as u32);
                return (CustodialMove::PlacePair(a, b), total);
            }
            let k = pick(n) as u32;
            return (CustodialMove::Place(nth_cell(cells, k)), n);
        }
        let t = self.targets(B::of(s.pieces[seat]), empty);
        let counts = t.map(Bits::ones);
        let total = counts.iter().sum::<u32>() as usize;
        if total == 0 {
            let _ = pick(1);
            return (CustodialMove::Pass, 1);
        }
        let mut k = pick(total) as u32;
        let n = self.n as u8;
        for d in 0..4 {
            if k < counts[d] {
                let to = nth_cell(t[d], k);
                let from = to.wrapping_add([n.wrapping_neg(), u8::MAX, n, 1][d]);
                return (CustodialMove::Step { from, to }, total);
            }
            k -= counts[d];
        }
        unreachable!("k is below the total")
    }

    /// Eats the single enemy pieces a piece of `seat` on `at` encloses, reporting them; also
    /// whether Ludii 1.0.8's loose test grants another decision (read before the removal).
    #[inline(always)]
    fn eat_single<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        at: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (u32, bool) {
        let enemy = B::of(s.pieces[1 - seat]);
        let hits = self.enclosed_single(B::of(s.pieces[seat]), enemy, at);
        if hits == B::ZERO {
            return (0, false);
        }
        let mut eaten = hits.wide();
        let centre = 1u128 << self.centre;
        if eaten & centre != 0 {
            if self.p.centre_safe {
                events.emit(CustodialEvent::CentreSafe);
                eaten &= !centre;
            } else {
                events.emit(CustodialEvent::CentreTaken);
            }
        }
        if eaten == 0 {
            return (0, false);
        }
        let grant = self.loose
            && (self.loose_flank::<B>(&s.pieces, seat, at) || !self.can_step(&s.pieces, 1 - seat));
        for c in bit_indices(eaten) {
            events.emit(CustodialEvent::Capture { cell: c as u8 });
        }
        s.pieces[1 - seat] &= !eaten;
        let n = eaten.count_ones();
        s.taken[seat] += n as u8;
        (n, grant)
    }

    /// Whether a piece of `seat` moving to `to` would eat (the cell it leaves never matters:
    /// it lies behind the piece, across empty cells).
    #[inline]
    fn captures_at(&self, pieces: &[u128; 2], seat: usize, to: usize) -> bool {
        if self.narrow {
            self.captures_at_in::<u64>(pieces, seat, to)
        } else {
            self.captures_at_in::<u128>(pieces, seat, to)
        }
    }

    /// [`Custodial::captures_at`] on the bit board `B`.
    #[inline(always)]
    fn captures_at_in<B: Bits>(&self, pieces: &[u128; 2], seat: usize, to: usize) -> bool {
        if self.p.capture_line == CaptureLine::Single {
            let enemy = self.edible(pieces[1 - seat]);
            return self.encloses_any::<B>(B::of(pieces[seat]), B::of(enemy), to);
        }
        self.enclosed(pieces, seat, to, None) != 0
    }

    /// The pieces of an enemy board that can be eaten (all but one on the middle cell, under
    /// `centre_safe`).
    #[inline(always)]
    fn edible(&self, enemy: u128) -> u128 {
        // (The mask is `sandwich_cells`: the board less the middle cell under `centre_safe`.)
        enemy & self.sandwich_cells
    }

    /// Whether the piece of `seat` on `at` has a step that eats.
    fn can_capture_from(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        let empty = self.full & !(pieces[0] | pieces[1]);
        if self.p.step == Step::One && self.p.capture_line == CaptureLine::Single {
            // An empty neighbour on which the piece would enclose an edible enemy.
            let (own, enemy) = (pieces[seat], self.edible(pieces[1 - seat]));
            let nbrs = self.nbrs[at & (SLOTS - 1)] & empty;
            return if self.narrow {
                B64::of(nbrs) & self.flank_set(B64::of(own), B64::of(enemy)) != 0
            } else {
                nbrs & self.flank_set(own, enemy) != 0
            };
        }
        (0..4).any(|d| {
            let mut c = self.nbr[at][d];
            while c != NONE && empty >> c & 1 == 1 {
                if self.captures_at(pieces, seat, usize::from(c)) {
                    return true;
                }
                if self.p.step != Step::Rook {
                    break;
                }
                c = self.nbr[usize::from(c)][d];
            }
            // Under `step: jump`, over a neighbouring piece to the empty cell beyond.
            let (over, to) = (self.nbr[at][d], self.far[at & (SLOTS - 1)][d]);
            self.p.step == Step::Jump
                && over != NONE
                && to != 127
                && empty >> to & 1 == 1
                && (pieces[0] | pieces[1]) >> over & 1 == 1
                && self.eats_by(pieces, seat, at as u8, to)
        })
    }

    /// Whether a move of `seat` from `from` to `to` eats, judged with the piece moved: a
    /// jump's landing must not count the cell it left, two cells back, as a friend.
    fn eats_by(&self, pieces: &[u128; 2], seat: usize, from: u8, to: u8) -> bool {
        let mut after = *pieces;
        after[seat] ^= (1 << from) | (1 << to);
        self.captures_at(&after, seat, usize::from(to))
    }

    /// Every step of `seat`'s pieces (or of the one piece on `only`), by direction then cell
    /// (under `step: jump`, the one-cell steps, then the jumps by direction then cell).
    fn steps(&self, s: &CustodialState, seat: usize, only: u128, out: &mut Vec<CustodialMove>) {
        let own = s.pieces[seat] & only;
        let empty = self.empty(s);
        match self.p.step {
            Step::One | Step::Jump => {
                // One shift per direction; the piece that steps is the target minus the
                // direction's offset.
                let n = self.n as u8;
                let mut push = |targets: u128, from: fn(u8, u8) -> u8| {
                    let mut bits = targets;
                    while bits != 0 {
                        let to = bits.trailing_zeros() as u8;
                        bits &= bits - 1;
                        out.push(CustodialMove::Step {
                            from: from(to, n),
                            to,
                        });
                    }
                };
                push((own << self.n) & empty, |to, n| to - n);
                push((own << 1) & self.not_left & empty, |to, _| to - 1);
                push((own >> self.n) & empty, |to, n| to + n);
                push((own >> 1) & self.not_right & empty, |to, _| to + 1);
                if self.p.step == Step::Jump {
                    // Jumps, after every one-cell step: over a piece of either side to
                    // the empty cell beyond; the jumper stands two cells back.
                    let occupied = s.pieces[0] | s.pieces[1];
                    for d in 0..4 {
                        let mut bits = self.shift(self.shift(own, d) & occupied, d) & empty;
                        while bits != 0 {
                            let to = bits.trailing_zeros() as usize;
                            bits &= bits - 1;
                            let back = self.nbr[to][(d + 2) % 4];
                            out.push(CustodialMove::Step {
                                from: self.nbr[usize::from(back)][(d + 2) % 4],
                                to: to as u8,
                            });
                        }
                    }
                }
            }
            Step::Rook => {
                for from in bit_indices(own) {
                    for d in 0..4 {
                        let mut c = self.nbr[from][d];
                        while c != NONE && empty >> c & 1 == 1 {
                            out.push(CustodialMove::Step {
                                from: from as u8,
                                to: c,
                            });
                            c = self.nbr[usize::from(c)][d];
                        }
                    }
                }
            }
        }
    }

    /// Ludii 1.0.8's same-turn test for a step to `to`: an enemy next to it, in some
    /// direction, with a friend behind (the middle cell not excepted).
    fn loose_target(&self, pieces: &[u128; 2], seat: usize, to: usize) -> bool {
        if self.narrow {
            self.encloses_any::<u64>(B64::of(pieces[seat]), B64::of(pieces[1 - seat]), to)
        } else {
            self.encloses_any::<u128>(pieces[seat], pieces[1 - seat], to)
        }
    }

    /// Ludii 1.0.8's F test ("FlankFromOrthogonalStep"), before the eaten pieces are removed:
    /// from any neighbour of `at` (or from `at` itself, standing in for a neighbour off the
    /// board), a piece would enclose an enemy not on the middle cell.
    #[inline(always)]
    fn loose_flank<B: Bits>(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        let own = B::of(pieces[seat]);
        let enemy = B::of(pieces[1 - seat] & !(1u128 << self.centre));
        self.flank_set(own, enemy) & B::of(self.around[at & (SLOTS - 1)]) != B::ZERO
    }

    /// The pieces after a step (captures and suicide included), without events.
    fn after_step(&self, s: &CustodialState, seat: usize, from: u8, to: u8) -> [u128; 2] {
        let mut pieces = s.pieces;
        pieces[seat] ^= (1 << from) | (1 << to);
        let eaten = self.enclosed(&pieces, seat, usize::from(to), None);
        pieces[1 - seat] &= !eaten;
        if self.p.sandwich == Sandwich::Suicide
            && self.flanked::<u128>(&pieces, seat, usize::from(to))
        {
            pieces[seat] &= !(1 << to);
        }
        pieces
    }

    /// Whether the piece of `seat` on `at` stands between two enemies on a rank or file.
    #[inline(always)]
    fn flanked<B: Bits>(&self, pieces: &[u128; 2], seat: usize, at: usize) -> bool {
        if self.p.centre_safe && at == self.centre {
            return false;
        }
        self.between::<B>(B::of(pieces[1 - seat]), at)
    }

    /// Every cell with enemies on both sides along a rank or file, as [`Custodial::between`]
    /// finds them, for the whole board (bits off the board may be set).
    #[inline(always)]
    fn between_set<B: Bits>(&self, enemy: B) -> B {
        let n = self.shift_n();
        ((enemy << n) & (enemy >> n)) | ((enemy << 1) & (enemy >> 1) & B::of(self.inner))
    }

    /// Whether the cell `at`, which `enemy` does not hold, has enemies on both sides along a
    /// rank or file (see `pair`).
    #[inline(always)]
    fn between<B: Bits>(&self, enemy: B, at: usize) -> bool {
        let [v, h] = self.pair[at & (SLOTS - 1)].map(B::of);
        ((enemy & v) == v) | ((enemy & h) == h)
    }

    /// The moves of a normal movement decision, before the opening rule.
    fn movement_moves(&self, s: &CustodialState, seat: usize, out: &mut Vec<CustodialMove>) {
        self.steps(s, seat, u128::MAX, out);
        if self.p.compulsory_capture {
            let capturing = |mv: &CustodialMove| match *mv {
                CustodialMove::Step { from, to } => self.eats_by(&s.pieces, seat, from, to),
                _ => false,
            };
            if out.iter().any(capturing) {
                out.retain(capturing);
            }
        }
    }

    /// Whether a move of `seat` gives the blocked opponent a step.
    fn opens(&self, s: &CustodialState, seat: usize, mv: CustodialMove) -> bool {
        match mv {
            CustodialMove::Step { from, to } => {
                self.can_step(&self.after_step(s, seat, from, to), 1 - seat)
            }
            _ => false,
        }
    }

    /// Sets [`CustodialState::plain`] from the position (see there).
    #[inline]
    fn settle(&self, s: &mut CustodialState) {
        let plain = self.fused
            && s.phase == Phase::Play
            && s.clock.first_mover().is_some()
            && s.hand == [0, 0]
            && s.cont == NONE
            && !s.must_open
            && !s.first_move;
        s.plain = if !plain {
            0
        } else if self.narrow {
            PLAIN_NARROW
        } else {
            PLAIN_WIDE
        };
    }

    fn over(&self, s: &mut CustodialState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.cont = NONE;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: [u32::from(s.taken[0]), u32::from(s.taken[1])],
            ranks: Outcome::UNRANKED,
        });
    }

    /// The result of counting the pieces left.
    fn count(&self, s: &CustodialState) -> ([u8; 2], Result_) {
        let pieces = [s.pieces(0) as u8, s.pieces(1) as u8];
        let result = match pieces[0].cmp(&pieces[1]) {
            std::cmp::Ordering::Greater => Result_::Win(1),
            std::cmp::Ordering::Less => Result_::Win(2),
            std::cmp::Ordering::Equal => Result_::Draw,
        };
        (pieces, result)
    }

    fn stall_end(&self, s: &mut CustodialState, events: &mut impl EventSink<CustodialEvent>) {
        let (pieces, counted) = self.count(s);
        events.emit(CustodialEvent::StallEnd { pieces });
        let result = match self.p.stall_result {
            StallResult::Draw => Result_::Draw,
            StallResult::Count => counted,
        };
        self.over(s, result, EndReason::Natural);
    }

    /// Clears the board and hands for a (new) placement.
    fn start_placement(&self, s: &mut CustodialState) {
        s.pieces = [0; 2];
        s.hand = [self.p.pieces; 2];
        s.taken = [0; 2];
        s.lost = [0; 2];
        s.mover = s.first_placer;
        s.placed = 0;
        s.cont = NONE;
        s.must_open = false;
        s.first_move = false;
        s.clock.clear_passes();
        s.quiet = 0;
        s.seen.clear();
    }

    /// Everything that follows a decision by `mover`, whose next mover is already in
    /// `s.mover`: the end tests in Ludii's order, then the blocked player and the stall rules.
    #[inline]
    fn after_decision(
        &self,
        s: &mut CustodialState,
        mover: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        let next = usize::from(s.mover);
        let other = 1 - mover;
        // The game's own end: a seat with no pieces has lost. Ludii tests only the seat to
        // move next, so under its loose continuation a capturer who ate the last piece first
        // makes his (empty) extra decision.
        // (A seat's pieces are its share less what it lost: no board to count. Pieces leave
        // only by captures and sandwiches, so most decisions skip this.)
        let share = u32::from(self.p.pieces);
        let lost = |seat: usize| u32::from(s.taken[1 - seat]) + u32::from(s.lost[seat]);
        if lost(mover) == share {
            events.emit(CustodialEvent::TotalCapture { seat: mover });
            return self.over(s, Result_::Win(1 << other), EndReason::Natural);
        }
        if lost(other) == share && (next == other || !self.loose) {
            events.emit(CustodialEvent::TotalCapture { seat: other });
            return self.over(s, Result_::Win(1 << mover), EndReason::Natural);
        }
        if s.clock.plies() > 0 {
            if self.p.all_pass_draw && s.clock.all_passed(2) {
                events.emit(CustodialEvent::AllPassDraw);
                return self.over(s, Result_::Draw, EndReason::AllPassDraw);
            }
            if let Some(reason) = self.cap_reached(s) {
                events.emit(CustodialEvent::CapReached {
                    turns: s.clock.turns(),
                    plies: s.clock.plies(),
                });
                return self.over(s, Result_::Draw, reason);
            }
        }
        if s.hand[next] > 0 || s.cont != NONE {
            return;
        }
        // A normal movement decision for `next`. (Both players are never blocked at once:
        // a board with pieces and an empty cell has a piece next to an empty cell.)
        match self.p.stall {
            Stall::None => {}
            Stall::NoCapture => {
                if s.quiet >= self.p.stall_plies {
                    return self.stall_end(s, events);
                }
            }
            Stall::Repetition => {
                let key = (s.pieces[0], s.pieces[1], s.mover, u8::from(s.must_open));
                if !s.seen.insert(key) {
                    return self.stall_end(s, events);
                }
            }
            Stall::Barrier => {
                if self.barrier(&s.pieces) {
                    return self.stall_end(s, events);
                }
            }
        }
        if self.lone_is_endless
            && s.hand == [0, 0]
            && s.pieces[0].count_ones() == 1
            && s.pieces[1].count_ones() == 1
        {
            events.emit(CustodialEvent::LonePieces);
            return self.over(s, Result_::Unfinished, EndReason::Endless);
        }
        // A blocked player who passes needs nothing here: his only legal move is the pass.
        if (self.blocked_passes && !s.first_move) || self.can_step(&s.pieces, next) {
            s.first_move = false;
            return;
        }
        if s.first_move {
            s.first_move = false;
            match self.p.first_blocked {
                FirstBlocked::AsBlocked => {}
                FirstBlocked::OtherMoves => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    s.mover = (1 - next) as u8;
                    return self.after_decision(s, mover, events);
                }
                FirstBlocked::RedoPlacement => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    events.emit(CustodialEvent::PlacementRedone);
                    return self.start_placement(s);
                }
                FirstBlocked::Loses => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    return self.over(s, Result_::Win(1 << (1 - next)), EndReason::Natural);
                }
            }
        }
        match self.p.blocked {
            // The player passes (his only legal move).
            Blocked::Pass | Blocked::OpponentOpens => {}
            Blocked::Loses => {
                events.emit(CustodialEvent::BlockedLoss { seat: next });
                self.over(s, Result_::Win(1 << (1 - next)), EndReason::Natural);
            }
            Blocked::Count => {
                let (pieces, result) = self.count(s);
                events.emit(CustodialEvent::BlockedCount { seat: next, pieces });
                self.over(s, result, EndReason::Natural);
            }
        }
    }

    /// Settles a placing decision of `seat`: whether he places again this turn, and, once
    /// every piece is placed, who makes the first move. Whether `seat` decides again.
    fn end_of_placing(&self, s: &mut CustodialState, seat: usize) -> bool {
        let mut again = false;
        if s.placed < self.p.per_turn && s.hand[seat] > 0 {
            again = true;
        } else {
            s.placed = 0;
        }
        if s.hand == [0, 0] {
            // Every piece is placed: the first mover begins.
            s.placed = 0;
            let first = match self.p.first_mover {
                FirstMover::FirstPlacer => s.first_placer,
                FirstMover::LastPlacer => seat as u8,
            };
            again = usize::from(first) == seat;
            s.first_move = true;
            s.seen.clear();
        }
        again
    }

    /// Eats what a piece of `seat` on `at` encloses, reporting each piece.
    fn eat(
        &self,
        s: &mut CustodialState,
        seat: usize,
        at: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> u32 {
        // Most steps enclose nothing, not even a piece on the middle cell: nothing to report.
        if self.p.capture_line == CaptureLine::Single
            && self.enclosed_single(s.pieces[seat], s.pieces[1 - seat], at) == 0u128
        {
            return 0;
        }
        let eaten = self.enclosed(&s.pieces, seat, at, Some(&mut |e| events.emit(e)));
        for c in bit_indices(eaten) {
            events.emit(CustodialEvent::Capture { cell: c as u8 });
        }
        s.pieces[1 - seat] &= !eaten;
        let n = eaten.count_ones();
        s.taken[seat] += n as u8;
        n
    }
    /// The decision after a capture under `step: one` and single captures: the capturing
    /// piece's steps to empty neighbours on which it encloses an enemy (any enemy under the
    /// loose test, an edible one otherwise), listed north, east, south, west as `steps` lists
    /// them; a pass when there is none.
    #[inline(always)]
    fn choose_continuation<B: Bits>(
        &self,
        s: &CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
    ) -> (CustodialMove, usize) {
        let from = s.cont;
        let own = B::of(s.pieces[seat]);
        let enemy = if self.loose {
            s.pieces[1 - seat]
        } else {
            self.edible(s.pieces[1 - seat])
        };
        let empty = B::of(self.full) & !(own | B::of(s.pieces[1 - seat]));
        // (`own` holds the piece itself, on `from`: never a far cell of its neighbours.)
        let ok = self.flank_set(own, B::of(enemy))
            & empty
            & B::of(self.nbrs[usize::from(from) & (SLOTS - 1)]);
        let n = ok.ones() as usize;
        if n == 0 {
            let _ = pick(1);
            return (CustodialMove::Pass, 1);
        }
        let mut k = pick(n);
        for &to in &self.nbr[usize::from(from)] {
            if to != NONE && ok.wide() >> to & 1 == 1 {
                if k == 0 {
                    return (CustodialMove::Step { from, to }, n);
                }
                k -= 1;
            }
        }
        unreachable!("k is below the count")
    }

    /// Random play's normal movement decision under a `fused` reading on a 64-bit board: the
    /// `k`-th step found by counting, played in registers when it eats nothing (the common
    /// case), otherwise handed to [`Custodial::apply_step`]. Exactly `choose` then `apply`
    /// (a test holds them equal). Only the counts of steps by direction and the two boards
    /// are kept across the draw (the draw's generator may be refilled there, which costs the
    /// registers): the chosen direction's targets are recomputed after it as one rotation by
    /// the direction's amount and a mask, the same rotation back giving the cell left.
    #[inline(always)]
    fn play_plain_narrow(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let own = s.pieces[seat] as u64;
        let enemy = s.pieces[seat ^ 1] as u64;
        let empty = self.full as u64 & !(own | enemy);
        let t = self.targets(own, empty);
        let c0 = t[0].count_ones();
        let c1 = c0 + t[1].count_ones();
        let c2 = c1 + t[2].count_ones();
        let total = c2 + t[3].count_ones();
        if total == 0 {
            let _ = pick(1);
            self.apply(s, CustodialMove::Pass, events);
            return (1, true);
        }
        let k = pick(total as usize) as u32;
        // The direction block holding the k-th move, its first index and its rotation, by
        // conditional moves: a branch on the direction mispredicts at every random pick, and
        // a table indexed by it goes through memory.
        let ge = [k >= c0, k >= c1, k >= c2];
        let rot = pick4(ge, self.back[0]);
        let x = own.rotate_left(rot) & pick4(ge, self.step_mask) & empty;
        let target = nth_bit_sparse(x, k - pick4(ge, [0, c0, c1, c2]));
        // The cell left is the target's bit moved one cell back, the rotation undone (it
        // never wraps: that cell is on the board).
        let left = target.rotate_right(rot);
        // (`own` still holds the cell the piece left: never a far cell of the target.)
        if self.flank_set(own, enemy) & target != 0 {
            // Something is enclosed (perhaps only a safe piece on the middle cell).
            let (from, to) = (left.trailing_zeros() as u8, target.trailing_zeros() as u8);
            self.apply_step::<u64>(s, seat, from, to, events);
            return (total as usize, false);
        }
        let sandwich = self.between_set(enemy) & self.sandwich_cells as u64;
        self.plain_tail(
            s,
            seat,
            u128::from(own ^ target ^ left),
            sandwich & target != 0,
            target.trailing_zeros() as u8,
            events,
        );
        (total as usize, false)
    }

    /// Random play's normal movement decision under a `fused` reading on a 128-bit board: the
    /// `k`-th step found by counting, played in registers when it eats nothing (the common
    /// case), otherwise handed to [`Custodial::apply_step`]. Exactly `choose` then `apply` (a
    /// test holds them equal). The captures and the sandwich are read from the tables at the
    /// chosen cell, as the whole-board sets of [`Custodial::play_plain_narrow`] cost twice
    /// the instructions here.
    #[inline(always)]
    fn play_plain_wide(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let own = s.pieces[seat];
        let enemy = s.pieces[seat ^ 1];
        let empty = self.full & !(own | enemy);
        let t = self.targets(own, empty);
        let c0 = t[0].count_ones();
        let c1 = c0 + t[1].count_ones();
        let c2 = c1 + t[2].count_ones();
        let total = c2 + t[3].count_ones();
        if total == 0 {
            let _ = pick(1);
            self.apply(s, CustodialMove::Pass, events);
            return (1, true);
        }
        let k = pick(total as usize) as u32;
        // The direction block holding the k-th move, its first index and the offset back to
        // the piece that steps, by conditional moves (see `play_plain_narrow`).
        let ge = [k >= c0, k >= c1, k >= c2];
        let (target, to) = nth_bit_wide(pick4(ge, t), k - pick4(ge, [0, c0, c1, c2]));
        let n = self.n as u8;
        let from = to.wrapping_add(pick4(ge, [n.wrapping_neg(), u8::MAX, n, 1]));
        let at = usize::from(to);
        // (`own` still holds the cell the piece left: never a far cell of `at`.)
        if self.encloses_any(own, enemy, at) {
            self.apply_step::<u128>(s, seat, from, to, events);
            return (total as usize, false);
        }
        let moved = own ^ target ^ self.bit[usize::from(from) & (SLOTS - 1)];
        // (As `flanked`, with nothing eaten; a `fused` reading has safe sandwiches.)
        let sandwiched = self.between(enemy, at) && self.sandwich_cells & target != 0;
        self.plain_tail(s, seat, moved, sandwiched, to, events);
        (total as usize, false)
    }

    /// The rest of a plain step that eats nothing, from `moved`, the mover's pieces after it.
    #[inline(always)]
    fn plain_tail(
        &self,
        s: &mut CustodialState,
        seat: usize,
        moved: u128,
        sandwiched: bool,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        // (A plain state has its first mover: `tick` less that test.)
        s.clock.setup_tick(seat as u8);
        s.clock.clear_passes();
        s.quiet += 1;
        s.pieces[seat] = moved;
        if sandwiched {
            events.emit(CustodialEvent::SandwichSafe { cell: to });
        }
        s.mover = (seat ^ 1) as u8;
        // Nothing was eaten, nobody passed, and the stall rule is `none`: of the end tests
        // only the cap can fire, and a blocked player to move just passes.
        if self.cap_reached(s).is_some() {
            self.after_decision(s, seat, events);
            self.settle(s);
        }
    }

    /// Which cap the game has reached, if any: [`Limit::reached`] behind one compare.
    #[inline(always)]
    fn cap_reached(&self, s: &CustodialState) -> Option<EndReason> {
        if s.clock.plies() < self.cap_plies {
            None
        } else {
            self.limit.reached(&s.clock)
        }
    }

    /// A step of `seat` exactly as [`Rules::apply`] plays it, for random play's fused paths
    /// (kept out of line: the hot loop stays small).
    #[inline(never)]
    fn apply_step<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        from: u8,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        s.clock.tick(seat as u8);
        if !self.step::<B>(s, seat, from, to, events) {
            s.mover ^= 1;
        }
        self.after_decision(s, seat, events);
        self.settle(s);
    }

    /// Random play's decision after a capture under `step: one` and single captures:
    /// `choose_continuation` then the step (or the pass), as `choose` then `apply`.
    #[inline(always)]
    fn play_continuation<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        match self.choose_continuation::<B>(s, seat, pick) {
            (CustodialMove::Step { from, to }, n) => {
                self.apply_step::<B>(s, seat, from, to, events);
                (n, false)
            }
            (mv, n) => {
                self.apply(s, mv, events);
                (n, true)
            }
        }
    }

    /// Random play's placement of one piece (not `placing: pair`'s two): the `k`-th empty
    /// cell but the middle, drawn from the bit board as `choose` draws it from the list, then
    /// played as `apply` plays it. While the next seat still places and nothing is eaten
    /// (nor is a piece placed on the middle) only the cap can end the game, so the end tests
    /// run only when it may, or when the hands run out.
    #[inline(always)]
    fn play_place<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let cells = self.placeable & !(s.pieces[0] | s.pieces[1]);
        let n = cells.count_ones() as usize;
        let k = pick(n) as u32;
        // (On a 128-bit board the word first, as for a step's target.)
        let c = if B::BITS > 64 {
            nth_bit_wide(cells, k).1
        } else {
            nth_cell(cells as u64, k)
        };
        s.clock.tick(seat as u8);
        if !self.place::<B>(s, seat, c, events) {
            s.mover ^= 1;
        }
        // (The state was not plain, and with a hand to place from it stays so: no `settle`.)
        if self.p.placement_capture
            || s.hand[usize::from(s.mover & 1)] == 0
            || s.clock.plies() >= self.cap_plies
        {
            self.after_decision(s, seat, events);
            self.settle(s);
        }
        (n, false)
    }

    /// A placement of `seat` on `c` and what follows from it before the end tests; whether
    /// `seat` decides again.
    #[inline(always)]
    fn place<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        c: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> bool {
        s.hand[seat] -= 1;
        s.pieces[seat] |= self.bit[usize::from(c) & (SLOTS - 1)];
        s.placed += 1;
        s.clock.clear_passes();
        let at = usize::from(c);
        if self.p.placement_capture {
            if self.eat(s, seat, at, events) > 0 {
                events.emit(CustodialEvent::PlacementCapture { cell: c });
            }
        } else if self.captures_at_in::<B>(&s.pieces, seat, at) {
            events.emit(CustodialEvent::PlacementFlank { cell: c });
        }
        self.end_of_placing(s, seat)
    }

    /// A step and all that follows from it (captures, the sandwich, the move after a
    /// capture); whether the same seat decides again. Generic over the bit board so that
    /// boards up to 8 × 8 are played in 64-bit words.
    #[inline(always)]
    fn step<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        from: u8,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> bool {
        let continuing = s.cont != NONE;
        if s.must_open {
            // Did the rules make him open a line (or could he not)?
            let mut moves = Vec::new();
            self.steps(s, seat, u128::MAX, &mut moves);
            if moves.iter().any(|&m| self.opens(s, seat, m)) {
                events.emit(CustodialEvent::Opening { seat });
            } else {
                events.emit(CustodialEvent::NoOpening { seat });
            }
            s.must_open = false;
        }
        s.clock.clear_passes();
        s.cont = NONE;
        if self.p.step == Step::Rook {
            let d = to.abs_diff(from);
            let distance = if d < self.n as u8 {
                d
            } else {
                d / self.n as u8
            };
            if distance > 1 {
                events.emit(CustodialEvent::LongStep { cells: distance });
            }
        } else if self.p.step == Step::Jump
            && to.abs_diff(from) != 1
            && to.abs_diff(from) != self.n as u8
        {
            // A jump: the cell jumped over lies half way.
            events.emit(CustodialEvent::Jump {
                over: ((u16::from(from) + u16::from(to)) / 2) as u8,
            });
        }
        let at = usize::from(to);
        let moved = self.bit[usize::from(from) & (SLOTS - 1)] | self.bit[at & (SLOTS - 1)];
        s.pieces[seat] = (B::of(s.pieces[seat]) ^ B::of(moved)).wide();
        let (eaten, grant_loose) = match self.p.capture_line {
            CaptureLine::Single => self.eat_single::<B>(s, seat, at, events),
            // (The loose test is refused with lines.)
            CaptureLine::Line => (self.eat(s, seat, at, events), false),
        };
        if eaten > 0 {
            s.quiet = 0;
            if self.p.stall == Stall::Repetition {
                s.seen.clear();
            }
            if self.p.compulsory_capture && !continuing {
                events.emit(CustodialEvent::CaptureForced);
            }
        } else {
            s.quiet += 1;
        }
        if self.flanked::<B>(&s.pieces, seat, at) {
            if self.p.sandwich == Sandwich::Suicide {
                events.emit(CustodialEvent::Suicide { cell: to });
                s.pieces[seat] &= !self.bit[at & (SLOTS - 1)];
                s.lost[seat] += 1;
                return false;
            }
            events.emit(CustodialEvent::SandwichSafe { cell: to });
        }
        if eaten == 0 {
            return false;
        }
        if self.loose {
            if grant_loose {
                events.emit(CustodialEvent::LooseContinuation { cell: to });
                s.cont = to;
            }
            return grant_loose;
        }
        if !self.can_capture_from(&s.pieces, seat, at) {
            return false;
        }
        match self.p.continuation {
            Continuation::WhileCapturing => {
                events.emit(CustodialEvent::Continuation { cell: to });
                s.cont = to;
                true
            }
            Continuation::None => {
                events.emit(CustodialEvent::ContinuationForgone { cell: to });
                false
            }
        }
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

    fn move_text(&self, mv: CustodialMove) -> String {
        self.display(mv)
    }

    fn event_text(&self, event: &CustodialEvent) -> String {
        let name = |c: u8| cell_name(usize::from(c), self.n);
        let kind = event.kind().name();
        match *event {
            CustodialEvent::Capture { cell }
            | CustodialEvent::Suicide { cell }
            | CustodialEvent::SandwichSafe { cell }
            | CustodialEvent::PlacementCapture { cell }
            | CustodialEvent::PlacementFlank { cell }
            | CustodialEvent::Continuation { cell }
            | CustodialEvent::LooseContinuation { cell }
            | CustodialEvent::ContinuationForgone { cell }
            | CustodialEvent::Jump { over: cell } => format!("{kind} {}", name(cell)),
            _ => event.to_string(),
        }
    }

    fn state_text(&self, s: &CustodialState) -> String {
        format!("{} hands={}-{}", self.board_text(s), s.hand[0], s.hand[1])
    }
}
