//! The legal moves and random play's choice: the candidate sowings of a seat (with their
//! capture choices, and the feeding a blocked opponent may require), the moves as a bit mask
//! where they are just the sowable houses, so that random play finds the `k`-th without
//! listing them, and a sowing played in turn.
//!
//! Invariant: the move random play chooses is exactly `legal_moves(state)[pick(n)]`.

use super::*;

/// The legal moves of a position as a bit mask, where they are just the sowable houses.
#[derive(Debug, Clone, Copy)]
pub(super) enum Quick {
    /// The mover's static candidates that hold enough: bit `i` for `cand_moves[seat][i]`.
    Listed(usize, u32),
    /// The houses the mover may sow (daughters or stages in play), bit `h` for house `h`,
    /// each sown in its one direction.
    Houses(u32),
    /// The houses the mover may give a counter from, bit `h` for house `h`.
    Gifts(u32),
}

/// The `pick`-th of the candidates in `mask` (bit `i` for `moves[i]`), or a pass when there
/// is none: exactly the move [`Rules::legal_moves`] lists at that index. Returns it with the
/// number of legal moves.
#[inline]
fn pick_sowing(
    moves: &[SowingMove; RING],
    mask: u32,
    pick: impl FnOnce(usize) -> usize,
) -> (SowingMove, usize) {
    let n = mask.count_ones() as usize;
    if n == 0 {
        // A forced pass is a decision too: the draw is made as for any list of one.
        pick(1);
        return (SowingMove::Pass, 1);
    }
    (moves[nth_set_bit(mask, pick(n) as u32)], n)
}

impl Sowing {
    /// The directions house `h` may be sown in (dynamic games).
    #[inline]
    fn house_dirs(&self, h: usize) -> &[Dir] {
        // `h % n` without a division: `h` is below `2n`.
        let (dirs, k) = &self.pos_dirs[if h >= self.n { h - self.n } else { h }];
        &dirs[..usize::from(*k)]
    }

