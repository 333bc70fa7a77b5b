//! A decision played: a placement, a step with its captures and the move after a capture,
//! generic over the bit board so that boards up to 8 × 8 are played in 64-bit words; and the
//! fused paths of random play for a plain step (choose and apply in one), which
//! `CustodialState::plain` enables once the position allows them.

use super::*;

impl Custodial {
    /// Sets [`CustodialState::plain`] from the position (see there).
    #[inline]
    pub(super) fn settle(&self, s: &mut CustodialState) {
        let plain = self.fused
            && s.phase == Phase::Play
            && s.clock.first_mover().is_some()
            && s.hand == [0, 0]
            && s.cont == NONE
            && !s.must_open
            && !s.first_move;
        s.plain = if !plain {
            0
        } else if self.narrow {
            PLAIN_NARROW
        } else {
            PLAIN_WIDE
        };
    }

    /// Random play's normal movement decision under a `fused` reading on a 64-bit board: the
    /// `k`-th step found by counting, played in registers when it eats nothing (the common
    /// case), otherwise handed to [`Custodial::apply_step`]. Exactly `choose` then `apply`
    /// (a test holds them equal). Only the counts of steps by direction and the two boards
    /// are kept across the draw (the draw's generator may be refilled there, which costs the
    /// registers): the chosen direction's targets are recomputed after it as one rotation by
    /// the direction's amount and a mask, the same rotation back giving the cell left.
    #[inline(always)]
    pub(super) fn play_plain_narrow(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let own = s.pieces[seat] as u64;
        let enemy = s.pieces[seat ^ 1] as u64;
        let empty = self.full as u64 & !(own | enemy);
        let t = self.targets(own, empty);
        let c0 = t[0].count_ones();
        let c1 = c0 + t[1].count_ones();
        let c2 = c1 + t[2].count_ones();
        let total = c2 + t[3].count_ones();
        if total == 0 {
            let _ = pick(1);
            self.apply(s, CustodialMove::Pass, events);
            return (1, true);
        }
        let k = pick(total as usize) as u32;
        // The direction block holding the k-th move, its first index and its rotation, by
        // conditional moves: a branch on the direction mispredicts at every random pick, and
        // a table indexed by it goes through memory.
        let ge = [k >= c0, k >= c1, k >= c2];
        let rot = pick4(ge, self.back[0]);
        let x = own.rotate_left(rot) & pick4(ge, self.step_mask) & empty;
        let target = nth_bit_sparse(x, k - pick4(ge, [0, c0, c1, c2]));
        // The cell left is the target's bit moved one cell back, the rotation undone (it
        // never wraps: that cell is on the board).
        let left = target.rotate_right(rot);
        // (`own` still holds the cell the piece left: never a far cell of the target.)
        if self.flank_set(own, enemy) & target != 0 {
            // Something is enclosed (perhaps only a safe piece on the middle cell).
            let (from, to) = (left.trailing_zeros() as u8, target.trailing_zeros() as u8);
            self.apply_step::<u64>(s, seat, from, to, events);
            return (total as usize, false);
        }
        let sandwich = self.between_set(enemy) & self.sandwich_cells as u64;
        self.plain_tail(
            s,
            seat,
            u128::from(own ^ target ^ left),
            sandwich & target != 0,
            target.trailing_zeros() as u8,
            events,
        );
        (total as usize, false)
    }

