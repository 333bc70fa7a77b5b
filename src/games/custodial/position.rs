//! The custodial games' position notation ([`crate::games::position`]): the board row by row
//! from the top, the seat to decide, the hands, and the state a turn carries (placements made,
//! a piece that must move on after a capture, a line to open, the first movement decision),
//! each field printed only where it differs from what a reader assumes without it.

use super::text::{cell_name, parse_cell};
use super::*;
use crate::games::position::{self, FieldSpec, Fields, Notation, PositionError, join};

/// The fields, in the order they are written.
pub(super) const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "board",
        form: "the rows from the top down, separated by slashes, a character a cell: x a piece \
               of seat 1, o of seat 2, . empty (board=x.o/.../o.x)",
        required: true,
    },
    position::TO_MOVE,
    FieldSpec {
        key: "hands",
        form: "the pieces each seat still has to place, seat 1's first (hands=12,12); 0,0 when \
               left out",
        required: false,
    },
    FieldSpec {
        key: "taken",
        form: "the pieces each seat has eaten, seat 1's first (taken=3,1); when left out, each \
               seat has eaten the other's pieces missing from the board, the hands and lost",
        required: false,
    },
    FieldSpec {
        key: "lost",
        form: "the pieces each seat lost by moving between two enemies, seat 1's first \
               (lost=0,1); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "phase",
        form: "toss (the toss for the first placer is pending) or play (phase=toss); play when \
               left out",
        required: false,
    },
    FieldSpec {
        key: "first-placer",
        form: "the seat that placed first, 1 or 2 (first-placer=2); 1 when left out",
        required: false,
    },
    FieldSpec {
        key: "placed",
        form: "the pieces placed so far in this turn, a whole number (placed=1); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "continue",
        form: "the cell of the mover's piece that must move on after its capture (continue=c3); \
               none when left out",
        required: false,
    },
    FieldSpec {
        key: "must-open",
        form: "yes where the mover must open a line for his blocked opponent (must-open=yes); \
               no when left out",
        required: false,
    },
    FieldSpec {
        key: "first-move",
        form: "yes where the next movement decision is the game's first (first-move=yes); no \
               when left out",
        required: false,
    },
    FieldSpec {
        key: "quiet",
        form: "the decisions since the last capture, a whole number (quiet=12); 0 when left out",
        required: false,
    },
];

