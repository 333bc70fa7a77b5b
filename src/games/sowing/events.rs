//! The sowing events: the kinds (their stable names and the parameters that decide each, in
//! one [`event_kinds!`] table), and the events with their data.
//!
//! The names are written only in that table; the text of an event is written in `text`.

use super::*;

event_kinds! {
    /// The kinds of sowing event.
    pub enum SowingEventKind;
    endless = ["repetition", "stage_end", "move_limit"];
    /// A lot decided who begins.
    Lot = "lot" ["starter"],
    /// The last counter fell into an occupied house and its counters were sown on.
    Relay = "relay" ["relay"],
    /// A relay was found to cycle for ever: it came back to a position (board and house) it
    /// had been at, and nobody decides anything inside a move, so the cycle is forced; the
    /// game cannot end. (Under a cap, a relay still going at the cap, cycle found or not.)
    RelayCycle = "relay-cycle" ["relay", "relay_cycle"],
    /// A sowing went round the circuit past (or into) the house it started from.
    Lap = "lap" ["skip_origin"],
    /// The last counter took a house.
    Capture = "capture" ["capture_counts", "capture_rows", "capture_last"],
    /// The player declined a capture the last counter allowed.
    CaptureDeclined = "capture-declined" ["capture_last"],
    /// The chain took one more house, back along the sowing.
    Chain = "chain" ["chain", "chain_take"],
    /// The chain took a house in the mover's own row.
    ChainOwnRow = "chain-own-row" ["chain_rows"],
    /// The chain stopped at a house that held a capture count but lay in a row it may not
    /// take from.
    ChainRowStop = "chain-row-stop" ["chain_rows"],
    /// The player stopped the chain before its end.
    ChainStopped = "chain-stopped" ["chain_take"],
    /// A player who could not move passed.
    ForcedPass = "forced-pass" ["end", "end_check"],
    /// A player had to choose a move that gives his blocked opponent a move.
    Feed = "feed" ["end"],
    /// The game ended because a player could not move.
    EndBlocked = "end-blocked" ["end"],
    /// The game ended because a row was empty.
    RowEmpty = "row-empty" ["end"],
    /// The game ended because neither player could move.
    EndNoMoves = "end-no-moves" ["end", "end_check"],
    /// Counters left in a row at the end were counted (or not) for its owner.
    Remaining = "remaining" ["remaining"],
    /// The totals were equal.
    Tie = "tie" ["tie"],
    /// The game was played again from the start after a tie.
    Replay = "replay" ["tie"],
    /// A tie at the start position itself: replaying would repeat it for ever.
    ReplayCycle = "replay-cycle" ["tie"],
    /// A position recurred and ended the game.
    Repetition = "repetition" ["repetition"],
    /// An engine's implicit all-pass draw ended the game.
    AllPassDraw = "all-pass-draw" ["all_pass_draw"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// A move listed by Ludii 1.0.8's left-hole defect was played.
    LeftHoleQuirk = "left-hole-quirk" ["ludii_left_hole_quirk"],
    /// A daughter was begotten in an opponent's house.
    Daughter = "daughter" ["daughters", "daughter_count"],
    /// The opponent's daughter was pecked; the mover plays again.
    Peck = "peck" ["peck", "pecked"],
    /// A daughter's house emptied by pecking lost its mark.
    DaughterLost = "daughter-lost" ["emptied_daughter"],
    /// A father gave his daughter a drink; the move stopped.
    Drink = "drink" ["daughters"],
    /// The daughter count made where no daughter can be begotten stopped the move.
    OwnCountStop = "own-count-stop" ["own_count"],
    /// Only daughters' houses held counters: the stage is complete.
    StageEnd = "stage-end" ["stage_end"],
    /// A reckoning in fours between stages.
    Reckoning = "reckoning" ["rounds"],
    /// The larger holder had three over and borrowed one from the other.
    BorrowThree = "borrow-three" ["rounds", "borrowing"],
    /// The larger holder had one over; the other borrowed it back.
    BorrowBackOne = "borrow-back-one" ["rounds", "borrowing"],
    /// The larger holder had two over; the other borrowed them back.
    BorrowBackTwo = "borrow-back-two" ["rounds", "borrowing"],
    /// The holdings were exact multiples of four.
    ExactFours = "exact-fours" ["rounds"],
    /// A debt from an earlier borrowing was repaid.
    DebtRepaid = "debt-repaid" ["borrowing"],
    /// The larger holder's extra houses were placed in the other's row.
    ExtraHouses = "extra-houses" ["extra_houses"],
    /// The rule for who begins a later stage chose a player.
    StageStarter = "stage-starter" ["round_starter"],
    /// A player was driven off the board.
    DrivenOff = "driven-off" ["driven_off"],
    /// A capture also took the house opposite.
    OppositeTaken = "opposite-taken" ["opposite"],
    /// A player whose row was empty was given a counter.
    Gift = "gift" ["gift"],
    /// The distributor set out the counters of a board.
    Distributed = "distributed" ["distribution", "correspond"],
    /// The other player turned the distributed board round.
    BoardTurned = "board-turned" ["turn_board", "board_turn"],
    /// A board was scored.
    BoardScored = "board-scored" ["rounds", "points"],
    /// A new board was distributed by the rule for who distributes.
    NextDistributor = "next-distributor" ["next_distributor"],
    /// A stage ended before anyone could decide anything and its reckoning gave the board it
    /// started from: every stage after it would do the same, for ever.
    StageCycle = "stage-cycle" ["rounds", "min_sow"],
    /// The chain took the house the last lap of the sowing started from.
    ChainOrigin = "chain-origin" ["chain_origin"],
    /// The board ended because no capture was possible any more.
    NoCapture = "no-capture" ["stage_end", "capture_counts"],
    /// No end of the game can be reached any more: no capture is possible, the board cannot
    /// be cleared, and no end rule can fire on any position the board can reach.
    Endless = "endless" ["stage_end", "end", "capture_counts"],
    /// The game's own move limit ended it.
    MoveLimit = "move-limit" ["move_limit"],
    /// A board's gain would have taken its winner past the target, and counted for nothing.
    TargetPassed = "target-passed" ["target_reach"],
    /// The distributor chose the manner of his distribution.
    Manner = "manner" ["distribution"],
    /// A last counter fell into an empty daughter's house: a house previously empty, so the
    /// move stopped with no peck.
    EmptyDaughterStop = "empty-daughter-stop" ["emptied_daughter"],
    /// A relay reached its cap and stood still.
    RelayCapped = "relay-capped" ["relay_cap"],
    /// A relay found to cycle stood still where it first came back to a position.
    RelayStandstill = "relay-standstill" ["relay_cycle"],
    /// Counters that made no house at a reckoning were kept by their holder.
    UnhousedKept = "unhoused-kept" ["unhoused"],
    /// The borrowing made up the remainder of the player who gained in the stage, where the
    /// larger holder's would have been another.
    GainerBorrowing = "gainer-borrowing" ["borrowing_basis"],
    /// A recurring position ended a stage, which was reckoned.
    StageRepetition = "stage-repetition" ["repetition"],
    /// The larger holder chose where his extra houses lie.
    ExtraHousesChosen = "extra-houses-chosen" ["extra_houses"],
    /// A stage began in which one player owns no house and no daughter can be begotten or
    /// is on the board: it can never end.
    StageEndless = "stage-endless" ["driven_off", "daughters"],
    // The two below were added last, so that the earlier kinds keep their columns in CSV.
    /// A relay still going after `RELAY_LIMIT` sowings with no cycle found: the engine
    /// stops looking, and the game is stopped unproven (censored, like a game stopped by the
    /// run's ply limit), never called endless.
    RelayUnresolved = "relay-unresolved" ["relay"],
    /// `MAX_IDLE_STAGES` stages in a row ended before any decision without one repeating: the
    /// engine stops following them, and the game is stopped unproven (censored).
    IdleStagesUnresolved = "idle-stages-unresolved" ["rounds", "min_sow"],
}

/// A sowing event with its data. Houses are circuit indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SowingEvent {
    /// The lot chose `seat` to begin.
    Lot {
        /// Who begins.
        seat: Seat,
    },
    /// The relay picked up `counters` from `house` and sowed on.
    Relay {
        /// The house.
        house: u8,
        /// Counters picked up.
        counters: u16,
    },
    /// A relay cycles for ever, round a cycle of `sowings` sowings (0 where a cap stopped
    /// it before any cycle was found, or its length could not be walked).
    RelayCycle {
        /// The cycle's length, in sowings.
        sowings: u32,
    },
    /// A relay went on past the relay limit with no cycle found.
    RelayUnresolved,
    /// A sowing of `counters` went round the circuit.
    Lap {
        /// Counters sown.
        counters: u16,
    },
    /// The last counter took `counters` from `house`.
    Capture {
        /// The house.
        house: u8,
        /// Counters taken.
        counters: u16,
    },
    /// The player declined to take `house`.
    CaptureDeclined {
        /// The house.
        house: u8,
    },
    /// The chain took `counters` from `house`.
    Chain {
        /// The house.
        house: u8,
        /// Counters taken.
        counters: u16,
    },
    /// The chain took a house of the mover's own row.
    ChainOwnRow {
        /// The house.
        house: u8,
    },
    /// The chain stopped before `house` only because of its row.
    ChainRowStop {
        /// The house.
        house: u8,
    },
    /// The player took `taken` of `available` houses.
    ChainStopped {
        /// Houses taken.
        taken: u8,
        /// Houses the rules allowed.
        available: u8,
    },
    /// `seat` passed.
    ForcedPass {
        /// Who passed.
        seat: Seat,
    },
    /// `seat` had to feed his opponent.
    Feed {
        /// Who fed.
        seat: Seat,
    },
    /// The game ended because `seat` could not move.
    EndBlocked {
        /// The blocked player.
        seat: Seat,
    },
    /// Neither player could move.
    EndNoMoves,
    /// The game ended because `seat`'s row was empty.
    RowEmpty {
        /// Whose row.
        seat: Seat,
    },
    /// `counters` were left in `seat`'s row at the end.
    Remaining {
        /// Whose row.
        seat: Seat,
        /// How many.
        counters: u32,
        /// Whether they counted for him.
        counted: bool,
    },
    /// Both totals were `score`.
    Tie {
        /// The equal total.
        score: u32,
    },
    /// The game starts again.
    Replay,
    /// The replayed game would tie again at once, for ever.
    ReplayCycle,
    /// A position recurred.
    Repetition,
    /// The implicit all-pass draw.
    AllPassDraw,
    /// The cap was reached after `plies` decisions in turn `turns`.
    CapReached {
        /// Turn number.
        turns: u32,
        /// Decisions.
        plies: u32,
    },
    /// A quirk-listed move was played.
    LeftHoleQuirk,
    /// A daughter was begotten in `house`.
    Daughter {
        /// The house.
        house: u8,
    },
    /// The daughter in `house` was pecked.
    Peck {
        /// The house.
        house: u8,
        /// Counters removed.
        counters: u16,
    },
    /// The daughter's house `house` lost its mark.
    DaughterLost {
        /// The house.
        house: u8,
    },
    /// A drink in `house`.
    Drink {
        /// The house.
        house: u8,
    },
    /// The daughter count in `house` stopped the move.
    OwnCountStop {
        /// The house.
        house: u8,
    },
    /// The stage is complete.
    StageEnd,
    /// A reckoning: each seat's holding and the houses it gives.
    Reckoning {
        /// Counters held.
        holdings: [u32; 2],
        /// Houses each seat owns in the next stage.
        houses: [u8; 2],
    },
    /// `seat` borrowed one (three over).
    BorrowThree {
        /// The borrower.
        seat: Seat,
    },
    /// `seat` borrowed back one.
    BorrowBackOne {
        /// The borrower.
        seat: Seat,
    },
    /// `seat` borrowed back two.
    BorrowBackTwo {
        /// The borrower.
        seat: Seat,
    },
    /// Exact fours.
    ExactFours,
    /// `seat` repaid `counters`.
    DebtRepaid {
        /// The debtor.
        seat: Seat,
        /// Counters repaid.
        counters: u32,
    },
    /// `seat` got `houses` extra houses in the other's row.
    ExtraHouses {
        /// The larger holder.
        seat: Seat,
        /// Extra houses.
        houses: u8,
    },
    /// `seat` begins the next stage.
    StageStarter {
        /// Who begins.
        seat: Seat,
    },
    /// `seat` was driven off the board.
    DrivenOff {
        /// Who.
        seat: Seat,
    },
    /// The capture took `counters` from the house opposite, `house`.
    OppositeTaken {
        /// The opposite house.
        house: u8,
        /// Counters taken.
        counters: u16,
    },
    /// `seat` gave a counter into `house`.
    Gift {
        /// The giver.
        seat: Seat,
        /// The receiving house.
        house: u8,
    },
    /// `seat` finished distributing.
    Distributed {
        /// The distributor.
        seat: Seat,
    },
    /// `seat` turned the board round.
    BoardTurned {
        /// Who turned it.
        seat: Seat,
    },
    /// `seat` won a board by `points` (0 for a tie).
    BoardScored {
        /// The board's winner (the first seat on a tie).
        seat: Seat,
        /// The difference.
        points: u32,
    },
    /// `seat` distributes the next board.
    NextDistributor {
        /// Who.
        seat: Seat,
    },
    /// Stages would follow each other for ever without a decision, round a cycle of
    /// `stages` stages (or boards).
    StageCycle {
        /// The cycle's length, in stages.
        stages: u32,
    },
    /// Stages ended before any decision past the bound, none repeating.
    IdleStagesUnresolved,
    /// The chain took the origin `house`.
    ChainOrigin {
        /// The house.
        house: u8,
    },
    /// No capture is possible any more: the board is finished.
    NoCapture,
    /// No end can be reached any more.
    Endless,
    /// The move limit was reached after `plies` decisions in turn `turns`.
    MoveLimit {
        /// Turn number.
        turns: u32,
        /// Decisions.
        plies: u32,
    },
    /// `seat`'s gain of `points` would have passed the target.
    TargetPassed {
        /// The board's winner.
        seat: Seat,
        /// The gain that did not count.
        points: u32,
    },
    /// The distributor chose manner `manner` (an index into [`MANNERS`]).
    Manner {
        /// The index.
        manner: u8,
    },
    /// The last counter fell into the empty daughter's house `house`; the move stopped.
    EmptyDaughterStop {
        /// The house.
        house: u8,
    },
    /// The relay reached its cap at `house`.
    RelayCapped {
        /// The house.
        house: u8,
    },
    /// A relay found to cycle stood still.
    RelayStandstill,
    /// `seat` kept `counters` that made no house.
    UnhousedKept {
        /// The holder.
        seat: Seat,
        /// Counters kept.
        counters: u32,
    },
    /// The borrowing went by `seat`'s remainder, the stage's gainer, not the larger holder.
    GainerBorrowing {
        /// The gainer.
        seat: Seat,
    },
    /// A recurring position ended the stage.
    StageRepetition,
    /// `seat` chose where his extra houses lie.
    ExtraHousesChosen {
        /// The larger holder.
        seat: Seat,
    },
    /// A stage that can never end began.
    StageEndless,
}

