//! Provenance on a small synthetic corpus (tests/fixtures/mini): two made-up works, Doe's
//! (`mini`) and Roe's (`roe`), and three readings of one game. `literal` reads Doe and takes
//! the starter option that only Roe's words carry (borrowed); `roe` reads Roe (grounded);
//! `engine` takes an option nobody's words carry (interpolated).

use crate::util::{bin, mini_corpus, run};

fn json(args: &[&str]) -> serde_json::Value {
    let dir = mini_corpus();
    let (code, out, err) = run(bin().args(args).arg("--corpus").arg(dir.path()));
    assert_eq!(code, 0, "{out}{err}");
    serde_json::from_str(&out).unwrap()
}

fn chosen_class(reading: &str) -> serde_json::Value {
    let v = json(&["show", "um-el-bagara", "-i", reading, "--format", "json"]);
    v["choices"][0]["class"].clone()
}

#[test]
fn an_option_quoting_the_basis_is_grounded() {
    let k = chosen_class("roe");
    assert_eq!(k["class"], "grounded", "{k}");
    assert_eq!(k["sources"], serde_json::json!(["Roe"]));
}

#[test]
fn an_option_quoting_only_another_source_is_borrowed_from_it() {
    let k = chosen_class("literal");
    assert_eq!(k["class"], "borrowed", "{k}");
    assert_eq!(k["sources"], serde_json::json!(["Roe"]));
}

#[test]
fn an_option_quoting_nothing_is_interpolated_by_whoever_its_by_names() {
    let k = chosen_class("engine");
    assert_eq!(k["class"], "interpolated", "{k}");
    assert_eq!(k["by"], serde_json::json!(["reading: the tests"]));
}

#[test]
fn clauses_are_classed_against_each_readings_basis() {
    let v = json(&["show", "um-el-bagara", "-i", "literal", "--format", "json"]);
    let class = |id: &str| {
        v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["class"]["class"]
            .clone()
    };
    assert_eq!(class("board"), "grounded");
    assert_eq!(class("the-rest"), "interpolated");
    // The same clause, for a reading of Roe, rests on another source.
    let v = json(&["show", "um-el-bagara", "-i", "roe", "--format", "json"]);
    let board = v["rules"].as_array().unwrap()[0]["class"].clone();
    assert_eq!(board["class"], "borrowed");
    assert_eq!(board["sources"], serde_json::json!(["Doe"]));
}

#[test]
fn list_and_show_sum_the_classes() {
    let v = json(&["list", "--format", "json"]);
    let literal = &v["games"][0]["interpretations"][0];
    assert_eq!(literal["id"], "literal");
    assert_eq!(literal["basis"], serde_json::json!(["mini#um-el-bagara"]));
    let p = &literal["provenance"];
    assert_eq!(
        (
            p["grounded"].as_u64(),
            p["borrowed"].as_u64(),
            p["interpolated"].as_u64()
        ),
        (Some(2), Some(1), Some(1)),
        "{p}"
    );
    assert_eq!(p["borrowed_from"]["Roe"], 1);
    let dir = mini_corpus();
    let (_, out, _) = run(bin()
        .args(["show", "um-el-bagara", "-i", "literal", "--corpus"])
        .arg(dir.path()));
    assert!(
        out.contains("provenance: 2 grounded, 1 borrowed (Roe 1), 1 interpolated"),
        "{out}"
    );
    assert!(out.contains("▶ lot [borrowed: Roe]"), "{out}");
}

#[test]
fn run_counts_events_decided_by_a_borrowed_parameter() {
    // The lot is drawn once a game, and `literal` takes it from Roe.
    let v = json(&[
        "run",
        "um-el-bagara",
        "-i",
        "literal",
        "-n",
        "20",
        "--format",
        "json",
    ]);
    let e = &v["events"];
    assert_eq!(e["borrowed:the-rest"]["games"], 20, "{e}");
    assert_eq!(e["lot"]["games"], 20, "{e}");
    // For the reading of Roe the lot is grounded: nothing is flagged for it.
    let v = json(&[
        "run",
        "um-el-bagara",
        "-i",
        "roe",
        "-n",
        "20",
        "--format",
        "json",
    ]);
    assert!(
        v["events"].get("borrowed:the-rest").is_none(),
        "{}",
        v["events"]
    );
    // Every output format carries it.
    let dir = mini_corpus();
    let (_, out, _) = run(bin()
        .args([
            "run",
            "um-el-bagara",
            "-i",
            "literal",
            "-n",
            "5",
            "--format",
            "csv",
            "--corpus",
        ])
        .arg(dir.path()));
    let header: Vec<&str> = out.lines().next().unwrap().split(',').collect();
    assert_eq!(
        header[header.len() - 3..],
        ["uncovered", "borrowed", "agents"],
        "{out}"
    );
    for row in out.lines().skip(1) {
        assert!(row.ends_with(",the-rest=1,random;random"), "{row}");
    }
}

