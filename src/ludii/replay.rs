//! Replaying Ludii's recorded games (the traces of `tests/data/ludii-traces/TRACES.md`)
//! decision by decision through an engine: the project's perft.
//!
//! A trace file holds one playout per line: the start, every decision (the mover, Ludii's
//! legal moves as compact descriptors, the index chosen, the state after it, and in the stick
//! games the throw that came before it), and the result. For every decision the replayer
//! resolves the recorded throw as the engine's chance outcome, checks that the same seat is to
//! move, lists the engine's legal moves as Ludii descriptors and compares the lists (as
//! multisets, duplicates included, as TRACES.md prescribes; in order where Ludii's order is
//! reproducible), plays the recorded choice, and compares every state field the trace
//! records; at the end it compares the result. The first divergence of each playout is kept
//! with what was expected, what the engine did, and the position before it.
//!
//! Nothing passes unchecked: a record that stops while the engine's game goes on, a recorded
//! move the engine cannot find, a recorded field the replay does not know, an outcome the
//! engine cannot state, or a file without a playout is a divergence or an input error, never a
//! silent match. The report counts the decisions
//! actually compared, so a short record cannot look like a full one.
//!
//! What a family needs is its [`Adapter`]: the state fields of a position in Ludii's site
//! numbering, a move's descriptor, the chance outcome of a recorded throw, and whether a
//! trace's start fits the reading's board. Parsing is separate ([`parse`]) so that a
//! malformed line is an input error naming its line, never a divergence.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::games::custodial::{Custodial, CustodialState};
use crate::games::sowing::{Sowing, SowingState};
use crate::games::stick_race::{StickRace, StickRaceState};
use crate::games::{Result_, Rules, Seat, Status};

/// One recorded playout (TRACES.md §2).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Playout {
    /// Its index in the file.
    pub playout: usize,
    /// The state after Ludii's start rules.
    pub init: serde_json::Map<String, Value>,
    /// Every decision.
    pub steps: Vec<Step>,
    /// How it ended.
    pub result: TraceResult,
}

/// One decision (TRACES.md §2.1).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The player (1-based) deciding.
    pub mover: usize,
    /// Ludii's legal moves, in its order.
    pub legal: Vec<String>,
    /// The index of the move played.
    pub chosen: usize,
    /// The state after it.
    pub after: serde_json::Map<String, Value>,
}

/// How a playout ended (TRACES.md §2.4).
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TraceResult {
    /// 1 or 2, or 0 for a draw.
    pub winner: usize,
    /// `natural`, `allPassDraw`, `turnLimit` or `moveLimit`.
    pub end: String,
    /// Whether the limit held at the end.
    pub limit_reached: bool,
    /// Decisions.
    pub moves: u32,
    /// Runs of decisions by one player.
    pub turns: u32,
    /// Ludii's ranks (every trace records them, so a result without them is malformed).
    pub ranking: Vec<f64>,
    /// Final scores, where the game scores (the adapter says which games must have them).
    #[serde(default)]
    pub score: Option<[u32; 2]>,
}

/// A trace file that is not one: a line that is not a playout, a playout that cannot belong
/// to the reading, or no playout at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct ParseError {
    /// 1-based line number, where one line is at fault (none for a file without playouts).
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// Where the trace format is described: a file of the source repository, not of the binary,
/// so a message says where to find it.
const TRACES: &str =
    "of TRACES.md, in ludotrace's source repository under tests/data/ludii-traces/";

/// Parses a trace file: one playout per non-empty line.
///
/// # Errors
/// [`ParseError`] for the first line that is not a playout.
pub fn parse(text: &str) -> Result<Vec<(usize, Playout)>, ParseError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str::<Playout>(l)
                .map(|p| (i + 1, p))
                .map_err(|e| ParseError {
                    line: Some(i + 1),
                    message: format!(
                        "not a trace playout: {} (see §2 {TRACES})",
                        crate::family::plain_type_words(&e.to_string())
                    ),
                })
        })
        .collect()
}

