//! The legal moves and random play's choice: what a throw allows (bank, release, a move with
//! or without banked tâbas, a pass), the releases by credit, and the `k`-th move found from
//! the masks the list is built from, without listing the moves. The moves that add tâbas to
//! eat are one mask a counter (`eating_credit_reach`), however large the bank.
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
            // Whether the counter can go `dist` at all: once it cannot, it cannot go further
            // (`target` fails from a distance on), so the callers stop asking.
            let mut extra = |dist: usize, spent: u8| -> bool {
                let eats = |j: usize| {
                    if landing {
                        at(enemy_t, j)
                    } else {
                        self.sweep(s, seat, i, j)
                            .is_some_and(|(passed, landed)| self.eaten(i, passed, landed) != 0)
                    }
                };
                let Some(j) = self.target(i, dist, true) else {
                    return false;
                };
                if if self.p.credits == Credits::AnyMove {
                    legal(j)
                } else {
                    eats(j)
                } {
                    out.push(StickMove::Move {
                        from: h,
                        to: to_house(j),
                        spent,
                        with_credit: true,
                    });
                }
                true
            };
            match self.p.credits {
                Credits::None => {}
                Credits::Any | Credits::Spare => {
                    for b in bit_indices(self.eating_credit_reach(s, seat, i, t, credit)) {
                        // Bit `b` is a move of `b + 1` houses, going on round past the end.
                        let dist = b + 1;
                        let j = if i + dist < self.len {
                            i + dist
                        } else {
                            i + dist - self.len
                        };
                        out.push(StickMove::Move {
                            from: h,
                            to: to_house(j),
                            spent: (dist - t) as u8,
                            with_credit: true,
                        });
                    }
                }
                Credits::AnyMove => {
                    // A bank of many tâbas asks no more than the track allows.
                    for k in 1..=credit.min(u32::from(u8::MAX)) {
                        if !extra(t + k as usize, k as u8) {
                            break;
                        }
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

    /// The moves that eat with a throw of `t` and 1 to `credit` tâbas added (at most 255)
    /// of the counter of `seat` at track index `i`, as one mask of distances: bit `d − 1` is
    /// a move of `d` houses (past the end of the track, going on round where the reading
    /// goes on round). It is what asking [`StickRace::target`], [`StickRace::sweep`] and
    /// [`StickRace::eaten`] of each distance in turn gives (a bank of many tâbas made that a
    /// sweep for every house ahead of every counter, most of Sijat's time under `davies`).
    /// The board is turned so that the house after `i` is bit 0, which makes going on round
    /// a distance like any other and the order met the order of the bits:
    /// - the first enemy met, `e`, is the first a move can eat: none eats without one;
    /// - `landing` eats the enemy landed on;
    /// - `overtaking` eats what is passed: a move eats once it goes past `e`, and may not
    ///   end on an enemy (which it passes none of) unless a counter may stand beside one;
    /// - `both` eats from `e` on; where every enemy met is eaten, the landing one is too;
    ///   where only the first is, an enemy landed on past `e` is not eaten, so the move
    ///   is made only where a counter may stand beside it;
    /// - no move ends on one of the mover's own counters, unless counters stack.
    fn eating_credit_reach(
        &self,
        s: &StickRaceState,
        seat: usize,
        i: usize,
        t: usize,
        credit: u32,
    ) -> u128 {
        // The farthest a move may go: a whole lap less one going on round, else the end of
        // the track (a move with tâbas never stops at the end nor bears off).
        let farthest = if self.p.overshoot == Overshoot::Round {
            self.len - 1
        } else {
            self.len - 1 - i
        };
        let (near, far) = (t + 1, (t + credit.min(255) as usize).min(farthest));
        if near > far {
            return 0;
        }
        // Bits `i + 1 ..` to `0 ..`, then bits `.. i` after them.
        let turn = |set: u128| {
            let (up, down) = (i + 1, self.len - i - 1);
            (set.checked_shr(up as u32).unwrap_or(0) | set.checked_shl(down as u32).unwrap_or(0))
                & self.below[self.len]
        };
        let (own, enemy) = (turn(s.order[seat][seat]), turn(s.order[seat][1 - seat]));
        if enemy == 0 {
            return 0;
        }
        let e = enemy.trailing_zeros() as usize;
        let (from_e, past_e) = (!self.below[e], !self.below[e + 1]);
        let unbeside = if self.p.beside_enemy { 0 } else { enemy };
        let eats = match (self.p.capture, self.p.overtaken) {
            (Capture::Overtaking, _) => past_e & !unbeside,
            (Capture::Both, Overtaken::All) => from_e,
            (Capture::Both, Overtaken::First) => from_e & !(unbeside & past_e),
            (Capture::Landing, _) => enemy,
        };
        let unstack = if self.p.stack { 0 } else { own };
        eats & !unstack & self.below[far] & !self.below[near - 1]
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
                    // Past the first distance the counter cannot go, it cannot go further.
                    let Some(j) = self.target(i, k, true) else {
                        break;
                    };
                    if self.sweep(s, seat, i, j).is_some() {
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

#[cfg(test)]
mod tests {
    //! The moves with credits found as one mask against the sweeps, distance by distance,
    //! that they replace.

    use super::*;
    use crate::games::stick_race::board::tests::engine;
    use crate::games::{NoEvents, Rules, Status};

    /// The distances (bit `d − 1` for `d` houses) of the moves with 1 to `credit` tâbas from
    /// index `i`, asked of each distance in turn as the move list asked before the mask: a
    /// landing eats an enemy on the house landed on, any other capture what the sweep says.
    fn by_sweeps(
        r: &StickRace,
        s: &StickRaceState,
        seat: usize,
        i: usize,
        t: usize,
        credit: u32,
    ) -> u128 {
        let enemy = s.order[seat][1 - seat];
        let mut found = 0;
        for k in 1..=credit.min(255) as usize {
            let Some(j) = r.target(i, t + k, true) else {
                continue;
            };
            let eats = if r.p.capture == Capture::Landing {
                j < r.len && enemy >> j & 1 == 1
            } else {
                r.sweep(s, seat, i, j)
                    .is_some_and(|(passed, landed)| r.eaten(i, passed, landed) != 0)
            };
            if eats {
                found |= 1 << (t + k - 1);
            }
        }
        found
    }

    /// Every capture, overtaken, stacking, beside-enemy and overshoot on two tracks, along
    /// seeded games: at each throw of 2, 4 or 6, for each counter released and banks of
    /// several sizes, the mask is what the sweeps give.
    #[test]
    fn the_credit_mask_is_what_the_sweeps_give() {
        let (mut engines, mut compared, mut found) = (0, 0u64, 0u64);
        for capture in [Capture::Overtaking, Capture::Both, Capture::Landing] {
            for overtaken in [Overtaken::All, Overtaken::First] {
                for beside_enemy in [false, true] {
                    for stack in [false, true] {
                        for overshoot in [
                            Overshoot::Illegal,
                            Overshoot::Stop,
                            Overshoot::BearOff,
                            Overshoot::Round,
                        ] {
                            for track in [Track::Circuit, Track::Boustrophedon] {
                                let r = engine(|p| {
                                    p.capture = capture;
                                    p.overtaken = overtaken;
                                    p.beside_enemy = beside_enemy;
                                    p.stack = stack;
                                    p.overshoot = overshoot;
                                    p.track = track;
                                });
                                engines += 1;
                                let (c, f) = compare_along_games(&r);
                                compared += c;
                                found += f;
                            }
                        }
                    }
                }
            }
        }
        assert!(engines >= 100, "{engines} engines");
        assert!(
            compared > 10_000 && found > 1_000,
            "{compared} compared, {found} found"
        );
    }

    /// Plays two seeded games of `r`, comparing the mask with the sweeps wherever a counter
    /// could use tâbas: how many comparisons, and how many found a move.
    fn compare_along_games(r: &StickRace) -> (u64, u64) {
        let (mut compared, mut found) = (0, 0);
        let mut legal = Vec::new();
        for game in 0..2u64 {
            let mut s = r.initial();
            let mut pick = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = || {
                pick = pick.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (pick >> 33) as usize
            };
            for _ in 0..300 {
                match r.status(&s) {
                    Status::Over => break,
                    Status::Chance => {
                        let w = r.chance_outcomes(&s);
                        let live: Vec<usize> = (0..w.len()).filter(|&k| w[k] > 0).collect();
                        r.apply_chance(&mut s, live[next() % live.len()], &mut NoEvents);
                    }
                    Status::ToMove(_) => {
                        let seat = usize::from(s.mover);
                        let t = usize::from(s.throw);
                        if t != usize::from(sticks::TABA) {
                            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                                let i = usize::from(r.index[seat][usize::from(h)]);
                                for credit in [0, 1, 3, 7, 40, 300] {
                                    let mask = r.eating_credit_reach(&s, seat, i, t, credit);
                                    assert_eq!(
                                        mask,
                                        by_sweeps(r, &s, seat, i, t, credit),
                                        "{:?}: {} from {h}, throw {t}, {credit} tâbas",
                                        r.p,
                                        r.state_text(&s)
                                    );
                                    compared += 1;
                                    found += u64::from(mask != 0);
                                }
                            }
                        }
                        r.legal_moves(&s, &mut legal);
                        let mv = legal[next() % legal.len()];
                        r.apply(&mut s, mv, &mut NoEvents);
                    }
                }
            }
        }
        (compared, found)
    }
}
