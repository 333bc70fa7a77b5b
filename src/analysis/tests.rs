//! Unit tests of the analyses against small hand-computed cases, without the binary.
//!
//! The hand-made tallies are of ten games an arm; the played ones are of the tiny corpus in
//! `tests/fixtures/mini` (one sowing game, Um el-Bagara, with one open point, `starter`, and
//! three readings: `literal` and `roe` take `lot`, `engine` takes `first-seat`), a few
//! dozen games at most, on one thread.

use std::path::PathBuf;

use indicatif::ProgressBar;
use serde_json::{Value, json};

use crate::agents::Lineup;
use crate::corpus::{Choice, ChoiceOption, Corpus, CorpusFiles};
use crate::exec::{Exec, Mode};
use crate::sim::{AgentTally, Tally};
use crate::stats::Histogram;
use crate::stats::compare::holm;

use super::diff::{
    self, DiffArgs, DiffGames, Metric, arm_key, finish, first_round, next_round, raw_metrics,
    rule_differences,
};
use super::flags::{self, Compared, FlagsArgs, finish_all, largest};
use super::global::{self, GlobalPlay, check_design, design_of};
use super::play::corpus_hash;
use super::reproduce::quote;

const GAME: &str = "um-el-bagara";

fn mini_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini")
}

fn mini() -> (CorpusFiles, Corpus) {
    let files = CorpusFiles::read_dir(&mini_dir()).expect("the mini corpus is there");
    let corpus = crate::corpus::load(&files)
        .corpus
        .expect("the mini corpus loads");
    (files, corpus)
}

fn play_exec(files: &CorpusFiles) -> Exec {
    Exec::new(Mode::Play, corpus_hash(files), None, false)
}

fn hidden() -> ProgressBar {
    ProgressBar::hidden()
}

/// A histogram of `(value, count)` pairs.
fn hist(pairs: &[(u32, u64)]) -> Histogram {
    let mut h = Histogram::default();
    for &(v, n) in pairs {
        h.add_n(v, n);
    }
    h
}

/// Ten two-seat games: `wins` by seat, `first` won by the first mover, lengths `plies`
/// (turns the same), no draws and no timeouts.
fn tally(wins: [u64; 2], first: [u64; 2], plies: &[(u32, u64)]) -> Tally {
    Tally {
        games: 10,
        wins: wins.to_vec(),
        order_wins: first.to_vec(),
        first_moves: vec![5, 5],
        plies: hist(plies),
        turns: hist(plies),
        ..Tally::default()
    }
}

/// A: seat 1 wins 6 of 10, lengths five of 10 plies and five of 30 (mean 20, median
/// (10 + 30)/2 = 20). B: seat 1 wins 2 of 10, every game 40 plies. The first mover wins 5
/// of 10 in both.
fn hand_arms() -> (Tally, Tally) {
    (
        tally([6, 4], [5, 5], &[(10, 5), (30, 5)]),
        tally([2, 8], [5, 5], &[(40, 10)]),
    )
}

fn close(x: f64, want: f64, tol: f64) -> bool {
    (x - want).abs() <= tol
}

fn names(metrics: &[Metric]) -> Vec<&str> {
    metrics.iter().map(|m| m.metric.as_str()).collect()
}

/// Raw p-values of the hand arms, by hand:
/// - `p1_win`: the table [[6, 4], [2, 8]] has expected counts 8·10/20 = 4 < 5, so Fisher's
///   exact test: with margins 8 | 12 and 10 | 10, P(x) ∝ C(8, x)·C(12, 10 − x) =
///   66, 1760, 13860, 44352, 64680, 44352, 13860, 1760, 66 (sum C(20, 10) = 184756); the
///   observed x = 6 weighs 13860, and the tables no more probable weigh
///   66 + 1760 + 13860 + 13860 + 1760 + 66 = 31372: p = 31372/184756 = 0.169802.
/// - `p2_win`: [[4, 6], [8, 2]], the mirror image: the same p.
/// - `first_mover_win`: [[5, 5], [5, 5]], every expected count 5, so Pearson: X² = 0, p = 1.
/// - `draw`, `timeout`: no draw or timeout in either arm, one outcome column: p = 1.
/// - lengths: every game of B is longer than every game of A, so Mann–Whitney's
///   W = R₁ − n₁(n₁ + 1)/2 = (5·3 + 5·8) − 55 = 0, W − n₁n₂/2 = −50; ties of 5, 5 and 10
///   give Σ(t³ − t) = 120 + 120 + 990 = 1230, σ² = 100/12 · (21 − 1230/380) = 148.026,
///   σ = 12.1666, z = (−50 + ½)/σ = −4.0685, p = 2Φ(z) = 4.7314e-5.
const P_FISHER: f64 = 0.169_802_333_889;
const P_LENGTHS: f64 = 4.731_407_26e-5;

