//! The stick races' position notation ([`crate::games::position`]): the board row by row from
//! the top, the seat to throw or to decide, the throw in hand, banked tâbas, counters eaten
//! and borne off, and where counters stack, the stacks; each field printed only where it
//! differs from what a reader assumes without it.

use super::board::houses_of;
use super::*;
use crate::games::position::{self, FieldSpec, Fields, Notation, PositionError, seat_of};

/// The fields, in the order they are written.
pub(super) const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "board",
        form: "the rows from the top down, separated by slashes, a character a house: x a \
               released counter of seat 1, X one not yet released, o and O the same for seat 2, \
               * released counters of both seats, . empty (board=XXXX/..../..../OOOO)",
        required: true,
    },
    FieldSpec {
        key: "to-move",
        form: "the seat to throw or to use the throw, 1 or 2 (to-move=1)",
        required: true,
    },
    position::THROW,
    FieldSpec {
        key: "bank",
        form: "the tâbas each seat has banked, seat 1's first (bank=2,0); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "eaten",
        form: "the counters each seat has eaten, seat 1's first (eaten=1,3); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "home",
        form: "the counters each seat has borne off, seat 1's first (home=0,2); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "stacks",
        form: "where counters stack, each house holding more than its character says: the \
               house, the seat, its released counters there and +1 where one not yet released \
               waits there too (stacks=c2:1:3,a1:2:1+1); none when left out",
        required: false,
    },
    FieldSpec {
        key: "turns-ended",
        form: "the turns ended so far (the sticks passed), a whole number (turns-ended=14); 0 \
               when left out",
        required: false,
    },
    position::LOT,
];

impl StickRace {
    /// The character of a house: who stands there and whether released.
    fn house_char(&self, s: &StickRaceState, h: usize) -> char {
        let released = |seat: usize| s.active[seat] >> h & 1 == 1;
        match (s.has(0, h), s.has(1, h)) {
            (true, true) => '*',
            (true, false) if released(0) => 'x',
            (true, false) => 'X',
            (false, true) if released(1) => 'o',
            (false, true) => 'O',
            (false, false) => '.',
        }
    }

    /// What a house's character says a seat has there: released counters, and whether one
    /// not yet released waits there.
    fn implied(c: char, seat: usize) -> (u8, bool) {
        match (c, seat) {
            ('x', 0) | ('o', 1) | ('*', _) => (1, false),
            ('X', 0) | ('O', 1) => (0, true),
            _ => (0, false),
        }
    }

    /// What a seat has on a house where counters stack.
    fn stack_of(s: &StickRaceState, seat: usize, h: usize) -> (u8, bool) {
        (s.stacked[seat][h], s.waiting[seat] >> h & 1 == 1)
    }

