//! Reference figures as data, one generic test (shakmaty's way): every reading listed in
//! tests/data/ludii-1.0.8-reference.json is played and each published figure must lie within
//! 3 standard errors of the difference between the two independent samples.

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::registry::{EngineVisitor, GameFamily};
use ludotrace::rng;
use ludotrace::sim::{self, Coverage, DEFAULT_MAX_PLIES, RunSpec};

use crate::util::root;

/// Our sample: larger than Ludii's so that most of the allowed error is theirs.
const GAMES: u64 = 20_000;
const SEED: u64 = 1;

fn within(what: &str, ours: f64, theirs: f64, se: f64, report: &mut Vec<String>) {
    let z = (ours - theirs) / se;
    let line = format!("{what}: ours {ours:.4}, Ludii {theirs:.4}, SE {se:.4}, z = {z:+.2}");
    eprintln!("{line}");
    if z.abs() > 3.0 {
        report.push(line);
    }
}

#[test]
fn ludii_1_0_8_readings_reproduce_the_reference_statistics() {
    let data: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/data/ludii-1.0.8-reference.json")).unwrap(),
    )
    .unwrap();
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let mut failures = Vec::new();
    for r in data["readings"].as_array().unwrap() {
        let game = corpus.game(r["game"].as_str().unwrap()).expect("game");
        let interp = game
            .interpretation(r["interpretation"].as_str().unwrap())
            .expect("reading");
        let bound = bind(game, interp, &serde_json::Map::new()).unwrap();
        let spec = RunSpec {
            games: GAMES,
            seed: SEED,
            key: rng::reading_key(&game.id, &interp.id),
            max_plies: DEFAULT_MAX_PLIES,
            max_quiet: 0,
            keep_records: false,
            metrics: false,
        };
        let t = bound.engine.visit(RunAll(&spec));
        let label = format!("{} / {}", game.id, interp.id);
        let n_ref = r["n"].as_f64().unwrap();
        let n = GAMES as f64;
        let rate_se = |p: f64| (p * (1.0 - p) / n_ref + p * (1.0 - p) / n).sqrt();
        let mut report = Vec::new();
        let refs = [
            ("seat 1 win rate", r["wins"][0].as_f64().unwrap(), t.wins[0]),
            ("seat 2 win rate", r["wins"][1].as_f64().unwrap(), t.wins[1]),
            ("draw rate", r["draws"].as_f64().unwrap(), t.draws),
        ];
        for (what, theirs, ours) in refs {
            let (p_ref, p) = (theirs / n_ref, ours as f64 / n);
            // The SE under the hypothesis that both samples share one rate.
            let pooled = (theirs + ours as f64) / (n_ref + n);
            within(what, p, p_ref, rate_se(pooled), &mut report);
        }
        let plies = t.plies.summary();
        let sd_ref = r["moves"]["sd"].as_f64().unwrap();
        let se = (sd_ref * sd_ref / n_ref + plies.sd * plies.sd / n).sqrt();
        within(
            "mean moves",
            plies.mean,
            r["moves"]["mean"].as_f64().unwrap(),
            se,
            &mut report,
        );
        // Ludii publishes no spread for passes; ours stands in for both samples.
        let passes = t.passes.summary();
        let se = (passes.sd * passes.sd / n_ref + passes.sd * passes.sd / n).sqrt();
        within(
            "passes per game",
            passes.mean,
            r["passes_mean"].as_f64().unwrap(),
            se,
            &mut report,
        );
        assert_eq!(t.timeouts, 0, "{label}: a Ludii reading has its own cap");
        if !report.is_empty() {
            failures.push(format!("{label}:\n  {}", report.join("\n  ")));
        }
        // Branching is a ratio over many decisions, but games of different lengths weigh
        // differently in it: its tolerance (about 3 SE of a 2000-game sample, or the two
        // decimals Ludii gives) is part of the reference data.
        let b = t.branching();
        let b_ref = r["branching"].as_f64().unwrap();
        let tolerance = r["branching_tolerance"].as_f64().unwrap();
        eprintln!("{label}: branching ours {b:.4}, Ludii {b_ref}, tolerance {tolerance}");
        assert!(
            (b - b_ref).abs() < tolerance,
            "{label}: branching {b:.3} vs Ludii {b_ref}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Plays a run of any family's engine, with no coverage.
struct RunAll<'a>(&'a RunSpec);

impl EngineVisitor for RunAll<'_> {
    type Output = sim::Tally;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> sim::Tally {
        sim::run(
            rules,
            self.0,
            &Coverage::new::<F::Rules>(|_| None),
            &|_| {},
            &mut |_| {},
        )
        .expect("a run of at most MAX_GAMES games")
    }
}