#[test]
fn raw_metrics_of_hand_tallies_are_the_hand_computed_ones() {
    let (a, b) = hand_arms();
    let raw = raw_metrics(&a, &b, &Lineup::random(), 1, &|_| true);
    let ps: Vec<f64> = raw.iter().map(|r| r.p).collect();
    let want = [
        P_FISHER, P_FISHER, 1.0, 1.0, 1.0, P_LENGTHS, P_LENGTHS, P_LENGTHS,
    ];
    assert_eq!(ps.len(), want.len(), "{ps:?}");
    for (p, w) in ps.iter().zip(want) {
        assert!(close(*p, w, 1e-9 + w * 1e-6), "{ps:?}");
    }
    // Each metric before correction (its raw p as the adjusted one).
    let m: Vec<Metric> = raw
        .into_iter()
        .map(|r| {
            let p = r.p;
            finish(r, p)
        })
        .collect();
    assert_eq!(
        names(&m),
        [
            "p1_win",
            "p2_win",
            "first_mover_win",
            "draw",
            "timeout",
            "plies_mean",
            "plies_median",
            "turns_mean"
        ]
    );
    // Rates: 6/10 → 2/10 and 4/10 → 8/10; B − A = −0.4 and +0.4.
    assert_eq!((m[0].a, m[0].b, m[0].difference.value), (0.6, 0.2, -0.4));
    assert_eq!((m[1].a, m[1].b, m[1].difference.value), (0.4, 0.8, 0.4));
    // Newcombe's interval from the Wilson intervals of 2/10 (0.056682, 0.509838) and 6/10
    // (0.312674, 0.831820): −0.4 − √((0.2 − 0.056682)² + (0.831820 − 0.6)²) = −0.672544,
    // −0.4 + √((0.509838 − 0.2)² + (0.6 − 0.312674)²) = 0.022558.
    assert_eq!(
        (m[0].difference.lo, m[0].difference.hi),
        (-0.672544, 0.022558)
    );
    assert_eq!(
        (m[1].difference.lo, m[1].difference.hi),
        (-0.022558, 0.672544)
    );
    assert_eq!((m[2].a, m[2].b, m[2].difference.value), (0.5, 0.5, 0.0));
    assert_eq!((m[3].a, m[3].b, m[3].difference.value), (0.0, 0.0, 0.0));
    // Lengths: means 20 → 40, medians 20 → 40. B is always 40, so each bootstrap round's
    // difference is 40 less a resampled statistic of A, which lies between 10 and 30.
    for l in &m[5..8] {
        assert_eq!((l.a, l.b, l.difference.value), (20.0, 40.0, 20.0), "{l:?}");
        assert!(10.0 <= l.difference.lo && l.difference.lo <= 20.0, "{l:?}");
        assert!(20.0 <= l.difference.hi && l.difference.hi <= 30.0, "{l:?}");
    }
    // Uncorrected, the lengths differ and nothing else does.
    let verdicts: Vec<&str> = m.iter().map(|m| m.verdict.as_str()).collect();
    assert_eq!(
        verdicts,
        [
            "no difference detected",
            "no difference detected",
            "no difference detected",
            "no difference detected",
            "no difference detected",
            "differs",
            "differs",
            "differs"
        ]
    );
}

#[test]
fn holm_across_a_diffs_metrics_is_the_hand_computed_one() {
    // As `diff` does: one Holm correction across every metric. Of m = 8 p-values, ascending:
    // the three of the lengths (4.7314e-5) times 8, 7, 6 → 3.785e-4 each (made
    // non-decreasing); the two of the seats (0.169802) times 5 → 0.849012 and times 4 →
    // 0.679209, raised to 0.849012; the three of 1 stay 1.
    let (a, b) = hand_arms();
    let raw = raw_metrics(&a, &b, &Lineup::random(), 1, &|_| true);
    let raw_ps: Vec<f64> = raw.iter().map(|r| r.p).collect();
    let adjusted = holm(&raw_ps);
    let m: Vec<Metric> = raw
        .into_iter()
        .zip(&adjusted)
        .map(|(r, &p)| finish(r, p))
        .collect();
    let got: Vec<f64> = m.iter().map(|m| m.p_adjusted).collect();
    assert_eq!(
        got,
        [
            0.849012, 0.849012, 1.0, 1.0, 1.0, 0.000379, 0.000379, 0.000379
        ]
    );
    for (metric, raw) in m.iter().zip(&raw_ps) {
        assert!(metric.p_adjusted >= round6(*raw), "{metric:?} raw {raw}");
        assert_eq!(
            metric.verdict == "differs",
            metric.p_adjusted < super::diff::ALPHA,
            "{metric:?}"
        );
    }
}

fn round6(x: f64) -> f64 {
    crate::stats::round(x, 6)
}

