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
//! loop only indexes arrays and never allocates: the state is a fixed array plus one vector
//! (the position history, used only by a repetition rule) that [`Rules::reset`] reuses. The
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

use std::fmt;

use super::bits::nth_set_bit;
use super::core::{CapError, Clock, Limit, kebab_name, lot_weights};
use super::{
    EndReason, Event, EventKind, EventSink, NoEvents, Outcome, Result_, Rules, Seat, Status,
    event_kinds,
};
use crate::family::sowing::{
    BoardTurn, Borrowing, Chain, ChainOrigin, ChainTake, Compulsion, Correspond, Daughters,
    Direction, Distribution, DrivenOff, EmptiedDaughter, EmptyStops, End, EndCheck, ExtraHouses,
    Gift, MoveOrder, NextDistributor, Opposite, OwnCount, Pecked, Points, RelayWhen, Remaining,
    Repetition, RoundStarter, Rounds, Rows, SowingParams, StageEnd, Starter, TargetReach, Tie,
};
use crate::family::sowing::{BorrowingBasis, RelayCycled, SowFrom, Unhoused};

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

/// The name of a house: `a1`…`aN` are seat 0's houses from his left, `b1`…`bN` seat 1's.
pub fn house_name(house: usize, holes: usize) -> String {
    let seat = if house < holes { 'a' } else { 'b' };
    format!("{seat}{}", house % holes + 1)
}

/// Displays a move given the board size (moves do not know it).
pub struct MoveDisplay {
    mv: SowingMove,
    holes: usize,
}

impl fmt::Display for MoveDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            SowingMove::Pass => f.write_str("pass"),
            SowingMove::Gift { house } => {
                write!(f, "gift from {}", house_name(house as usize, self.holes))
            }
            SowingMove::Distribute { house, count } => {
                write!(
                    f,
                    "put {count} in {}",
                    house_name(house as usize, self.holes)
                )
            }
            SowingMove::Keep => f.write_str("keep the board"),
            SowingMove::Turn => f.write_str("turn the board"),
            SowingMove::Manner { manner } => manner_text(f, manner),
            SowingMove::PlaceExtra { .. } => write!(f, "{}", self.mv),
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => {
                write!(
                    f,
                    "{} {}",
                    house_name(house as usize, self.holes),
                    dir.name()
                )?;
                if take != TAKE_ALL {
                    write!(f, " take {take}")?;
                }
                if quirk {
                    f.write_str(" (left-hole quirk)")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SowingMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the board size, houses are shown as circuit indices.
        match *self {
            SowingMove::Pass => f.write_str("pass"),
            SowingMove::Gift { house } => write!(f, "gift from #{house}"),
            SowingMove::Distribute { house, count } => write!(f, "put {count} in #{house}"),
            SowingMove::Keep => f.write_str("keep the board"),
            SowingMove::Turn => f.write_str("turn the board"),
            SowingMove::Manner { manner } => manner_text(f, manner),
            SowingMove::PlaceExtra { downstream: true } => f.write_str("extra houses downstream"),
            SowingMove::PlaceExtra { downstream: false } => f.write_str("extra houses upstream"),
            SowingMove::Sow {
                house,
                dir,
                take,
                quirk,
            } => {
                write!(f, "#{house} {}", dir.name())?;
                if take != TAKE_ALL {
                    write!(f, " take {take}")?;
                }
                if quirk {
                    f.write_str(" (left-hole quirk)")?;
                }
                Ok(())
            }
        }
    }
}

/// "distribute in the conventional-four manner".
fn manner_text(f: &mut fmt::Formatter<'_>, manner: u8) -> fmt::Result {
    match MANNERS.get(usize::from(manner)) {
        Some(m) => write!(f, "distribute in the {} manner", kebab_name(m)),
        None => write!(f, "distribute in manner #{manner}"),
    }
}

event_kinds! {
    /// The kinds of sowing event.
    pub enum SowingEventKind;
    endless = ["repetition", "stage_end", "move_limit"];
    /// A lot decided who begins.
    Lot = "lot" ["starter"],
    /// The last counter fell into an occupied house and its counters were sown on.
    Relay = "relay" ["relay"],
    /// A relay was found to cycle for ever (or was still going after the move cap or
    /// `RELAY_LIMIT` sowings); the game cannot end.
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
    /// A relay cycles for ever.
    RelayCycle,
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
    /// Stages would follow each other for ever without a decision.
    StageCycle,
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
            SowingEvent::RelayCycle => K::RelayCycle,
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
            SowingEvent::StageCycle => K::StageCycle,
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

impl fmt::Display for SowingEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.kind().name();
        match *self {
            SowingEvent::Lot { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::Lap { counters } => write!(f, "{name} counters={counters}"),
            SowingEvent::Capture { house, counters }
            | SowingEvent::Chain { house, counters }
            | SowingEvent::Peck { house, counters }
            | SowingEvent::Relay { house, counters } => {
                write!(f, "{name} house=#{house} counters={counters}")
            }
            SowingEvent::Daughter { house }
            | SowingEvent::DaughterLost { house }
            | SowingEvent::Drink { house }
            | SowingEvent::OwnCountStop { house } => write!(f, "{name} house=#{house}"),
            SowingEvent::Reckoning { holdings, houses } => write!(
                f,
                "{name} holdings={}-{} houses={}-{}",
                holdings[0], holdings[1], houses[0], houses[1]
            ),
            SowingEvent::BorrowThree { seat }
            | SowingEvent::BorrowBackOne { seat }
            | SowingEvent::BorrowBackTwo { seat }
            | SowingEvent::StageStarter { seat }
            | SowingEvent::Distributed { seat }
            | SowingEvent::BoardTurned { seat }
            | SowingEvent::NextDistributor { seat }
            | SowingEvent::DrivenOff { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::OppositeTaken { house, counters } => {
                write!(f, "{name} house=#{house} counters={counters}")
            }
            SowingEvent::Gift { seat, house } => {
                write!(f, "{name} seat={} house=#{house}", seat + 1)
            }
            SowingEvent::BoardScored { seat, points } => {
                write!(f, "{name} seat={} points={points}", seat + 1)
            }
            SowingEvent::DebtRepaid { seat, counters } => {
                write!(f, "{name} seat={} counters={counters}", seat + 1)
            }
            SowingEvent::ExtraHouses { seat, houses } => {
                write!(f, "{name} seat={} houses={houses}", seat + 1)
            }
            SowingEvent::StageEnd | SowingEvent::ExactFours => f.write_str(name),
            SowingEvent::CaptureDeclined { house }
            | SowingEvent::ChainOwnRow { house }
            | SowingEvent::ChainRowStop { house } => write!(f, "{name} house=#{house}"),
            SowingEvent::ChainStopped { taken, available } => {
                write!(f, "{name} taken={taken} of={available}")
            }
            SowingEvent::ForcedPass { seat }
            | SowingEvent::Feed { seat }
            | SowingEvent::EndBlocked { seat }
            | SowingEvent::RowEmpty { seat } => write!(f, "{name} seat={}", seat + 1),
            SowingEvent::Remaining {
                seat,
                counters,
                counted,
            } => write!(
                f,
                "{name} seat={} counters={counters} counted={counted}",
                seat + 1
            ),
            SowingEvent::Tie { score } => write!(f, "{name} score={score}"),
            SowingEvent::CapReached { turns, plies } | SowingEvent::MoveLimit { turns, plies } => {
                write!(f, "{name} turn={turns} plies={plies}")
            }
            SowingEvent::ChainOrigin { house } => write!(f, "{name} house=#{house}"),
            SowingEvent::TargetPassed { seat, points } => {
                write!(f, "{name} seat={} points={points}", seat + 1)
            }
            SowingEvent::Manner { manner } => match MANNERS.get(usize::from(manner)) {
                Some(m) => write!(f, "{name} manner={}", kebab_name(m)),
                None => write!(f, "{name} manner=#{manner}"),
            },
            SowingEvent::NoCapture | SowingEvent::Endless => f.write_str(name),
            SowingEvent::Replay
            | SowingEvent::EndNoMoves
            | SowingEvent::ReplayCycle
            | SowingEvent::StageCycle
            | SowingEvent::RelayCycle
            | SowingEvent::Repetition
            | SowingEvent::AllPassDraw
            | SowingEvent::LeftHoleQuirk => f.write_str(name),
            SowingEvent::EmptyDaughterStop { house } | SowingEvent::RelayCapped { house } => {
                write!(f, "{name} house=#{house}")
            }
            SowingEvent::RelayStandstill
            | SowingEvent::StageRepetition
            | SowingEvent::StageEndless => f.write_str(name),
            SowingEvent::UnhousedKept { seat, counters } => {
                write!(f, "{name} seat={} counters={counters}", seat + 1)
            }
            SowingEvent::GainerBorrowing { seat } | SowingEvent::ExtraHousesChosen { seat } => {
                write!(f, "{name} seat={}", seat + 1)
            }
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

/// One house on round the circuit of `r` houses.
#[inline]
fn step(h: usize, dir: Dir, r: usize) -> usize {
    match dir {
        Dir::Ccw => {
            if h + 1 == r {
                0
            } else {
                h + 1
            }
        }
        Dir::Cw => {
            if h == 0 {
                r - 1
            } else {
                h - 1
            }
        }
    }
}

/// The holdings `h` after the borrowing that makes up `b`'s remainder (Davies 1925: 144):
/// three over borrow one from the other player, one or two over are borrowed back by him.
fn borrowed(mut h: [u32; 2], b: usize) -> [u32; 2] {
    let o = 1 - b;
    match h[b] % 4 {
        3 if h[o] >= 1 => {
            h[b] += 1;
            h[o] -= 1;
        }
        r @ (1 | 2) => {
            h[b] -= r;
            h[o] += r;
        }
        _ => {}
    }
    h
}

/// A position given house by house, checked by [`Sowing::setup`] into a playable state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SowingSetup {
    /// Each seat's houses, from that player's left.
    pub rows: [Vec<u16>; 2],
    /// Counters each seat has taken.
    pub stores: [u32; 2],
    /// Who moves.
    pub to_move: Seat,
    /// Daughters: (house as a circuit index, the seat whose daughter it is).
    pub daughters: Vec<(usize, Seat)>,
}

/// Why a setup is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A row of the wrong length.
    #[error("seat {seat}'s row has {got} houses; this game has {expected}")]
    RowLength {
        /// The seat (1-based).
        seat: usize,
        /// Houses given.
        got: usize,
        /// Houses expected.
        expected: usize,
    },
    /// No such seat.
    #[error("to_move = {0}: seats are 0 and 1")]
    Seat(usize),
    /// A daughter in a house that does not exist, or of a seat that does not.
    #[error("daughter ({house}, {seat}): houses are 0 to {last}, seats 0 and 1")]
    Daughter {
        /// The house given.
        house: usize,
        /// The seat given.
        seat: usize,
        /// The last house.
        last: usize,
    },
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

/// The events of two plies of a forced stretch ([`Rules::forced_plies`]) while they are
/// gifts, and whether any other came.
struct GiftCycle {
    events: [SowingEvent; 2],
    len: usize,
    other: bool,
}

impl Default for GiftCycle {
    fn default() -> Self {
        GiftCycle {
            events: [SowingEvent::Gift { seat: 0, house: 0 }; 2],
            len: 0,
            other: false,
        }
    }
}

impl EventSink<SowingEvent> for GiftCycle {
    fn emit(&mut self, event: SowingEvent) {
        match event {
            SowingEvent::Gift { .. } if self.len < 2 => {
                self.events[self.len] = event;
                self.len += 1;
            }
            _ => self.other = true,
        }
    }
}

/// What decides the stages after one that ended before any decision: the holdings, debts,
/// counters out of play, marks, mover and stakes.
#[derive(Debug, Clone, PartialEq)]
struct IdleStage {
    store: [u32; 2],
    debt: [u32; 2],
    discarded: u32,
    mark: [u8; RING],
    mover: u8,
    stake: [u32; 2],
}

/// Stages in a row that end before any decision, at most: past it the chain is cut as a
/// cycle. (Every chain met repeats a state long before; the bound keeps the recursion from a
/// stage's end into the next stage's start shallow whatever the rules.)
const MAX_IDLE_STAGES: usize = 64;

/// A position of a sowing game.
#[derive(Debug, Clone, PartialEq)]
pub struct SowingState {
    pos: Pos,
    mover: u8,
    phase: Phase,
    clock: Clock,
    must_feed: bool,
    outcome: Option<Outcome>,
    history: Vec<([u16; RING], u8)>,
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
    /// A relay that never ends.
    Cycle,
    /// A relay stopped by its cap or found to cycle, where the reading makes that a
    /// standstill: the move ends there and nothing is taken.
    Standstill,
}

/// What a board can still reach (see [`Sowing::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// A capture.
    Capture,
    /// No capture, but a position where an end rule (or a relay that never stops) ends it.
    End,
    /// Neither: the board goes on for ever without a capture.
    Neither,
    /// Not searched (too many counters or positions): a capture is taken to be reachable.
    Unknown,
}

/// The key of a position in [`Sowing::reach`]'s set: the houses written in unary, each
/// house's counters as ones ended by a zero, after a guard bit (so no key is 0, the empty
/// slot), then the player to move. The search runs only with at most [`SEARCH_COUNTERS`]
/// counters on the board, so a key has at most 1 + 16 + 32 + 1 bits: it fits a `u64`, and
/// two boards of the same circuit get the same key only if they are equal.
#[inline]
fn reach_key(board: &[u16; RING], r: usize, mover: u8) -> u64 {
    let mut k = 1u64;
    for &c in &board[..r] {
        debug_assert!(u32::from(c) <= SEARCH_COUNTERS);
        k = ((k << c) | ((1u64 << c) - 1)) << 1;
    }
    (k << 1) | u64::from(mover)
}

/// The set and stack of [`Sowing::reach`], kept per thread from one search to the next: a
/// search was most of the cost of a game that searches at every decision, most of it
/// hashing, growing and allocating a `HashSet` of whole boards.
#[derive(Default)]
struct ReachScratch {
    /// An open-addressing set of [`reach_key`]s, 0 for an empty slot; its length is 0 or a
    /// power of two, and it is at most half full.
    slots: Vec<u64>,
    /// The slots filled, emptied again by [`ReachScratch::clear`].
    used: Vec<u32>,
    /// Keys in the set.
    len: usize,
    /// Boards found and not yet expanded, with the player to move.
    stack: Vec<([u16; RING], u8)>,
}

impl ReachScratch {
    const FIRST_SLOTS: usize = 1 << 10;

    /// Adds `key`: whether it was not in the set.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let shift = 64 - self.slots.len().trailing_zeros();
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
        loop {
            match self.slots[i] {
                0 => break,
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
        self.slots[i] = key;
        self.used.push(i as u32);
        self.len += 1;
        true
    }

    /// Doubles the table (or makes the first one) and puts the keys back.
    #[cold]
    fn grow(&mut self) {
        let keys: Vec<u64> = self.used.iter().map(|&i| self.slots[i as usize]).collect();
        let slots = (2 * self.slots.len()).max(Self::FIRST_SLOTS);
        self.slots = vec![0; slots];
        self.used.clear();
        self.len = 0;
        for key in keys {
            self.insert(key);
        }
    }

    /// Empties the set and the stack, keeping their memory.
    fn clear(&mut self) {
        if self.used.len() > self.slots.len() / 8 {
            self.slots.fill(0);
        } else {
            for &i in &self.used {
                self.slots[i as usize] = 0;
            }
        }
        self.used.clear();
        self.len = 0;
        self.stack.clear();
    }
}

thread_local! {
    /// [`Sowing::reach`]'s scratch for the games this thread plays.
    static REACH_SCRATCH: std::cell::RefCell<ReachScratch> =
        std::cell::RefCell::new(ReachScratch::default());
}

// Masks of houses eight slots at a time, in a `u64` (SWAR): no branch per house, where a test
// per house mispredicts. Bytes are the slots of `owner` and `mark`, 16-bit lanes those of
// `board`.
const BYTES_1: u64 = 0x0101_0101_0101_0101;
const BYTES_7F: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const BYTES_80: u64 = 0x8080_8080_8080_8080;
const LANES_1: u64 = 0x0001_0001_0001_0001;
const LANES_8000: u64 = 0x8000_8000_8000_8000;

/// Bit `i` set where byte `i` of `w` is 0. (`(w & 0x7F) + 0x7F` sets a byte's top bit if
/// its low bits are not all 0, and never carries out of the byte.)
#[inline]
fn zero_bytes(w: u64) -> u32 {
    let tops = !(((w & BYTES_7F) + BYTES_7F) | w) & BYTES_80;
    // Byte i (0 or 1) times 2^(7 - i) lands, for every i, in bit 56 + i; no other product
    // reaches bit 56, nor carries into it.
    ((tops >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Bit `i` set where 16-bit lane `i` of `w` is at least `min` (lanes below 0x8000, as a
/// house's counters are): each lane, its top bit set, less `min` keeps the top bit exactly
/// then, and never borrows from the next lane.
#[inline]
fn lanes_at_least(w: u64, min: u16) -> u32 {
    let tops = ((w | LANES_8000) - u64::from(min) * LANES_1) & LANES_8000;
    // As in `zero_bytes`: lane i's bit times 2^(3 - i) lands in bit 48 + i.
    ((tops >> 15).wrapping_mul(0x0001_0002_0004_0008) >> 48) as u32
}

/// Bit `i` set where `houses[i]` is at least `min` (at least 1; counts below 0x8000, as a
/// house's are): two vector compares and one mask extraction on x86-64, whose SSE2 every
/// such processor has.
#[cfg(target_arch = "x86_64")]
#[inline]
fn at_least_16(houses: &[u16; 16], min: u16) -> u32 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpgt_epi16, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16,
        _mm_set1_epi16,
    };
    // SAFETY: these intrinsics only need SSE2, which the x86-64 baseline includes: every
    // x86-64 processor has it, and the compiler enables it for every x86-64 target. The
    // loads read sixteen bytes inside `houses`, unaligned loads being allowed any address.
    unsafe {
        // One unaligned load of eight houses (in bounds: `k + 8 <= 16`).
        let lanes = |k: usize| _mm_loadu_si128(houses[k..k + 8].as_ptr().cast::<__m128i>());
        let floor = _mm_set1_epi16(min as i16 - 1);
        let lo = _mm_cmpgt_epi16(lanes(0), floor);
        let hi = _mm_cmpgt_epi16(lanes(8), floor);
        // Packing the all-ones or all-zeros lanes to bytes keeps them so; one bit per byte.
        _mm_movemask_epi8(_mm_packs_epi16(lo, hi)) as u32
    }
}

/// Bit `i` set where `houses[i]` is at least `min`: four houses to a word elsewhere.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn at_least_16(houses: &[u16; 16], min: u16) -> u32 {
    at_least_16_words(houses, min)
}

/// [`at_least_16`] four houses to a `u64` word, in any processor's integer registers.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn at_least_16_words(houses: &[u16; 16], min: u16) -> u32 {
    let mut mask = 0u32;
    for (k, four) in houses.chunks_exact(4).enumerate() {
        let w = four
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c));
        mask |= lanes_at_least(w, min) << (4 * k);
    }
    mask
}

/// [`lanes_at_least`] over the eight lanes of two words, `lo`'s then `hi`'s, with one
/// multiply: lane i's top bit goes to bit 16i (`lo`) or 16i + 4 (`hi`), and times
/// 2^(48 − 15i) each lands in bit 48 + i or 52 + i. Every other product of a lane bit and a
/// term of the multiplier lands above bit 63 or below bit 48, each in a bit of its own (at
/// 33 + i or 37 + i, 18 + i or 22 + i, 3 or 7), so nothing carries into the result.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline]
fn lanes8_at_least(lo: u64, hi: u64, min: u16) -> u32 {
    let sub = u64::from(min) * LANES_1;
    let tops = ((((lo | LANES_8000) - sub) & LANES_8000) >> 15)
        | ((((hi | LANES_8000) - sub) & LANES_8000) >> 11);
    let gather = (1u64 << 48) | (1 << 33) | (1 << 18) | (1 << 3);
    ((tops.wrapping_mul(gather) >> 48) & 0xFF) as u32
}

/// Slots `8k..8k + 8` of a byte array, as a `u64`.
#[inline]
fn byte_word(a: &[u8; RING], k: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&a[8 * k..8 * k + 8]);
    u64::from_le_bytes(w)
}

