//! The legal moves of a throw: which piece a seat plays, where a throw takes it on the way
//! out, at the well and on the way back, what a tâba may be banked for, and the moves a
//! blocked path rules out.

use super::*;

impl SpiralRace {
    /// The piece a seat plays, if any.
    #[inline]
    pub(super) fn which(&self, s: &SpiralRaceState, seat: usize) -> Option<Which> {
        match s.mothers[seat].leg {
            Leg::Eaten => None,
            Leg::Home => {
                let hyena_moves = s.hyena_player != NONE && s.hyena.leg != Leg::Home;
                let controls = match self.p.controller {
                    Controller::FirstHome => usize::from(s.hyena_player) == seat,
                    Controller::EveryHome => true,
                };
                (hyena_moves && controls).then_some(Which::Hyena)
            }
            _ => Some(Which::Mother),
        }
    }

    /// A mother's target going out by `dist` from `pos`, under the overshoot rule.
    fn out_target(&self, pos: u16, dist: u16) -> Option<u16> {
        let j = pos + dist;
        if j <= self.len {
            return Some(j);
        }
        match self.p.overshoot {
            MotherOvershoot::Forfeit => None,
            MotherOvershoot::Bounce => Some(self.len - (j - self.len).min(self.len - 1)),
            MotherOvershoot::Stop => Some(self.len),
        }
    }

    /// The hyena's target going out by `dist` from `pos`: the well stops him unless he must
    /// reach it exactly.
    fn hyena_out_target(&self, pos: u16, dist: u16) -> Option<u16> {
        let j = pos + dist;
        if j <= self.len {
            Some(j)
        } else if self.p.hyena_exact {
            None
        } else {
            Some(self.len)
        }
    }

    /// A target going back by `dist` from `pos`, under the village rule.
    fn back_target(&self, pos: u16, dist: u16) -> Option<u16> {
        if dist <= pos {
            Some(pos - dist)
        } else if self.p.village_exact {
            None
        } else {
            Some(0)
        }
    }

    /// A tâba payment is due where the piece stands: its cost, if any is still owed.
    #[inline]
    pub(super) fn owed(&self, piece: &Piece, which: Which) -> Option<u8> {
        let cost = match (which, piece.leg) {
            (Which::Mother, Leg::Well) => self.p.well_cost,
            (Which::Hyena, Leg::Well) => self.p.hyena_well_cost,
            (Which::Hyena, Leg::Village) => self.p.hyena_release_cost,
            _ => return None,
        };
        cost.checked_sub(piece.paid).filter(|&owed| owed > 0)
    }

    /// Whether a tâba thrown for the piece on this leg is one its player may bank: a mother's
    /// out or back, the hyena's out, and his way back where his tâba is only banked. (Where
    /// the hyena's tâba moves him back two, it is a move like a 2, 4 or 6.) A credit step
    /// taken with such a tâba in hand banks it.
    #[inline]
    pub(super) fn taba_banks(&self, which: Which, leg: Leg) -> bool {
        match (which, leg) {
            (Which::Mother, Leg::Out | Leg::Back) => true,
            (Which::Hyena, Leg::Village | Leg::Out) => true,
            (Which::Hyena, Leg::Back) => self.p.hyena_taba == HyenaTaba::Bank,
            _ => false,
        }
    }

