//! The spiral-race events: the kinds (their stable names and the parameters that decide each,
//! in one [`event_kinds!`] table), the event (a kind, a seat and a hollow or count), and its
//! text, written once from the kind's name.

use super::*;

event_kinds! {
    /// The kinds of spiral-race event.
    pub enum SpiralRaceEventKind;
    endless = ["end", "village_exact", "overshoot", "return_taba", "hyena_exact", "cap"];
    /// A lot decided who throws first.
    Lot = "lot" ["starter"],
    /// A mother left the village.
    Left = "left" ["leave"],
    /// A tâba was banked.
    Banked = "banked" [] in ["must_move"],
    /// A throw would have taken a mother past the well.
    Overshoot = "overshoot" ["overshoot"],
    /// A banked tâba moved a mother on her way out.
    CreditOut = "credit-out" ["out_credit"],
    /// A tâba thrown with a credit step was lost (Ludii: one move per throw).
    TabaDropped = "taba-dropped" ["ludii_credit_drops_taba"],
    /// A mother reached the well.
    AtWell = "at-well" [] in ["overshoot"],
    /// A tâba was paid at the well.
    Paid = "paid" ["well_cost", "well_pay"],
    /// A score thrown at the well was kept for later.
    Kept = "kept" ["well_banking"],
    /// A kept score moved a mother.
    KeptPlayed = "kept-played" ["well_banking"],
    /// A mother left the well.
    LeftWell = "left-well" ["well_exit"],
    /// A tâba moved a mother on her way back.
    ReturnTaba = "return-taba" ["return_taba"],
    /// A banked tâba took a mother into the village.
    ReturnCredit = "return-credit" ["return_taba"],
    /// A mother came home.
    Home = "home" ["village_exact"],
    /// The first mother home let the hyena loose.
    HyenaLoose = "hyena-loose" ["controller"],
    /// A home player waited while another moved the hyena.
    Waiting = "waiting" ["controller"],
    /// A tâba was paid for the hyena's release.
    ReleasePaid = "release-paid" ["hyena_release_cost", "well_pay"],
    /// The hyena left the village.
    HyenaOut = "hyena-out" ["hyena_release_cost"],
    /// A tâba was banked for the hyena.
    HyenaBanked = "hyena-banked" ["hyena_taba"],
    /// A banked tâba moved the hyena.
    HyenaCredit = "hyena-credit" ["hyena_credit_step"],
    /// A throw stopped the hyena at the well short of its full value.
    HyenaStopped = "hyena-stopped" ["hyena_exact"],
    /// The hyena reached the well.
    HyenaAtWell = "hyena-at-well" [] in ["hyena_exact"],
    /// A tâba was paid for the hyena at the well.
    HyenaPaid = "hyena-paid" ["hyena_well_cost", "well_pay"],
    /// The hyena left the well.
    HyenaLeftWell = "hyena-left-well" ["well_exit"],
    /// The hyena ate a woman.
    Eaten = "eaten" ["eats", "eats_outbound", "eats_at_well"],
    /// The hyena passed a woman still on her way out, who was spared.
    SparedHeadOn = "spared-head-on" ["eats_outbound"],
    /// The hyena came home.
    HyenaHome = "hyena-home" ["village_exact"],
    /// A throw no piece could use was lost.
    Unusable = "unusable" [] in ["must_move"],
    /// A player let a usable throw go.
    Declined = "declined" ["must_move"],
    /// A yômên stopped the player without being played.
    YomenStops = "yomen-stops" ["yomen_played"],
    /// The end rule ended the game.
    GameEnd = "game-end" ["end"],
    /// The hyena's player won.
    HyenaWins = "hyena-wins" ["winner"],
    /// The survivors won.
    SurvivorsWin = "survivors-win" ["winner"],
    /// Nobody was left to move.
    NoMover = "no-mover" ["controller", "end"],
    /// An engine's cap ended the game.
    CapReached = "cap-reached" ["cap"],
    /// The hyena can never come home (nor, under `first-eaten`, eat): the game cannot end.
    NeverHome = "never-home" ["end", "village_exact", "hyena_exact", "hyena_taba", "hyena_credit_step", "yomen_played"],
    /// The credit step into the well paid the first of her tâbas there.
    EntryPaid = "entry-paid" ["credit_entry_pays"],
    /// A kept score moved the hyena.
    HyenaKept = "hyena-kept" ["well_banking", "hyena_keeps"],
    /// A score thrown for the hyena at the well was marked down for him.
    HyenaMarked = "hyena-marked" ["hyena_keeps"],
    /// The hyena, home with women still on their way, set off again.
    HyenaAgain = "hyena-again" ["hyena_again"],
    /// A mother came home with credit left, which pays nothing for the hyena.
    CreditSetAside = "credit-set-aside" ["hyena_purse"],
}

/// A spiral-race event with its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpiralRaceEvent {
    /// What happened.
    pub kind: SpiralRaceEventKind,
    /// The seat concerned.
    pub seat: u8,
    /// The hollow concerned, or a count (turns at the cap).
    pub at: u16,
}

impl Event for SpiralRaceEvent {
    type Kind = SpiralRaceEventKind;
    #[inline]
    fn kind(&self) -> SpiralRaceEventKind {
        self.kind
    }
}

impl fmt::Display for SpiralRaceEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} seat={} at={}",
            self.kind.name(),
            self.seat + 1,
            self.at
        )
    }
}

impl SpiralRace {
    #[inline]
    pub(super) fn emit(
        &self,
        events: &mut impl EventSink<SpiralRaceEvent>,
        kind: SpiralRaceEventKind,
        seat: usize,
        at: u16,
    ) {
        events.emit(SpiralRaceEvent {
            kind,
            seat: seat as u8,
            at,
        });
    }
}