/// Slots `4k..4k + 4` of the board, as a `u64`.
#[inline]
fn lane_word(b: &[u16; RING], k: usize) -> u64 {
    b[4 * k..4 * k + 4]
        .iter()
        .rev()
        .fold(0u64, |w, &c| (w << 16) | u64::from(c))
}

/// Of sixteen slots (`board` and `marks` alike), the ordinary houses (unmarked) that hold any
/// counter and those that hold at least `min`, as bit masks: on x86-64 one byte compare and
/// mask extraction for the marks, and [`at_least_16`] for the counts.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn half_masks(board: &[u16; 16], marks: &[u8; 16], min: u16) -> (u32, u32) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_cmpgt_epi16, _mm_loadu_si128, _mm_movemask_epi8,
        _mm_packs_epi16, _mm_set1_epi16, _mm_setzero_si128,
    };
    // SAFETY: SSE2 only (the x86-64 baseline, as in `at_least_16`); the unaligned loads read
    // the sixteen bytes of `marks` and the 32 of `board`, which the references make valid
    // to read.
    unsafe {
        let ordinary = _mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_loadu_si128(marks.as_ptr().cast()),
            _mm_setzero_si128(),
        )) as u32;
        let lo = _mm_loadu_si128(board.as_ptr().cast::<__m128i>());
        let hi = _mm_loadu_si128(board.as_ptr().add(8).cast::<__m128i>());
        // As `at_least_16`, on the two loaded halves: counts are below 0x8000, so a signed
        // compare with `min - 1` is `>= min`.
        let at_least = |min: u16| {
            let floor = _mm_set1_epi16(min as i16 - 1);
            _mm_movemask_epi8(_mm_packs_epi16(
                _mm_cmpgt_epi16(lo, floor),
                _mm_cmpgt_epi16(hi, floor),
            )) as u32
        };
        let any = at_least(1);
        let held = if min == 1 { any } else { at_least(min) };
        debug_assert_eq!(
            (any, held),
            (at_least_16(board, 1), at_least_16(board, min))
        );
        (ordinary & any, ordinary & held)
    }
}

/// [`half_masks`] eight slots to a word elsewhere, with one multiply for each eight houses'
/// counts ([`lanes8_at_least`]).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn half_masks(board: &[u16; 16], marks: &[u8; 16], min: u16) -> (u32, u32) {
    let word = |k: usize| {
        board[4 * k..4 * k + 4]
            .iter()
            .rev()
            .fold(0u64, |w, &c| (w << 16) | u64::from(c))
    };
    let (mut occupied, mut enough) = (0u32, 0u32);
    for k in 0..2 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&marks[8 * k..8 * k + 8]);
        let ordinary = zero_bytes(u64::from_le_bytes(w));
        let (lo, hi) = (word(2 * k), word(2 * k + 1));
        let any = lanes8_at_least(lo, hi, 1);
        let held = if min == 1 {
            any
        } else {
            lanes8_at_least(lo, hi, min)
        };
        occupied |= (ordinary & any) << (8 * k);
        enough |= (ordinary & held) << (8 * k);
    }
    (occupied, enough)
}

/// An entry of [`Sowing::lane_adds`]: what a part lap adds to each of 16 houses, and the
/// house its last counter falls in.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct QuickLap {
    adds: [u16; 16],
    last: u8,
}

/// The whole laps of a sowing from `house` of [`Sowing::sow_quick`] (rare: a dozen counters
/// or more): every house of the circuit of `lap` houses gets `laps`, and the origin gives up
/// the counters of the laps. Out of line, so that the common path holds none of its
/// constants.
#[cold]
#[inline(never)]
fn add_laps<const W: usize>(out: &mut [u16; W], laps: u16, lap: usize, house: usize) {
    for o in &mut out[..lap] {
        *o = o.wrapping_add(laps);
    }
    out[house] = out[house].wrapping_sub(laps * lap as u16);
}

/// The state of Brent's search for a cycle in a long relay of a dynamic game
/// ([`Sowing::long_relay`]): the position saved (board and last house) and the steps.
struct Brent<const W: usize> {
    saved: ([u16; W], usize),
    power: u32,
    lam: u32,
}

/// How a sowing spreads its counters ([`Sowing::spread`]).
#[derive(Debug, Clone, Copy)]
struct Spread {
    /// Whole laps: every sown house gets this many.
    laps: u16,
    /// The houses of the last part lap get one more: those of rank below this.
    rem: i16,
    /// The house the last counter falls in.
    last: usize,
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

/// The legal moves of a position as a bit mask, where they are just the sowable houses.
#[derive(Debug, Clone, Copy)]
enum Quick {
    /// The mover's static candidates that hold enough: bit `i` for `cand_moves[seat][i]`.
    Listed(usize, u32),
    /// The houses the mover may sow (daughters or stages in play), bit `h` for house `h`,
    /// each sown in its one direction.
    Houses(u32),
    /// The houses the mover may give a counter from, bit `h` for house `h`.
    Gifts(u32),
}

/// The `pick`-th of the candidates in `mask` (bit `i` for `moves[i]`), or a pass when there
/// is none: exactly the move [`Rules::legal_moves`] lists at that index. Returns it with the
/// number of legal moves.
#[inline]
fn pick_sowing(
    moves: &[SowingMove; RING],
    mask: u32,
    pick: impl FnOnce(usize) -> usize,
) -> (SowingMove, usize) {
    let n = mask.count_ones() as usize;
    if n == 0 {
        // A forced pass is a decision too: the draw is made as for any list of one.
        pick(1);
        return (SowingMove::Pass, 1);
    }
    (moves[nth_set_bit(mask, pick(n) as u32)], n)
}

/// The whole laps of `lap` houses in `counters`, and the counters left for a part lap: by
/// subtraction, as a sowing rarely makes more than one lap (a division would cost more).
#[inline(always)]
fn whole_laps(counters: u16, lap: usize) -> (u16, usize) {
    let mut rem = usize::from(counters);
    let mut laps = 0u16;
    while rem >= lap {
        rem -= lap;
        laps += 1;
    }
    (laps, rem)
}

/// `ALL_BUT[h]`: all ones but in lane `h`, to empty house `h` of a board by a mask.
static ALL_BUT: [[u16; RING]; RING] = {
    let mut table = [[u16::MAX; RING]; RING];
    let mut h = 0;
    while h < RING {
        table[h][h] = 0;
        h += 1;
    }
    table
};

/// `rank` of a house a sowing never fills. Ranks are `i16`, the width of the board, so that
/// sowing a whole window is one vector compare-and-add (SSE2 compares signed 16-bit lanes).
const NOT_SOWN: i16 = i16::MAX;

impl Sowing {
    /// Resolves the parameters into tables.
    ///
    /// # Errors
    /// [`SowingError`] for parameters the engine cannot play or that contradict each other.
    pub fn new(p: &SowingParams) -> Result<Self, SowingError> {
        if p.holes == 0 || usize::from(p.holes) > MAX_HOLES {
            return Err(SowingError::Holes(p.holes));
        }
        if p.counters > 64 {
            return Err(SowingError::Counters(p.counters));
        }
        if p.min_sow == 0 {
            return Err(SowingError::MinSow);
        }
        let mut capture_mask = 0u128;
        for &c in &p.capture_counts {
            if c == 0 || c >= 128 {
                return Err(SowingError::CaptureCount(c));
            }
            capture_mask |= 1u128 << c;
        }
        if p.end_check == EndCheck::AllPassed && p.end != End::NeitherCanMove {
            return Err(SowingError::EndCheck(kebab_name(&p.end)));
        }
        if p.ludii_left_hole_quirk && p.holes < 2 {
            return Err(SowingError::Quirk);
        }
        let limit = Limit::new(p.cap)?;
        let rule_limit = Limit::new(p.move_limit).map_err(|e| {
            let e = e.to_string();
            SowingError::Combination(format!("move_limit{}", e.strip_prefix("cap").unwrap_or(&e)))
        })?;
        let n = usize::from(p.holes);
        let mut cands = [[Cand {
            house: 0,
            dir: Dir::Cw,
            quirk: false,
        }; RING]; 2];
        let mut ncands = [0; 2];
        for seat in 0..2 {
            for j in 0..n {
                let dirs: &[Dir] = match p.direction {
                    Direction::Clockwise => &[Dir::Cw],
                    Direction::Anticlockwise => &[Dir::Ccw],
                    Direction::Either => &[Dir::Cw, Dir::Ccw],
                    Direction::Outward => {
                        // Left of the middle sows toward the left, right of it toward the
                        // right; an odd row's middle house either way.
                        if n % 2 == 1 && j == n / 2 {
                            &[Dir::Cw, Dir::Ccw]
                        } else if 2 * j < n {
                            &[Dir::Cw]
                        } else {
                            &[Dir::Ccw]
                        }
                    }
                };
                for &dir in dirs {
                    // Ludii 1.0.8 reads seat 0's map value 0 (its left house) as missing and
                    // falls back to the key, 1: the move is listed, but from the next house.
                    let quirk = p.ludii_left_hole_quirk && seat == 0 && j == 0;
                    let house = seat * n + if quirk { 1 } else { j };
                    cands[seat][ncands[seat]] = Cand {
                        house: house as u8,
                        dir,
                        quirk,
                    };
                    ncands[seat] += 1;
                }
            }
        }
        let r = 2 * n;
        let mut order = Box::new([[[0u8; RING]; RING]; 2]);
        let mut rank = Box::new([[[NOT_SOWN; RING]; RING]; 2]);
        for (d, dir) in [Dir::Cw, Dir::Ccw].into_iter().enumerate() {
            for origin in 0..r {
                let mut h = origin;
                let mut k = 0;
                while k < r - usize::from(p.skip_origin) {
                    h = step(h, dir, r);
                    if h == origin && p.skip_origin {
                        h = step(h, dir, r);
                    }
                    order[d][origin][k] = h as u8;
                    rank[d][origin][h] = k as i16;
                    k += 1;
                }
            }
        }
        // The list order an emulated engine uses (stable sorts: ties keep house order).
        for (seat, list) in cands.iter_mut().enumerate() {
            let row = |c: &Cand| {
                if c.quirk {
                    0
                } else {
                    usize::from(c.house) - seat * n
                }
            };
            let list = &mut list[..ncands[seat]];
            match p.move_order {
                MoveOrder::Houses => {}
                MoveOrder::ByDirection => list.sort_by_key(|c| {
                    // Seat 1's houses run from his left, which is the first player's right.
                    let across = if seat == 0 { row(c) } else { n - 1 - row(c) };
                    (c.dir == Dir::Ccw, across)
                }),
                MoveOrder::RightLeftCentre => list.sort_by_key(|c| match (row(c), c.dir) {
                    (j, Dir::Ccw) if j + 1 == n => 0,
                    (0, Dir::Cw) => 1,
                    (_, Dir::Ccw) => 2,
                    (_, Dir::Cw) => 3,
                }),
            }
        }
        let mut cand_moves = [[SowingMove::Pass; RING]; 2];
        for seat in 0..2 {
            for (m, c) in cand_moves[seat]
                .iter_mut()
                .zip(&cands[seat][..ncands[seat]])
            {
                *m = SowingMove::Sow {
                    house: c.house,
                    dir: c.dir,
                    take: TAKE_ALL,
                    quirk: c.quirk,
                };
            }
        }
        let mut cand_mask = [0u32; 2];
        for seat in 0..2 {
            for c in &cands[seat][..ncands[seat]] {
                cand_mask[seat] |= 1 << c.house;
            }
        }
        let own_rows = (0..2).all(|seat| {
            cands[seat][..ncands[seat]]
                .iter()
                .all(|c| usize::from(c.house) / n == seat)
        });
        let cand_table = (n <= 8 && own_rows).then(|| {
            let mut table = Box::new([[0u32; 256]; 2]);
            for (seat, rows) in table.iter_mut().enumerate() {
                for (held, mask) in rows.iter_mut().enumerate() {
                    for (i, c) in cands[seat][..ncands[seat]].iter().enumerate() {
                        *mask |= u32::from(held >> (usize::from(c.house) - seat * n) & 1 == 1) << i;
                    }
                }
            }
            table
        });
        let mut pos_dirs = [([Dir::Cw; 2], 0u8); MAX_HOLES];
        for (j, pd) in pos_dirs.iter_mut().enumerate().take(n) {
            for c in &cands[0][..ncands[0]] {
                if usize::from(c.house) == j && !c.quirk {
                    pd.0[usize::from(pd.1)] = c.dir;
                    pd.1 += 1;
                }
            }
        }
        let dynamic = p.daughters != Daughters::None || p.rounds == Rounds::Fours;
        if dynamic && p.ludii_left_hole_quirk {
            return Err(SowingError::Combination(
                "ludii_left_hole_quirk cannot be played with daughters or rounds: fours (its move \
                 list is fixed by row, while those houses change hands)"
                    .to_owned(),
            ));
        }
        if p.distribution != Distribution::Even && p.counters == 0 {
            return Err(SowingError::Combination(format!(
                "counters = 0 with distribution = {}: there would be nothing to distribute",
                kebab_name(&p.distribution)
            )));
        }
        if p.daughters != Daughters::None && !(1..128).contains(&p.daughter_count) {
            return Err(SowingError::Combination(format!(
                "daughter_count = {}: it must be 1 to 127",
                p.daughter_count
            )));
        }
        if let Some(cap) = p.relay_cap
            && !(1..=RELAY_LIMIT).contains(&cap)
        {
            return Err(SowingError::Combination(format!(
                "relay_cap = {cap}: a relay's cap is 1 to {RELAY_LIMIT} pick-ups"
            )));
        }
        if p.peck == 0 {
            return Err(SowingError::Combination(
                "peck = 0: a peck removes at least the last counter".to_owned(),
            ));
        }
        let optional_take = p.capture_last == Compulsion::Optional
            || (p.chain == Chain::Backward && p.chain_take != ChainTake::Compulsory);
        let mut row = [NO_SEAT; RING];
        for (h, r) in row.iter_mut().enumerate().take(2 * n) {
            *r = (h / n) as u8;
        }
        let mut house_dir = [Dir::Cw; RING];
        for (h, d) in house_dir.iter_mut().enumerate().take(2 * n) {
            *d = pos_dirs[h % n].0[0];
        }
        let mut rules = Sowing {
            p: p.clone(),
            n,
            r: 2 * n,
            row,
            endless_search: false,
            single_dir: pos_dirs[..n].iter().all(|&(_, k)| k == 1),
            capture_mask,
            capture_words: [capture_mask as u64, (capture_mask >> 64) as u64],
            cands,
            ncands,
            optional_take,
            relay_limit: limit.moves().unwrap_or(RELAY_LIMIT),
            rule_limit,
            limit,
            order,
            rank,
            cand_moves,
            cand_mask,
            row_masks: [0, 1].map(|seat| (u32::MAX >> (32 - n)) << (seat * n)),
            cand_table,
            dynamic,
            pos_dirs,
            house_dir,
            quick_relay: false,
            lane_adds: Vec::new(),
            quick_settle: false,
            drive_bare: false,
            sow_rows: [u32::MAX; 2],
        };
        rules.endless_search = rules.can_be_endless();
        rules.resolve_dynamic();
        Ok(rules)
    }

