//! The stick-race family's parameters: Sijat El Taba as Davies and its later readers describe
//! it.
//!
//! Two armies of counters run along tracks over a board of rows of houses (a boustrophedon,
//! both armies the same way in every row; a circuit round the board, both the same way round;
//! or separate lanes), so that they "never meet each other, but they may catch each other
//! up". Moves come from three casting sticks (a tâba scores 1, a yômên 2, a rabî' 4, a séta 6,
//! with chances 3/8, 3/8, 1/8, 1/8); a player throws until a yômên stops him, tâbas
//! are banked to his credit, one is needed to release each counter, and spare ones help to
//! overtake. Every open point of the sources (where the tracks run, how a counter is
//! released, whether eating is by landing or by overtaking, whether a counter may stand beside
//! an enemy or its own, what credits can pay for, an unusable throw, the end of the track and of the
//! game) is one parameter here.
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
            /// which is then not banked), `credit` (every tâba is banked, and a banked tâba
            /// is spent to release a counter, as a decision of its own before the throw in hand
            /// is used) or `at-throw` (only when a tâba has just been thrown: that tâba
            /// releases a counter instead of being banked, and banked tâbas may release others
            /// first, one each, as decisions of their own; with a 2, 4 or 6 in hand no counter
            /// is released).
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
            /// freshly thrown tâba releases one, every banked tâba is spare); `any-move` (any
            /// number of banked tâbas, one house each, may be added to a throw in any move,
            /// whether it eats or not, or move a counter alone as a decision of its own, the
            /// throw in hand still to be used).
            credits: Credits,
            /// A throw of 2, 4 or 6 that no counter can use: `throw-again` (it is lost and the
            /// player throws again; a 2 still ends the turn), `end-turn` (it is lost and the
            /// turn ends) or `bank` (it is marked up to the player's credit at its score, as
            /// that many tâbas of one house each, and he throws again; a 2 still ends the
            /// turn).
            unusable: Unusable,
            /// Whether a player must use a throw he can use (`true`), or may let it go
            /// (`false`: a pass among the legal moves).
            must_move: bool,
            /// A move that would go past the last house of the track: `illegal` (the counter
            /// must land exactly and otherwise cannot make that move), `stop` (it stops on the
            /// last house), `bear-off` (it leaves the board, its race run, and can neither
            /// eat nor be eaten again) or `round` (it goes on round: past its last house it
            /// comes to the first house of its track again, and its course never ends; on a
            /// circuit the first house is the next one, elsewhere the counter goes back to the
            /// start of its track; a move may not go a whole lap or more).
            overshoot: Overshoot,
            /// What ends the game: `final-rows` (every counter left of both sides stands in
            /// its last row, or has borne off, so that no capture is possible: Ludii; the last
            /// row is the last stretch of a row's length of the counter's track, which on a
            /// circuit is not a row of the board), `annihilation` (one side has no counter left
            /// on the board), `courses-run` (every counter left of both sides has finished
            /// its course: borne off, or standing at the end of its track with only its own
            /// counters ahead of it up to the last house; under `overshoot: round` no course
            /// ever ends) or `agreed-time` (the players' agreed time is up: the sticks have
            /// passed `agreed_turns` times, a turn a yômên ends at once included). The player
            /// who has eaten more wins; equal numbers draw.
            end: End,
            /// The counters' tracks: `boustrophedon` (over every house, from the owner's
            /// nearest row to the farthest, each row back the other way, both armies the same
            /// way in every row: the DLP), `circuit` (one closed ring through every house,
            /// which both armies run the same way round, each starting along its nearest row
            /// half a lap ahead of the other; a course is one lap, ending on the house behind
            /// its first; it needs an even number of rows and of houses a row) or `lanes`
            /// (each army its own boustrophedon over its half of the rows, from its nearest
            /// row to the middle; the armies share no house, so none can catch another up).
            track: Track,
            /// Whether a move may end on an enemy counter that it does not eat (`true`: the
            /// counter stands on the enemy's house beside it, and both move on from there) or
            /// not (`false`: a house holds one counter, so such a move cannot be made). Where
            /// landing eats, the case does not arise.
            beside_enemy: bool,
            /// Whether a player's counters may share a house (`true`: a move may end on the
            /// mover's own counters, which then stand there together, and an enemy that eats
            /// on that house eats every counter there, each counting one) or not (`false`: no
            /// move ends on one of the mover's own counters; passing over them is allowed).
            stack: bool,
        }
        engine {
            /// A limit on game length as an engine imposes it (see the sowing family):
            /// `moves` (required) and optionally `turns`, and what a capped game scores as.
            /// Default: no cap.
            cap: Option<Cap> = None,
            /// Ludii 1.0.8's credit defect (TRACES.md §7): with no tâba banked, the stored
            /// value reads as −1, so the "all credits" capture reaches an enemy one house short
            /// of the throw. It acts only in that capture, so only with `credits: all`; with
            /// any other credits rule the reading has no such capture and the setting changes
            /// nothing (as in Ludii, where the defect lives in that capture). Default: `false`.
            ludii_empty_credit_minus_one: bool = false,
            /// What becomes of a game in which nothing that counts can change any more before
            /// its end is reached: no counter of either side can ever move again (none left to
            /// release, none with a move by any throw, with or without tâbas added), or, under
            /// `end: annihilation`, the tracks share no house so no side can be wiped out.
            /// `endless`: it is stopped as unfinished, reason `endless` (no source ends it; a
            /// reading with an engine cap plays on to the cap instead); `decide`: it ends there
            /// and is decided by the numbers eaten, as at the game's own end (a rule that ends
            /// the game when nothing changes, G-4 (b)). Courses that go on round under
            /// `end: courses-run` never end whatever happens, and are stopped as endless
            /// either way (unless capped). Default: `endless`.
            standstill: Standstill = Standstill::Endless,
            /// The players' agreed time under `end: agreed-time`, in turns played by both
            /// (the sticks passing once ends a turn). No source gives a length. Default: 100
            /// (fifty turns each, somewhat more than a game that ends when no more can be
            /// eaten lasts in random play); 1 to 1 000 000.
            agreed_turns: u32 = 100,
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
    /// A tâba just thrown, or banked ones, but only when a tâba has just been thrown.
    AtThrow,
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
    /// Any number, in any move, with a throw or alone, whether it eats or not.
    AnyMove,
}

