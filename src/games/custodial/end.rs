//! The end rules after each decision, in Ludii 1.0.8's order: a seat with no pieces left
//! loses, the all-pass draw, the engine's cap, then the rules no Ludii reading uses (a stalled
//! game, a barrier, a blocked player's loss or count); and the end of the placing.

use super::*;

impl Custodial {
    pub(super) fn over(&self, s: &mut CustodialState, result: Result_, end: EndReason) {
        s.phase = Phase::Over;
        s.cont = NONE;
        s.outcome = Some(Outcome {
            result,
            end,
            scores: [u32::from(s.taken[0]), u32::from(s.taken[1])],
            ranks: Outcome::UNRANKED,
        });
    }

    /// The result of counting the pieces left.
    #[inline]
    pub(super) fn count(&self, s: &CustodialState) -> ([u8; 2], Result_) {
        let pieces = [s.pieces(0) as u8, s.pieces(1) as u8];
        let result = match pieces[0].cmp(&pieces[1]) {
            std::cmp::Ordering::Greater => Result_::Win(1),
            std::cmp::Ordering::Less => Result_::Win(2),
            std::cmp::Ordering::Equal => Result_::Draw,
        };
        (pieces, result)
    }

    fn stall_end(&self, s: &mut CustodialState, events: &mut impl EventSink<CustodialEvent>) {
        let (pieces, counted) = self.count(s);
        events.emit(CustodialEvent::StallEnd { pieces });
        let result = match self.p.stall_result {
            StallResult::Draw => Result_::Draw,
            StallResult::Count => counted,
        };
        self.over(s, result, EndReason::Natural);
    }

    /// Whether a seat has lost all its pieces: the game's own end. (A seat's pieces are its
    /// share less what it lost: no board to count. Pieces leave only by captures and
    /// sandwiches.)
    #[inline]
    pub(super) fn wiped_out(&self, s: &CustodialState, seat: usize) -> bool {
        u32::from(s.taken[1 - seat]) + u32::from(s.lost[seat]) == u32::from(self.p.pieces)
    }

    /// Everything that follows a decision by `mover`, whose next mover is already in
    /// `s.mover`: the end tests in Ludii's order, then the blocked player and the stall rules.
    #[inline]
    pub(super) fn after_decision(
        &self,
        s: &mut CustodialState,
        mover: usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        let next = usize::from(s.mover);
        let other = 1 - mover;
        // The game's own end: a seat with no pieces has lost. Ludii tests only the seat to
        // move next, so under its loose continuation a capturer who ate the last piece first
        // makes his (empty) extra decision.
        if self.wiped_out(s, mover) {
            events.emit(CustodialEvent::TotalCapture { seat: mover });
            return self.over(s, Result_::Win(1 << other), EndReason::Natural);
        }
        if self.wiped_out(s, other) && (next == other || !self.loose) {
            events.emit(CustodialEvent::TotalCapture { seat: other });
            return self.over(s, Result_::Win(1 << mover), EndReason::Natural);
        }
        if s.clock.plies() > 0 {
            if self.p.all_pass_draw && s.clock.all_passed(2) {
                events.emit(CustodialEvent::AllPassDraw);
                return self.over(s, Result_::Draw, EndReason::AllPassDraw);
            }
            if let Some(reason) = self.cap_reached(s) {
                events.emit(CustodialEvent::CapReached {
                    turns: s.clock.turns(),
                    plies: s.clock.plies(),
                });
                return self.over(s, Result_::Draw, reason);
            }
        }
        if s.hand[next] > 0 || s.cont != NONE {
            return;
        }
        // A normal movement decision for `next`. (Both players are never blocked at once:
        // a board with pieces and an empty cell has a piece next to an empty cell.)
        match self.p.stall {
            Stall::None => {}
            Stall::NoCapture => {
                if s.quiet >= self.p.stall_plies {
                    return self.stall_end(s, events);
                }
            }
            Stall::Repetition => {
                let key = (s.pieces[0], s.pieces[1], s.mover, u8::from(s.must_open));
                if !s.seen.insert(key) {
                    return self.stall_end(s, events);
                }
            }
            Stall::Barrier => {
                if self.barrier(&s.pieces) {
                    return self.stall_end(s, events);
                }
            }
        }
        if self.lone_is_endless
            && s.hand == [0, 0]
            && s.pieces[0].count_ones() == 1
            && s.pieces[1].count_ones() == 1
        {
            events.emit(CustodialEvent::LonePieces);
            return self.over(s, Result_::Unfinished, EndReason::Endless);
        }
        // A blocked player who passes needs nothing here: his only legal move is the pass.
        if (self.blocked_passes && !s.first_move) || self.can_step(&s.pieces, next) {
            s.first_move = false;
            return;
        }
        if s.first_move {
            s.first_move = false;
            match self.p.first_blocked {
                FirstBlocked::AsBlocked => {}
                FirstBlocked::OtherMoves => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    s.mover = (1 - next) as u8;
                    return self.after_decision(s, mover, events);
                }
                FirstBlocked::RedoPlacement => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    events.emit(CustodialEvent::PlacementRedone);
                    return self.start_placement(s);
                }
                FirstBlocked::Loses => {
                    events.emit(CustodialEvent::FirstBlocked { seat: next });
                    return self.over(s, Result_::Win(1 << (1 - next)), EndReason::Natural);
                }
            }
        }
        match self.p.blocked {
            // The player passes (his only legal move).
            Blocked::Pass | Blocked::OpponentOpens => {}
            Blocked::Loses => {
                events.emit(CustodialEvent::BlockedLoss { seat: next });
                self.over(s, Result_::Win(1 << (1 - next)), EndReason::Natural);
            }
            Blocked::Count => {
                let (pieces, result) = self.count(s);
                events.emit(CustodialEvent::BlockedCount { seat: next, pieces });
                self.over(s, result, EndReason::Natural);
            }
        }
    }

    /// Settles a placing decision of `seat`: whether he places again this turn, and, once
    /// every piece is placed, who makes the first move. Whether `seat` decides again.
    pub(super) fn end_of_placing(&self, s: &mut CustodialState, seat: usize) -> bool {
        let mut again = false;
        if s.placed < self.p.per_turn && s.hand[seat] > 0 {
            again = true;
        } else {
            s.placed = 0;
        }
        if s.hand == [0, 0] {
            // Every piece is placed: the first mover begins.
            s.placed = 0;
            let first = match self.p.first_mover {
                FirstMover::FirstPlacer => s.first_placer,
                FirstMover::LastPlacer => seat as u8,
            };
            again = usize::from(first) == seat;
            s.first_move = true;
            s.seen.clear();
        }
        again
    }

    /// Which cap the game has reached, if any: [`Limit::reached`] behind one compare.
    #[inline(always)]
    pub(super) fn cap_reached(&self, s: &CustodialState) -> Option<EndReason> {
        if s.clock.plies() < self.cap_plies {
            None
        } else {
            self.limit.reached(&s.clock)
        }
    }
}
