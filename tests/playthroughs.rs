//! Committed playthroughs (OpenSpiel style): one seeded random game of every reading, logged
//! decision by decision in tests/playthroughs/<game>/<reading>.txt. The test regenerates each
//! log and fails with a readable diff when a rule or an engine change alters it. After an
//! intended change, regenerate with `LUDOTRACE_BLESS=1 cargo test --locked playthrough` and
//! review the diff in version control.

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng::reading_key;
use ludotrace::sim::DEFAULT_MAX_PLIES;
use ludotrace::sim::playthrough::playthrough;

use crate::util::{golden, root};

/// The seed and game index every playthrough uses.
const SEED: u64 = 1;
const GAME: u64 = 0;
/// Plies logged in full; the rest of a long game is summarised.
const SHOWN: u32 = 400;

#[test]
fn every_reading_matches_its_committed_playthrough() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let mut failures = Vec::new();
    let mut checked = 0;
    for game in &corpus.games {
        for interp in &game.interpretations {
            let bound = bind(game, interp, &serde_json::Map::new()).expect("reading binds");
            let header = format!(
                "# ludotrace playthrough: {} / {}, seed {SEED}, game {GAME}\n\
                 # regenerate: LUDOTRACE_BLESS=1 cargo test --locked playthrough\n\
                 # the same game: ludotrace run {} -i {} -n 1 --seed {SEED} --format csv\n\
                 params: {}\n",
                game.id,
                interp.id,
                game.id,
                interp.id,
                serde_json::to_string(&bound.values).unwrap()
            );
            let key = reading_key(&game.id, &interp.id);
            let text = bound.engine.visit(Playthrough {
                header: &header,
                key,
            });
            let path = root()
                .join("tests/playthroughs")
                .join(&game.id)
                .join(format!("{}.txt", interp.id));
            checked += 1;
            failures.extend(golden(&path, &text, "playthrough"));
        }
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One reading's playthrough, for any family.
struct Playthrough<'a> {
    header: &'a str,
    key: u64,
}

impl EngineVisitor for Playthrough<'_> {
    type Output = String;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> String {
        playthrough(
            rules,
            self.header,
            SEED,
            self.key,
            GAME,
            DEFAULT_MAX_PLIES,
            SHOWN,
        )
    }
}
