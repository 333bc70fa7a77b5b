//! The sowing family's parameters: two-row mancala as Davies and Lane describe it.
//!
//! The board is two rows of `holes` houses, one row per player, sown as one closed circuit.
//! Orientation: each player faces his own row, so "left" and "right" are his; "clockwise" is
//! the circuit seen from above with the first seat's row nearest, which takes a counter sown
//! leftward along that row up into the opponent's row. Counts are of counters in a house
//! after the last counter has fallen.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::family_params;
pub use super::{Cap, CapOutcome, Starter};

family_params! {
    /// Every parameter of a sowing game, fully resolved for one interpretation.
    pub struct SowingParams / SowingSets {
        rule {
            /// Houses in each player's row (1–16).
            holes: u8,
            /// Counters in every house at the start (0–64).
            counters: u8,
            /// Who makes the first move: `first-seat` (always seat 1), or `lot` (a chance step
            /// with two equally likely outcomes before the first move).
            starter: Starter,
            /// Which way a house may be sown: `outward` (a house left of the middle toward the
            /// player's left, i.e. clockwise; right of the middle toward his right; the middle
            /// house either way, at his choice), `either` (every house either way),
            /// `clockwise` or `anticlockwise` (every house that way).
            direction: Direction,
            /// The fewest counters a house must hold to be sown: 1 (any non-empty house) or
            /// 2 (a single counter cannot be moved).
            min_sow: u8,
            /// Whether a sowing of more counters than the circuit has other houses skips the
            /// house it started from (`true`) or drops a counter into it too (`false`).
            skip_origin: bool,
            /// Whether a sowing whose last counter falls into an occupied house picks up that
            /// house's counters and goes on (a relay, Um el Banât's "new principle"): `false`
            /// for a single lap. With `true` the sowing stops only when its last counter falls
            /// into an empty house, and the capture rules apply there; a relay that would go
            /// round for ever is detected and dealt with as `relay_cycle` says (by default it
            /// ends the game unfinished, or, in a reading with an engine cap, as a capped
            /// game), and `relay_cap` may cut a relay short.
            relay: bool,
            /// What "a house previously empty" means for stopping a relay: `now` (empty when
            /// the last counter falls, a house emptied earlier in the same move included) or
            /// `before-move` (empty before the move began; a house emptied during the move
            /// relays on).
            empty_stops: EmptyStops,
            /// Daughters (Um el Banât): when a relay's last counter makes `daughter_count` in
            /// one of the opponent's houses, the house becomes the mover's daughter and the
            /// move stops. `none`, `opponent-houses` (the houses the opponent owns now) or
            /// `opponent-original-row` (the opponent's row at the start of the game).
            daughters: Daughters,
            /// The count after the last counter falls that begets a daughter ("falls on to
            /// three others": 4).
            daughter_count: u8,
            /// A relay whose last counter makes `daughter_count` in a house where no daughter
            /// can be begotten (the mover's own): `relay` on, as in any other case, or `stop`.
            own_count: OwnCount,
            /// Counters a peck removes from the opponent's daughter: the last counter and
            /// `peck − 1` others (as many as there are).
            peck: u8,
            /// Where pecked counters go: to the `pecker`'s takings, or `discarded` from play.
            pecked: Pecked,
            /// A daughter's house that pecking empties: it `keeps-mark` (a later peck takes the
            /// last counter alone), `loses-mark` and becomes an ordinary house, or keeps its
            /// mark but counts as a house previously empty (`empty-stops`): a last counter
            /// falling into it while it is empty stops the move there, with no peck.
            emptied_daughter: EmptiedDaughter,
            /// When a stage ends besides the blocked-player rule (`end`): `none`,
            /// `only-daughters` (when no counters are left except in daughters' houses; each
            /// player then takes his daughters' counters), `cleared` (when the board is
            /// empty), or `no-capture` (when the board is empty or no capture is possible any
            /// more).
            ///
            /// "No capture is possible any more" means that no sequence of moves of either
            /// player, with the passes and gifts the rules give, can end in a capture, so the
            /// counters left can never be taken; they then go as `remaining` says. The engine
            /// decides it exactly: at once when fewer counters are left than the smallest
            /// capturing count, and otherwise by trying every position the board can reach
            /// without a capture, which it does once at most 16 counters are left, giving up
            /// (the board goes on) after 50 000 positions.
            stage_end: StageEnd,
            /// Stages: `none` (the game is one stage, scored by the totals) or `fours` (the
            /// holdings are divided into fours, the board is reset with one house per four, a
            /// remainder of three borrows one from the opponent and one of one or two is
            /// borrowed back by him, and play goes on until a player is driven off).
            rounds: Rounds,
            /// Borrowing between stages: an outright `transfer`, or a `debt` repaid at the
            /// next reckoning (as far as the debtor's holding goes; the rest stays owed).
            borrowing: Borrowing,
            /// Where the larger holder's extra houses lie in the other's row: `downstream`
            /// (the houses his own row sows into), `upstream` (those that sow into it), or
            /// `chosen` by the larger holder at the reset, at either end (a move of his).
            extra_houses: ExtraHouses,
            /// Who moves first in a later stage: the `larger` holder (the first seat on equal
            /// holdings), the `smaller`, `continue` (whoever would have moved next), the
            /// `first-seat`, or the larger holder and on equal holdings whoever would have
            /// moved next (`larger-else-continue`).
            round_starter: RoundStarter,
            /// When a player is driven off the board: at a `reckoning` that leaves him no
            /// house, when his hand is `empty-hand` at a reckoning (before borrowing), also
            /// during a stage, as soon as the houses he owns hold `no-counters`, or at a
            /// reckoning when he holds less than a full four before any borrowing
            /// (`no-full-four`), or only when his hand is empty at a reckoning before any
            /// borrowing (`empty-hand-only`: a reckoning that leaves him no house does not
            /// drive him off; he owns no house in the next stage and passes through it).
            driven_off: DrivenOff,
            /// Whether daughters' marks survive the reset of the board between stages.
            daughters_carry: bool,
            /// When a relay goes on: `occupied` (the last counter fell into a house that held
            /// counters), `odd` (the count it made is odd; a house that was empty stops the
            /// move) or `odd-or-empty` (any odd count, one counter in an empty house included).
            relay_when: RelayWhen,
            /// Whether a capture also takes the house opposite: `none`, `last` (with the last
            /// house only) or `every` (with each house the capture takes).
            opposite: Opposite,
            /// When a player's row is empty at the start of the opponent's turn, the opponent
            /// must give him one counter into his leftmost house: `none`, `takes-turn` (the
            /// gift is the giver's whole turn) or `extra` (the giver then also sows).
            gift: Gift,
            /// How the counters are set out for a board: `even` (`counters` in every house),
            /// or by the distributing player, all `2 × holes × counters` of them, without
            /// counting: in `corresponding` houses of his choice (occupied houses correspond,
            /// the only rule), the `conventional-four` middle houses of each row,
            /// `half-and-half` (about half, three to five eighths, into his first house A and
            /// the rest into its corresponding house a), `one-a-side` (any one house of his
            /// choice and its corresponding house, any amounts), `all-houses` (every house of
            /// both rows holds counters), `lane-manners` (he first chooses one of the four
            /// manners `conventional-four`, `half-and-half`, `one-a-side` and `all-houses`, a
            /// decision of his, then distributes in it), or `free` (any amounts in any houses,
            /// occupied houses need not correspond).
            distribution: Distribution,
            /// Which house corresponds to a house: the one directly `opposite`, or the same
            /// position counted from the other player's side (`rotated`).
            correspond: Correspond,
            /// Whether the other player may turn the distributed board round (taking the
            /// distributor's side), at the cost of the first move.
            turn_board: bool,
            /// With `rounds: points`: the score that wins the game (at least).
            target: u16,
            /// With `rounds: points`: the board's winner adds the difference (`gross`), or the
            /// difference counts against the loser's total too (`net`).
            points: Points,
            /// With a distribution: who distributes the next board: the `loser` of the last,
            /// the `same` player, the players in turn (`alternate`), or whoever would move
            /// next (`after-last-mover`).
            next_distributor: NextDistributor,
            /// The counts a house must hold after the last counter falls into it for its
            /// counters to be taken (e.g. `[2, 4]`: it held one or three).
            capture_counts: Vec<u8>,
            /// Where the last counter can take: `opponent` (only in the opponent's row),
            /// `own` or `any`.
            capture_rows: Rows,
            /// Whether taking with the last counter is `compulsory` or `optional` (the player
            /// chooses, as part of his move).
            capture_last: Compulsion,
            /// After a capture by the last counter, whether earlier houses are taken too:
            /// `none`, `previous` (only the house before the last, if it holds a capture
            /// count), or `backward` (the house of the penultimate counter if it now holds a
            /// capture count, then the one before, and so on until a house does not). The
            /// chain never takes the house the sowing started from, nor goes past it (as Ludii
            /// does: its backtracking stops at the origin, which it never examines).
            chain: Chain,
            /// Where a chain may take: `opponent` (it stops at the first house outside the
            /// opponent's row), `own` or `any` (either row, back to the house the sowing
            /// started from, which it never takes).
            chain_rows: Rows,
            /// Whether the chain is `compulsory` (taken whole), `optional-all` (all or
            /// nothing, the player's choice) or `optional-each` (the player may stop before
            /// any house of it).
            chain_take: ChainTake,
            /// When the game ends: `neither-can-move` (a blocked player passes; the game ends
            /// when neither player can move), `mover-blocked` (it ends as soon as the player to
            /// move cannot move), `opponent-feeds` (the opponent must, if he can, make a move
            /// that gives the blocked player one; it ends when he cannot), or `row-empty` (it
            /// ends when one player's row is empty; a blocked player passes).
            end: End,
            /// Counters still on the board at the end: `owner` (each player takes those in
            /// his own row) or `uncounted`.
            remaining: Remaining,
            /// Equal totals at the end: a `draw`, or `replay` (the game is played again from
            /// the start, within the same playout).
            tie: Tie,
            /// A position that recurs with the same player to move (the same houses, marks
            /// and owners, within a stage): `none` (no rule; a game that never ends is a
            /// timeout at the run's ply limit), `draw`, `reckon` (the stage, or a game of one
            /// stage, ends and is reckoned as if complete: each father takes his daughters'
            /// counters and those left in ordinary houses are counted as `remaining` says) or
            /// `reckon-takings` (likewise, but reckoned by what each player has removed from
            /// the board plus his daughters: the counters left in ordinary houses leave play).
            repetition: Repetition,
        }
        engine {
            /// A limit on game length as an engine imposes it: `moves` (decisions, passes
            /// included; required, 1 to 1 000 000), optionally `turns` (counted as Ludii counts
            /// them: a turn is a run of moves by one player, the first is turn 1), and what a
            /// capped game scores as (`draw`). Default: no cap.
            cap: Option<Cap> = None,
            /// When the end condition is tested: `immediate` (after every move) or
            /// `all-passed` (only once every player has passed in succession, as Ludii's
            /// `(all Passed)`; the passes are plies of the game). Default: `immediate`.
            end_check: EndCheck = EndCheck::Immediate,
            /// Ludii's implicit rule: the game is a draw as soon as the last moves of all
            /// players are passes, tested after the end rules. Default: `false`.
            all_pass_draw: bool = false,
            /// Ludii's map-value-0 defect: `(mapEntry "LeftHole" P1)` = site 0 is read as
            /// missing and becomes site 1, so seat 1 can never sow its left house and the
            /// centre house's clockwise move is listed twice. Default: `false`.
            ludii_left_hole_quirk: bool = false,
            /// The same defect in a `(map "LeftMost" {(pair P1 0) …})`: seat 1's leftmost
            /// house (site 0) is read as house 2 (site 1). It moves where seat 1 starts
            /// filling his houses at a reset (Um el Banât) and where a gift to him falls
            /// (Li'b al-'Aqil). Default: `false`.
            ludii_leftmost_quirk: bool = false,
            /// The order in which the legal moves are listed (random play picks by index, so an
            /// engine's order is reproduced where its games are): `houses` (each seat's houses
            /// from his left, both directions of a house together), `by-direction` (every
            /// clockwise sowing, then every anticlockwise one, each in board order left to right
            /// as the first player sees it: Ludii's Um el-Bagara) or `right-left-centre` (the
            /// right house anticlockwise, the left clockwise, the centre anticlockwise, then
            /// clockwise: Ludii's Um el Tuweisat). Default: `houses`.
            move_order: MoveOrder = MoveOrder::Houses,
            // Li'b al-'Aqil, Um el-Bagara, Um el Tuweisat (issue 16)
            /// Whether the chain may take the house the last lap of the sowing started from:
            /// `stop` (it never takes that house nor goes back past it, as Ludii's backtracking
            /// stops there without examining it) or `take` (the origin is like any other house
            /// of the sowing: taken if it now holds a capturing count, and the chain may go on
            /// back past it; an origin the sowing passed over on a lap (`skip_origin`) is
            /// passed over by the chain too; the chain never comes round to the last house
            /// again). No source states either. Default: `stop`.
            chain_origin: ChainOrigin = ChainOrigin::Stop,
            /// A limit on the number of moves as a rule of the game (not an engine's cap):
            /// `moves` (decisions, passes included), optionally `turns`, and the result when it
            /// is reached (`draw`: the game ends drawn by its own rule, whatever the takings).
            /// Default: no limit.
            move_limit: Option<Cap> = None,
            /// With `rounds: points`: how the target must be reached: `at-least` (a gain that
            /// takes a player to `target` or past it wins) or `exactly` (only a gain that makes
            /// exactly `target` wins; a board whose gain would take its winner past `target`
            /// counts for nothing, for either player). Default: `at-least`.
            target_reach: TargetReach = TargetReach::AtLeast,
            /// How the other player turns the distributed board round (`turn_board`): a
            /// `half-turn` (each row goes to the other side, each house to the same position
            /// counted from its new owner's left) or a `mirror` flip (each house goes to the
            /// one directly opposite it, so each row's order is reversed for its new owner).
            /// Default: `half-turn`.
            board_turn: BoardTurn = BoardTurn::HalfTurn,
            // Um el Banât (issue 16)
            /// Whose remainder the borrowing makes up at a reckoning in fours: the
            /// `larger-holder`'s (the player holding more counters after the stage, the first
            /// seat on equal holdings), or the `gainer`'s (the player who gained in the stage:
            /// whose holding exceeds by more what he had on the board when the stage began;
            /// the larger holder's when both gained alike). With three over, that player
            /// borrows one from the other; with one or two over, the other borrows them back.
            /// Default: `larger-holder`.
            borrowing_basis: BorrowingBasis = BorrowingBasis::LargerHolder,
            /// Counters that make no house at a reckoning in fours (a holding that is no
            /// multiple of four after the borrowing, possible only once pecked counters have
            /// left play): `out-of-play`, or `kept` by their holder, who counts them in his
            /// holding at the next reckoning. Default: `out-of-play`.
            unhoused: Unhoused = Unhoused::OutOfPlay,
            /// A cap on one relay: after this many pick-ups in one move the relay stands
            /// still where its last counter fell (the move ends there, nothing is taken), or
            /// `null` for no cap. 1 to 100 000. Default: `null`.
            relay_cap: Option<u32> = None,
            /// A relay found to cycle for ever: the game ends `unfinished` (a timeout; with an
            /// engine's move cap, as the cap scores), or the relay is a `standstill`: the move
            /// ends the first time the relay comes back to a board and a house it has already
            /// been at in this move, the board left as it was then. Default: `unfinished`.
            relay_cycle: RelayCycled = RelayCycled::Unfinished,
            /// Which houses a player may sow once houses have changed hands between stages:
            /// any house he `owns`, in either row, or only those of his `own-row` (the extra
            /// houses he owns across the groove are never sown by him). Default: `owns`.
            sow_from: SowFrom = SowFrom::Owns,
        }
    }
}

