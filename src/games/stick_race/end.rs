//! The end rules after each decision, in Ludii's order: the game's own end (`final-rows`,
//! `annihilation`, `courses-run`, `agreed-time`), the ends no rule reaches (a game that can
//! provably never end, a board on which nothing can move again), then the engine's cap; and
//! the end of a turn.

use super::board::houses_of;
use super::*;

impl StickRace {
    fn over(&self, s: &mut StickRaceState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: s.score,
            ranks: Outcome::UNRANKED,
        });
    }

    /// Ends the game decided by the numbers eaten: the greater eater wins, equal numbers draw.
    fn decide(&self, s: &mut StickRaceState, events: &mut impl EventSink<StickRaceEvent>) {
        let result = match s.score[0].cmp(&s.score[1]) {
            std::cmp::Ordering::Greater => Result_::Win(1),
            std::cmp::Ordering::Less => Result_::Win(2),
            std::cmp::Ordering::Equal => {
                events.emit(StickRaceEvent::EqualCaptures);
                Result_::Draw
            }
        };
        self.over(s, result, EndReason::Natural);
    }

    /// Whether every counter of `seat` on the board has finished its course: they hold the
    /// last houses of the track, one each, with no gap (those borne off are done too).
    fn course_run(&self, s: &StickRaceState, seat: usize) -> bool {
        let own = s.order[seat][seat];
        let m = own.count_ones() as usize;
        m == 0
            || (self.p.overshoot != Overshoot::Round
                && own == self.below[self.len] & !self.below[self.len - m])
    }

    /// A game in which nothing that counts can change any more, under the reading's choice
    /// `standstill`: decided there, or stopped as endless (unless an engine cap will end it).
    /// Returns whether the game is over.
    pub(super) fn standstill(
        &self,
        s: &mut StickRaceState,
        events: &mut impl EventSink<StickRaceEvent>,
    ) -> bool {
        match self.p.standstill {
            Standstill::Decide => {
                events.emit(StickRaceEvent::Standstill);
                self.decide(s, events);
                true
            }
            Standstill::Endless if self.p.cap.is_none() => {
                events.emit(StickRaceEvent::Endless);
                self.over(s, Result_::Unfinished, EndReason::Endless);
                true
            }
            Standstill::Endless => false,
        }
    }

    /// Whether nothing can move any more, ever: no counter is left to release, and no
    /// counter of either side has a move by any throw, nor with any number of tâbas added
    /// (the bank may still grow). Only the bank can then change, which no end looks at.
    pub(super) fn frozen(&self, s: &StickRaceState) -> bool {
        let throws: &[usize] = if self.p.yomen_played {
            &[2, 4, 6]
        } else {
            &[4, 6]
        };
        // The cheap tests first: a release, or a throw's own move.
        for seat in 0..2 {
            if houses_of(self.waiting(s, seat)).any(|h| self.release_target(s, seat, h).is_some()) {
                return false;
            }
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                if throws.iter().any(|&t| {
                    self.target(i, t, false)
                        .is_some_and(|j| self.sweep(s, seat, i, j).is_some())
                }) {
                    return false;
                }
            }
        }
        if self.p.credits == Credits::None {
            return true;
        }
        // Any distance a throw and tâbas could make (a superset of the real ones): a yômên and
        // one tâba at least, or one house short of a yômên with Ludii's −1, or one tâba alone
        // under `any-move`.
        let free = self.p.credits == Credits::AnyMove;
        let shortest = if self.p.ludii_empty_credit_minus_one || free {
            1
        } else {
            3
        };
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                // A move with tâbas that must eat needs an enemy ahead on the track.
                if !free
                    && self.p.overshoot != Overshoot::Round
                    && s.order[seat][1 - seat] & !self.below[i + 1] == 0
                {
                    continue;
                }
                for d in shortest..self.len {
                    if let Some(j) = self.target(i, d, true)
                        && let Some((passed, landed)) = self.sweep(s, seat, i, j)
                        && (free || self.eaten(i, passed, landed) != 0)
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The game's own end, then the ends no rule reaches (a game that can never end, under the
    /// reading's choice of what becomes of it), then the engine's cap. Returns whether the
    /// game is over.
    pub(super) fn end_tests(
        &self,
        s: &mut StickRaceState,
        events: &mut impl EventSink<StickRaceEvent>,
    ) -> bool {
        let ended = match self.p.end {
            End::FinalRows => {
                let done = (0..2).all(|seat| s.pieces[seat] & !self.last_row[seat] == 0);
                if done {
                    events.emit(StickRaceEvent::FinalRows);
                }
                done
            }
            End::Annihilation => match (0..2).find(|&seat| s.pieces[seat] == 0) {
                Some(seat) => {
                    events.emit(StickRaceEvent::Annihilation { seat });
                    true
                }
                None => false,
            },
            End::CoursesRun => {
                let done = (0..2).all(|seat| self.course_run(s, seat));
                if done {
                    events.emit(StickRaceEvent::CoursesRun);
                }
                done
            }
            // Tested as the sticks pass (`end_turn`).
            End::AgreedTime => false,
        };
        if ended {
            self.decide(s, events);
            return true;
        }
        // Courses that go on round never end, whatever happens on the board.
        if self.p.end == End::CoursesRun
            && self.p.overshoot == Overshoot::Round
            && self.p.cap.is_none()
        {
            events.emit(StickRaceEvent::Endless);
            self.over(s, Result_::Unfinished, EndReason::Endless);
            return true;
        }
        // Tracks that share no house: no counter can ever be eaten, so none is ever wiped out.
        if self.p.end == End::Annihilation && self.apart && self.standstill(s, events) {
            return true;
        }
        if s.clock.plies() > 0
            && let Some(reason) = self.limit.reached(&s.clock)
        {
            events.emit(StickRaceEvent::CapReached {
                turns: s.clock.turns(),
                plies: s.clock.plies(),
            });
            self.over(s, Result_::Draw, reason);
            return true;
        }
        false
    }

    /// The sticks pass to the other seat; under `end: agreed-time` the game ends when they
    /// have passed the agreed number of times.
    #[inline]
    pub(super) fn end_turn(
        &self,
        s: &mut StickRaceState,
        events: &mut impl EventSink<StickRaceEvent>,
    ) {
        s.mover = 1 - s.mover;
        s.phase = Phase::Throw;
        s.turns_done = s.turns_done.saturating_add(1);
        if self.p.end == End::AgreedTime && s.turns_done >= self.p.agreed_turns {
            events.emit(StickRaceEvent::AgreedTime {
                turns: s.turns_done,
            });
            self.decide(s, events);
        }
    }
}
