//! The loop that plays one game: uniformly random moves or each seat's agent, chance steps
//! drawn by their weights, the ply limit and the engine's forced stretches, all in one place
//! ([`playout`]); and the games played one at a time around it: an agents' game
//! ([`play_game`]) and a traced game for playthroughs ([`trace`]).

use rand::rngs::ChaCha8Rng;

use super::metrics::{GameObserver, look_at};
use super::record::{GameEnd, Played, Timeout, game_end};
use crate::agents::{Agent, Lineup};
use crate::games::{EventSink, NoEvents, Outcome, Result_, Rules, Status};
use crate::rng::{draw, game_rng, sample};

/// [`draw`] over `n` moves as an index. The number of legal moves is far below 2³² (an
/// engine lists at most a few hundred).
#[inline(always)]
fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    debug_assert!(n > 0 && n <= u32::MAX as usize);
    draw(rng, n as u32) as usize
}

/// Plays one game from `state` (already reset): with uniformly random moves, or, with
/// `agents` (a lineup and the game's index), each seat's move chosen by its agent. Every
/// loop that plays a game to its end for a tally goes through here (`run`'s, the agents'),
/// so that the ply limit, chance steps and forced stretches are kept in one place. (The test
/// for agents costs random play nothing measurable: instruction counts are those of the
/// loop without it.) With an `observer` (`assess`; `agents` must then be given, random
/// agents included), the start and the position after every decision are looked at, and the
/// game's measures come back in [`Played`].
// The loop's inputs are each used on the hot path; bundling them into a struct would only
// move the list.
#[allow(clippy::too_many_arguments)]
pub(super) fn playout<R: Rules>(
    rules: &R,
    state: &mut R::State,
    moves: &mut Vec<R::Move>,
    rng: &mut ChaCha8Rng,
    (max_plies, max_quiet): (u32, u32),
    sink: &mut impl EventSink<R::Event>,
    agents: Option<(&Lineup, u64)>,
    mut observer: Option<&mut GameObserver>,
) -> Played {
    let capped = rules.has_cap();
    // An observed game lists its moves (the agents' branch): random play's shortcuts would
    // skip the positions it looks at.
    debug_assert!(observer.is_none() || agents.is_some());
    let mut evals = [0i64; 8];
    if let Some(o) = observer.as_deref_mut() {
        let (seats, key, occupied) = look_at(rules, state, &mut evals);
        o.start(&evals[..seats], key, occupied);
    }
    let mut passes = 0;
    let mut decisions = 0u64;
    let mut legal = 0u64;
    let mut quiet = Quiet::new(rules, state);
    let end = loop {
        match rules.status(state) {
            Status::Over => break game_end(rules.outcome(state)),
            Status::Chance => {
                let k = sample(rules.chance_outcomes(state), rng);
                rules.apply_chance(state, k, sink);
            }
            Status::ToMove(seat) => {
                let plies = rules.plies(state);
                if plies >= quiet.next {
                    quiet.check(rules, state, plies);
                    if !capped && max_quiet > 0 && plies - quiet.changed_at >= max_quiet {
                        break GameEnd::Timeout(Timeout::QuietLimit);
                    }
                }
                if !capped && plies >= max_plies {
                    break GameEnd::Timeout(Timeout::PlyLimit);
                }
                if let Some((lineup, index)) = agents {
                    // An agent's choice, among the listed moves. (No forced stretch: its
                    // skip of one word a ply is random play's, not an agent's.)
                    rules.legal_moves(state, moves);
                    let i = lineup.choose(index, seat, rules, state, moves, rng);
                    let mv = moves[i];
                    decisions += 1;
                    legal += moves.len() as u64;
                    passes += u32::from(rules.is_pass(mv));
                    rules.apply(state, mv, sink);
                    if let Some(o) = observer.as_deref_mut() {
                        let (seats, key, occupied) = look_at(rules, state, &mut evals);
                        o.decision(moves.len(), &evals[..seats], key, occupied);
                    }
                    continue;
                }
                let (n, pass) = rules.play_random(state, moves, |n| pick(rng, n), sink);
                decisions += 1;
                legal += n as u64;
                if pass {
                    passes += 1;
                } else if n == 1 {
                    // A forced move may open a stretch of them the engine plays at once
                    // (Li'b al-'Aqil's last counter given back and forth to the cap): each
                    // a decision among one move, whose one word `pick(1)` would draw is
                    // skipped. Without a cap, the run's limit bounds the stretch.
                    let mut budget = if capped {
                        u32::MAX
                    } else {
                        max_plies.saturating_sub(rules.plies(state))
                    };
                    if !capped && max_quiet > 0 {
                        // Under a quiet limit the stretch stops at the next look at the
                        // material, as the agents' loop looks: so that a quiet limit stops
                        // random play's games where it stops the listed loop's (`assess`).
                        budget = budget.min(quiet.next.saturating_sub(rules.plies(state)));
                    }
                    let k = rules.forced_plies(state, budget, sink);
                    if k > 0 {
                        rng.set_word_pos(rng.get_word_pos() + u128::from(k));
                        decisions += u64::from(k);
                        legal += u64::from(k);
                    }
                }
            }
        }
    };
    let metrics = observer.map(|o| {
        let winner = match end {
            GameEnd::Over(Outcome {
                result: Result_::Win(mask),
                ..
            }) if mask.count_ones() == 1 => Some(mask.trailing_zeros() as usize),
            _ => None,
        };
        o.finish(winner)
    });
    Played {
        end,
        first: rules.first_mover(state),
        plies: rules.plies(state),
        turns: rules.turns(state),
        passes,
        decisions,
        legal,
        quiet: rules.plies(state).saturating_sub(quiet.changed_at),
        metrics,
    }
}