/// A throw no counter can use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Unusable {
    /// Lost; the player throws again (unless it was a 2).
    ThrowAgain,
    /// Lost; the turn ends.
    EndTurn,
    /// Marked up to the player's credit at its score; he throws again (unless it was a 2).
    Bank,
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
    /// Goes on round: past its last house the counter comes to its first house again.
    Round,
}

/// What ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Every counter in its last row (or borne off).
    FinalRows,
    /// One side has no counter on the board.
    Annihilation,
    /// Every counter left has finished its course.
    CoursesRun,
    /// The agreed time is up.
    AgreedTime,
}

/// The counters' tracks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Track {
    /// Over every row, each back the other way.
    Boustrophedon,
    /// One ring through every house, both armies the same way round.
    Circuit,
    /// Each army its own half of the rows.
    Lanes,
}

/// A game in which nothing can change any more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Standstill {
    /// Stopped as unfinished (`EndReason::Endless`).
    Endless,
    /// Ended and decided by the numbers eaten.
    Decide,
}

/// The static "cannot end" check of the stick-race family
/// ([`super::FamilyParams::cannot_end`]): the combinations under which no game can ever end,
/// with the reason in words, or `None`. A reading with an engine cap always ends (at the
/// cap), so only uncapped ones are examined. Two rules, each a proof:
/// - `end: courses-run` with `overshoot: round`: a course run round never ends, so the end
///   "every counter has finished its course" is never met;
/// - `end: annihilation` with `track: lanes` and `standstill: endless`: the lanes share no
///   house, so no counter can ever be eaten and no side wiped out, and nothing decides the
///   standstill.
pub fn cannot_end(p: &StickRaceParams) -> Option<String> {
    if p.cap.is_some() {
        return None;
    }
    if p.end == End::CoursesRun && p.overshoot == Overshoot::Round {
        return Some(
            "end: courses-run with overshoot: round can never be met: a counter that goes on \
             round never finishes its course, so every game would run to the ply limit; \
             overshoot: illegal, stop or bear-off, another end, or a cap would make it \
             finishable"
                .to_owned(),
        );
    }
    if p.end == End::Annihilation && p.track == Track::Lanes && p.standstill == Standstill::Endless
    {
        return Some(
            "end: annihilation with track: lanes can never be met: the two armies' lanes share \
             no house, so no counter is ever eaten and no side is ever wiped out, and \
             standstill: endless leaves the game undecided; another track, another end, \
             standstill: decide, or a cap would make it finishable"
                .to_owned(),
        );
    }
    None
}
