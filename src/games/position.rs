//! The position notation: a position as one line of `field=value` words
//! (`rows=3,3,3/3,3,3 to-move=1 taken=0,0`), written by every engine
//! ([`crate::games::Rules::position_text`]) and read back into a playable state
//! ([`crate::games::Rules::parse_position`]), so that a position can be copied out of one
//! command (`explain` prints it at every ply) into another (`--position`).
//!
//! This module owns what every family shares: the words and their columns, the fields each
//! family declares with the form it expects ([`FieldSpec`]), the seats (`1`, `2`, … as every
//! output numbers them), the clock's fields, and the one error type, which names the column,
//! the field and the form expected. Each family writes and reads its own fields (its
//! `position.rs`), printing only those that differ from what a reader assumes when the field
//! is left out, so that a position at the start of play is short and one deep in a game
//! still round-trips.
//!
//! Architecture Invariant: for every position an engine reaches at a decision or a chance
//! step, `parse_position(position_text(s))` is a state that plays on exactly as `s` does,
//! except for what a position does not hold: the positions met before it (a repetition rule
//! counts from the parsed position) and when the engine last searched for an endless game.
//! `tests/position.rs` plays every reading to hold it.

use std::fmt;
use std::str::FromStr;

use super::Seat;
use super::core::Clock;

/// One field a family's notation may hold: its name and the form it expects, with an
/// example (the error names it, and the guide lists it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    /// The field's name (`rows`, `to-move`).
    pub key: &'static str,
    /// What its value must be, with an example.
    pub form: &'static str,
    /// Whether a position must give it.
    pub required: bool,
}

/// The seat to decide, in the two-seat games whose seats always decide (no throw).
pub const TO_MOVE: FieldSpec = FieldSpec {
    key: "to-move",
    form: "the seat to decide, 1 or 2 (to-move=1)",
    required: true,
};

/// The throw in hand, in the stick games.
pub const THROW: FieldSpec = FieldSpec {
    key: "throw",
    form: "the throw in hand that the seat to move is to use, 1, 2, 4 or 6 (throw=4); when left \
           out the seat is about to throw",
    required: false,
};

/// A lot for the first mover still to be drawn, in the stick games.
pub const LOT: FieldSpec = FieldSpec {
    key: "phase",
    form: "lot where the lot for the first thrower is pending (phase=lot); play when left out",
    required: false,
};

/// The clock's fields, which every family's notation accepts.
pub const CLOCK_FIELDS: [FieldSpec; 5] = [
    FieldSpec {
        key: "ply",
        form: "the decisions made so far, a whole number (ply=40); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "turn",
        form: "the turns so far (runs of decisions by one seat), a whole number no larger \
               than ply (turn=31); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "last",
        form: "the seat that made the last decision (last=2); nobody when left out",
        required: false,
    },
    FieldSpec {
        key: "first",
        form: "the seat that made the first decision of play (first=1); nobody when left out",
        required: false,
    },
    FieldSpec {
        key: "passes",
        form: "the passes made in a row up to now, a whole number (passes=1); 0 when left out",
        required: false,
    },
];

/// A position the notation cannot read: where, which field, and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}, {field}: {message}")]
pub struct PositionError {
    /// The column (from 1) of the word at fault, or just past the end for a missing field.
    pub column: usize,
    /// The field at fault (`field rows`), or what the word is (`word "x"`).
    pub field: String,
    /// What is wrong and what was expected.
    pub message: String,
}

/// A position being written: its words, in order.
#[derive(Debug, Default)]
pub struct Notation {
    words: Vec<String>,
}

impl Notation {
    /// No words yet.
    pub fn new() -> Self {
        Notation::default()
    }

    /// Adds `key=value`.
    pub fn field(&mut self, key: &str, value: impl fmt::Display) {
        self.words.push(format!("{key}={value}"));
    }

    /// Adds `key=value` unless `value` is what a reader assumes without it.
    pub fn field_unless<T: fmt::Display + PartialEq>(&mut self, key: &str, value: T, default: T) {
        if value != default {
            self.field(key, value);
        }
    }

