//! The legal moves and random play's choice: what a throw allows (bank, release, a move with
//! or without banked tâbas, a pass), the releases by credit, and the `k`-th move found from
//! the masks the list is built from, without listing the moves.
//!
//! Invariant: the move random play chooses is exactly `legal_moves(state)[pick(n)]`.

use super::board::houses_of;
use super::*;

impl StickRace {
    /// Whether banked tâbas can release counters (so that those the counters not yet released
    /// will need are not spare).
    fn credit_releases(&self) -> bool {
        matches!(self.p.release, Release::Credit | Release::AtThrow)
    }

    /// Banked tâbas that may be added to a throw.
    fn usable_credit(&self, s: &StickRaceState, seat: usize) -> u32 {
        match self.p.credits {
            Credits::None => 0,
            Credits::Any | Credits::All | Credits::AnyMove => s.bank[seat],
            Credits::Spare => {
                // Tâbas the counters not yet released will need are not spare.
                let waiting = if self.credit_releases() {
                    (self.waiting(s, seat)).count_ones()
                } else {
                    0
                };
                s.bank[seat].saturating_sub(waiting)
            }
        }
    }

    /// Where a released counter of `seat` on `house` ends (itself, or one house on), if the
    /// release can be made.
    #[inline]
    pub(super) fn release_target(&self, s: &StickRaceState, seat: usize, house: u8) -> Option<u8> {
        if !self.p.release_moves {
            return Some(house);
        }
        let i = usize::from(self.index[seat][usize::from(house)]);
        let j = self.target(i, 1, false)?;
        self.sweep(s, seat, i, j)?;
        Some(if j == self.len {
            OFF
        } else {
            self.track[seat][j]
        })
    }

    /// The moves that use the throw in hand (not the credit releases, not the pass).
    pub(super) fn throw_moves(
        &self,
        s: &StickRaceState,
        seat: usize,
        out: &mut impl MoveSink<StickMove>,
    ) {
        let t = usize::from(s.throw);
        if t == usize::from(sticks::TABA) {
            out.push(StickMove::Bank);
            if matches!(self.p.release, Release::Fresh | Release::AtThrow) {
                for h in houses_of(self.waiting(s, seat)) {
                    if let Some(to) = self.release_target(s, seat, h) {
                        out.push(StickMove::Release { from: h, to });
                    }
                }
            }
            return;
        }
        let credit = self.usable_credit(s, seat);
        if self.p.capture == Capture::Landing
            && self.p.overshoot == Overshoot::Illegal
            && self.p.credits != Credits::AnyMove
            && !self.p.stack
        {
            return self.landing_moves(s, seat, t, credit, out);
        }
        // Where only a landing eats, what a move passes does not matter: a move is legal
        // unless it lands on a counter of one's own, and a move with credits unless it lands
        // on nothing. Two bit tests instead of a sweep (most readings, Ludii's among them).
        let landing = self.p.capture == Capture::Landing;
        let (own_t, enemy_t) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let at = |set: u128, j: usize| j < self.len && (set >> j) & 1 == 1;
        for h in houses_of(s.pieces[seat] & s.active[seat]) {
            let i = usize::from(self.index[seat][usize::from(h)]);
            let to_house = |j: usize| {
                if j == self.len {
                    OFF
                } else {
                    self.track[seat][j]
                }
            };
            let legal = |j: usize| {
                if landing {
                    self.p.stack || !at(own_t, j)
                } else {
                    self.sweep(s, seat, i, j).is_some()
                }
            };
            if let Some(j) = self.target(i, t, false)
                && legal(j)
            {
                out.push(StickMove::Move {
                    from: h,
                    to: to_house(j),
                    spent: 0,
                    with_credit: false,
                });
            }
            // Credits added to the throw: for a move that eats, or any move under `any-move`.
            let mut extra = |dist: usize, spent: u8| {
                let eats = |j: usize| {
                    if landing {
                        at(enemy_t, j)
                    } else {
                        self.sweep(s, seat, i, j)
                            .is_some_and(|(passed, landed)| self.eaten(i, passed, landed) != 0)
                    }
                };
                if let Some(j) = self.target(i, dist, true)
                    && (if self.p.credits == Credits::AnyMove {
                        legal(j)
                    } else {
                        eats(j)
                    })
                {
                    out.push(StickMove::Move {
                        from: h,
                        to: to_house(j),
                        spent,
                        with_credit: true,
                    });
                }
            };
            match self.p.credits {
                Credits::None => {}
                Credits::Any | Credits::Spare | Credits::AnyMove => {
                    for k in 1..=credit.min(u32::from(u8::MAX)) {
                        extra(t + k as usize, k as u8);
                    }
                }
                Credits::All => {
                    if credit > 0 {
                        extra(t + credit as usize, credit.min(255) as u8);
                    } else if self.p.ludii_empty_credit_minus_one {
                        // Ludii 1.0.8 reads an empty credit as −1 (TRACES.md §7).
                        extra(t - 1, 0);
                    }
                }
            }
        }
    }