    /// Random play's normal movement decision under a `fused` reading on a 128-bit board: the
    /// `k`-th step found by counting, played in registers when it eats nothing (the common
    /// case), otherwise handed to [`Custodial::apply_step`]. Exactly `choose` then `apply` (a
    /// test holds them equal). The captures and the sandwich are read from the tables at the
    /// chosen cell, as the whole-board sets of [`Custodial::play_plain_narrow`] cost twice
    /// the instructions here.
    #[inline(always)]
    pub(super) fn play_plain_wide(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let own = s.pieces[seat];
        let enemy = s.pieces[seat ^ 1];
        let empty = self.full & !(own | enemy);
        let t = self.targets(own, empty);
        let c0 = t[0].count_ones();
        let c1 = c0 + t[1].count_ones();
        let c2 = c1 + t[2].count_ones();
        let total = c2 + t[3].count_ones();
        if total == 0 {
            let _ = pick(1);
            self.apply(s, CustodialMove::Pass, events);
            return (1, true);
        }
        let k = pick(total as usize) as u32;
        // The direction block holding the k-th move, its first index and the offset back to
        // the piece that steps, by conditional moves (see `play_plain_narrow`).
        let ge = [k >= c0, k >= c1, k >= c2];
        let (target, to) = nth_bit_wide(pick4(ge, t), k - pick4(ge, [0, c0, c1, c2]));
        let n = self.n as u8;
        let from = to.wrapping_add(pick4(ge, [n.wrapping_neg(), u8::MAX, n, 1]));
        let at = usize::from(to);
        // (`own` still holds the cell the piece left: never a far cell of `at`.)
        if self.encloses_any(own, enemy, at) {
            self.apply_step::<u128>(s, seat, from, to, events);
            return (total as usize, false);
        }
        let moved = own ^ target ^ self.bit[usize::from(from) & (SLOTS - 1)];
        // (As `flanked`, with nothing eaten; a `fused` reading has safe sandwiches.)
        let sandwiched = self.between(enemy, at) && self.sandwich_cells & target != 0;
        self.plain_tail(s, seat, moved, sandwiched, to, events);
        (total as usize, false)
    }

    /// The rest of a plain step that eats nothing, from `moved`, the mover's pieces after it.
    #[inline(always)]
    fn plain_tail(
        &self,
        s: &mut CustodialState,
        seat: usize,
        moved: u128,
        sandwiched: bool,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        // (A plain state has its first mover: `tick` less that test.)
        s.clock.setup_tick(seat as u8);
        s.clock.clear_passes();
        s.quiet += 1;
        s.pieces[seat] = moved;
        if sandwiched {
            events.emit(CustodialEvent::SandwichSafe { cell: to });
        }
        s.mover = (seat ^ 1) as u8;
        // Nothing was eaten, nobody passed, and the stall rule is `none`: of the end tests
        // only the cap can fire, and a blocked player to move just passes.
        if self.cap_reached(s).is_some() {
            self.after_decision(s, seat, events);
            self.settle(s);
        }
    }

