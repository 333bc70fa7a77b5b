//! Censored games: a game the run's `--max-plies` stops is neither won, drawn nor lost; its
//! length is summarised by Kaplan–Meier; raising the limit replays the very same games; and a
//! verdict of `diff` or `flags` that moves with the limit is marked limit-sensitive and never
//! counted as a rule effect.

use serde_json::Value;

use crate::util::{json, ok};

/// Um el Banât's `dlp` reading at a low limit: most games are censored (its median game is
/// some 17 000 plies).
const LOW: &str = "3000";

fn run_json(limit: &str) -> Value {
    json(&[
        "run",
        "um-el-banat",
        "-i",
        "dlp",
        "-n",
        "40",
        "--max-plies",
        limit,
        "--no-store",
        "--format",
        "json",
    ])
}

/// Each game's (result, plies) from `run --format csv`.
fn games(limit: &str) -> Vec<(String, u32)> {
    let text = ok(&[
        "run",
        "um-el-banat",
        "-i",
        "dlp",
        "-n",
        "40",
        "--max-plies",
        limit,
        "--no-store",
        "--format",
        "csv",
    ]);
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let (result, end, plies) = (col("result"), col("end"), col("plies"));
    lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            (
                format!("{}/{}", cells[result], cells[end]),
                cells[plies].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_censored_game_is_counted_apart_and_its_bounds_given() {
    let v = run_json(LOW);
    let r = &v["results"];
    let n = 40;
    let censored = r["censored"].as_u64().unwrap();
    let endless = r["endless"].as_u64().unwrap();
    assert!(censored > 20, "most games pass {LOW} plies: {r}");
    let by = |reason: &str| r["timeouts_by_reason"][reason].as_u64().unwrap_or(0);
    assert_eq!(by("ply-limit") + by("search-limit"), censored);
    assert_eq!(censored + endless, r["timeouts"].as_u64().unwrap());
    let f = &r["finished_rates"];
    let finished = f["games"].as_u64().unwrap();
    assert_eq!(finished + censored + endless, n);
    let wins = r["wins"].as_array().unwrap();
    for (seat, key) in ["p1", "p2"].iter().enumerate() {
        let w = wins[seat].as_u64().unwrap() as f64;
        let x = &f["rates"][key];
        let round4 = |x: f64| (x * 10_000.0).round() / 10_000.0;
        assert_eq!(x["value"].as_f64().unwrap(), round4(w / finished as f64));
        let all = (finished + censored) as f64;
        assert_eq!(
            x["if_censored"],
            serde_json::json!([round4(w / all), round4((w + censored as f64) / all)]),
            "{key}: none of the censored games won, or every one"
        );
    }
    let km = &v["plies"]["km"];
    assert_eq!(km["finished"], finished);
    assert_eq!(km["censored"], censored);
    assert_eq!(
        km["median"]["plies"],
        Value::Null,
        "fewer than half finished: {km}"
    );
}

/// With every censored game stopped at the limit, above every finished game, the
/// Kaplan–Meier quantile is the plain one of all games with the unfinished ones last: worked
/// out here from the games' own rows.
#[test]
fn the_length_quantiles_count_unfinished_games_as_longer() {
    let rows = games(LOW);
    let v = run_json(LOW);
    let mut finished: Vec<u32> = rows
        .iter()
        .filter(|(r, _)| !r.starts_with("timeout"))
        .map(|&(_, p)| p)
        .collect();
    finished.sort_unstable();
    let n = rows.len();
    // The least length by which a quarter of all games had ended: the ⌈n/4⌉-th finished one.
    let want = finished.get(n.div_ceil(4) - 1).copied();
    let got = v["plies"]["km"]["q25"]["plies"].as_u64().map(|p| p as u32);
    assert_eq!(got, want, "{}", v["plies"]["km"]);
}

/// Raising the limit replays the same games: each game finished under the low limit ends the
/// same way at the high one, and each censored game goes on past the low limit.
#[test]
fn raising_the_limit_plays_the_same_games_further() {
    let low = games(LOW);
    let high = games("12000");
    assert_eq!(low.len(), high.len());
    let mut went_on = 0;
    for (i, (l, h)) in low.iter().zip(&high).enumerate() {
        if l.0 == "timeout/ply-limit" {
            assert!(h.1 >= 3000, "game {i}: censored at 3000, then {h:?}");
            went_on += 1;
        } else {
            assert_eq!(l, h, "game {i} finished under the low limit");
        }
    }
    assert!(went_on > 0);
}

fn diff_json(limit: &str) -> Value {
    json(&[
        "diff",
        "um-el-banat",
        "davies",
        "dlp",
        "-n",
        "40",
        "--max-plies",
        limit,
        "--no-store",
        "--format",
        "json",
    ])
}

/// `diff` checks every verdict at twice and four times the limit when games were censored:
/// the figures at a raised limit are exactly those of a diff run at that limit, and a metric
/// is limit-sensitive exactly when a raised verdict differs from its own.
#[test]
fn diff_checks_its_verdicts_at_raised_limits() {
    let low = diff_json(LOW);
    let high = diff_json("12000");
    assert!(
        low["censored"]["a"].as_u64().unwrap() > 0,
        "{}",
        low["censored"]
    );
    let mut sensitive = 0;
    for m in low["metrics"].as_array().unwrap() {
        let at = m["at_raised_limits"].as_array().expect("checked");
        let limits: Vec<u64> = at
            .iter()
            .map(|r| r["max_plies"].as_u64().unwrap())
            .collect();
        assert_eq!(limits, [6000, 12000], "{}", m["metric"]);
        let moved = at.iter().any(|r| r["verdict"] != m["verdict"]);
        assert_eq!(m["limit_sensitive"], moved, "{m}");
        sensitive += usize::from(moved);
        let direct = high["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["metric"] == m["metric"]);
        if let Some(d) = direct {
            for key in ["a", "b", "difference"] {
                assert_eq!(at[1][key], d[key], "{} {key} at 12000", m["metric"]);
            }
        }
    }
    // At this limit the timeouts are almost all censored games: the timeout rate's verdict is
    // the limit's, and some verdict moves.
    assert!(sensitive > 0, "{low}");
    // The table says so in words.
    let text = ok(&[
        "diff",
        "um-el-banat",
        "davies",
        "dlp",
        "-n",
        "40",
        "--max-plies",
        LOW,
        "--no-store",
    ]);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("(limit-sensitive)"), "{text}");
    assert!(
        flat.contains(
            "The censored games played again with the limit raised to 6000 and 12000 plies"
        ),
        "{text}"
    );
}

/// Where no game was censored nothing is replayed and no verdict is limit-sensitive.
#[test]
fn without_censored_games_nothing_is_checked_again() {
    let v = json(&[
        "diff",
        "um-el-bagara",
        "davies",
        "dlp",
        "-n",
        "40",
        "--no-store",
        "--format",
        "json",
    ]);
    assert_eq!(v["censored"], serde_json::json!({"a": 0, "b": 0}));
    for m in v["metrics"].as_array().unwrap() {
        assert_eq!(m["limit_sensitive"], false);
        assert!(m.get("at_raised_limits").is_none(), "{m}");
    }
}

/// `flags` checks its comparisons with censored games at raised limits; a limit-sensitive
/// verdict never becomes a choice's effect.
#[test]
fn flags_leave_limit_sensitive_verdicts_out_of_the_effects() {
    let v = json(&[
        "flags",
        "um-el-tuweisat",
        "-n",
        "20",
        "--max-plies",
        "40",
        "--no-store",
        "--format",
        "json",
    ]);
    let s = &v["sensitivity"];
    let rows = s["one_at_a_time"].as_array().unwrap();
    let checked = rows
        .iter()
        .flat_map(|r| r["metrics"].as_array().unwrap())
        .filter(|m| m.get("at_raised_limits").is_some())
        .count();
    assert!(checked > 0, "games were censored at 40 plies");
    for rank in s["ranking"].as_array().unwrap() {
        let Some(e) = rank["effect"].as_object() else {
            continue;
        };
        let row = rows
            .iter()
            .find(|r| {
                r["choice"] == rank["choice"]
                    && r["option"] == e["option"]
                    && r["base"] == e["base"]
            })
            .expect("the effect's comparison");
        let m = row["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["metric"] == e["metric"])
            .unwrap();
        assert_eq!(m["limit_sensitive"], false, "{}: {m}", rank["choice"]);
    }
}
