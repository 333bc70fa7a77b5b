//! The sowing games' position notation ([`crate::games::position`]): the houses row by row,
//! the seat to decide, and whatever else the reading keeps (takings, daughters, the houses'
//! owners between stages, debts, points, the distribution under way), each field printed
//! only where it differs from what a reader assumes without it.

use super::*;
use crate::games::position::{
    self, Field, FieldSpec, Fields, Notation, PositionError, join, seat_of,
};

/// The fields, in the order they are written.
pub(super) const FIELDS: &[FieldSpec] = &[
    FieldSpec {
        key: "rows",
        form: "each seat's houses from its own left, counts separated by commas, seat 1's row \
               (a1, a2, …) then seat 2's (b1, b2, …) after a slash (rows=3,3,3/3,3,3)",
        required: true,
    },
    position::TO_MOVE,
    FieldSpec {
        key: "taken",
        form: "the counters each seat has taken, seat 1's first (taken=4,0); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "daughters",
        form: "the daughters, each a house and the seat whose daughter it is, separated by \
               commas (daughters=a2:1,b3:2); none when left out",
        required: false,
    },
    FieldSpec {
        key: "owners",
        form: "the seat that owns each house, 1, 2 or - for nobody, a character a house in the \
               order of rows (owners=1112/222-); each row its seat's when left out",
        required: false,
    },
    FieldSpec {
        key: "out",
        form: "the counters out of play, a whole number (out=2); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "debt",
        form: "the counters each seat owes the other, seat 1's first (debt=0,3); 0,0 when left \
               out",
        required: false,
    },
    FieldSpec {
        key: "points",
        form: "each seat's points across boards, seat 1's first (points=2,-2); 0,0 when left out",
        required: false,
    },
    FieldSpec {
        key: "stage",
        form: "the stages completed, a whole number (stage=1); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "stake",
        form: "what each seat held when the stage began, on the board and in hand (stake=18,18); \
               the first stage's when left out",
        required: false,
    },
    FieldSpec {
        key: "tied",
        form: "yes where the holdings were equal at the last reckoning (tied=yes); no when left \
               out",
        required: false,
    },
    FieldSpec {
        key: "phase",
        form: "lot, distribute, turn-choice, place-extra or play (phase=distribute); play when \
               left out",
        required: false,
    },
    FieldSpec {
        key: "hand",
        form: "the counters still to distribute, a whole number (hand=36); 0 when left out",
        required: false,
    },
    FieldSpec {
        key: "distributor",
        form: "the seat that distributes (or distributed) the board, 1 or 2 (distributor=2); 1 \
               when left out",
        required: false,
    },
    FieldSpec {
        key: "manner",
        form: "the manner of the distribution: even, corresponding, conventional-four, \
               half-and-half, one-a-side, all-houses, lane-manners or free \
               (manner=one-a-side); the reading's when left out",
        required: false,
    },
    FieldSpec {
        key: "placing",
        form: "at phase=place-extra, the larger holder, the houses each seat will own and who \
               would have moved next, as seat:houses,houses:seat (placing=1:8,4:2)",
        required: false,
    },
];

/// The phases as the notation names them.
const PHASES: [(&str, Phase); 5] = [
    ("lot", Phase::Lot),
    ("distribute", Phase::Distribute),
    ("turn-choice", Phase::TurnChoice),
    ("place-extra", Phase::PlaceExtra),
    ("play", Phase::Play),
];

/// Every manner of distribution, as the rulesets name them.
const DISTRIBUTIONS: [Distribution; 8] = [
    Distribution::Even,
    Distribution::Corresponding,
    Distribution::ConventionalFour,
    Distribution::HalfAndHalf,
    Distribution::OneASide,
    Distribution::AllHouses,
    Distribution::LaneManners,
    Distribution::Free,
];

