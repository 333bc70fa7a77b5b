//! The gift: a player whose opponent's row is empty gives him one counter, and the forced
//! stretch of a board's last counter given back and forth, played at once
//! ([`Rules::forced_plies`]).

use super::moves::Quick;
use super::sow::ALL_BUT;
use super::*;

/// The events of two plies of a forced stretch ([`Rules::forced_plies`]) while they are
/// gifts, and whether any other came.
struct GiftCycle {
    events: [SowingEvent; 2],
    len: usize,
    other: bool,
}

impl Default for GiftCycle {
    fn default() -> Self {
        GiftCycle {
            events: [SowingEvent::Gift { seat: 0, house: 0 }; 2],
            len: 0,
            other: false,
        }
    }
}

impl EventSink<SowingEvent> for GiftCycle {
    fn emit(&mut self, event: SowingEvent) {
        match event {
            SowingEvent::Gift { .. } if self.len < 2 => {
                self.events[self.len] = event;
                self.len += 1;
            }
            _ => self.other = true,
        }
    }
}

impl Sowing {
    /// Whether the houses `seat` owns (and may sow) hold nothing.
    #[inline]
    pub(super) fn row_empty(&self, pos: &Pos, seat: usize) -> bool {
        self.houses(pos, Some(seat), 1) == 0
    }

    /// The gifts `seat` may make: one counter from any ordinary house of his that holds any.
    #[inline]
    pub(super) fn gift_moves(&self, pos: &Pos, seat: usize, out: &mut Vec<SowingMove>) {
        let mut mask = self.houses(pos, Some(seat), 1);
        out.reserve(mask.count_ones() as usize);
        while mask != 0 {
            let h = mask.trailing_zeros();
            mask &= mask - 1;
            out.push(SowingMove::Gift { house: h as u8 });
        }
    }

    /// The mover gives a counter from `house` (the turn's clock tick made): the end of
    /// [`Rules::apply`] for a gift, which random play also reaches directly.
    pub(super) fn give(
        &self,
        s: &mut SowingState,
        house: usize,
        events: &mut impl EventSink<SowingEvent>,
    ) {
        let seat = usize::from(s.mover);
        let to = if seat == 1 && self.p.ludii_leftmost_quirk {
            1
        } else {
            (1 - seat) * self.n
        };
        // The whole board as vectors, as the end tests read it next: two-byte stores that
        // those wide loads must wait for stalled every gift.
        let mut b = s.pos.board;
        let (from, into) = (&ALL_BUT[house], &ALL_BUT[to]);
        for i in 0..RING {
            b[i] = b[i].wrapping_sub(!from[i] & 1).wrapping_add(!into[i] & 1);
        }
        s.pos.board = b;
        s.clock.clear_passes();
        events.emit(SowingEvent::Gift {
            seat,
            house: to as u8,
        });
        if self.p.gift != Gift::Extra {
            s.mover = 1 - s.mover;
        }
        // Under `extra` the giver goes on to sow.
        self.settle(s, events);
    }

    /// [`Rules::forced_plies`] where the reading has a gift: the board's last counter given
    /// back and forth.
    #[inline(never)]
    pub(super) fn gift_stretch(
        &self,
        s: &mut SowingState,
        budget: u32,
        events: &mut impl EventSink<SowingEvent>,
    ) -> u32 {
        // The board's last counter given back and forth (Li'b al-'Aqil under Ludii, to its
        // cap): a gift is due with one house to give from, and two such gifts bring the
        // state back with nothing but the clock moved. The rules themselves play the two, on
        // a copy, to find that out; every later pair repeats them, so only a rule that reads
        // the clock can end the stretch, and it stops short of the first ply one could.
        if self.lone_gift(s).is_none() {
            return 0;
        }
        let mut t = s.clone();
        let mut cycle = GiftCycle::default();
        for _ in 0..2 {
            let Some(house) = self.lone_gift(&t) else {
                return 0;
            };
            t.clock.tick(t.mover);
            self.give(&mut t, house, &mut cycle);
        }
        let mut back = s.clone();
        back.clock.alternate(2);
        if cycle.other || cycle.len != 2 || t != back {
            return 0;
        }
        let search = if self.endless_search {
            // The search for an endless game reads the clock too.
            (s.search_after.saturating_sub(s.clock.plies())).saturating_sub(1)
        } else {
            u32::MAX
        };
        let plies = (self.limit.room(&s.clock))
            .min(self.rule_limit.room(&s.clock))
            .min(search)
            .min(budget)
            & !1;
        s.clock.alternate(plies);
        events.emit_cycle(&cycle.events, plies / 2);
        plies
    }

    /// The house random play gives from when a gift is due with only one to give from.
    fn lone_gift(&self, s: &SowingState) -> Option<usize> {
        match self.sowable_mask(s) {
            Some(Quick::Gifts(mask)) if mask.is_power_of_two() => {
                Some(mask.trailing_zeros() as usize)
            }
            _ => None,
        }
    }
}