    /// The position's notation.
    pub(super) fn notation(&self, s: &StickRaceState) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut w = Notation::new();
        let board: Vec<String> = (0..rows)
            .rev()
            .map(|r| {
                (0..cols)
                    .map(|c| self.house_char(s, r * cols + c))
                    .collect()
            })
            .collect();
        w.field("board", board.join("/"));
        w.field("to-move", s.mover + 1);
        if s.phase == Phase::Decide {
            w.field("throw", s.throw);
        }
        w.numbers_unless_zero("bank", &s.bank);
        w.numbers_unless_zero("eaten", &s.score);
        w.numbers_unless_zero("home", &s.home);
        if self.p.stack {
            let mut stacks = Vec::new();
            for h in 0..rows * cols {
                let c = self.house_char(s, h);
                for seat in 0..2 {
                    let (released, waiting) = Self::stack_of(s, seat, h);
                    if s.has(seat, h) && (released, waiting) != Self::implied(c, seat) {
                        stacks.push(format!(
                            "{}:{}:{released}{}",
                            house_name(h, cols),
                            seat + 1,
                            if waiting { "+1" } else { "" }
                        ));
                    }
                }
            }
            if !stacks.is_empty() {
                w.field("stacks", stacks.join(","));
            }
        }
        w.field_unless("turns-ended", s.turns_done, 0);
        if s.phase == Phase::Lot {
            w.field("phase", "lot");
        }
        w.clock(&s.clock);
        w.finish()
    }

    /// Reads a position and settles it.
    pub(super) fn read_position(&self, text: &str) -> Result<StickRaceState, PositionError> {
        let f = Fields::parse(text, FIELDS)?;
        let (rows, cols) = (self.rows, self.cols);
        let mut s = self.initial();
        let board = f.required("board")?;
        let lines: Vec<&str> = board.value.split('/').collect();
        if lines.len() != rows || lines.iter().any(|r| r.chars().count() != cols) {
            return Err(board.error_because(&format!(
                "\"{}\" is not {rows} rows of {cols} houses; expected {}",
                board.value, FIELDS[0].form
            )));
        }
        s.pieces = [0; 2];
        s.active = [0; 2];
        for (i, line) in lines.iter().enumerate() {
            let r = rows - 1 - i;
            for (col, (at, ch)) in line.char_indices().enumerate() {
                let h = r * cols + col;
                let bit = 1u128 << h;
                match ch {
                    'x' | 'X' => s.pieces[0] |= bit,
                    'o' | 'O' => s.pieces[1] |= bit,
                    '*' => {
                        s.pieces[0] |= bit;
                        s.pieces[1] |= bit;
                        s.active[0] |= bit;
                        s.active[1] |= bit;
                    }
                    '.' => {}
                    _ => return Err(board.part(&line[at..at + ch.len_utf8()]).error()),
                }
                match ch {
                    'x' => s.active[0] |= bit,
                    'o' => s.active[1] |= bit,
                    _ => {}
                }
            }
        }
        for seat in 0..2 {
            if let Some(h) =
                houses_of(s.pieces[seat]).find(|&h| self.index[seat][usize::from(h)] == OFF)
            {
                return Err(board.error_because(&format!(
                    "seat {} has a counter on {}, which is not on its track",
                    seat + 1,
                    house_name(usize::from(h), cols)
                )));
            }
        }
        self.sync_order(&mut s);
        if let Some(st) = f.get("stacks") {
            if !self.p.stack {
                return Err(st.error_because("counters do not stack in this reading"));
            }
            for part in st.value.split(',') {
                let entry = self
                    .stack_entry(part)
                    .ok_or_else(|| st.part(part).error())?;
                let (h, seat, released, waiting) = entry;
                if !s.has(seat, h) {
                    return Err(st.part(part).error_because(&format!(
                        "the board shows no counter of seat {} on {}",
                        seat + 1,
                        house_name(h, cols)
                    )));
                }
                if released == 0 && !waiting {
                    return Err(st.part(part).error());
                }
                s.stacked[seat][h] = released;
                let bit = 1u128 << h;
                if waiting {
                    s.waiting[seat] |= bit;
                } else {
                    s.waiting[seat] &= !bit;
                }
            }
            // The released bits and the counters beyond one a house follow from the stacks.
            for seat in 0..2 {
                s.active[seat] = 0;
                s.extra[seat] = 0;
                for h in houses_of(s.pieces[seat]) {
                    let h = usize::from(h);
                    let (released, waiting) = Self::stack_of(&s, seat, h);
                    if released > 0 {
                        s.active[seat] |= 1u128 << h;
                    }
                    s.extra[seat] += u32::from(released) + u32::from(waiting) - 1;
                }
            }
            let (stacked, waiting, extra) = (s.stacked, s.waiting, s.extra);
            self.sync_order(&mut s);
            (s.stacked, s.waiting, s.extra) = (stacked, waiting, extra);
        }
        for seat in 0..2 {
            let count = s.pieces(seat) as usize;
            if count > usize::from(self.p.pieces) {
                return Err(board.error_because(&format!(
                    "seat {} has {count} counters on the board, more than its {}",
                    seat + 1,
                    self.p.pieces
                )));
            }
        }
        s.mover = f.required("to-move")?.seat(2)? as u8;
        let bank = f.numbers_or_zero::<u32>("bank", 2)?;
        s.bank = [bank[0], bank[1]];
        let eaten = f.numbers_or_zero::<u32>("eaten", 2)?;
        s.score = [eaten[0], eaten[1]];
        let home = f.numbers_or_zero::<u8>("home", 2)?;
        s.home = [home[0], home[1]];
        s.turns_done = f.number_or("turns-ended", 0u32)?;
        s.phase = match (f.get("phase"), f.get("throw")) {
            (Some(p), throw) => {
                let lot = p.choice(&["lot", "play"])? == 0;
                match throw {
                    Some(t) if lot => {
                        return Err(t.error_because("no throw is in hand before the lot"));
                    }
                    _ if lot => Phase::Lot,
                    Some(_) => Phase::Decide,
                    None => Phase::Throw,
                }
            }
            (None, Some(_)) => Phase::Decide,
            (None, None) => Phase::Throw,
        };
        if let Some(t) = f.get("throw") {
            let throw = t.number::<u8>()?;
            if !THROWS.contains(&throw) {
                return Err(t.error());
            }
            s.throw = throw;
        }
        s.clock = f.clock(2)?;
        s.outcome = None;
        if s.phase != Phase::Lot {
            self.end_tests(&mut s, &mut NoEvents);
        }
        Ok(s)
    }

    /// One entry of `stacks`: `c2:1:3` or `a1:2:1+1`, as (house, seat, released, waiting).
    fn stack_entry(&self, text: &str) -> Option<(usize, usize, u8, bool)> {
        let mut parts = text.split(':');
        let (house, seat, count) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let h = text::parse_house(house, self.cols)?;
        if h >= self.rows * self.cols {
            return None;
        }
        let seat = seat_of(seat, 2)?;
        let (released, waiting) = match count.strip_suffix("+1") {
            Some(r) => (r, true),
            None => (count, false),
        };
        if released.is_empty() || !released.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some((h, seat, released.parse().ok()?, waiting))
    }
}
