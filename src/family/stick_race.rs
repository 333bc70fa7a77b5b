//! The stick-race family's parameters: Sijat El Taba as Davies and its later readers describe
//! it.
//!
//! Two armies of counters run along boustrophedon tracks over a board of rows of houses, both
//! the same way in every row, so that they "never meet each other, but they may catch each
//! other up". Moves come from three casting sticks (a tâba scores 1, a yômên 2, a rabî' 4, a
//! séta 6, with chances 3/8, 3/8, 1/8, 1/8); a player throws until a yômên stops him, tâbas
//! are banked to his credit, one is needed to release each counter, and spare ones help to
//! overtake. Every open point of the sources (how a counter is released, whether eating is by
//! landing or by overtaking, what credits can pay for, an unusable throw, the end of the track
//! and of the game) is one parameter here.
//!
//! The hyena game (Li'b el-Merafib) shares the sticks but none of the rest of this
//! vocabulary (mothers, the well and its costs, the hyena), so it will have its own
//! parameter table; see ARCHITECTURE.md.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::family_params;
pub use super::{Cap, CapOutcome, Starter};

family_params! {
    /// Every parameter of a stick race, fully resolved for one interpretation.
    pub struct StickRaceParams / StickRaceSets {
        rule {
            /// Rows of houses on the board, 2 to 8 (Davies: six, or four for a shorter game).
            rows: u8,
            /// Houses in each row, 2 to 16 (Davies: ten).
            cols: u8,
            /// Counters each player has, at most one row's worth (Davies: six).
            pieces: u8,
            /// Where the counters start, on the first houses of the owner's track:
            /// `split-ends` (half at each end of his nearest row, the DLP's reading of the lost
            /// Fig. 12) or `together` (side by side from the start of his track).
            start: Start,
            /// Who throws first: `first-seat` (always seat 1) or `lot` (a chance step with two
            /// equally likely outcomes).
            starter: Starter,
            /// Whether the yômên (a throw of 2) that ends a turn is itself played (`true`: the
            /// counter moves 2, then the sticks pass) or only stops the player (`false`).
            yomen_played: bool,
            /// What releases a counter from its starting house: `fresh` (a tâba just thrown,
            /// which is then not banked) or `credit` (every tâba is banked, and a banked tâba
            /// is spent to release a counter, as a decision of its own before the throw in hand
            /// is used).
            release: Release,
            /// Whether a released counter also moves one house (`true`) or only becomes free
            /// to move (`false`).
            release_moves: bool,
            /// How a counter is eaten: `landing` (a counter ends its move on it), `overtaking`
            /// (a counter passes over it; landing on an enemy is not allowed) or `both`.
            capture: Capture,
            /// Which enemies one move eats when it passes several: `all` of them or only the
            /// `first` one passed (the landing house counts as passed last).
            overtaken: Overtaken,
            /// What spare tâbas can do: `none`; `any` (any number of banked tâbas, one house
            /// each, may be added to a throw, only to make a move that eats); `all` (all of the
            /// banked tâbas or none, only to make a move that eats: Ludii, whose capture is by
            /// landing); `spare` (as `any`, but only the tâbas beyond those the counters not
            /// yet released will need, where banked tâbas release counters; where only a
            /// freshly thrown tâba releases one, every banked tâba is spare).
            credits: Credits,
            /// A throw of 2, 4 or 6 that no counter can use: `throw-again` (it is lost and the
            /// player throws again; a 2 still ends the turn) or `end-turn` (it is lost and the
            /// turn ends).
            unusable: Unusable,
            /// Whether a player must use a throw he can use (`true`), or may let it go
            /// (`false`: a pass among the legal moves).
            must_move: bool,
            /// A move that would go past the last house of the track: `illegal` (the counter
            /// must land exactly and otherwise cannot make that move), `stop` (it stops on the
            /// last house) or `bear-off` (it leaves the board, its race run, and can neither
            /// eat nor be eaten again).
            overshoot: Overshoot,
            /// What ends the game: `final-rows` (every counter left of both sides stands in
            /// its last row, or has borne off, so that no capture is possible: Ludii) or
            /// `annihilation` (one side has no counter left on the board). The player who has
            /// eaten more wins; equal numbers draw.
            end: End,
        }
        engine {
            /// A limit on game length as an engine imposes it (see the sowing family):
            /// `moves` (required) and optionally `turns`, and what a capped game scores as.
            /// Default: no cap.
            cap: Option<Cap> = None,
            /// Ludii 1.0.8's credit defect (TRACES.md §7): with no tâba banked, the stored
            /// value reads as −1, so the "all credits" capture reaches an enemy one house short
            /// of the throw. Needs `credits: all`. Default: `false`.
            ludii_empty_credit_minus_one: bool = false,
        }
    }
}

/// The starting houses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Start {
    /// Half at each end of the nearest row.
    SplitEnds,
    /// Side by side from the start of the track.
    Together,
}

/// What releases a counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Release {
    /// A tâba just thrown.
    Fresh,
    /// A banked tâba.
    Credit,
}

/// How a counter is eaten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Capture {
    /// By a counter landing on it.
    Landing,
    /// By a counter passing over it.
    Overtaking,
    /// Either.
    Both,
}

/// Which of several enemies passed are eaten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Overtaken {
    /// Every one.
    All,
    /// The first one.
    First,
}

/// What banked tâbas can pay for besides releasing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Credits {
    /// Nothing.
    None,
    /// Any number, added to a throw to eat.
    Any,
    /// All or none, added to a throw to eat by landing.
    All,
    /// Any number beyond those still needed for releases.
    Spare,
}

/// A throw no counter can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Unusable {
    /// Lost; the player throws again (unless it was a 2).
    ThrowAgain,
    /// Lost; the turn ends.
    EndTurn,
}

/// A move past the end of the track.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Overshoot {
    /// Not allowed.
    Illegal,
    /// Stops on the last house.
    Stop,
    /// Leaves the board.
    BearOff,
}

/// What ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Every counter in its last row (or borne off).
    FinalRows,
    /// One side has no counter on the board.
    Annihilation,
}