/// What the replayer needs of a family.
pub trait Adapter {
    /// The engine.
    type R: Rules;
    /// The engine.
    fn rules(&self) -> &Self::R;
    /// The state fields a trace records for this game, as Ludii shows them (`who`, `count`,
    /// `hand`, …), for the position `s`. `last` says whether it is the final position (some
    /// fields, such as the mancala scores, are filled only then).
    fn fields(&self, s: &<Self::R as Rules>::State, last: bool) -> Vec<(&'static str, Value)>;
    /// A move's Ludii descriptor in position `s` (`None` for a move Ludii cannot make).
    fn descriptor(
        &self,
        s: &<Self::R as Rules>::State,
        seat: Seat,
        mv: <Self::R as Rules>::Move,
    ) -> Option<String>;
    /// The chance outcome a decision's recorded state gives for the chance step before it
    /// (the stick throw), if the game throws.
    ///
    /// # Errors
    /// A message if the state lacks the throw or records an impossible one.
    fn throw(&self, after: &serde_json::Map<String, Value>) -> Result<Option<usize>, String> {
        let _ = after;
        Ok(None)
    }
    /// The fields of a step's recorded state that [`Adapter::throw`] reads (none where the
    /// game does not throw).
    fn throw_fields(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether the legal lists must also agree in order (TRACES.md §2.1).
    fn ordered(&self) -> bool {
        false
    }
    /// Whether Ludii records final scores for this game (TRACES.md §2.4), so that a result
    /// without them cannot pass.
    fn scores(&self) -> bool {
        false
    }
    /// The reading's engine cap as (turns, moves), to test Ludii's `limitReached`.
    fn cap(&self) -> Option<(u32, u32)>;
    /// Whether a trace's start can belong to this reading (its board's size).
    ///
    /// # Errors
    /// A message saying what the trace has and what the reading plays.
    fn fits(&self, init: &serde_json::Map<String, Value>) -> Result<(), String>;
}

/// Checks that `init` holds `field` as an array of `len` entries.
fn array_len(
    init: &serde_json::Map<String, Value>,
    field: &str,
    len: usize,
    what: &str,
) -> Result<(), String> {
    match init.get(field).and_then(Value::as_array) {
        None => Err(format!(
            "the trace's start has no `{field}` array: it is not a trace of {what}"
        )),
        Some(a) if a.len() != len => Err(format!(
            "the trace's `{field}` has {} sites; this reading plays {what} ({len} sites)",
            a.len()
        )),
        Some(_) => Ok(()),
    }
}

/// An engine cap as (turns, moves), unlimited where unset.
fn limits(cap: Option<crate::family::Cap>) -> Option<(u32, u32)> {
    cap.map(|c| (c.turns.unwrap_or(u32::MAX), c.moves))
}

/// The sowing games (Um el-Bagara, Um el Tuweisat).
pub struct SowingAdapter<'a>(pub &'a Sowing);

impl Adapter for SowingAdapter<'_> {
    type R = Sowing;
    fn rules(&self) -> &Sowing {
        self.0
    }
    fn fields(&self, s: &SowingState, last: bool) -> Vec<(&'static str, Value)> {
        let score = match (last, self.0.outcome(s)) {
            (true, Some(o)) => o.scores,
            _ => [0, 0],
        };
        vec![
            ("count", serde_json::json!(super::sowing_counts(self.0, s))),
            ("hand", serde_json::json!(super::sowing_hands(s))),
            ("score", serde_json::json!(score)),
        ]
    }
    fn descriptor(
        &self,
        _: &SowingState,
        _: Seat,
        mv: crate::games::sowing::SowingMove,
    ) -> Option<String> {
        Some(super::sowing_descriptor(self.0.holes(), mv))
    }
    fn ordered(&self) -> bool {
        true
    }
    fn scores(&self) -> bool {
        true
    }
    fn cap(&self) -> Option<(u32, u32)> {
        limits(self.0.params().cap)
    }
    fn fits(&self, init: &serde_json::Map<String, Value>) -> Result<(), String> {
        let n = self.0.holes();
        array_len(init, "count", 2 * n, &format!("two rows of {n} houses"))
    }
}

/// Seega.
pub struct CustodialAdapter<'a>(pub &'a Custodial);

