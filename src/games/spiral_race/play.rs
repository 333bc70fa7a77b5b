//! A move played: a mother's or the hyena's step, the costs due at the well and on leaving
//! the village (paid at once, by throws or by credit), and what the hyena eats on its way
//! back.

use super::*;

impl SpiralRace {
    /// A piece has just come where a cost is due (a mother or the hyena at the well, the hyena
    /// let loose in the village). A cost of 0 is nothing to pay, so it is paid up on the spot
    /// and the exit rule applies at once (without this, `pay` would never run and the piece
    /// would wait for ever); otherwise banked tâbas pay under `at-once`.
    fn settle(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let piece = s.piece(seat, which);
        if self.owed(&piece, which).is_none() {
            self.paid_in_full(s, seat, which, events);
        } else {
            self.pay_at_once(s, seat, which, events);
        }
    }

    /// Pays banked tâbas at once where some are owed (`well_pay: at-once`).
    pub(super) fn pay_at_once(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if self.p.well_pay != WellPay::AtOnce {
            return;
        }
        let piece = s.piece(seat, which);
        if let Some(owed) = self.owed(&piece, which) {
            let n = owed.min(s.bank[seat].min(255) as u8);
            for _ in 0..n {
                self.pay(s, seat, which, events);
                s.bank[seat] -= 1;
            }
        }
    }

    /// One tâba paid by the seat's piece; settles what paying in full does.
    pub(super) fn pay(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let piece = s.piece_mut(seat, which);
        piece.paid += 1;
        let leg = piece.leg;
        let kind = match (which, leg) {
            (Which::Mother, _) => SpiralRaceEventKind::Paid,
            (Which::Hyena, Leg::Village) => SpiralRaceEventKind::ReleasePaid,
            (Which::Hyena, _) => SpiralRaceEventKind::HyenaPaid,
        };
        let pos = piece.pos;
        self.emit(events, kind, seat, pos);
        if self.owed(&s.piece(seat, which), which).is_none() {
            self.paid_in_full(s, seat, which, events);
        }
    }

    /// A piece that has paid all it owes: the hyena leaves the village; at the well, the exit
    /// rule applies.
    fn paid_in_full(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        which: Which,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if which == Which::Hyena && s.hyena.leg == Leg::Well && self.p.eats_at_well {
            // He has drunk: the women waiting at the well are his.
            for q in 0..self.players {
                if s.mothers[q].leg == Leg::Well {
                    s.mothers[q].leg = Leg::Eaten;
                    s.fate[q] = s.clock.plies();
                    s.eaten += 1;
                    self.emit(events, SpiralRaceEventKind::Eaten, q, self.len);
                }
            }
        }
        let piece = s.piece_mut(seat, which);
        match piece.leg {
            Leg::Village => {
                piece.leg = Leg::Out;
                piece.paid = 0;
                self.emit(events, SpiralRaceEventKind::HyenaOut, seat, 0);
            }
            Leg::Well => match self.p.well_exit {
                WellExit::NextThrow => {}
                WellExit::WithLast => {
                    piece.leg = Leg::Back;
                    piece.pos = self.len - 1;
                    piece.first_back = true;
                    self.left_well(events, seat, which, self.len - 1);
                }
                WellExit::Released => {
                    piece.leg = Leg::Back;
                    piece.first_back = true;
                    self.left_well(events, seat, which, self.len);
                }
                WellExit::TwoLast => {
                    let to = self.len - self.come_away(which);
                    piece.leg = Leg::Back;
                    piece.pos = to;
                    piece.first_back = true;
                    self.left_well(events, seat, which, to);
                }
            },
            _ => {}
        }
    }

    /// Hollows the tâbas "to come away with" move a piece out of the well (`two-last`): one
    /// each, two at most, and one where only one is paid.
    #[inline]
    pub(super) fn come_away(&self, which: Which) -> u16 {
        let cost = match which {
            Which::Mother => self.p.well_cost,
            Which::Hyena => self.p.hyena_well_cost,
        };
        u16::from(cost.min(2))
    }

    #[inline]
    pub(super) fn left_well(
        &self,
        events: &mut impl EventSink<SpiralRaceEvent>,
        seat: usize,
        which: Which,
        to: u16,
    ) {
        let kind = match which {
            Which::Mother => SpiralRaceEventKind::LeftWell,
            Which::Hyena => SpiralRaceEventKind::HyenaLeftWell,
        };
        self.emit(events, kind, seat, to);
    }