/// The order of the legal move list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MoveOrder {
    /// House by house from each seat's left.
    Houses,
    /// Clockwise sowings, then anticlockwise, in the first player's left-to-right order.
    ByDirection,
    /// Right anticlockwise, left clockwise, centre anticlockwise, centre clockwise.
    RightLeftCentre,
}

/// Sowing direction rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Left of the middle clockwise, right of it anticlockwise, the middle either way.
    Outward,
    /// Any house either way.
    Either,
    /// Every house clockwise.
    Clockwise,
    /// Every house anticlockwise.
    Anticlockwise,
}

/// Which rows a rule applies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Rows {
    /// The opponent's row only.
    Opponent,
    /// The mover's own row only.
    Own,
    /// Either row.
    Any,
}

/// Compulsory or optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Compulsion {
    /// Always happens.
    Compulsory,
    /// The player chooses.
    Optional,
}

/// Chain captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Chain {
    /// Only the last house is taken.
    None,
    /// Back along the sowing while houses hold a capture count.
    Backward,
    /// Only the one house before the last, if it holds a capture count.
    Previous,
}

/// How much of a chain is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChainTake {
    /// The whole chain.
    Compulsory,
    /// All of it or none, at the player's choice.
    OptionalAll,
    /// The player may stop before any house.
    OptionalEach,
}