impl Adapter for CustodialAdapter<'_> {
    type R = Custodial;
    fn rules(&self) -> &Custodial {
        self.0
    }
    fn fields(&self, s: &CustodialState, _: bool) -> Vec<(&'static str, Value)> {
        vec![
            ("who", serde_json::json!(super::custodial_who(self.0, s))),
            ("hand", serde_json::json!(s.hands())),
        ]
    }
    fn descriptor(
        &self,
        _: &CustodialState,
        seat: Seat,
        mv: crate::games::custodial::CustodialMove,
    ) -> Option<String> {
        Some(super::custodial_descriptor(self.0.size(), seat, mv))
    }
    fn cap(&self) -> Option<(u32, u32)> {
        limits(self.0.params().cap)
    }
    fn fits(&self, init: &serde_json::Map<String, Value>) -> Result<(), String> {
        let n = self.0.size();
        array_len(init, "who", n * n, &format!("a {n}×{n} board"))
    }
}

/// Sijat El Taba.
pub struct StickAdapter<'a>(pub &'a StickRace);

impl Adapter for StickAdapter<'_> {
    type R = StickRace;
    fn rules(&self) -> &StickRace {
        self.0
    }
    fn fields(&self, s: &StickRaceState, _: bool) -> Vec<(&'static str, Value)> {
        let (who, state) = super::stick_sites(self.0, s);
        vec![
            ("who", serde_json::json!(who)),
            ("state", serde_json::json!(state)),
            ("score", serde_json::json!(s.score())),
            ("value", serde_json::json!(s.bank())),
        ]
    }
    fn descriptor(
        &self,
        s: &StickRaceState,
        _: Seat,
        mv: crate::games::stick_race::StickMove,
    ) -> Option<String> {
        super::stick_descriptor(s, mv)
    }
    fn throw(&self, after: &serde_json::Map<String, Value>) -> Result<Option<usize>, String> {
        let t = after
            .get("throw")
            .and_then(Value::as_u64)
            .ok_or("the step's state has no `throw` (see §7 of TRACES.md, in ludotrace's source repository under tests/data/ludii-traces/)")?;
        // The sticks' faces and their sum are recorded beside the throw (TRACES.md §2.2);
        // they are checked against it, so that no recorded field goes unread.
        let dice = after
            .get("dice")
            .and_then(Value::as_array)
            .and_then(|d| d.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
            .filter(|d| d.len() == 3 && d.iter().all(|&f| f <= 1))
            .ok_or("the step's state has no `dice` of three faces 0 or 1 (see §2.2 of TRACES.md, in ludotrace's source repository under tests/data/ludii-traces/)")?;
        let pips: u64 = dice.iter().sum();
        match after.get("pips") {
            Some(p) if p.as_u64() == Some(pips) => {}
            Some(p) => return Err(format!("pips {p} is not the sum of the dice {dice:?}")),
            None => return Err("the step's state has no `pips` (see §2.2 of TRACES.md, in ludotrace's source repository under tests/data/ludii-traces/)".to_owned()),
        }
        // Pips 0 → 6, 1 → 1, 2 → 2, 3 → 4 (TRACES.md §2.2).
        let thrown = [6, 1, 2, 4][pips as usize];
        if t != thrown {
            return Err(format!(
                "throw {t} is not the throw of the dice {dice:?} ({thrown})"
            ));
        }
        u8::try_from(t)
            .ok()
            .and_then(super::stick_throw_outcome)
            .map(Some)
            .ok_or_else(|| format!("throw {t} is not a throw of the sticks (1, 2, 4 or 6)"))
    }
    fn throw_fields(&self) -> &'static [&'static str] {
        &["dice", "pips", "throw"]
    }
    fn scores(&self) -> bool {
        true
    }
    fn cap(&self) -> Option<(u32, u32)> {
        limits(self.0.params().cap)
    }
    fn fits(&self, init: &serde_json::Map<String, Value>) -> Result<(), String> {
        let (r, c) = (self.0.rows(), self.0.cols());
        array_len(init, "who", r * c, &format!("{r} rows of {c} houses"))
    }
}

/// The first divergence of a playout.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Divergence {
    /// The playout's index.
    pub playout: usize,
    /// The line of the file it is on.
    pub line: usize,
    /// The decision (0-based), or none for the start or the result.
    pub step: Option<usize>,
    /// What differs: `mover`, `legal`, `legal-order`, `choice`, `state`, `end` (one game goes
    /// on where the other ends, the record's end included), `result`.
    pub what: String,
    /// What Ludii recorded.
    pub expected: String,
    /// What the engine did.
    pub actual: String,
    /// The position before the decision (the engine's notation), and the move played.
    pub context: String,
}