    /// The parameters.
    pub fn params(&self) -> &SowingParams {
        &self.p
    }

    /// Houses in a row.
    pub fn holes(&self) -> usize {
        self.n
    }

    /// A move displayed with house names (`a3 cw`).
    pub fn display(&self, mv: SowingMove) -> MoveDisplay {
        MoveDisplay { mv, holes: self.n }
    }

    /// Checks a setup into a position (which may already be over, if nobody can move).
    ///
    /// # Errors
    /// [`SetupError`] for rows of the wrong length or a seat that does not exist.
    pub fn setup(&self, setup: &SowingSetup) -> Result<SowingState, SetupError> {
        self.setup_with_events(setup, &mut NoEvents)
    }

    /// [`Sowing::setup`], reporting the rules that fire at once (a stage already complete,
    /// say).
    ///
    /// # Errors
    /// As [`Sowing::setup`].
    pub fn setup_with_events(
        &self,
        setup: &SowingSetup,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Result<SowingState, SetupError> {
        self.setup_in_stage(setup, None, events)
    }

    /// [`Sowing::setup_with_events`] for a position within a stage that began with `stake`
    /// counters for each seat (on the board and in hand; by default, the first stage's), which
    /// decides who gained in it when it is reckoned.
    ///
    /// # Errors
    /// As [`Sowing::setup`].
    pub fn setup_in_stage(
        &self,
        setup: &SowingSetup,
        stake: Option<[u32; 2]>,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Result<SowingState, SetupError> {
        for &(house, seat) in &setup.daughters {
            if house >= self.r || seat > 1 {
                return Err(SetupError::Daughter {
                    house,
                    seat,
                    last: self.r - 1,
                });
            }
        }
        for (seat, row) in setup.rows.iter().enumerate() {
            if row.len() != self.n {
                return Err(SetupError::RowLength {
                    seat: seat + 1,
                    got: row.len(),
                    expected: self.n,
                });
            }
        }
        if setup.to_move > 1 {
            return Err(SetupError::Seat(setup.to_move));
        }
        let mut state = self.initial();
        state.pos.board = [0; RING];
        for (seat, row) in setup.rows.iter().enumerate() {
            state.pos.board[seat * self.n..(seat + 1) * self.n].copy_from_slice(row);
        }
        state.pos.store = setup.stores;
        state.hand = 0;
        for &(house, seat) in &setup.daughters {
            state.pos.mark[house] = seat as u8 + 1;
        }
        state.mover = setup.to_move as u8;
        if let Some(stake) = stake {
            state.stake = stake;
        }
        state.phase = Phase::Play;
        // A set-up position is not the start of a game: a tie here replays from the start.
        state.game_start = u32::MAX;
        self.settle(&mut state, events);
        Ok(state)
    }

    /// The board as text, seat 1's row on top as seat 0 sees it (his right to his left),
    /// seat 0's row below from his left, then the stores.
    pub fn board_text(&self, s: &SowingState) -> String {
        let n = self.n;
        let top: Vec<String> = (n..2 * n)
            .rev()
            .map(|h| s.pos.board[h].to_string())
            .collect();
        let bottom: Vec<String> = (0..n).map(|h| s.pos.board[h].to_string()).collect();
        format!(
            "b{n}..b1: {} | a1..a{n}: {} | taken {}-{}",
            top.join(" "),
            bottom.join(" "),
            s.pos.store[0],
            s.pos.store[1]
        )
    }

    #[inline]
    fn prev(&self, h: usize, dir: Dir) -> usize {
        step(
            h,
            match dir {
                Dir::Cw => Dir::Ccw,
                Dir::Ccw => Dir::Cw,
            },
            self.r,
        )
    }

    #[inline]
    fn captures(&self, count: u16) -> bool {
        let word = usize::from(count >> 6);
        word < 2 && self.capture_words[word] >> (count & 63) & 1 == 1
    }

    #[inline]
    fn row_ok(&self, rows: Rows, house: usize, mover: usize) -> bool {
        let owner = usize::from(self.row[house]);
        match rows {
            Rows::Opponent => owner != mover,
            Rows::Own => owner == mover,
            Rows::Any => true,
        }
    }

    #[inline]
    fn can_move(&self, pos: &Pos, seat: usize) -> bool {
        let min = u16::from(self.p.min_sow);
        if self.dynamic {
            return self.sowable(pos, seat) != 0;
        }
        self.held(&pos.board, min) & self.cand_mask[seat] != 0
    }

    /// Whether neither seat can sow.
    #[inline]
    fn no_moves(&self, pos: &Pos) -> bool {
        if self.dynamic {
            return !self.can_move(pos, 0) && !self.can_move(pos, 1);
        }
        let min = u16::from(self.p.min_sow);
        self.held(&pos.board, min) & (self.cand_mask[0] | self.cand_mask[1]) == 0
    }

    /// The houses that hold at least `min`, as a bit mask: four houses to a word, the words
    /// that cover the circuit only (slots beyond it hold nothing).
    #[inline]
    fn held(&self, board: &[u16; RING], min: u16) -> u32 {
        let (halves, _) = board.as_chunks::<{ RING / 2 }>();
        let mut mask = at_least_16(&halves[0], min);
        if self.r > RING / 2 {
            mask |= at_least_16(&halves[1], min) << (RING / 2);
        }
        mask
    }

    /// The houses `seat` may sow (dynamic games), as a bit mask of circuit indices: he owns
    /// them, they are no daughters, they hold enough, and under `sow_from: own-row` they lie
    /// in his row. Computed for all 32 slots at once, branch-free (slots beyond the circuit
    /// have no owner), instead of a test and a branch per house.
    #[inline]
    fn sowable(&self, pos: &Pos, seat: usize) -> u32 {
        let mask = self.houses(pos, Some(seat), u16::from(self.p.min_sow));
        if self.p.sow_from == SowFrom::Owns {
            mask
        } else {
            mask & self.row_mask(seat)
        }
    }

    /// The houses that are no daughters, hold at least `min` and, if `owner` is given, are
    /// his, as a bit mask. Over the first 16 slots when the circuit fits in them, else over
    /// all 32 (slots beyond the circuit hold nothing and have no owner).
    #[inline]
    fn houses(&self, pos: &Pos, owner: Option<usize>, min: u16) -> u32 {
        if !self.dynamic {
            // Static games mark no house and each seat owns his row (`restart`).
            debug_assert!(pos.mark == [0; RING] && pos.owner == self.row);
            let held = self.held(&pos.board, min);
            return owner.map_or(held, |seat| held & self.row_mask(seat));
        }
        let chunks = if self.r <= RING / 2 { 2 } else { 4 };
        let mut mask = 0u32;
        for k in 0..chunks {
            let mut bytes = zero_bytes(byte_word(&pos.mark, k));
            if let Some(o) = owner {
                bytes &= zero_bytes(byte_word(&pos.owner, k) ^ (o as u64 * BYTES_1));
            }
            let lanes = lanes_at_least(lane_word(&pos.board, 2 * k), min)
                | lanes_at_least(lane_word(&pos.board, 2 * k + 1), min) << 4;
            mask |= (bytes & lanes) << (8 * k);
        }
        mask
    }

    /// A dynamic game's house masks, found together in one pass over the board (the marks
    /// and counters read once, where [`Sowing::houses`] for each question reads them again):
    /// the ordinary houses that hold any counter, and the houses each seat may sow
    /// ([`Sowing::sowable`]), given the houses each owns.
    #[inline(always)]
    fn dynamic_masks(&self, pos: &Pos, owned: [u32; 2]) -> (u32, [u32; 2]) {
        let min = u16::from(self.p.min_sow);
        let (board, _) = pos.board.as_chunks::<{ RING / 2 }>();
        let (marks, _) = pos.mark.as_chunks::<{ RING / 2 }>();
        let (mut occupied, mut enough) = half_masks(&board[0], &marks[0], min);
        if self.r > RING / 2 {
            let (o, e) = half_masks(&board[1], &marks[1], min);
            occupied |= o << (RING / 2);
            enough |= e << (RING / 2);
        }
        let sowable = [
            enough & owned[0] & self.sow_rows[0],
            enough & owned[1] & self.sow_rows[1],
        ];
        (occupied, sowable)
    }

    /// Resolves, once, what the dynamic paths would otherwise read from the parameters at
    /// every move: see [`Sowing::quick_relay`], [`Sowing::quick_settle`],
    /// [`Sowing::drive_bare`] and [`Sowing::sow_rows`].
    fn resolve_dynamic(&mut self) {
        let p = &self.p;
        self.quick_relay = self.dynamic
            && self.r <= RING / 2
            && p.relay
            && p.relay_when == RelayWhen::Occupied
            && p.empty_stops != EmptyStops::BeforeMove
            && p.daughters != Daughters::None
            && !p.skip_origin
            && p.relay_cap.is_none();
        if self.quick_relay {
            let lap = self.r;
            let mut entries = vec![
                QuickLap {
                    adds: [0; 16],
                    last: 0
                };
                2 * 16 * 16
            ];
            for (k, entry) in entries.iter_mut().enumerate() {
                let (dir, origin, rem) = (k / 256, k / 16 % 16, k % 16);
                for (i, a) in entry.adds.iter_mut().enumerate() {
                    *a = u16::from(self.rank[dir][origin][i] < rem as i16);
                }
                entry.adds[origin] = entry.adds[origin].wrapping_sub(rem as u16);
                // A sowing of a whole number of laps ends where a lap does.
                entry.last = self.order[dir][origin][if rem > 0 { rem - 1 } else { lap - 1 }];
            }
            self.lane_adds = entries;
        }
        let p = &self.p;
        self.quick_settle = self.dynamic
            && !matches!(p.stage_end, StageEnd::Cleared | StageEnd::NoCapture)
            && p.end_check == EndCheck::Immediate
            && p.end == End::NeitherCanMove
            && !self.rule_limit.is_on()
            && !p.all_pass_draw
            && !self.endless_search
            && p.repetition == Repetition::None;
        self.drive_bare = p.rounds == Rounds::Fours && p.driven_off == DrivenOff::NoCounters;
        self.sow_rows = if p.sow_from == SowFrom::Owns {
            [u32::MAX; 2]
        } else {
            self.row_masks
        };
    }

    /// The houses each seat owns, as bit masks.
    fn owner_masks(&self, pos: &Pos) -> [u32; 2] {
        let mut owned = [0u32; 2];
        for k in 0..RING / 8 {
            let w = byte_word(&pos.owner, k);
            owned[0] |= zero_bytes(w) << (8 * k);
            owned[1] |= zero_bytes(w ^ BYTES_1) << (8 * k);
        }
        owned
    }

    /// The houses of `seat`'s row, as a bit mask.
    #[inline]
    fn row_mask(&self, seat: usize) -> u32 {
        self.row_masks[seat]
    }

    /// The directions house `h` may be sown in (dynamic games).
    #[inline]
    fn house_dirs(&self, h: usize) -> &[Dir] {
        // `h % n` without a division: `h` is below `2n`.
        let (dirs, k) = &self.pos_dirs[if h >= self.n { h - self.n } else { h }];
        &dirs[..usize::from(*k)]
    }

    /// [`Sowing::candidate_moves`] in a dynamic game whose captures the rules decide: the
    /// sowable houses' moves written branch-free into a buffer, as the static path does.
    #[inline]
    fn dynamic_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let mut mask = self.sowable(pos, seat);
        // At most two directions a house: one reservation, then pushes that never grow.
        out.reserve(2 * mask.count_ones() as usize);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            for &dir in self.house_dirs(h) {
                out.push(SowingMove::sow(h, dir));
            }
        }
    }

