//! `ludotrace explain`: every rule application rests on a parameter and so on a clause or an
//! option; the explained game is `run`'s game (its length, its end, and its gaps counted as
//! `run` counts uncovered and borrowed events); `--against` replays and parts where it
//! should; committed explanations regenerated and diffed like the playthroughs; bad input.

use std::collections::BTreeMap;

use ludotrace::bind::bind;
use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::games::{Event, EventKind, Rules};
use ludotrace::registry::{EngineVisitor, GameFamily};
use serde_json::Value;

use crate::util::{fails, golden, json, ok, readings, root};

/// Each event kind of the engine, and each move of a random game, with what it applies.
struct Applies {
    names: Vec<String>,
}

impl EngineVisitor for Applies {
    type Output = Vec<String>;
    fn visit<F: GameFamily>(self, rules: &F::Rules) -> Vec<String> {
        let mut problems = Vec::new();
        let known = |p: &str| self.names.iter().any(|n| n == p);
        for k in <<F::Rules as Rules>::Event as Event>::Kind::ALL {
            if k.params().is_empty() && k.context().is_empty() {
                problems.push(format!(
                    "event kind {} has no parameter behind it",
                    k.name()
                ));
            }
            for p in k.params().iter().chain(k.context()) {
                if !known(p) {
                    problems.push(format!("event kind {}: no parameter {p}", k.name()));
                }
            }
        }
        let mut moved = 0;
        ludotrace::sim::trace(rules, 1, 7, 0, 3000, |step| {
            if step.chance.is_none() && step.seat.is_some() {
                moved += 1;
                let mv = step.legal[step.chosen];
                let params = rules.move_params(mv);
                if params.is_empty() {
                    problems.push(format!("move {} applies no parameter", rules.move_text(mv)));
                }
                for p in params {
                    if !known(p) {
                        problems.push(format!("move {}: no parameter {p}", rules.move_text(mv)));
                    }
                }
            }
        });
        if moved == 0 {
            problems.push("no move was played".to_owned());
        }
        problems
    }
}

/// What an event or a move applies is a parameter of the family, never nothing: so every
/// rule application of every reading maps to the clause, option or setting behind it.
#[test]
fn every_event_kind_and_every_move_rests_on_a_family_parameter() {
    let corpus = load(&CorpusFiles::embedded()).corpus.expect("corpus loads");
    let mut problems = Vec::new();
    for g in &corpus.games {
        for i in &g.interpretations {
            let b = bind(g, i, &serde_json::Map::new()).expect("binds");
            let names = b.values.keys().cloned().collect();
            for p in b.engine.visit(Applies { names }) {
                problems.push(format!("{} / {}: {p}", g.id, i.id));
            }
        }
    }
    problems.dedup();
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The flag counts of one game of `run`'s CSV (`starter=1;chain=2`), by place.
fn counts(cell: &str) -> BTreeMap<String, u64> {
    cell.split(';')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (k, v) = s.rsplit_once('=').unwrap();
            (k.to_owned(), v.parse().unwrap())
        })
        .collect()
}

/// The game `explain` shows is `run`'s game of the same index: the same length, the same end,
/// and its gaps are the events `run` counts as uncovered and borrowed, place for place. For
/// every reading, with random play, and for two with skilled agents.
#[test]
fn the_explained_game_is_runs_game_and_its_gaps_are_runs_flags() {
    let mut cases: Vec<(String, String, Vec<&str>)> = readings()
        .into_iter()
        .map(|(g, r)| (g, r, vec![]))
        .collect();
    cases.push((
        "um-el-bagara".into(),
        "davies".into(),
        vec!["--agents", "greedy,random"],
    ));
    cases.push((
        "seega".into(),
        "ludii".into(),
        vec!["--agents", "random,greedy", "--swap"],
    ));
    for (game, reading, extra) in &cases {
        let index = "1";
        let mut args = vec!["explain", game, "-i", reading, "--game", index, "-n", "2"];
        args.extend(extra);
        args.extend(["--max-plies", "3000", "--format", "json"]);
        let e = json(&args);
        let x = &e["explained"];
        let mut run = vec![
            "run",
            game,
            "-i",
            reading,
            "-n",
            "2",
            "--max-plies",
            "3000",
            "--format",
            "csv",
        ];
        run.extend(extra);
        let csv = ok(&run);
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let row: Vec<&str> = lines
            .find(|l| l.split(',').nth(2) == Some(index))
            .expect("game 1's row")
            .split(',')
            .collect();
        let col = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
        let what = format!("{game} / {reading} {extra:?}");
        assert_eq!(
            x["plies"].as_u64().unwrap().to_string(),
            col("plies"),
            "{what}: plies"
        );
        let result = col("result");
        let end = x["end"].as_str().unwrap();
        assert!(
            end == result || end.starts_with("timeout") && result.starts_with("timeout"),
            "{what}: explain ends {end}, run {result}"
        );
        // The gaps of the events (a move is not an event `run` counts), place by place.
        let mut uncovered: BTreeMap<String, u64> = BTreeMap::new();
        let mut borrowed: BTreeMap<String, u64> = BTreeMap::new();
        let steps = x["steps"].as_array().unwrap();
        let gaps = steps
            .iter()
            .flat_map(|s| s["applies"].as_array().unwrap())
            .filter(|a| a["kind"] != "move")
            .flat_map(|a| a["gaps"].as_array().cloned().unwrap_or_default())
            .chain(x["end_gaps"].as_array().cloned().unwrap_or_default());
        for g in gaps {
            let place = g["place"].as_str().unwrap().to_owned();
            let table = if g["class"] == "borrowed" {
                &mut borrowed
            } else {
                &mut uncovered
            };
            *table.entry(place).or_default() += 1;
        }
        assert_eq!(uncovered, counts(col("uncovered")), "{what}: uncovered");
        assert_eq!(borrowed, counts(col("borrowed")), "{what}: borrowed");
        // Every rule an application names is in the explanation's rules.
        let ids: Vec<&str> = x["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        for a in steps.iter().flat_map(|s| s["applies"].as_array().unwrap()) {
            let rules = a["rules"].as_array().unwrap();
            assert!(!rules.is_empty(), "{what}: {a} names no rule");
            for r in rules {
                assert!(ids.contains(&r.as_str().unwrap()), "{what}: {r} not listed");
            }
        }
    }
}