    /// A step of `seat` exactly as [`Rules::apply`] plays it, for random play's fused paths
    /// (kept out of line: the hot loop stays small).
    #[inline(never)]
    fn apply_step<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        from: u8,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) {
        s.clock.tick(seat as u8);
        if !self.step::<B>(s, seat, from, to, events) {
            s.mover ^= 1;
        }
        self.after_decision(s, seat, events);
        self.settle(s);
    }

    /// Random play's decision after a capture under `step: one` and single captures:
    /// `choose_continuation` then the step (or the pass), as `choose` then `apply`.
    #[inline(always)]
    pub(super) fn play_continuation<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        match self.choose_continuation::<B>(s, seat, pick) {
            (CustodialMove::Step { from, to }, n) => {
                self.apply_step::<B>(s, seat, from, to, events);
                (n, false)
            }
            (mv, n) => {
                self.apply(s, mv, events);
                (n, true)
            }
        }
    }

    /// Random play's placement of one piece (not `placing: pair`'s two): the `k`-th empty
    /// cell but the middle, drawn from the bit board as `choose` draws it from the list, then
    /// played as `apply` plays it. While the next seat still places and nothing is eaten
    /// (nor is a piece placed on the middle) only the cap can end the game, so the end tests
    /// run only when it may, or when the hands run out.
    #[inline(always)]
    pub(super) fn play_place<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        pick: impl FnOnce(usize) -> usize,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> (usize, bool) {
        let cells = self.placeable & !(s.pieces[0] | s.pieces[1]);
        let n = cells.count_ones() as usize;
        let k = pick(n) as u32;
        // (On a 128-bit board the word first, as for a step's target.)
        let c = if B::BITS > 64 {
            nth_bit_wide(cells, k).1
        } else {
            nth_cell(cells as u64, k)
        };
        s.clock.tick(seat as u8);
        if !self.place::<B>(s, seat, c, events) {
            s.mover ^= 1;
        }
        // (The state was not plain, and with a hand to place from it stays so: no `settle`.)
        if self.p.placement_capture
            || s.hand[usize::from(s.mover & 1)] == 0
            || s.clock.plies() >= self.cap_plies
        {
            self.after_decision(s, seat, events);
            self.settle(s);
        }
        (n, false)
    }

    /// A placement of `seat` on `c` and what follows from it before the end tests; whether
    /// `seat` decides again.
    #[inline(always)]
    pub(super) fn place<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        c: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> bool {
        s.hand[seat] -= 1;
        s.pieces[seat] |= self.bit[usize::from(c) & (SLOTS - 1)];
        s.placed += 1;
        s.clock.clear_passes();
        let at = usize::from(c);
        if self.p.placement_capture {
            if self.eat(s, seat, at, events) > 0 {
                events.emit(CustodialEvent::PlacementCapture { cell: c });
            }
        } else if self.captures_at_in::<B>(&s.pieces, seat, at) {
            events.emit(CustodialEvent::PlacementFlank { cell: c });
        }
        self.end_of_placing(s, seat)
    }

    /// A step and all that follows from it (captures, the sandwich, the move after a
    /// capture); whether the same seat decides again. Generic over the bit board so that
    /// boards up to 8 × 8 are played in 64-bit words.
    #[inline(always)]
    pub(super) fn step<B: Bits>(
        &self,
        s: &mut CustodialState,
        seat: usize,
        from: u8,
        to: u8,
        events: &mut impl EventSink<CustodialEvent>,
    ) -> bool {
        let continuing = s.cont != NONE;
        if s.must_open {
            // Did the rules make him open a line (or could he not)?
            let mut moves = Vec::new();
            self.steps(s, seat, u128::MAX, &mut moves);
            if moves.iter().any(|&m| self.opens(s, seat, m)) {
                events.emit(CustodialEvent::Opening { seat });
            } else {
                events.emit(CustodialEvent::NoOpening { seat });
            }
            s.must_open = false;
        }
        s.clock.clear_passes();
        s.cont = NONE;
        if self.p.step == Step::Rook {
            let d = to.abs_diff(from);
            let distance = if d < self.n as u8 {
                d
            } else {
                d / self.n as u8
            };
            if distance > 1 {
                events.emit(CustodialEvent::LongStep { cells: distance });
            }
        } else if self.p.step == Step::Jump
            && to.abs_diff(from) != 1
            && to.abs_diff(from) != self.n as u8
        {
            // A jump: the cell jumped over lies half way.
            events.emit(CustodialEvent::Jump {
                over: ((u16::from(from) + u16::from(to)) / 2) as u8,
            });
        }
        let at = usize::from(to);
        let moved = self.bit[usize::from(from) & (SLOTS - 1)] | self.bit[at & (SLOTS - 1)];
        s.pieces[seat] = (B::of(s.pieces[seat]) ^ B::of(moved)).wide();
        let (eaten, grant_loose) = match self.p.capture_line {
            CaptureLine::Single => self.eat_single::<B>(s, seat, at, events),
            // (The loose test is refused with lines.)
            CaptureLine::Line => (self.eat(s, seat, at, events), false),
        };
        if eaten > 0 {
            s.quiet = 0;
            if self.p.stall == Stall::Repetition {
                s.seen.clear();
            }
            if self.p.compulsory_capture && !continuing {
                events.emit(CustodialEvent::CaptureForced);
            }
        } else {
            s.quiet += 1;
        }
        if self.flanked::<B>(&s.pieces, seat, at) {
            if self.p.sandwich == Sandwich::Suicide {
                events.emit(CustodialEvent::Suicide { cell: to });
                s.pieces[seat] &= !self.bit[at & (SLOTS - 1)];
                s.lost[seat] += 1;
                return false;
            }
            events.emit(CustodialEvent::SandwichSafe { cell: to });
        }
        if eaten == 0 {
            return false;
        }
        if self.loose {
            if grant_loose {
                events.emit(CustodialEvent::LooseContinuation { cell: to });
                s.cont = to;
            }
            return grant_loose;
        }
        if !self.can_capture_from(&s.pieces, seat, at) {
            return false;
        }
        match self.p.continuation {
            Continuation::WhileCapturing => {
                events.emit(CustodialEvent::Continuation { cell: to });
                s.cont = to;
                true
            }
            Continuation::None => {
                events.emit(CustodialEvent::ContinuationForgone { cell: to });
                false
            }
        }
    }
}
