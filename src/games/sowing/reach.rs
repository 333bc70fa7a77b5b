//! What a board can still reach without a capture (a capture, an end, or neither), searched
//! once few counters are left ([`SEARCH_COUNTERS`]): it decides a board that ends when no
//! capture is possible, and proves a game endless. The set of positions is a per-thread
//! open-addressing table of unary keys that allocates only when a search outgrows every
//! earlier one.

use super::*;

/// What a board can still reach (see [`Sowing::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reach {
    /// A capture.
    Capture,
    /// No capture, but a position where an end rule (or a relay that never stops) ends it.
    End,
    /// Neither: the board goes on for ever without a capture.
    Neither,
    /// Not searched (too many counters or positions): a capture is taken to be reachable.
    Unknown,
}

/// The key of a position in [`Sowing::reach`]'s set: the houses written in unary, each
/// house's counters as ones ended by a zero, after a guard bit (so no key is 0, the empty
/// slot), then the player to move. The search runs only with at most [`SEARCH_COUNTERS`]
/// counters on the board, so a key has at most 1 + 16 + 32 + 1 bits: it fits a `u64`, and
/// two boards of the same circuit get the same key only if they are equal.
#[inline]
fn reach_key(board: &[u16; RING], r: usize, mover: u8) -> u64 {
    let mut k = 1u64;
    for &c in &board[..r] {
        debug_assert!(u32::from(c) <= SEARCH_COUNTERS);
        k = ((k << c) | ((1u64 << c) - 1)) << 1;
    }
    (k << 1) | u64::from(mover)
}

/// The set and stack of [`Sowing::reach`], kept per thread from one search to the next: a
/// search was most of the cost of a game that searches at every decision, most of it
/// hashing, growing and allocating a `HashSet` of whole boards.
#[derive(Default)]
struct ReachScratch {
    /// An open-addressing set of [`reach_key`]s, 0 for an empty slot; its length is 0 or a
    /// power of two, and it is at most half full.
    slots: Vec<u64>,
    /// The slots filled, emptied again by [`ReachScratch::clear`].
    used: Vec<u32>,
    /// Keys in the set.
    len: usize,
    /// Boards found and not yet expanded, with the player to move.
    stack: Vec<([u16; RING], u8)>,
}

impl ReachScratch {
    const FIRST_SLOTS: usize = 1 << 10;

    /// Adds `key`: whether it was not in the set.
    #[inline]
    fn insert(&mut self, key: u64) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let shift = 64 - self.slots.len().trailing_zeros();
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
        loop {
            match self.slots[i] {
                0 => break,
                k if k == key => return false,
                _ => i = (i + 1) & mask,
            }
        }
        self.slots[i] = key;
        self.used.push(i as u32);
        self.len += 1;
        true
    }

    /// Doubles the table (or makes the first one) and puts the keys back.
    #[cold]
    fn grow(&mut self) {
        let keys: Vec<u64> = self.used.iter().map(|&i| self.slots[i as usize]).collect();
        let slots = (2 * self.slots.len()).max(Self::FIRST_SLOTS);
        self.slots = vec![0; slots];
        self.used.clear();
        self.len = 0;
        for key in keys {
            self.insert(key);
        }
    }

    /// Empties the set and the stack, keeping their memory.
    fn clear(&mut self) {
        if self.used.len() > self.slots.len() / 8 {
            self.slots.fill(0);
        } else {
            for &i in &self.used {
                self.slots[i as usize] = 0;
            }
        }
        self.used.clear();
        self.len = 0;
        self.stack.clear();
    }
}

thread_local! {
    /// [`Sowing::reach`]'s scratch for the games this thread plays.
    static REACH_SCRATCH: std::cell::RefCell<ReachScratch> =
        std::cell::RefCell::new(ReachScratch::default());
}

impl Sowing {
    /// Whether a game of this reading could go on for ever without any rule ending it: no
    /// engine cap, no move limit, no repetition rule, and a board that ends only when
    /// cleared (or by the end rules). Daughters and stages are not searched.
    #[inline]
    pub(super) fn can_be_endless(&self) -> bool {
        !self.limit.is_on()
            && !self.rule_limit.is_on()
            && self.p.repetition == Repetition::None
            && self.p.end_check == EndCheck::Immediate
            && matches!(self.p.stage_end, StageEnd::Cleared | StageEnd::None)
            && !self.dynamic
    }

    /// Whether the end rule (`end`) would end the game on `pos` with `mover` to move, as
    /// [`Sowing::settle`] tests it; under `opponent-feeds`, any blocked player counts (he may
    /// not be fed), which errs toward an end.
    fn end_fires(&self, pos: &Pos, mover: usize) -> bool {
        let no_moves = self.no_moves(pos);
        match self.p.end {
            End::NeitherCanMove => no_moves,
            End::MoverBlocked => !self.can_move(pos, mover),
            End::OpponentFeeds => !self.can_move(pos, 0) || !self.can_move(pos, 1),
            End::RowEmpty => {
                no_moves
                    || (0..2).any(|seat| {
                        pos.board[seat * self.n..(seat + 1) * self.n]
                            .iter()
                            .all(|&c| c == 0)
                    })
            }
        }
    }