/// The committed explanations: the first plies of game 0 of every reading as text (80
/// columns), and two as JSON (their header's version and corpus hash left out, which every
/// release changes), regenerated and diffed like the playthroughs.
#[test]
fn every_reading_matches_its_committed_explanation() {
    let mut failures = Vec::new();
    for (game, reading) in readings() {
        let text = ok(&[
            "explain", &game, "-i", &reading, "--plies", "1..24", "--width", "80",
        ]);
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{game} / {reading}: a line of {} columns: {line}",
                line.chars().count()
            );
        }
        let path = root()
            .join("tests/explained")
            .join(&game)
            .join(format!("{reading}.txt"));
        failures.extend(golden(&path, &text, "explain"));
    }
    for (game, args, name) in [
        (
            "um-el-bagara",
            vec!["-i", "davies", "--plies", "1..8"],
            "davies.json",
        ),
        (
            "seega",
            vec!["-i", "davies", "--against", "ludii", "--plies", "1..30"],
            "davies-against-ludii.json",
        ),
    ] {
        let mut all = vec!["explain", game];
        all.extend(args);
        all.extend(["--format", "json"]);
        let mut v = json(&all);
        let o = v.as_object_mut().unwrap();
        o.remove("ludotrace");
        o.remove("corpus_hash");
        let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
        let path = root().join("tests/explained").join(game).join(name);
        failures.extend(golden(&path, &text, "explain"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A reading against itself never parts; against another it replays every move before the
/// parting ply, and names the open point that parts them.
#[test]
fn against_replays_until_the_readings_part() {
    let same = json(&[
        "explain",
        "seega",
        "-i",
        "davies",
        "--against",
        "davies",
        "--format",
        "json",
    ]);
    let a = &same["against"];
    assert!(a["parting"].is_null(), "{}", a["parting"]);
    assert_eq!(a["replayed_moves"], same["explained"]["plies"]);
    assert_eq!(a["explained"]["result"], same["explained"]["result"]);

    let v = json(&[
        "explain",
        "um-el-tuweisat",
        "-i",
        "davies",
        "--against",
        "ludii-1.0.8",
        "--format",
        "json",
    ]);
    let p = &v["against"]["parting"];
    let ply = p["ply"].as_u64().expect("the readings part");
    assert!(!p["choices"].as_array().unwrap().is_empty(), "{p}");
    let moves = |x: &Value| -> Vec<(u64, String)> {
        x["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["kind"] == "move")
            .map(|s| {
                (
                    s["ply"].as_u64().unwrap(),
                    s["move"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let (ma, mb) = (moves(&v["explained"]), moves(&v["against"]["explained"]));
    let before = |m: &[(u64, String)]| -> Vec<(u64, String)> {
        m.iter().filter(|(p, _)| *p < ply).cloned().collect()
    };
    assert_eq!(before(&ma), before(&mb), "the moves before ply {ply}");
    for s in v["against"]["explained"]["steps"].as_array().unwrap() {
        if s["kind"] == "move" && s["ply"].as_u64().unwrap() < ply {
            assert_eq!(s["replayed"], true, "{s}");
        }
    }
}

#[test]
fn bad_input_is_refused_with_the_valid_range() {
    let e = fails(&[
        "explain",
        "um-el-bagara",
        "-i",
        "davies",
        "--game",
        "5",
        "-n",
        "5",
    ]);
    assert!(e.contains("numbered 0 to 4"), "{e}");
    let e = fails(&[
        "explain",
        "um-el-bagara",
        "-i",
        "davies",
        "--plies",
        "900..950",
    ]);
    assert!(
        e.contains("has plies 1 to 55") && e.contains("1..55"),
        "{e}"
    );
    let e = fails(&["explain", "um-el-bagara", "-i", "davies", "--plies", "0..3"]);
    assert!(e.contains("numbered from 1"), "{e}");
    let e = fails(&["explain", "um-el-bagara", "-i", "davies", "--plies", "9..3"]);
    assert!(e.contains("before it starts"), "{e}");
    let e = fails(&["explain", "um-el-bagara", "-i", "davis"]);
    assert!(e.contains("did you mean `davies`"), "{e}");
    let e = fails(&[
        "explain",
        "um-el-bagara",
        "-i",
        "davies",
        "--against",
        "ludi",
    ]);
    assert!(e.contains("did you mean `ludii`"), "{e}");
    let e = fails(&["explain", "um-el-bagara", "--format", "csv"]);
    assert!(e.contains("table, json, markdown, html"), "{e}");
    let e = fails(&["explain", "um-el-bagara", "--set", "holes=x"]);
    assert!(e.contains("holes"), "{e}");
    let e = fails(&[
        "explain",
        "um-el-bagara",
        "--position",
        "rows=5,5,5,5,5/5,5,x,5,5 to-move=1",
    ]);
    assert!(
        e.contains("--position under um-el-bagara / davies: column 20, field rows: \"x\"")
            && e.contains("guide/explain.md"),
        "{e}"
    );
    let e = fails(&[
        "explain",
        "um-el-bagara",
        "--position",
        "rows=5,5,5,5,5/5,5,5,5,5 to-move=1 ply=30 turn=30 last=2",
        "--plies",
        "1..10",
    ]);
    assert!(
        e.contains("the game from the position given has plies 31 to") && e.contains("31.."),
        "{e}"
    );
}

/// A position `explain` prints is one `--position` reads: copied out of a step (as the JSON
/// gives it, and as the text wraps it), the game goes on from there, said not to be `run`'s.
#[test]
fn a_printed_position_is_read_back_by_position() {
    let v = json(&[
        "explain",
        "um-el-banat",
        "-i",
        "davies",
        "--plies",
        "1..80",
        "--format",
        "json",
    ]);
    let steps = v["explained"]["steps"].as_array().unwrap();
    let deep = steps
        .iter()
        .rev()
        .map(|s| s["after"]["notation"].as_str().unwrap().to_owned())
        .find(|n| n.contains("daughters=") && n.contains("owners="))
        .expect("a position with daughters and owners in the first 80 plies");
    let w = json(&[
        "explain",
        "um-el-banat",
        "-i",
        "davies",
        "--position",
        &deep,
        "--format",
        "json",
    ]);
    assert_eq!(w["explained"]["start"]["notation"], deep.as_str());
    assert_eq!(w["from_position"], deep.as_str());
    let ply: u64 = deep
        .split(' ')
        .find_map(|w| w.strip_prefix("ply="))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(w["explained"]["steps"][0]["ply"].as_u64(), Some(ply + 1));

    // As the text prints it: wrapped, each further line indented.
    let text = ok(&[
        "explain",
        "um-el-banat",
        "-i",
        "davies",
        "--plies",
        "60..60",
    ]);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("    position: "))
        .unwrap();
    let mut copied = lines[at].trim_start_matches("    position: ").to_owned();
    for l in &lines[at + 1..] {
        if !l.starts_with("      ") {
            break;
        }
        copied.push('\n');
        copied.push_str(l);
    }
    assert!(copied.contains('\n'), "a long position wraps: {copied}");
    let t = ok(&[
        "explain",
        "um-el-banat",
        "-i",
        "davies",
        "--position",
        &copied,
    ]);
    assert!(t.contains("From the position given"), "{t}");

    // Both readings start from it under --against.
    let a = json(&[
        "explain",
        "um-el-tuweisat",
        "-i",
        "davies",
        "--against",
        "ludii",
        "--position",
        "rows=0,2,1/3,0,0 to-move=1 taken=6,6",
        "--format",
        "json",
    ]);
    for x in [&a["explained"], &a["against"]["explained"]] {
        assert_eq!(
            x["start"]["notation"],
            "rows=0,2,1/3,0,0 to-move=1 taken=6,6"
        );
    }
}

/// The page `--format html` writes carries its data, the viewer's script and the game's
/// source texts, and asks for nothing outside itself.
#[test]
fn the_html_page_stands_alone() {
    let page = ok(&[
        "explain",
        "um-el-bagara",
        "-i",
        "davies",
        "--plies",
        "1..6",
        "--format",
        "html",
    ]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("var GAMES = ["));
    assert!(page.contains("id=\"viewers\""));
    assert!(page.contains("<h2 id=\"sources\">"));
    assert!(page.contains(" id=\"q-1\""), "the quotes are marked");
    // Links to a witness's web page are links; nothing is loaded from outside.
    assert!(!page.contains("src=\"http") && !page.contains("<link"));
}
