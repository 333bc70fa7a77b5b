//! The override property: every reading of every game, with random `--set` overrides drawn
//! from each parameter's valid values, is either refused at bind (the message naming one of
//! the overridden parameters) or plays games that end.
//!
//! The values come from the family's own vocabulary, the JSON Schema of its `sets:` block
//! (`Family::sets_schema`), filtered through `Family::check_value`, never from a hand-written
//! list: a parameter added to a family is drawn from the day it is declared, and
//! `every_parameter_has_generated_values` fails if the schema cannot give it two values.
//!
//! A game "ends" when `Status::Over` is reached (by the rules, an engine cap, an all-pass draw,
//! a repetition or a detected cycle). The test plays at most [`CEILING`] steps (decisions and
//! chance steps) of a game: an uncapped game still going there is a timeout, as `run`'s
//! `--max-plies` would make it; a capped game must be over once it has made `cap.moves`
//! decisions, and a capped game with no `moves` must be over by the ceiling, because `run`
//! never stops a capped game itself (only `moves` bounds the plies).
//!
//! Games are played exactly as `ludotrace run` plays them (the same generator per game, the
//! same draws for moves and chance steps), so every failure prints a command that replays it.
//! `LUDOTRACE_OVERRIDE_SEED=N` draws another set of combinations; `LUDOTRACE_OVERRIDE_TRACE=1`
//! prints each combination before it is played, with its time (a stack overflow aborts the
//! whole test binary, so that line is then the only way to find the combination).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::LazyLock;

use ludotrace::bind;
use ludotrace::corpus::{self, Corpus, CorpusFiles, Game, Interpretation};
use ludotrace::family::Family;
use ludotrace::games::{NoEvents, Result_, Rules, Status};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::{Map, Value};

/// Override combinations drawn per reading.
const COMBINATIONS: usize = 16;
/// Games played per combination (the `-n` of the reproduction command).
const GAMES: u64 = 3;
/// The most steps (decisions and chance steps) the test plays of one game.
const CEILING: u32 = 3_000;
/// How long a combination (a bind and a few short games, milliseconds as a rule) may go without
/// an answer before it is reported as a step that never returns. Not a speed limit: two
/// orders of magnitude above the slowest combination on a loaded machine.
const HANG: std::time::Duration = std::time::Duration::from_secs(120);
/// The seed the combinations are drawn from, unless `LUDOTRACE_OVERRIDE_SEED` says otherwise.
const DEFAULT_SEED: u64 = 14;

static CORPUS: LazyLock<Corpus> = LazyLock::new(|| {
    corpus::load(&CorpusFiles::embedded())
        .corpus
        .expect("the embedded corpus loads")
});

// ---------------------------------------------------------------------------------------------
// Values from the schema
// ---------------------------------------------------------------------------------------------

/// The valid values of one parameter, in groups that are drawn uniformly before a value is
/// drawn within the group: so a rare shape (a cap without `moves`, `null`) is not drowned by
/// the many integers of a common one.
#[derive(Debug, Clone)]
struct Candidates {
    groups: Vec<Vec<Value>>,
}

impl Candidates {
    fn distinct(&self) -> Vec<&Value> {
        let mut out: Vec<&Value> = Vec::new();
        for v in self.groups.iter().flatten() {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }

    fn draw_one(&self, rng: &mut ChaCha8Rng) -> Value {
        let group = &self.groups[rng.random_range(0..self.groups.len())];
        group[rng.random_range(0..group.len())].clone()
    }

    /// A value, other than `own` if a few draws find one (overriding a parameter with the
    /// value it has already tests nothing new).
    fn draw(&self, rng: &mut ChaCha8Rng, own: Option<&Value>) -> Value {
        let mut v = self.draw_one(rng);
        for _ in 0..8 {
            if Some(&v) != own {
                break;
            }
            v = self.draw_one(rng);
        }
        v
    }
}

/// The schema of a family's `sets:` block, as JSON.
fn sets_schema(family: Family) -> Value {
    serde_json::to_value(family.sets_schema()).expect("a schema serialises")
}

/// Follows a local `$ref` (`#/$defs/Name`).
fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r
                .strip_prefix("#/$defs/")
                .unwrap_or_else(|| panic!("a $ref outside $defs: {r}"));
            resolve(root, &root["$defs"][name])
        }
        None => schema,
    }
}