#[test]
fn the_matrix_and_the_point_say_who_takes_each_reading() {
    let v = json(&["show", "um-el-bagara", "--readings", "--format", "json"]);
    assert_eq!(
        v["interpretations"],
        serde_json::json!(["literal", "engine", "roe"])
    );
    let row = &v["points"][0];
    assert_eq!(row["point"], "BG-01");
    assert_eq!(
        row["cells"][0]["takes"][0]["readings"],
        serde_json::json!(["BG-01a"])
    );
    assert_eq!(row["cells"][0]["takes"][0]["class"]["class"], "borrowed");
    assert_eq!(row["cells"][1]["takes"][0]["name"], "first-seat");
    let p = json(&["point", "BG-01", "--format", "json"]);
    let a = &p["point"]["readings"][0];
    assert_eq!(a["id"], "BG-01a");
    assert_eq!(a["taken"][0]["by"], "choice starter = lot");
    let takers: Vec<&str> = a["taken"][0]["interpretations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!(takers, ["literal", "roe"]);
    // A register id given to `sources` shows the point too; an unknown one suggests.
    let dir = mini_corpus();
    let (code, out, _) = run(bin()
        .args(["sources", "BG-S01", "--corpus"])
        .arg(dir.path()));
    assert_eq!(code, 0);
    assert!(out.contains("Singletons are frozen"), "{out}");
    let (code, _, err) = run(bin().args(["point", "BG-1", "--corpus"]).arg(dir.path()));
    assert_eq!(code, 2);
    assert!(err.contains("did you mean"), "{err}");
}

/// The games of the built-in corpus.
const GAMES: [&str; 7] = [
    "um-el-banat",
    "um-el-bagara",
    "um-el-tuweisat",
    "seega",
    "lib-el-merafib",
    "sijat-el-taba",
    "lib-al-aqil",
];

/// Lane refers the relay to "the former mode", which the corpus does not hold: the deferral
/// grounds nothing, so under the `lane` reading the relay is the DLP's, borrowed.
#[test]
fn a_deferral_grounds_nothing() {
    let v = crate::util::json(&["show", "lib-al-aqil", "-i", "lane", "--format", "json"]);
    for id in ["relay", "capture", "capture-opposite"] {
        let rule = v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == id)
            .unwrap();
        assert_eq!(rule["class"]["class"], "borrowed", "{id}: {rule}");
        assert_eq!(rule["class"]["sources"], serde_json::json!(["DLP"]), "{id}");
        let note = rule["cites"][0]["note"].as_str().unwrap_or_default();
        assert!(
            note.starts_with("defers to Lane's former mode"),
            "{id}: {note}"
        );
    }
}