/// Plies between two looks at the seats' material: often enough to date a long quiet
/// stretch closely, seldom enough to cost nothing in play.
pub const QUIET_CHECK: u32 = 256;

/// When the seats' material ([`Rules::material`]) was last seen to change.
struct Quiet {
    /// The material at the last look.
    last: [i64; 8],
    /// The ply of the look that first saw the material as it is now.
    changed_at: u32,
    /// The ply of the next look.
    next: u32,
}

impl Quiet {
    fn new<R: Rules>(rules: &R, state: &R::State) -> Self {
        Quiet {
            last: material(rules, state),
            changed_at: 0,
            next: QUIET_CHECK,
        }
    }

    fn check<R: Rules>(&mut self, rules: &R, state: &R::State, plies: u32) {
        let now = material(rules, state);
        if now != self.last {
            self.last = now;
            self.changed_at = plies;
        }
        self.next = plies.saturating_add(QUIET_CHECK);
    }
}

/// Every seat's material.
fn material<R: Rules>(rules: &R, state: &R::State) -> [i64; 8] {
    let mut out = [0; 8];
    for (seat, m) in out.iter_mut().enumerate().take(rules.seats()) {
        *m = rules.material(state, seat);
    }
    out
}

/// Plays game `index` of a run (`seed`, reading `key`) with `agents[seat % agents.len()]`
/// at each seat, every choice (chance steps and the agents' own) drawn from
/// [`game_rng`]`(seed, key, index)`; a reading without an engine cap stops after
/// `max_plies` decisions as a timeout. Returns how it ended and the decisions made.
/// With random agents at every seat it is the very game `ludotrace run` plays.
///
/// # Panics
/// If `agents` is empty or longer than [`crate::agents::MAX_LINEUP`].
pub fn play_game<R: Rules>(
    rules: &R,
    agents: &[Agent],
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
) -> (GameEnd, u32) {
    let mut rng = game_rng(seed, key, index);
    let mut state = rules.initial();
    let end = play(rules, agents, &mut rng, max_plies, &mut state);
    (end, rules.plies(&state))
}

/// [`play_game`] on a caller's state and generator: resets `state`, plays the game to its
/// end or to `max_plies` decisions (readings without an engine cap), and leaves the last
/// position in `state`. The game is played by the loop `run` plays its games with.
///
/// # Panics
/// If `agents` is empty or longer than [`crate::agents::MAX_LINEUP`].
pub fn play<R: Rules>(
    rules: &R,
    agents: &[Agent],
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    state: &mut R::State,
) -> GameEnd {
    let lineup = Lineup::new(agents.to_vec(), false).expect("1 to MAX_LINEUP agents");
    rules.reset(state, &mut NoEvents);
    let mut moves = Vec::new();
    playout(
        rules,
        state,
        &mut moves,
        rng,
        (max_plies, 0),
        &mut NoEvents,
        Some((&lineup, 0)),
        None,
    )
    .end
}