/// Groups of values a schema admits, around `own` (the reading's value) where the schema is
/// open-ended (integers, arrays, objects).
fn groups(root: &Value, schema: &Value, own: Option<&Value>) -> Vec<Vec<Value>> {
    let schema = resolve(root, schema);
    let mut out = Vec::new();
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = schema.get(key).and_then(Value::as_array) {
            for b in branches {
                out.extend(groups(root, b, own));
            }
        }
    }
    if let Some(c) = schema.get("const") {
        out.push(vec![c.clone()]);
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        out.extend(values.iter().map(|v| vec![v.clone()]));
    }
    if schema.get("const").is_none() && schema.get("enum").is_none() {
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        for t in types {
            match t {
                "null" => out.push(vec![Value::Null]),
                "boolean" => out.extend([vec![Value::Bool(true)], vec![Value::Bool(false)]]),
                "integer" => out.extend(integer_groups(schema, own)),
                "array" => out.extend(array_groups(root, schema, own)),
                "object" => out.extend(object_groups(root, schema, own)),
                // A free string has no values to invent; the reading's own is the only one.
                "string" => out.extend(own.filter(|v| v.is_string()).map(|v| vec![v.clone()])),
                other => panic!("a parameter schema of type {other}: teach the generator it"),
            }
        }
    }
    out.retain(|g| !g.is_empty());
    out
}

/// The type's edges (its minimum, minimum + 1, maximum), values around the reading's own, and
/// small values.
fn integer_groups(schema: &Value, own: Option<&Value>) -> Vec<Vec<Value>> {
    let lo = schema.get("minimum").and_then(Value::as_i64);
    let hi = schema.get("maximum").and_then(Value::as_i64);
    let fits = |v: i64| lo.is_none_or(|lo| v >= lo) && hi.is_none_or(|hi| v <= hi);
    let mut edges = Vec::new();
    if let Some(lo) = lo {
        edges.extend([lo, lo + 1]);
    }
    edges.extend(hi);
    let mut near = Vec::new();
    if let Some(v) = own.and_then(Value::as_i64) {
        near.extend([v - 2, v - 1, v + 1, v + 2, v / 2, v * 2]);
    }
    let small = vec![2, 3, 10, 100];
    [edges, near, small]
        .into_iter()
        .map(|g| {
            let mut g: Vec<i64> = g.into_iter().filter(|&v| fits(v)).collect();
            g.sort_unstable();
            g.dedup();
            g.into_iter().map(Value::from).collect()
        })
        .collect()
}

/// Small arrays: empty, the reading's own with one element less or one more, and one or two
/// elements of the item type.
fn array_groups(root: &Value, schema: &Value, own: Option<&Value>) -> Vec<Vec<Value>> {
    let items: Vec<Value> = groups(root, &schema["items"], None)
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .collect();
    let own: Vec<Value> = own.and_then(Value::as_array).cloned().unwrap_or_default();
    let mut fewer = Vec::new();
    for i in 0..own.len() {
        let mut a = own.clone();
        a.remove(i);
        fewer.push(Value::Array(a));
    }
    let mut more = Vec::new();
    for item in items.iter().filter(|v| !own.contains(v)) {
        let mut a = own.clone();
        a.push(item.clone());
        more.push(Value::Array(a));
    }
    let singles: Vec<Value> = items
        .iter()
        .map(|v| Value::Array(vec![v.clone()]))
        .collect();
    let pairs: Vec<Value> = items.windows(2).map(|w| Value::Array(w.to_vec())).collect();
    vec![vec![Value::Array(Vec::new())], fewer, more, singles, pairs]
}