/// An option that quotes the very words its choice asks about is not grounded by them: the
/// hyena's "two to come away with" is the question of `well-exit`, not an answer to it. And
/// in every ruleset, an option's quote that lies inside one of its own choice's quotes is
/// marked as the question's words (a check independent of the loader's span arithmetic).
#[test]
fn no_option_is_grounded_by_its_own_questions_words() {
    let v = crate::util::json(&["show", "lib-el-merafib", "--format", "json"]);
    let exit = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "well-exit")
        .unwrap();
    let two_last = exit["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "two-last")
        .unwrap();
    assert!(
        two_last["cites"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["note"].as_str().is_some_and(|n| n.contains("question"))),
        "{two_last}"
    );
    let fold = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut checked = 0;
    for game in GAMES {
        let v = crate::util::json(&["show", game, "--format", "json"]);
        for choice in v["choices"].as_array().unwrap() {
            let asked: Vec<(serde_json::Value, String)> = choice["cites"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c["at"].clone(), fold(c["quote"].as_str().unwrap())))
                .collect();
            for o in choice["options"].as_array().unwrap() {
                for c in o["cites"].as_array().unwrap() {
                    let q = fold(c["quote"].as_str().unwrap());
                    let inside = asked.iter().any(|(at, a)| *at == c["at"] && a.contains(&q));
                    if inside {
                        checked += 1;
                        assert!(
                            c["note"].as_str().is_some_and(|n| n.contains("question")),
                            "{game} {}={}: «{q}» is its question's words",
                            choice["id"],
                            o["id"]
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} quotes inside their question");
}

/// `flags` never reports a source as supporting an option by the question's own words.
#[test]
fn flags_do_not_count_the_questions_words_as_support() {
    let v = crate::util::json(&["flags", "lib-el-merafib", "-n", "2", "--format", "json"]);
    for f in v["flags"].as_array().unwrap() {
        let title = f["title"].as_str().unwrap();
        assert!(
            !title.contains("supports two-last"),
            "a conflict rests on the question's words: {title}"
        );
    }
}

/// Two options of one choice that set the same parameters are one rule, held once with all
/// its proponents (Li'b al-'Aqil had fifteen `-for-lane` twins), so `flags` reports no
/// conflict between identical rules; a former id still switches the merged option in, with
/// a note.
#[test]
fn no_two_options_of_a_choice_set_the_same_parameters() {
    for game in GAMES {
        let v = crate::util::json(&["show", game, "--format", "json"]);
        for choice in v["choices"].as_array().unwrap() {
            let sets: Vec<&serde_json::Value> = choice["options"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| &o["sets"])
                .collect();
            for (i, s) in sets.iter().enumerate() {
                assert!(
                    !sets[..i].contains(s),
                    "{game} {}: two options set {s}",
                    choice["id"]
                );
            }
        }
    }
    let flags = crate::util::json(&["flags", "lib-al-aqil", "-n", "2", "--format", "json"]);
    for f in flags["flags"].as_array().unwrap() {
        assert!(
            !f["id"].as_str().unwrap().contains("for-lane"),
            "{}",
            f["title"]
        );
    }
    let (code, out, err) = crate::util::run(crate::util::bin().args([
        "run",
        "lib-al-aqil",
        "-i",
        "lane",
        "--choose",
        "relay-when=odd-for-lane",
        "-n",
        "2",
        "--format",
        "json",
    ]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("`odd-for-lane` is now part of `odd`"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["choose"]["relay-when"], "odd", "{v}");
}

/// In a reading's rule book each rule's note gives its class as the loader computed it: the
/// option only Roe's words carry is borrowed from Roe, the clause nobody's words carry is
/// interpolated by whoever its `by:` names, and a rule the reading sets itself (here the tie,
/// moved from the clause into the reading) is a rule of the book with its own note.
#[test]
fn a_rule_book_notes_each_rules_class_and_the_readings_own_settings() {
    let dir = mini_corpus();
    let ruleset = dir.path().join("rulesets/um-el-bagara.yaml");
    let text = std::fs::read_to_string(&ruleset).unwrap();
    let text = text.replace("      tie: draw\n", "").replace(
        "    basis: [mini#um-el-bagara]\n    choose: { starter: lot }\n",
        "    basis: [mini#um-el-bagara]\n    by: [\"reading: the tests, a tie is a draw\"]\n    \
         choose: { starter: lot }\n    sets: { tie: draw }\n",
    ).replace(
        "    basis: [roe]\n    choose: { starter: lot }\n",
        "    basis: [roe]\n    by: [\"reading: the tests\"]\n    choose: { starter: lot }\n    sets: { tie: draw }\n",
    );
    std::fs::write(&ruleset, text).unwrap();
    let (code, md, err) = run(bin()
        .args([
            "show",
            "um-el-bagara",
            "-i",
            "literal",
            "--format",
            "markdown",
            "--corpus",
        ])
        .arg(dir.path()));
    assert_eq!(code, 0, "{err}");
    let note = |n: usize| {
        let start = md
            .find(&format!("\n[^{n}]: "))
            .unwrap_or_else(|| panic!("{md}"));
        md[start + 1..].lines().next().unwrap().to_owned()
    };
    assert!(
        note(1).ends_with("(Doe 2000: 1, `mini#um-el-bagara`). Grounded in Doe."),
        "{md}"
    );
    assert_eq!(
        note(3),
        "[^3]: Clause `the-rest`, which quotes no words. Interpolated by the tests."
    );
    assert!(
        md.contains("Everything else.[^3] By lot.[^4]")
            && note(4).ends_with("Proposed by `roe#um-el-bagara`. Borrowed from Roe."),
        "{md}"
    );
    assert!(
        md.contains("\n\nThe reading itself sets `tie` to `draw` (Equal totals")
            && note(5)
                .ends_with("which quotes no words. Interpolated by the tests, a tie is a draw."),
        "{md}"
    );
    // Then the fixture's one remark, and no other note.
    assert!(
        md.contains("It is played mostly by children.[^6]")
            && note(6).starts_with("[^6]: Remark `children` (who-plays): “mostly by children”"),
        "{md}"
    );
    assert!(!md.contains("[^7]"), "{md}");
    assert!(
        md.contains("**Taken: `lot`.** By lot. Proposed by `roe#um-el-bagara`. Borrowed from Roe.\n\nNot taken:\n\n- `first-seat`: Seat 1. Proposed by the tests.\n"),
        "{md}"
    );
}

/// The option `choice=option` of `game`, from `show`'s JSON.
fn option_of(v: &serde_json::Value, choice: &str, option: &str) -> serde_json::Value {
    let c = v["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == choice)
        .unwrap_or_else(|| panic!("no choice {choice}"));
    c["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == option)
        .unwrap_or_else(|| panic!("no option {choice}={option}"))
        .clone()
}

/// The slips the second reading of the corpus found stay fixed: options that cited Davies
/// for what he does not say cite no words of his that ground them, clauses say no more than
/// their words, and the readings named after a source take what its words ground.
#[test]
fn the_attribution_slips_stay_fixed() {
    // (game, choice, option, the passage whose words must not ground it)
    let not_grounded_in = [
        (
            "um-el-banat",
            "driven-off",
            "no-full-four",
            "davies-1925#um-el-banat",
        ),
        (
            "um-el-banat",
            "blocked-player",
            "stage-ends-uncounted",
            "davies-1925#um-el-banat",
        ),
        (
            "um-el-banat",
            "repetition",
            "reckon-takings",
            "davies-1925#um-el-banat",
        ),
        (
            "um-el-banat",
            "emptied-daughter",
            "empty-stops",
            "davies-1925#um-el-banat",
        ),
        (
            "um-el-banat",
            "extra-houses",
            "chosen",
            "davies-1925#um-el-banat",
        ),
        (
            "sijat-el-taba",
            "unusable",
            "bank",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "end",
            "courses-run",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "limit",
            "standstill",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "must-move",
            "must-move",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "overshoot",
            "illegal",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "overtaken",
            "all",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "enemy-house",
            "beside-enemy",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "release",
            "credit",
            "davies-1925#sijat-el-taba",
        ),
        (
            "sijat-el-taba",
            "release",
            "at-throw",
            "davies-1925#sijat-el-taba",
        ),
        (
            "lib-el-merafib",
            "out-credit",
            "last-hollow",
            "davies-1925#lib-el-merafib",
        ),
        (
            "lib-el-merafib",
            "out-credit",
            "last-hollow",
            "DLP.Evidence.1252",
        ),
        (
            "lib-el-merafib",
            "head-on",
            "spared",
            "davies-1925#lib-el-merafib",
        ),
        (
            "lib-el-merafib",
            "well-exit",
            "two-last",
            "davies-1925#lib-el-merafib",
        ),
        ("lib-al-aqil", "reach", "at-least", "lane-1836#lib-al-aqil"),
        (
            "lib-al-aqil",
            "distribution",
            "conventional-four",
            "lane-1836#lib-al-aqil",
        ),
    ];
    for (game, choice, option, at) in not_grounded_in {
        let v = crate::util::json(&["show", game, "--format", "json"]);
        let o = option_of(&v, choice, option);
        let says = |c: &&serde_json::Value| c["at"] == at && c.get("note").is_none();
        assert!(
            !o["cites"].as_array().unwrap().iter().any(|c| says(&c)),
            "{game} {choice}={option} rests on words of {at}: {o}"
        );
        assert!(
            !o["by"].as_array().unwrap().iter().any(|b| b == at),
            "{game} {choice}={option} names {at} as its proponent: {o}"
        );
    }
    // Clauses that said more than their words.
    for (game, clause, overclaim) in [
        ("lib-el-merafib", "before-leaving", "is lost"),
        ("sijat-el-taba", "spare-tabas", "those added are spent"),
        ("seega", "board", "distinguishable"),
    ] {
        let v = crate::util::json(&["show", game, "--format", "json"]);
        let c = v["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == clause)
            .unwrap();
        assert!(
            !c["says"].as_str().unwrap().contains(overclaim),
            "{game} {clause}: {}",
            c["says"]
        );
    }
    // Readings named after a source take what its words ground, or say why not.
    for (game, reading, choice, option) in [
        ("um-el-banat", "dlp", "sow-from", "own-row"),
        (
            "lib-el-merafib",
            "davies",
            "out-credit",
            "last-hollow-optional",
        ),
    ] {
        let v = crate::util::json(&["show", game, "-i", reading, "--format", "json"]);
        let c = v["choices"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == choice)
            .unwrap();
        assert_eq!(c["chosen"], option, "{game} -i {reading}");
        assert_eq!(c["class"]["class"], "grounded", "{game} -i {reading}: {c}");
    }
    let v = crate::util::json(&["show", "um-el-banat", "-i", "ludii", "--format", "json"]);
    let departs = &v["interpretation"]["departs"];
    assert_eq!(departs[0]["choice"], "driven-off", "{departs}");
    assert!(departs[0]["why"].as_str().unwrap().contains("never ends"));
    // Metadata: who plays Um el Tuweisat is Davies' "children's version" and the editors'.
    let v = crate::util::json(&["show", "um-el-tuweisat", "--format", "json"]);
    let people = v["people"].as_str().unwrap();
    assert!(
        people.contains("a children's version of Um El Bagara") && people.contains("editors'"),
        "{people}"
    );
}
