//! The custodial family's parameters: Seega (Sija) as Davies and its later readers describe it.
//!
//! The board is a square of `size × size` cells with an empty middle cell. Each player places
//! his pieces ("dogs") from the hand, a few per turn, never on the middle cell; then the
//! players move them along ranks and files, and a piece flanked on a rank or file by the
//! mover is "eaten". Every open point of the sources (how far a piece moves, what a blocked
//! player does, whether the middle cell protects, what ends a game that stalls) is one
//! parameter here.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::family_params;
pub use super::{Cap, CapOutcome, Starter};

family_params! {
    /// Every parameter of a custodial game, fully resolved for one interpretation.
    pub struct CustodialParams / CustodialSets {
        rule {
            /// Cells along each side of the square board: an odd number from 3 to 11 (Davies'
            /// twenty-five squares: 5).
            size: u8,
            /// Pieces each player places (at most (size² − 1) / 2, so that the middle cell
            /// can stay empty).
            pieces: u8,
            /// Pieces a player places in one turn (Davies: two).
            per_turn: u8,
            /// Who places first: `first-seat` (always seat 1) or `lot` (the toss: a chance
            /// step with two equally likely outcomes).
            starter: Starter,
            /// Who makes the first move once every piece is placed: the `first-placer` (the
            /// winner of the toss) or the `last-placer`.
            first_mover: FirstMover,
            /// What happens when the first mover has no move at the start of play:
            /// `as-blocked` (the rule for a blocked player, `blocked`, applies),
            /// `other-moves` (the other player moves first instead), `redo-placement` (the
            /// board is cleared and placed again) or `loses`.
            first_blocked: FirstBlocked,
            /// How far a piece moves: `one` (to an orthogonally adjacent empty cell),
            /// `rook` (any distance along a rank or file through empty cells) or `jump` (a
            /// one-cell step, or a jump over one adjacent piece of either side to the empty
            /// cell just beyond it on the same rank or file; the piece jumped over is not
            /// harmed, only the landing eats, as any move's does, and a move makes one jump
            /// at most).
            step: Step,
            /// A piece that moves in between two enemy pieces: `safe` (only the mover's
            /// action captures) or `suicide` (it is removed, as any flanked piece is).
            sandwich: Sandwich,
            /// What is eaten in one direction: a `single` enemy piece between the moved piece
            /// and a friendly one, or an unbroken `line` of enemy pieces so enclosed.
            capture_line: CaptureLine,
            /// Whether a player who can capture must choose a capturing move.
            compulsory_capture: bool,
            /// After a capture: `none` (the turn ends) or `while-capturing` (the same piece
            /// moves again while it can make a further capturing step; the further move is
            /// obligatory).
            continuation: Continuation,
            /// Whether a placement that encloses an enemy piece eats it.
            placement_capture: bool,
            /// Whether a piece standing on the middle cell cannot be eaten.
            centre_safe: bool,
            /// A player to move who has no move: `pass` (he passes; the other moves again),
            /// `opponent-opens` (he passes, and the other must, if he can, make a move that
            /// gives him one), `loses`, or `count` (the game ends and the pieces left are
            /// counted: more pieces win, equal counts draw).
            blocked: Blocked,
            /// An end for games that cannot reach total capture: `none` (only total capture
            /// ends the game; one that never ends is a timeout at the run's ply limit, or
            /// meets an engine cap), `repetition` (a position that recurs with the same player
            /// to move ends it), `no-capture` (`stall_plies` decisions without a capture end
            /// it) or `barrier` (it ends at a movement decision where a barrier stands: the
            /// two sides are walled off, no empty cell being reached by both, a side reaching
            /// every empty cell joined to one of its pieces along ranks and files through empty
            /// cells and its own pieces, and under `step: jump` by jumps over any piece; and
            /// neither side is made to open its wall, each having no move or a move after
            /// which they are still walled off. Then neither side can bring a piece next to an
            /// enemy piece, and so eat, unless the other chooses to open its own wall).
            stall: Stall,
            /// Decisions without a capture that end the game under `stall: no-capture`
            /// (ignored otherwise).
            stall_plies: u32,
            /// How a game ended by `stall` scores: a `draw`, or `count` (more pieces win).
            stall_result: StallResult,
            /// Whether a player who can move may pass instead.
            voluntary_pass: bool,
        }
        engine {
            /// A limit on game length as an engine imposes it (see the sowing family):
            /// `moves` (required) and optionally `turns`, and what a capped game scores as.
            /// Default: no cap.
            cap: Option<Cap> = None,
            /// Ludii's implicit rule: the game is a draw as soon as the last two decisions
            /// were both passes, tested after the end rule. Default: `false`.
            all_pass_draw: bool = false,
            /// Ludii 1.0.8's loose test for the move after a capture (TRACES.md §6): the
            /// extra decision is granted when any enemy piece two steps around the landing
            /// cell is flanked (or the opponent has no step), before the captured pieces are
            /// removed, and the piece may then step only next to an enemy with a friend
            /// behind it, the middle cell not excepted; with no such step the player makes a
            /// forced pass. It decides the move after a capture in place of `continuation`
            /// (Ludii's test of its `while-capturing` rule, as Ludii plays it whatever the
            /// reading's continuation). Needs `step: one` and `capture_line: single`.
            /// Default: `false`.
            ludii_loose_continuation: bool = false,
            /// How a placing turn's pieces are decided: `each` (a decision per piece: the
            /// second is chosen with the first on the board, and under `placement_capture`
            /// after the first has eaten, as Ludii's encodings place) or `pair` (the turn's two
            /// pieces are one decision, both cells chosen together; they land at once, and
            /// under `placement_capture` both then eat). A turn with one piece left in hand
            /// places it alone. `pair` needs `per_turn: 2`. Default: `each`.
            placing: Placing = Placing::Each,
        }
    }
}