    /// [`StickRace::throw_moves`] for a throw of 2, 4 or 6 where only a landing eats and a
    /// counter must land exactly (Ludii's readings and the DLP's): every counter's move at
    /// once, as shifts of the released counters in track order. A move lands on no counter of
    /// one's own; a move with credits lands on an enemy. Moves come in track order of the
    /// counter moved, the plain moves first, then those with credits.
    fn landing_moves(
        &self,
        s: &StickRaceState,
        seat: usize,
        t: usize,
        credit: u32,
        out: &mut impl MoveSink<StickMove>,
    ) {
        let (own, enemy) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let active = s.active_t[seat];
        let track = &self.track[seat];
        let on_board = self.below[self.len];
        let mut push = |targets: u128, dist: usize, spent: u8, with_credit: bool| {
            for j in bit_indices(targets) {
                out.push(StickMove::Move {
                    from: track[j - dist],
                    to: track[j],
                    spent,
                    with_credit,
                });
            }
        };
        push((active << t) & on_board & !own, t, 0, false);
        match self.p.credits {
            Credits::None | Credits::AnyMove => {}
            Credits::Any | Credits::Spare => {
                for k in 1..=credit.min(u32::from(u8::MAX)) as usize {
                    if t + k >= self.len {
                        break;
                    }
                    push((active << (t + k)) & enemy, t + k, k as u8, true);
                }
            }
            Credits::All => {
                let k = credit as usize;
                if credit > 0 && t + k < self.len {
                    push((active << (t + k)) & enemy, t + k, k.min(255) as u8, true);
                } else if credit == 0 && self.p.ludii_empty_credit_minus_one {
                    // Ludii 1.0.8 reads an empty credit as −1 (TRACES.md §7).
                    push((active << (t - 1)) & enemy, t - 1, 0, true);
                }
            }
        }
    }

