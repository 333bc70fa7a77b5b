//! One sowing: the counters of a house spread round the circuit (whole laps, then a part
//! lap), computed for every house at once from the rank tables with no loop over counters
//! and no branch per counter, in the three forms play needs (the whole board, the first 16
//! houses, and a table-driven part lap for the relays of [`Sowing::quick_relay`]), and the
//! look-ahead that reads one house of a sown board without sowing it.

use super::*;

/// One house on round the circuit of `r` houses.
#[inline]
pub(super) fn step(h: usize, dir: Dir, r: usize) -> usize {
    match dir {
        Dir::Ccw => {
            if h + 1 == r {
                0
            } else {
                h + 1
            }
        }
        Dir::Cw => {
            if h == 0 {
                r - 1
            } else {
                h - 1
            }
        }
    }
}

/// An entry of [`Sowing::lane_adds`]: what a part lap adds to each of 16 houses, and the
/// house its last counter falls in.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct QuickLap {
    pub(super) adds: [u16; 16],
    pub(super) last: u8,
}

/// The whole laps of a sowing from `house` of [`Sowing::sow_quick`] (rare: a dozen counters
/// or more): every house of the circuit of `lap` houses gets `laps`, and the origin gives up
/// the counters of the laps. Out of line, so that the common path holds none of its
/// constants.
#[cold]
#[inline(never)]
fn add_laps<const W: usize>(out: &mut [u16; W], laps: u16, lap: usize, house: usize) {
    for o in &mut out[..lap] {
        *o = o.wrapping_add(laps);
    }
    out[house] = out[house].wrapping_sub(laps * lap as u16);
}

/// How a sowing spreads its counters ([`Sowing::spread`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Spread {
    /// Whole laps: every sown house gets this many.
    pub(super) laps: u16,
    /// The houses of the last part lap get one more: those of rank below this.
    pub(super) rem: i16,
    /// The house the last counter falls in.
    pub(super) last: usize,
}

/// The whole laps of `lap` houses in `counters`, and the counters left for a part lap: by
/// subtraction, as a sowing rarely makes more than one lap (a division would cost more).
#[inline(always)]
fn whole_laps(counters: u16, lap: usize) -> (u16, usize) {
    let mut rem = usize::from(counters);
    let mut laps = 0u16;
    while rem >= lap {
        rem -= lap;
        laps += 1;
    }
    (laps, rem)
}

/// `ALL_BUT[h]`: all ones but in lane `h`, to empty house `h` of a board by a mask.
pub(super) static ALL_BUT: [[u16; RING]; RING] = {
    let mut table = [[u16::MAX; RING]; RING];
    let mut h = 0;
    while h < RING {
        table[h][h] = 0;
        h += 1;
    }
    table
};

/// `rank` of a house a sowing never fills. Ranks are `i16`, the width of the board, so that
/// sowing a whole window is one vector compare-and-add (SSE2 compares signed 16-bit lanes).
pub(super) const NOT_SOWN: i16 = i16::MAX;

impl Sowing {
    #[inline]
    pub(super) fn prev(&self, h: usize, dir: Dir) -> usize {
        step(
            h,
            match dir {
                Dir::Cw => Dir::Ccw,
                Dir::Ccw => Dir::Cw,
            },
            self.r,
        )
    }