    /// Adds `key=a,b,…` unless every number is 0.
    pub fn numbers_unless_zero<T: fmt::Display + Default + PartialEq>(
        &mut self,
        key: &str,
        values: &[T],
    ) {
        if values.iter().any(|v| *v != T::default()) {
            self.field(key, join(values, ","));
        }
    }

    /// Adds `key=yes` where `on`.
    pub fn flag(&mut self, key: &str, on: bool) {
        if on {
            self.field(key, "yes");
        }
    }

    /// The clock's fields, each where it differs from a new clock.
    pub fn clock(&mut self, clock: &Clock) {
        let (plies, turns, last, first, passes) = clock.parts();
        self.field_unless("ply", plies, 0);
        self.field_unless("turn", turns, 0);
        if let Some(seat) = last {
            self.field("last", seat + 1);
        }
        if let Some(seat) = first {
            self.field("first", seat + 1);
        }
        self.field_unless("passes", passes, 0);
    }

    /// The line.
    pub fn finish(self) -> String {
        self.words.join(" ")
    }
}

/// Values joined by `sep`.
pub fn join<T: fmt::Display>(values: &[T], sep: &str) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// A position's words, read and checked against the fields its family declares.
#[derive(Debug)]
pub struct Fields<'a> {
    specs: &'static [FieldSpec],
    words: Vec<Field<'a>>,
    end: usize,
}

/// One `key=value` word of a position.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    spec: FieldSpec,
    /// The value as written.
    pub value: &'a str,
    /// The column (from 1) where the value starts.
    pub column: usize,
}

impl<'a> Fields<'a> {
    /// Splits `text` into words and checks each names a field of `specs` (or the clock's)
    /// once, and that every required field is there.
    ///
    /// # Errors
    /// A word that is not `key=value`, an unknown or repeated field, a missing one.
    pub fn parse(text: &'a str, specs: &'static [FieldSpec]) -> Result<Self, PositionError> {
        let known = || {
            specs
                .iter()
                .chain(&CLOCK_FIELDS)
                .map(|s| s.key)
                .collect::<Vec<_>>()
                .join(", ")
        };
        // Words are separated by any white space, so that a position copied from a wrapped
        // text (a line break and an indent inside it) still reads.
        let mut spans = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    spans.push((s, &text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        let mut words: Vec<Field<'a>> = Vec::new();
        for (at, word) in spans {
            let column = text[..at].chars().count() + 1;
            let Some((key, value)) = word.split_once('=') else {
                return Err(PositionError {
                    column,
                    field: format!("word \"{word}\""),
                    message: format!(
                        "a position is words of the form field=value, separated by spaces; \
                         the fields are: {}",
                        known()
                    ),
                });
            };
            let Some(spec) = specs.iter().chain(&CLOCK_FIELDS).find(|s| s.key == key) else {
                return Err(PositionError {
                    column,
                    field: format!("field {key}"),
                    message: format!("no such field in this game; the fields are: {}", known()),
                });
            };
            if words.iter().any(|w| w.spec.key == key) {
                return Err(PositionError {
                    column,
                    field: format!("field {key}"),
                    message: "given twice; give each field once".to_owned(),
                });
            }
            words.push(Field {
                spec: *spec,
                value,
                column: column + key.chars().count() + 1,
            });
        }
        let end = text.chars().count() + 1;
        if let Some(missing) = specs
            .iter()
            .find(|s| s.required && !words.iter().any(|w| w.spec.key == s.key))
        {
            return Err(PositionError {
                column: end,
                field: format!("field {}", missing.key),
                message: format!("missing; expected {}", missing.form),
            });
        }
        Ok(Fields { specs, words, end })
    }

    /// The field `key`, if the position gives it.
    pub fn get(&self, key: &str) -> Option<Field<'a>> {
        debug_assert!(
            self.specs.iter().chain(&CLOCK_FIELDS).any(|s| s.key == key),
            "a family reads only fields it declares"
        );
        self.words.iter().find(|w| w.spec.key == key).copied()
    }

    /// The field `key`, which [`Fields::parse`] checked is there.
    pub fn required(&self, key: &str) -> Result<Field<'a>, PositionError> {
        self.get(key).ok_or_else(|| PositionError {
            column: self.end,
            field: format!("field {key}"),
            message: "missing".to_owned(),
        })
    }

