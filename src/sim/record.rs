//! How one game ended, the figures a tally takes of it ([`Played`]), and the record a run
//! keeps of it (for CSV output and the store).
//!
//! Every loop that plays a game to its end counts it by [`game_end`], so that a game the
//! rules cannot finish is a timeout everywhere, never a draw.

use crate::games::{EndReason, Outcome, Result_, Seat};

/// How one game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEnd {
    /// The game ended (naturally, by an engine rule, or at an engine cap).
    Over(Outcome),
    /// The game did not finish: the run's ply limit stopped a reading with no cap of its
    /// own, or the rules found a move or replay that would go on for ever.
    Timeout(Timeout),
}

/// Why a game is a timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// The run's `--max-plies`.
    PlyLimit,
    /// The run's `--max-quiet`: that many plies with no change in any seat's material.
    QuietLimit,
    /// An engine's own search bound inside a forced stretch ([`EndReason::SearchLimit`]: a
    /// relay or idle stages still going at their bound with no cycle found): censored like a
    /// game at the ply limit, since nothing was proved, but no higher `--max-plies` would
    /// take it further.
    SearchLimit,
    /// A cycle the rules detected (a relay or a replay that would never end).
    Cycle,
    /// The rules proved that no end can be reached any more ([`EndReason::Endless`]).
    Endless,
}

impl Timeout {
    /// Every reason.
    pub const ALL: [Timeout; 5] = [
        Timeout::PlyLimit,
        Timeout::QuietLimit,
        Timeout::SearchLimit,
        Timeout::Cycle,
        Timeout::Endless,
    ];

    /// Whether the game was stopped by a limit (censored: its outcome is unknown, its length
    /// more than where it stopped), rather than proved never to end.
    pub fn censored(self) -> bool {
        matches!(
            self,
            Timeout::PlyLimit | Timeout::QuietLimit | Timeout::SearchLimit
        )
    }

    /// Whether a limit of the run stopped the game (`--max-plies`, `--max-quiet`): the
    /// games a raised limit takes further.
    pub fn by_run_limit(self) -> bool {
        matches!(self, Timeout::PlyLimit | Timeout::QuietLimit)
    }

    /// A stable name.
    pub fn name(self) -> &'static str {
        match self {
            Timeout::PlyLimit => "ply-limit",
            Timeout::QuietLimit => "quiet-limit",
            Timeout::SearchLimit => "search-limit",
            Timeout::Cycle => "cycle",
            Timeout::Endless => "endless",
        }
    }
}

/// One simulated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Its index in the run.
    pub index: u64,
    /// How it ended.
    pub end: GameEnd,
    /// Decisions (forced passes included).
    pub plies: u32,
    /// Turns.
    pub turns: u32,
    /// Passes.
    pub passes: u32,
    /// The seat that made the first decision of play, if any decision was made.
    pub first_mover: Option<Seat>,
    /// How often each event kind occurred, by kind index.
    pub events: Vec<u32>,
    /// How often an event was flagged at each place of the run's
    /// [`Coverage`](super::Coverage) (an `uncovered:` or `borrowed:` place), by place index.
    pub flags: Vec<u64>,
}

/// How a finished game counts: a game the rules cannot finish (a cycle, an endless
/// position) is a timeout detected early, never a draw. Every loop that plays games to
/// their end (`run`'s, `trace`, the agents') counts them by this.
///
/// # Panics
/// If `outcome` is `None`: a game over has an outcome.
pub fn game_end(outcome: Option<Outcome>) -> GameEnd {
    let outcome = outcome.expect("a finished game has an outcome");
    if outcome.result == Result_::Unfinished {
        GameEnd::Timeout(match outcome.end {
            EndReason::Endless => Timeout::Endless,
            EndReason::SearchLimit => Timeout::SearchLimit,
            _ => Timeout::Cycle,
        })
    } else {
        GameEnd::Over(outcome)
    }
}

/// Per-game figures that the aggregate needs, without allocating.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Played {
    pub(super) end: GameEnd,
    pub(super) first: Option<Seat>,
    pub(super) plies: u32,
    pub(super) turns: u32,
    pub(super) passes: u32,
    pub(super) decisions: u64,
    pub(super) legal: u64,
    /// Plies since any seat's material ([`Rules::material`](crate::games::Rules::material))
    /// was last seen to change, checked every [`QUIET_CHECK`](super::playout::QUIET_CHECK)
    /// plies: a lower bound of the quiet stretch that ends the game.
    pub(super) quiet: u32,
    /// What `assess` measured of the game, when it asked.
    pub(super) metrics: Option<super::GameMetrics>,
}