/// End of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// Blocked players pass; ends when neither can move.
    NeitherCanMove,
    /// Ends when the player to move cannot move.
    MoverBlocked,
    /// The opponent must feed a blocked player if he can.
    OpponentFeeds,
    /// Ends when one row is empty.
    RowEmpty,
}

/// Counters left at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Remaining {
    /// Each player takes those in his own row.
    Owner,
    /// They count for nobody.
    Uncounted,
}

/// Equal totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Tie {
    /// A draw.
    Draw,
    /// Play again.
    Replay,
}

/// Repetition rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// No rule.
    None,
    /// A recurring position is a draw.
    Draw,
    /// A recurring position ends the stage, which is reckoned as if complete.
    Reckon,
    /// A recurring position ends the stage, reckoned by takings and daughters alone.
    ReckonTakings,
}

/// When the end condition is tested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EndCheck {
    /// After every move.
    Immediate,
    /// After all players have passed in succession.
    AllPassed,
}

/// When a house counts as empty for stopping a relay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyStops {
    /// Empty when the last counter falls.
    Now,
    /// Empty before the move began.
    BeforeMove,
}

/// Where daughters can be begotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Daughters {
    /// No daughters.
    None,
    /// In the houses the opponent owns now.
    OpponentHouses,
    /// In the opponent's row as it was at the start of the game.
    OpponentOriginalRow,
}

