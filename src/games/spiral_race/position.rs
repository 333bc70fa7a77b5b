//! The spiral race's position notation ([`crate::games::position`]): each mother and the
//! hyena as a short token (where she is, what she has paid, the scores she keeps at the
//! well), the seat to throw or to decide, the throw in hand, banked tâbas and the rest of the
//! reading's state; each field printed only where it differs from what a reader assumes
//! without it.

use super::*;
use crate::games::position::{
    self, Field, FieldSpec, Fields, Notation, PositionError, join, seat_of,
};

/// The form of one piece's token, which the mothers' and the hyena's fields share.
macro_rules! piece_form {
    () => {
        "V in the village, >N on the way out at hollow N, W at the well, <N on the way back at \
         hollow N, H home, x eaten; then pK where K tâbas are paid, kA.B.C where A 2s, B 4s and \
         C 6s are kept at the well, and f where the next move is the first away from the well"
    };
}

const PIECE: &str = piece_form!();

/// The fields, in the order they are written.
pub(super) const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "mothers",
        form: concat!(
            "each seat's mother, separated by commas, seat 1's first, each ",
            piece_form!(),
            " (mothers=>12,Wp1,<30f,V)"
        ),
        required: true,
    },
    FieldSpec {
        key: "to-move",
        form: "the seat to throw or to use the throw, from 1 (to-move=2)",
        required: true,
    },
    FieldSpec {
        key: "hyena",
        form: "the hyena, loose, as a piece (V in the village, >N out, W at the well, <N back, H \
               home, with pK paid, kA.B.C kept and f as for a mother) and @ the seat that plays \
               him (hyena=<40@2); - (not loose) when left out",
        required: false,
    },
    position::THROW,
    FieldSpec {
        key: "bank",
        form: "the tâbas each seat has banked, separated by commas (bank=2,0); none when left out",
        required: false,
    },
    FieldSpec {
        key: "set-aside",
        form: "the credit each seat's mother brought home, which pays nothing for the hyena \
               (set-aside=0,3); none when left out",
        required: false,
    },
    FieldSpec {
        key: "fate",
        form: "the ply on which each seat's mother came home or was eaten, 0 while neither \
               (fate=0,57); all 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "left",
        form: "the seats whose mother ever left the village, separated by commas, or - for \
               none (left=1,2); when left out, those not in the village",
        required: false,
    },
    FieldSpec {
        key: "eaten",
        form: "the women the hyena has eaten, a whole number (eaten=1); when left out, the \
               mothers shown eaten",
        required: false,
    },
    FieldSpec {
        key: "kept-played",
        form: "yes where the mover has played a kept score this turn (kept-played=yes); no \
               when left out",
        required: false,
    },
    position::LOT,
];

impl SpiralRace {
    /// A piece's token.
    fn piece_token(&self, p: &Piece) -> String {
        let mut t = match p.leg {
            Leg::Village => "V".to_owned(),
            Leg::Out => format!(">{}", p.pos),
            Leg::Well => "W".to_owned(),
            Leg::Back => format!("<{}", p.pos),
            Leg::Home => "H".to_owned(),
            Leg::Eaten => "x".to_owned(),
        };
        if p.paid > 0 {
            t.push_str(&format!("p{}", p.paid));
        }
        if p.kept != [0; 3] {
            t.push_str(&format!("k{}", join(&p.kept, ".")));
        }
        if p.first_back {
            t.push('f');
        }
        t
    }

    /// Reads a piece's token.
    fn piece_of(&self, text: &str) -> Option<Piece> {
        let mut rest = text;
        let mut p = Piece::START;
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let first = rest.chars().next()?;
        rest = &rest[first.len_utf8()..];
        p.leg = match first {
            'V' => Leg::Village,
            'W' => Leg::Well,
            'H' => Leg::Home,
            'x' => Leg::Eaten,
            '>' | '<' => {
                let d = digits(rest);
                p.pos = rest[..d].parse().ok()?;
                rest = &rest[d..];
                if p.pos > self.len {
                    return None;
                }
                if first == '>' { Leg::Out } else { Leg::Back }
            }
            _ => return None,
        };
        if p.leg == Leg::Well {
            p.pos = self.len;
        }
        if let Some(r) = rest.strip_prefix('p') {
            let d = digits(r);
            p.paid = r[..d].parse().ok()?;
            rest = &r[d..];
        }
        if let Some(r) = rest.strip_prefix('k') {
            let mut kept = [0u32; 3];
            let mut r = r;
            for (i, k) in kept.iter_mut().enumerate() {
                if i > 0 {
                    r = r.strip_prefix('.')?;
                }
                let d = digits(r);
                *k = r[..d].parse().ok()?;
                r = &r[d..];
            }
            p.kept = kept;
            rest = r;
        }
        if let Some(r) = rest.strip_prefix('f') {
            p.first_back = true;
            rest = r;
        }
        rest.is_empty().then_some(p)
    }

    /// The seats whose mother has left the village, as a reader assumes them.
    fn left_by_default(&self, s: &SpiralRaceState) -> [bool; MAX_PLAYERS] {
        std::array::from_fn(|seat| seat < self.players && s.mothers[seat].leg != Leg::Village)
    }