/// One group per shape (each subset of the optional properties present), each with values
/// of its properties taken in step through their candidates.
fn object_groups(root: &Value, schema: &Value, own: Option<&Value>) -> Vec<Vec<Value>> {
    let empty = Map::new();
    let props = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let values: Vec<(&String, Vec<Value>)> = props
        .iter()
        .map(|(name, s)| {
            let vals: Vec<Value> = groups(root, s, own.and_then(|o| o.get(name)))
                .into_iter()
                .flatten()
                .filter(|v| !v.is_null())
                .collect();
            (name, vals)
        })
        .collect();
    let optional: Vec<usize> = (0..values.len())
        .filter(|&i| !required.contains(&values[i].0.as_str()))
        .collect();
    assert!(
        optional.len() <= 4,
        "an object parameter with {} optional fields: the shapes would explode",
        optional.len()
    );
    let mut out = Vec::new();
    for mask in 0..1usize << optional.len() {
        let present: Vec<usize> = (0..values.len())
            .filter(|i| match optional.iter().position(|o| o == i) {
                Some(bit) => mask & (1 << bit) != 0,
                None => true,
            })
            .collect();
        let rounds = present
            .iter()
            .map(|&i| values[i].1.len())
            .max()
            .unwrap_or(1)
            .max(1);
        let mut group = Vec::new();
        for j in 0..rounds {
            let mut obj = Map::new();
            for (k, &i) in present.iter().enumerate() {
                let (name, vals) = &values[i];
                if vals.is_empty() {
                    continue;
                }
                // Offset each field so that fields of equal length do not always move
                // together.
                obj.insert((*name).clone(), vals[(j + 3 * k) % vals.len()].clone());
            }
            let v = Value::Object(obj);
            if !group.contains(&v) {
                group.push(v);
            }
        }
        out.push(group);
    }
    out
}

/// The valid values of every parameter of a family for a reading whose values are `own`:
/// what the schema admits and `check_value` accepts.
fn candidates(family: Family, own: &Map<String, Value>) -> BTreeMap<&'static str, Candidates> {
    let root = sets_schema(family);
    let mut out = BTreeMap::new();
    for p in family.params() {
        let schema = root["properties"]
            .get(p.name)
            .unwrap_or_else(|| panic!("{family}: `{}` is not in the sets schema", p.name));
        let own_value = own.get(p.name);
        let gs: Vec<Vec<Value>> = groups(&root, schema, own_value)
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .filter(|v| family.check_value(p.name, v).is_ok())
                    .collect::<Vec<_>>()
            })
            .filter(|g| !g.is_empty())
            .collect();
        assert!(
            !gs.is_empty(),
            "{family}: the schema of `{}` gives no valid value",
            p.name
        );
        out.insert(p.name, Candidates { groups: gs });
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Playing a combination
// ---------------------------------------------------------------------------------------------

/// How a game the test played ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ending {
    /// `Status::Over`, with the engine's end reason.
    Over(&'static str),
    /// The rules found a cycle (an unfinished game).
    Cycle,
    /// Not over at the ceiling, and nothing obliged it to be.
    Ceiling,
}

/// Plays the `GAMES` games `ludotrace run GAME -i READING -n GAMES --seed SEED` plays, step by
/// step, and checks that each ends.
/// Plays a combination's games with any family's engine.
struct Play {
    key: u64,
    seed: u64,
    cap_moves: Option<u32>,
}

impl EngineVisitor for Play {
    type Output = (bool, Result<Vec<Ending>, String>);
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Self::Output {
        (
            rules.has_cap(),
            play(rules, self.key, self.seed, self.cap_moves),
        )
    }
}

