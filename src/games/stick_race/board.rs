//! The counters on the board: where a throw takes a counter along its track, the houses a
//! move passes and what it eats, and the bit sets each side keeps (its counters, the released
//! ones, the one not yet released, the order of the two sides on each track), updated as a
//! counter leaves, arrives or is eaten.
//!
//! Invariant: the bit sets and the per-house counts describe the same board; every change
//! goes through `leave`, `arrive` and `clear`, which keep them so.

use super::*;

/// The houses of a bit set, lowest first.
#[inline]
pub(super) fn houses_of(set: u128) -> impl Iterator<Item = u8> {
    bit_indices(set).map(|h| h as u8)
}

impl StickRace {
    /// Where a counter at track index `i` lands going `dist` houses, as a track index (`len`
    /// for off the board; `None` if it cannot). `exact` forbids stopping at the end or bearing
    /// off whatever the reading (moves with credits); going on round is no overshoot, and a
    /// move never goes a whole lap.
    ///
    /// Invariant: with `exact`, a distance the counter cannot go is followed by none it can:
    /// the lists of moves with credits stop at the first.
    #[inline]
    pub(super) fn target(&self, i: usize, dist: usize, exact: bool) -> Option<usize> {
        let last = self.len - 1;
        let j = i + dist;
        if j <= last {
            return Some(j);
        }
        match self.p.overshoot {
            Overshoot::Round => (dist < self.len).then(|| j - self.len),
            _ if exact => None,
            Overshoot::Illegal => None,
            Overshoot::Stop => (i < last).then_some(last),
            Overshoot::BearOff => Some(self.len),
        }
    }

    /// The track indices a move from `i` to `j` passes over (strictly between them, going on
    /// round where `j` is behind `i`; `j == len` is off the board).
    #[inline]
    fn span(&self, i: usize, j: usize) -> u128 {
        if j > i {
            self.below[j.min(self.len)] & !self.below[i + 1]
        } else {
            (self.below[self.len] & !self.below[i + 1]) | self.below[j]
        }
    }

    /// The enemies a move of `seat` from index `i` to index `j` (`len` for off the board)
    /// passes over and lands on, as bits in the mover's track order; and whether it may be
    /// made at all (never onto a counter of one's own; onto an enemy it does not eat only where
    /// a counter may stand beside an enemy). Each seat's counters are kept in both tracks'
    /// orders (`StickRaceState::order`), so a sweep is two masks, not a walk.
    #[inline]
    pub(super) fn sweep(
        &self,
        s: &StickRaceState,
        seat: usize,
        i: usize,
        j: usize,
    ) -> Option<(u128, u128)> {
        let own = s.order[seat][seat];
        let enemy = s.order[seat][1 - seat];
        let passed = enemy & self.span(i, j);
        let mut landed = 0u128;
        if j < self.len {
            let bit = self.below[j + 1] ^ self.below[j];
            if own & bit != 0 && !self.p.stack {
                return None;
            }
            landed = enemy & bit;
            if landed != 0 && !self.p.beside_enemy && self.eaten(i, passed, landed) & landed == 0 {
                return None;
            }
        }
        Some((passed, landed))
    }

    /// What a move from index `i` with this sweep eats (bits in the mover's track order): the
    /// first one is the nearest ahead of `i` (going on round, those before the end of the
    /// track come first), the landing house counting as passed last.
    #[inline]
    pub(super) fn eaten(&self, i: usize, passed: u128, landed: u128) -> u128 {
        let all = match self.p.capture {
            Capture::Landing => landed,
            Capture::Overtaking => passed,
            Capture::Both => passed | landed,
        };
        match self.p.overtaken {
            Overtaken::All => all,
            Overtaken::First => {
                let ahead = all & !self.below[i + 1];
                let from = if ahead != 0 { ahead } else { all };
                from & from.wrapping_neg()
            }
        }
    }

    /// Puts or takes a counter of `seat` on `house`, in the board and in the track orders of
    /// the tracks the house is on.
    #[inline]
    fn toggle(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        let h = usize::from(house);
        s.pieces[seat] ^= 1u128 << h;
        for view in 0..2 {
            let k = self.index[view][h];
            if k != OFF {
                s.order[view][seat] ^= 1u128 << k;
            }
        }
    }