    /// The mothers shown eaten.
    fn eaten_by_default(&self, s: &SpiralRaceState) -> u8 {
        s.mothers[..self.players]
            .iter()
            .filter(|m| m.leg == Leg::Eaten)
            .count() as u8
    }

    /// The position's notation.
    pub(super) fn notation(&self, s: &SpiralRaceState) -> String {
        let k = self.players;
        let mut w = Notation::new();
        let mothers: Vec<String> = s.mothers[..k].iter().map(|m| self.piece_token(m)).collect();
        w.field("mothers", mothers.join(","));
        w.field("to-move", s.mover + 1);
        if s.hyena_player != NONE {
            w.field(
                "hyena",
                format!("{}@{}", self.piece_token(&s.hyena), s.hyena_player + 1),
            );
        }
        if s.phase == Phase::Decide {
            w.field("throw", s.throw);
        }
        w.numbers_unless_zero("bank", &s.bank[..k]);
        w.numbers_unless_zero("set-aside", &s.set_aside[..k]);
        w.numbers_unless_zero("fate", &s.fate[..k]);
        if s.left != self.left_by_default(s) {
            let left: Vec<usize> = (0..k).filter(|&seat| s.left[seat]).map(|x| x + 1).collect();
            w.field(
                "left",
                if left.is_empty() {
                    "-".to_owned()
                } else {
                    join(&left, ",")
                },
            );
        }
        w.field_unless("eaten", s.eaten, self.eaten_by_default(s));
        w.flag("kept-played", s.kept_played);
        if s.phase == Phase::Lot {
            w.field("phase", "lot");
        }
        w.clock(&s.clock);
        w.finish()
    }

    /// Reads a position and settles it.
    pub(super) fn read_position(&self, text: &str) -> Result<SpiralRaceState, PositionError> {
        let f = Fields::parse(text, FIELDS)?;
        let k = self.players;
        let mut s = self.initial();
        let mothers = f.required("mothers")?;
        let tokens: Vec<&str> = mothers.value.split(',').collect();
        if tokens.len() != k {
            return Err(mothers.error_because(&format!(
                "\"{}\" has {} mother(s) where this game has {k} players; expected {}",
                mothers.value,
                tokens.len(),
                FIELDS[0].form
            )));
        }
        for (seat, token) in tokens.iter().enumerate() {
            s.mothers[seat] = self
                .piece_of(token)
                .ok_or_else(|| self.piece_error(mothers.part(token)))?;
        }
        s.mover = f.required("to-move")?.seat(k)? as u8;
        if let Some(h) = f.get("hyena") {
            let (token, seat) = h
                .value
                .split_once('@')
                .and_then(|(t, seat)| Some((t, seat_of(seat, k)?)))
                .ok_or_else(|| self.piece_error(h))?;
            let hyena = self
                .piece_of(token)
                .filter(|p| p.leg != Leg::Eaten)
                .ok_or_else(|| self.piece_error(h.part(token)))?;
            s.hyena = hyena;
            s.hyena_player = seat as u8;
        }
        let per_seat = |key: &str| -> Result<[u32; MAX_PLAYERS], PositionError> {
            let v = f.numbers_or_zero::<u32>(key, k)?;
            let mut out = [0; MAX_PLAYERS];
            out[..k].copy_from_slice(&v);
            Ok(out)
        };
        s.bank = per_seat("bank")?;
        s.set_aside = per_seat("set-aside")?;
        s.fate = per_seat("fate")?;
        s.left = match f.get("left") {
            None => self.left_by_default(&s),
            Some(l) if l.value == "-" => [false; MAX_PLAYERS],
            Some(l) => {
                let mut left = [false; MAX_PLAYERS];
                for part in l.value.split(',') {
                    left[l.part(part).seat(k)?] = true;
                }
                left
            }
        };
        s.eaten = f.number_or("eaten", self.eaten_by_default(&s))?;
        s.kept_played = f.flag("kept-played")?;
        let lot = match f.get("phase") {
            None => false,
            Some(p) => p.choice(&["lot", "play"])? == 0,
        };
        s.phase = match (lot, f.get("throw")) {
            (true, Some(t)) => return Err(t.error_because("no throw is in hand before the lot")),
            (true, None) => Phase::Lot,
            (false, Some(t)) => {
                let throw = t.number::<u8>()?;
                if !sticks::THROWS.contains(&throw) {
                    return Err(t.error());
                }
                s.throw = throw;
                Phase::Decide
            }
            (false, None) => Phase::Throw,
        };
        s.clock = f.clock(k)?;
        s.outcome = None;
        if !lot {
            self.end_tests(&mut s, &mut NoEvents);
        }
        Ok(s)
    }

    /// The error for a piece's token.
    fn piece_error(&self, f: Field<'_>) -> PositionError {
        f.error_because(&format!(
            "\"{}\" is not a piece: expected {PIECE}, on a spiral of {} hollows (the hyena with \
             @ and the seat that plays him)",
            f.value, self.len
        ))
    }
}