    /// The moves a throw allows the seat's piece, into `out` (no pass).
    fn throw_moves(&self, s: &SpiralRaceState, seat: usize, out: &mut impl MoveSink<SpiralMove>) {
        let t = u16::from(s.throw);
        let bank = s.bank[seat];
        let Some(which) = self.which(s, seat) else {
            return;
        };
        let piece = s.piece(seat, which);
        if self.owed(&piece, which).is_some() {
            // Paying: a thrown tâba pays; under each-throw a 2, 4 or 6 spends a banked one.
            if t == 1 {
                out.push(SpiralMove::Pay { credit: false });
            } else if self.p.well_pay == WellPay::EachThrow {
                if bank > 0 {
                    out.push(SpiralMove::Pay { credit: true });
                }
            } else {
                // A 2, 4 or 6 marked down: a mother's where her scores are kept, the hyena's
                // at the well where his are (never at his release).
                let keeps = match which {
                    Which::Mother => self.p.well_banking != WellBanking::Lost,
                    Which::Hyena => piece.leg == Leg::Well && self.p.hyena_keeps,
                };
                if keeps {
                    out.push(SpiralMove::Keep);
                }
            }
            return;
        }
        match (which, piece.leg) {
            (Which::Mother, Leg::Village) if t == 1 => out.push(SpiralMove::Leave),
            (Which::Mother, Leg::Out) => {
                let last = piece.pos + 1 == self.len;
                if last && self.p.out_credit == OutCredit::LastHollow && bank > 0 {
                    // Her only move: the credit completes the journey (Davies' "may" is not a
                    // choice here). A tâba in hand is banked with it; a 2, 4 or 6 gives way.
                    out.push(SpiralMove::Credit { to: self.len });
                    return;
                }
                if t == 1 {
                    out.push(SpiralMove::Bank);
                } else if let Some(to) = self.out_target(piece.pos, t) {
                    out.push(SpiralMove::Step { to });
                }
                let optional_here = last && self.p.out_credit == OutCredit::LastHollowOptional;
                let anywhere =
                    matches!(self.p.out_credit, OutCredit::AnyHollow | OutCredit::AnyTime);
                if (anywhere || optional_here) && bank > 0 {
                    out.push(SpiralMove::Credit { to: piece.pos + 1 });
                }
            }
            (_, Leg::Well) => {
                // Paid: leaving.
                match self.p.well_exit {
                    WellExit::NextThrow => out.push(SpiralMove::Exit { to: self.len - 1 }),
                    // Under these two the piece is already on its way back.
                    WellExit::WithLast | WellExit::Released | WellExit::TwoLast => {}
                }
            }
            (Which::Mother, Leg::Back) => {
                // One hollow from home, a credit may take her in (`return_taba: bank`). Unless
                // `return_credit_forced`, it is one move among others, unlike the way out: she
                // may bank the tâba, or step home on the throw where the village allows, and
                // keep her credit.
                if self.p.return_credit_forced
                    && self.p.return_taba == ReturnTaba::Bank
                    && piece.pos == 1
                    && bank > 0
                {
                    // Forced, as into the well: the credit step home is her only move.
                    out.push(SpiralMove::Credit { to: 0 });
                    return;
                }
                let extra = if piece.first_back && self.p.well_banking == WellBanking::Added {
                    piece.kept_sum()
                } else {
                    0
                };
                if t == 1 {
                    out.push(SpiralMove::Bank);
                    if self.p.return_taba == ReturnTaba::MoveOrBank
                        && let Some(to) = self.back_target(piece.pos, extra.saturating_add(1))
                    {
                        out.push(SpiralMove::Step { to });
                    }
                    if self.p.return_taba == ReturnTaba::Bank && piece.pos == 1 && bank > 0 {
                        out.push(SpiralMove::Credit { to: 0 });
                    }
                } else {
                    if let Some(to) = self.back_target(piece.pos, t.saturating_add(extra)) {
                        out.push(SpiralMove::Step { to });
                    }
                    if self.p.return_taba == ReturnTaba::Bank && piece.pos == 1 && bank > 0 {
                        out.push(SpiralMove::Credit { to: 0 });
                    }
                }
            }
            (Which::Hyena, Leg::Village | Leg::Out) => {
                let pos = piece.pos;
                let out_by = |dist: u16| -> Option<(u16, bool)> {
                    let j = pos + dist;
                    if j <= self.len {
                        Some((j, false))
                    } else if self.p.hyena_exact {
                        None
                    } else {
                        Some((self.len, true))
                    }
                };
                if t == 1 {
                    out.push(SpiralMove::Bank);
                    if self.p.hyena_taba == HyenaTaba::DoubleOrBank
                        && let Some((to, _)) = out_by(2)
                    {
                        out.push(SpiralMove::Step { to });
                    }
                } else if let Some((to, _)) = out_by(2 * t) {
                    out.push(SpiralMove::Step { to });
                }
                let c = u16::from(self.p.hyena_credit_step);
                if c > 0
                    && bank > 0
                    && let Some((to, _)) = out_by(c)
                {
                    out.push(SpiralMove::Credit { to });
                }
            }
            (Which::Hyena, Leg::Back) => {
                if t == 1 && self.taba_banks(which, Leg::Back) {
                    out.push(SpiralMove::Bank);
                } else if let Some(to) = self.back_target(piece.pos, 2 * t) {
                    out.push(SpiralMove::Step { to });
                }
                let c = u16::from(self.p.hyena_credit_step);
                if c > 0
                    && bank > 0
                    && let Some(to) = self.back_target(piece.pos, c)
                {
                    out.push(SpiralMove::Credit { to });
                }
            }
            _ => {}
        }
    }