/// Making the daughter count where no daughter can be begotten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OwnCount {
    /// The relay goes on.
    Relay,
    /// The move stops.
    Stop,
}

/// Where pecked counters go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Pecked {
    /// To the pecker's takings.
    Pecker,
    /// Out of play.
    Discarded,
}

/// A daughter's house emptied by pecking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EmptiedDaughter {
    /// It stays a daughter.
    KeepsMark,
    /// It becomes an ordinary house.
    LosesMark,
    /// It stays a daughter, but a last counter falling into it while empty stops the move
    /// there, with no peck and no drink (a house previously empty).
    EmptyStops,
}

/// What ends a stage besides a blocked player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum StageEnd {
    /// Nothing else.
    None,
    /// Only daughters' houses hold counters.
    OnlyDaughters,
    /// The board is empty.
    Cleared,
    /// The board is empty, or no capture is possible any more (Li'b al-'Aqil, LA-14 (b)).
    NoCapture,
}

/// Stages of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Rounds {
    /// One stage.
    None,
    /// Reckoning in fours, borrowing, a reset board, until a player is driven off.
    Fours,
    /// Boards scored by the difference of takings, until a player reaches `target`.
    Points,
}

/// Borrowing between stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Borrowing {
    /// An outright transfer.
    Transfer,
    /// A debt repaid at the next reckoning.
    Debt,
}