    /// The houses with a counter of `seat` not yet released.
    #[inline]
    pub(super) fn waiting(&self, s: &StickRaceState, seat: usize) -> u128 {
        if self.p.stack {
            s.waiting[seat]
        } else {
            s.pieces[seat] & !s.active[seat]
        }
    }

    /// Releases the counter of `seat` waiting on `house` (where counters stack, released
    /// ones of its side may stand there too).
    #[inline]
    pub(super) fn release(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if self.p.stack {
            let h = usize::from(house);
            s.waiting[seat] &= !(1u128 << h);
            if s.stacked[seat][h] == 0 {
                self.set_active(s, seat, house, true);
            }
            s.stacked[seat][h] += 1;
        } else {
            self.set_active(s, seat, house, true);
        }
    }

    /// Takes one released counter of `seat` off `house`.
    fn leave(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if !self.p.stack {
            self.toggle(s, seat, house);
            self.set_active(s, seat, house, false);
            return;
        }
        let h = usize::from(house);
        s.stacked[seat][h] -= 1;
        if s.stacked[seat][h] == 0 {
            self.set_active(s, seat, house, false);
        }
        if s.stacked[seat][h] == 0 && s.waiting[seat] >> h & 1 == 0 {
            self.toggle(s, seat, house);
        } else {
            s.extra[seat] -= 1;
        }
    }

    /// Puts a released counter of `seat` on `house`.
    fn arrive(&self, s: &mut StickRaceState, seat: usize, house: u8) {
        if !self.p.stack {
            self.toggle(s, seat, house);
            self.set_active(s, seat, house, true);
            return;
        }
        let h = usize::from(house);
        if s.has(seat, h) {
            s.extra[seat] += 1;
        } else {
            self.toggle(s, seat, house);
        }
        if s.stacked[seat][h] == 0 {
            self.set_active(s, seat, house, true);
        }
        s.stacked[seat][h] += 1;
    }

    /// Takes every counter of `seat` off `house`, as they are eaten; returns how many.
    #[inline]
    pub(super) fn clear(&self, s: &mut StickRaceState, seat: usize, house: u8) -> u32 {
        let h = usize::from(house);
        let n = s.count(seat, h);
        if self.p.stack {
            s.extra[seat] -= n - 1;
            s.stacked[seat][h] = 0;
            s.waiting[seat] &= !(1u128 << h);
        }
        self.toggle(s, seat, house);
        self.set_active(s, seat, house, false);
        n
    }

    /// Marks the counter of `seat` on `house` released (`on`) or not.
    #[inline]
    fn set_active(&self, s: &mut StickRaceState, seat: usize, house: u8, on: bool) {
        let (bit, bit_t) = (
            1u128 << house,
            1u128 << self.index[seat][usize::from(house)],
        );
        if on {
            s.active[seat] |= bit;
            s.active_t[seat] |= bit_t;
        } else {
            s.active[seat] &= !bit;
            s.active_t[seat] &= !bit_t;
        }
    }