#[test]
fn events_come_after_the_lengths_and_keep_filters_what_is_computed() {
    // Events occurred: `capture` in 3 games of A and 7 of B, `relay` in none (left out),
    // `sow` in every game of both. `keep` drops `plies_median` and `event:sow`.
    let (mut a, mut b) = hand_arms();
    let kinds: Vec<String> = ["capture", "relay", "sow"].map(str::to_owned).to_vec();
    a.kind_names = kinds.clone();
    b.kind_names = kinds;
    a.events = vec![(3, 5), (0, 0), (10, 40)];
    b.events = vec![(7, 9), (0, 0), (10, 41)];
    let all = raw_metrics(&a, &b, &Lineup::random(), 1, &|_| true);
    let all: Vec<&str> = all.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(all[8..], ["event:capture", "event:sow"]);
    let keep = |n: &str| n != "plies_median" && n != "event:sow";
    let raw = raw_metrics(&a, &b, &Lineup::random(), 1, &keep);
    let m: Vec<Metric> = raw
        .into_iter()
        .map(|r| {
            let p = r.p;
            finish(r, p)
        })
        .collect();
    assert_eq!(
        names(&m),
        [
            "p1_win",
            "p2_win",
            "first_mover_win",
            "draw",
            "timeout",
            "plies_mean",
            "turns_mean",
            "event:capture"
        ]
    );
    // 3/10 → 7/10: [[3, 7], [7, 3]], expected counts 5 → Pearson: each cell is 2 off its
    // expected 5, X² = 4 · 4/5 = 3.2 on 1 df, p = 0.073638.
    let capture = &m[7];
    assert_eq!(
        (capture.a, capture.b, capture.difference.value),
        (0.3, 0.7, 0.4)
    );
    assert!(close(capture.p_adjusted, 0.073638, 1e-6), "{capture:?}");
}

#[test]
fn each_agent_of_a_mixed_lineup_gets_its_seats_win_rate() {
    // greedy and random rotating: greedy's seats won 4 + 3 of 10 under A and 2 + 2 of 10
    // under B; random's 1 + 2 and 3 + 3.
    let lineup = Lineup::parse("greedy,random", true).expect("a lineup");
    let agent = |wins: [u64; 2]| AgentTally {
        games: 10,
        seat_games: vec![5, 5],
        seat_wins: wins.to_vec(),
        ..AgentTally::default()
    };
    let (mut a, mut b) = hand_arms();
    a.agents = vec![agent([4, 3]), agent([1, 2])];
    b.agents = vec![agent([2, 2]), agent([3, 3])];
    let m: Vec<Metric> = raw_metrics(&a, &b, &lineup, 1, &|_| true)
        .into_iter()
        .map(|r| finish(r, 1.0))
        .collect();
    assert_eq!(
        names(&m)[..7],
        [
            "p1_win",
            "p2_win",
            "first_mover_win",
            "draw",
            "timeout",
            "agent_win:greedy",
            "agent_win:random"
        ]
    );
    // 7/10 → 4/10 and 3/10 → 6/10.
    assert_eq!((m[5].a, m[5].b, m[5].difference.value), (0.7, 0.4, -0.3));
    assert_eq!((m[6].a, m[6].b, m[6].difference.value), (0.3, 0.6, 0.3));
    assert_eq!(names(&m)[7], "plies_mean");
}

#[test]
fn first_round_is_a_quarter_of_the_worst_case_sample() {
    // Two rates of ½: the difference's variance is ½·½/n + ½·½/n = ½/n, so a half-width h
    // takes n = z²·½/h² games (z = 1.959964, z² = 3.841459).
    let random = Lineup::random();
    // h = 0.01: 3.841459 · 0.5 / 0.0001 = 19207.29; a quarter, 4801.82, rounded up: 4802.
    assert_eq!(first_round(0.01, &random), 4802);
    // h = 0.001: 1920729.4 / 4 = 480182.35 → 480183.
    assert_eq!(first_round(0.001, &random), 480_183);
    // h = 0.1: 192.07 / 4 = 48.02 → 49, below the first round's least: 100.
    assert_eq!(first_round(0.1, &random), 100);
    // In whole rotations: 4802 is a multiple of 2, rounded up to one of 3: 4803.
    let two = Lineup::parse("greedy,random", true).expect("a lineup");
    let three = Lineup::parse("greedy,random,random", true).expect("a lineup");
    assert_eq!(first_round(0.01, &two), 4802);
    assert_eq!(first_round(0.01, &three), 4803);
}

#[test]
fn next_round_grows_by_the_square_of_the_shortfall() {
    let random = Lineup::random();
    // Twice the precision: n · 2² · 1.05 = 4802 · 4.2 = 20168.4 → 20169.
    assert_eq!(next_round(4802, 0.02, 0.01, &random), 20169);
    // Just short (0.0101 for 0.01): 1000 · 1.0201 · 1.05 = 1071.1 → 1072, but by at least a
    // tenth: 1000 + 100 = 1100.
    assert_eq!(next_round(1000, 0.0101, 0.01, &random), 1100);
    // A tenth of 1001 rounded up is 101: 1102.
    assert_eq!(next_round(1001, 0.0101, 0.01, &random), 1102);
    // Within the bound of ten million games: 9e6 · 4.2 → 10,000,000; in rotations of 3, the
    // largest multiple of 3 under the bound, 9,999,999.
    assert_eq!(next_round(9_000_000, 0.02, 0.01, &random), 10_000_000);
    let three = Lineup::parse("greedy,random,random", true).expect("a lineup");
    assert_eq!(next_round(9_000_000, 0.02, 0.01, &three), 9_999_999);
}