/// Plays game `index` of a run, recording each decision: for playthroughs and debugging.
pub fn trace<R: Rules>(
    rules: &R,
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
    step: impl FnMut(TraceStep<'_, R>),
) -> GameEnd {
    trace_with(rules, None, None, seed, key, index, max_plies, step)
}

/// [`trace`], with each seat's move chosen by its agent in `lineup` for game `index` (as
/// `run --agents` seats them) where one is given: the game [`play_game`] plays, step by
/// step. Random agents play random play's very game (the agents' branch of the runner is
/// random play's, draw for draw).
///
/// With `from`, the game starts from that position (`explain --position`) instead of the
/// start, with game `index`'s generator as ever: no rule of the start fires.
#[allow(clippy::too_many_arguments)]
pub fn trace_with<R: Rules>(
    rules: &R,
    lineup: Option<&Lineup>,
    from: Option<R::State>,
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
    mut step: impl FnMut(TraceStep<'_, R>),
) -> GameEnd {
    let mut rng = game_rng(seed, key, index);
    let mut moves = Vec::new();
    let mut start = Vec::new();
    let mut state = match from {
        Some(state) => state,
        None => {
            let mut state = rules.initial();
            rules.reset(&mut state, &mut start);
            state
        }
    };
    if !start.is_empty() {
        step(TraceStep {
            seat: None,
            chance: None,
            chance_text: String::new(),
            legal: &[],
            chosen: 0,
            events: &start,
            state: &state,
        });
    }
    loop {
        match rules.status(&state) {
            Status::Over => return game_end(rules.outcome(&state)),
            Status::Chance => {
                let k = sample(rules.chance_outcomes(&state), &mut rng);
                let what = rules.chance_text(&state, k);
                let mut events = Vec::new();
                rules.apply_chance(&mut state, k, &mut events);
                step(TraceStep {
                    seat: None,
                    chance: Some(k),
                    chance_text: what,
                    legal: &[],
                    chosen: 0,
                    events: &events,
                    state: &state,
                });
            }
            Status::ToMove(seat) => {
                if !rules.has_cap() && rules.plies(&state) >= max_plies {
                    return GameEnd::Timeout(Timeout::PlyLimit);
                }
                rules.legal_moves(&state, &mut moves);
                let k = match lineup {
                    Some(lineup) => lineup.choose(index, seat, rules, &state, &moves, &mut rng),
                    None => pick(&mut rng, moves.len()),
                };
                let mut events = Vec::new();
                rules.apply(&mut state, moves[k], &mut events);
                step(TraceStep {
                    seat: Some(seat),
                    chance: None,
                    chance_text: String::new(),
                    legal: &moves,
                    chosen: k,
                    events: &events,
                    state: &state,
                });
            }
        }
    }
}

/// [`trace_with`] replaying another game: at each chance step the next of `chances` (while
/// they last and the outcome is possible here), at each decision the legal move whose text
/// ([`Rules::move_text`]) is the next of `moves`, until one is not legal; from then on every
/// decision is the seat's agent's in `lineup`, and every chance step once `chances` are spent
/// is drawn, from game `index`'s own generator. `step` is told whether each step replayed
/// (`explain --against`: the same game under a second reading). `from` is a starting
/// position, as for [`trace_with`].
#[allow(clippy::too_many_arguments)]
pub fn trace_replaying<R: Rules>(
    rules: &R,
    lineup: &Lineup,
    seed: u64,
    key: u64,
    index: u64,
    max_plies: u32,
    from: Option<R::State>,
    (chances, moves): (&[usize], &[&str]),
    mut step: impl FnMut(TraceStep<'_, R>, bool),
) -> GameEnd {
    let mut rng = game_rng(seed, key, index);
    let mut chances = chances.iter().copied();
    let mut theirs = moves.iter();
    let mut events = Vec::new();
    let mut state = match from {
        Some(state) => state,
        None => {
            let mut state = rules.initial();
            rules.reset(&mut state, &mut events);
            state
        }
    };
    if !events.is_empty() {
        step(
            TraceStep {
                seat: None,
                chance: None,
                chance_text: String::new(),
                legal: &[],
                chosen: 0,
                events: &events,
                state: &state,
            },
            false,
        );
    }
    let mut parted = false;
    let mut legal = Vec::new();
    loop {
        events.clear();
        match rules.status(&state) {
            Status::Over => return game_end(rules.outcome(&state)),
            Status::Chance => {
                let weights = rules.chance_outcomes(&state);
                let (k, replayed) = match chances.next() {
                    Some(k) if weights.get(k).is_some_and(|&w| w > 0) => (k, true),
                    _ => (sample(weights, &mut rng), false),
                };
                let what = rules.chance_text(&state, k);
                rules.apply_chance(&mut state, k, &mut events);
                step(
                    TraceStep {
                        seat: None,
                        chance: Some(k),
                        chance_text: what,
                        legal: &[],
                        chosen: 0,
                        events: &events,
                        state: &state,
                    },
                    replayed,
                );
            }
            Status::ToMove(seat) => {
                if !rules.has_cap() && rules.plies(&state) >= max_plies {
                    return GameEnd::Timeout(Timeout::PlyLimit);
                }
                rules.legal_moves(&state, &mut legal);
                let next = if parted { None } else { theirs.next() };
                let found =
                    next.and_then(|m| legal.iter().position(|&l| rules.move_text(l) == **m));
                parted |= found.is_none();
                let chosen = found
                    .unwrap_or_else(|| lineup.choose(index, seat, rules, &state, &legal, &mut rng));
                rules.apply(&mut state, legal[chosen], &mut events);
                step(
                    TraceStep {
                        seat: Some(seat),
                        chance: None,
                        chance_text: String::new(),
                        legal: &legal,
                        chosen,
                        events: &events,
                        state: &state,
                    },
                    found.is_some(),
                );
            }
        }
    }
}

/// One step of a traced game, after it was made.
pub struct TraceStep<'a, R: Rules> {
    /// The seat that moved (none for a chance step).
    pub seat: Option<crate::games::Seat>,
    /// The chance outcome, for a chance step.
    pub chance: Option<usize>,
    /// The chance outcome in words ([`Rules::chance_text`]); empty for a decision.
    pub chance_text: String,
    /// The legal moves (empty for a chance step).
    pub legal: &'a [R::Move],
    /// The index of the move played.
    pub chosen: usize,
    /// What the rules reported.
    pub events: &'a [R::Event],
    /// The position after the step.
    pub state: &'a R::State,
}

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;
    use crate::sim::tally::{Counter, MAX_KINDS};

    /// Random agents played through the agents' branch of [`playout`] (a legal-move list
    /// and [`crate::agents::choose`] a decision, no forced stretches) play random play's very games:
    /// the same end, lengths, passes, decisions, legal moves summed and events by kind, for
    /// every reading of the built-in corpus.
    #[test]
    fn the_agents_branch_with_random_agents_is_random_play() {
        struct Both;
        impl crate::registry::EngineVisitor for Both {
            type Output = ();
            fn visit<F: crate::registry::GameFamily>(self, rules: &F::Rules) {
                let lineup = Lineup::random();
                let mut state = rules.initial();
                let mut moves = Vec::new();
                for (index, max_quiet) in (0..40).map(|i| (i, 0)).chain((0..20).map(|i| (i, 512))) {
                    let mut play = |agents: bool| {
                        let mut counts = [0u32; MAX_KINDS];
                        let mut sink = Counter::new(&mut counts);
                        let mut rng = game_rng(5, 77, index);
                        rules.reset(&mut state, &mut sink);
                        let played = if agents {
                            playout(
                                rules,
                                &mut state,
                                &mut moves,
                                &mut rng,
                                (3000, max_quiet),
                                &mut sink,
                                Some((&lineup, index)),
                                None,
                            )
                        } else {
                            playout(
                                rules,
                                &mut state,
                                &mut moves,
                                &mut rng,
                                (3000, max_quiet),
                                &mut sink,
                                None,
                                None,
                            )
                        };
                        (played, counts)
                    };
                    let (mut fast, fast_counts) = play(false);
                    let (mut agents, agents_counts) = play(true);
                    // The quiet stretch is measured at looks every QUIET_CHECK plies, and
                    // without a quiet limit random play's loop takes a forced stretch at
                    // once, so its looks may fall on other plies: a lower bound each, not the
                    // same number. Under a quiet limit (which an engine cap overrides) the
                    // stretch stops at each look, and the two loops stop and measure alike.
                    if max_quiet == 0 || rules.has_cap() {
                        fast.quiet = 0;
                        agents.quiet = 0;
                    }
                    assert_eq!(fast, agents, "game {index}, quiet limit {max_quiet}");
                    assert_eq!(
                        fast_counts, agents_counts,
                        "game {index}, quiet limit {max_quiet}"
                    );
                }
            }
        }
        let corpus = crate::corpus::load(&crate::corpus::CorpusFiles::embedded())
            .corpus
            .expect("corpus loads");
        for game in &corpus.games {
            for interp in &game.interpretations {
                let bound =
                    crate::bind::bind(game, interp, &serde_json::Map::new()).expect("binds");
                bound.engine.visit(Both);
            }
        }
    }

    /// A forced stretch's skipped words are the draws `pick(1)` would have made for its
    /// decisions, one word each: from any place in the stream, over any number of plies
    /// (within a buffered block, to its end, past it), the generator goes on as if it had
    /// drawn them.
    #[test]
    fn a_skipped_stretch_is_one_word_a_forced_decision() {
        for start in [0u32, 5, 63, 64, 200] {
            for plies in [1u32, 2, 58, 59, 64, 65, 1000, 2500] {
                let mut drawn = game_rng(3, 9, u64::from(start));
                let mut skipped = game_rng(3, 9, u64::from(start));
                for _ in 0..start {
                    drawn.next_u32();
                    skipped.next_u32();
                }
                for _ in 0..plies {
                    assert_eq!(pick(&mut drawn, 1), 0);
                }
                skipped.set_word_pos(skipped.get_word_pos() + u128::from(plies));
                for word in 0..70 {
                    assert_eq!(
                        drawn.next_u32(),
                        skipped.next_u32(),
                        "from word {start}, {plies} plies: word {word} after"
                    );
                }
            }
        }
    }
}
