//! `explain GAME -i A --against B`: the same game under a second reading, the single-game
//! view of `diff`. B replays A's moves while each is legal in B (matched by its text in the
//! game's notation, so that two readings of one board name the same move alike) and takes
//! A's chance outcomes in order while they last (the same throws, the same lot); from the
//! first of A's moves B cannot play, B's own agent chooses, from B's own seeded generator
//! (game `K` of B's run), as do its chance steps once A's are spent.
//!
//! Where the two games part is the first decision at which B cannot play A's move, or plays
//! it and comes to another position or other events; the open points that part them there
//! are the choices the two readings answer differently whose parameters that decision or
//! its events consulted.

use schemars::JsonSchema;
use serde::Serialize;

use super::{
    ExplainArgs, Explanation, RawStep, Reading, StepKind, Trace, explanation, trace_reading,
};
use crate::agents::Lineup;
use crate::analysis::Error;
use crate::corpus::{Corpus, ParamOrigin};
use crate::games::Rules;
use crate::sim::trace_replaying;

/// The same game under a second reading.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Against {
    /// The second reading's game, step by step (each step says whether it replays the
    /// first reading's).
    pub explained: Explanation,
    /// Where the games part; absent when B replays the whole of A's game to the same end.
    pub parting: Option<Parting>,
    /// Decisions B replayed from A.
    pub replayed_moves: u32,
    /// Chance outcomes B took from A.
    pub replayed_chances: u32,
}

/// Where two readings' games part.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Parting {
    /// The decision (ply) at which they part.
    pub ply: u32,
    /// How: `move-not-legal` (B cannot play A's move), `other-result` (the same move leaves
    /// another position or other events), `first-over` (A's game ended, B's goes on) or
    /// `second-over` (B's game ended first).
    pub how: String,
    /// What the first reading did there.
    pub first: String,
    /// What the second reading did there.
    pub second: String,
    /// The open points the two readings answer differently whose parameters this decision
    /// consulted (`at_this_ply`), or, where none did (the difference lies in a position
    /// reached earlier), every open point they answer differently.
    pub choices: Vec<ChoiceApart>,
    /// Whether `choices` are those this decision consulted.
    pub at_this_ply: bool,
}

/// An open point two readings answer differently.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ChoiceApart {
    /// The choice id, or the parameter where a reading sets it itself.
    pub choice: String,
    /// The question (empty for a reading's own setting).
    pub question: String,
    /// The first reading's answer: the option id, or `param = value`.
    pub first: String,
    /// The second reading's answer.
    pub second: String,
    /// The parameters that differ under it.
    pub params: Vec<String>,
}

/// B's game against A's, explained.
pub(super) fn against(
    corpus: &Corpus,
    a: &Reading,
    b: &Reading,
    args: &ExplainArgs,
    first: &Trace,
) -> Result<Against, Error> {
    let trace = trace_reading(b, args, Some(first))?;
    let highest = trace.plies.max(trace.start_ply + 1);
    let (lo, hi) = args.plies.unwrap_or((trace.start_ply + 1, highest));
    let shown = (lo.min(highest), hi.min(highest));
    let replayed_moves = trace
        .steps
        .iter()
        .filter(|s| s.kind == StepKind::Move && s.replayed == Some(true))
        .count() as u32;
    let replayed_chances = trace
        .steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Chance(_)) && s.replayed == Some(true))
        .count() as u32;
    let parting = parting(a, b, first, &trace, args.max_plies);
    Ok(Against {
        explained: explanation(corpus, b, args, &trace, shown),
        parting,
        replayed_moves,
        replayed_chances,
    })
}

