//! A move's sowings: the first lap, then the relays while the last counter lands where the
//! reading relays, and what the last counter does where it falls in a dynamic game (a peck,
//! a drink, a daughter begotten). A relay that goes on for long is searched for a cycle
//! (Brent's), out of the common path; one that cycles or reaches the relay limit ends as a
//! cycle or, where the reading says so, a standstill where it first came round.

use super::*;

/// The state of Brent's search for a cycle in a long relay of a dynamic game
/// ([`Sowing::long_relay`]): the position saved (board and last house) and the steps.
struct Brent<const W: usize> {
    saved: ([u16; W], usize),
    power: u32,
    lam: u32,
}

impl Sowing {
    /// Whether house `h` counts as the opponent's for begetting a daughter.
    fn opponents_house(&self, pos: &Pos, h: usize, mover: usize) -> bool {
        match self.p.daughters {
            Daughters::None => false,
            Daughters::OpponentHouses => usize::from(pos.owner[h]) == 1 - mover,
            Daughters::OpponentOriginalRow => usize::from(self.row[h]) != mover,
        }
    }

    /// Sows from `house`, relaying if the reading does, and applies what the last counter
    /// does where it falls: a peck, a drink, a daughter begotten, a stop in an empty house, or
    /// a relay on (pecks, drinks and daughters in a dynamic game, which `sow_dynamic` plays:
    /// the rules of where a sowing lands are written there and here, in two forms of one
    /// reading of the board). The board is left where the sowing ended (or where a cycle was
    /// found).
    pub(super) fn sow_all(
        &self,
        pos: &mut Pos,
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        if self.dynamic {
            return if self.quick_relay {
                self.sow_dynamic::<{ RING / 2 }, true>(pos, mover, house, dir, events)
            } else if self.r <= RING / 2 {
                self.sow_dynamic::<{ RING / 2 }, false>(pos, mover, house, dir, events)
            } else {
                self.sow_dynamic::<RING, false>(pos, mover, house, dir, events)
            };
        }
        let start =
            (self.p.relay && self.p.empty_stops == EmptyStops::BeforeMove).then_some(pos.board);
        let mut origin = house;
        let mut lapped = self.laps(pos.board[origin]);
        let mut last = self.sow_counters(&mut pos.board, origin, dir, events);
        // Daughters make a game dynamic (`sow_dynamic` has their pecks, drinks and
        // begetting): here a sowing without relays is done.
        debug_assert_eq!(self.p.daughters, Daughters::None);
        if !self.p.relay {
            return Landing::Stop {
                origin,
                last,
                lapped,
            };
        }
        // Where the relay began, to find where a cycle first closes (a standstill).
        let first = (self.p.relay_cycle == RelayCycled::Standstill).then_some((pos.board, last));
        // Brent's cycle detection on (board, house) once a relay has gone on for long: the
        // counters are finite, so a relay either stops or revisits a position.
        let mut laps = 0u32;
        let mut saved = (pos.board, last);
        let (mut power, mut lam) = (1u32, 0u32);
        loop {
            // Empty before the last counter fell; under `before-move`, also empty before the
            // move began (a house emptied during the move relays on).
            let was_empty = pos.board[last] == 1 && start.as_ref().is_none_or(|b| b[last] == 0);
            let stops = match self.p.relay_when {
                RelayWhen::Occupied => was_empty,
                RelayWhen::Odd => was_empty || pos.board[last].is_multiple_of(2),
                RelayWhen::OddOrEmpty => pos.board[last].is_multiple_of(2),
            };
            if stops {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if self.p.relay_cap.is_some_and(|cap| laps >= cap) {
                events.emit(SowingEvent::RelayCapped { house: last as u8 });
                return Landing::Standstill;
            }
            events.emit(SowingEvent::Relay {
                house: last as u8,
                counters: pos.board[last],
            });
            origin = last;
            lapped = self.laps(pos.board[origin]);
            last = self.sow_counters(&mut pos.board, origin, dir, events);
            laps += 1;
            // A capped relay ends by its cap; otherwise look for a cycle.
            if laps >= 64 && self.p.relay_cap.is_none() {
                // A cycle can be too long for Brent's walk to close in reasonable time (80
                // counters relaying round 20 houses): a relay still going after the move cap
                // (each lap a move, as Ludii counts them) or, uncapped, after
                // `RELAY_LIMIT` sowings is taken as one that never stops.
                let cycled = (pos.board, last) == saved;
                if cycled || laps >= self.relay_limit {
                    if let Some(first) = first {
                        // A standstill where the cycle first closed; a relay still going at
                        // the limit with no cycle found stands still where it is.
                        if cycled {
                            pos.board = self.cycle_entry(first, (pos.board, last), dir);
                        }
                        events.emit(SowingEvent::RelayStandstill);
                        return Landing::Standstill;
                    }
                    return self.cycled(cycled.then_some((pos.board, last)), dir, events);
                }
                lam += 1;
                if lam == power {
                    saved = (pos.board, last);
                    power *= 2;
                    lam = 0;
                }
            }
        }
    }

    /// [`Sowing::sow_all`] in a dynamic game (daughters or stages), whose relays, pecks and
    /// daughters are most of its work: the same rules, on a copy of the first `W` houses
    /// (16 when the circuit fits in them; the houses beyond it hold nothing and are never
    /// sown) kept apart from `pos.board` until the move is done. The board before the move
    /// thus stays at hand: `before-move` reads its empty houses there, and a relay gone on
    /// long enough for the search for a cycle re-sows its first lap from it, instead of a
    /// copy of the board made at every move for a search that almost never runs. `QUICK`:
    /// the reading's relay has the shape [`Sowing::quick_relay`] says, so that the parameters
    /// it fixes are constants here, neither loaded nor tested at every sowing.
    fn sow_dynamic<const W: usize, const QUICK: bool>(
        &self,
        pos: &mut Pos,
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        let mut b: [u16; W] = std::array::from_fn(|i| pos.board[i]);
        let landing = self.relay_dynamic::<W, QUICK>(pos, &mut b, mover, house, dir, events);
        pos.board[..W].copy_from_slice(&b);
        landing
    }

    /// The body of [`Sowing::sow_dynamic`]: `b` is the board as the move goes, `pos.board`
    /// the board before it (and, on a standstill, set to where the relay stands).
    #[inline]
    fn relay_dynamic<const W: usize, const QUICK: bool>(
        &self,
        pos: &mut Pos,
        b: &mut [u16; W],
        mover: usize,
        house: usize,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        debug_assert!(!QUICK || self.quick_relay);
        // What `quick_relay` fixes, as constants under `QUICK`.
        let relay = QUICK || self.p.relay;
        let daughters = QUICK || self.p.daughters != Daughters::None;
        let uncapped = QUICK || self.p.relay_cap.is_none();
        let skip_origin = !QUICK && self.p.skip_origin;
        let relay_when = if QUICK {
            RelayWhen::Occupied
        } else {
            self.p.relay_when
        };
        let before_move = !QUICK && relay && self.p.empty_stops == EmptyStops::BeforeMove;
        let mut origin = house;
        // Brent's cycle detection on (board, house) once a relay has gone on for long, as in
        // `sow_all`: its state is made only then (`long_relay`), out of the common path.
        let mut laps = 0u32;
        let mut brent: Option<Brent<W>> = None;
        // The count in the house sown from, carried from one sowing to the next: read back
        // from `b` just after its vector write, it was the loop's longest wait. The first
        // is read from the board before the move (`b` is its copy, just written).
        debug_assert_eq!(b[origin], pos.board[origin]);
        let mut count = pos.board[origin];
        // Each turn of the loop sows once (the move's first lap, then each relay): one place
        // that sows, so that it inlines.
        loop {
            let lapped = usize::from(count) >= self.r - usize::from(skip_origin);
            let (last, landed) = if QUICK {
                self.sow_quick(b, origin, count, dir, events)
            } else {
                let last = self.sow_lanes(b, origin, dir, skip_origin, events);
                (last, b[last])
            };
            debug_assert_eq!(landed, b[last]);
            if laps == 0 && !relay && !daughters {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            // A capped relay ends by its cap; otherwise look for a cycle.
            if laps >= 64
                && uncapped
                && let Some(landing) =
                    self.long_relay(&mut brent, pos, b, (house, dir), (last, laps), events)
            {
                return landing;
            }
            // A daughter's house: an empty one may stop the move, else a peck or a drink. An
            // ordinary house (most) tests nothing more here.
            let mark = if daughters { pos.mark[last] } else { 0 };
            if mark != 0 {
                if landed == 1 && self.p.emptied_daughter == EmptiedDaughter::EmptyStops {
                    events.emit(SowingEvent::EmptyDaughterStop { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
                if usize::from(mark) == 2 - mover {
                    let taken = b[last].min(u16::from(self.p.peck));
                    b[last] -= taken;
                    match self.p.pecked {
                        Pecked::Pecker => pos.store[mover] += u32::from(taken),
                        Pecked::Discarded => pos.discarded += u32::from(taken),
                    }
                    events.emit(SowingEvent::Peck {
                        house: last as u8,
                        counters: taken,
                    });
                    if b[last] == 0 && self.p.emptied_daughter == EmptiedDaughter::LosesMark {
                        pos.mark[last] = 0;
                        events.emit(SowingEvent::DaughterLost { house: last as u8 });
                    }
                    return Landing::Again;
                }
                if usize::from(mark) == mover + 1 {
                    events.emit(SowingEvent::Drink { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
            }
            let was_empty = landed == 1 && (!before_move || pos.board[last] == 0);
            let stops = match relay_when {
                RelayWhen::Occupied => was_empty,
                RelayWhen::Odd => was_empty || landed.is_multiple_of(2),
                RelayWhen::OddOrEmpty => landed.is_multiple_of(2),
            };
            if stops {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if daughters && landed == u16::from(self.p.daughter_count) {
                if self.opponents_house(pos, last, mover) {
                    pos.mark[last] = mover as u8 + 1;
                    events.emit(SowingEvent::Daughter { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
                if self.p.own_count == OwnCount::Stop {
                    events.emit(SowingEvent::OwnCountStop { house: last as u8 });
                    return Landing::Stop {
                        origin,
                        last,
                        lapped,
                    };
                }
            }
            if !relay {
                return Landing::Stop {
                    origin,
                    last,
                    lapped,
                };
            }
            if !QUICK && self.p.relay_cap.is_some_and(|cap| laps >= cap) {
                events.emit(SowingEvent::RelayCapped { house: last as u8 });
                return Landing::Standstill;
            }
            events.emit(SowingEvent::Relay {
                house: last as u8,
                counters: landed,
            });
            origin = last;
            count = landed;
            laps += 1;
        }
    }

    /// A relay gone on for 64 sowings or more ([`Sowing::relay_dynamic`]), sown from `house`
    /// in `dir` and now at `last` after `laps` relays: one step of Brent's search for a
    /// cycle, `brent` its state (made at the first step). Where the relay cycles or reaches
    /// the relay limit, what the reading makes of it: a standstill (`b` set to where the
    /// relay first closed its cycle) or a cycle.
    #[cold]
    #[inline(never)]
    fn long_relay<const W: usize>(
        &self,
        brent: &mut Option<Brent<W>>,
        pos: &Pos,
        b: &mut [u16; W],
        (house, dir): (usize, Dir),
        (last, laps): (usize, u32),
        events: &mut impl EventSink<SowingEvent>,
    ) -> Option<Landing> {
        let state = brent.get_or_insert_with(|| Brent {
            saved: self.first_lap(&pos.board, house, dir),
            power: 1,
            lam: 0,
        });
        let cycled = (*b, last) == state.saved;
        if cycled || laps >= self.relay_limit {
            if self.p.relay_cycle == RelayCycled::Standstill {
                if cycled {
                    // `saved` is on the cycle; the relay stands where it first closed.
                    let start: ([u16; W], usize) = self.first_lap(&pos.board, house, dir);
                    let mut seen = pos.board;
                    seen[..W].copy_from_slice(b);
                    let mut full = pos.board;
                    full[..W].copy_from_slice(&start.0);
                    let entry = self.cycle_entry((full, start.1), (seen, last), dir);
                    b.copy_from_slice(&entry[..W]);
                }
                events.emit(SowingEvent::RelayStandstill);
                return Some(Landing::Standstill);
            }
            let seen = cycled.then(|| {
                let mut full = pos.board;
                full[..W].copy_from_slice(b);
                (full, last)
            });
            return Some(self.cycled(seen, dir, events));
        }
        state.lam += 1;
        if state.lam == state.power {
            state.saved = (*b, last);
            state.power *= 2;
            state.lam = 0;
        }
        None
    }

    /// A relay that came back to `seen` (a position on its cycle: the cycle's length is
    /// walked, a proof that it never stops), or, with `None`, one still going at the relay
    /// limit with no cycle found: under a cap the cap's doing (Ludii counts each lap as a
    /// move), otherwise unproven, never called a cycle.
    #[cold]
    fn cycled(
        &self,
        seen: Option<([u16; RING], usize)>,
        dir: Dir,
        events: &mut impl EventSink<SowingEvent>,
    ) -> Landing {
        match seen {
            Some(seen) => {
                let sowings = self.cycle_len(seen, dir);
                events.emit(SowingEvent::RelayCycle { sowings });
                Landing::Cycle(sowings)
            }
            None if self.p.cap.is_some() => {
                events.emit(SowingEvent::RelayCycle { sowings: 0 });
                Landing::Cycle(0)
            }
            None => {
                events.emit(SowingEvent::RelayUnresolved);
                Landing::Unresolved
            }
        }
    }

    /// The length in sowings of the relay cycle through `seen`, walked with plain relay
    /// steps (0 if they do not bring it back within `RELAY_LIMIT` steps: a length not
    /// measured, the cycle itself having been found on the move's own sowings).
    #[cold]
    fn cycle_len(&self, seen: ([u16; RING], usize), dir: Dir) -> u32 {
        let mut len = 1u32;
        let mut x = self.relay_step(seen, dir);
        while x != seen {
            if len >= RELAY_LIMIT {
                return 0;
            }
            x = self.relay_step(x, dir);
            len += 1;
        }
        len
    }

    /// The board and last house after the first lap of a move from `house` on `board`.
    #[cold]
    fn first_lap<const W: usize>(
        &self,
        board: &[u16; RING],
        house: usize,
        dir: Dir,
    ) -> ([u16; W], usize) {
        let mut b: [u16; W] = std::array::from_fn(|i| board[i]);
        let last = self.sow_lanes(&mut b, house, dir, self.p.skip_origin, &mut NoEvents);
        (b, last)
    }

    /// One step of a relay: the counters of `last` sown on.
    fn relay_step(
        &self,
        (mut board, last): ([u16; RING], usize),
        dir: Dir,
    ) -> ([u16; RING], usize) {
        let last = self.sow_counters(&mut board, last, dir, &mut NoEvents);
        (board, last)
    }

    /// The board at which a relay that cycles first comes back to a position (board and
    /// house) it has been at: `first` is where the relay began, `seen` a position on the
    /// cycle. The cycle's length is walked from `seen`, then two walkers that far apart go
    /// from `first` until they meet (Brent's second phase).
    #[cold]
    fn cycle_entry(
        &self,
        first: ([u16; RING], usize),
        seen: ([u16; RING], usize),
        dir: Dir,
    ) -> [u16; RING] {
        let mut len = 1u32;
        let mut x = self.relay_step(seen, dir);
        while x != seen {
            x = self.relay_step(x, dir);
            len += 1;
        }
        let (mut slow, mut fast) = (first, first);
        for _ in 0..len {
            fast = self.relay_step(fast, dir);
        }
        while slow != fast {
            slow = self.relay_step(slow, dir);
            fast = self.relay_step(fast, dir);
        }
        slow.0
    }
}