#[test]
fn rule_differences_of_the_mini_readings() {
    let (_, corpus) = mini();
    let g = &corpus.games[0];
    let r = |id: &str| g.interpretation(id).expect("a reading");
    // `literal` and `roe` both take `lot`: no difference.
    assert!(rule_differences(g, r("literal"), r("roe")).is_empty());
    assert!(rule_differences(g, r("literal"), r("literal")).is_empty());
    // `literal` (basis: the mini work) takes `lot`, which quotes only Roe: borrowed;
    // `engine` takes `first-seat`, which quotes nothing: interpolated.
    let d = rule_differences(g, r("literal"), r("engine"));
    assert_eq!(d.len(), 1);
    let d = &d[0];
    assert_eq!(
        (d.choice.as_str(), d.question.as_str()),
        ("starter", "Who begins?")
    );
    assert_eq!(
        (d.a.option.as_str(), d.a.says.as_str(), d.a.class.as_str()),
        ("lot", "By lot.", "borrowed")
    );
    assert_eq!(
        (d.b.option.as_str(), d.b.says.as_str(), d.b.class.as_str()),
        ("first-seat", "Seat 1.", "interpolated")
    );
    assert_eq!(d.a.sets.get("starter"), Some(&json!("lot")));
    assert_eq!(d.b.sets.get("starter"), Some(&json!("first-seat")));
    // No word in common: the whole of one for the whole of the other.
    let words: Vec<(&str, &str)> = d
        .words
        .iter()
        .map(|w| (w.op.as_str(), w.text.as_str()))
        .collect();
    assert_eq!(words, [("removed", "By lot."), ("added", "Seat 1.")]);
    // `roe` reads Roe, so the same option is grounded there; the sides swap with the
    // readings.
    let d = rule_differences(g, r("engine"), r("roe"));
    assert_eq!(
        (d[0].a.option.as_str(), d[0].a.class.as_str()),
        ("first-seat", "interpolated")
    );
    assert_eq!(
        (d[0].b.option.as_str(), d[0].b.class.as_str()),
        ("lot", "grounded")
    );
}

#[test]
fn arm_keys_differ_between_arms_and_readings() {
    let keys = [
        arm_key(GAME, "literal", "a"),
        arm_key(GAME, "literal", "b"),
        arm_key(GAME, "engine", "a"),
        arm_key(GAME, "engine", "b"),
        crate::rng::reading_key(GAME, "literal"),
    ];
    for (i, x) in keys.iter().enumerate() {
        for y in &keys[i + 1..] {
            assert_ne!(x, y, "{keys:x?}");
        }
    }
    // An arm's streams are the reading's under the name `READING#diff-ARM`.
    assert_eq!(
        arm_key(GAME, "literal", "b"),
        crate::rng::reading_key(GAME, "literal#diff-b")
    );
}

fn diff_args(a: &str, b: Option<&str>, games: u64) -> DiffArgs {
    DiffArgs {
        game: GAME.to_owned(),
        a: a.to_owned(),
        b: b.map(str::to_owned),
        against: b.is_none(),
        games: DiffGames::Count(games),
        lineup: Lineup::random(),
        seed: 7,
        max_plies: 500,
        max_quiet: 0,
        set: Vec::new(),
        set_a: Vec::new(),
        set_b: Vec::new(),
        threads: Some(1),
        corpus: Some(mini_dir()),
    }
}

const FIXED: [&str; 8] = [
    "p1_win",
    "p2_win",
    "first_mover_win",
    "draw",
    "timeout",
    "plies_mean",
    "plies_median",
    "turns_mean",
];

fn is_length(metric: &str) -> bool {
    matches!(metric, "plies_mean" | "plies_median" | "turns_mean")
}

/// The values under A of each metric, by name.
fn a_values(metrics: &[Metric]) -> Vec<(String, f64)> {
    metrics.iter().map(|m| (m.metric.clone(), m.a)).collect()
}

#[test]
fn a_played_diff_is_internally_consistent() {
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let d = diff::diff(
        &exec,
        &corpus,
        &files,
        &diff_args("literal", Some("engine"), 20),
        &hidden(),
    )
    .expect("the diff runs");
    assert_eq!(d.games, 20);
    assert!(d.auto.is_none());
    assert_eq!(d.comparisons.len(), 1);
    let c = &d.comparisons[0];
    assert_eq!(
        (c.a.as_str(), c.b.as_str(), c.header.games),
        ("literal", "engine", 20)
    );
    assert_eq!(c.header.corpus_hash, d.hash);
    assert_eq!(c.rules.len(), 1);
    assert_eq!(names(&c.metrics)[..8], FIXED);
    for m in &c.metrics {
        let dv = &m.difference;
        assert!(dv.lo <= dv.value && dv.value <= dv.hi, "{m:?}");
        assert!((0.0..=1.0).contains(&m.p_adjusted), "{m:?}");
        assert_eq!(m.verdict == "differs", m.p_adjusted < 0.05, "{m:?}");
        if !is_length(&m.metric) {
            // A rate of 20 games is a multiple of 1/20: B − A is exact to six decimals.
            assert!(close(dv.value, m.b - m.a, 1e-9), "{m:?}");
            assert!((0.0..=1.0).contains(&m.a) && (0.0..=1.0).contains(&m.b));
            assert!(close(m.a * 20.0, (m.a * 20.0).round(), 1e-9), "{m:?}");
        }
    }
    // `literal` draws lots for who begins, `engine` never does.
    let lot = c
        .metrics
        .iter()
        .find(|m| m.metric == "event:lot")
        .expect("the lot is an event of the game");
    assert_eq!((lot.a, lot.b, lot.verdict.as_str()), (1.0, 0.0, "differs"));
}