    /// [`Sowing::candidate_moves`] in a dynamic game whose captures the rules decide: the
    /// sowable houses' moves written branch-free into a buffer, as the static path does.
    #[inline]
    fn dynamic_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let mut mask = self.sowable(pos, seat);
        // At most two directions a house: one reservation, then pushes that never grow.
        out.reserve(2 * mask.count_ones() as usize);
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            for &dir in self.house_dirs(h) {
                out.push(SowingMove::sow(h, dir));
            }
        }
    }

    /// Whether `feeder` has a move after which `seat` can move.
    #[cold]
    pub(super) fn has_feeding_move(&self, s: &SowingState, feeder: usize) -> bool {
        let mut found = false;
        self.each_candidate(&s.pos, feeder, |mv| {
            found = found || self.feeds(s, feeder, mv);
        });
        found
    }

    #[inline]
    pub(super) fn feeds(&self, s: &SowingState, feeder: usize, mv: SowingMove) -> bool {
        let SowingMove::Sow {
            house, dir, take, ..
        } = mv
        else {
            return false;
        };
        let mut pos = s.pos;
        let landing =
            self.sow_and_take(&mut pos, feeder, (house as usize, dir, take), &mut NoEvents);
        !matches!(landing, Landing::Cycle(_) | Landing::Unresolved)
            && self.can_move(&pos, 1 - feeder)
    }

    /// Where the legal moves are just the sowable houses (play, no capture choices, no gift
    /// or feeding due): which they are, as a bit mask ([`Quick`]). Random play picks from it
    /// without listing the moves.
    #[inline(always)]
    pub(super) fn sowable_mask(&self, s: &SowingState) -> Option<Quick> {
        if self.optional_take || s.phase != Phase::Play || s.must_feed {
            return None;
        }
        let seat = usize::from(s.mover);
        if self.p.gift != Gift::None {
            // The gift is due when the opponent's row is empty: one counter from any of his
            // houses that holds any, if he has one (else he sows as usual). In a static game
            // both rows are read off one mask.
            let (theirs, gifts) = if self.dynamic {
                (
                    self.houses(&s.pos, Some(1 - seat), 1),
                    self.houses(&s.pos, Some(seat), 1),
                )
            } else {
                let held = self.held(&s.pos.board, 1);
                (held & self.row_mask(1 - seat), held & self.row_mask(seat))
            };
            if theirs == 0 && gifts != 0 {
                return Some(Quick::Gifts(gifts));
            }
        }
        if self.dynamic {
            // Houses change hands: the moves are the sowable houses in circuit order, each in
            // its one direction (a house sown either way lists two moves: not this path).
            // `settle` found them for this position.
            debug_assert_eq!(s.sowable[seat], self.sowable(&s.pos, seat));
            return self.single_dir.then_some(Quick::Houses(s.sowable[seat]));
        }
        let min = u16::from(self.p.min_sow);
        Some(Quick::Listed(
            seat,
            self.candidate_mask(&s.pos.board, seat, min),
        ))
    }

    /// The seat's candidates (in a static game) whose house holds at least `min`, as a mask
    /// over its list: by one table lookup where there is a table.
    #[inline(always)]
    fn candidate_mask(&self, board: &[u16; RING], seat: usize, min: u16) -> u32 {
        if let Some(table) = &self.cand_table {
            let row = self.held(board, min) >> (seat * self.n) & self.row_mask(0);
            return table[seat][row as usize];
        }
        let mut mask = 0u32;
        for (i, c) in self.cands[seat][..self.ncands[seat]].iter().enumerate() {
            mask |= u32::from(board[usize::from(c.house)] >= min) << i;
        }
        mask
    }

    /// Random play's move from the moves as a mask (`quick`, [`Sowing::sowable_mask`]), or
    /// from the listed moves where there is none: the move `legal_moves` lists at the index
    /// `pick` draws, with the number of moves.
    #[inline]
    pub(super) fn choose_from(
        &self,
        quick: Option<Quick>,
        s: &SowingState,
        buf: &mut Vec<SowingMove>,
        pick: impl FnOnce(usize) -> usize,
    ) -> (SowingMove, usize) {
        match quick {
            Some(Quick::Listed(seat, mask)) => pick_sowing(&self.cand_moves[seat], mask, pick),
            Some(Quick::Gifts(mask)) => {
                // Never empty: a gift is listed only where there is one.
                let n = mask.count_ones() as usize;
                let h = nth_set_bit(mask, pick(n) as u32);
                (SowingMove::Gift { house: h as u8 }, n)
            }
            Some(Quick::Houses(mask)) => match mask.count_ones() as usize {
                0 => {
                    pick(1);
                    (SowingMove::Pass, 1)
                }
                n => {
                    let h = nth_set_bit(mask, pick(n) as u32);
                    (SowingMove::sow(h, self.house_dir[h]), n)
                }
            },
            None if s.phase == Phase::Distribute
                && !matches!(
                    s.manner,
                    Distribution::LaneManners | Distribution::HalfAndHalf
                ) =>
            {
                // The distributor's hundreds of moves, picked from their counts per house.
                let counts = self.distribution_counts(s);
                let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
                if n == 0 {
                    self.legal_moves(s, buf);
                    let n = buf.len();
                    return (buf[pick(n)], n);
                }
                let mut k = pick(n);
                let mut h = 0;
                while k >= usize::from(counts[h]) {
                    k -= usize::from(counts[h]);
                    h += 1;
                }
                let mv = SowingMove::Distribute {
                    house: h as u8,
                    count: k as u8 + 1,
                };
                (mv, n)
            }
            None => {
                self.legal_moves(s, buf);
                let n = buf.len();
                (buf[pick(n)], n)
            }
        }
    }

    /// A sowing in play, after the clock's tick: [`Rules::apply`]'s for a sowing, which
    /// random play also reaches directly.
    #[inline(always)]
    pub(super) fn sow_move(
        &self,
        s: &mut SowingState,
        (house, dir, take, quirk): (u8, Dir, u8, bool),
        events: &mut impl EventSink<SowingEvent>,
    ) {
        let seat = usize::from(s.mover);
        if s.must_feed {
            events.emit(SowingEvent::Feed { seat });
        }
        if quirk {
            events.emit(SowingEvent::LeftHoleQuirk);
        }
        s.clock.clear_passes();
        s.must_feed = false;
        // Only a repetition rule reads the history: without one there is nothing to
        // clear, and no need to count the board twice a move.
        let before =
            (self.p.repetition != Repetition::None).then(|| (s.total_on_board(), s.pos.mark));
        let landing = self.sow_and_take(&mut s.pos, seat, (house as usize, dir, take), events);
        if matches!(landing, Landing::Cycle(_) | Landing::Unresolved) {
            s.mover = 1 - s.mover;
            if self.p.cap.is_some() {
                // An engine that counts each lap of a relay as a move (Ludii) plays
                // the cycle out to its move cap and scores it as the cap does.
                events.emit(SowingEvent::CapReached {
                    turns: s.clock.turns(),
                    plies: s.clock.plies(),
                });
                self.over(s, Result_::Draw, EndReason::MoveCap);
            } else if landing == Landing::Unresolved {
                // Nothing proved: stopped as by a limit.
                self.over(s, Result_::Unfinished, EndReason::SearchLimit);
            } else {
                // A forced cycle: nobody decides anything inside a move.
                self.over(s, Result_::Unfinished, EndReason::Cycle);
            }
            return;
        }
        if before.is_some_and(|(total, marks)| s.total_on_board() != total || marks != s.pos.mark) {
            // Counters only leave the board within a stage, and a daughter once
            // begotten stays until a peck takes counters away: no earlier position
            // can recur.
            s.history.clear();
        }
        if landing == Landing::Again {
            // A peck: the same player decides again.
            self.settle(s, events);
            return;
        }
        s.mover = 1 - s.mover;
        self.settle(s, events);
    }

    /// Every sowing the seat may make on `board`, capture choices included, in list order.
    pub(super) fn candidate_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let min = u16::from(self.p.min_sow);
        let cands = &self.cands[seat][..self.ncands[seat]];
        let board = &pos.board;
        if !self.optional_take && !self.dynamic {
            // Branch-free: write every candidate, advance past the eligible ones. Whether a
            // house may be sown is data the branch predictor cannot learn.
            let mut buf = [SowingMove::Pass; RING];
            let mut k = 0;
            for (c, &mv) in cands.iter().zip(&self.cand_moves[seat]) {
                buf[k] = mv;
                k += usize::from(board[c.house as usize] >= min);
            }
            // A fixed-size copy and a truncation: no length-dependent copy loop.
            let start = out.len();
            out.extend_from_slice(&buf);
            out.truncate(start + k);
            return;
        }
        if self.dynamic && !self.optional_take {
            return self.dynamic_moves(pos, seat, out);
        }
        self.each_candidate(pos, seat, |mv| out.push(mv));
    }

    /// Calls `f` with every sowing the seat may make on `board`, capture choices included,
    /// in list order, without allocating.
    pub(super) fn each_candidate(&self, pos: &Pos, seat: usize, mut f: impl FnMut(SowingMove)) {
        let min = u16::from(self.p.min_sow);
        if self.dynamic {
            let mut mask = self.sowable(pos, seat);
            while mask != 0 {
                let h = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                for &dir in self.house_dirs(h) {
                    self.each_take(pos, seat, h, dir, false, &mut f);
                }
            }
            return;
        }
        // The candidates that hold enough as a mask, visited by its set bits: whether a
        // house may be sown is data the branch predictor cannot learn.
        let mut mask = self.candidate_mask(&pos.board, seat, min);
        while mask != 0 {
            let c = &self.cands[seat][mask.trailing_zeros() as usize];
            mask &= mask - 1;
            self.each_take(pos, seat, usize::from(c.house), c.dir, c.quirk, &mut f);
        }
    }

    /// Calls `f` with the sowing of `house` in `dir` for each capture choice it offers.
    fn each_take(
        &self,
        pos: &Pos,
        seat: usize,
        house: usize,
        dir: Dir,
        quirk: bool,
        f: &mut impl FnMut(SowingMove),
    ) {
        let mv = |take| SowingMove::Sow {
            house: house as u8,
            dir,
            take,
            quirk,
        };
        if !self.optional_take {
            f(mv(TAKE_ALL));
            return;
        }
        if !self.p.relay && self.p.daughters == Daughters::None {
            // A plain sowing changes only the houses, and the capture rules read only the
            // few the chain examines: work out what each holds after the sowing (what
            // `sow_all` would leave there) without making the sown board.
            let counters = pos.board[house];
            let lapped = self.laps(counters);
            let spread = self.spread(house, dir, counters);
            let count = |h| self.sown_count(&pos.board, house, dir, spread, h);
            let len = self
                .capture_run(count, (house, lapped), spread.last, dir, seat)
                .0;
            self.takes(len, |take| f(mv(take)));
            return;
        }
        let mut p = *pos;
        let len = match self.sow_all(&mut p, seat, house, dir, &mut NoEvents) {
            Landing::Stop {
                origin,
                last,
                lapped,
            } => {
                self.capture_run(|h| p.board[h], (origin, lapped), last, dir, seat)
                    .0
            }
            Landing::Again | Landing::Cycle(_) | Landing::Unresolved | Landing::Standstill => 0,
        };
        self.takes(len, |take| f(mv(take)));
    }
}
