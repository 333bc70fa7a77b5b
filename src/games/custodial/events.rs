//! The custodial events: the kinds (their stable names and the parameters that decide each,
//! in one [`event_kinds!`] table), and the events with their data. Their text is in `text`.

use super::*;

event_kinds! {
    /// The kinds of custodial event.
    pub enum CustodialEventKind;
    endless = ["stall", "blocked", "cap", "voluntary_pass", "all_pass_draw"];
    /// The toss decided who places first.
    Lot = "lot" ["starter"],
    /// A piece was eaten.
    Capture = "capture" [] in ["capture_line"],
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
    TotalCapture = "total-capture" [] in ["blocked"],
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