#[test]
fn an_a_a_diff_plays_each_arm_on_its_own_streams() {
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let run = |b: &str| {
        diff::diff(
            &exec,
            &corpus,
            &files,
            &diff_args("literal", Some(b), 20),
            &hidden(),
        )
        .expect("the diff runs")
        .comparisons
        .remove(0)
    };
    let aa = run("literal");
    let ab = run("engine");
    // The same reading on both sides: no rule differs, yet the arms are other games.
    assert!(aa.rules.is_empty());
    assert!(
        aa.metrics
            .iter()
            .any(|m| m.a != m.b && m.metric.starts_with("plies")),
        "{:?}",
        aa.metrics
    );
    // Arm A is the same games whatever B is.
    assert_eq!(a_values(&aa.metrics[..8]), a_values(&ab.metrics[..8]));
}

#[test]
fn against_corrects_across_every_comparison() {
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let one = diff::diff(
        &exec,
        &corpus,
        &files,
        &diff_args("literal", Some("engine"), 20),
        &hidden(),
    )
    .expect("the diff runs");
    let all = diff::diff(
        &exec,
        &corpus,
        &files,
        &diff_args("literal", None, 20),
        &hidden(),
    )
    .expect("the diff runs");
    let bs: Vec<&str> = all.comparisons.iter().map(|c| c.b.as_str()).collect();
    assert_eq!(bs, ["engine", "roe"]);
    let single = &one.comparisons[0];
    let engine = &all.comparisons[0];
    // The same games on both arms (A once, each B on its own streams) …
    for (x, y) in single.metrics.iter().zip(&engine.metrics) {
        assert_eq!(
            (&x.metric, x.a, x.b, x.difference.value),
            (&y.metric, y.a, y.b, y.difference.value)
        );
        // … and a larger family: Holm never adjusts a p-value down when tests are added.
        assert!(y.p_adjusted >= x.p_adjusted, "{x:?} {y:?}");
    }
    assert_eq!(
        a_values(&all.comparisons[1].metrics[..8]),
        a_values(&engine.metrics[..8])
    );
}

#[test]
fn diff_refuses_games_and_precisions_out_of_bounds() {
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let mut args = diff_args("literal", Some("engine"), 0);
    let e = diff::diff(&exec, &corpus, &files, &args, &hidden()).expect_err("0 games");
    assert_eq!(
        e.to_string(),
        "--games must be 1 to 10000000 for diff (its length tests keep every game's length), \
         not 0"
    );
    args.games = DiffGames::Auto { precision: 0.6 };
    let e = diff::diff(&exec, &corpus, &files, &args, &hidden()).expect_err("too coarse");
    assert_eq!(
        e.to_string(),
        "--precision must be 0.001 to 0.5 (the half-width of the interval of a difference of \
         two rates), not 0.6"
    );
}

fn hand_metric(metric: &str, value: f64) -> Metric {
    Metric {
        metric: metric.to_owned(),
        a: 0.5,
        b: 0.5 + value,
        difference: super::diff::Difference {
            value,
            lo: value - 0.1,
            hi: value + 0.1,
        },
        p_adjusted: 0.5,
        verdict: "no difference detected".to_owned(),
        limit_sensitive: false,
        at_raised_limits: Vec::new(),
    }
}

/// A verdict checked at raised limits: one that holds at both is kept, one that changes at
/// either is limit-sensitive and leaves the ranking of effects, whatever its size.
#[test]
fn a_verdict_that_moves_with_the_limit_is_not_a_rule_effect() {
    let differs = |m: &str, v: f64| Metric {
        verdict: "differs".to_owned(),
        ..hand_metric(m, v)
    };
    let mut metrics = vec![differs("timeout", 0.60), differs("draw", 0.20)];
    let at = vec![
        (
            20_000,
            vec![differs("timeout", 0.30), differs("draw", 0.21)],
        ),
        (
            40_000,
            vec![hand_metric("timeout", 0.02), differs("draw", 0.19)],
        ),
    ];
    super::diff::attach_raised(&mut metrics, &at);
    assert!(metrics[0].limit_sensitive, "timeout differs, then not");
    assert!(!metrics[1].limit_sensitive, "draw differs at every limit");
    let limits: Vec<u32> = metrics[0]
        .at_raised_limits
        .iter()
        .map(|r| r.max_plies)
        .collect();
    assert_eq!(limits, [20_000, 40_000]);
    assert_eq!(
        metrics[0].at_raised_limits[1].verdict,
        "no difference detected"
    );
    // The timeout's change of 0.60 is the largest, but it moves with the limit: the draw's
    // 0.20 is the effect.
    let e = largest([("literal", "x", &metrics[..])].into_iter()).expect("an effect");
    assert_eq!(e.metric, "draw");
}