/// Where the larger holder's extra houses lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExtraHouses {
    /// The houses his row sows into.
    Downstream,
    /// The houses that sow into his row.
    Upstream,
    /// At either end, as the larger holder chooses at the reset (a move of his).
    Chosen,
}

/// Who moves first in a later stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RoundStarter {
    /// The larger holder (the first seat on equal holdings).
    Larger,
    /// The smaller holder (the second seat on equal holdings).
    Smaller,
    /// Whoever would have moved next.
    Continue,
    /// The first seat.
    FirstSeat,
    /// The larger holder; on equal holdings, whoever would have moved next.
    LargerElseContinue,
}

/// When a player is driven off the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DrivenOff {
    /// A reckoning leaves him no house.
    Reckoning,
    /// His hand is empty at a reckoning, before borrowing.
    EmptyHand,
    /// Also during a stage, when the houses he owns hold no counters.
    NoCounters,
    /// At a reckoning, when he holds less than a full four before any borrowing.
    NoFullFour,
    /// Only when his hand is empty at a reckoning, before borrowing; a reckoning that leaves
    /// him no house does not drive him off, and he passes through the next stage.
    EmptyHandOnly,
}

/// When a relay goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RelayWhen {
    /// The last counter fell into an occupied house.
    Occupied,
    /// It made an odd count in a house that was not empty.
    Odd,
    /// It made any odd count, an empty house included.
    OddOrEmpty,
}