fn play<R: Rules>(
    rules: &R,
    key: u64,
    seed: u64,
    cap_moves: Option<u32>,
) -> Result<Vec<Ending>, String> {
    let mut endings = Vec::new();
    let mut buf = Vec::new();
    for index in 0..GAMES {
        let mut rng = rng::game_rng(seed, key, index);
        let mut s = rules.initial();
        rules.reset(&mut s, &mut NoEvents);
        let mut steps = 0u32;
        let ending = loop {
            match rules.status(&s) {
                Status::Over => {
                    let outcome = rules
                        .outcome(&s)
                        .ok_or_else(|| format!("game {index}: over without an outcome"))?;
                    break if outcome.result == Result_::Unfinished {
                        Ending::Cycle
                    } else {
                        Ending::Over(outcome.end.name())
                    };
                }
                Status::Chance => {
                    let weights = rules.chance_outcomes(&s);
                    if weights.iter().map(|&w| u64::from(w)).sum::<u64>() == 0 {
                        return Err(format!(
                            "game {index}, step {steps}: a chance step with weights {weights:?}"
                        ));
                    }
                    let k = rng::sample(weights, &mut rng);
                    rules.apply_chance(&mut s, k, &mut NoEvents);
                }
                Status::ToMove(_) => {
                    rules.play_random(&mut s, &mut buf, |n| rng.random_range(0..n), &mut NoEvents);
                }
            }
            steps += 1;
            if rules.status(&s) == Status::Over {
                continue;
            }
            let plies = rules.plies(&s);
            if let Some(m) = cap_moves
                && plies >= m
            {
                return Err(format!(
                    "game {index}: still going after {plies} decisions under a cap of {m} moves \
                     ({} turns)",
                    rules.turns(&s)
                ));
            }
            if steps >= CEILING {
                if rules.has_cap() && cap_moves.is_none() {
                    return Err(format!(
                        "game {index}: not over after {steps} steps ({plies} decisions, {} \
                         turns) under a cap without `moves`: `run` never stops a capped game, \
                         and nothing bounds this one",
                        rules.turns(&s)
                    ));
                }
                break Ending::Ceiling;
            }
        };
        endings.push(ending);
    }
    Ok(endings)
}

/// What one combination did.
enum Verdict {
    Refused,
    Played(Vec<Ending>),
}

/// Binds the combination and plays it; `Err` is a violation of the property.
fn check_combination(
    game: &Game,
    interp: &Interpretation,
    overrides: &Map<String, Value>,
    seed: u64,
) -> Result<Verdict, String> {
    let bound = match bind::bind(game, interp, overrides) {
        Ok(bound) => bound,
        Err(e) => {
            let message = e.to_string();
            return if overrides.keys().any(|name| message.contains(name.as_str())) {
                Ok(Verdict::Refused)
            } else {
                Err(format!(
                    "refused at bind without naming an overridden parameter: {message}"
                ))
            };
        }
    };
    let cap = bound.values.get("cap").cloned().unwrap_or(Value::Null);
    let cap_moves = cap
        .get("moves")
        .and_then(Value::as_u64)
        .map(|m| u32::try_from(m).unwrap_or(u32::MAX));
    let key = rng::reading_key(&game.id, &interp.id);
    let (has_cap, played) = bound.engine.visit(Play {
        key,
        seed,
        cap_moves,
    });
    if has_cap == cap.is_null() {
        return Err(format!(
            "the engine says has_cap() = {has_cap} for the bound cap {cap}"
        ));
    }
    played.map(Verdict::Played)
}

/// Runs [`check_combination`] on a thread of its own, catching a panic, and gives up waiting
/// after [`HANG`]: the ceiling bounds the steps of a game, not one step, and a step that
/// never returns (a move that loops) must be reported, not wait for ever. The thread is then
/// left behind; the test fails and the process ends with it.
fn check_watched(
    game: &'static Game,
    interp: &'static Interpretation,
    overrides: &Map<String, Value>,
    seed: u64,
) -> Result<Verdict, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let sets = overrides.clone();
    std::thread::spawn(move || {
        let verdict = catch_unwind(AssertUnwindSafe(|| {
            check_combination(game, interp, &sets, seed)
        }))
        .unwrap_or_else(|payload| Err(format!("panicked: {}", panic_text(&*payload))));
        // The receiver is gone only if the watch gave up.
        let _ = tx.send(verdict);
    });
    rx.recv_timeout(HANG).unwrap_or_else(|_| {
        Err(format!(
            "no answer after {HANG:?}: a step of a game does not return (the ceiling bounds \
             the steps, not one step)"
        ))
    })
}

/// A `--set` argument as a shell would need it.
fn set_arg(name: &str, value: &Value) -> String {
    let text = match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if plain {
        format!("--set {name}={text}")
    } else {
        format!("--set '{name}={text}'")
    }
}