    /// Rebuilds the track orders (and, where counters stack, the counts: one a house) from the
    /// board.
    pub(super) fn sync_order(&self, s: &mut StickRaceState) {
        s.order = [[0; 2]; 2];
        s.active_t = [0; 2];
        s.stacked = [[0; MAX_HOUSES]; 2];
        s.extra = [0; 2];
        s.waiting = [0; 2];
        if self.p.stack {
            for seat in 0..2 {
                s.waiting[seat] = s.pieces[seat] & !s.active[seat];
                for h in houses_of(s.pieces[seat] & s.active[seat]) {
                    s.stacked[seat][usize::from(h)] = 1;
                }
            }
        }
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat] & s.active[seat]) {
                s.active_t[seat] |= 1u128 << self.index[seat][usize::from(h)];
            }
        }
        for seat in 0..2 {
            for h in houses_of(s.pieces[seat]) {
                for view in 0..2 {
                    let k = self.index[view][usize::from(h)];
                    if k != OFF {
                        s.order[view][seat] |= 1u128 << k;
                    }
                }
            }
        }
    }

    /// Moves the counter of `seat` from `from` to `to` (or off), eating what the rules eat.
    pub(super) fn run(
        &self,
        s: &mut StickRaceState,
        seat: usize,
        from: u8,
        to: u8,
        dist: usize,
        events: &mut impl EventSink<StickRaceEvent>,
    ) {
        let i = usize::from(self.index[seat][usize::from(from)]);
        let j = if to == OFF {
            self.len
        } else {
            usize::from(self.index[seat][usize::from(to)])
        };
        let (passed, landed) = self.sweep(s, seat, i, j).unwrap_or((0, 0));
        let eaten = self.eaten(i, passed, landed);
        // Report in the order met (those ahead before the end of the track first, going on
        // round), and take the eaten off.
        let met = passed | landed;
        let ahead = !self.below[i + 1];
        for k in bit_indices(met & ahead).chain(bit_indices(met & !ahead)) {
            let house = self.track[seat][k];
            let bit = 1u128 << k;
            if eaten & bit != 0 {
                // Every counter on the house is eaten (several where a side's counters stack).
                let n = self.clear(s, 1 - seat, house);
                for _ in 0..n {
                    events.emit(StickRaceEvent::Capture { house });
                    events.emit(if landed & bit != 0 {
                        StickRaceEvent::LandingCapture { house }
                    } else {
                        StickRaceEvent::OvertakingCapture { house }
                    });
                }
                s.score[seat] += n;
            } else if landed & bit != 0 {
                events.emit(StickRaceEvent::SharedHouse { house });
            } else if self.p.capture == Capture::Landing {
                events.emit(StickRaceEvent::PassedOver { house });
            } else {
                events.emit(StickRaceEvent::OvertakenSpared { house });
            }
        }
        self.leave(s, seat, from);
        if to == OFF {
            events.emit(StickRaceEvent::BorneOff { house: from });
            s.home[seat] += 1;
        } else {
            if j < i {
                events.emit(StickRaceEvent::WentRound { house: from });
            } else if i + dist > self.len - 1 && j == self.len - 1 {
                events.emit(StickRaceEvent::StoppedAtEnd { house: to });
            }
            self.arrive(s, seat, to);
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Davies' Sijat El Taba (six rows of ten, six counters a side, passing over eats, any
    /// banked tâbas added to eat), changed by `change`.
    pub(in crate::games::stick_race) fn engine(
        change: impl FnOnce(&mut StickRaceParams),
    ) -> StickRace {
        let mut p = StickRaceParams {
            rows: 6,
            cols: 10,
            pieces: 6,
            start: Start::SplitEnds,
            starter: crate::family::Starter::Lot,
            yomen_played: true,
            release: Release::Credit,
            release_moves: false,
            capture: Capture::Overtaking,
            overtaken: Overtaken::All,
            credits: Credits::Any,
            unusable: Unusable::ThrowAgain,
            must_move: true,
            overshoot: Overshoot::Illegal,
            end: End::FinalRows,
            track: Track::Boustrophedon,
            beside_enemy: false,
            stack: false,
            cap: None,
            ludii_empty_credit_minus_one: false,
            standstill: Standstill::Endless,
            agreed_turns: 100,
        };
        change(&mut p);
        StickRace::new(&p).unwrap()
    }

    /// For every overshoot, from every house: once a counter cannot go a distance exactly, it
    /// cannot go any further (the lists of moves with credits stop there).
    #[test]
    fn an_exact_target_fails_from_a_distance_on() {
        for overshoot in [
            Overshoot::Illegal,
            Overshoot::Stop,
            Overshoot::BearOff,
            Overshoot::Round,
        ] {
            let r = engine(|p| p.overshoot = overshoot);
            let (mut some, mut none) = (0, 0);
            for i in 0..r.len {
                for dist in 1..=2 * r.len {
                    match r.target(i, dist, true) {
                        Some(_) => some += 1,
                        None => {
                            none += 1;
                            assert_eq!(
                                r.target(i, dist + 1, true),
                                None,
                                "{overshoot:?}: {i} {dist}"
                            );
                        }
                    }
                }
            }
            assert!(some > 0 && none > 0, "{overshoot:?}: {some} {none}");
        }
    }
}