impl Sowing {
    /// The position's notation.
    pub(super) fn notation(&self, s: &SowingState) -> String {
        let n = self.n;
        let mut w = Notation::new();
        let row = |seat: usize| join(&s.pos.board[seat * n..(seat + 1) * n], ",");
        w.field("rows", format!("{}/{}", row(0), row(1)));
        w.field("to-move", s.mover + 1);
        w.numbers_unless_zero("taken", &s.pos.store);
        let daughters: Vec<String> = (0..self.r)
            .filter_map(|h| {
                s.daughter(h)
                    .map(|seat| format!("{}:{}", house_name(h, n), seat + 1))
            })
            .collect();
        if !daughters.is_empty() {
            w.field("daughters", daughters.join(","));
        }
        if s.pos.owner[..self.r] != self.row[..self.r] {
            let owner = |h: usize| match s.pos.owner[h] {
                NO_SEAT => '-',
                o => char::from(b'1' + o),
            };
            let row = |seat: usize| (seat * n..(seat + 1) * n).map(owner).collect::<String>();
            w.field("owners", format!("{}/{}", row(0), row(1)));
        }
        w.field_unless("out", s.pos.discarded, 0);
        w.numbers_unless_zero("debt", &s.debt);
        w.numbers_unless_zero("points", &s.points);
        w.field_unless("stage", s.stages, 0);
        if s.stake != self.first_stake() {
            w.field("stake", join(&s.stake, ","));
        }
        w.flag("tied", s.tied);
        if let Some((name, _)) = PHASES.iter().find(|(_, p)| *p == s.phase)
            && s.phase != Phase::Play
        {
            w.field("phase", name);
        }
        w.field_unless("hand", s.hand, 0);
        w.field_unless("distributor", s.distributor + 1, 1);
        if s.manner != self.p.distribution {
            w.field("manner", kebab_name(&s.manner));
        }
        if let Some(p) = s.placing {
            w.field(
                "placing",
                format!(
                    "{}:{},{}:{}",
                    p.seat + 1,
                    p.houses[0],
                    p.houses[1],
                    p.next + 1
                ),
            );
        }
        w.clock(&s.clock);
        w.finish()
    }

    /// What each seat holds when the first stage begins.
    fn first_stake(&self) -> [u32; 2] {
        [self.n as u32 * u32::from(self.p.counters); 2]
    }