impl Custodial {
    /// The position's notation.
    pub(super) fn notation(&self, s: &CustodialState) -> String {
        let n = self.n;
        let mut w = Notation::new();
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|r| {
                (0..n)
                    .map(|c| match s.who(r * n + c) {
                        Some(0) => 'x',
                        Some(_) => 'o',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        w.field("board", rows.join("/"));
        w.field("to-move", s.mover + 1);
        w.numbers_unless_zero("hands", &s.hand);
        if s.taken != self.missing(s) {
            w.field("taken", join(&s.taken, ","));
        }
        w.numbers_unless_zero("lost", &s.lost);
        if s.phase == Phase::Toss {
            w.field("phase", "toss");
        }
        w.field_unless("first-placer", s.first_placer + 1, 1);
        w.field_unless("placed", s.placed, 0);
        if s.cont != NONE {
            w.field("continue", cell_name(usize::from(s.cont), n));
        }
        w.flag("must-open", s.must_open);
        w.flag("first-move", s.first_move);
        if self.p.stall == Stall::NoCapture {
            w.field_unless("quiet", s.quiet, 0);
        }
        w.clock(&s.clock);
        w.finish()
    }

    /// What each seat has eaten if the pieces missing from the other's board, hand and lost
    /// were all eaten by it.
    fn missing(&self, s: &CustodialState) -> [u8; 2] {
        let gone = |seat: usize| {
            u32::from(self.p.pieces)
                .saturating_sub(s.pieces(seat) + u32::from(s.lost[seat]))
                .min(u32::from(u8::MAX)) as u8
        };
        [gone(1), gone(0)]
    }

    /// Reads a position.
    pub(super) fn read_position(&self, text: &str) -> Result<CustodialState, PositionError> {
        let f = Fields::parse(text, FIELDS)?;
        let n = self.n;
        let mut s = self.initial();
        let board = f.required("board")?;
        let rows: Vec<&str> = board.value.split('/').collect();
        if rows.len() != n || rows.iter().any(|r| r.chars().count() != n) {
            return Err(board.error_because(&format!(
                "\"{}\" is not {n} rows of {n} cells; expected {}",
                board.value, FIELDS[0].form
            )));
        }
        s.pieces = [0; 2];
        for (i, row) in rows.iter().enumerate() {
            let r = n - 1 - i;
            for (col, (at, ch)) in row.char_indices().enumerate() {
                let bit = 1u128 << (r * n + col);
                match ch {
                    'x' => s.pieces[0] |= bit,
                    'o' => s.pieces[1] |= bit,
                    '.' => {}
                    _ => return Err(board.part(&row[at..at + ch.len_utf8()]).error()),
                }
            }
        }
        s.mover = f.required("to-move")?.seat(2)? as u8;
        let hands = f.numbers_or_zero::<u8>("hands", 2)?;
        s.hand = [hands[0], hands[1]];
        let lost = f.numbers_or_zero::<u8>("lost", 2)?;
        s.lost = [lost[0], lost[1]];
        for seat in 0..2 {
            let count = s.pieces(seat) + u32::from(s.lost[seat]);
            if count > u32::from(self.p.pieces) {
                return Err(board.error_because(&format!(
                    "seat {} has {count} pieces on the board, in hand and lost, more than its {}",
                    seat + 1,
                    self.p.pieces
                )));
            }
        }
        s.taken = match f.get("taken") {
            None => self.missing(&s),
            Some(t) => {
                let v = t.numbers::<u8>(2, ",")?;
                [v[0], v[1]]
            }
        };
        s.phase = match f.get("phase") {
            None => Phase::Play,
            Some(p) => [Phase::Toss, Phase::Play][p.choice(&["toss", "play"])?],
        };
        s.first_placer = f.seat_or("first-placer", 2, 0)? as u8;
        s.placed = f.number_or("placed", 0u8)?;
        if s.placed >= self.p.per_turn {
            return Err(f.required("placed")?.error_because(&format!(
                "a turn places {} piece(s), so at most {} are placed before the turn ends",
                self.p.per_turn,
                self.p.per_turn - 1
            )));
        }
        s.cont = match f.get("continue") {
            None => NONE,
            Some(c) => {
                let cell = parse_cell(c.value, n).ok_or_else(|| c.error())?;
                if s.who(usize::from(cell)) != Some(usize::from(s.mover)) {
                    return Err(c.error_because(&format!(
                        "{} does not hold a piece of the seat to move",
                        c.value
                    )));
                }
                cell
            }
        };
        s.must_open = f.flag("must-open")?;
        s.first_move = f.flag("first-move")?;
        s.quiet = f.number_or("quiet", 0u32)?;
        s.clock = f.clock(2)?;
        s.outcome = None;
        s.seen.clear();
        // The position itself is the first the repetition stall has met, as it is for the
        // engine once a decision leads to it.
        if self.p.stall == Stall::Repetition
            && s.phase == Phase::Play
            && s.hand[usize::from(s.mover)] == 0
            && s.cont == NONE
        {
            s.seen
                .insert((s.pieces[0], s.pieces[1], s.mover, u8::from(s.must_open)));
        }
        // A seat with no piece left, on the board or in hand, has lost: the game's own end,
        // which the engine finds after the decision that takes the last piece (under Ludii's
        // loose continuation only once the loser is to move: the capturer first makes his
        // extra decision).
        if s.phase == Phase::Play
            && let Some(loser) = (0..2).find(|&seat| {
                self.wiped_out(&s, seat) && (!self.loose || usize::from(s.mover) == seat)
            })
        {
            self.over(&mut s, Result_::Win(1 << (1 - loser)), EndReason::Natural);
        }
        self.settle(&mut s);
        Ok(s)
    }
}
