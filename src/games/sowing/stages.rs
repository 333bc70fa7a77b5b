//! What follows the end of a stage or a board: the reckoning in fours (debts, borrowing,
//! houses, a player driven off), the reset of the board for the next stage (with its extra
//! houses), and the scoring of boards to a target with the next board's distribution.

use super::*;

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

/// What decides the stages after one that ended before any decision: the holdings, debts,
/// counters out of play, marks, mover and stakes.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct IdleStage {
    pub(super) store: [u32; 2],
    pub(super) debt: [u32; 2],
    pub(super) discarded: u32,
    pub(super) mark: [u8; RING],
    pub(super) mover: u8,
    pub(super) stake: [u32; 2],
}

/// Stages in a row that end before any decision, at most: past it the chain is cut as a
/// cycle. (Every chain met repeats a state long before; the bound keeps the recursion from a
/// stage's end into the next stage's start shallow whatever the rules.)
pub(super) const MAX_IDLE_STAGES: usize = 64;

impl Sowing {
    /// Reckons a completed stage in fours (Davies 1925: 144): debts are repaid, the larger
    /// holder's remainder of three borrows one and a remainder of one or two is borrowed
    /// back, each four makes a house, and the board is reset; a player left without a house
    /// (or, under `empty-hand`, without counters) is driven off.
    #[cold]
    pub(super) fn reckon(&self, s: &mut SowingState, events: &mut impl EventSink<SowingEvent>) {
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
    pub(super) fn reset_board(
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
    pub(super) fn drive_off(
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
    pub(super) fn score_board(
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
                events.emit(SowingEvent::StageCycle { stages: 1 });
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
}