    /// Moves the seat's mother to `to` (either way), by a credit step or not; settles
    /// arrivals.
    pub(super) fn move_mother(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        to: u16,
        by_credit: bool,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let m = &mut s.mothers[seat];
        m.pos = to;
        match m.leg {
            Leg::Out if to == self.len => {
                m.leg = Leg::Well;
                m.paid = 0;
                self.emit(events, SpiralRaceEventKind::AtWell, seat, to);
                // The credit that carried her in is the first of her tâbas there.
                if by_credit && self.p.credit_entry_pays && self.p.well_cost > 0 {
                    s.mothers[seat].paid = 1;
                    self.emit(events, SpiralRaceEventKind::EntryPaid, seat, to);
                }
                self.settle(s, seat, Which::Mother, events);
            }
            Leg::Back => {
                if m.first_back {
                    m.first_back = false;
                    if self.p.well_banking == WellBanking::Added {
                        m.kept = [0; 3];
                    }
                }
                if to == 0 {
                    m.leg = Leg::Home;
                    s.fate[seat] = s.clock.plies();
                    self.emit(events, SpiralRaceEventKind::Home, seat, 0);
                    // Her journey is over: under `fresh` what is left of her credit is not the
                    // hyena's to spend.
                    if self.p.hyena_purse == HyenaPurse::Fresh && s.bank[seat] > 0 {
                        let n = s.bank[seat];
                        s.set_aside[seat] += n;
                        s.bank[seat] = 0;
                        self.emit(
                            events,
                            SpiralRaceEventKind::CreditSetAside,
                            seat,
                            u16::try_from(n).unwrap_or(u16::MAX),
                        );
                    }
                    if s.hyena_player == NONE {
                        s.hyena_player = seat as u8;
                        s.hyena = Piece::START;
                        self.emit(events, SpiralRaceEventKind::HyenaLoose, seat, 0);
                        self.settle(s, seat, Which::Hyena, events);
                    }
                }
            }
            _ => {}
        }
    }

    /// Moves the hyena to `to`; on its way back it eats.
    pub(super) fn move_hyena(
        &self,
        s: &mut SpiralRaceState,
        seat: usize,
        to: u16,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        let from = s.hyena.pos;
        if s.hyena.leg == Leg::Back {
            let (lo, hi) = match self.p.eats {
                // Hollows strictly between, and/or the landing one; or the start and those
                // between (Ludii).
                Eats::Passed => (to + 1, from - 1),
                Eats::Landed => (to, to),
                Eats::Both => (to, from - 1),
                Eats::Sweep => (to + 1, from),
            };
            for seat_m in 0..self.players {
                let m = s.mothers[seat_m];
                let in_reach = m.pos >= lo && m.pos <= hi && m.pos > 0 && m.pos < self.len;
                if !in_reach {
                    continue;
                }
                match m.leg {
                    Leg::Back => {}
                    Leg::Out if self.p.eats_outbound => {}
                    Leg::Out => {
                        self.emit(events, SpiralRaceEventKind::SparedHeadOn, seat_m, m.pos);
                        continue;
                    }
                    _ => continue,
                }
                s.mothers[seat_m].leg = Leg::Eaten;
                s.fate[seat_m] = s.clock.plies();
                s.eaten += 1;
                self.emit(events, SpiralRaceEventKind::Eaten, seat_m, m.pos);
            }
        }
        let h = &mut s.hyena;
        if h.leg == Leg::Village {
            h.leg = Leg::Out;
        }
        h.pos = to;
        match h.leg {
            Leg::Out if to == self.len => {
                h.leg = Leg::Well;
                h.paid = 0;
                self.emit(events, SpiralRaceEventKind::HyenaAtWell, seat, to);
                self.settle(s, seat, Which::Hyena, events);
            }
            Leg::Back if to == 0 => {
                h.leg = Leg::Home;
                self.emit(events, SpiralRaceEventKind::HyenaHome, seat, 0);
                let women_out =
                    (0..self.players).any(|q| !matches!(s.mothers[q].leg, Leg::Home | Leg::Eaten));
                if self.p.hyena_again && women_out {
                    // Round again: loose in the village as at first, his release to pay.
                    s.hyena = Piece::START;
                    self.emit(events, SpiralRaceEventKind::HyenaAgain, seat, 0);
                    self.settle(s, seat, Which::Hyena, events);
                }
            }
            _ => {}
        }
    }
}
