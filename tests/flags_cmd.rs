//! `ludotrace flags`: each kind on a small synthetic corpus with a known answer, the
//! canonical examples of the built-in corpus, the JSON contract, and bad input.

use serde_json::Value;

use crate::util::{bin, fails, json, mini_corpus, run};

/// The mini corpus with a second source supporting the other option of `starter`, a third
/// option both sources support, a choice whose two options one source supports (ambiguous
/// there, not in conflict), and a declined register reading.
fn synthetic() -> tempfile::TempDir {
    let dir = mini_corpus();
    let path = dir.path().join("rulesets/um-el-bagara.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replace(
        r#"      - id: first-seat
        says: Seat 1.
        by: ["reading: the tests"]
        sets: { starter: first-seat }
        register: [BG-01b]"#,
        r#"      - id: first-seat
        says: Seat 1.
        by: ["reading: the tests"]
        cites:
          - at: mini#um-el-bagara
            quote: The two players have each five houses
        sets: { starter: first-seat }
        register: [BG-01b]
      - id: agreement
        says: As the players agree, by lot, under an engine's limits (which never bind here).
        by: ["reading: the tests"]
        cites:
          - at: mini#um-el-bagara
            quote: The two players
          - at: roe#um-el-bagara
            quote: Who begins is decided
        sets: { starter: lot, cap: { turns: 2500, moves: 10000, outcome: draw } }
  - id: tie
    question: What is a game with equal takings?
    options:
      - id: draw
        says: A draw.
        by: ["reading: the tests"]
        cites:
          - at: mini#um-el-bagara
            quote: each of which initially contains five counters
        sets: { tie: draw }
      - id: first
        says: The game is played again.
        by: ["reading: the tests"]
        cites:
          - at: mini#um-el-bagara
            quote: A single counter in a house
        sets: { tie: replay }"#,
    );
    let text = text
        .replace("      tie: draw\n", "")
        .replace("      daughter_count: 4\n", "")
        .replace("    open: [starter]", "    open: [starter, tie, count]");
    // A choice without effect: the daughters' count, where no daughters are begotten.
    let text = text.replace(
        "interpretations:\n",
        r#"  - id: count
    question: How many make a daughter?
    options:
      - id: four
        says: Four.
        by: ["reading: the tests"]
        sets: { daughter_count: 4 }
      - id: five
        says: Five.
        by: ["reading: the tests"]
        sets: { daughter_count: 5 }
interpretations:
"#,
    );
    // `literal` reads Doe but takes Roe's lot, where Doe's words ground first-seat and
    // agreement: a departure, with its reason.
    let text = text.replace(
        "    choose: { starter: lot }\n  - id: engine",
        "    departs: { starter: the tests play Roe's lot }\n    choose: { starter: lot, tie: draw, count: four }\n  - id: engine",
    );
    let text = text.replace(
        "    basis: [roe]\n    choose: { starter: lot }",
        "    basis: [roe]\n    choose: { starter: lot, tie: first, count: four }",
    );
    let text = format!("{text}\ndeclined:\n  - reading: BG-01c\n    why: Nobody proposes it.\n");
    std::fs::write(&path, text).unwrap();
    let register = dir.path().join("rulesets/register/um-el-bagara.yaml");
    let r = std::fs::read_to_string(&register).unwrap().replace(
        "      - id: b\n        says: the first seat\n",
        "      - id: b\n        says: the first seat\n      - id: c\n        says: by seniority\n",
    );
    std::fs::write(&register, r).unwrap();
    dir
}

fn flags_json(dir: &tempfile::TempDir) -> Value {
    flags_with(dir, &["-n", "60"])
}