/// A whole file's replay (`replay --format json`, schema_version 1).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Report {
    /// Always 1.
    pub schema_version: u32,
    /// The game.
    pub game: String,
    /// The reading.
    pub interpretation: String,
    /// Playouts replayed (each up to its first divergence).
    pub playouts: usize,
    /// Decisions in the file.
    pub decisions: usize,
    /// Playouts with at least one divergence.
    pub divergences: usize,
    /// Whether the legal lists were also compared in order (where Ludii's order is
    /// reproducible: the mancala games), not only as multisets.
    pub legal_order_checked: bool,
    /// The first divergence of each playout that has one.
    pub first_divergences: Vec<Divergence>,
    /// Decisions actually replayed and compared: every decision of a playout without a
    /// divergence, and of one with, those up to and including the decision where it diverges
    /// (none for a start that differs). Equal to `decisions` when nothing diverges.
    pub decisions_checked: usize,
}

/// The multiset difference of two descriptor lists: (missing from ours, extra in ours).
fn multiset_difference(ludii: &[String], ours: &[String]) -> (Vec<String>, Vec<String>) {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for d in ludii {
        *count.entry(d).or_default() += 1;
    }
    for d in ours {
        *count.entry(d).or_default() -= 1;
    }
    let (mut missing, mut extra) = (Vec::new(), Vec::new());
    for (d, c) in count {
        for _ in 0..c.max(0) {
            missing.push(d.to_owned());
        }
        for _ in 0..(-c).max(0) {
            extra.push(d.to_owned());
        }
    }
    (missing, extra)
}