    /// A whole number, or `default` when the field is left out.
    pub fn number_or<T: FromStr + Copy>(&self, key: &str, default: T) -> Result<T, PositionError> {
        self.get(key).map_or(Ok(default), |f| f.number())
    }

    /// `n` whole numbers separated by commas, or `n` zeros when the field is left out.
    pub fn numbers_or_zero<T: FromStr + Copy + Default>(
        &self,
        key: &str,
        n: usize,
    ) -> Result<Vec<T>, PositionError> {
        self.get(key)
            .map_or(Ok(vec![T::default(); n]), |f| f.numbers(n, ","))
    }

    /// A seat among `seats`, or `default` when the field is left out.
    pub fn seat_or(&self, key: &str, seats: usize, default: Seat) -> Result<Seat, PositionError> {
        self.get(key).map_or(Ok(default), |f| f.seat(seats))
    }

    /// `yes` or `no`, `no` when the field is left out.
    pub fn flag(&self, key: &str) -> Result<bool, PositionError> {
        match self.get(key) {
            None => Ok(false),
            Some(f) => match f.value {
                "yes" => Ok(true),
                "no" => Ok(false),
                _ => Err(f.error()),
            },
        }
    }

    /// The clock's fields, a new clock's where left out; `seats` bounds `last` and `first`.
    pub fn clock(&self, seats: usize) -> Result<Clock, PositionError> {
        let plies = self.number_or("ply", 0u32)?;
        let turns = self.number_or("turn", 0u32)?;
        if turns > plies {
            return Err(self.required("turn")?.error());
        }
        let seat = |key: &str| {
            self.get(key)
                .map(|f| f.seat(seats).map(|s| s as u8))
                .transpose()
        };
        let passes = self.number_or("passes", 0u8)?;
        Ok(Clock::from_parts(
            plies,
            turns,
            seat("last")?,
            seat("first")?,
            passes,
        ))
    }
}

impl<'a> Field<'a> {
    /// The field's name.
    pub fn key(&self) -> &'static str {
        self.spec.key
    }

    /// The error for this field's value: what it is, and the form expected.
    pub fn error(&self) -> PositionError {
        self.error_because(&format!("\"{}\" is not {}", self.value, self.spec.form))
    }

    /// The error for this field's value, for a reason of the family's (more pieces than a
    /// seat has, a house that does not exist).
    pub fn error_because(&self, reason: &str) -> PositionError {
        PositionError {
            column: self.column,
            field: format!("field {}", self.spec.key),
            message: reason.to_owned(),
        }
    }

    /// The value as a whole number.
    pub fn number<T: FromStr>(&self) -> Result<T, PositionError> {
        number(self.value).ok_or_else(|| self.error())
    }

    /// Exactly `n` whole numbers separated by `sep`.
    pub fn numbers<T: FromStr>(&self, n: usize, sep: &str) -> Result<Vec<T>, PositionError> {
        let parts: Vec<&str> = self.value.split(sep).collect();
        if parts.len() != n {
            return Err(self.error_because(&format!(
                "\"{}\" has {} value(s) where this game has {n}; expected {}",
                self.value,
                parts.len(),
                self.spec.form
            )));
        }
        parts
            .iter()
            .map(|p| number(p).ok_or_else(|| self.part(p).error()))
            .collect()
    }

    /// The value as a seat (`1` to `seats`), numbered from 1 as every output numbers them.
    pub fn seat(&self, seats: usize) -> Result<Seat, PositionError> {
        seat_of(self.value, seats).ok_or_else(|| {
            self.error_because(&format!(
                "\"{}\" is not {}; this game's seats are 1 to {seats}",
                self.value, self.spec.form
            ))
        })
    }

    /// A part of the value (`sub` must be a slice of it, as `split` gives), as a field of
    /// its own whose errors point at the part's column.
    pub fn part(&self, sub: &'a str) -> Field<'a> {
        let offset = (sub.as_ptr() as usize)
            .checked_sub(self.value.as_ptr() as usize)
            .filter(|&o| o <= self.value.len())
            .unwrap_or(0);
        let column = self.column + self.value[..offset].chars().count();
        Field {
            spec: self.spec,
            value: sub,
            column,
        }
    }

    /// The value as one of `items`, each named by `name`.
    pub fn choice_by<T: Copy>(
        &self,
        items: &[T],
        name: impl Fn(&T) -> String,
    ) -> Result<T, PositionError> {
        items
            .iter()
            .find(|i| name(i) == self.value)
            .copied()
            .ok_or_else(|| self.error())
    }

    /// The value as one of `names`: its index.
    pub fn choice(&self, names: &[&str]) -> Result<usize, PositionError> {
        names
            .iter()
            .position(|n| *n == self.value)
            .ok_or_else(|| self.error())
    }
}

