//! The end rules after each decision: the reading's end, the ranks by Davies' degrees of
//! defeat, the proof that the hyena can no longer come home (an endless game), and the
//! passing of the sticks to the next seat.

use super::*;
use crate::family::spiral_race::hyena_from_well;

impl SpiralRace {
    fn over(&self, s: &mut SpiralRaceState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        let ranks = if end == EndReason::Natural {
            self.ranks(s)
        } else {
            Outcome::UNRANKED
        };
        s.outcome = Some(Outcome {
            result,
            end,
            scores: [0, 0],
            ranks,
        });
    }

    /// Davies' degrees of defeat as places (1 the best): the mothers home first, in the order
    /// they came (the first, the hyena's player, first of all); then those neither home nor
    /// eaten when the game ended, sharing a place; then the eaten, the later eaten above the
    /// earlier, women eaten on one move sharing a place.
    fn ranks(&self, s: &SpiralRaceState) -> [u8; 8] {
        let mut ranks = Outcome::UNRANKED;
        let seats = 0..self.players;
        let home = |seat: usize| s.mothers[seat].leg == Leg::Home;
        let eaten = |seat: usize| s.mothers[seat].leg == Leg::Eaten;
        let n_home = seats.clone().filter(|&q| home(q)).count();
        let n_out = seats.clone().filter(|&q| !home(q) && !eaten(q)).count();
        for seat in seats.clone() {
            let f = s.fate[seat];
            let place = if home(seat) {
                1 + seats.clone().filter(|&q| home(q) && s.fate[q] < f).count()
            } else if !eaten(seat) {
                n_home + 1
            } else {
                n_home + n_out + 1 + seats.clone().filter(|&q| eaten(q) && s.fate[q] > f).count()
            };
            ranks[seat] = place as u8;
        }
        ranks
    }

    /// The seats whose mothers were not eaten.
    fn survivors(&self, s: &SpiralRaceState) -> u8 {
        (0..self.players)
            .filter(|&seat| s.mothers[seat].leg != Leg::Eaten)
            .fold(0, |mask, seat| mask | 1 << seat)
    }

    /// The winner rule, as a result.
    fn result(&self, s: &SpiralRaceState, events: &mut impl EventSink<SpiralRaceEvent>) -> Result_ {
        let hyena = s.hyena_player;
        let hyena_wins = match self.p.winner {
            Winner::Survivors => false,
            Winner::Hyena => hyena != NONE,
            Winner::HyenaIfEats => hyena != NONE && s.eaten > 0,
            // The places are the result (`ranks`): nobody wins alone.
            Winner::Ranking => return Result_::Draw,
        };
        if hyena_wins {
            self.emit(
                events,
                SpiralRaceEventKind::HyenaWins,
                usize::from(hyena),
                0,
            );
            return Result_::Win(1 << hyena);
        }
        let mask = self.survivors(s);
        if mask == 0 {
            return Result_::Draw;
        }
        self.emit(
            events,
            SpiralRaceEventKind::SurvivorsWin,
            0,
            mask.count_ones() as u16,
        );
        Result_::Win(mask)
    }

    /// The end rule, then the cap. Returns whether the game is over.
    pub(super) fn end_tests(
        &self,
        s: &mut SpiralRaceState,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) -> bool {
        let loose = s.hyena_player != NONE;
        let all_home = (0..self.players).all(|seat| {
            let m = s.mothers[seat];
            matches!(m.leg, Leg::Home | Leg::Eaten)
                // Ludii tests only where the mothers stand: one who never left is "home".
                || (self.p.ludii_unleft_home && !s.left[seat])
        });
        let ended = match self.p.end {
            End::AllHome => loose && all_home,
            End::HyenaHome => loose && s.hyena.leg == Leg::Home,
            End::FirstEaten => s.eaten > 0 || (loose && s.hyena.leg == Leg::Home),
        };
        if ended {
            self.emit(events, SpiralRaceEventKind::GameEnd, 0, 0);
            let result = self.result(s, events);
            self.over(s, result, EndReason::Natural);
            return true;
        }
        if loose && !self.can_end(s) {
            let seat = usize::from(s.hyena_player);
            self.emit(events, SpiralRaceEventKind::NeverHome, seat, s.hyena.pos);
            self.over(s, Result_::Unfinished, EndReason::Endless);
            return true;
        }
        if s.clock.plies() > 0
            && let Some(reason) = self.limit.reached(&s.clock)
        {
            self.emit(events, SpiralRaceEventKind::CapReached, 0, 0);
            self.over(s, Result_::Draw, reason);
            return true;
        }
        false
    }