    /// What the board can still reach from `s` (play phase, ordinary houses): every position
    /// reachable without a capture is tried, with each seat's sowings (all of them, a feeding
    /// obligation ignored), the gifts the rules give and the passes of a blocked player. A
    /// relay that never stops counts as an end (the engine ends the game there).
    ///
    /// The search is depth-first from the last position found, and gives up (`Unknown`) once
    /// it has seen more than [`SEARCH_POSITIONS`] distinct positions; its set and stack are
    /// a per-thread [`ReachScratch`] kept from one search to the next, so that a search
    /// allocates nothing once the thread has met its largest.
    pub(super) fn reach(&self, s: &SowingState) -> Reach {
        let on_board = s.total_on_board();
        if self.dynamic || on_board == 0 {
            return Reach::Unknown;
        }
        if on_board > SEARCH_COUNTERS {
            // Fewer counters than the smallest capturing count can never make one: nothing
            // can be captured, and whether an end can be reached is left open (taken as yes).
            let smallest = self.capture_mask.trailing_zeros();
            return if on_board < smallest {
                Reach::End
            } else {
                Reach::Unknown
            };
        }
        REACH_SCRATCH.with_borrow_mut(|scratch| {
            let reach = self.search(s, scratch);
            scratch.clear();
            reach
        })
    }

    /// The search of [`Sowing::reach`] on an empty `scratch` (left for the caller to clear).
    fn search(&self, s: &SowingState, scratch: &mut ReachScratch) -> Reach {
        let r = self.r;
        scratch.insert(reach_key(&s.pos.board, r, s.mover));
        scratch.stack.push((s.pos.board, s.mover));
        let mut end = false;
        // Only the houses change in the search (no capture is made, and a game without
        // daughters or stages has no marks, no pecks and fixed owners): the stack holds
        // boards, and `pos` and `child` take the rest from the start, saving the copies of
        // whole positions.
        let mut pos = s.pos;
        let mut child = s.pos;
        while let Some((board, mover)) = scratch.stack.pop() {
            pos.board = board;
            let seat = usize::from(mover);
            if self.end_fires(&pos, seat) {
                // The board ends here; the positions after it cannot be reached this way.
                end = true;
                continue;
            }
            // A position not seen before is stacked; positions are marked seen in the order
            // they are found, the order of the moves.
            let next = |b: &[u16; RING], m: usize, scratch: &mut ReachScratch| {
                if scratch.insert(reach_key(b, r, m as u8)) {
                    scratch.stack.push((*b, m as u8));
                }
            };
            let gift_due = self.p.gift != Gift::None
                && self.row_empty(&pos, 1 - seat)
                && !self.row_empty(&pos, seat);
            if gift_due {
                let to = if seat == 1 && self.p.ludii_leftmost_quirk {
                    1
                } else {
                    (1 - seat) * self.n
                };
                let after = if self.p.gift == Gift::Extra {
                    seat
                } else {
                    1 - seat
                };
                for h in 0..self.r {
                    if usize::from(pos.owner[h]) == seat && pos.board[h] > 0 {
                        let mut b = pos.board;
                        b[h] -= 1;
                        b[to] += 1;
                        next(&b, after, scratch);
                    }
                }
            } else {
                let mut moved = false;
                let mut capture = false;
                let mut cycle = false;
                self.each_candidate(&pos, seat, |mv| {
                    // Once a capture is found the answer is `Capture` whatever follows:
                    // the rest of the moves need not be sown.
                    if capture {
                        return;
                    }
                    let SowingMove::Sow { house, dir, .. } = mv else {
                        return;
                    };
                    moved = true;
                    let p = &mut child;
                    p.board = pos.board;
                    match self.sow_all(p, seat, usize::from(house), dir, &mut NoEvents) {
                        Landing::Stop {
                            origin,
                            last,
                            lapped,
                        } => {
                            if self
                                .capture_run(|h| p.board[h], (origin, lapped), last, dir, seat)
                                .0
                                > 0
                            {
                                capture = true;
                                return;
                            }
                            next(&p.board, 1 - seat, scratch);
                        }
                        // A relay that stands still ends the move, nothing taken.
                        Landing::Standstill => next(&p.board, 1 - seat, scratch),
                        // A move that ends the game unfinished, proved or not, counts as an
                        // end reached: the search claims nothing about it.
                        Landing::Again | Landing::Cycle(_) | Landing::Unresolved => cycle = true,
                    }
                });
                if capture {
                    return Reach::Capture;
                }
                end |= cycle;
                if !moved {
                    next(&pos.board, 1 - seat, scratch);
                }
            }
            if scratch.len > SEARCH_POSITIONS {
                return Reach::Unknown;
            }
        }
        if end { Reach::End } else { Reach::Neither }
    }
}