impl Event for SowingEvent {
    type Kind = SowingEventKind;
    #[inline]
    fn kind(&self) -> SowingEventKind {
        use SowingEventKind as K;
        match self {
            SowingEvent::Lot { .. } => K::Lot,
            SowingEvent::Relay { .. } => K::Relay,
            SowingEvent::RelayCycle { .. } => K::RelayCycle,
            SowingEvent::RelayUnresolved => K::RelayUnresolved,
            SowingEvent::Lap { .. } => K::Lap,
            SowingEvent::Capture { .. } => K::Capture,
            SowingEvent::CaptureDeclined { .. } => K::CaptureDeclined,
            SowingEvent::Chain { .. } => K::Chain,
            SowingEvent::ChainOwnRow { .. } => K::ChainOwnRow,
            SowingEvent::ChainRowStop { .. } => K::ChainRowStop,
            SowingEvent::ChainStopped { .. } => K::ChainStopped,
            SowingEvent::ForcedPass { .. } => K::ForcedPass,
            SowingEvent::Feed { .. } => K::Feed,
            SowingEvent::EndBlocked { .. } => K::EndBlocked,
            SowingEvent::RowEmpty { .. } => K::RowEmpty,
            SowingEvent::EndNoMoves => K::EndNoMoves,
            SowingEvent::Remaining { .. } => K::Remaining,
            SowingEvent::Tie { .. } => K::Tie,
            SowingEvent::Replay => K::Replay,
            SowingEvent::ReplayCycle => K::ReplayCycle,
            SowingEvent::Repetition => K::Repetition,
            SowingEvent::AllPassDraw => K::AllPassDraw,
            SowingEvent::CapReached { .. } => K::CapReached,
            SowingEvent::LeftHoleQuirk => K::LeftHoleQuirk,
            SowingEvent::Daughter { .. } => K::Daughter,
            SowingEvent::Peck { .. } => K::Peck,
            SowingEvent::DaughterLost { .. } => K::DaughterLost,
            SowingEvent::Drink { .. } => K::Drink,
            SowingEvent::OwnCountStop { .. } => K::OwnCountStop,
            SowingEvent::StageEnd => K::StageEnd,
            SowingEvent::Reckoning { .. } => K::Reckoning,
            SowingEvent::BorrowThree { .. } => K::BorrowThree,
            SowingEvent::BorrowBackOne { .. } => K::BorrowBackOne,
            SowingEvent::BorrowBackTwo { .. } => K::BorrowBackTwo,
            SowingEvent::ExactFours => K::ExactFours,
            SowingEvent::DebtRepaid { .. } => K::DebtRepaid,
            SowingEvent::ExtraHouses { .. } => K::ExtraHouses,
            SowingEvent::StageStarter { .. } => K::StageStarter,
            SowingEvent::DrivenOff { .. } => K::DrivenOff,
            SowingEvent::OppositeTaken { .. } => K::OppositeTaken,
            SowingEvent::Gift { .. } => K::Gift,
            SowingEvent::Distributed { .. } => K::Distributed,
            SowingEvent::BoardTurned { .. } => K::BoardTurned,
            SowingEvent::BoardScored { .. } => K::BoardScored,
            SowingEvent::NextDistributor { .. } => K::NextDistributor,
            SowingEvent::StageCycle { .. } => K::StageCycle,
            SowingEvent::IdleStagesUnresolved => K::IdleStagesUnresolved,
            SowingEvent::ChainOrigin { .. } => K::ChainOrigin,
            SowingEvent::NoCapture => K::NoCapture,
            SowingEvent::Endless => K::Endless,
            SowingEvent::MoveLimit { .. } => K::MoveLimit,
            SowingEvent::TargetPassed { .. } => K::TargetPassed,
            SowingEvent::Manner { .. } => K::Manner,
            SowingEvent::EmptyDaughterStop { .. } => K::EmptyDaughterStop,
            SowingEvent::RelayCapped { .. } => K::RelayCapped,
            SowingEvent::RelayStandstill => K::RelayStandstill,
            SowingEvent::UnhousedKept { .. } => K::UnhousedKept,
            SowingEvent::GainerBorrowing { .. } => K::GainerBorrowing,
            SowingEvent::StageRepetition => K::StageRepetition,
            SowingEvent::ExtraHousesChosen { .. } => K::ExtraHousesChosen,
            SowingEvent::StageEndless => K::StageEndless,
        }
    }
}