/// The raised limits: twice and four times, within the largest limit, none above it.
#[test]
fn limits_are_raised_twice_and_four_times_within_the_ceiling() {
    use crate::analysis::limits::raised;
    use crate::analysis::play::MAX_PLIES;
    assert_eq!(raised(1000), [2000, 4000]);
    assert_eq!(raised(MAX_PLIES / 3), [MAX_PLIES / 3 * 2, MAX_PLIES]);
    assert_eq!(raised(MAX_PLIES), Vec::<u32>::new());
}

#[test]
fn largest_picks_the_largest_change_in_a_rate() {
    // |−0.30| (`draw` of x into literal) beats 0.10, 0.20 and 0.25; the mean length's change
    // of 5 plies is not a rate and does not count.
    let x = [
        hand_metric("p1_win", 0.10),
        hand_metric("plies_mean", 5.0),
        hand_metric("draw", -0.30),
    ];
    let y = [hand_metric("first_mover_win", 0.20)];
    let z = [hand_metric("timeout", 0.25)];
    let rows = [
        ("literal", "x", &x[..]),
        ("roe", "y", &y[..]),
        ("literal", "z", &z[..]),
    ];
    let e = largest(rows.iter().copied()).expect("an effect");
    assert_eq!(
        (e.base.as_str(), e.option.as_str(), e.metric.as_str()),
        ("literal", "x", "draw")
    );
    assert_eq!(
        (e.difference.value, e.difference.lo, e.difference.hi),
        (-0.30, -0.30 - 0.1, -0.30 + 0.1)
    );
    // Only lengths, or nothing measured: no effect.
    let only_length = [hand_metric("plies_mean", 9.0)];
    assert!(largest([("literal", "x", &only_length[..])].into_iter()).is_none());
    assert!(largest(std::iter::empty()).is_none());
}

fn flags_args(games: u64) -> FlagsArgs {
    FlagsArgs {
        game: Some(GAME.to_owned()),
        games,
        seed: 7,
        max_plies: 500,
        max_quiet: 0,
        lineup: Lineup::random(),
        set: Vec::new(),
        threads: Some(1),
        corpus: Some(mini_dir()),
        global: None,
        global_games: None,
    }
}

/// The metrics a one-at-a-time comparison keeps.
fn kept(metric: &str) -> bool {
    matches!(
        metric,
        "p1_win" | "p2_win" | "first_mover_win" | "draw" | "timeout" | "plies_mean"
    )
}

#[test]
fn finish_all_corrects_across_rows_and_spells_each_rows_diff() {
    let (_, corpus) = mini();
    let g = &corpus.games[0];
    let (a, b) = hand_arms();
    let raw = |x: &Tally, y: &Tally| raw_metrics(x, y, &Lineup::random(), 1, &kept);
    let rows = vec![
        Compared {
            base: "literal".to_owned(),
            sets: vec![("starter".to_owned(), json!("first-seat"))],
            refused: None,
            cannot_end: false,
            raw: raw(&a, &b),
            raised: Vec::new(),
        },
        Compared {
            base: "engine".to_owned(),
            sets: vec![("starter".to_owned(), json!("lot"))],
            refused: Some("the engine cannot".to_owned()),
            cannot_end: false,
            raw: Vec::new(),
            raised: Vec::new(),
        },
        Compared {
            base: "roe".to_owned(),
            sets: vec![
                ("starter".to_owned(), json!("first-seat")),
                ("holes".to_owned(), json!(6)),
            ],
            refused: None,
            cannot_end: false,
            raw: raw(&b, &a),
            raised: Vec::new(),
        },
    ];
    let mut args = flags_args(20);
    args.set = vec!["tie=draw".to_owned()];
    let done = finish_all(g, &args, rows);
    assert_eq!(done.len(), 3);
    // Six kept metrics a row, twelve in the family: the two lengths' 4.7314e-5 times 12 and
    // 11 → 5.6777e-4 each; the four seats' 0.169802 times 10, 9 … → capped at 1. Corrected
    // row by row (m = 6) the lengths would be 2.84e-4 and the seats 0.849.
    let want = [1.0, 1.0, 1.0, 1.0, 1.0, 0.000568];
    for k in [0, 2] {
        let got: Vec<f64> = done[k].1.iter().map(|m| m.p_adjusted).collect();
        assert_eq!(got, want, "row {k}");
        assert_eq!(
            names(&done[k].1),
            [
                "p1_win",
                "p2_win",
                "first_mover_win",
                "draw",
                "timeout",
                "plies_mean"
            ]
        );
        assert_eq!(done[k].1[5].verdict, "differs");
    }
    // The mirror image: B − A the other way round.
    assert_eq!(done[0].1[0].difference.value, -0.4);
    assert_eq!(done[2].1[0].difference.value, 0.4);
    assert!(done[1].1.is_empty());
    assert_eq!(done[1].0.refused.as_deref(), Some("the engine cannot"));
    // Each row's diff: the base against itself, the shared `--set`, then each switched
    // parameter as `--set-b` (its value as JSON, quoted for the shell).
    let corpus_dir = quote(&mini_dir().display().to_string());
    let line = |base: &str, set_b: &str| {
        format!(
            "ludotrace --corpus {corpus_dir} diff {GAME} {base} {base} -n 20 --seed 7 \
             --max-plies 500 --set 'tie=draw'{set_b}"
        )
    };
    assert_eq!(
        done[0].2,
        line("literal", " --set-b 'starter=\"first-seat\"'")
    );
    assert_eq!(done[1].2, line("engine", " --set-b 'starter=\"lot\"'"));
    assert_eq!(
        done[2].2,
        line("roe", " --set-b 'starter=\"first-seat\"' --set-b 'holes=6'")
    );
}