/// `flags um-el-bagara ARGS --format json` on a corpus directory.
fn flags_with(dir: &tempfile::TempDir, args: &[&str]) -> Value {
    let (code, out, err) = run(bin()
        .args(["flags", "um-el-bagara"])
        .args(args)
        .args(["--format", "json", "--corpus"])
        .arg(dir.path()));
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// Runs a comparison's `reproduce` command (a `diff`, which names the corpus it read) as a
/// shell would split it: its two arms must be the comparison's, metric by metric.
fn replays_the_same_arms(dir: &tempfile::TempDir, cmd: &str, metrics: &[Value]) {
    let words = shell_words::split(cmd).unwrap();
    assert_eq!(
        words[1..3],
        ["--corpus".to_owned(), dir.path().display().to_string()],
        "{cmd}"
    );
    let (code, out, err) = run(bin().args(&words[1..]).args(["--format", "json"]));
    assert_eq!(code, 0, "{cmd}: {err}");
    let d: Value = serde_json::from_str(&out).unwrap();
    for m in metrics {
        let same = d["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["metric"] == m["metric"])
            .unwrap();
        assert_eq!((&same["a"], &same["b"]), (&m["a"], &m["b"]), "{cmd}");
    }
}

fn of_kind<'a>(v: &'a Value, kind: &str) -> Vec<&'a Value> {
    v["flags"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == kind)
        .collect()
}

#[test]
fn each_kind_on_a_synthetic_corpus() {
    let dir = synthetic();
    let v = flags_json(&dir);
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["game"], "um-el-bagara");

    let choices = of_kind(&v, "choice");
    assert_eq!(choices.len(), 3, "{v}");
    let starter = choices[0];
    assert_eq!(starter["id"], "starter");
    assert_eq!(starter["title"], "Who begins?");
    let options = starter["options"].as_array().unwrap();
    assert_eq!(options.len(), 3);
    assert_eq!(options[0]["id"], "lot");
    assert_eq!(options[0]["by"], serde_json::json!(["roe#um-el-bagara"]));
    // `literal` reads the mini work and takes lot on Roe's words: borrowed; `roe` reads Roe.
    assert_eq!(
        options[0]["taken_by"],
        serde_json::json!([
            {"reading": "literal", "class": "borrowed"},
            {"reading": "roe", "class": "grounded"}
        ])
    );
    assert_eq!(
        options[1]["taken_by"],
        serde_json::json!([{"reading": "engine", "class": "grounded"}])
    );

    // One conflict: Doe's words support first-seat, Roe's support lot; both support
    // agreement, which is no side of it. The tie choice rests on Doe alone: no conflict.
    let conflicts = of_kind(&v, "source-conflict");
    assert_eq!(conflicts.len(), 1, "{conflicts:?}");
    let c = conflicts[0];
    assert_eq!(c["id"], "starter:Doe/Roe");
    assert_eq!(
        c["title"],
        "starter: Doe supports first-seat, Roe supports lot"
    );
    assert_eq!(
        c["text"],
        "Doe: «The two players have each five houses» against Roe: «decided by lot»"
    );
    let quotes: Vec<&str> = c["cites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["quote"].as_str().unwrap())
        .collect();
    assert_eq!(
        quotes,
        ["The two players have each five houses", "decided by lot"]
    );
    assert_eq!(
        c["readings"],
        serde_json::json!(["engine", "literal", "roe"])
    );

    let declined = of_kind(&v, "declined");
    assert_eq!(declined.len(), 1);
    assert_eq!(declined[0]["id"], "BG-01c");
    assert_eq!(declined[0]["text"], "Nobody proposes it.");

    // Borrowed: `literal` (and `engine`, which extends it, for its own choice of tie) take
    // words of Roe's; `roe` takes the tie rule from Doe's work.
    let borrowed = of_kind(&v, "borrowing");
    let ids: Vec<&str> = borrowed.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&"choice:starter=lot"), "{ids:?}");
    let lot = borrowed
        .iter()
        .find(|f| f["id"] == "choice:starter=lot")
        .unwrap();
    assert_eq!(lot["readings"], serde_json::json!(["literal"]));
    assert!(
        lot["title"].as_str().unwrap().ends_with("from Roe"),
        "{lot}"
    );
    let tie = borrowed
        .iter()
        .find(|f| f["id"] == "choice:tie=first")
        .expect("roe borrows the tie rule");
    assert_eq!(tie["readings"], serde_json::json!(["roe"]));
    assert!(
        tie["title"].as_str().unwrap().ends_with("from Doe"),
        "{tie}"
    );

    // Interpolated: the catch-all clause in every reading, by the tests.
    let interpolated = of_kind(&v, "interpolation");
    let rest = interpolated
        .iter()
        .find(|f| f["id"] == "clause:the-rest")
        .expect("the-rest is interpolated");
    assert_eq!(
        rest["readings"],
        serde_json::json!(["literal", "engine", "roe"])
    );
    assert!(
        rest["title"]
            .as_str()
            .unwrap()
            .contains("added by reading: the tests"),
        "{rest}"
    );
}

