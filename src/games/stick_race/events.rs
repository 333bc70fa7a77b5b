//! The stick-race events: the kinds (their stable names and the parameters that decide each,
//! in one [`event_kinds!`] table), and the events with their data. Their text is in `text`.

use super::*;

event_kinds! {
    /// The kinds of stick-race event.
    pub enum StickRaceEventKind;
    endless = ["end", "overshoot", "track", "standstill", "cap"];
    /// A lot decided who throws first.
    Lot = "lot" ["starter"],
    /// A tâba was banked to the player's credit.
    Banked = "banked" [] in ["release"],
    /// A thrown tâba released a counter.
    Released = "released" ["release", "release_moves"],
    /// A banked tâba released a counter.
    CreditRelease = "credit-release" ["release", "release_moves"],
    /// A counter was eaten (whatever the rule that ate it).
    Capture = "capture" [] in ["capture"],
    /// A counter was eaten by one landing on it.
    LandingCapture = "landing-capture" ["capture"],
    /// A counter was eaten by one passing over it.
    OvertakingCapture = "overtaking-capture" ["capture", "overtaken"],
    /// A counter was passed over and not eaten (only the first passed is eaten).
    OvertakenSpared = "overtaken-spared" ["overtaken"],
    /// A counter was passed over where only landing eats.
    PassedOver = "passed-over" ["capture"],
    /// Banked tâbas were added to a throw to eat.
    CreditCapture = "credit-capture" ["credits"],
    /// Ludii 1.0.8's credit defect: a capture "with credits" one house short of the throw,
    /// with no credit banked.
    EmptyCredit = "empty-credit" ["ludii_empty_credit_minus_one"],
    /// A yômên stopped the player without being played.
    YomenStops = "yomen-stops" ["yomen_played"],
    /// A throw no counter could use was lost.
    UnusableThrow = "unusable-throw" ["unusable"],
    /// A player let a throw he could use go.
    Declined = "declined" ["must_move"],
    /// A counter stopped on the last house of its track.
    StoppedAtEnd = "stopped-at-end" ["overshoot"],
    /// A counter bore off.
    BorneOff = "borne-off" ["overshoot"],
    /// Every counter stood in its last row: the game ended.
    FinalRows = "final-rows" ["end"],
    /// A side had no counter left: the game ended.
    Annihilation = "annihilation" ["end"],
    /// The game ended with as many eaten on each side: a draw.
    EqualCaptures = "equal-captures" ["end"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// A counter ended its move on an enemy it did not eat, and both stand there.
    SharedHouse = "shared-house" ["beside_enemy"],
    /// A counter went on round past the last house of its track.
    WentRound = "went-round" ["overshoot", "track"],
    /// A throw no counter could use was marked up to the player's credit.
    ThrowBanked = "throw-banked" ["unusable"],
    /// Every counter left had finished its course: the game ended.
    CoursesRun = "courses-run" ["end"],
    /// Nothing could change any more, and the game was ended there and decided.
    Standstill = "standstill" ["standstill"],
    /// The game's end could no longer be reached: it was stopped as unfinished.
    Endless = "endless" ["end", "overshoot", "track", "standstill"],
    /// The agreed number of turns was played: the game ended.
    AgreedTime = "agreed-time" ["end", "agreed_turns"],
    /// Banked tâbas moved a counter in a move that ate nothing, with a throw or alone.
    CreditMove = "credit-move" ["credits"],
}

/// A stick-race event with its data. Houses are board indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StickRaceEvent {
    /// The lot chose `seat` to throw first.
    Lot {
        /// Who throws first.
        seat: Seat,
    },
    /// `seat` banked a tâba.
    Banked {
        /// The seat.
        seat: Seat,
    },
    /// The counter on `house` was released by a thrown tâba.
    Released {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was released by a banked tâba.
    CreditRelease {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was eaten.
    Capture {
        /// The house.
        house: u8,
    },
    /// ... by landing.
    LandingCapture {
        /// The house.
        house: u8,
    },
    /// ... by overtaking.
    OvertakingCapture {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was passed and spared.
    OvertakenSpared {
        /// The house.
        house: u8,
    },
    /// The counter on `house` was passed over where only landing eats.
    PassedOver {
        /// The house.
        house: u8,
    },
    /// `spent` banked tâbas were added to a throw to eat.
    CreditCapture {
        /// Tâbas spent.
        spent: u8,
    },
    /// The −1 credit defect was used.
    EmptyCredit,
    /// A yômên stopped `seat` without being played.
    YomenStops {
        /// The seat.
        seat: Seat,
    },
    /// `seat` lost a throw no counter could use.
    UnusableThrow {
        /// The seat.
        seat: Seat,
        /// The throw.
        throw: u8,
    },
    /// `seat` let a usable throw go.
    Declined {
        /// The seat.
        seat: Seat,
    },
    /// A counter stopped on the last house, `house`.
    StoppedAtEnd {
        /// The house.
        house: u8,
    },
    /// A counter from `house` bore off.
    BorneOff {
        /// The house it left.
        house: u8,
    },
    /// The final-rows end.
    FinalRows,
    /// `seat` had no counter left.
    Annihilation {
        /// The seat.
        seat: Seat,
    },
    /// Equal captures at the end.
    EqualCaptures,
    /// The cap was reached.
    CapReached {
        /// Turns played.
        turns: u32,
        /// Decisions made.
        plies: u32,
    },
    /// A counter ended its move on `house`, beside an enemy it did not eat.
    SharedHouse {
        /// The house.
        house: u8,
    },
    /// A counter went on round past its last house, from `house`.
    WentRound {
        /// The house it moved from.
        house: u8,
    },
    /// `seat` marked an unusable `throw` up to his credit.
    ThrowBanked {
        /// The seat.
        seat: Seat,
        /// The throw.
        throw: u8,
    },
    /// The courses-run end.
    CoursesRun,
    /// Nothing could change any more; the game was decided there.
    Standstill,
    /// The game's end could no longer be reached.
    Endless,
    /// The agreed time was up after `turns` turns.
    AgreedTime {
        /// Turns played.
        turns: u32,
    },
    /// `spent` banked tâbas moved a counter in a move that ate nothing.
    CreditMove {
        /// Tâbas spent.
        spent: u8,
    },
}

impl Event for StickRaceEvent {
    type Kind = StickRaceEventKind;
    #[inline]
    fn kind(&self) -> StickRaceEventKind {
        use StickRaceEventKind as K;
        match self {
            StickRaceEvent::Lot { .. } => K::Lot,
            StickRaceEvent::Banked { .. } => K::Banked,
            StickRaceEvent::Released { .. } => K::Released,
            StickRaceEvent::CreditRelease { .. } => K::CreditRelease,
            StickRaceEvent::Capture { .. } => K::Capture,
            StickRaceEvent::LandingCapture { .. } => K::LandingCapture,
            StickRaceEvent::OvertakingCapture { .. } => K::OvertakingCapture,
            StickRaceEvent::OvertakenSpared { .. } => K::OvertakenSpared,
            StickRaceEvent::PassedOver { .. } => K::PassedOver,
            StickRaceEvent::CreditCapture { .. } => K::CreditCapture,
            StickRaceEvent::EmptyCredit => K::EmptyCredit,
            StickRaceEvent::YomenStops { .. } => K::YomenStops,
            StickRaceEvent::UnusableThrow { .. } => K::UnusableThrow,
            StickRaceEvent::Declined { .. } => K::Declined,
            StickRaceEvent::StoppedAtEnd { .. } => K::StoppedAtEnd,
            StickRaceEvent::BorneOff { .. } => K::BorneOff,
            StickRaceEvent::FinalRows => K::FinalRows,
            StickRaceEvent::Annihilation { .. } => K::Annihilation,
            StickRaceEvent::EqualCaptures => K::EqualCaptures,
            StickRaceEvent::CapReached { .. } => K::CapReached,
            StickRaceEvent::SharedHouse { .. } => K::SharedHouse,
            StickRaceEvent::WentRound { .. } => K::WentRound,
            StickRaceEvent::ThrowBanked { .. } => K::ThrowBanked,
            StickRaceEvent::CoursesRun => K::CoursesRun,
            StickRaceEvent::Standstill => K::Standstill,
            StickRaceEvent::Endless => K::Endless,
            StickRaceEvent::AgreedTime { .. } => K::AgreedTime,
            StickRaceEvent::CreditMove { .. } => K::CreditMove,
        }
    }
}