    /// Reads a position and settles it.
    pub(super) fn read_position(&self, text: &str) -> Result<SowingState, PositionError> {
        let f = Fields::parse(text, FIELDS)?;
        let n = self.n;
        let mut s = self.initial();
        s.pos = Pos {
            board: [0; RING],
            store: [0; 2],
            mark: [0; RING],
            owner: self.row,
            discarded: 0,
        };
        let rows = f.required("rows")?;
        let halves: Vec<&str> = rows.value.split('/').collect();
        if halves.len() != 2 {
            return Err(rows.error_because(&format!(
                "\"{}\" is not two rows; expected {}",
                rows.value, FIELDS[0].form
            )));
        }
        for (seat, half) in halves.iter().enumerate() {
            let counts = rows.part(half).numbers::<u16>(n, ",")?;
            s.pos.board[seat * n..(seat + 1) * n].copy_from_slice(&counts);
        }
        s.mover = f.required("to-move")?.seat(2)? as u8;
        let taken = f.numbers_or_zero::<u32>("taken", 2)?;
        s.pos.store = [taken[0], taken[1]];
        if let Some(d) = f.get("daughters") {
            if self.p.daughters == Daughters::None {
                return Err(d.error_because("this reading has no daughters"));
            }
            for part in d.value.split(',') {
                let (house, seat) = part
                    .split_once(':')
                    .and_then(|(h, seat)| Some((self.house_of(h)?, seat_of(seat, 2)?)))
                    .ok_or_else(|| {
                        d.part(part).error_because(&format!(
                            "\"{part}\" is not a house of this board (a1 to a{n}, b1 to b{n}) \
                             and a seat, 1 or 2 (daughters=a2:1,b3:2)"
                        ))
                    })?;
                s.pos.mark[house] = seat as u8 + 1;
            }
        }
        if let Some(o) = f.get("owners") {
            if !self.dynamic {
                return Err(o.error_because(
                    "in this reading each row is always its seat's; leave owners out",
                ));
            }
            let rows: Vec<&str> = o.value.split('/').collect();
            let ok = rows.len() == 2 && rows.iter().all(|r| r.chars().count() == n);
            if !ok {
                return Err(o.error_because(&format!(
                    "\"{}\" is not two rows of {n} characters; expected {}",
                    o.value, FIELDS[4].form
                )));
            }
            for (seat, row) in rows.iter().enumerate() {
                for (j, (at, c)) in row.char_indices().enumerate() {
                    s.pos.owner[seat * n + j] = match c {
                        '1' => 0,
                        '2' => 1,
                        '-' => NO_SEAT,
                        _ => return Err(o.part(&row[at..at + c.len_utf8()]).error()),
                    };
                }
            }
        }
        s.pos.discarded = f.number_or("out", 0u32)?;
        let debt = f.numbers_or_zero::<u32>("debt", 2)?;
        s.debt = [debt[0], debt[1]];
        let points = f.numbers_or_zero::<i32>("points", 2)?;
        s.points = [points[0], points[1]];
        s.stages = f.number_or("stage", 0u32)?;
        s.stake = match f.get("stake") {
            None => self.first_stake(),
            Some(stake) => {
                let v = stake.numbers::<u32>(2, ",")?;
                [v[0], v[1]]
            }
        };
        s.tied = f.flag("tied")?;
        s.phase = match f.get("phase") {
            None => Phase::Play,
            Some(p) => PHASES[p.choice(&PHASES.map(|(name, _)| name))?].1,
        };
        s.hand = f.number_or("hand", 0u32)?;
        s.distributor = f.seat_or("distributor", 2, 0)? as u8;
        s.manner = match f.get("manner") {
            None => self.p.distribution,
            Some(m) => m.choice_by(&DISTRIBUTIONS, kebab_name)?,
        };
        s.placing = match (f.get("placing"), s.phase) {
            (None, Phase::PlaceExtra) => {
                return Err(f
                    .required("phase")?
                    .error_because("phase=place-extra needs the placing field (placing=1:8,4:2)"));
            }
            (None, _) => None,
            (Some(p), Phase::PlaceExtra) => Some(self.placing_of(p)?),
            (Some(p), _) => {
                return Err(p.error_because("a placing is pending only at phase=place-extra"));
            }
        };
        s.clock = f.clock(2)?;
        match (s.phase, s.hand) {
            (Phase::Distribute, 0) => {
                return Err(f.required("phase")?.error_because(
                    "phase=distribute needs counters in hand to distribute (hand=36)",
                ));
            }
            (Phase::Lot | Phase::Distribute, _) | (_, 0) => {}
            _ => {
                return Err(f.required("hand")?.error_because(
                    "counters are in hand only before or during the distribution \
                     (phase=lot or phase=distribute)",
                ));
            }
        }
        // What the engine keeps from its history starts afresh: the positions met, the
        // stages that ended before any decision, and the search for an endless game. A set
        // position is not the start of a game (a tie here replays from the start).
        s.history.clear();
        s.idle_stages.clear();
        s.search_after = 0;
        s.search_gap = 0;
        s.game_start = u32::MAX;
        s.outcome = None;
        s.must_feed = false;
        s.owned = self.owner_masks(&s.pos);
        s.sowable = [0; 2];
        self.settle(&mut s, &mut NoEvents);
        Ok(s)
    }

    /// A house by name (`a3`), as a circuit index.
    fn house_of(&self, name: &str) -> Option<usize> {
        let seat = match name.as_bytes().first()? {
            b'a' => 0,
            b'b' => 1,
            _ => return None,
        };
        let j: usize = name[1..].parse().ok()?;
        (1..=self.n).contains(&j).then(|| seat * self.n + j - 1)
    }

    /// The pending reset's placing, `seat:houses,houses:next`.
    fn placing_of(&self, f: Field<'_>) -> Result<Placing, PositionError> {
        let seat = |t: &str| seat_of(t, 2).map(|s| s as u8);
        let parts: Vec<&str> = f.value.split(':').collect();
        let parsed = match parts.as_slice() {
            [w, houses, next] => houses.split_once(',').and_then(|(a, b)| {
                Some(Placing {
                    seat: seat(w)?,
                    houses: [a.parse().ok()?, b.parse().ok()?],
                    next: seat(next)?,
                })
            }),
            _ => None,
        };
        parsed
            .filter(|p| usize::from(p.houses[0]) + usize::from(p.houses[1]) <= self.r)
            .ok_or_else(|| f.error())
    }
}