#[test]
fn a_one_at_a_time_row_is_the_diff_its_reproduce_line_names() {
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let args = flags_args(20);
    let f = flags::flags(&exec, &corpus, &files, &args, &hidden()).expect("flags runs");
    let report = &f.reports[0];
    let s = &report.sensitivity;
    // From the one base reading (`literal`; the game has no `ludii`), the one option it does
    // not take.
    assert_eq!(s.one_at_a_time.len(), 1);
    let row = &s.one_at_a_time[0];
    assert_eq!(
        (row.base.as_str(), row.choice.as_str(), row.option.as_str()),
        ("literal", "starter", "first-seat")
    );
    assert_eq!(row.sets.get("starter"), Some(&json!("first-seat")));
    assert!(row.refused.is_none());
    assert_eq!(
        names(&row.metrics),
        [
            "p1_win",
            "p2_win",
            "first_mover_win",
            "draw",
            "timeout",
            "plies_mean"
        ]
    );
    // The line is the diff of those arms.
    let mut d = diff_args("literal", Some("literal"), 20);
    d.set_b = vec!["starter=\"first-seat\"".to_owned()];
    assert_eq!(row.reproduce, diff::command_line(&d));
    // Played, it gives the same games: the same values, the same differences; its family of
    // tests is larger, so its adjusted p-values are no smaller.
    let played = diff::diff(&exec, &corpus, &files, &d, &hidden()).expect("the diff runs");
    let c = &played.comparisons[0];
    assert_eq!(c.rules.len(), 0);
    for m in &row.metrics {
        let x = c
            .metrics
            .iter()
            .find(|x| x.metric == m.metric)
            .expect("the diff has the metric");
        assert_eq!(
            (
                x.a,
                x.b,
                x.difference.value,
                x.difference.lo,
                x.difference.hi
            ),
            (
                m.a,
                m.b,
                m.difference.value,
                m.difference.lo,
                m.difference.hi
            ),
            "{}",
            m.metric
        );
        assert!(x.p_adjusted >= m.p_adjusted, "{x:?} {m:?}");
    }
    // The ranking's one choice carries the row's largest change in a rate.
    assert_eq!(s.ranking.len(), 1);
    let effect = s.ranking[0].effect.as_ref().expect("measured");
    let biggest = row
        .metrics
        .iter()
        .filter(|m| m.metric != "plies_mean")
        .map(|m| m.difference.value.abs())
        .fold(0.0, f64::max);
    assert_eq!(effect.difference.value.abs(), biggest);
    assert_eq!(
        (effect.base.as_str(), effect.option.as_str()),
        ("literal", "first-seat")
    );
    assert!(s.global.is_none() && s.global_design.is_none());
}

fn choice(id: &str, options: &[&str]) -> Choice {
    Choice {
        id: id.to_owned(),
        question: format!("{id}?"),
        cites: Vec::new(),
        addresses: Vec::new(),
        options: options
            .iter()
            .map(|o| ChoiceOption {
                id: (*o).to_owned(),
                says: (*o).to_owned(),
                by: Vec::new(),
                cites: Vec::new(),
                sets: Vec::new(),
                register: Vec::new(),
                engine: None,
                aliases: Vec::new(),
            })
            .collect(),
    }
}

#[test]
fn a_design_is_rows_times_factors_plus_two() {
    let (_, mut corpus) = mini();
    let g = &mut corpus.games[0];
    // One open point of two options: 48 rows × (1 + 2) = 144 readings; the least design is
    // 8 rows × 3 = 24.
    assert_eq!(design_of(g, 48), 144);
    assert!(check_design(g, 24).is_ok());
    assert_eq!(
        check_design(g, 23).expect_err("too small").to_string(),
        "--design 23: um-el-bagara has 1 open point with two options or more, so a design \
         needs 8 rows of 3 readings: give 24 to 100000"
    );
    // A point of one option is no factor; one of three is: 10 rows × (2 + 2) = 40, the least
    // 8 × 4 = 32.
    g.choices.push(choice("alone", &["only"]));
    g.choices.push(choice("three", &["x", "y", "z"]));
    assert_eq!(design_of(g, 10), 40);
    assert!(check_design(g, 32).is_ok());
    assert!(check_design(g, 100_000).is_ok());
    assert_eq!(
        check_design(g, 31).expect_err("too small").to_string(),
        "--design 31: um-el-bagara has 2 open points with two options or more, so a design \
         needs 8 rows of 4 readings: give 32 to 100000"
    );
    assert!(
        check_design(g, 100_001)
            .expect_err("too large")
            .to_string()
            .ends_with("give 32 to 100000")
    );
}