/// A seat written from 1 (`2` is the second seat), among `seats`.
pub fn seat_of(text: &str, seats: usize) -> Option<Seat> {
    number::<usize>(text)
        .filter(|s| (1..=seats).contains(s))
        .map(|s| s - 1)
}

/// A whole number written in decimal digits, with a leading `-` where `T` is signed (no
/// `+`, no spaces).
fn number<T: FromStr>(text: &str) -> Option<T> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[FieldSpec] = &[
        FieldSpec {
            key: "rows",
            form: "rows of counts (rows=1,2/3,4)",
            required: true,
        },
        FieldSpec {
            key: "to-move",
            form: "a seat, 1 or 2 (to-move=1)",
            required: true,
        },
        FieldSpec {
            key: "taken",
            form: "two counts (taken=0,3)",
            required: false,
        },
    ];

    #[test]
    fn words_are_checked_against_the_fields() {
        let f = Fields::parse("rows=1,2/3,4  to-move=2\n  ply=7 turn=5 last=1", SPECS).unwrap();
        assert_eq!(f.required("to-move").unwrap().seat(2).unwrap(), 1);
        assert_eq!(f.numbers_or_zero::<u32>("taken", 2).unwrap(), vec![0, 0]);
        let clock = f.clock(2).unwrap();
        assert_eq!((clock.plies(), clock.turns()), (7, 5));
        let mut n = Notation::new();
        n.clock(&clock);
        assert_eq!(n.finish(), "ply=7 turn=5 last=1");

        let e = Fields::parse("rows=1 to-move=1 colour=red", SPECS).unwrap_err();
        assert_eq!(e.column, 18);
        assert!(e.to_string().contains("field colour"), "{e}");
        assert!(e.to_string().contains("rows, to-move, taken, ply"), "{e}");
        let e = Fields::parse("rows=1", SPECS).unwrap_err();
        assert_eq!((e.column, e.field.as_str()), (7, "field to-move"));
        assert!(e.message.contains("a seat, 1 or 2"), "{e}");
        let e = Fields::parse("rows=1 rows=2 to-move=1", SPECS).unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = Fields::parse("rows=1 x to-move=1", SPECS).unwrap_err();
        assert_eq!(e.column, 8);
        let f = Fields::parse("rows=1 to-move=3 taken=1,x ply=2 turn=3", SPECS).unwrap();
        let e = f.required("to-move").unwrap().seat(2).unwrap_err();
        assert_eq!(e.column, 16);
        assert!(e.to_string().contains("\"3\" is not a seat"), "{e}");
        let e = f.numbers_or_zero::<u32>("taken", 2).unwrap_err();
        assert!(e.to_string().contains("\"x\" is not two counts"), "{e}");
        let e = f.numbers_or_zero::<u32>("rows", 3).unwrap_err();
        assert!(
            e.to_string()
                .contains("has 1 value(s) where this game has 3"),
            "{e}"
        );
        assert!(f.clock(2).is_err(), "more turns than plies");
    }

    #[test]
    fn numbers_are_digits_only() {
        assert_eq!(number::<u32>("12"), Some(12));
        for bad in ["", "+1", "-1", "1.0", " 1", "99999999999", "-"] {
            assert_eq!(number::<u32>(bad), None, "{bad:?}");
        }
        assert_eq!(number::<i32>("-3"), Some(-3));
        assert_eq!(seat_of("0", 2), None);
        assert_eq!(seat_of("2", 2), Some(1));
    }
}
