//! The end rules after each decision, in Ludii's order (the game's own end, the all-pass
//! draw, the caps, a repetition), with the short form a dynamic game whose other rules cannot
//! apply inlines into its moves; and the scoring of a finished game or stage.

use super::reach::Reach;
use super::stages::{IdleStage, MAX_IDLE_STAGES};
use super::*;

impl Sowing {
    /// Applies the end rules after a decision (or at the start): the game's own end rule,
    /// then the engine's all-pass draw, then its caps, then a repetition rule: Ludii's order
    /// (TRACES.md §3.5). Where [`Sowing::quick_settle`] holds, its short form inlines into
    /// the move.
    #[inline(always)]
    pub(super) fn settle(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
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
            if !s.history.met_or_record((s.pos.board, s.mover)) {
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

    /// Ends the game as the engine's cap scores it, if the clock has reached the cap.
    #[inline]
    pub(super) fn capped(
        &self,
        s: &mut SowingState,
        events: &mut impl EventSink<SowingEvent>,
    ) -> bool {
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

    #[inline]
    pub(super) fn over(&self, s: &mut SowingState, result: Result_, end: EndReason) {
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
                    if let Some(at) = s.idle_stages.iter().position(|i| *i == idle) {
                        // A forced cycle: no decision, no chance step, the same state again.
                        let stages = (s.idle_stages.len() - at) as u32;
                        events.emit(SowingEvent::StageCycle { stages });
                        self.over(s, Result_::Unfinished, EndReason::Cycle);
                        return;
                    }
                    if s.idle_stages.len() >= MAX_IDLE_STAGES {
                        // No repeat found within the bound: nothing proved.
                        events.emit(SowingEvent::IdleStagesUnresolved);
                        self.over(s, Result_::Unfinished, EndReason::SearchLimit);
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
}