    /// The moves a throw allows, less those onto a hollow another mother blocks.
    #[inline]
    pub(super) fn unblocked_throw_moves(
        &self,
        s: &SpiralRaceState,
        seat: usize,
        out: &mut Vec<SpiralMove>,
    ) {
        self.throw_moves(s, seat, out);
        if self.p.mothers_block {
            out.retain(|&mv| !self.blocked(s, seat, mv));
        }
    }

    /// Whether a move of the seat's mother would land on a hollow of the track where another
    /// mother stands (`mothers_block`; the village and the well hold any number).
    fn blocked(&self, s: &SpiralRaceState, seat: usize, mv: SpiralMove) -> bool {
        if self.which(s, seat) != Some(Which::Mother) {
            return false;
        }
        let to = match mv {
            SpiralMove::Step { to }
            | SpiralMove::Credit { to }
            | SpiralMove::Exit { to }
            | SpiralMove::Kept { to, .. } => to,
            SpiralMove::Leave if self.p.leave == Leave::Step => 1,
            _ => return false,
        };
        to > 0
            && to < self.len
            && (0..self.players).any(|q| {
                let m = s.mothers[q];
                q != seat && matches!(m.leg, Leg::Out | Leg::Back) && m.pos == to
            })
    }

    /// Every legal decision of the mover.
    pub(super) fn decisions(&self, s: &SpiralRaceState, out: &mut Vec<SpiralMove>) {
        let seat = usize::from(s.mover);
        self.unblocked_throw_moves(s, seat, out);
        let usable = !out.is_empty();
        // Kept scores are played as decisions of their own, the throw kept in hand.
        let m = s.mothers[seat];
        let forced = out.len() == 1 && matches!(out[0], SpiralMove::Credit { to: 0 });
        let separate = matches!(
            self.p.well_banking,
            WellBanking::Separate | WellBanking::OneATurn | WellBanking::Hyena
        );
        let spent = self.p.well_banking == WellBanking::OneATurn && s.kept_played;
        match self.which(s, seat) {
            Some(Which::Mother)
                if separate
                    && !spent
                    && m.leg == Leg::Back
                    && !(forced && self.p.return_credit_forced) =>
            {
                for (k, &n) in m.kept.iter().enumerate() {
                    let score = [2u8, 4, 6][k];
                    if n > 0
                        && let Some(to) = self.back_target(m.pos, u16::from(score))
                    {
                        out.push(SpiralMove::Kept { score, to });
                    }
                }
            }
            // The hyena's own scores marked down at the well (`hyena_keeps`), and her scores
            // left over where they are her player's hyena's: at double rates.
            Some(Which::Hyena)
                if self.p.well_banking == WellBanking::Hyena || self.p.hyena_keeps =>
            {
                let h = s.hyena;
                let mothers = self.p.well_banking == WellBanking::Hyena;
                for k in 0..3 {
                    let n = h.kept[k] + if mothers { m.kept[k] } else { 0 };
                    let score = [2u8, 4, 6][k];
                    let dist = 2 * u16::from(score);
                    let to = match h.leg {
                        Leg::Out => self.hyena_out_target(h.pos, dist),
                        Leg::Back => self.back_target(h.pos, dist),
                        _ => None,
                    };
                    if n > 0
                        && let Some(to) = to
                    {
                        out.push(SpiralMove::Kept { score, to });
                    }
                }
            }
            _ => {}
        }
        if self.p.mothers_block {
            out.retain(|&mv| !self.blocked(s, seat, mv));
        }
        // Under `last-hollow-optional` and `any-time` a credit step is no use of the throw:
        // with nothing else to do she may still keep her credit and let the throw go.
        let credit_only = usable
            && matches!(
                self.p.out_credit,
                OutCredit::LastHollowOptional | OutCredit::AnyTime
            )
            && self.which(s, seat) == Some(Which::Mother)
            && m.leg == Leg::Out
            && out.iter().all(|mv| matches!(mv, SpiralMove::Credit { .. }));
        if !usable || !self.p.must_move || credit_only {
            out.push(SpiralMove::Pass);
        }
    }
}