#[test]
fn a_played_global_design_counts_what_it_played() {
    let (files, corpus) = mini();
    let g = &corpus.games[0];
    let exec = play_exec(&files);
    let pool = super::play::pool(Some(1)).expect("a pool");
    let lineup = Lineup::random();
    let play = GlobalPlay {
        games: 3,
        seed: 7,
        max_plies: 500,
        max_quiet: 0,
        lineup: &lineup,
    };
    let (d, indices) = global::global(
        &exec,
        g,
        &play,
        24,
        &serde_json::Map::new(),
        &pool,
        &hidden(),
    )
    .expect("the design plays");
    // 24 readings asked, 1 factor: 24 / 3 = 8 rows of A and of B (16 readings), and one AB
    // row for each row whose B option differs from A's: 16 to 24 readings.
    assert_eq!((d.asked, d.rows), (24, 8));
    assert_eq!(d.factors, ["starter"]);
    assert_eq!(d.frame, "literal");
    assert!((16..=24).contains(&d.readings), "{d:?}");
    assert_eq!((d.refused, d.refused_combinations), (0, 0));
    assert!(d.refused_example.is_none());
    assert_eq!(d.games_per_reading, 3);
    assert_eq!(d.games, d.readings * 3);
    for o in &d.outcomes {
        assert!(global::METRICS.contains(&o.metric.as_str()), "{o:?}");
        assert!(o.variance.lo <= o.variance.hi, "{o:?}");
    }
    // An index only for an outcome that varies.
    for i in &indices {
        assert_eq!(i.choice, "starter");
        assert!(
            d.outcomes.iter().any(|o| o.metric == i.metric && o.varies),
            "{i:?}"
        );
    }
}

#[test]
fn overrides_reach_both_arms_and_each_arms_own() {
    // `--set` goes to both arms, `--set-a`/`--set-b` to one; an arm's own wins.
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let mut args = diff_args("literal", Some("literal"), 2);
    args.set = vec!["target=50".to_owned()];
    args.set_b = vec!["target=40".to_owned()];
    let d = diff::diff(&exec, &corpus, &files, &args, &hidden()).expect("the diff runs");
    let o = &d.comparisons[0].overrides;
    assert_eq!(o.a.get("target"), Some(&Value::from(50)));
    assert_eq!(o.b.get("target"), Some(&Value::from(40)));
    // An error in an arm's own overrides names the arm.
    args.set_b = vec!["no_such_parameter=1".to_owned()];
    let e = diff::diff(&exec, &corpus, &files, &args, &hidden()).expect_err("unknown");
    assert!(e.to_string().starts_with("reading literal: "), "{e}");
}

/// The executor's modes with games played through `play_reading`, the analyses' one door to
/// the runner: six games of `literal`, six blocks of one game (`block_len(6)` = ⌈6/64⌉ = 1).
mod modes;

/// An arm taken from an earlier assessment is the arm the later one would play: the same
/// JSON either way; and an earlier one played with other numbers lends nothing.
#[test]
fn assess_takes_an_earlier_arm_only_when_it_is_the_same_games() {
    use super::assess::{AssessArgs, Criteria, Earlier, assess, assess_from};
    let (files, corpus) = mini();
    let exec = play_exec(&files);
    let args = |agents: &str, games: u64, all: bool| AssessArgs {
        game: GAME.to_owned(),
        interpretations: if all {
            Vec::new()
        } else {
            vec!["roe".to_owned()]
        },
        all,
        agents: agents.to_owned(),
        games,
        seed: 3,
        max_plies: crate::sim::DEFAULT_MAX_PLIES,
        max_quiet: 0,
        set: Vec::new(),
        threads: Some(1),
        criteria: Criteria::defaults(),
        by_point: false,
        points: Vec::new(),
        corpus: None,
    };
    let first = args("random,ab:1", 12, true);
    let before = assess(&exec, &corpus, &files, &first, &hidden()).unwrap();
    let later = args("ab:1,ab:2", 12, false);
    let fresh = assess(&exec, &corpus, &files, &later, &hidden()).unwrap();
    let earlier = Earlier {
        assessment: &before,
        args: &first,
    };
    let taken = assess_from(&exec, &corpus, &files, &later, &hidden(), Some(earlier)).unwrap();
    assert_eq!(
        serde_json::to_value(&taken).unwrap(),
        serde_json::to_value(&fresh).unwrap()
    );
    // Other numbers (fewer games): the arm is played, not taken.
    let fewer = args("ab:1,ab:2", 8, false);
    let played = assess(&exec, &corpus, &files, &fewer, &hidden()).unwrap();
    let not_taken = assess_from(&exec, &corpus, &files, &fewer, &hidden(), Some(earlier)).unwrap();
    assert_eq!(
        serde_json::to_value(&not_taken).unwrap(),
        serde_json::to_value(&played).unwrap()
    );
    assert_eq!(not_taken.readings[0].arms[0].games, 8);
}