/// Where the two traces part, and the open points that part them.
fn parting(
    a: &Reading,
    b: &Reading,
    first: &Trace,
    second: &Trace,
    max_plies: u32,
) -> Option<Parting> {
    fn moves(t: &Trace) -> Vec<&RawStep> {
        t.steps
            .iter()
            .filter(|s| s.kind == StepKind::Move)
            .collect()
    }
    let (ma, mb) = (moves(first), moves(second));
    let describe = |s: &RawStep| {
        let events: Vec<&str> = s
            .applies
            .iter()
            .skip(1)
            .map(|(_, t, _, _)| t.as_str())
            .collect();
        let mut d = format!(
            "seat {} plays {}",
            s.seat.map_or(0, |x| x + 1),
            s.move_text().unwrap_or("?")
        );
        if !events.is_empty() {
            d.push_str(&format!(" ({})", events.join("; ")));
        }
        format!("{d}, leaving {}", s.text)
    };
    let over = |t: &Trace| {
        t.end
            .map(|e| super::end_lines(&e, 2, max_plies).swap_remove(0))
            .unwrap_or_default()
    };
    // What a ply consulted: its decision and the chance steps and start before it, in
    // both games (a lot that differs is consulted before the first move).
    let both = |ply: u32| {
        let steps: Vec<&RawStep> = first
            .steps
            .iter()
            .chain(&second.steps)
            .filter(|s| s.ply == ply)
            .collect();
        consulted(&steps)
    };
    let (ply, how, first_did, second_did) =
        (0..ma.len().max(mb.len())).find_map(|i| match (ma.get(i), mb.get(i)) {
            (Some(x), Some(y)) if y.replayed != Some(true) => Some((
                x.ply,
                "move-not-legal",
                describe(x),
                format!(
                    "cannot play {}; its own agent {}",
                    x.move_text().unwrap_or("?"),
                    describe(y)
                ),
            )),
            (Some(x), Some(y)) if x.text != y.text || events(x) != events(y) => {
                Some((x.ply, "other-result", describe(x), describe(y)))
            }
            (Some(x), None) => Some((
                x.ply,
                "second-over",
                describe(x),
                format!("is over: {}", over(second)),
            )),
            (None, Some(y)) => Some((
                y.ply,
                "first-over",
                format!("is over: {}", over(first)),
                describe(y),
            )),
            _ => None,
        })?;
    let params = both(ply);
    let apart = choices_apart(a, b);
    let here: Vec<ChoiceApart> = apart
        .iter()
        .filter(|c| c.params.iter().any(|p| params.contains(&p.as_str())))
        .cloned()
        .collect();
    let at_this_ply = !here.is_empty();
    Some(Parting {
        ply,
        how: how.to_owned(),
        first: first_did,
        second: second_did,
        choices: if at_this_ply { here } else { apart },
        at_this_ply,
    })
}

/// The texts of a step's events.
fn events(s: &RawStep) -> Vec<&str> {
    s.applies
        .iter()
        .skip(1)
        .map(|(_, t, _, _)| t.as_str())
        .collect()
}

/// The parameters the steps consulted.
fn consulted(steps: &[&RawStep]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for s in steps {
        for (_, _, params, _) in &s.applies {
            for p in params.iter() {
                if !out.contains(p) {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The open points (or readings' own settings) two readings answer differently, with the
/// parameters whose values differ under each.
fn choices_apart(a: &Reading, b: &Reading) -> Vec<ChoiceApart> {
    let mut out: Vec<ChoiceApart> = Vec::new();
    for (name, va) in &a.bound.values {
        let vb = b.bound.values.get(name);
        if vb == Some(va) {
            continue;
        }
        let origin = |r: &Reading| {
            if r.bound.overrides.contains_key(name) {
                return ParamOrigin::Interpretation("--set".to_owned());
            }
            r.interp
                .params
                .iter()
                .find(|p| &p.name == name)
                .map_or(ParamOrigin::Default, |p| p.origin.clone())
        };
        let answer = |r: &Reading, o: &ParamOrigin| match o {
            ParamOrigin::Option { option, .. } => option.clone(),
            _ => format!(
                "{name} = {}",
                r.bound
                    .values
                    .get(name)
                    .map_or("-".to_owned(), ToString::to_string)
            ),
        };
        let (oa, ob) = (origin(a), origin(b));
        let choice = match (&oa, &ob) {
            (ParamOrigin::Option { choice, .. }, _) | (_, ParamOrigin::Option { choice, .. }) => {
                choice.clone()
            }
            _ => name.clone(),
        };
        if let Some(c) = out.iter_mut().find(|c| c.choice == choice) {
            c.params.push(name.clone());
            continue;
        }
        out.push(ChoiceApart {
            question: a
                .game
                .choice(&choice)
                .map_or(String::new(), |c| c.question.clone()),
            first: answer(a, &oa),
            second: answer(b, &ob),
            params: vec![name.clone()],
            choice,
        });
    }
    out
}

/// Plays B's game against A's trace ([`crate::sim::trace_replaying`]): A's moves while legal
/// in B, A's chance outcomes while they last, then B's own agent and generator.
pub(super) fn replay<R: Rules>(
    rules: &R,
    lineup: &Lineup,
    (seed, key, index): (u64, u64, u64),
    (max_plies, shown): (u32, Option<(u32, u32)>),
    from: Option<R::State>,
    script: &Trace,
) -> Trace {
    let chances: Vec<usize> = script
        .steps
        .iter()
        .filter_map(|s| match s.kind {
            StepKind::Chance(k) => Some(k),
            _ => None,
        })
        .collect();
    let moves: Vec<&str> = script.steps.iter().filter_map(RawStep::move_text).collect();
    let mut t = Trace::starting(rules, from.as_ref());
    let mut ply = t.start_ply;
    let end = trace_replaying(
        rules,
        lineup,
        seed,
        key,
        index,
        max_plies,
        from,
        (&chances, &moves),
        |step, replayed| {
            let replayed = (step.seat.is_some() || step.chance.is_some()).then_some(replayed);
            t.steps
                .push(super::raw_step(rules, &step, &mut ply, replayed, shown));
        },
    );
    t.end = Some(end);
    t.plies = ply;
    t
}