/// From play, with known answers: the lot is drawn once a game where the reading takes it
/// (`literal`, `roe`) and never where it does not (`engine`); `literal` takes it on Roe's
/// words, so its lot is a borrowed situation, met in every game, once.
#[test]
fn play_flags_on_a_synthetic_corpus() {
    let dir = synthetic();
    let v = flags_json(&dir);
    assert_eq!(
        (v["games"].as_u64(), v["seed"].as_u64()),
        (Some(60), Some(1))
    );
    let activity = of_kind(&v, "rule-activity");
    let lot = activity
        .iter()
        .find(|f| f["id"] == "lot")
        .expect("lot fires");
    let by: Vec<(String, u64, f64)> = lot["frequency"]["by_reading"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["reading"].as_str().unwrap().to_owned(),
                b["games_with"].as_u64().unwrap(),
                b["per_game"]["value"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        by[..2],
        [
            ("literal".to_owned(), 60, 1.0),
            ("engine".to_owned(), 0, 0.0)
        ]
    );
    // `roe` replays a tied game from the start, lot and all: once a game, and again in a
    // replay.
    assert_eq!((by[2].0.as_str(), by[2].1), ("roe", 60));
    assert!(by[2].2 > 1.0, "{by:?}");
    let share = &lot["frequency"]["by_reading"][1]["share"];
    assert_eq!(
        (share["value"].as_f64(), share["lo"].as_f64()),
        (Some(0.0), Some(0.0))
    );
    assert!(
        share["hi"].as_f64().unwrap() > 0.0,
        "an interval, not a point: {share}"
    );
    let uncovered = of_kind(&v, "uncovered");
    let borrowed = uncovered
        .iter()
        .find(|f| f["id"].as_str().unwrap().starts_with("borrowed:"))
        .expect("literal's borrowed lot is met");
    let readings = borrowed["frequency"]["by_reading"].as_array().unwrap();
    let literal = readings
        .iter()
        .find(|b| b["reading"] == "literal")
        .expect("literal");
    assert_eq!(literal["games_with"], 60);
    assert_eq!(literal["per_game"]["value"], 1.0);
    // A rule that never fires in any reading is not listed.
    assert!(
        activity.iter().all(|f| f["id"] != "daughter"),
        "{activity:?}"
    );
}

/// The same command gives the same flags at any thread count.
#[test]
fn flags_are_the_same_at_any_thread_count() {
    let one = json(&[
        "flags",
        "seega",
        "-n",
        "60",
        "--threads",
        "1",
        "--format",
        "json",
    ]);
    let two = json(&[
        "flags",
        "seega",
        "-n",
        "60",
        "--threads",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(one, two);
}

/// Um el Banât's borrowing between stages: the DLP's larger holder against Davies' gainer.
#[test]
fn the_banat_borrowing_conflict_is_found_and_quoted() {
    // A low ply limit keeps this quick in a debug build: the limit belongs to the experiment,
    // and what is checked here (the flags and the rule's activity) does not rest on it.
    let v = json(&[
        "flags",
        "um-el-banat",
        "-n",
        "30",
        "--max-plies",
        "3000",
        "--format",
        "json",
    ]);
    // Davies' own borrowing rule is live in play: the gainer's remainder is borrowed in
    // most games under `davies`, never under the readings that take the larger holder's.
    let gainer = of_kind(&v, "rule-activity")
        .into_iter()
        .find(|f| f["id"] == "gainer-borrowing")
        .unwrap_or_else(|| panic!("gainer-borrowing fires: {v}"));
    for b in gainer["frequency"]["by_reading"].as_array().unwrap() {
        let share = b["share"]["value"].as_f64().unwrap();
        match b["reading"].as_str().unwrap() {
            "davies" => assert!(share > 0.5, "{b}"),
            _ => assert_eq!(share, 0.0, "{b}"),
        }
    }
    let c = of_kind(&v, "source-conflict")
        .into_iter()
        .find(|f| {
            f["id"] == "borrowing-basis:DLP/Davies" || f["id"] == "borrowing-basis:Davies/DLP"
        })
        .unwrap_or_else(|| panic!("no borrowing-basis conflict: {v}"));
    let text = c["text"].as_str().unwrap();
    assert!(
        text.contains("The player with the most counters places four in each hole"),
        "{text}"
    );
    assert!(text.contains("If B has gained three counters"), "{text}");
    // Its effect: the borrowing basis is an open point whose options were played one at a
    // time, its largest change measured with an interval.
    let basis = of_kind(&v, "choice")
        .into_iter()
        .find(|f| f["id"] == "borrowing-basis")
        .unwrap();
    let e = &basis["effect"];
    assert!(
        ["gainer", "larger-holder"].contains(&e["option"].as_str().unwrap()),
        "{e}"
    );
    assert!(e["difference"]["hi"].as_f64().unwrap() >= e["difference"]["lo"].as_f64().unwrap());
}

/// The hyena game's tâba costs are open points with their options and who proposes them.
#[test]
fn the_hyena_games_costs_are_open_points() {
    let v = json(&["flags", "lib-el-merafib", "-n", "20", "--format", "json"]);
    let choices = of_kind(&v, "choice");
    assert!(!choices.is_empty());
    let text: String = choices
        .iter()
        .map(|c| format!("{} {}", c["id"], c["text"]))
        .collect();
    assert!(
        text.to_lowercase().contains("t\u{e2}ba") || text.contains("taba"),
        "{text}"
    );
    for c in &choices {
        for o in c["options"].as_array().unwrap() {
            assert!(o["by"].is_array() && o["taken_by"].is_array(), "{o}");
        }
    }
    // The costs at the well: the DLP against Ludii 1.3.12, quoted (Davies' own figures are
    // the words the two choices ask about, so they support neither side); each cost an open point
    // with its effect measured; the tâbas paid at the well, by the mothers and by the hyena,
    // with how often per reading.
    let conflicts: Vec<&str> = of_kind(&v, "source-conflict")
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    for id in [
        "well-cost:DLP/Ludii 1.3.12",
        "hyena-well-cost:DLP/Ludii 1.3.12",
    ] {
        assert!(conflicts.contains(&id), "{id} not in {conflicts:?}");
    }
    for id in ["well-cost", "hyena-well-cost"] {
        let c = choices.iter().find(|c| c["id"] == id).unwrap();
        let e = &c["effect"];
        let d = &e["difference"];
        assert!(
            d["lo"].as_f64().unwrap() <= d["value"].as_f64().unwrap()
                && d["value"].as_f64().unwrap() <= d["hi"].as_f64().unwrap(),
            "{id}: {e}"
        );
        assert!(e["verdict"].is_string(), "{id}: {e}");
    }
    let activity = of_kind(&v, "rule-activity");
    for id in ["paid", "hyena-paid"] {
        let f = activity
            .iter()
            .find(|f| f["id"] == id)
            .unwrap_or_else(|| panic!("{id} fires"));
        let readings: Vec<&str> = f["frequency"]["by_reading"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["reading"].as_str().unwrap())
            .collect();
        assert_eq!(readings, ["davies", "dlp", "ludii"], "{f}");
    }
    // `end: hyena-home` switched into davies can never end (the hyena moves 4, 8 or 12 and
    // leaves the well from hollow 81): a cannot-end flag with the reason, the comparison
    // refused and left out of the figures, and counted. Into dlp and ludii it can end.
    let cannot = of_kind(&v, "cannot-end");
    assert_eq!(cannot.len(), 1, "{cannot:?}");
    assert_eq!(cannot[0]["id"], "cannot-end:end=hyena-home");
    assert_eq!(cannot[0]["readings"], serde_json::json!(["davies"]));
    let text = cannot[0]["text"].as_str().unwrap();
    assert!(
        text.contains("81 is not a multiple of 4") && text.contains("village_exact: false"),
        "{text}"
    );
    let rows: Vec<&Value> = v["sensitivity"]["one_at_a_time"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["option"] == "hyena-home")
        .collect();
    let refused: Vec<(&str, bool)> = rows
        .iter()
        .map(|o| (o["base"].as_str().unwrap(), o["cannot_end"] == true))
        .collect();
    assert!(refused.contains(&("davies", true)), "{refused:?}");
    assert_eq!(refused.iter().filter(|r| r.1).count(), 1, "{refused:?}");
    for o in &rows {
        assert_eq!(
            o["metrics"].as_array().unwrap().is_empty(),
            o["cannot_end"] == true
        );
    }
    assert_eq!(v["sensitivity"]["cannot_end_left_out"], 1);
    assert!(
        v["sensitivity"]["ranking"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["effect"].is_null()
                || r["effect"]["option"] != "hyena-home"
                || r["effect"]["base"] != "davies"),
        "the refused comparison is no effect"
    );
}

#[test]
fn every_game_has_flags_in_every_view() {
    // Low ply limits keep these quick in a debug build (Um el Banât's games run to thousands
    // of plies); the views are what is checked.
    let all = json(&[
        "flags",
        "-n",
        "6",
        "--max-plies",
        "3000",
        "--format",
        "json",
    ]);
    let reports = all["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 7);
    for r in reports {
        assert!(!of_kind(r, "choice").is_empty(), "{}", r["game"]);
    }
    let (code, table, _) =
        run(bin().args(["flags", "um-el-banat", "-n", "30", "--max-plies", "3000"]));
    assert_eq!(code, 0);
    assert!(table.contains("source conflict"), "{table}");
    assert!(table.contains("borrowing-basis"), "{table}");
    assert!(
        table.contains("rule ") && table.contains("davies: games [95 % CI]"),
        "{table}"
    );
    assert!(
        table.contains("reproduce: ludotrace flags um-el-banat -n 30 --seed 1 --max-plies 3000"),
        "{table}"
    );
    let (code, md, _) = run(bin().args(["flags", "seega", "-n", "20", "--format", "markdown"]));
    assert_eq!(code, 0);
    assert!(md.starts_with("**Seega · "), "{md}");
    assert!(md.contains("| open point | question |"), "{md}");
    let err = fails(&["flags", "no-such-game"]);
    assert!(err.contains("um-el-banat"), "{err}");
    let err = fails(&["flags", "seega", "--format", "csv"]);
    assert!(err.contains("json"), "{err}");
    let err = fails(&["flags", "seega", "--set", "no_such=1"]);
    assert!(
        err.contains("seega reading") && err.contains("no_such"),
        "{err}"
    );
    let err = fails(&["flags", "seega", "-n", "0"]);
    assert!(err.contains("--games must be 1"), "{err}");
    let err = fails(&["flags", "seega", "--games", "auto"]);
    assert!(err.contains("--games auto is diff's"), "{err}");
}

/// One option at a time, on the synthetic corpus: a choice whose options change nothing in
/// play (the daughters' count where no daughter is begotten) reports no difference detected
/// in every metric, with the n tested; each comparison's `diff` command plays the same arms.
#[test]
fn an_option_without_effect_reports_no_difference() {
    let dir = synthetic();
    let v = flags_json(&dir);
    let rows = v["sensitivity"]["one_at_a_time"].as_array().unwrap();
    let count: Vec<&Value> = rows.iter().filter(|r| r["choice"] == "count").collect();
    // The base reading (the first, `literal`) takes four: five is switched in.
    assert_eq!(count.len(), 1, "{rows:?}");
    assert_eq!(count[0]["option"], "five");
    let metrics = count[0]["metrics"].as_array().unwrap();
    let names: Vec<&str> = metrics
        .iter()
        .map(|m| m["metric"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "p1_win",
            "p2_win",
            "first_mover_win",
            "draw",
            "timeout",
            "plies_mean"
        ]
    );
    for m in metrics {
        assert_eq!(m["verdict"], "no difference detected", "{m}");
    }
    // Its diff command, on the same corpus, gives the same two arms.
    let cmd = count[0]["reproduce"].as_str().unwrap();
    assert!(cmd.contains(" diff um-el-bagara literal literal "), "{cmd}");
    replays_the_same_arms(&dir, cmd, metrics);
    // The ranking lists every choice.
    let ranked = v["sensitivity"]["ranking"].as_array().unwrap();
    assert_eq!(ranked.len(), 3, "{ranked:?}");
}

/// Ludii 1.0.8's left-hole defect, switched into `ludii` (which takes the intended move),
/// is among the largest effects of Um el Tuweisat: the first mover's win rate rises.
#[test]
fn the_left_hole_defect_ranks_among_the_largest_effects() {
    let v = json(&["flags", "um-el-tuweisat", "-n", "200", "--format", "json"]);
    let ranking = v["sensitivity"]["ranking"].as_array().unwrap();
    let place = ranking
        .iter()
        .position(|r| r["choice"] == "ludii-left-hole")
        .expect("ranked");
    assert!(place < 3, "{ranking:?}");
    let e = &ranking[place]["effect"];
    assert_eq!(
        (e["base"].as_str(), e["option"].as_str()),
        (Some("ludii"), Some("quirk"))
    );
    assert_eq!(e["metric"], "first_mover_win");
    assert!(e["difference"]["lo"].as_f64().unwrap() > 0.3, "{e}");
    assert_eq!(e["verdict"], "differs");
    // The choice's flag carries the same effect.
    let flag = of_kind(&v, "choice")
        .into_iter()
        .find(|f| f["id"] == "ludii-left-hole")
        .unwrap();
    assert_eq!(&flag["effect"], e);
    // As an engine artefact: Ludii 1.0.8's reading carries it, the defective move is made
    // in most games, and switched off the first mover's advantage falls.
    let artefact = of_kind(&v, "engine-artefact")
        .into_iter()
        .find(|f| f["id"] == "choice:ludii-left-hole=quirk")
        .expect("the left-hole defect is an engine artefact");
    assert_eq!(artefact["readings"], serde_json::json!(["ludii-1.0.8"]));
    let fires = &artefact["frequency"]["by_reading"][0];
    assert_eq!(fires["event"], "left-hole-quirk");
    assert!(fires["share"]["lo"].as_f64().unwrap() > 0.5, "{fires}");
    let off = &artefact["effect"];
    assert_eq!(
        (off["base"].as_str(), off["option"].as_str()),
        (Some("ludii-1.0.8"), Some("intended"))
    );
    assert_eq!(off["metric"], "first_mover_win");
    assert!(off["difference"]["hi"].as_f64().unwrap() < -0.3, "{off}");
    assert_eq!(off["verdict"], "differs");
}

/// Um el Banât's passage has two witnesses: the differences inside the spans the ruleset
/// quotes are listed, each with the quote it falls in, and none outside them.
#[test]
fn witness_variants_inside_quoted_spans() {
    let v = json(&[
        "flags",
        "um-el-banat",
        "-n",
        "4",
        "--max-plies",
        "3000",
        "--format",
        "json",
    ]);
    let variants = of_kind(&v, "witness-variant");
    let texts: Vec<&str> = variants
        .iter()
        .map(|f| f["text"].as_str().unwrap())
        .collect();
    assert!(
        texts.contains(&"… into which it [ → just] fell, and goes …"),
        "{texts:?}"
    );
    for f in &variants {
        let quotes = f["cites"].as_array().unwrap();
        assert!(!quotes.is_empty(), "{f}");
        for q in quotes {
            assert_eq!(q["at"], "davies-1925#um-el-banat", "{f}");
        }
    }
    // A game whose passages have one witness each has none.
    let seega = json(&["flags", "seega", "-n", "4", "--format", "json"]);
    assert!(of_kind(&seega, "witness-variant").is_empty());
}

/// The synthetic corpus with an engine: an encoding of the game, which the reading `engine`
/// follows (it sets the cap itself), and the option `count = five` marked as that engine's
/// behaviour, which `engine` takes.
fn with_engine() -> tempfile::TempDir {
    let dir = synthetic();
    std::fs::write(
        dir.path().join("sources/enc.yaml"),
        r#"schema_version: 1
id: enc
kind: encodings
title: A made-up game system's encodings
encodings:
  - id: "enc-1#um-el-bagara"
    game: um-el-bagara
    system: Enc
    version: "1"
    repository: nowhere/enc
    path: cow.enc
    commit: "0000000000000000000000000000000000000000"
"#,
    )
    .unwrap();
    let path = dir.path().join("rulesets/um-el-bagara.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace(
            "        sets: { daughter_count: 5 }\n",
            "        sets: { daughter_count: 5 }\n        engine: A made-up engine\n",
        )
        .replace(
            "    extends: literal\n    choose: { starter: first-seat }",
            "    extends: literal\n    by: [enc-1#um-el-bagara]\n    choose: { starter: first-seat, count: five }",
        );
    std::fs::write(&path, text).unwrap();
    dir
}

/// Engine artefacts, from the corpus: an option marked `engine:` in the readings that take
/// it, and a parameter a reading that follows an encoding sets itself; each with how often
/// the events its parameters decide fire, and switched off against the reading.
#[test]
fn engine_artefacts_on_a_synthetic_corpus() {
    // Without an encoding or a marked option there is none (the `engine` reading's own cap
    // rests on nobody's words: an interpolation, not an engine's).
    assert!(of_kind(&flags_json(&synthetic()), "engine-artefact").is_empty());

    let dir = with_engine();
    let v = flags_json(&dir);
    let found = of_kind(&v, "engine-artefact");
    let ids: Vec<&str> = found.iter().map(|f| f["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["choice:count=five", "set:cap"], "{found:?}");
    for f in &found {
        assert_eq!(f["readings"], serde_json::json!(["engine"]), "{f}");
    }
    // The daughters' count decides only the begetting of daughters, which never happens
    // here: measured at zero, and switching it off changes nothing.
    let five = found[0];
    assert!(five["title"].as_str().unwrap().contains("A made-up engine"));
    let freq = five["frequency"]["by_reading"].as_array().unwrap();
    assert_eq!(freq.len(), 1, "{freq:?}");
    assert_eq!(
        (
            &freq[0]["reading"],
            &freq[0]["event"],
            &freq[0]["games_with"]
        ),
        (&"engine".into(), &"daughter".into(), &0.into())
    );
    assert_eq!(five["effect"]["base"], "engine");
    assert_eq!(five["effect"]["option"], "four");
    assert_eq!(five["effect"]["verdict"], "no difference detected");
    // The cap the encoding's reading sets: switched off, the family's default (no cap).
    let rows = v["sensitivity"]["engine_artefacts"].as_array().unwrap();
    let cap: Vec<&Value> = rows.iter().filter(|r| r["artefact"] == "set:cap").collect();
    assert_eq!(cap.len(), 1, "{rows:?}");
    assert_eq!(
        (&cap[0]["reading"], &cap[0]["to"]),
        (&"engine".into(), &"default".into())
    );
    assert_eq!(cap[0]["sets"], serde_json::json!({"cap": null}));
    let events: Vec<&str> = found[1]["frequency"]["by_reading"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["cap-reached"]);
    // Its diff command plays the same two arms.
    let cmd = cap[0]["reproduce"].as_str().unwrap();
    assert!(cmd.ends_with("--set-b 'cap=null'"), "{cmd}");
    replays_the_same_arms(&dir, cmd, cap[0]["metrics"].as_array().unwrap());
    // A marked option that a source supports is refused by the loader.
    let path = dir.path().join("rulesets/um-el-bagara.yaml");
    let text = std::fs::read_to_string(&path).unwrap().replace(
        "        sets: { starter: lot }\n        register: [BG-01a]\n",
        "        sets: { starter: lot }\n        register: [BG-01a]\n        engine: Nobody's\n",
    );
    std::fs::write(&path, text).unwrap();
    let (code, out, _) = run(bin().arg("check").arg("--corpus").arg(dir.path()));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("rulesets/um-el-bagara.yaml:69:14: error[engine-with-source]"),
        "{out}"
    );
    assert!(
        out.contains("`roe#um-el-bagara` is a source's words"),
        "{out}"
    );
}

/// `--global` on the synthetic corpus: the draws depend on the tie rule alone (a tie is a
/// draw, or the game is played again), not on who begins nor on the daughters' count, which
/// no game uses; the indices find exactly that, and the design says what was played.
#[test]
fn global_indices_find_the_one_choice_that_matters() {
    let dir = synthetic();
    let flags = |threads: &str| -> Value {
        flags_with(
            &dir,
            &[
                "-n",
                "300",
                "--global",
                "--design",
                "400",
                "--threads",
                threads,
            ],
        )
    };
    let v = flags("2");
    let d = &v["sensitivity"]["global_design"];
    assert_eq!(d["factors"], serde_json::json!(["starter", "tie", "count"]));
    assert_eq!(
        (d["asked"].as_u64(), d["rows"].as_u64()),
        (Some(400), Some(80))
    );
    assert_eq!(d["refused"], 0);
    let readings = d["readings"].as_u64().unwrap();
    assert!((160..=400).contains(&readings), "{d}");
    assert_eq!(d["games"].as_u64(), Some(readings * 300));
    let draws = d["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["metric"] == "draw_or_timeout")
        .unwrap();
    assert_eq!(draws["varies"], true, "{draws}");
    let index = |choice: &str| {
        v["sensitivity"]["global"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["choice"] == choice && x["metric"] == "draw_or_timeout")
            .unwrap()
            .clone()
    };
    let tie = index("tie");
    for i in ["first_order", "total"] {
        assert!(tie[i]["value"].as_f64().unwrap() > 0.7, "{tie}");
        assert!(tie[i]["lo"].as_f64().unwrap() > 0.5, "{tie}");
    }
    for other in ["starter", "count"] {
        let x = index(other);
        let total = &x["total"];
        assert!(total["value"].as_f64().unwrap().abs() < 0.05, "{x}");
        assert!(total["lo"].as_f64().unwrap() < 0.0 + 1e-9, "{x}");
        assert!(total["hi"].as_f64().unwrap() < 0.1, "{x}");
        let first = &x["first_order"];
        assert!(
            first["lo"].as_f64().unwrap() < 0.0 && first["hi"].as_f64().unwrap() > 0.0,
            "{x}"
        );
    }
    // The same at another thread count; without --global, null.
    assert_eq!(flags("1")["sensitivity"], v["sensitivity"]);
    let plain = flags_json(&dir);
    assert!(plain["sensitivity"]["global"].is_null());
    assert!(plain["sensitivity"]["global_design"].is_null());
    // A design too small for the game's open points is refused before anything is played.
    let err = fails(&[
        "flags",
        "um-el-bagara",
        "--global",
        "--design",
        "39",
        "--corpus",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        err.contains(
            "--design 39: um-el-bagara has 3 open points with two options or more, so a \
             design needs 8 rows of 5 readings: give 40 to 100000"
        ),
        "{err}"
    );
    // --design without --global is refused by the parser.
    let err = fails(&["flags", "um-el-bagara", "--design", "400"]);
    assert!(err.contains("--global"), "{err}");
}
