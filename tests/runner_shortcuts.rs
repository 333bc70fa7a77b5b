//! The runner's shortcuts play the very games of the plain loop: for every reading, the games
//! `ludotrace run` plays (`sim::block`: one generator moved to each game's stream, fused random
//! play, forced stretches taken at once) equal, game by game, those of `sim::trace`, which
//! lists the legal moves, draws one and applies it, ply by ply, from a freshly seeded
//! generator: the same end, plies, turns, passes, first mover and events by kind.

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::{Event, EventKind, Rules};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, RunSpec};

/// Games per reading: enough to meet Li'b al-'Aqil's gift stretches many times over.
const GAMES: u64 = 60;
const SEED: u64 = 0x5eed_2026_1126;

#[test]
fn run_plays_the_games_of_the_plain_loop() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let mut readings = 0;
    for game in &corpus.games {
        for interp in &game.interpretations {
            let bound = bind(game, interp, &serde_json::Map::new()).expect("reading binds");
            let label = format!("{} / {}", game.id, interp.id);
            let key = rng::reading_key(&game.id, &interp.id);
            bound.engine.visit(Same {
                label: &label,
                key,
                bound: &bound,
            });
            readings += 1;
        }
    }
    assert!(readings >= 7);
}

struct Same<'a> {
    label: &'a str,
    key: u64,
    bound: &'a ludotrace::bind::Bound,
}

impl EngineVisitor for Same<'_> {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        let coverage = Coverage::new::<F::Rules>(|p| self.bound.flag(p));
        let spec = RunSpec {
            games: GAMES,
            seed: SEED,
            key: self.key,
            max_plies: DEFAULT_MAX_PLIES,
            max_quiet: 0,
            keep_records: true,
            metrics: false,
        };
        let tally = sim::block(rules, &spec, &coverage, 0..GAMES);
        assert_eq!(tally.records.len() as u64, GAMES, "{}", self.label);
        for r in &tally.records {
            let kinds = <<F::Rules as Rules>::Event as Event>::Kind::COUNT;
            let mut events = vec![0u32; kinds];
            let (mut plies, mut passes) = (0u32, 0u32);
            let (mut turns, mut first) = (0u32, None);
            let end = sim::trace(rules, SEED, self.key, r.index, DEFAULT_MAX_PLIES, |step| {
                for e in step.events {
                    events[e.kind().index()] += 1;
                }
                if step.seat.is_some() {
                    plies = rules.plies(step.state);
                    turns = rules.turns(step.state);
                    first = rules.first_mover(step.state);
                    let mv = step.legal[step.chosen];
                    passes += u32::from(rules.is_pass(mv));
                }
            });
            let game = format!("{} game {}", self.label, r.index);
            assert_eq!(format!("{:?}", r.end), format!("{end:?}"), "{game}: end");
            assert_eq!(
                (r.plies, r.turns, r.passes, r.first_mover),
                (plies, turns, passes, first),
                "{game}: plies, turns, passes, first mover"
            );
            assert_eq!(r.events, events, "{game}: events by kind");
        }
    }
}