/// The command that replays a combination's games.
fn reproduction(game: &str, interp: &str, overrides: &Map<String, Value>, seed: u64) -> String {
    let sets: Vec<String> = overrides.iter().map(|(k, v)| set_arg(k, v)).collect();
    format!(
        "ludotrace run {game} -i {interp} {} -n {GAMES} --seed {seed}",
        sets.join(" ")
    )
}

/// The text of a panic's payload.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "(a panic without a message)".to_owned())
}

fn master_seed() -> u64 {
    match std::env::var("LUDOTRACE_OVERRIDE_SEED") {
        Ok(s) => s
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("LUDOTRACE_OVERRIDE_SEED={s}: expected an integer")),
        Err(_) => DEFAULT_SEED,
    }
}

/// Every reading of every game, `COMBINATIONS` random override sets each: refused with the
/// parameters named, or every game ends.
#[test]
fn random_overrides_are_refused_or_every_game_ends() {
    let master = master_seed();
    let trace = std::env::var_os("LUDOTRACE_OVERRIDE_TRACE").is_some();
    let mut failures = Vec::new();
    // Per family and parameter: the distinct values overridden in combinations that bound.
    let mut played_values: BTreeMap<(&str, &str), Vec<Value>> = BTreeMap::new();
    for game in &CORPUS.games {
        for interp in &game.interpretations {
            let start = std::time::Instant::now();
            let own = interp.param_values();
            let cands = candidates(game.family, &own);
            let names: Vec<&str> = cands.keys().copied().collect();
            let mut rng =
                ChaCha8Rng::seed_from_u64(master ^ rng::reading_key(&game.id, &interp.id));
            let (mut refused, mut bound) = (0, 0);
            let mut endings: BTreeMap<Ending, u32> = BTreeMap::new();
            for _ in 0..COMBINATIONS {
                let count = rng.random_range(1..=4usize).min(names.len());
                let mut overrides = Map::new();
                while overrides.len() < count {
                    let name = names[rng.random_range(0..names.len())];
                    if !overrides.contains_key(name) {
                        overrides
                            .insert(name.to_owned(), cands[name].draw(&mut rng, own.get(name)));
                    }
                }
                let seed = rng.random_range(1..1_000_000u64);
                if trace {
                    // Before the check: a stack overflow aborts the process, and this line is
                    // then the only trace of the combination.
                    eprintln!(
                        "checking: {}",
                        reproduction(&game.id, &interp.id, &overrides, seed)
                    );
                }
                let started = std::time::Instant::now();
                let verdict = check_watched(game, interp, &overrides, seed);
                if trace {
                    eprintln!("  took {:?}", started.elapsed());
                }
                match verdict {
                    Ok(Verdict::Refused) => refused += 1,
                    Ok(Verdict::Played(ends)) => {
                        bound += 1;
                        for e in ends {
                            *endings.entry(e).or_default() += 1;
                        }
                        for (name, value) in &overrides {
                            let name = names.iter().find(|n| **n == name).expect("a drawn name");
                            let seen = played_values.entry((game.family.id(), name)).or_default();
                            if !seen.contains(value) {
                                seen.push(value.clone());
                            }
                        }
                    }
                    Err(why) => failures.push(format!(
                        "{} / {}: {why}\n  reproduce: {}",
                        game.id,
                        interp.id,
                        reproduction(&game.id, &interp.id, &overrides, seed)
                    )),
                }
            }
            eprintln!(
                "{} / {}: {bound} bound, {refused} refused, endings {endings:?} in {:?}",
                game.id,
                interp.id,
                start.elapsed()
            );
        }
    }
    let unplayed: Vec<String> = Family::ALL
        .iter()
        .flat_map(|&f| f.params().iter().map(move |p| (f.id(), p.name)))
        .filter(|key| !played_values.contains_key(key))
        .map(|(f, name)| format!("{f}: {name}"))
        .collect();
    eprintln!(
        "parameters never overridden in a combination that bound (master seed {master}): {unplayed:?}"
    );
    assert!(
        failures.is_empty(),
        "{} combination(s) broke the override property (master seed {master}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The generator covers every parameter of every family: each gets at least two distinct
/// valid values (or the only one its type has), for every reading and for none.
#[test]
fn every_parameter_has_generated_values() {
    for &family in Family::ALL {
        let root = sets_schema(family);
        let declared: Vec<&str> = family.params().iter().map(|p| p.name).collect();
        let in_schema: Vec<&str> = root["properties"]
            .as_object()
            .expect("a sets schema has properties")
            .keys()
            .map(String::as_str)
            .collect();
        for name in &in_schema {
            assert!(
                declared.contains(name),
                "{family}: `{name}` is in the sets schema but not in the parameter table"
            );
        }
        let mut owns: Vec<(String, Map<String, Value>)> = CORPUS
            .games
            .iter()
            .filter(|g| g.family == family)
            .flat_map(|g| {
                g.interpretations
                    .iter()
                    .map(move |i| (format!("{} / {}", g.id, i.id), i.param_values()))
            })
            .collect();
        assert!(!owns.is_empty(), "{family}: no reading in the corpus");
        owns.push(("no reading".to_owned(), Map::new()));
        // What the type admits at all, whatever the reading: a parameter with a single valid
        // value (a one-variant enum) cannot get two.
        let admitted = candidates(family, &Map::new());
        for (label, own) in &owns {
            for (name, cands) in candidates(family, own) {
                let values = cands.distinct();
                for v in &values {
                    if let Err(e) = family.check_value(name, v) {
                        panic!("{family} ({label}): generated {name} = {v} is invalid: {e}");
                    }
                }
                let only_one = values.len() == 1 && admitted[name].distinct().len() == 1;
                assert!(
                    values.len() >= 2 || only_one,
                    "{family} ({label}): `{name}` got {values:?}: at least two valid values \
                     were expected from its schema"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Regressions: engine defects this property found
// ---------------------------------------------------------------------------------------------

/// The game a regression plays: exit 0 (played) or 2 (refused), never killed by a signal.
fn run_must_answer(args: &[&str]) {
    let out = crate::util::bin()
        .args(args)
        .timeout(HANG)
        .output()
        .expect("ludotrace starts");
    assert!(
        matches!(out.status.code(), Some(0 | 2)),
        "ludotrace {}: {:?} (a signal or a kill after {HANG:?} means it crashed or hung)\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A stage of fours that nobody can open (no house holds `min_sow` counters after the
/// reset to four a house) is reckoned, reset and reckoned again without a decision: it must
/// end (as a cycle, or be refused at bind), not recurse until the stack overflows.
#[test]
fn a_stage_nobody_can_open_does_not_recurse_for_ever() {
    run_must_answer(&[
        "run",
        "um-el-banat",
        "-i",
        "davies",
        "--set",
        "min_sow=5",
        "-n",
        "1",
    ]);
}

/// On a board of ten houses a row without daughters, a relay can wander for longer than
/// any game (Brent's detection finds its cycle only after it has gone round once): the move
/// must end, at the cap or as a cycle.
#[test]
fn a_relay_that_does_not_stop_ends_the_move() {
    run_must_answer(&[
        "run",
        "um-el-banat",
        "-i",
        "ludii",
        "--set",
        "holes=10",
        "--set",
        "daughters=none",
        "--set",
        r#"cap={"moves":450,"outcome":"draw"}"#,
        "-n",
        "3",
        "--seed",
        "820674",
    ]);
}

/// A board size or row length that leaves no room for the reading's pieces is refused with
/// the parameter that was changed named, not only the one that was not.
#[test]
fn a_board_too_small_for_the_pieces_names_the_board() {
    for (game, interp, name, value) in [
        ("seega", "ludii-1.0.8", "size", 3),
        ("sijat-el-taba", "davies", "cols", 2),
    ] {
        let game = CORPUS.game(game).expect("the game");
        let interp = game.interpretation(interp).expect("the reading");
        let mut overrides = Map::new();
        overrides.insert(name.to_owned(), Value::from(value));
        match bind::bind(game, interp, &overrides) {
            Ok(_) => panic!("{} / {}: {name} = {value} was accepted", game.id, interp.id),
            Err(e) => assert!(
                e.to_string().contains(name),
                "{} / {}: refusing {name} = {value} does not name `{name}`: {e}",
                game.id,
                interp.id
            ),
        }
    }
}
