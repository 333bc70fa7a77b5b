//! Resolving the parameters, once, in [`Sowing::new`]: the checks of what the engine can
//! play, the candidate sowings in the emulated engine's list order, the sowing order and
//! rank tables, and the flags and tables of the dynamic paths (`resolve_dynamic`), so that
//! play reads tables and never the parameters' combinations.

use super::sow::{NOT_SOWN, QuickLap, step};
use super::*;

impl Sowing {
    /// Resolves the parameters into tables.
    ///
    /// # Errors
    /// [`SowingError`] for parameters the engine cannot play or that contradict each other.
    pub fn new(p: &SowingParams) -> Result<Self, SowingError> {
        if p.holes == 0 || usize::from(p.holes) > MAX_HOLES {
            return Err(SowingError::Holes(p.holes));
        }
        if p.counters > 64 {
            return Err(SowingError::Counters(p.counters));
        }
        if p.min_sow == 0 {
            return Err(SowingError::MinSow);
        }
        let mut capture_mask = 0u128;
        for &c in &p.capture_counts {
            if c == 0 || c >= 128 {
                return Err(SowingError::CaptureCount(c));
            }
            capture_mask |= 1u128 << c;
        }
        if p.end_check == EndCheck::AllPassed && p.end != End::NeitherCanMove {
            return Err(SowingError::EndCheck(kebab_name(&p.end)));
        }
        if p.ludii_left_hole_quirk && p.holes < 2 {
            return Err(SowingError::Quirk);
        }
        let limit = Limit::new(p.cap)?;
        let rule_limit = Limit::new(p.move_limit).map_err(|e| {
            let e = e.to_string();
            SowingError::Combination(format!("move_limit{}", e.strip_prefix("cap").unwrap_or(&e)))
        })?;
        let n = usize::from(p.holes);
        let mut cands = [[Cand {
            house: 0,
            dir: Dir::Cw,
            quirk: false,
        }; RING]; 2];
        let mut ncands = [0; 2];
        for seat in 0..2 {
            for j in 0..n {
                let dirs: &[Dir] = match p.direction {
                    Direction::Clockwise => &[Dir::Cw],
                    Direction::Anticlockwise => &[Dir::Ccw],
                    Direction::Either => &[Dir::Cw, Dir::Ccw],
                    Direction::Outward => {
                        // Left of the middle sows toward the left, right of it toward the
                        // right; an odd row's middle house either way.
                        if n % 2 == 1 && j == n / 2 {
                            &[Dir::Cw, Dir::Ccw]
                        } else if 2 * j < n {
                            &[Dir::Cw]
                        } else {
                            &[Dir::Ccw]
                        }
                    }
                };
                for &dir in dirs {
                    // Ludii 1.0.8 reads seat 0's map value 0 (its left house) as missing and
                    // falls back to the key, 1: the move is listed, but from the next house.
                    let quirk = p.ludii_left_hole_quirk && seat == 0 && j == 0;
                    let house = seat * n + if quirk { 1 } else { j };
                    cands[seat][ncands[seat]] = Cand {
                        house: house as u8,
                        dir,
                        quirk,
                    };
                    ncands[seat] += 1;
                }
            }
        }
        let r = 2 * n;
        let mut order = Box::new([[[0u8; RING]; RING]; 2]);
        let mut rank = Box::new([[[NOT_SOWN; RING]; RING]; 2]);
        for (d, dir) in [Dir::Cw, Dir::Ccw].into_iter().enumerate() {
            for origin in 0..r {
                let mut h = origin;
                let mut k = 0;
                while k < r - usize::from(p.skip_origin) {
                    h = step(h, dir, r);
                    if h == origin && p.skip_origin {
                        h = step(h, dir, r);
                    }
                    order[d][origin][k] = h as u8;
                    rank[d][origin][h] = k as i16;
                    k += 1;
                }
            }
        }
        // The list order an emulated engine uses (stable sorts: ties keep house order).
        for (seat, list) in cands.iter_mut().enumerate() {
            let row = |c: &Cand| {
                if c.quirk {
                    0
                } else {
                    usize::from(c.house) - seat * n
                }
            };
            let list = &mut list[..ncands[seat]];
            match p.move_order {
                MoveOrder::Houses => {}
                MoveOrder::ByDirection => list.sort_by_key(|c| {
                    // Seat 1's houses run from his left, which is the first player's right.
                    let across = if seat == 0 { row(c) } else { n - 1 - row(c) };
                    (c.dir == Dir::Ccw, across)
                }),
                MoveOrder::RightLeftCentre => list.sort_by_key(|c| match (row(c), c.dir) {
                    (j, Dir::Ccw) if j + 1 == n => 0,
                    (0, Dir::Cw) => 1,
                    (_, Dir::Ccw) => 2,
                    (_, Dir::Cw) => 3,
                }),
            }
        }
        let mut cand_moves = [[SowingMove::Pass; RING]; 2];
        for seat in 0..2 {
            for (m, c) in cand_moves[seat]
                .iter_mut()
                .zip(&cands[seat][..ncands[seat]])
            {
                *m = SowingMove::Sow {
                    house: c.house,
                    dir: c.dir,
                    take: TAKE_ALL,
                    quirk: c.quirk,
                };
            }
        }
        let mut cand_mask = [0u32; 2];
        for seat in 0..2 {
            for c in &cands[seat][..ncands[seat]] {
                cand_mask[seat] |= 1 << c.house;
            }
        }
        let own_rows = (0..2).all(|seat| {
            cands[seat][..ncands[seat]]
                .iter()
                .all(|c| usize::from(c.house) / n == seat)
        });
        let cand_table = (n <= 8 && own_rows).then(|| {
            let mut table = Box::new([[0u32; 256]; 2]);
            for (seat, rows) in table.iter_mut().enumerate() {
                for (held, mask) in rows.iter_mut().enumerate() {
                    for (i, c) in cands[seat][..ncands[seat]].iter().enumerate() {
                        *mask |= u32::from(held >> (usize::from(c.house) - seat * n) & 1 == 1) << i;
                    }
                }
            }
            table
        });
        let mut pos_dirs = [([Dir::Cw; 2], 0u8); MAX_HOLES];
        for (j, pd) in pos_dirs.iter_mut().enumerate().take(n) {
            for c in &cands[0][..ncands[0]] {
                if usize::from(c.house) == j && !c.quirk {
                    pd.0[usize::from(pd.1)] = c.dir;
                    pd.1 += 1;
                }
            }
        }
        let dynamic = p.daughters != Daughters::None || p.rounds == Rounds::Fours;
        if dynamic && p.ludii_left_hole_quirk {
            return Err(SowingError::Combination(
                "ludii_left_hole_quirk cannot be played with daughters or rounds: fours (its move \
                 list is fixed by row, while those houses change hands)"
                    .to_owned(),
            ));
        }
        if p.distribution != Distribution::Even && p.counters == 0 {
            return Err(SowingError::Combination(format!(
                "counters = 0 with distribution = {}: there would be nothing to distribute",
                kebab_name(&p.distribution)
            )));
        }
        if p.daughters != Daughters::None && !(1..128).contains(&p.daughter_count) {
            return Err(SowingError::Combination(format!(
                "daughter_count = {}: it must be 1 to 127",
                p.daughter_count
            )));
        }
        if let Some(cap) = p.relay_cap
            && !(1..=RELAY_LIMIT).contains(&cap)
        {
            return Err(SowingError::Combination(format!(
                "relay_cap = {cap}: a relay's cap is 1 to {RELAY_LIMIT} pick-ups"
            )));
        }
        if p.peck == 0 {
            return Err(SowingError::Combination(
                "peck = 0: a peck removes at least the last counter".to_owned(),
            ));
        }
        let optional_take = p.capture_last == Compulsion::Optional
            || (p.chain == Chain::Backward && p.chain_take != ChainTake::Compulsory);
        let mut row = [NO_SEAT; RING];
        for (h, r) in row.iter_mut().enumerate().take(2 * n) {
            *r = (h / n) as u8;
        }
        let mut house_dir = [Dir::Cw; RING];
        for (h, d) in house_dir.iter_mut().enumerate().take(2 * n) {
            *d = pos_dirs[h % n].0[0];
        }
        let mut rules = Sowing {
            p: p.clone(),
            n,
            r: 2 * n,
            row,
            endless_search: false,
            single_dir: pos_dirs[..n].iter().all(|&(_, k)| k == 1),
            capture_mask,
            capture_words: [capture_mask as u64, (capture_mask >> 64) as u64],
            cands,
            ncands,
            optional_take,
            relay_limit: limit.moves().unwrap_or(RELAY_LIMIT),
            rule_limit,
            limit,
            order,
            rank,
            cand_moves,
            cand_mask,
            row_masks: [0, 1].map(|seat| (u32::MAX >> (32 - n)) << (seat * n)),
            cand_table,
            dynamic,
            pos_dirs,
            house_dir,
            quick_relay: false,
            lane_adds: Vec::new(),
            quick_settle: false,
            drive_bare: false,
            sow_rows: [u32::MAX; 2],
        };
        rules.endless_search = rules.can_be_endless();
        rules.resolve_dynamic();
        Ok(rules)
    }