/// Who moves first once the pieces are placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FirstMover {
    /// The player who placed first (the toss winner).
    FirstPlacer,
    /// The player who placed last.
    LastPlacer,
}

/// The first mover cannot move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FirstBlocked {
    /// The blocked-player rule applies.
    AsBlocked,
    /// The other player moves first.
    OtherMoves,
    /// The pieces are placed again.
    RedoPlacement,
    /// The first mover loses.
    Loses,
}

/// How far a piece moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// One cell.
    One,
    /// Any distance through empty cells.
    Rook,
    /// One cell, or a jump over one adjacent piece.
    Jump,
}

/// A piece moving in between two enemies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Sandwich {
    /// It is safe.
    Safe,
    /// It is removed.
    Suicide,
}

/// What one direction of a capture takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureLine {
    /// Exactly one enemy piece.
    Single,
    /// An unbroken line of enemy pieces.
    Line,
}

/// The move after a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Continuation {
    /// The turn ends.
    None,
    /// The same piece moves on while it captures.
    WhileCapturing,
}

/// A player with no move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Blocked {
    /// He passes.
    Pass,
    /// He passes; the other must open a line for him if he can.
    OpponentOpens,
    /// He loses.
    Loses,
    /// The pieces are counted.
    Count,
}

/// An end for a stalled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Stall {
    /// Only total capture ends the game.
    None,
    /// A recurring position ends it.
    Repetition,
    /// A run of decisions without a capture ends it.
    NoCapture,
    /// The two sides walled off from each other end it.
    Barrier,
}

/// How a stalled game scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StallResult {
    /// A draw.
    Draw,
    /// More pieces win.
    Count,
}

/// How a placing turn's pieces are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Placing {
    /// One decision per piece.
    Each,
    /// The turn's pair of pieces as one decision.
    Pair,
}

/// The static "cannot end" check of the custodial family ([`super::FamilyParams::cannot_end`]):
/// none is known. Every reading can end by total capture (a seat with two pieces or more
/// can sandwich a lone enemy), and the positions from which no capture can ever happen (one
/// dog each) are found in play by the engine and ended as endless there; no combination of
/// values alone rules every end out.
pub fn cannot_end(_: &CustodialParams) -> Option<String> {
    None
}