    /// Every legal decision of the mover, in a stable order.
    pub(super) fn decisions(&self, s: &StickRaceState, out: &mut Vec<StickMove>) {
        let seat = usize::from(s.mover);
        self.throw_moves(s, seat, out);
        let usable = !out.is_empty();
        let credit_release = match self.p.release {
            Release::Fresh => false,
            Release::Credit => true,
            Release::AtThrow => s.throw == sticks::TABA,
        };
        if credit_release && s.bank[seat] > 0 {
            for h in houses_of(self.waiting(s, seat)) {
                if let Some(to) = self.release_target(s, seat, h) {
                    out.push(StickMove::CreditRelease { from: h, to });
                }
            }
        }
        // Under `any-move`, banked tâbas alone may move a counter, one house each, as a
        // decision of its own: the throw in hand is still to be used.
        if self.p.credits == Credits::AnyMove {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                let i = usize::from(self.index[seat][usize::from(h)]);
                for k in 1..=s.bank[seat].min(u32::from(u8::MAX)) as usize {
                    if let Some(j) = self.target(i, k, true)
                        && self.sweep(s, seat, i, j).is_some()
                    {
                        out.push(StickMove::Move {
                            from: h,
                            to: self.track[seat][j],
                            spent: k as u8,
                            with_credit: true,
                        });
                    }
                }
            }
        }
        // The throw may be let go when nothing can use it (then the pass is forced, or sits
        // beside the credit releases) or when the reading lets a player decline.
        if !usable || !self.p.must_move {
            out.push(StickMove::Pass);
        }
    }

    /// Where the moves can be counted (`counted`), the k-th is found from the masks
    /// `StickRace::landing_moves` and the release list are built from, in the same order,
    /// without listing them.
    #[inline]
    pub(super) fn choose_counted(
        &self,
        s: &StickRaceState,
        buf: &mut Vec<StickMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (StickMove, usize) {
        if !self.counted || s.phase != Phase::Decide {
            self.legal_moves(s, buf);
            let n = buf.len();
            return (buf[pick(n)], n);
        }
        let seat = usize::from(s.mover);
        let t = usize::from(s.throw);
        if t == usize::from(sticks::TABA) {
            // Bank, then a release of each counter not yet released, in house order.
            let waiting = self.waiting(s, seat);
            let n = 1 + waiting.count_ones() as usize;
            let k = pick(n);
            if k == 0 {
                return (StickMove::Bank, n);
            }
            let h = nth_bit_wide(waiting, (k - 1) as u32).1;
            return (StickMove::Release { from: h, to: h }, n);
        }
        let (own, enemy) = (s.order[seat][seat], s.order[seat][1 - seat]);
        let active = s.active_t[seat];
        let plain = (active << t) & self.below[self.len] & !own;
        // The moves with credits: (targets, distance, tâbas spent), as `landing_moves` lists
        // them. At most one group but under `any`, whose groups come in order of tâbas spent.
        let bank = s.bank[seat];
        let group = |k: usize| -> u128 {
            if t + k < self.len {
                (active << (t + k)) & enemy
            } else {
                0
            }
        };
        let mut n = plain.count_ones() as usize;
        let mut single: Option<(u128, usize, u8)> = None;
        match self.p.credits {
            Credits::None | Credits::Spare | Credits::AnyMove => {}
            Credits::All => {
                if bank > 0 {
                    let k = bank as usize;
                    single = Some((group(k), t + k, k.min(255) as u8));
                } else if self.p.ludii_empty_credit_minus_one {
                    single = Some(((active << (t - 1)) & enemy, t - 1, 0));
                }
            }
            Credits::Any => {
                for k in 1..=bank.min(u32::from(u8::MAX)) as usize {
                    if t + k >= self.len {
                        break;
                    }
                    n += group(k).count_ones() as usize;
                }
            }
        }
        if let Some((targets, _, _)) = single {
            n += targets.count_ones() as usize;
        }
        if n == 0 {
            // The forced pass is the one listed move: it is still picked, as from a list.
            let _ = pick(1);
            return (StickMove::Pass, 1);
        }
        let mut k = pick(n);
        let track = &self.track[seat];
        let mv = |targets: u128, k: usize, dist: usize, spent: u8, with_credit: bool| {
            let j = usize::from(nth_bit_wide(targets, k as u32).1);
            StickMove::Move {
                from: track[j - dist],
                to: track[j],
                spent,
                with_credit,
            }
        };
        let c = plain.count_ones() as usize;
        if k < c {
            return (mv(plain, k, t, 0, false), n);
        }
        k -= c;
        if let Some((targets, dist, spent)) = single {
            return (mv(targets, k, dist, spent, true), n);
        }
        for spent in 1..=bank.min(u32::from(u8::MAX)) as usize {
            let targets = group(spent);
            let c = targets.count_ones() as usize;
            if k < c {
                return (mv(targets, k, t + spent, spent as u8, true), n);
            }
            k -= c;
        }
        unreachable!("the k-th of {n} counted moves exists")
    }
}