    /// Resolves, once, what the dynamic paths would otherwise read from the parameters at
    /// every move: see [`Sowing::quick_relay`], [`Sowing::quick_settle`],
    /// [`Sowing::drive_bare`] and [`Sowing::sow_rows`].
    fn resolve_dynamic(&mut self) {
        let p = &self.p;
        self.quick_relay = self.dynamic
            && self.r <= RING / 2
            && p.relay
            && p.relay_when == RelayWhen::Occupied
            && p.empty_stops != EmptyStops::BeforeMove
            && p.daughters != Daughters::None
            && !p.skip_origin
            && p.relay_cap.is_none();
        if self.quick_relay {
            let lap = self.r;
            let mut entries = vec![
                QuickLap {
                    adds: [0; 16],
                    last: 0
                };
                2 * 16 * 16
            ];
            for (k, entry) in entries.iter_mut().enumerate() {
                let (dir, origin, rem) = (k / 256, k / 16 % 16, k % 16);
                for (i, a) in entry.adds.iter_mut().enumerate() {
                    *a = u16::from(self.rank[dir][origin][i] < rem as i16);
                }
                entry.adds[origin] = entry.adds[origin].wrapping_sub(rem as u16);
                // A sowing of a whole number of laps ends where a lap does.
                entry.last = self.order[dir][origin][if rem > 0 { rem - 1 } else { lap - 1 }];
            }
            self.lane_adds = entries;
        }
        let p = &self.p;
        self.quick_settle = self.dynamic
            && !matches!(p.stage_end, StageEnd::Cleared | StageEnd::NoCapture)
            && p.end_check == EndCheck::Immediate
            && p.end == End::NeitherCanMove
            && !self.rule_limit.is_on()
            && !p.all_pass_draw
            && !self.endless_search
            && p.repetition == Repetition::None;
        self.drive_bare = p.rounds == Rounds::Fours && p.driven_off == DrivenOff::NoCounters;
        self.sow_rows = if p.sow_from == SowFrom::Owns {
            [u32::MAX; 2]
        } else {
            self.row_masks
        };
    }
}