/// Whether captures take the opposite house too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Opposite {
    /// No.
    None,
    /// With the last house only.
    Last,
    /// With every house taken.
    Every,
}

/// The gift to a player whose row is empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Gift {
    /// No gift.
    None,
    /// The gift is the giver's turn.
    TakesTurn,
    /// The giver then also sows.
    Extra,
}

/// How the counters are set out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Distribution {
    /// The same number in every house.
    Even,
    /// Any houses, occupied houses corresponding.
    Corresponding,
    /// The middle houses of each row (all but the two extreme ones).
    ConventionalFour,
    /// House A and its corresponding house a.
    HalfAndHalf,
    /// One house a side, any house and its corresponding one, any amounts.
    OneASide,
    /// Every house of both rows.
    AllHouses,
    /// Any of Lane's manners (four a side, half and half, one a side, all the houses), the
    /// distributor choosing which before he sets out the counters.
    LaneManners,
    /// Any amounts in any houses, without the correspondence of occupied houses.
    Free,
}

/// Which house corresponds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Correspond {
    /// Directly opposite.
    Opposite,
    /// The same position from the other side.
    Rotated,
}

/// How board scores add up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Points {
    /// The winner adds the difference.
    Gross,
    /// The loser also loses the difference.
    Net,
}

/// Who distributes the next board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum NextDistributor {
    /// The loser of the last board.
    Loser,
    /// The same player.
    Same,
    /// In turn.
    Alternate,
    /// Whoever would move next.
    AfterLastMover,
}

/// Whether the chain may take the house the sowing started from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChainOrigin {
    /// It stops there, never taking it.
    Stop,
    /// The origin is like any other house of the sowing.
    Take,
}

/// How the target of a game in points must be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum TargetReach {
    /// The target or more.
    AtLeast,
    /// Exactly the target; a board that would pass it counts for nothing.
    Exactly,
}

/// How the board is turned round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BoardTurn {
    /// A half-turn: each house to the same position of the other row from its owner's left.
    HalfTurn,
    /// A mirror flip: each house to the one directly opposite.
    Mirror,
}

// Um el Banât (issue 16)

/// Whose remainder the borrowing makes up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum BorrowingBasis {
    /// The player holding more counters after the stage.
    LargerHolder,
    /// The player who gained in the stage.
    Gainer,
}

/// Counters that make no house at a reckoning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Unhoused {
    /// They leave play.
    OutOfPlay,
    /// Their holder keeps them for the next reckoning.
    Kept,
}

/// A relay found to cycle for ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RelayCycled {
    /// The game cannot end.
    Unfinished,
    /// The move ends where the relay first comes back to a position.
    Standstill,
}

/// Which houses a player may sow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SowFrom {
    /// Any house he owns.
    Owns,
    /// Only the houses of his own row.
    OwnRow,
}

/// The static "cannot end" check of the sowing family ([`super::FamilyParams::cannot_end`]):
/// none is known. Every end the family offers can be met from some position of some game
/// (a row emptied, a player unable to move, a board reckoned), and where a board can no
/// longer reach one the engine proves it in play (`reach`: no capture reachable) and ends
/// the game as endless there; no combination of values alone rules an end out.
pub fn cannot_end(_: &SowingParams) -> Option<String> {
    None
}