    /// Sows `house` in `dir` on `board`: returns the last house. Emits a lap event.
    #[inline]
    pub(super) fn sow_counters(
        &self,
        board: &mut [u16; RING],
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> usize {
        let counters = board[house];
        if usize::from(counters) >= self.r {
            events.emit(SowingEvent::Lap { counters });
        }
        // Every house gets one counter per whole lap, and the first `rem` houses in sowing
        // order one more: computed for all slots at once from the rank table, without a
        // branch per counter (a sowing's length is data no branch predictor can learn).
        let spread = self.spread(house, dir, counters);
        let rank = &self.rank[dir as usize][house];
        // On a local copy, so the compiler sees two plain arrays and vectorises. The origin
        // is emptied by a mask, not by a store before the copy: a two-byte store the
        // processor must forward into the copy's wide loads stalls it.
        let mut b = *board;
        for (c, &keep) in b.iter_mut().zip(&ALL_BUT[house]) {
            *c &= keep;
        }
        let rank: [i16; RING] = *rank;
        if spread.laps > 0 {
            for i in 0..RING {
                b[i] =
                    b[i].wrapping_add(spread.laps & ((rank[i] != NOT_SOWN) as u16).wrapping_neg());
            }
        }
        for i in 0..RING {
            b[i] = b[i].wrapping_add((rank[i] < spread.rem) as u16);
        }
        *board = b;
        spread.last
    }

    /// How `counters` sown from `house` in `dir` spread: the whole laps, the houses of the
    /// last part lap and the house the last counter reaches. The one reckoning of a sowing's
    /// shape, for [`Sowing::sow_counters`] and for the look-ahead that reads the sown board
    /// without making it ([`Sowing::sown_count`]).
    #[inline]
    pub(super) fn spread(&self, house: usize, dir: Dir, counters: u16) -> Spread {
        let lap = self.r - usize::from(self.p.skip_origin);
        let (laps, rem) = whole_laps(counters, lap);
        let last = if rem > 0 { rem - 1 } else { lap - 1 };
        Spread {
            laps,
            rem: rem as i16,
            last: usize::from(self.order[dir as usize][house][last]),
        }
    }

    /// What house `h` holds once `house` of `board` is sown in `dir` as `spread` says: what
    /// [`Sowing::sow_counters`] leaves there, for one house.
    #[inline]
    pub(super) fn sown_count(
        &self,
        board: &[u16; RING],
        house: usize,
        dir: Dir,
        spread: Spread,
        h: usize,
    ) -> u16 {
        let rank = self.rank[dir as usize][house][h];
        let before = if h == house { 0 } else { board[h] };
        before
            .wrapping_add(spread.laps & ((rank != NOT_SOWN) as u16).wrapping_neg())
            .wrapping_add((rank < spread.rem) as u16)
    }

    /// Whether a lap of `counters` goes all the way round past the house it starts from.
    #[inline]
    pub(super) fn laps(&self, counters: u16) -> bool {
        usize::from(counters) >= self.r - usize::from(self.p.skip_origin)
    }

    /// [`Sowing::sow_lanes`] on 16 houses where [`Sowing::quick_relay`] holds (no origin
    /// skipped, so every house of the circuit is sown on each whole lap and the origin is
    /// the last of a lap): one add of an entry of [`Sowing::lane_adds`] (which also empties
    /// the origin of a sowing shorter than a lap), the whole laps (rare) added apart.
    /// `counters` is what `house` holds; returns the last house sown and what it then holds,
    /// found from the table and the board before the add, so that the next sowing need not
    /// wait to read it back.
    #[inline(always)]
    pub(super) fn sow_quick<const W: usize>(
        &self,
        b: &mut [u16; W],
        house: usize,
        counters: u16,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> (usize, u16) {
        debug_assert!(self.quick_relay && house < self.r && W == 16);
        debug_assert_eq!(counters, b[house]);
        #[cfg(debug_assertions)]
        let expected = {
            let mut lanes = *b;
            let last = self.sow_lanes(&mut lanes, house, dir, false, &mut NoEvents);
            (lanes, last)
        };
        let lap = self.r;
        if usize::from(counters) >= lap {
            events.emit(SowingEvent::Lap { counters });
        }
        let (laps, rem) = whole_laps(counters, lap);
        let entry = &self.lane_adds[(dir as usize * 16 + house) * 16 + rem];
        // Below 16 (the circuit fits in 16 houses): the mask only tells the compiler so,
        // sparing the bounds checks of the houses it indexes.
        let last = usize::from(entry.last) & 15;
        // A part lap puts one counter in its last house, never the origin (whole laps are
        // added apart, and the count then read back): not a second load on the chain.
        debug_assert!(laps > 0 || (last != house && entry.adds[last] == 1));
        let mut landed = b[last].wrapping_add(1);
        // The entry takes `rem` from the origin, all it holds when there is no whole lap.
        for (o, &add) in b.iter_mut().zip(&entry.adds) {
            *o = o.wrapping_add(add);
        }
        if laps > 0 {
            add_laps(b, laps, lap, house);
            landed = b[last];
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!((*b, last), expected);
        (last, landed)
    }

    /// [`Sowing::sow_counters`] on the first `W` houses (all that a circuit of at most `W`
    /// houses has): half the work where the circuit fits in 16. The origin is emptied in the
    /// same pass as the counters are added, by its rank (the last of a lap that refills it;
    /// under `skip_origin` never sown, as the slots beyond the circuit, which hold nothing),
    /// not by a store the pass then reloads.
    #[inline(always)]
    pub(super) fn sow_lanes<const W: usize>(
        &self,
        b: &mut [u16; W],
        house: usize,
        dir: Dir,
        skip_origin: bool,
        events: &mut impl EventSink<SowingEvent>,
    ) -> usize {
        debug_assert_eq!(skip_origin, self.p.skip_origin);
        let counters = b[house];
        if usize::from(counters) >= self.r {
            events.emit(SowingEvent::Lap { counters });
        }
        let lap = self.r - usize::from(skip_origin);
        let (laps, rem) = whole_laps(counters, lap);
        let origin_rank = if skip_origin {
            NOT_SOWN
        } else {
            lap as i16 - 1
        };
        let rank = &self.rank[dir as usize][house];
        let (rem16, mut out) = (rem as i16, *b);
        // Eight lanes (one SSE2 register) at a time, one pass whether or not there are whole
        // laps: the compiler keeps the whole of it in vector registers.
        for c in 0..W / 8 {
            for j in 0..8 {
                let i = 8 * c + j;
                let keep = u16::from(rank[i] != origin_rank).wrapping_neg();
                let sown = u16::from(rank[i] != NOT_SOWN).wrapping_neg();
                out[i] = (out[i] & keep)
                    .wrapping_add(laps & sown)
                    .wrapping_add(u16::from(rank[i] < rem16));
            }
        }
        *b = out;
        let last = if rem > 0 { rem - 1 } else { lap - 1 };
        usize::from(self.order[dir as usize][house][last])
    }
}