    /// Whether house `h` counts as the opponent's for begetting a daughter.
    fn opponents_house(&self, pos: &Pos, h: usize, mover: usize) -> bool {
        match self.p.daughters {
            Daughters::None => false,
            Daughters::OpponentHouses => usize::from(pos.owner[h]) == 1 - mover,
            Daughters::OpponentOriginalRow => usize::from(self.row[h]) != mover,
        }
    }

    /// Sows `house` in `dir` on `board`: returns the last house. Emits a lap event.
    #[inline]
    fn sow_counters(
        &self,
        board: &mut [u16; RING],
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> usize {
        let counters = board[house];
        if usize::from(counters) >= self.r {
            events.emit(SowingEvent::Lap { counters });
        }
        // Every house gets one counter per whole lap, and the first `rem` houses in sowing
        // order one more: computed for all slots at once from the rank table, without a
        // branch per counter (a sowing's length is data no branch predictor can learn).
        let spread = self.spread(house, dir, counters);
        let rank = &self.rank[dir as usize][house];
        // On a local copy, so the compiler sees two plain arrays and vectorises. The origin
        // is emptied by a mask, not by a store before the copy: a two-byte store the
        // processor must forward into the copy's wide loads stalls it.
        let mut b = *board;
        for (c, &keep) in b.iter_mut().zip(&ALL_BUT[house]) {
            *c &= keep;
        }
        let rank: [i16; RING] = *rank;
        if spread.laps > 0 {
            for i in 0..RING {
                b[i] =
                    b[i].wrapping_add(spread.laps & ((rank[i] != NOT_SOWN) as u16).wrapping_neg());
            }
        }
        for i in 0..RING {
            b[i] = b[i].wrapping_add((rank[i] < spread.rem) as u16);
        }
        *board = b;
        spread.last
    }

    /// How `counters` sown from `house` in `dir` spread: the whole laps, the houses of the
    /// last part lap and the house the last counter reaches. The one reckoning of a sowing's
    /// shape, for [`Sowing::sow_counters`] and for the look-ahead that reads the sown board
    /// without making it ([`Sowing::sown_count`]).
    #[inline]
    fn spread(&self, house: usize, dir: Dir, counters: u16) -> Spread {
        let lap = self.r - usize::from(self.p.skip_origin);
        let (laps, rem) = whole_laps(counters, lap);
        let last = if rem > 0 { rem - 1 } else { lap - 1 };
        Spread {
            laps,
            rem: rem as i16,
            last: usize::from(self.order[dir as usize][house][last]),
        }
    }

    /// What house `h` holds once `house` of `board` is sown in `dir` as `spread` says: what
    /// [`Sowing::sow_counters`] leaves there, for one house.
    #[inline]
    fn sown_count(
        &self,
        board: &[u16; RING],
        house: usize,
        dir: Dir,
        spread: Spread,
        h: usize,
    ) -> u16 {
        let rank = self.rank[dir as usize][house][h];
        let before = if h == house { 0 } else { board[h] };
        before
            .wrapping_add(spread.laps & ((rank != NOT_SOWN) as u16).wrapping_neg())
            .wrapping_add((rank < spread.rem) as u16)
    }

    /// Whether a lap of `counters` goes all the way round past the house it starts from.
    #[inline]
    fn laps(&self, counters: u16) -> bool {
        usize::from(counters) >= self.r - usize::from(self.p.skip_origin)
    }

    /// The house the chain examines after `h`, going back along the sowing that ended at
    /// `last` and whose last lap started at `origin`; `None` where the chain must stop: at the
    /// origin under `chain_origin: stop`, or, under `take`, when it would come round to the
    /// last house again. Under `take`, an origin the lap passed over (`skip_origin`) is passed
    /// over by the chain too.
    #[inline]
    fn chain_prev(
        &self,
        h: usize,
        last: usize,
        (origin, lapped): (usize, bool),
        dir: Dir,
    ) -> Option<usize> {
        let mut x = self.prev(h, dir);
        match self.p.chain_origin {
            ChainOrigin::Stop => (x != origin).then_some(x),
            ChainOrigin::Take => {
                if x == origin && lapped && self.p.skip_origin {
                    x = self.prev(x, dir);
                }
                (x != last).then_some(x)
            }
        }
    }

    /// How many houses the last counter and the chain may take, from `last` back toward
    /// `origin` (never examined under `chain_origin: stop`), and the house where the chain
    /// stopped only because of its row.
    #[inline]
    fn capture_run(
        &self,
        count: impl Fn(usize) -> u16,
        (origin, lapped): (usize, bool),
        last: usize,
        dir: Dir,
        mover: usize,
    ) -> (u8, Option<usize>) {
        if self.capture_mask == 0 {
            // No count captures (Um el Banât): nothing to read.
            return (0, None);
        }
        if !self.row_ok(self.p.capture_rows, last, mover) || !self.captures(count(last)) {
            return (0, None);
        }
        if self.p.chain == Chain::None {
            return (1, None);
        }
        let mut len = 1u8;
        let mut h = last;
        loop {
            h = match self.chain_prev(h, last, (origin, lapped), dir) {
                Some(x) => x,
                None => return (len, None),
            };
            if !self.captures(count(h)) {
                return (len, None);
            }
            if !self.row_ok(self.p.chain_rows, h, mover) {
                return (len, Some(h));
            }
            len += 1;
            if self.p.chain == Chain::Previous {
                return (len, None);
            }
        }
    }

    /// Sows from `house`, relaying if the reading does, and applies what the last counter
    /// does where it falls: a peck, a drink, a daughter begotten, a stop in an empty house, or
    /// a relay on (pecks, drinks and daughters in a dynamic game, which `sow_dynamic` plays:
    /// the rules of where a sowing lands are written there and here, in two forms of one
    /// reading of the board). The board is left where the sowing ended (or where a cycle was
    /// found).
    fn sow_all(
        &self,
        pos: &mut Pos,
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        if self.dynamic {
            return if self.quick_relay {
                self.sow_dynamic::<{ RING / 2 }, true>(pos, mover, house, dir, events)
            } else if self.r <= RING / 2 {
                self.sow_dynamic::<{ RING / 2 }, false>(pos, mover, house, dir, events)
            } else {
                self.sow_dynamic::<RING, false>(pos, mover, house, dir, events)
            };
        }
        let start =
            (self.p.relay && self.p.empty_stops == EmptyStops::BeforeMove).then_some(pos.board);
        let mut origin = house;
        let mut lapped = self.laps(pos.board[origin]);
        let mut last = self.sow_counters(&mut pos.board, origin, dir, events);
        // Daughters make a game dynamic (`sow_dynamic` has their pecks, drinks and
        // begetting): here a sowing without relays is done.
        debug_assert_eq!(self.p.daughters, Daughters::None);
        if !self.p.relay {
            return Landing::Stop {
                origin,
                last,
                lapped,
            };
        }
        // Where the relay began, to find where a cycle first closes (a standstill).
        let first = (self.p.relay_cycle == RelayCycled::Standstill).then_some((pos.board, last));
        // Brent's cycle detection on (board, house) once a relay has gone on for long: the
        // counters are finite, so a relay either stops or revisits a position.
        let mut laps = 0u32;
        let mut saved = (pos.board, last);
        let (mut power, mut lam) = (1u32, 0u32);
        loop {
            // Empty before the last counter fell; under `before-move`, also empty before the
            // move began (a house emptied during the move relays on).
            let was_empty = pos.board[last] == 1 && start.as_ref().is_none_or(|b| b[last] == 0);
            let stops = match self.p.relay_when {
                RelayWhen::Occupied => was_empty,
                RelayWhen::Odd => was_empty || pos.board[last].is_multiple_of(2),
                RelayWhen::OddOrEmpty => pos.board[last].is_multiple_of(2),
            };
            if stops {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if self.p.relay_cap.is_some_and(|cap| laps >= cap) {
                events.emit(SowingEvent::RelayCapped { house: last as u8 });
                return Landing::Standstill;
            }
            events.emit(SowingEvent::Relay {
                house: last as u8,
                counters: pos.board[last],
            });
            origin = last;
            lapped = self.laps(pos.board[origin]);
            last = self.sow_counters(&mut pos.board, origin, dir, events);
            laps += 1;
            // A capped relay ends by its cap; otherwise look for a cycle.
            if laps >= 64 && self.p.relay_cap.is_none() {
                // A cycle can be too long for Brent's walk to close in reasonable time (80
                // counters relaying round 20 houses): a relay still going after the move cap
                // (each lap a move, as Ludii counts them) or, uncapped, after
                // `RELAY_LIMIT` sowings is taken as one that never stops.
                if (pos.board, last) == saved || laps >= self.relay_limit {
                    if let Some(first) = first {
                        // A standstill where the cycle first closed; a relay still going at
                        // the limit with no cycle found stands still where it is.
                        if (pos.board, last) == saved {
                            pos.board = self.cycle_entry(first, (pos.board, last), dir);
                        }
                        events.emit(SowingEvent::RelayStandstill);
                        return Landing::Standstill;
                    }
                    events.emit(SowingEvent::RelayCycle);
                    return Landing::Cycle;
                }
                lam += 1;
                if lam == power {
                    saved = (pos.board, last);
                    power *= 2;
                    lam = 0;
                }
            }
        }
    }

    /// [`Sowing::sow_all`] in a dynamic game (daughters or stages), whose relays, pecks and
    /// daughters are most of its work: the same rules, on a copy of the first `W` houses
    /// (16 when the circuit fits in them; the houses beyond it hold nothing and are never
    /// sown) kept apart from `pos.board` until the move is done. The board before the move
    /// thus stays at hand: `before-move` reads its empty houses there, and a relay gone on
    /// long enough for the search for a cycle re-sows its first lap from it, instead of a
    /// copy of the board made at every move for a search that almost never runs. `QUICK`:
    /// the reading's relay has the shape [`Sowing::quick_relay`] says, so that the parameters
    /// it fixes are constants here, neither loaded nor tested at every sowing.
    fn sow_dynamic<const W: usize, const QUICK: bool>(
        &self,
        pos: &mut Pos,
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        let mut b: [u16; W] = std::array::from_fn(|i| pos.board[i]);
        let landing = self.relay_dynamic::<W, QUICK>(pos, &mut b, mover, house, dir, events);
        pos.board[..W].copy_from_slice(&b);
        landing
    }

    /// The body of [`Sowing::sow_dynamic`]: `b` is the board as the move goes, `pos.board`
    /// the board before it (and, on a standstill, set to where the relay stands).
    #[inline]
    fn relay_dynamic<const W: usize, const QUICK: bool>(
        &self,
        pos: &mut Pos,
        b: &mut [u16; W],
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        debug_assert!(!QUICK || self.quick_relay);
        // What `quick_relay` fixes, as constants under `QUICK`.
        let relay = QUICK || self.p.relay;
        let daughters = QUICK || self.p.daughters != Daughters::None;
        let uncapped = QUICK || self.p.relay_cap.is_none();
        let skip_origin = !QUICK && self.p.skip_origin;
        let relay_when = if QUICK {
            RelayWhen::Occupied
        } else {
            self.p.relay_when
        };
        let before_move = !QUICK && relay && self.p.empty_stops == EmptyStops::BeforeMove;
        let mut origin = house;
        // Brent's cycle detection on (board, house) once a relay has gone on for long, as in
        // `sow_all`: its state is made only then (`long_relay`), out of the common path.
        let mut laps = 0u32;
        let mut brent: Option<Brent<W>> = None;
        // The count in the house sown from, carried from one sowing to the next: read back
        // from `b` just after its vector write, it was the loop's longest wait. The first
        // is read from the board before the move (`b` is its copy, just written).
        debug_assert_eq!(b[origin], pos.board[origin]);
        let mut count = pos.board[origin];
        // Each turn of the loop sows once (the move's first lap, then each relay): one place
        // that sows, so that it inlines.
        loop {
            let lapped = usize::from(count) >= self.r - usize::from(skip_origin);
            let (last, landed) = if QUICK {
                self.sow_quick(b, origin, count, dir, events)
            } else {
                let last = self.sow_lanes(b, origin, dir, skip_origin, events);
                (last, b[last])
            };
            debug_assert_eq!(landed, b[last]);
            if laps == 0 && !relay && !daughters {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            // A capped relay ends by its cap; otherwise look for a cycle.
            if laps >= 64
                && uncapped
                && let Some(landing) =
                    self.long_relay(&mut brent, pos, b, (house, dir), (last, laps), events)
            {
                return landing;
            }
            // A daughter's house: an empty one may stop the move, else a peck or a drink. An
            // ordinary house (most) tests nothing more here.
            let mark = if daughters { pos.mark[last] } else { 0 };
            if mark != 0 {
                if landed == 1 && self.p.emptied_daughter == EmptiedDaughter::EmptyStops {
                    events.emit(SowingEvent::EmptyDaughterStop { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
                if usize::from(mark) == 2 - mover {
                    let taken = b[last].min(u16::from(self.p.peck));
                    b[last] -= taken;
                    match self.p.pecked {
                        Pecked::Pecker => pos.store[mover] += u32::from(taken),
                        Pecked::Discarded => pos.discarded += u32::from(taken),
                    }
                    events.emit(SowingEvent::Peck {
                        house: last as u8,
                        counters: taken,
                    });
                    if b[last] == 0 && self.p.emptied_daughter == EmptiedDaughter::LosesMark {
                        pos.mark[last] = 0;
                        events.emit(SowingEvent::DaughterLost { house: last as u8 });
                    }
                    return Landing::Again;
                }
                if usize::from(mark) == mover + 1 {
                    events.emit(SowingEvent::Drink { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
            }
            let was_empty = landed == 1 && (!before_move || pos.board[last] == 0);
            let stops = match relay_when {
                RelayWhen::Occupied => was_empty,
                RelayWhen::Odd => was_empty || landed.is_multiple_of(2),
                RelayWhen::OddOrEmpty => landed.is_multiple_of(2),
            };
            if stops {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if daughters && landed == u16::from(self.p.daughter_count) {
                if self.opponents_house(pos, last, mover) {
                    pos.mark[last] = mover as u8 + 1;
                    events.emit(SowingEvent::Daughter { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
                if self.p.own_count == OwnCount::Stop {
                    events.emit(SowingEvent::OwnCountStop { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
            }
            if !relay {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if !QUICK && self.p.relay_cap.is_some_and(|cap| laps >= cap) {
                events.emit(SowingEvent::RelayCapped { house: last as u8 });
                return Landing::Standstill;
            }
            events.emit(SowingEvent::Relay {
                house: last as u8,
                counters: landed,
            });
            origin = last;
            count = landed;
            laps += 1;
        }
    }

    /// A relay gone on for 64 sowings or more ([`Sowing::relay_dynamic`]), sown from `house`
    /// in `dir` and now at `last` after `laps` relays: one step of Brent's search for a
    /// cycle, `brent` its state (made at the first step). Where the relay cycles or reaches
    /// the relay limit, what the reading makes of it: a standstill (`b` set to where the
    /// relay first closed its cycle) or a cycle.
    #[cold]
    #[inline(never)]
    fn long_relay<const W: usize>(
        &self,
        brent: &mut Option<Brent<W>>,
        pos: &Pos,
        b: &mut [u16; W],
        (house, dir): (usize, Dir),
        (last, laps): (usize, u32),
        events: &mut impl EventSink<SowingEvent>,
    ) -> Option<Landing> {
        let state = brent.get_or_insert_with(|| Brent {
            saved: self.first_lap(&pos.board, house, dir),
            power: 1,
            lam: 0,
        });
        let cycled = (*b, last) == state.saved;
        if cycled || laps >= self.relay_limit {
            if self.p.relay_cycle == RelayCycled::Standstill {
                if cycled {
                    // `saved` is on the cycle; the relay stands where it first closed.
                    let start: ([u16; W], usize) = self.first_lap(&pos.board, house, dir);
                    let mut seen = pos.board;
                    seen[..W].copy_from_slice(b);
                    let mut full = pos.board;
                    full[..W].copy_from_slice(&start.0);
                    let entry = self.cycle_entry((full, start.1), (seen, last), dir);
                    b.copy_from_slice(&entry[..W]);
                }
                events.emit(SowingEvent::RelayStandstill);
                return Some(Landing::Standstill);
            }
            events.emit(SowingEvent::RelayCycle);
            return Some(Landing::Cycle);
        }
        state.lam += 1;
        if state.lam == state.power {
            state.saved = (*b, last);
            state.power *= 2;
            state.lam = 0;
        }
        None
    }

    /// [`Sowing::sow_lanes`] on 16 houses where [`Sowing::quick_relay`] holds (no origin
    /// skipped, so every house of the circuit is sown on each whole lap and the origin is
    /// the last of a lap): one add of an entry of [`Sowing::lane_adds`] (which also empties
    /// the origin of a sowing shorter than a lap), the whole laps (rare) added apart.
    /// `counters` is what `house` holds; returns the last house sown and what it then holds,
    /// found from the table and the board before the add, so that the next sowing need not
    /// wait to read it back.
    #[inline(always)]
    fn sow_quick<const W: usize>(
        &self,
        b: &mut [u16; W],
        house: usize,
        counters: u16,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> (usize, u16) {
        debug_assert!(self.quick_relay && house < self.r && W == 16);
        debug_assert_eq!(counters, b[house]);
        #[cfg(debug_assertions)]
        let expected = {
            let mut lanes = *b;
            let last = self.sow_lanes(&mut lanes, house, dir, false, &mut NoEvents);
            (lanes, last)
        };
        let lap = self.r;
        if usize::from(counters) >= lap {
            events.emit(SowingEvent::Lap { counters });
        }
        let (laps, rem) = whole_laps(counters, lap);
        let entry = &self.lane_adds[(dir as usize * 16 + house) * 16 + rem];
        // Below 16 (the circuit fits in 16 houses): the mask only tells the compiler so,
        // sparing the bounds checks of the houses it indexes.
        let last = usize::from(entry.last) & 15;
        // A part lap puts one counter in its last house, never the origin (whole laps are
        // added apart, and the count then read back): not a second load on the chain.
        debug_assert!(laps > 0 || (last != house && entry.adds[last] == 1));
        let mut landed = b[last].wrapping_add(1);
        // The entry takes `rem` from the origin, all it holds when there is no whole lap.
        for (o, &add) in b.iter_mut().zip(&entry.adds) {
            *o = o.wrapping_add(add);
        }
        if laps > 0 {
            add_laps(b, laps, lap, house);
            landed = b[last];
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!((*b, last), expected);
        (last, landed)
    }

    /// The board and last house after the first lap of a move from `house` on `board`.
    #[cold]
    fn first_lap<const W: usize>(
        &self,
        board: &[u16; RING],
        house: usize,
        dir: Dir,
    ) -> ([u16; W], usize) {
        let mut b: [u16; W] = std::array::from_fn(|i| board[i]);
        let last = self.sow_lanes(&mut b, house, dir, self.p.skip_origin, &mut NoEvents);
        (b, last)
    }

    /// [`Sowing::sow_counters`] on the first `W` houses (all that a circuit of at most `W`
    /// houses has): half the work where the circuit fits in 16. The origin is emptied in the
    /// same pass as the counters are added, by its rank (the last of a lap that refills it;
    /// under `skip_origin` never sown, as the slots beyond the circuit, which hold nothing),
    /// not by a store the pass then reloads.
    #[inline(always)]
    fn sow_lanes<const W: usize>(
        &self,
        b: &mut [u16; W],
        house: usize,
        dir: Dir,
        skip_origin: bool,
        events: &mut impl EventSink<SowingEvent>,
    ) -> usize {
        debug_assert_eq!(skip_origin, self.p.skip_origin);
        let counters = b[house];
        if usize::from(counters) >= self.r {
            events.emit(SowingEvent::Lap { counters });
        }
        let lap = self.r - usize::from(skip_origin);
        let (laps, rem) = whole_laps(counters, lap);
        let origin_rank = if skip_origin {
            NOT_SOWN
        } else {
            lap as i16 - 1
        };
        let rank = &self.rank[dir as usize][house];
        let (rem16, mut out) = (rem as i16, *b);
        // Eight lanes (one SSE2 register) at a time, one pass whether or not there are whole
        // laps: the compiler keeps the whole of it in vector registers.
        for c in 0..W / 8 {
            for j in 0..8 {
                let i = 8 * c + j;
                let keep = u16::from(rank[i] != origin_rank).wrapping_neg();
                let sown = u16::from(rank[i] != NOT_SOWN).wrapping_neg();
                out[i] = (out[i] & keep)
                    .wrapping_add(laps & sown)
                    .wrapping_add(u16::from(rank[i] < rem16));
            }
        }
        *b = out;
        let last = if rem > 0 { rem - 1 } else { lap - 1 };
        usize::from(self.order[dir as usize][house][last])
    }

    /// One step of a relay: the counters of `last` sown on.
    fn relay_step(
        &self,
        (mut board, last): ([u16; RING], usize),
        dir: Dir,
    ) -> ([u16; RING], usize) {
        let last = self.sow_counters(&mut board, last, dir, &mut NoEvents);
        (board, last)
    }

    /// The board at which a relay that cycles first comes back to a position (board and
    /// house) it has been at: `first` is where the relay began, `seen` a position on the
    /// cycle. The cycle's length is walked from `seen`, then two walkers that far apart go
    /// from `first` until they meet (Brent's second phase).
    #[cold]
    fn cycle_entry(
        &self,
        first: ([u16; RING], usize),
        seen: ([u16; RING], usize),
        dir: Dir,
    ) -> [u16; RING] {
        let mut len = 1u32;
        let mut x = self.relay_step(seen, dir);
        while x != seen {
            x = self.relay_step(x, dir);
            len += 1;
        }
        let (mut slow, mut fast) = (first, first);
        for _ in 0..len {
            fast = self.relay_step(fast, dir);
        }
        while slow != fast {
            slow = self.relay_step(slow, dir);
            fast = self.relay_step(fast, dir);
        }
        slow.0
    }

    /// Sows and captures on `pos` for `mover`; the one implementation of a move, used for
    /// play and (with [`NoEvents`]) for looking ahead.
    fn sow_and_take(
        &self,
        pos: &mut Pos,
        mover: usize,
        (house, dir, take): (usize, Dir, u8),
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        let (house, last, lapped) = match self.sow_all(pos, mover, house, dir, events) {
            Landing::Stop {
                origin,
                last,
                lapped,
            } => (origin, last, lapped),
            other => return other,
        };
        let Pos { board, store, .. } = pos;
        let (len, row_stop) = self.capture_run(|h| board[h], (house, lapped), last, dir, mover);
        if len == 0 {
            // Nothing to take (most sowings): no capture, no event.
            return Landing::Stop {
                origin: house,
                last,
                lapped,
            };
        }
        let back = |h: usize| self.chain_prev(h, last, (house, lapped), dir).unwrap_or(h);
        let take = if take == TAKE_ALL { len } else { take.min(len) };
        if len > 0 && take == 0 {
            events.emit(SowingEvent::CaptureDeclined { house: last as u8 });
        }
        let mut h = last;
        for i in 0..take {
            let counters = board[h];
            if counters == 0 {
                // Emptied already, as an earlier house's opposite: nothing to take here.
                h = back(h);
                continue;
            }
            board[h] = 0;
            store[mover] += u32::from(counters);
            if i == 0 {
                events.emit(SowingEvent::Capture {
                    house: h as u8,
                    counters,
                });
            } else {
                events.emit(SowingEvent::Chain {
                    house: h as u8,
                    counters,
                });
                if usize::from(self.row[h]) == mover {
                    events.emit(SowingEvent::ChainOwnRow { house: h as u8 });
                }
                if h == house {
                    events.emit(SowingEvent::ChainOrigin { house: h as u8 });
                }
            }
            // The house directly opposite goes too, where the reading says so (Ludii's
            // "OppositePitTwoRows"); taken in order, so a house already emptied gives nothing.
            if self.p.opposite == Opposite::Every || (self.p.opposite == Opposite::Last && i == 0) {
                let o = self.r - 1 - h;
                if board[o] > 0 {
                    let counters = std::mem::take(&mut board[o]);
                    store[mover] += u32::from(counters);
                    events.emit(SowingEvent::OppositeTaken {
                        house: o as u8,
                        counters,
                    });
                }
            }
            h = back(h);
        }
        if take > 0 && take < len {
            events.emit(SowingEvent::ChainStopped {
                taken: take,
                available: len,
            });
        }
        if take == len
            && let Some(stop) = row_stop
        {
            events.emit(SowingEvent::ChainRowStop { house: stop as u8 });
        }
        Landing::Stop {
            origin: house,
            last,
            lapped,
        }
    }

    /// The houses `take` may be for a sowing whose last counter and chain may take `len`.
    fn takes(&self, len: u8, mut push: impl FnMut(u8)) {
        if len == 0 {
            // Nothing to take: the move is just the sowing.
            push(TAKE_ALL);
            return;
        }
        if self.p.capture_last == Compulsion::Optional {
            push(0);
        }
        if self.p.chain == Chain::None || len == 1 {
            push(1);
            return;
        }
        match self.p.chain_take {
            ChainTake::Compulsory => push(len),
            ChainTake::OptionalAll => {
                push(1);
                push(len);
            }
            ChainTake::OptionalEach => (1..=len).for_each(push),
        }
    }

    /// Whether `feeder` has a move after which `seat` can move.
    #[cold]
    fn has_feeding_move(&self, s: &SowingState, feeder: usize) -> bool {
        let mut found = false;
        self.each_candidate(&s.pos, feeder, |mv| {
            found = found || self.feeds(s, feeder, mv);
        });
        found
    }

    fn feeds(&self, s: &SowingState, feeder: usize, mv: SowingMove) -> bool {
        let SowingMove::Sow {
            house, dir, take, ..
        } = mv
        else {
            return false;
        };
        let mut pos = s.pos;
        let landing =
            self.sow_and_take(&mut pos, feeder, (house as usize, dir, take), &mut NoEvents);
        landing != Landing::Cycle && self.can_move(&pos, 1 - feeder)
    }

    /// Whether the houses `seat` owns (and may sow) hold nothing.
    fn row_empty(&self, pos: &Pos, seat: usize) -> bool {
        self.houses(pos, Some(seat), 1) == 0
    }

    /// The gifts `seat` may make: one counter from any ordinary house of his that holds any.
    fn gift_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let mut mask = self.houses(pos, Some(seat), 1);
        out.reserve(mask.count_ones() as usize);
        while mask != 0 {
            let h = mask.trailing_zeros();
            mask &= mask - 1;
            out.push(SowingMove::Gift { house: h as u8 });
        }
    }

    /// The house that corresponds to `h` for a distribution.
    fn partner(&self, h: usize) -> usize {
        match self.p.correspond {
            Correspond::Opposite => self.r - 1 - h,
            Correspond::Rotated => (h + self.n) % self.r,
        }
    }

    /// Whether the distribution in `manner` may put counters into house `h`, given the
    /// board so far.
    fn distributable(&self, h: usize, manner: Distribution, b: &[u16; RING]) -> bool {
        // `h % n` without a division: `h` is below `2n`.
        let j = if h >= self.n { h - self.n } else { h };
        match manner {
            Distribution::Even | Distribution::HalfAndHalf | Distribution::LaneManners => false,
            Distribution::Corresponding | Distribution::AllHouses | Distribution::Free => true,
            Distribution::ConventionalFour => self.n < 3 || (j != 0 && j != self.n - 1),
            Distribution::OneASide => {
                // The first house he fills chooses the pair: then only it and its partner.
                match (0..self.r).find(|&x| b[x] > 0) {
                    None => true,
                    Some(a) => h == a || h == self.partner(a),
                }
            }
        }
    }

    /// The distributor's choices: under `lane-manners` first the manner, then any count into
    /// any house the manner allows, as long as the counters left can still complete it
    /// (every occupied house an occupied partner; under `all-houses`, every house filled).
    fn distribution_moves(&self, s: &SowingState, out: &mut Vec<SowingMove>) {
        let b = &s.pos.board;
        if s.manner == Distribution::LaneManners {
            out.extend((0..MANNERS.len() as u8).map(|manner| SowingMove::Manner { manner }));
            return;
        }
        if s.manner == Distribution::HalfAndHalf {
            // "About half into beyt A and the remainder in beyt a": A is the distributor's
            // first house; he puts between three eighths and five eighths of the counters
            // there (he does not count), and the rest into its corresponding house.
            let a = usize::from(s.distributor) * self.n;
            let total = s.hand + b.iter().map(|&c| u32::from(c)).sum::<u32>();
            if b[a] == 0 {
                let (lo, hi) = (
                    (3 * total).div_ceil(8).max(1),
                    (5 * total / 8).min(s.hand - 1),
                );
                for k in lo..=hi.min(255) {
                    out.push(SowingMove::Distribute {
                        house: a as u8,
                        count: k as u8,
                    });
                }
            } else if s.hand > 0 {
                out.push(SowingMove::Distribute {
                    house: self.partner(a) as u8,
                    count: s.hand.min(255) as u8,
                });
            }
            return;
        }
        for (h, &most) in self.distribution_counts(s).iter().enumerate() {
            out.extend((1..=most).map(|k| SowingMove::Distribute {
                house: h as u8,
                count: k,
            }));
        }
    }

    /// Under the manners that put any count into any allowed house: for each house, the
    /// largest count the distributor may put there now (0 where he may put none). The moves
    /// are `1..=most` into each house in circuit order ([`Sowing::distribution_moves`]), so
    /// random play picks the k-th of them from these counts without listing them.
    fn distribution_counts(&self, s: &SowingState) -> [u8; RING] {
        let b = &s.pos.board;
        let mut counts = [0u8; RING];
        // Houses that still need a counter for the distribution to be complete: unmatched
        // occupied houses' partners, or under `all-houses` every empty house; none under
        // `free`. Found once for the board; one counter more in a house changes the count
        // only through that house and its partner (`partner` pairs distinct houses).
        let needed = match s.manner {
            Distribution::Free => 0,
            Distribution::AllHouses => (0..self.r).filter(|&h| b[h] == 0).count() as u32,
            _ => (0..self.r)
                .filter(|&h| b[h] > 0 && b[self.partner(h)] == 0)
                .count() as u32,
        };
        for h in 0..self.r {
            if !self.distributable(h, s.manner, b) {
                continue;
            }
            // What is still needed once `h` holds one counter more.
            let after = match s.manner {
                Distribution::Free => 0,
                Distribution::AllHouses => needed - u32::from(b[h] == 0),
                _ if b[h] > 0 => needed,
                // `h` becomes occupied: it is unmatched if its partner is empty, and it
                // matches its partner otherwise.
                _ if b[self.partner(h)] == 0 => needed + 1,
                _ => needed - 1,
            };
            // Every count that leaves enough counters to complete the distribution.
            let Some(most) = s.hand.checked_sub(after) else {
                continue;
            };
            counts[h] = most.min(255) as u8;
        }
        counts
    }

    /// Where the legal moves are just the sowable houses (play, no capture choices, no gift
    /// or feeding due): which they are, as a bit mask ([`Quick`]). Random play picks from it
    /// without listing the moves.
    #[inline(always)]
    fn sowable_mask(&self, s: &SowingState) -> Option<Quick> {
        if self.optional_take || s.phase != Phase::Play || s.must_feed {
            return None;
        }
        let seat = usize::from(s.mover);
        if self.p.gift != Gift::None {
            // The gift is due when the opponent's row is empty: one counter from any of his
            // houses that holds any, if he has one (else he sows as usual). In a static game
            // both rows are read off one mask.
            let (theirs, gifts) = if self.dynamic {
                (
                    self.houses(&s.pos, Some(1 - seat), 1),
                    self.houses(&s.pos, Some(seat), 1),
                )
            } else {
                let held = self.held(&s.pos.board, 1);
                (held & self.row_mask(1 - seat), held & self.row_mask(seat))
            };
            if theirs == 0 && gifts != 0 {
                return Some(Quick::Gifts(gifts));
            }
        }
        if self.dynamic {
            // Houses change hands: the moves are the sowable houses in circuit order, each in
            // its one direction (a house sown either way lists two moves: not this path).
            // `settle` found them for this position.
            debug_assert_eq!(s.sowable[seat], self.sowable(&s.pos, seat));
            return self.single_dir.then_some(Quick::Houses(s.sowable[seat]));
        }
        let min = u16::from(self.p.min_sow);
        Some(Quick::Listed(
            seat,
            self.candidate_mask(&s.pos.board, seat, min),
        ))
    }

    /// The seat's candidates (in a static game) whose house holds at least `min`, as a mask
    /// over its list: by one table lookup where there is a table.
    #[inline(always)]
    fn candidate_mask(&self, board: &[u16; RING], seat: usize, min: u16) -> u32 {
        if let Some(table) = &self.cand_table {
            let row = self.held(board, min) >> (seat * self.n) & self.row_mask(0);
            return table[seat][row as usize];
        }
        let mut mask = 0u32;
        for (i, c) in self.cands[seat][..self.ncands[seat]].iter().enumerate() {
            mask |= u32::from(board[usize::from(c.house)] >= min) << i;
        }
        mask
    }

    /// Random play's move from the moves as a mask (`quick`, [`Sowing::sowable_mask`]), or
    /// from the listed moves where there is none: the move `legal_moves` lists at the index
    /// `pick` draws, with the number of moves.
    #[inline]
    fn choose_from(
        &self,
        quick: Option<Quick>,
        s: &SowingState,
        buf: &mut Vec<SowingMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (SowingMove, usize) {
        match quick {
            Some(Quick::Listed(seat, mask)) => pick_sowing(&self.cand_moves[seat], mask, pick),
            Some(Quick::Gifts(mask)) => {
                // Never empty: a gift is listed only where there is one.
                let n = mask.count_ones() as usize;
                let h = nth_set_bit(mask, pick(n) as u32);
                (SowingMove::Gift { house: h as u8 }, n)
            }
            Some(Quick::Houses(mask)) => match mask.count_ones() as usize {
                0 => {
                    pick(1);
                    (SowingMove::Pass, 1)
                }
                n => {
                    let h = nth_set_bit(mask, pick(n) as u32);
                    (SowingMove::sow(h, self.house_dir[h]), n)
                }
            },
            None if s.phase == Phase::Distribute
                && !matches!(
                    s.manner,
                    Distribution::LaneManners | Distribution::HalfAndHalf
                ) =>
            {
                // The distributor's hundreds of moves, picked from their counts per house.
                let counts = self.distribution_counts(s);
                let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
                if n == 0 {
                    self.legal_moves(s, buf);
                    let n = buf.len();
                    return (buf[pick(n)], n);
                }
                let mut k = pick(n);
                let mut h = 0;
                while k >= usize::from(counts[h]) {
                    k -= usize::from(counts[h]);
                    h += 1;
                }
                let mv = SowingMove::Distribute {
                    house: h as u8,
                    count: k as u8 + 1,
                };
                (mv, n)
            }
            None => {
                self.legal_moves(s, buf);
                let n = buf.len();
                (buf[pick(n)], n)
            }
        }
    }

    /// A sowing in play, after the clock's tick: [`Rules::apply`]'s for a sowing, which
    /// random play also reaches directly.
    #[inline(always)]
    fn sow_move(
        &self,
        s: &mut SowingState,
        (house, dir, take, quirk): (u8, Dir, u8, bool),
        events: &mut impl EventSink<SowingEvent>,
    ) {
        let seat = usize::from(s.mover);
        if s.must_feed {
            events.emit(SowingEvent::Feed { seat });
        }
        if quirk {
            events.emit(SowingEvent::LeftHoleQuirk);
        }
        s.clock.clear_passes();
        s.must_feed = false;
        // Only a repetition rule reads the history: without one there is nothing to
        // clear, and no need to count the board twice a move.
        let before =
            (self.p.repetition != Repetition::None).then(|| (s.total_on_board(), s.pos.mark));
        let landing = self.sow_and_take(&mut s.pos, seat, (house as usize, dir, take), events);
        if landing == Landing::Cycle {
            s.mover = 1 - s.mover;
            if self.p.cap.is_some() {
                // An engine that counts each lap of a relay as a move (Ludii) plays
                // the cycle out to its move cap and scores it as the cap does.
                events.emit(SowingEvent::CapReached {
                    turns: s.clock.turns(),
                    plies: s.clock.plies(),
                });
                self.over(s, Result_::Draw, EndReason::MoveCap);
            } else {
                self.over(s, Result_::Unfinished, EndReason::Cycle);
            }
            return;
        }
        if before.is_some_and(|(total, marks)| s.total_on_board() != total || marks != s.pos.mark) {
            // Counters only leave the board within a stage, and a daughter once
            // begotten stays until a peck takes counters away: no earlier position
            // can recur.
            s.history.clear();
        }
        if landing == Landing::Again {
            // A peck: the same player decides again.
            self.settle(s, events);
            return;
        }
        s.mover = 1 - s.mover;
        self.settle(s, events);
    }

    /// The mover gives a counter from `house` (the turn's clock tick made): the end of
    /// [`Rules::apply`] for a gift, which random play also reaches directly.
    fn give(&self, s: &mut SowingState, house: usize, events: &mut impl EventSink<SowingEvent>) {
        let seat = usize::from(s.mover);
        let to = if seat == 1 && self.p.ludii_leftmost_quirk {
            1
        } else {
            (1 - seat) * self.n
        };
        // The whole board as vectors, as the end tests read it next: two-byte stores that
        // those wide loads must wait for stalled every gift.
        let mut b = s.pos.board;
        let (from, into) = (&ALL_BUT[house], &ALL_BUT[to]);
        for i in 0..RING {
            b[i] = b[i].wrapping_sub(!from[i] & 1).wrapping_add(!into[i] & 1);
        }
        s.pos.board = b;
        s.clock.clear_passes();
        events.emit(SowingEvent::Gift {
            seat,
            house: to as u8,
        });
        if self.p.gift != Gift::Extra {
            s.mover = 1 - s.mover;
        }
        // Under `extra` the giver goes on to sow.
        self.settle(s, events);
    }

    /// [`Rules::forced_plies`] where the reading has a gift: the board's last counter given
    /// back and forth.
    #[inline(never)]
    fn gift_stretch(
        &self,
        s: &mut SowingState,
        budget: u32,
        events: &mut impl EventSink<SowingEvent>,
    ) -> u32 {
        // The board's last counter given back and forth (Li'b al-'Aqil under Ludii, to its
        // cap): a gift is due with one house to give from, and two such gifts bring the
        // state back with nothing but the clock moved. The rules themselves play the two, on
        // a copy, to find that out; every later pair repeats them, so only a rule that reads
        // the clock can end the stretch, and it stops short of the first ply one could.
        if self.lone_gift(s).is_none() {
            return 0;
        }
        let mut t = s.clone();
        let mut cycle = GiftCycle::default();
        for _ in 0..2 {
            let Some(house) = self.lone_gift(&t) else {
                return 0;
            };
            t.clock.tick(t.mover);
            self.give(&mut t, house, &mut cycle);
        }
        let mut back = s.clone();
        back.clock.alternate(2);
        if cycle.other || cycle.len != 2 || t != back {
            return 0;
        }
        let search = if self.endless_search {
            // The search for an endless game reads the clock too.
            (s.search_after.saturating_sub(s.clock.plies())).saturating_sub(1)
        } else {
            u32::MAX
        };
        let plies = (self.limit.room(&s.clock))
            .min(self.rule_limit.room(&s.clock))
            .min(search)
            .min(budget)
            & !1;
        s.clock.alternate(plies);
        events.emit_cycle(&cycle.events, plies / 2);
        plies
    }

    /// The house random play gives from when a gift is due with only one to give from.
    fn lone_gift(&self, s: &SowingState) -> Option<usize> {
        match self.sowable_mask(s) {
            Some(Quick::Gifts(mask)) if mask.is_power_of_two() => {
                Some(mask.trailing_zeros() as usize)
            }
            _ => None,
        }
    }

    /// Every sowing the seat may make on `board`, capture choices included, in list order.
    fn candidate_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let min = u16::from(self.p.min_sow);
        let cands = &self.cands[seat][..self.ncands[seat]];
        let board = &pos.board;
        if !self.optional_take && !self.dynamic {
            // Branch-free: write every candidate, advance past the eligible ones. Whether a
            // house may be sown is data the branch predictor cannot learn.
            let mut buf = [SowingMove::Pass; RING];
            let mut k = 0;
            for (c, &mv) in cands.iter().zip(&self.cand_moves[seat]) {
                buf[k] = mv;
                k += usize::from(board[c.house as usize] >= min);
            }
            // A fixed-size copy and a truncation: no length-dependent copy loop.
            let start = out.len();
            out.extend_from_slice(&buf);
            out.truncate(start + k);
            return;
        }
        if self.dynamic && !self.optional_take {
            return self.dynamic_moves(pos, seat, out);
        }
        self.each_candidate(pos, seat, |mv| out.push(mv));
    }

    /// Calls `f` with every sowing the seat may make on `board`, capture choices included,
    /// in list order, without allocating.
    fn each_candidate(&self, pos: &Pos, seat: usize, mut f: impl FnMut(SowingMove)) {
        let min = u16::from(self.p.min_sow);
        if self.dynamic {
            let mut mask = self.sowable(pos, seat);
            while mask != 0 {
                let h = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                for &dir in self.house_dirs(h) {
                    self.each_take(pos, seat, h, dir, false, &mut f);
                }
            }
            return;
        }
        // The candidates that hold enough as a mask, visited by its set bits: whether a
        // house may be sown is data the branch predictor cannot learn.
        let mut mask = self.candidate_mask(&pos.board, seat, min);
        while mask != 0 {
            let c = &self.cands[seat][mask.trailing_zeros() as usize];
            mask &= mask - 1;
            self.each_take(pos, seat, usize::from(c.house), c.dir, c.quirk, &mut f);
        }
    }

    /// Calls `f` with the sowing of `house` in `dir` for each capture choice it offers.
    fn each_take(
        &self,
        pos: &Pos,
        seat: usize,
        house: usize,
        dir: Dir,
        quirk: bool,
        f: &mut impl FnMut(SowingMove),
    ) {
        let mv = |take| SowingMove::Sow {
            house: house as u8,
            dir,
            take,
            quirk,
        };
        if !self.optional_take {
            f(mv(TAKE_ALL));
            return;
        }
        if !self.p.relay && self.p.daughters == Daughters::None {
            // A plain sowing changes only the houses, and the capture rules read only the
            // few the chain examines: work out what each holds after the sowing (what
            // `sow_all` would leave there) without making the sown board.
            let counters = pos.board[house];
            let lapped = self.laps(counters);
            let spread = self.spread(house, dir, counters);
            let count = |h| self.sown_count(&pos.board, house, dir, spread, h);
            let len = self
                .capture_run(count, (house, lapped), spread.last, dir, seat)
                .0;
            self.takes(len, |take| f(mv(take)));
            return;
        }
        let mut p = *pos;
        let len = match self.sow_all(&mut p, seat, house, dir, &mut NoEvents) {
            Landing::Stop {
                origin,
                last,
                lapped,
            } => {
                self.capture_run(|h| p.board[h], (origin, lapped), last, dir, seat)
                    .0
            }
            Landing::Again | Landing::Cycle | Landing::Standstill => 0,
        };
        self.takes(len, |take| f(mv(take)));
    }

    /// Applies the end rules after a decision (or at the start): the game's own end rule,
    /// then the engine's all-pass draw, then its caps, then a repetition rule: Ludii's order
    /// (TRACES.md §3.5). Where [`Sowing::quick_settle`] holds, its short form inlines into
    /// the move.
    #[inline(always)]
    fn settle(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        if self.quick_settle && s.phase == Phase::Play {
            return self.settle_quick(s, events);
        }
        self.settle_rules(s, events);
    }

    /// [`Sowing::settle`] in full.
    fn settle_rules(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        if s.phase != Phase::Play {
            return;
        }
        let next = s.mover as usize;
        let other = 1 - next;
        // In a dynamic game from the masks found below, once for the position.
        let can_move = |s: &SowingState, seat: usize| {
            if self.dynamic {
                s.sowable[seat] != 0
            } else {
                self.can_move(&s.pos, seat)
            }
        };
        let no_moves = |s: &SowingState| {
            if self.dynamic {
                s.sowable == [0, 0]
            } else {
                self.no_moves(&s.pos)
            }
        };
        if matches!(self.p.stage_end, StageEnd::Cleared | StageEnd::NoCapture)
            && s.pos.board.iter().all(|&c| c == 0)
        {
            events.emit(SowingEvent::StageEnd);
            self.finish(s, events);
            return;
        }
        if self.p.stage_end == StageEnd::NoCapture
            && matches!(self.reach(s), Reach::End | Reach::Neither)
        {
            // LA-14 (b): no capture is possible any more, so the board is finished.
            events.emit(SowingEvent::NoCapture);
            self.finish(s, events);
            return;
        }
        if self.dynamic && self.dynamic_checks(s, events) {
            return;
        }
        let ended = match self.p.end_check {
            EndCheck::AllPassed => s.clock.all_passed(2),
            EndCheck::Immediate => match self.p.end {
                End::NeitherCanMove => no_moves(s),
                End::MoverBlocked => {
                    let blocked = !can_move(s, next);
                    if blocked {
                        events.emit(SowingEvent::EndBlocked { seat: next });
                    }
                    blocked
                }
                End::OpponentFeeds => {
                    // Whoever can move while his opponent cannot must feed him, on his own
                    // turn; a blocked player to move passes so that his opponent can feed.
                    // The game ends when the blocked player cannot be fed.
                    s.must_feed = false;
                    let (blocked, feeder) = if !can_move(s, next) {
                        (Some(next), other)
                    } else if !can_move(s, other) {
                        (Some(other), next)
                    } else {
                        (None, next)
                    };
                    match blocked {
                        Some(seat) if !self.has_feeding_move(s, feeder) => {
                            events.emit(SowingEvent::EndBlocked { seat });
                            true
                        }
                        Some(_) => {
                            s.must_feed = feeder == next;
                            false
                        }
                        None => false,
                    }
                }
                End::RowEmpty => {
                    let empty = (0..2).find(|&seat| {
                        s.pos.board[seat * self.n..(seat + 1) * self.n]
                            .iter()
                            .all(|&c| c == 0)
                    });
                    if let Some(seat) = empty {
                        events.emit(SowingEvent::RowEmpty { seat });
                        true
                    } else {
                        // Rows that hold only unsowable counters can never empty.
                        no_moves(s)
                    }
                }
            },
        };
        if ended {
            if self.p.end_check == EndCheck::AllPassed
                || matches!(self.p.end, End::NeitherCanMove | End::RowEmpty) && no_moves(s)
            {
                events.emit(SowingEvent::EndNoMoves);
            }
            self.finish(s, events);
            return;
        }
        if s.clock.plies() > 0 && self.rule_limit.reached(&s.clock).is_some() {
            // The game's own limit (BG-09 (a), TW-10 (a), G-4 (a)): it ends drawn.
            events.emit(SowingEvent::MoveLimit {
                turns: s.clock.turns(),
                plies: s.clock.plies(),
            });
            self.over(s, Result_::Draw, EndReason::Natural);
            return;
        }
        if s.clock.plies() > 0 {
            if self.p.all_pass_draw && s.clock.all_passed(2) {
                events.emit(SowingEvent::AllPassDraw);
                self.over(s, Result_::Draw, EndReason::AllPassDraw);
                return;
            }
            if self.capped(s, events) {
                return;
            }
        }
        if self.endless_search && s.clock.plies() >= s.search_after {
            if self.reach(s) == Reach::Neither {
                // Nothing can be captured, the board cannot clear, and no position the board
                // can reach ends it: the game can never end.
                events.emit(SowingEvent::Endless);
                self.over(s, Result_::Unfinished, EndReason::Endless);
                return;
            }
            // An end is still reachable: search again after a gap (see ENDLESS_SEARCH_GAP).
            s.search_gap = (s.search_gap * 2).clamp(1, ENDLESS_SEARCH_GAP);
            s.search_after = s.clock.plies() + s.search_gap;
        }
        if self.p.repetition != Repetition::None {
            // The exact position (houses and player to move), the start included; the marks
            // and owners are those of the whole history (see `apply`).
            let position = (s.pos.board, s.mover);
            if !s.history.contains(&position) {
                s.history.push(position);
                return;
            }
            events.emit(SowingEvent::Repetition);
            match self.p.repetition {
                Repetition::Reckon | Repetition::ReckonTakings => {
                    // The stage cannot end: it is reckoned as it stands.
                    events.emit(SowingEvent::StageRepetition);
                    let counted = self.p.repetition == Repetition::Reckon
                        && self.p.remaining == Remaining::Owner;
                    self.finish_counting(s, counted, events);
                }
                _ => self.over(s, Result_::Draw, EndReason::Repetition),
            }
        }
    }

    /// A dynamic game's first end tests, after each decision: finds the position's masks
    /// (kept in the state for `choose` and the end rules), then reckons a completed stage
    /// (nobody holds ordinary counters) and drives off a bare player. Whether either ended
    /// the stage or the game.
    #[inline]
    fn dynamic_checks(
        &self,
        s: &mut SowingState,
        events: &mut impl EventSink<SowingEvent>,
    ) -> bool {
        let (occupied, sowable) = self.dynamic_masks(&s.pos, s.owned);
        debug_assert_eq!(s.owned, self.owner_masks(&s.pos));
        s.sowable = sowable;
        if self.p.stage_end == StageEnd::OnlyDaughters && occupied == 0 {
            events.emit(SowingEvent::StageEnd);
            self.finish(s, events);
            return true;
        }
        self.drive_bare && self.bare_driven_off(s, occupied, events)
    }

    /// [`Sowing::settle`] where [`Sowing::quick_settle`] holds: the same rules, less those
    /// that cannot apply (settle's order kept: a completed stage, a bare row, then no moves,
    /// then the engine's cap).
    #[inline]
    fn settle_quick(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        if self.dynamic_checks(s, events) {
            return;
        }
        if s.sowable == [0, 0] {
            events.emit(SowingEvent::EndNoMoves);
            self.finish(s, events);
            return;
        }
        if s.clock.plies() > 0 {
            self.capped(s, events);
        }
    }

    /// Under `driven-off: no-counters`, drives off a player whose ordinary houses hold
    /// nothing while his opponent's hold something (`occupied`: the ordinary houses that hold
    /// any counter); whether he was.
    fn bare_driven_off(
        &self,
        s: &mut SowingState,
        occupied: u32,
        events: &mut impl EventSink<SowingEvent>,
    ) -> bool {
        let bare = |seat: usize| occupied & s.owned[seat] == 0;
        let Some(seat) = (0..2).find(|&seat| bare(seat) && !bare(1 - seat)) else {
            return false;
        };
        let mut holdings = s.pos.store;
        for h in 0..self.r {
            match (s.pos.mark[h], s.pos.owner[h]) {
                (0, o) if o != NO_SEAT => holdings[usize::from(o)] += u32::from(s.pos.board[h]),
                (0, _) => {}
                (m, _) => holdings[usize::from(m) - 1] += u32::from(s.pos.board[h]),
            }
        }
        self.drive_off(s, seat, holdings, events);
        true
    }

    /// Whether a game of this reading could go on for ever without any rule ending it: no
    /// engine cap, no move limit, no repetition rule, and a board that ends only when
    /// cleared (or by the end rules). Daughters and stages are not searched.
    fn can_be_endless(&self) -> bool {
        !self.limit.is_on()
            && !self.rule_limit.is_on()
            && self.p.repetition == Repetition::None
            && self.p.end_check == EndCheck::Immediate
            && matches!(self.p.stage_end, StageEnd::Cleared | StageEnd::None)
            && !self.dynamic
    }

    /// Whether the end rule (`end`) would end the game on `pos` with `mover` to move, as
    /// [`Sowing::settle`] tests it; under `opponent-feeds`, any blocked player counts (he may
    /// not be fed), which errs toward an end.
    fn end_fires(&self, pos: &Pos, mover: usize) -> bool {
        let no_moves = self.no_moves(pos);
        match self.p.end {
            End::NeitherCanMove => no_moves,
            End::MoverBlocked => !self.can_move(pos, mover),
            End::OpponentFeeds => !self.can_move(pos, 0) || !self.can_move(pos, 1),
            End::RowEmpty => {
                no_moves
                    || (0..2).any(|seat| {
                        pos.board[seat * self.n..(seat + 1) * self.n]
                            .iter()
                            .all(|&c| c == 0)
                    })
            }
        }
    }

    /// What the board can still reach from `s` (play phase, ordinary houses): every position
    /// reachable without a capture is tried, with each seat's sowings (all of them, a feeding
    /// obligation ignored), the gifts the rules give and the passes of a blocked player. A
    /// relay that never stops counts as an end (the engine ends the game there).
    ///
    /// The search is depth-first from the last position found, and gives up (`Unknown`) once
    /// it has seen more than [`SEARCH_POSITIONS`] distinct positions; its set and stack are
    /// a per-thread [`ReachScratch`] kept from one search to the next, so that a search
    /// allocates nothing once the thread has met its largest.
    fn reach(&self, s: &SowingState) -> Reach {
        let on_board = s.total_on_board();
        if self.dynamic || on_board == 0 {
            return Reach::Unknown;
        }
        if on_board > SEARCH_COUNTERS {
            // Fewer counters than the smallest capturing count can never make one: nothing
            // can be captured, and whether an end can be reached is left open (taken as yes).
            let smallest = self.capture_mask.trailing_zeros();
            return if on_board < smallest {
                Reach::End
            } else {
                Reach::Unknown
            };
        }
        REACH_SCRATCH.with_borrow_mut(|scratch| {
            let reach = self.search(s, scratch);
            scratch.clear();
            reach
        })
    }

    /// The search of [`Sowing::reach`] on an empty `scratch` (left for the caller to clear).
    fn search(&self, s: &SowingState, scratch: &mut ReachScratch) -> Reach {
        let r = self.r;
        scratch.insert(reach_key(&s.pos.board, r, s.mover));
        scratch.stack.push((s.pos.board, s.mover));
        let mut end = false;
        // Only the houses change in the search (no capture is made, and a game without
        // daughters or stages has no marks, no pecks and fixed owners): the stack holds
        // boards, and `pos` and `child` take the rest from the start, saving the copies of
        // whole positions.
        let mut pos = s.pos;
        let mut child = s.pos;
        while let Some((board, mover)) = scratch.stack.pop() {
            pos.board = board;
            let seat = usize::from(mover);
            if self.end_fires(&pos, seat) {
                // The board ends here; the positions after it cannot be reached this way.
                end = true;
                continue;
            }
            // A position not seen before is stacked; positions are marked seen in the order
            // they are found, the order of the moves.
            let next = |b: &[u16; RING], m: usize, scratch: &mut ReachScratch| {
                if scratch.insert(reach_key(b, r, m as u8)) {
                    scratch.stack.push((*b, m as u8));
                }
            };
            let gift_due = self.p.gift != Gift::None
                && self.row_empty(&pos, 1 - seat)
                && !self.row_empty(&pos, seat);
            if gift_due {
                let to = if seat == 1 && self.p.ludii_leftmost_quirk {
                    1
                } else {
                    (1 - seat) * self.n
                };
                let after = if self.p.gift == Gift::Extra {
                    seat
                } else {
                    1 - seat
                };
                for h in 0..self.r {
                    if usize::from(pos.owner[h]) == seat && pos.board[h] > 0 {
                        let mut b = pos.board;
                        b[h] -= 1;
                        b[to] += 1;
                        next(&b, after, scratch);
                    }
                }
            } else {
                let mut moved = false;
                let mut capture = false;
                let mut cycle = false;
                self.each_candidate(&pos, seat, |mv| {
                    // Once a capture is found the answer is `Capture` whatever follows:
                    // the rest of the moves need not be sown.
                    if capture {
                        return;
                    }
                    let SowingMove::Sow { house, dir, .. } = mv else {
                        return;
                    };
                    moved = true;
                    let p = &mut child;
                    p.board = pos.board;
                    match self.sow_all(p, seat, usize::from(house), dir, &mut NoEvents) {
                        Landing::Stop {
                            origin,
                            last,
                            lapped,
                        } => {
                            if self
                                .capture_run(|h| p.board[h], (origin, lapped), last, dir, seat)
                                .0
                                > 0
                            {
                                capture = true;
                                return;
                            }
                            next(&p.board, 1 - seat, scratch);
                        }
                        // A relay that stands still ends the move, nothing taken.
                        Landing::Standstill => next(&p.board, 1 - seat, scratch),
                        Landing::Again | Landing::Cycle => cycle = true,
                    }
                });
                if capture {
                    return Reach::Capture;
                }
                end |= cycle;
                if !moved {
                    next(&pos.board, 1 - seat, scratch);
                }
            }
            if scratch.len > SEARCH_POSITIONS {
                return Reach::Unknown;
            }
        }
        if end { Reach::End } else { Reach::Neither }
    }

    /// Ends the game as the engine's cap scores it, if the clock has reached the cap.
    fn capped(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) -> bool {
        let Some(reason) = self.limit.reached(&s.clock) else {
            return false;
        };
        events.emit(SowingEvent::CapReached {
            turns: s.clock.turns(),
            plies: s.clock.plies(),
        });
        self.over(s, Result_::Draw, reason);
        true
    }

    fn over(&self, s: &mut SowingState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: s.pos.store,
            ranks: Outcome::UNRANKED,
        });
    }

    /// Scores a game whose own end rule fired.
    #[cold]
    fn finish(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        self.finish_counting(s, self.p.remaining == Remaining::Owner, events);
    }

    /// [`Sowing::finish`], the counters left in ordinary houses `counted` for their owners
    /// or out of play.
    #[cold]
    fn finish_counting(
        &self,
        s: &mut SowingState,
        counted: bool,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        // One pass, without a branch per house: each father takes his daughters' counters
        // (dynamic games; elsewhere there are no daughters), and the counters left in ordinary
        // houses are summed by owner (`NO_SEAT`'s slot for houses nobody owns).
        let mut daughters = [0u32; 3];
        let mut left = [0u32; 3];
        for h in 0..self.r {
            let c = u32::from(s.pos.board[h]);
            let m = usize::from(s.pos.mark[h]);
            daughters[m] += c;
            left[usize::from(s.pos.owner[h])] += c * u32::from(m == 0);
        }
        if self.dynamic {
            s.pos.store[0] += daughters[1];
            s.pos.store[1] += daughters[2];
        }
        let mut scores = s.pos.store;
        for (seat, score) in scores.iter_mut().enumerate() {
            let left = left[seat];
            if left > 0 {
                events.emit(SowingEvent::Remaining {
                    seat,
                    counters: left,
                    counted,
                });
                if counted {
                    *score += left;
                }
            }
        }
        if self.dynamic {
            // The counters left on the board now belong to someone, or are out of play (the
            // daughters' went to their fathers above).
            s.pos.board = [0; RING];
            if counted {
                s.pos.store[0] += left[0];
                s.pos.store[1] += left[1];
            } else {
                s.pos.discarded += left[0] + left[1];
            }
            s.pos.discarded += left[usize::from(NO_SEAT)];
            scores = s.pos.store;
            if self.p.rounds == Rounds::Fours {
                if s.clock.plies() == s.game_start {
                    // Nobody could decide anything in this stage (say, no house holds enough
                    // to be sown). If a stage since the last decision ended the same way, the
                    // reckonings will give the same boards again, for ever (two holdings
                    // trading places stage by stage, say).
                    let idle = IdleStage {
                        store: s.pos.store,
                        debt: s.debt,
                        discarded: s.pos.discarded,
                        mark: s.pos.mark,
                        mover: s.mover,
                        stake: s.stake,
                    };
                    if s.idle_stages.contains(&idle) || s.idle_stages.len() >= MAX_IDLE_STAGES {
                        events.emit(SowingEvent::StageCycle);
                        self.over(s, Result_::Unfinished, EndReason::Cycle);
                        return;
                    }
                    s.idle_stages.push(idle);
                } else {
                    s.idle_stages.clear();
                }
                self.reckon(s, events);
                return;
            }
        }
        if self.p.rounds == Rounds::Points {
            self.score_board(s, scores, events);
            return;
        }
        let result = if scores[0] == scores[1] {
            events.emit(SowingEvent::Tie { score: scores[0] });
            if self.p.tie == Tie::Replay && s.clock.plies() == s.game_start {
                // Nobody has decided anything since the start: the replay would end the
                // same way, for ever.
                events.emit(SowingEvent::ReplayCycle);
                self.over(s, Result_::Unfinished, EndReason::Cycle);
                return;
            }
            if self.p.tie == Tie::Replay {
                events.emit(SowingEvent::Replay);
                self.restart(s);
                self.settle(s, events);
                return;
            }
            Result_::Draw
        } else if scores[0] > scores[1] {
            Result_::Win(1)
        } else {
            Result_::Win(2)
        };
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end: EndReason::Natural,
            scores,
            ranks: Outcome::UNRANKED,
        });
    }

    /// Reckons a completed stage in fours (Davies 1925: 144): debts are repaid, the larger
    /// holder's remainder of three borrows one and a remainder of one or two is borrowed
    /// back, each four makes a house, and the board is reset; a player left without a house
    /// (or, under `empty-hand`, without counters) is driven off.
    #[cold]
    fn reckon(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
        s.stages += 1;
        let mut h = std::mem::take(&mut s.pos.store);
        if self.p.borrowing == Borrowing::Debt {
            for seat in 0..2 {
                // What the holding cannot cover stays owed.
                let d = s.debt[seat].min(h[seat]);
                s.debt[seat] -= d;
                if d > 0 {
                    h[seat] -= d;
                    h[1 - seat] += d;
                    events.emit(SowingEvent::DebtRepaid { seat, counters: d });
                }
            }
        }
        let holdings = h;
        let short = match self.p.driven_off {
            DrivenOff::EmptyHand | DrivenOff::EmptyHandOnly => 1,
            DrivenOff::NoFullFour => 4,
            _ => 0,
        };
        if let Some(seat) = (0..2).find(|&i| h[i] < short) {
            s.pos.store = holdings;
            self.drive_off(s, seat, holdings, events);
            return;
        }
        // The larger holder fills first (and may begin the stage); whose remainder the
        // borrowing makes up is `b`'s.
        let w = if h[0] >= h[1] { 0 } else { 1 };
        let l = 1 - w;
        s.tied = h[0] == h[1];
        let b = match self.p.borrowing_basis {
            BorrowingBasis::LargerHolder => w,
            BorrowingBasis::Gainer => {
                let gain = |i: usize| i64::from(h[i]) - i64::from(s.stake[i]);
                let g = match gain(0).cmp(&gain(1)) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Less => 1,
                    std::cmp::Ordering::Equal => w,
                };
                if borrowed(h, g) != borrowed(h, w) {
                    events.emit(SowingEvent::GainerBorrowing { seat: g });
                }
                g
            }
        };
        let o = 1 - b;
        let after = borrowed(h, b);
        match h[b] % 4 {
            3 if h[o] >= 1 => events.emit(SowingEvent::BorrowThree { seat: b }),
            1 => events.emit(SowingEvent::BorrowBackOne { seat: o }),
            2 => events.emit(SowingEvent::BorrowBackTwo { seat: o }),
            0 => events.emit(SowingEvent::ExactFours),
            _ => {}
        }
        if self.p.borrowing == Borrowing::Debt {
            // The borrower owes what he gained by it.
            for seat in 0..2 {
                s.debt[seat] += after[seat].saturating_sub(h[seat]);
            }
        }
        h = after;
        // Counters that make no house (possible only when pecks leave play) are out of play,
        // or kept by their holder for the next reckoning.
        let mut houses = [(h[0] / 4) as usize, (h[1] / 4) as usize];
        houses[l] = houses[l].min(self.r - houses[w].min(self.r));
        houses[w] = houses[w].min(self.r);
        events.emit(SowingEvent::Reckoning {
            holdings,
            houses: [houses[0] as u8, houses[1] as u8],
        });
        if self.p.driven_off != DrivenOff::EmptyHandOnly
            && let Some(seat) = (0..2).find(|&i| houses[i] == 0)
        {
            s.pos.store = h;
            self.drive_off(s, seat, holdings, events);
            return;
        }
        for seat in 0..2 {
            let over = h[seat] - 4 * houses[seat] as u32;
            if over > 0 && self.p.unhoused == Unhoused::Kept {
                s.pos.store[seat] = over;
                events.emit(SowingEvent::UnhousedKept {
                    seat,
                    counters: over,
                });
            } else {
                s.pos.discarded += over;
            }
        }
        let houses = [houses[0] as u8, houses[1] as u8];
        match self.p.extra_houses {
            ExtraHouses::Chosen if usize::from(houses[w]) > self.n => {
                // The larger holder decides where his extra houses lie: a move of his. Until
                // then each player holds his houses' counters in hand.
                for (store, &count) in s.pos.store.iter_mut().zip(&houses) {
                    *store += 4 * u32::from(count);
                }
                s.placing = Some(Placing {
                    seat: w as u8,
                    houses,
                    next: s.mover,
                });
                s.phase = Phase::PlaceExtra;
            }
            // Without extra houses both ends give the same board.
            ExtraHouses::Downstream | ExtraHouses::Chosen => {
                self.reset_board(s, w, houses, true, events)
            }
            ExtraHouses::Upstream => self.reset_board(s, w, houses, false, events),
        }
    }

    /// Resets the board for the next stage, `houses` for each seat, `w` the larger holder,
    /// his extra houses `downstream` or upstream of his row; then starts the stage.
    fn reset_board(
        &self,
        s: &mut SowingState,
        w: usize,
        houses: [u8; 2],
        downstream: bool,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        let l = 1 - w;
        let houses = [usize::from(houses[0]), usize::from(houses[1])];
        // The new board: the larger holder's own row from his left, then his extra houses in
        // the other's row next to it (downstream: the houses his row sows into); the other
        // keeps the rest of his own row.
        s.pos.board = [0; RING];
        s.pos.owner = [NO_SEAT; RING];
        if !self.p.daughters_carry {
            s.pos.mark = [0; RING];
        }
        let n = self.n;
        let leftmost = |seat: usize| {
            if seat == 0 && self.p.ludii_leftmost_quirk {
                1
            } else {
                seat * n
            }
        };
        if downstream && self.p.direction != Direction::Clockwise {
            // Each player fills, four to a house, the next empty houses along the circuit
            // from his leftmost house: the larger holder first (his row, then on into the
            // other's), then the other (as Ludii's reset does).
            for (seat, count) in [(w, houses[w]), (l, houses[l])] {
                let mut h = leftmost(seat);
                let mut left = count;
                let mut steps = 0;
                while left > 0 && steps < self.r {
                    if s.pos.owner[h] == NO_SEAT {
                        s.pos.owner[h] = seat as u8;
                        left -= 1;
                    }
                    // Round the circuit without a division.
                    h = if h + 1 == self.r { 0 } else { h + 1 };
                    steps += 1;
                }
            }
            let extra = (0..self.r)
                .filter(|&h| usize::from(self.row[h]) != w && usize::from(s.pos.owner[h]) == w)
                .count();
            if extra > 0 {
                events.emit(SowingEvent::ExtraHouses {
                    seat: w,
                    houses: extra as u8,
                });
            }
            self.start_stage(s, w, l, events);
            return;
        }
        let own = houses[w].min(n);
        for j in 0..own {
            s.pos.owner[w * n + j] = w as u8;
        }
        let extra = houses[w] - own;
        let sows_into_left = self.p.direction != Direction::Clockwise;
        for k in 0..extra {
            let j = if sows_into_left == downstream {
                k
            } else {
                n - 1 - k
            };
            s.pos.owner[l * n + j] = w as u8;
        }
        if extra > 0 {
            events.emit(SowingEvent::ExtraHouses {
                seat: w,
                houses: extra as u8,
            });
        }
        let mut left = houses[l];
        for j in 0..n {
            if left > 0 && s.pos.owner[l * n + j] == NO_SEAT {
                s.pos.owner[l * n + j] = l as u8;
                left -= 1;
            }
        }
        self.start_stage(s, w, l, events);
    }

    /// Fills every owned house with four and starts the next stage.
    fn start_stage(
        &self,
        s: &mut SowingState,
        w: usize,
        l: usize,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        s.owned = self.owner_masks(&s.pos);
        s.stake = s.pos.store;
        for hse in 0..self.r {
            if s.pos.owner[hse] != NO_SEAT {
                s.pos.board[hse] = 4;
                s.stake[usize::from(s.pos.owner[hse])] += 4;
            }
        }
        let starter = match self.p.round_starter {
            RoundStarter::Larger => w,
            RoundStarter::Smaller => l,
            RoundStarter::Continue => s.mover as usize,
            RoundStarter::FirstSeat => 0,
            RoundStarter::LargerElseContinue if s.tied => s.mover as usize,
            RoundStarter::LargerElseContinue => w,
        };
        events.emit(SowingEvent::StageStarter { seat: starter });
        s.mover = starter as u8;
        if self.p.driven_off == DrivenOff::EmptyHandOnly
            && self.p.daughters == Daughters::OpponentHouses
            && self.p.stage_end == StageEnd::OnlyDaughters
            && self.p.end == End::NeitherCanMove
            && self.p.repetition == Repetition::None
            && !self.p.all_pass_draw
            && self.p.cap.is_none()
            && s.pos.mark.iter().all(|&m| m == 0)
            && (0..2).any(|seat| s.pos.owner.iter().all(|&o| usize::from(o) != seat))
        {
            // A player left with no house passes through the stage, and his opponent can
            // beget no daughter: the board can never be reduced to daughters, and nothing
            // else ends the stage.
            events.emit(SowingEvent::StageEndless);
            self.over(s, Result_::Unfinished, EndReason::Endless);
            return;
        }
        s.clock.clear_passes();
        s.must_feed = false;
        s.history.clear();
        s.game_start = s.clock.plies();
        self.settle(s, events);
    }

    /// Ends the game: `seat` is driven off the board and loses.
    fn drive_off(
        &self,
        s: &mut SowingState,
        seat: Seat,
        holdings: [u32; 2],
        events: &mut impl EventSink<SowingEvent>,
    ) {
        events.emit(SowingEvent::DrivenOff { seat });
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result: Result_::Win(1 << (1 - seat)),
            end: EndReason::Natural,
            scores: holdings,
            ranks: Outcome::UNRANKED,
        });
    }

    /// Scores a finished board (Lane 1836: 346): its winner gains the excess of his takings
    /// over the other's (`net`: the loser also loses it); the first to `target` wins the
    /// game, otherwise a new board is set out.
    #[cold]
    fn score_board(
        &self,
        s: &mut SowingState,
        scores: [u32; 2],
        events: &mut impl EventSink<SowingEvent>,
    ) {
        s.stages += 1;
        let w = if scores[0] >= scores[1] { 0 } else { 1 };
        let diff = scores[0].abs_diff(scores[1]);
        events.emit(SowingEvent::BoardScored {
            seat: w,
            points: diff,
        });
        if diff == 0 {
            events.emit(SowingEvent::Tie { score: scores[0] });
            if s.clock.plies() == s.game_start && self.p.distribution == Distribution::Even {
                // A drawn board on which nobody could decide anything: the next board, set
                // out the same way with the same counters, would end the same, for ever.
                events.emit(SowingEvent::StageCycle);
                self.over(s, Result_::Unfinished, EndReason::Cycle);
                return;
            }
        }
        if self.p.target_reach == TargetReach::Exactly
            && s.points[w] + diff as i32 > i32::from(self.p.target)
        {
            // Sixty exactly: a gain that would pass it counts for nothing, for either player.
            events.emit(SowingEvent::TargetPassed {
                seat: w,
                points: diff,
            });
        } else {
            s.points[w] += diff as i32;
            if self.p.points == Points::Net {
                s.points[1 - w] -= diff as i32;
            }
        }
        if s.points[w] >= i32::from(self.p.target) {
            // The board's counters stay where they are (in the takings) for conservation.
            s.phase = Phase::Over;
            s.outcome = Some(Outcome {
                result: Result_::Win(1 << w),
                end: EndReason::Natural,
                scores: [s.points[0].max(0) as u32, s.points[1].max(0) as u32],
                ranks: Outcome::UNRANKED,
            });
            return;
        }
        let next = match self.p.next_distributor {
            NextDistributor::Loser if diff > 0 => 1 - w,
            NextDistributor::Loser | NextDistributor::Same => s.distributor as usize,
            NextDistributor::Alternate => 1 - s.distributor as usize,
            NextDistributor::AfterLastMover => s.mover as usize,
        };
        if s.total() == s.pos.discarded {
            // Every counter is out of play (left uncounted on earlier boards): no board can be
            // set out, and the points decide.
            s.phase = Phase::Over;
            s.outcome = Some(Outcome {
                result: match s.points[0].cmp(&s.points[1]) {
                    std::cmp::Ordering::Greater => Result_::Win(1),
                    std::cmp::Ordering::Less => Result_::Win(2),
                    std::cmp::Ordering::Equal => Result_::Draw,
                },
                end: EndReason::Natural,
                scores: [s.points[0].max(0) as u32, s.points[1].max(0) as u32],
                ranks: Outcome::UNRANKED,
            });
            return;
        }
        events.emit(SowingEvent::NextDistributor { seat: next });
        self.new_board(s, next);
        self.settle(s, events);
    }

    /// Sets out a new board with the counters still in play, the points and the ply count
    /// kept: evenly, house by house round the circuit (the non-distributor moves first), or
    /// into the distributor's hand for him to distribute.
    fn new_board(&self, s: &mut SowingState, distributor: usize) {
        let total = s.total() - s.pos.discarded;
        s.pos.board = [0; RING];
        s.pos.store = [0; 2];
        s.pos.mark = [0; RING];
        s.clock.clear_passes();
        s.must_feed = false;
        s.history.clear();
        s.game_start = s.clock.plies();
        s.distributor = distributor as u8;
        s.manner = self.p.distribution;
        if self.p.distribution == Distribution::Even {
            for (h, c) in s.pos.board[..self.r].iter_mut().enumerate() {
                *c = (total / self.r as u32 + u32::from((h as u32) < total % self.r as u32)) as u16;
            }
            s.hand = 0;
            s.mover = 1 - distributor as u8;
            s.phase = Phase::Play;
        } else {
            s.hand = total;
            s.mover = distributor as u8;
            s.phase = Phase::Distribute;
        }
    }

    /// Sets up the board for a (new) game, keeping the ply and turn counts.
    fn restart(&self, s: &mut SowingState) {
        s.pos.board = [0; RING];
        s.pos.board[..self.r].fill(u16::from(self.p.counters));
        s.pos.store = [0; 2];
        s.pos.mark = [0; RING];
        // Each seat owns his row: the row table, `NO_SEAT` beyond the circuit.
        s.pos.owner = self.row;
        s.owned = [self.row_mask(0), self.row_mask(1)];
        s.sowable = [0; 2];
        s.pos.discarded = 0;
        s.debt = [0; 2];
        s.idle_stages.clear();
        s.stages = 0;
        s.stake = [self.n as u32 * u32::from(self.p.counters); 2];
        s.placing = None;
        s.tied = false;
        s.points = [0; 2];
        s.hand = 0;
        s.distributor = 0;
        s.manner = self.p.distribution;
        s.clock.clear_passes();
        s.must_feed = false;
        s.outcome = None;
        s.history.clear();
        s.game_start = s.clock.plies();
        let distributed = self.p.distribution != Distribution::Even;
        if distributed {
            // The counters start in the distributor's hand.
            s.pos.board = [0; RING];
            s.hand = self.r as u32 * u32::from(self.p.counters);
        }
        s.mover = 0;
        s.phase = match (self.p.starter, distributed) {
            (Starter::Lot, _) => Phase::Lot,
            (Starter::FirstSeat, false) => Phase::Play,
            (Starter::FirstSeat, true) => Phase::Distribute,
        };
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
            history: Vec::new(),
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
        let name = |h: u8| house_name(usize::from(h), self.n);
        let kind = event.kind().name();
        match *event {
            SowingEvent::Capture { house, counters }
            | SowingEvent::Chain { house, counters }
            | SowingEvent::Peck { house, counters }
            | SowingEvent::Relay { house, counters } => {
                format!("{kind} {} ({counters})", name(house))
            }
            SowingEvent::Daughter { house }
            | SowingEvent::DaughterLost { house }
            | SowingEvent::Drink { house }
            | SowingEvent::OwnCountStop { house }
            | SowingEvent::CaptureDeclined { house }
            | SowingEvent::ChainOwnRow { house }
            | SowingEvent::ChainRowStop { house }
            | SowingEvent::ChainOrigin { house } => format!("{kind} {}", name(house)),
            _ => event.to_string(),
        }
    }

    fn state_text(&self, s: &SowingState) -> String {
        self.board_text(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The vector and the word forms of the held-house mask agree with a plain compare.
        #[test]
        fn held_masks_agree(
            houses in prop::array::uniform16(prop_oneof![0u16..8, 0u16..0x8000]),
            min in prop_oneof![1u16..8, 1u16..0x8000],
        ) {
            let plain = houses
                .iter()
                .enumerate()
                .fold(0u32, |m, (i, &c)| m | u32::from(c >= min) << i);
            prop_assert_eq!(at_least_16(&houses, min), plain);
            prop_assert_eq!(at_least_16_words(&houses, min), plain);
        }
    }
}