    /// Whether the hyena, loose, can still come home: exactly, where the village (or the well
    /// on his way there) must be reached exactly, by the moves the reading gives him.
    fn hyena_can_come_home(&self, s: &SpiralRaceState) -> bool {
        let h = s.hyena;
        // Where he starts his way back from the well.
        let from_well = hyena_from_well(&self.p);
        match h.leg {
            Leg::Home => true,
            Leg::Back => {
                let credits = self.credit_for_the_way_home(s);
                self.home_reach[usize::from(h.pos)]
                    && credits.is_none_or(|c| self.home_credits[usize::from(h.pos)] <= c)
            }
            Leg::Well => self.home_reach[usize::from(from_well)],
            Leg::Village | Leg::Out => {
                self.well_reach[usize::from(self.len - h.pos)]
                    && self.home_reach[usize::from(from_well)]
            }
            Leg::Eaten => false,
        }
    }

    /// The credit the hyena can still spend on his way back, where it cannot grow (`None`:
    /// it can). It grows where a tâba thrown for him on his way back is banked, and under
    /// `every-home` while a mother whose credit will be his is still on her way.
    fn credit_for_the_way_home(&self, s: &SpiralRaceState) -> Option<u32> {
        if !self.p.village_exact || self.p.hyena_taba == HyenaTaba::Bank {
            return None;
        }
        match self.p.controller {
            Controller::FirstHome => Some(s.bank[usize::from(s.hyena_player)]),
            Controller::EveryHome => {
                let coming = (0..self.players)
                    .any(|seat| !matches!(s.mothers[seat].leg, Leg::Home | Leg::Eaten));
                if coming && self.p.hyena_purse == HyenaPurse::Credit {
                    return None;
                }
                Some(
                    (0..self.players)
                        .filter(|&seat| s.mothers[seat].leg == Leg::Home)
                        .map(|seat| s.bank[seat])
                        .sum(),
                )
            }
        }
    }

    /// Whether the end rule can still be met, the hyena being loose. Under `hyena-home` he must
    /// be able to come home; under `first-eaten`, that or a woman still to be eaten: one not
    /// yet home, with the hyena able to move on his way back (or still to reach it). `all-home`
    /// is always reachable: a woman can always get home.
    fn can_end(&self, s: &SpiralRaceState) -> bool {
        match self.p.end {
            End::AllHome => true,
            End::HyenaHome => self.hyena_can_come_home(s),
            End::FirstEaten => {
                if self.hyena_can_come_home(s) {
                    return true;
                }
                let prey = (0..self.players)
                    .any(|seat| !matches!(s.mothers[seat].leg, Leg::Home | Leg::Eaten));
                let h = s.hyena;
                // He eats only by moving on his way back: some move of his must still fit.
                let moves = match h.leg {
                    Leg::Back => {
                        !self.p.village_exact
                            || self.hyena_steps.iter().any(|&k| k > 0 && k <= h.pos)
                    }
                    Leg::Village | Leg::Out => self.well_reach[usize::from(self.len - h.pos)],
                    _ => true,
                };
                prey && moves
            }
        }
    }

    /// Passes the sticks on to the next seat with a piece to play. Returns false if there is
    /// none.
    fn next_seat(
        &self,
        s: &mut SpiralRaceState,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) -> bool {
        let from = usize::from(s.mover);
        for k in 1..=self.players {
            let seat = (from + k) % self.players;
            if self.which(s, seat).is_some() {
                s.mover = seat as u8;
                s.phase = Phase::Throw;
                s.kept_played = false;
                return true;
            }
            if s.mothers[seat].leg == Leg::Home {
                self.emit(events, SpiralRaceEventKind::Waiting, seat, 0);
            }
        }
        false
    }

    /// After a decision (or a yômên not played): the turn goes on or passes.
    pub(super) fn continue_turn(
        &self,
        s: &mut SpiralRaceState,
        again: bool,
        events: &mut impl EventSink<SpiralRaceEvent>,
    ) {
        if again && self.which(s, usize::from(s.mover)).is_some() {
            s.phase = Phase::Throw;
            return;
        }
        if !self.next_seat(s, events) {
            self.emit(events, SpiralRaceEventKind::NoMover, 0, 0);
            let result = self.result(s, events);
            self.over(s, result, EndReason::Natural);
        }
    }
}