/// Compares the recorded state fields with the engine's. A recorded field that is neither
/// among ours nor one of `chance` (read by [`Adapter::throw`]) is a difference too: a field
/// the replay does not know is one it has not checked.
fn compare_fields(
    ours: &[(&'static str, Value)],
    theirs: &serde_json::Map<String, Value>,
    chance: &[&str],
) -> Option<(String, String)> {
    let mut expected = Vec::new();
    let mut actual = Vec::new();
    for (name, t) in theirs {
        let known = ours.iter().any(|(n, _)| n == name) || chance.contains(&name.as_str());
        if !known {
            expected.push(format!("{name} {t}"));
            actual.push(format!("{name} (not a field of this game)"));
        }
    }
    for (name, value) in ours {
        match theirs.get(*name) {
            Some(t) if t == value => {}
            Some(t) => {
                expected.push(format!("{name} {t}"));
                actual.push(format!("{name} {value}"));
            }
            None => {
                expected.push(format!("{name} (not recorded)"));
                actual.push(format!("{name} {value}"));
            }
        }
    }
    (!expected.is_empty()).then(|| (expected.join("; "), actual.join("; ")))
}

/// How the engine's game stands where a record has ended it, in the trace's terms.
fn waiting(status: Status) -> String {
    match status {
        Status::ToMove(seat) => format!("P{} to move", seat + 1),
        Status::Chance => "a throw is due".to_owned(),
        Status::Over => "the game is over".to_owned(),
    }
}

/// Ludii's ranks (TRACES.md §2.4) for `seats` players: 1 for the winner (1-based) and 2 for
/// the others, or every player the mean rank on a draw (`winner` 0).
fn ranking(seats: usize, winner: usize) -> Vec<f64> {
    if winner == 0 {
        // Ludii shares the ranks 1..=seats out equally among the drawn players.
        return vec![(seats as f64 + 1.0) / 2.0; seats];
    }
    (1..=seats)
        .map(|s| if s == winner { 1.0 } else { 2.0 })
        .collect()
}

/// Replays one playout; its first divergence, if any. Adds to `checked` every decision it
/// compares, the one that diverges included.
fn replay_one<A: Adapter>(
    a: &A,
    line: usize,
    p: &Playout,
    checked: &mut usize,
) -> Option<Divergence> {
    let rules = a.rules();
    let diverge =
        |step: Option<usize>, what: &str, expected: String, actual: String, context: String| {
            Some(Divergence {
                playout: p.playout,
                line,
                step,
                what: what.to_owned(),
                expected,
                actual,
                context,
            })
        };
    let mut s = rules.initial();
    if let Some((e, o)) = compare_fields(&a.fields(&s, false), &p.init, &[]) {
        return diverge(None, "state", e, o, "the start".to_owned());
    }
    let mut legal = Vec::new();
    for (k, step) in p.steps.iter().enumerate() {
        *checked += 1;
        let before = rules.state_text(&s);
        let context = |extra: &str| format!("before: {before}{extra}");
        // The recorded throw, for the stick games, resolves the chance step.
        match a.throw(&step.after) {
            Err(e) => return diverge(Some(k), "state", e, String::new(), context("")),
            Ok(Some(outcome)) => {
                if rules.status(&s) != Status::Chance {
                    return diverge(
                        Some(k),
                        "mover",
                        format!("a throw by P{}", step.mover),
                        format!("{:?}", rules.status(&s)),
                        context(""),
                    );
                }
                rules.apply_chance(&mut s, outcome, &mut crate::games::NoEvents);
            }
            Ok(None) => {}
        }
        let seat = step.mover.wrapping_sub(1);
        if rules.status(&s) != Status::ToMove(seat) {
            return diverge(
                Some(k),
                "mover",
                format!("P{} to move", step.mover),
                format!("{:?}", rules.status(&s)),
                context(""),
            );
        }
        rules.legal_moves(&s, &mut legal);
        let mut ours = Vec::with_capacity(legal.len());
        for &mv in &legal {
            match a.descriptor(&s, seat, mv) {
                Some(d) => ours.push(d),
                None => {
                    return diverge(
                        Some(k),
                        "legal",
                        format!("{:?}", step.legal),
                        format!(
                            "{} (a move Ludii has no descriptor for)",
                            rules.move_text(mv)
                        ),
                        context(""),
                    );
                }
            }
        }
        let (missing, extra) = multiset_difference(&step.legal, &ours);
        if !missing.is_empty() || !extra.is_empty() {
            // Where the move Ludii played is one the engine does not have, say so: that is
            // the move the replay cannot follow.
            let unplayable = match step.legal.get(step.chosen) {
                Some(d) if !ours.contains(d) => {
                    format!("; the move played, {d:?}, is not among ours")
                }
                _ => String::new(),
            };
            return diverge(
                Some(k),
                "legal",
                format!("{:?}", step.legal),
                format!("{ours:?} (missing {missing:?}, extra {extra:?}){unplayable}"),
                context(""),
            );
        }
        if a.ordered() && ours != step.legal {
            return diverge(
                Some(k),
                "legal-order",
                format!("{:?}", step.legal),
                format!("{ours:?}"),
                context(""),
            );
        }
        let Some(desc) = step.legal.get(step.chosen) else {
            return diverge(
                Some(k),
                "choice",
                format!("move {} of {}", step.chosen, step.legal.len()),
                "no such move".to_owned(),
                context(""),
            );
        };
        // The lists agree as multisets, so the move is there; looked up all the same, so that
        // the move played is always the one recorded and never a stand-in.
        let Some(index) = ours.iter().position(|d| d == desc) else {
            return diverge(
                Some(k),
                "choice",
                format!("the move played, {desc:?}"),
                format!("not among our legal moves {ours:?}"),
                context(""),
            );
        };
        let mv = legal[index];
        rules.apply(&mut s, mv, &mut crate::games::NoEvents);
        let last = k + 1 == p.steps.len();
        let played = format!("; played {desc} ({})", rules.move_text(mv));
        if let Some((e, o)) = compare_fields(&a.fields(&s, last), &step.after, a.throw_fields()) {
            return diverge(Some(k), "state", e, o, context(&played));
        }
        // The engine ending where the record goes on; the opposite (the record stopping where
        // the engine goes on) is checked after the last step, for every record length.
        if !last && rules.status(&s) == Status::Over {
            return diverge(
                Some(k),
                "end",
                format!(
                    "the game goes on ({} more decisions recorded)",
                    p.steps.len() - k - 1
                ),
                format!("the game ends ({:?})", rules.outcome(&s)),
                context(&played),
            );
        }
        if let Some(next) = p.steps.get(k + 1) {
            let ours_next = match rules.status(&s) {
                Status::ToMove(seat) => Some(seat),
                _ => None,
            };
            // Under a throw the next mover shows after the throw; the check at the next step
            // covers it.
            if let Some(seat) = ours_next
                && seat + 1 != next.mover
            {
                return diverge(
                    Some(k),
                    "mover",
                    format!("P{} next", next.mover),
                    format!("P{} next", seat + 1),
                    context(&played),
                );
            }
        }
    }
    let r = &p.result;
    let n = p.steps.len();
    // A record that stops (or never starts) while the engine's game goes on: its result is
    // Ludii's claim about a game the engine has not finished, so it cannot match.
    let status = rules.status(&s);
    if status != Status::Over {
        return diverge(
            n.checked_sub(1),
            "end",
            format!(
                "the game ends after {n} decisions: winner {}, end {}",
                r.winner, r.end
            ),
            format!(
                "the record ends after {n} decisions but the game is not over: {}",
                waiting(status)
            ),
            format!("after: {}", rules.state_text(&s)),
        );
    }
    let Some(outcome) = rules.outcome(&s) else {
        return diverge(
            None,
            "result",
            format!("winner {}, end {}", r.winner, r.end),
            "the game is over but the engine states no outcome".to_owned(),
            rules.state_text(&s),
        );
    };
    let winner = match outcome.result {
        Result_::Draw => 0,
        Result_::Win(mask) if mask.count_ones() == 1 => mask.trailing_zeros() as usize + 1,
        other => {
            return diverge(
                None,
                "result",
                format!("winner {}", r.winner),
                format!("{other:?}"),
                String::new(),
            );
        }
    };
    let end = super::end_name(outcome.end).unwrap_or(outcome.end.name());
    let (plies, turns) = (rules.plies(&s), rules.turns(&s));
    let limit = a.cap().is_some_and(|(t, m)| turns >= t || plies >= m);
    let mut expected = format!(
        "winner {}, end {}, moves {}, turns {}, limit reached {}",
        r.winner, r.end, r.moves, r.turns, r.limit_reached
    );
    let mut actual =
        format!("winner {winner}, end {end}, moves {plies}, turns {turns}, limit reached {limit}");
    expected.push_str(&format!(", ranking {:?}", r.ranking));
    actual.push_str(&format!(", ranking {:?}", ranking(rules.seats(), winner)));
    // Scores where the record has them, and a game that scores must have them.
    match r.score {
        Some(score) => {
            expected.push_str(&format!(", score {score:?}"));
            actual.push_str(&format!(", score {:?}", outcome.scores));
        }
        None if a.scores() => {
            expected.push_str(", score (not recorded)");
            actual.push_str(&format!(", score {:?}", outcome.scores));
        }
        None => {}
    }
    (expected != actual).then(|| Divergence {
        playout: p.playout,
        line,
        step: None,
        what: "result".to_owned(),
        expected,
        actual,
        context: rules.state_text(&s),
    })
}

/// Replays every playout of a parsed file.
///
/// # Errors
/// A message when the file holds no playout (nothing to check is not a pass), or (with the
/// line) when a playout cannot belong to the reading: its board is another size, or it lacks
/// the fields of this game.
pub fn replay<A: Adapter>(
    a: &A,
    game: &str,
    interpretation: &str,
    playouts: &[(usize, Playout)],
) -> Result<Report, ParseError> {
    if playouts.is_empty() {
        return Err(ParseError {
            line: None,
            message: format!(
                "the file holds no playout: expected one recorded playout a line (see §2 {TRACES})"
            ),
        });
    }
    for (line, p) in playouts {
        a.fits(&p.init).map_err(|message| ParseError {
            line: Some(*line),
            message: format!("{message} ({game} / {interpretation})"),
        })?;
    }
    let mut decisions_checked = 0;
    let first_divergences: Vec<Divergence> = playouts
        .iter()
        .filter_map(|(line, p)| replay_one(a, *line, p, &mut decisions_checked))
        .collect();
    Ok(Report {
        schema_version: 1,
        game: game.to_owned(),
        interpretation: interpretation.to_owned(),
        playouts: playouts.len(),
        decisions: playouts.iter().map(|(_, p)| p.steps.len()).sum(),
        divergences: first_divergences.len(),
        legal_order_checked: a.ordered(),
        first_divergences,
        decisions_checked,
    })
}
