//! Random playouts per second on one core, for every reading of every game in the built-in
//! corpus: the figures of BENCHMARKS.md. Run with `cargo bench --bench playouts`.
//!
//! Each iteration plays a block of games on the calling thread exactly as `ludotrace run`
//! does (seeded generator per game, event counting, tallies), without the corpus loading and
//! output around it.

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::corpus::{Game, Interpretation};
use ludotrace::family::Family;
use ludotrace::family::sowing::Rounds;
use ludotrace::games::Rules;
use ludotrace::registry::{CustodialFamily, EngineVisitor, GameFamily, SowingFamily};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, RunSpec};

/// Games per iteration (single-stage games; games played in stages or boards, which run to
/// thousands of plies, use a tenth of it).
const GAMES: u64 = 2000;

fn main() {
    divan::main();
}

fn readings() -> Vec<String> {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    corpus
        .games
        .iter()
        .flat_map(|g| {
            g.interpretations
                .iter()
                .map(move |i| format!("{}/{}", g.id, i.id))
        })
        .collect()
}

#[divan::bench(args = readings(), sample_count = 10, sample_size = 1)]
fn random_playouts(bencher: divan::Bencher, reading: &str) {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let (game, interp) = reading.split_once('/').expect("game/reading");
    let game = corpus.game(game).expect("game");
    let interp = game.interpretation(interp).expect("reading");
    let bound = bind(game, interp, &serde_json::Map::new()).expect("binds");
    let place = |p: &str| bound.flag(p);
    // Each family plays a number of games that keeps a sample short.
    let games = if let Some(rules) = bound.engine.get::<SowingFamily>() {
        // Um el Banât's and Li'b al-'Aqil's stages and boards run to thousands of plies.
        if rules.params().rounds == Rounds::None {
            GAMES
        } else {
            GAMES / 10
        }
    } else if let Some(rules) = bound.engine.get::<CustodialFamily>() {
        // Larger boards run longer games.
        GAMES * 25 / (rules.size() * rules.size()) as u64
    } else if bound.engine.family() == Family::SpiralRace {
        // Four mothers on an 82-step spiral play long games.
        GAMES / 10
    } else {
        GAMES
    };
    bound.engine.visit(Bench {
        bencher,
        place: &place,
        spec: spec(game, interp, games),
    });
}

/// One reading's benchmark, for any family.
struct Bench<'a, 'b, 'c, P> {
    bencher: divan::Bencher<'a, 'b>,
    place: &'c P,
    spec: RunSpec,
}

impl<P: Fn(&str) -> Option<String>> EngineVisitor for Bench<'_, '_, '_, P> {
    type Output = ();
    fn visit<F: GameFamily>(self, rules: &F::Rules) {
        let coverage = Coverage::new::<F::Rules>(self.place);
        bench(self.bencher, rules, &self.spec, &coverage);
    }
}

fn spec(game: &Game, interp: &Interpretation, games: u64) -> RunSpec {
    RunSpec {
        games,
        seed: 1,
        key: rng::reading_key(&game.id, &interp.id),
        max_plies: DEFAULT_MAX_PLIES,
        max_quiet: 0,
        keep_records: false,
        metrics: false,
    }
}

fn bench<R: Rules>(bencher: divan::Bencher, rules: &R, spec: &RunSpec, coverage: &Coverage) {
    bencher
        .counter(divan::counter::ItemsCount::new(spec.games))
        .bench(|| sim::block(rules, spec, coverage, 0..spec.games));
}
