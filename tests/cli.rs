//! The commands, run as a user runs them, on the built-in corpus.

use crate::util::{bin, json, mini_corpus, ok, run};

#[test]
fn list_json_is_the_published_contract() {
    let v = json(&["list", "--format", "json"]);
    assert_eq!(v["schema_version"], 1);
    let games = v["games"].as_array().unwrap();
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert!(
        ids.contains(&"um-el-bagara") && ids.contains(&"um-el-tuweisat"),
        "{ids:?}"
    );
    for g in games {
        assert_eq!(
            g.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["id", "name", "family", "interpretations"]
        );
        for i in g["interpretations"].as_array().unwrap() {
            assert_eq!(
                i.as_object().unwrap().keys().collect::<Vec<_>>(),
                ["id", "title", "basis", "provenance"]
            );
        }
    }
}

#[test]
fn list_renders_as_table_and_markdown() {
    assert!(ok(&["list"]).contains("um-el-bagara"));
    let md = ok(&["list", "--format", "markdown"]);
    assert!(md.starts_with("| game |"), "{md}");
}

#[test]
fn show_prints_clauses_with_quotes_and_pages_and_options_with_proponents() {
    let out = ok(&["show", "um-el-bagara"]);
    assert!(out.contains("RULES") && out.contains("OPEN POINTS"));
    assert!(
        out.contains("A very important rule is that a single counter in a house cannot be moved"),
        "{out}"
    );
    assert!(out.contains("Davies 1925: 140–141"));
    assert!(out.contains("by: ludii-1.3.11#um-el-bagara"));
    // A Waterloo quote gets the page its witness marks.
    let tw = ok(&["show", "um-el-tuweisat"]);
    assert!(tw.contains("(Davies 1925: 143)"), "{tw}");
}

#[test]
fn show_with_an_interpretation_marks_choices_and_defaults() {
    let out = ok(&["show", "um-el-tuweisat", "-i", "ludii-1.0.8"]);
    assert!(out.contains("PARAMETERS of ludii-1.0.8"));
    assert!(out.contains("▶ quirk"), "{out}");
    let v = json(&[
        "show",
        "um-el-bagara",
        "--interpretation",
        "davies",
        "--format",
        "json",
    ]);
    let params = v["interpretation"]["params"].as_array().unwrap();
    let cap = params.iter().find(|p| p["name"] == "cap").unwrap();
    assert_eq!(cap["default"], true);
    let holes = params.iter().find(|p| p["name"] == "holes").unwrap();
    assert_eq!(holes["default"], false);
    assert_eq!(holes["kind"], "rule");
    assert!(
        v["choices"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| !c["chosen"].is_null())
    );
    // In Markdown, the reading is a rule book, ending with the options it takes.
    let md = ok(&[
        "show",
        "um-el-bagara",
        "-i",
        "ludii",
        "--format",
        "markdown",
    ]);
    assert!(
        md.starts_with("# Um el-Bagara: the reading `ludii`")
            && md.contains("**Taken: `first-seat`.**"),
        "{md}"
    );
}

#[test]
fn unknown_ids_are_usage_errors_listing_the_valid_ones() {
    let (exit, _, err) = run(bin().args(["show", "chess"]));
    assert_eq!(exit, 2);
    assert!(
        err.contains("unknown game `chess`; the games are: seega, um-el-bagara, um-el-tuweisat"),
        "{err}"
    );
    let (exit, _, err) = run(bin().args(["show", "um-el-bagara", "-i", "murray"]));
    assert_eq!(exit, 2);
    assert!(
        err.contains("its interpretations are: davies, dlp, ludii, ludii-1.0.8"),
        "{err}"
    );
    let (exit, _, err) = run(bin().args(["sources", "nobody-1900"]));
    assert_eq!(exit, 2);
    assert!(err.contains("davies-1925"), "{err}");
    let (exit, _, err) = run(bin().args(["collate", "davies-1925#chess"]));
    assert_eq!(exit, 2);
    assert!(err.contains("davies-1925#um-el-banat"), "{err}");
    let (exit, _, err) = run(bin().args(["cite", "um-el-bagara", "--style", "apa"]));
    assert_eq!(exit, 2);
    assert!(err.contains("bibtex"), "{err}");
}

#[test]
fn sources_lists_everything_and_shows_each_kind() {
    let all = ok(&["sources"]);
    for id in [
        "davies-1925#um-el-banat",
        "DLP.Evidence.1410",
        "ludii-1.0.8#um-el-tuweisat",
        "waterloo-um-el-banat",
    ] {
        assert!(all.contains(id), "{id}");
    }
    let p = ok(&["sources", "davies-1925#um-el-banat"]);
    assert!(p.contains("[p. 144]") && p.contains("⟨Figure 9⟩"), "{p}");
    let e = json(&["sources", "DLP.Evidence.1410", "--format", "json"]);
    let f = &e["items"][0]["fields"];
    assert!(f["rules"].as_str().unwrap().starts_with("4x6 board."));
    assert_eq!(f["ages"], "Adult");
    assert_eq!(f["confidence"], 100);
    let w = ok(&["sources", "davies-1925"]);
    assert!(
        w.contains("Sudan Notes and Records") && w.contains("davies-1925#seega"),
        "{w}"
    );
    let lane = ok(&["sources", "lane-1836#lib-al-aqil"]);
    assert!(lane.contains("[…]"), "{lane}");
}

#[test]
fn collate_shows_the_word_level_differences_of_the_um_el_banat_witnesses() {
    let v = json(&["collate", "davies-1925#um-el-banat", "--format", "json"]);
    let variants = v["comparisons"][0]["variants"].as_array().unwrap();
    let pairs: Vec<(String, String)> = variants
        .iter()
        .map(|x| {
            (
                x["base"].as_str().unwrap().to_owned(),
                x["other"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let has = |a: &str, b: &str| {
        pairs
            .iter()
            .any(|(x, y)| x.contains(a) && y.contains(b) || x.contains(b) && y.contains(a))
    };
    assert!(has("picked", "piked"), "{pairs:?}");
    assert!(has("in to", "into"), "{pairs:?}");
    assert!(has("determinating", "determining"), "{pairs:?}");
    let text = ok(&["collate", "davies-1925#um-el-banat"]);
    assert!(text.contains("difference(s)"));
    let single = ok(&["collate", "davies-1925#seega"]);
    assert!(single.contains("one witness"));
}

#[test]
fn cite_renders_bibtex_csl_json_and_text() {
    let bib = ok(&["cite", "um-el-bagara", "--style", "bibtex"]);
    assert!(bib.contains("@article{davies-1925,"), "{bib}");
    assert!(
        bib.contains("pages = {137--152}") && bib.contains("journal = {Sudan Notes and Records}"),
        "{bib}"
    );
    assert!(bib.contains("Game described on pp. 140--141"), "{bib}");
    let csl = json(&["cite", "um-el-bagara", "--style", "csl-json"]);
    let items = csl.as_array().unwrap();
    assert_eq!(items[0]["type"], "article-journal");
    assert_eq!(items[0]["container-title"], "Sudan Notes and Records");
    // The text is the CSL processor's, in APA unless another style is named, with the
    // in-text citation and its pages.
    let text = ok(&["cite", "um-el-tuweisat"]);
    assert!(
        text.contains(
            "Davies, R. (1925). Some Arab games and puzzles. Sudan Notes and Records, 8, 137–152. \
             [Key: davies-1925] [In the text: (Davies, 1925, pp. 141–142).]"
        ),
        "{text}"
    );
    // A file of Ludii 1.0.8, credited in its own metadata: its author leads, with its
    // version, not its repository.
    assert!(
        text.lines().any(|l| l.starts_with("Piette, E. (n.d.")
            && l.contains("Um el Tuweisat.lud (Ludii) (Version 1.0.8)")
            && l.contains("automenta/ludii")),
        "{text}"
    );
    let cse = ok(&["cite", "um-el-tuweisat", "--csl", "cse-name-year"]);
    assert!(cse.contains("(Davies 1925: 141–142)"), "{cse}");
    let err = usage_error(&["cite", "um-el-tuweisat", "--csl", "chicago-ish"]);
    assert!(
        err.contains("--csl chicago-ish: no such style; the styles are ")
            && err.contains("apa")
            && err.contains("chicago-author-date"),
        "{err}"
    );
    let err = usage_error(&[
        "cite",
        "um-el-tuweisat",
        "--style",
        "bibtex",
        "--csl",
        "apa",
    ]);
    assert!(
        err.contains("--csl chooses how the text is rendered"),
        "{err}"
    );
}

#[test]
fn schema_maps_every_published_format_to_a_json_schema() {
    let v = json(&["schema"]);
    let f = v["formats"].as_object().unwrap();
    for k in [
        "source-file",
        "ruleset-file",
        "ruleset-sets/sowing",
        "output/list",
        "output/show",
        "output/check",
    ] {
        assert!(f[k]["$schema"].is_string(), "{k}");
    }
    assert_eq!(f["ruleset-file"]["additionalProperties"], false);
}

#[test]
fn completions_are_generated() {
    assert!(ok(&["completions", "bash"]).contains("complete"));
    assert!(ok(&["completions", "zsh"]).contains("#compdef ludotrace"));
}

#[test]
fn global_options_work_before_or_after_the_subcommand_and_from_the_environment() {
    let dir = mini_corpus();
    let path = dir.path().to_str().unwrap();
    let after = ok(&["list", "--corpus", path, "--format", "json"]);
    let before = ok(&["--format", "json", "--corpus", path, "list"]);
    assert_eq!(after, before);
    let (exit, env_out, _) = run(bin()
        .env("LUDOTRACE_CORPUS", path)
        .args(["list", "--format", "json"]));
    assert_eq!(exit, 0);
    assert_eq!(env_out, after);
    assert!(
        after.contains("\"literal\""),
        "the mini corpus was used: {after}"
    );
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let plain = ok(&["show", "um-el-bagara"]);
    assert!(
        !plain.contains('\u{1b}'),
        "NO_COLOR is set by the test helper"
    );
    let coloured = ok(&["--color", "always", "show", "um-el-bagara"]);
    assert!(coloured.contains("\u{1b}["));
    let (_, never, _) =
        run(bin()
            .env_remove("NO_COLOR")
            .args(["--color", "never", "show", "um-el-bagara"]));
    assert!(!never.contains('\u{1b}'));
}

#[test]
fn check_json_reports_stats_and_no_problems() {
    let v = json(&["check", "--format", "json"]);
    assert_eq!(v["ok"], true);
    assert!(v["stats"]["quotes"].as_u64().unwrap() > 50);
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 0);
}

#[test]
fn quiet_check_prints_only_problems() {
    assert_eq!(ok(&["check", "--quiet"]), "");
}

/// A trace file of the test data.
fn trace(file: &str) -> String {
    crate::util::root()
        .join("tests/data/ludii-traces")
        .join(file)
        .display()
        .to_string()
}

#[test]
fn replay_reports_no_divergence_and_exits_0() {
    let out = ok(&[
        "replay",
        "um-el-tuweisat",
        "-i",
        "ludii-1.0.8",
        &trace("um-el-tuweisat.jsonl"),
    ]);
    assert!(
        out.contains("20 playout(s) and 290 of 290 decisions checked · 0 playout(s) diverge"),
        "{out}"
    );
    assert!(out.contains("in Ludii's order"), "{out}");
    let v = json(&[
        "replay",
        "sijat-el-taba",
        "-i",
        "ludii-1.0.8",
        &trace("sijat-el-taba.jsonl"),
        "--format",
        "json",
    ]);
    assert_eq!(
        v.as_object().unwrap().keys().collect::<Vec<_>>(),
        [
            "schema_version",
            "game",
            "interpretation",
            "playouts",
            "decisions",
            "divergences",
            "legal_order_checked",
            "first_divergences",
            "decisions_checked"
        ]
    );
    assert_eq!(
        (&v["playouts"], &v["decisions"], &v["divergences"]),
        (
            &serde_json::json!(20),
            &serde_json::json!(4134),
            &serde_json::json!(0)
        )
    );
}

#[test]
fn replay_exits_1_on_a_divergence_and_names_the_step() {
    // Seega 5×5 replayed under the 1.3.x reading (no safe middle cell, no loose extra move):
    // Ludii 1.0.8's games part from it.
    let (code, out, _) =
        run(bin().args(["replay", "seega", "-i", "ludii", &trace("seega-5x5.jsonl")]));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("playout(s) diverge"), "{out}");
    assert!(out.contains("playout 0 (line 1), step "), "{out}");
    assert!(
        out.contains("  Ludii: ") && out.contains("  ours:  "),
        "{out}"
    );
}

#[test]
fn replay_bad_input_exits_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    let good = std::fs::read_to_string(trace("um-el-bagara.jsonl")).unwrap();
    let first = good.lines().next().unwrap();
    std::fs::write(&bad, format!("{first}\n{{\"playout\": 1, \"steps\": [\n")).unwrap();
    let bad = bad.display().to_string();
    let (code, _, err) = run(bin().args(["replay", "um-el-bagara", "-i", "ludii-1.0.8", &bad]));
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{bad}:2: not a trace playout")),
        "{err}"
    );
    // A 7×7 game through the 5×5 reading.
    let (code, _, err) = run(bin().args([
        "replay",
        "seega",
        "-i",
        "ludii-1.0.8",
        &trace("seega-7x7.jsonl"),
    ]));
    assert_eq!(code, 2);
    assert!(err.contains(":1: the trace's `who` has 49 sites"), "{err}");
    // A game Ludii 1.0.8 never had.
    let (code, _, err) = run(bin().args([
        "replay",
        "lib-el-merafib",
        "-i",
        "ludii",
        &trace("sijat-el-taba.jsonl"),
    ]));
    assert_eq!(code, 2);
    assert!(err.contains("records no traces"), "{err}");
    // No such file.
    let (code, _, err) = run(bin().args(["replay", "seega", "-i", "ludii-1.0.8", "nope.jsonl"]));
    assert_eq!(code, 2);
    assert!(err.contains("nope.jsonl"), "{err}");
}

#[test]
fn every_error_has_the_same_prefix_and_speaks_the_users_words() {
    // clap's own errors, the program's, and an error about a value.
    for args in [
        &["bogus"][..],
        &["run", "seega", "-n", "x"],
        &["show", "seega", "--nope"],
        &["show", "nowhere"],
        &["run", "seega", "-n", "1", "--set", "blocked"],
        &["run", "seega", "-n", "1", "--set", "blocked=3"],
        &["run", "sijat-el-taba", "-n", "1", "--set", "cap={"],
        &["report"],
    ] {
        let err = usage_error(args);
        assert!(
            err.starts_with("ludotrace: error: ") && !err.contains("\nerror:"),
            "{args:?}: {err}"
        );
        // No Rust type, no other family's parameter given as an example.
        for word in [
            "u8",
            "usize",
            "invalid type",
            "string or map",
            "skip_origin",
            "cap=",
        ] {
            if !args.iter().any(|a| a.contains(word)) {
                assert!(!err.contains(word), "{args:?} says `{word}`: {err}");
            }
        }
    }
    // `report` without a game says how to make them all.
    assert!(usage_error(&["report"]).contains("<GAME|--all>"));
    // A trace file's format is in the source repository, not beside the binary.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"playout\": \"one\"}\n").unwrap();
    let err = usage_error(&[
        "replay",
        "seega",
        "-i",
        "ludii-1.0.8",
        &bad.display().to_string(),
    ]);
    assert!(
        err.contains("TRACES.md, in ludotrace's source repository under tests/data/ludii-traces/")
            && !err.contains("invalid type"),
        "{err}"
    );
}

/// `ludotrace ARGS`, which must fail with exit 2; returns stderr.
fn usage_error(args: &[&str]) -> String {
    let (exit, out, err) = run(bin().args(args));
    assert_eq!(
        exit, 2,
        "ludotrace {args:?} should be a usage error: {out}{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// The id `show` prints in its heading line (`Name (aliases)  [id, family]`).
fn shown_game(args: &[&str]) -> String {
    let out = ok(args);
    let head = out.lines().next().unwrap();
    let start = head.rfind('[').unwrap() + 1;
    head[start..].split(',').next().unwrap().to_owned()
}

#[test]
fn games_are_found_by_any_name_in_any_case_or_by_an_unambiguous_prefix() {
    for (asked, id) in [
        ("Um-El-Bagara", "um-el-bagara"),
        ("Mangala", "um-el-bagara"),
        ("the cow game", "um-el-bagara"),
        ("Um el Banat", "um-el-banat"),
        ("Li'b al-'Aqil", "lib-al-aqil"),
        ("KHAMSAWEE", "seega"),
        // A full name wins over a prefix: Davies' Sija is Seega.
        ("sija", "seega"),
        ("sijat", "sijat-el-taba"),
        ("um-el-t", "um-el-tuweisat"),
    ] {
        assert_eq!(shown_game(&["show", asked]), id, "show {asked}");
    }
    let cite = ok(&["cite", "mangala"]);
    assert!(cite.contains("Davies, R. (1925)"), "{cite}");
    let err = usage_error(&["show", "um"]);
    assert!(
        err.contains("`um` could be any of these games: um-el-bagara (Um el-Bagara), um-el-tuweisat (Um el Tuweisat), um-el-banat (Um el Banât)"),
        "{err}"
    );
    let err = usage_error(&["cite", "sega"]);
    assert!(
        err.contains("unknown game `sega` (did you mean `seega`?); the games are: seega, "),
        "{err}"
    );
    let err = usage_error(&["run", "um-el-bagra", "-n", "1"]);
    assert!(err.contains("(did you mean `um-el-bagara`?)"), "{err}");
}

#[test]
fn readings_are_found_in_any_case_and_a_misspelling_gets_a_suggestion() {
    let out = ok(&["show", "um-el-bagara", "-i", "Ludii-1.0.8"]);
    assert!(out.contains("PARAMETERS of ludii-1.0.8"), "{out}");
    let err = usage_error(&["show", "seega", "-i", "davis"]);
    assert!(
        err.contains("game `seega` has no interpretation `davis` (did you mean `davies`?); its interpretations are: davies, "),
        "{err}"
    );
    let err = usage_error(&["run", "seega", "-i", "murray", "-n", "1"]);
    assert!(!err.contains("did you mean"), "nothing is near: {err}");
}

#[test]
fn subcommands_and_options_get_clap_suggestions() {
    // `lst` is as near `site` as `list`; `listt` is near `list` alone.
    let err = usage_error(&["listt"]);
    assert!(err.contains("a similar subcommand exists: 'list'"), "{err}");
    let err = usage_error(&["lst"]);
    assert!(err.contains("'list'") && err.contains("'site'"), "{err}");
    let err = usage_error(&["list", "--formt", "json"]);
    assert!(
        err.contains("a similar argument exists: '--format'"),
        "{err}"
    );
}

#[test]
fn set_names_a_choice_given_as_a_parameter_and_how_to_take_its_option() {
    let err = usage_error(&["run", "um-el-bagara", "-n", "1", "--set", "chain-rows=any"]);
    assert!(
        err.contains("--set chain-rows: `chain-rows` is a choice, not a parameter; it sets `chain_rows`. To play its option `any`, write --choose chain-rows=any (or --set chain_rows=any)"),
        "{err}"
    );
    let err = usage_error(&["run", "um-el-bagara", "-n", "1", "--set", "chain-rows=both"]);
    assert!(
        err.contains(
            "Switch one in with --choose chain-rows=OPTION; its options are: `opponent` (--set chain_rows=opponent), `any` (--set chain_rows=any)"
        ),
        "{err}"
    );
    // The hint's advice works.
    let v = json(&[
        "run",
        "um-el-bagara",
        "-n",
        "2",
        "--set",
        "chain_rows=any",
        "--format",
        "json",
    ]);
    assert_eq!(v["overrides"]["chain_rows"], "any", "{v}");
}

#[test]
fn set_refuses_a_repeated_parameter_and_malformed_json_and_suggests_a_near_name() {
    let err = usage_error(&[
        "run",
        "um-el-bagara",
        "-n",
        "1",
        "--set",
        "skip_origin=true",
        "--set",
        "skip_origin=false",
    ]);
    assert!(
        err.contains("--set skip_origin is given twice (true and false): set each parameter once"),
        "{err}"
    );
    let err = usage_error(&[
        "run",
        "um-el-bagara",
        "-n",
        "1",
        "--set",
        r#"cap={"turns":100"#,
    ]);
    assert!(
        err.contains("--set cap: the value `{\"turns\":100` is malformed JSON (EOF while parsing an object at line 1 column 12)"),
        "{err}"
    );
    let err = usage_error(&[
        "run",
        "um-el-bagara",
        "-n",
        "1",
        "--set",
        "capture_counts=[2,",
    ]);
    assert!(err.contains("is malformed JSON"), "{err}");
    let err = usage_error(&["run", "um-el-bagara", "-n", "1", "--set", "skip_orign=true"]);
    assert!(
        err.contains("unknown parameter `skip_orign` (did you mean `skip_origin`?)"),
        "{err}"
    );
    // A bare word is still a string.
    let v = json(&[
        "run",
        "um-el-bagara",
        "-n",
        "2",
        "--set",
        "direction=either",
        "--format",
        "json",
    ]);
    assert_eq!(v["overrides"]["direction"], "either", "{v}");
}

#[test]
fn a_corpus_that_is_a_file_or_comes_from_the_environment_says_so() {
    let dir = mini_corpus();
    let ruleset = dir.path().join("rulesets/um-el-bagara.yaml");
    let (exit, _, err) = run(bin().arg("--corpus").arg(&ruleset).arg("list"));
    assert_eq!(exit, 2);
    assert!(
        err.contains("um-el-bagara.yaml is a file, not a directory: expected the corpus directory"),
        "{err}"
    );
    let (exit, _, err) = run(bin().env("LUDOTRACE_CORPUS", "no/such/dir").arg("list"));
    assert_eq!(exit, 2);
    assert!(
        err.contains("the environment variable LUDOTRACE_CORPUS names a corpus that cannot be used: corpus directory no/such/dir not found"),
        "{err}"
    );
    // Given on the command line, the same error does not blame the variable.
    let (_, _, err) = run(bin().args(["--corpus", "no/such/dir", "list"]));
    assert!(!err.contains("LUDOTRACE_CORPUS"), "{err}");
    std::fs::write(&ruleset, "schema_version: 1\nid: a: b\n").unwrap();
    let (exit, _, err) = run(bin().env("LUDOTRACE_CORPUS", dir.path()).arg("list"));
    assert_eq!(exit, 2);
    assert!(err.contains("error[yaml-syntax]"), "{err}");
    assert!(
        err.contains(", named by LUDOTRACE_CORPUS, has 1 problem(s)"),
        "{err}"
    );
}

#[test]
fn every_format_a_command_does_not_produce_is_refused_with_the_ones_it_does() {
    let trace = trace("um-el-bagara.jsonl");
    for (args, says) in [
        (
            vec!["list", "--format", "csv"],
            "`list` does not produce csv output; its formats are: table, json, markdown",
        ),
        (
            vec!["show", "seega", "--format", "csv"],
            "`show` does not produce csv output",
        ),
        (
            vec!["sources", "--format", "csv"],
            "`sources` does not produce csv output",
        ),
        (
            vec!["collate", "davies-1925#seega", "--format", "csv"],
            "`collate` does not produce csv output",
        ),
        (
            vec!["cite", "seega", "--format", "json"],
            "`cite` does not produce json output; its formats are: table; --style chooses the citation format (bibtex, csl-json for JSON, text)",
        ),
        (
            vec!["cite", "seega", "--format", "markdown"],
            "`cite` does not produce markdown output",
        ),
        (
            vec!["check", "--format", "markdown"],
            "`check` does not produce markdown output; its formats are: table, json",
        ),
        (
            vec!["run", "seega", "--each-option", "--format", "csv"],
            "`run` does not produce csv output; its formats are: table, json, markdown (with --each-option",
        ),
        (
            vec![
                "replay",
                "um-el-bagara",
                "-i",
                "ludii-1.0.8",
                &trace,
                "--format",
                "markdown",
            ],
            "`replay` does not produce markdown output; its formats are: table, json",
        ),
        (
            vec!["schema", "--format", "markdown"],
            "`schema` does not produce markdown output; its formats are: json (it prints the JSON Schemas)",
        ),
        (
            vec!["completions", "bash", "--format", "json"],
            "`completions` does not produce json output; it prints a shell script and takes no --format",
        ),
    ] {
        let err = usage_error(&args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // What each produces by default still works.
    assert!(json(&["schema"])["formats"].is_object());
    assert!(json(&["schema", "--format", "json"])["formats"].is_object());
    assert!(ok(&["cite", "seega", "--format", "table"]).contains("Davies"));
}

#[test]
fn completion_scripts_offer_the_game_reading_and_parameter_ids() {
    let bash = ok(&["completions", "bash"]);
    for id in [
        "um-el-bagara",
        "sijat-el-taba",
        "ludii-1.0.8-sebawee",
        "lane",
        "skip_origin=",
        "chain_rows=",
    ] {
        assert!(bash.contains(id), "bash: {id}");
    }
    let zsh = ok(&["completions", "zsh"]);
    assert!(
        zsh.contains("(seega um-el-bagara um-el-tuweisat um-el-banat lib-el-merafib sijat-el-taba lib-al-aqil)"),
        "zsh"
    );
    let fish = ok(&["completions", "fish"]);
    assert!(
        fish.contains("complete -c ludotrace -n \"__fish_ludotrace_using_subcommand show\" -f -a \"seega um-el-bagara"),
        "{fish}"
    );
    assert!(fish.contains("ludii-intended"), "fish readings");
    // A working copy's ids, with --corpus: the mini corpus's own readings.
    let dir = mini_corpus();
    let (exit, mini, _) = run(bin()
        .arg("--corpus")
        .arg(dir.path())
        .args(["completions", "bash"]));
    assert_eq!(exit, 0);
    assert!(mini.contains("\"literal engine roe\""), "mini readings");
    // The script still parses leniently: an alias is not among the offered values.
    assert!(!bash.contains("Mangala"));
    assert!(ok(&["show", "mangala"]).contains("Um el-Bagara"));
}

#[test]
fn version_prints_the_version_and_the_built_in_corpus_hash() {
    let out = ok(&["--version"]);
    let run = json(&["run", "seega", "-n", "1", "--format", "json"]);
    let hash = run["corpus_hash"].as_str().unwrap();
    assert_eq!(hash.len(), 64);
    assert_eq!(
        out.trim(),
        format!(
            "ludotrace {} (built-in corpus blake3 {hash})",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn show_gives_each_parameter_its_meaning() {
    let out = ok(&["show", "um-el-bagara", "-i", "davies"]);
    let table = &out[out.find("PARAMETERS of davies").unwrap()..];
    let (table, meanings) =
        table.split_at(table.find("WHAT EACH PARAMETER OF davies MEANS").unwrap());
    // Below the table, every parameter's meaning whole: a rule of the reading.
    assert!(meanings.contains("started from"), "{meanings}");
    // Single words: however the table is laid out, they stay whole.
    assert!(table.contains("meaning"), "{table}");
    assert!(table.contains("Houses"), "{table}");
    // Long meanings are cut at a word in the table; the views below have them whole.
    assert!(table.contains('…'), "{table}");
    assert!(!table.contains("started from"), "{table}");
    let v = json(&["show", "um-el-bagara", "-i", "davies", "--format", "json"]);
    let params = v["interpretation"]["params"].as_array().unwrap();
    for p in params {
        assert!(
            !p["meaning"].as_str().unwrap().is_empty(),
            "{} has no meaning",
            p["name"]
        );
    }
    let skip = params.iter().find(|p| p["name"] == "skip_origin").unwrap();
    assert!(
        skip["meaning"]
            .as_str()
            .unwrap()
            .starts_with("Whether a sowing of more counters than the circuit has other houses skips the house it started from (`true`)"),
        "{skip}"
    );
}

/// Every game's BibTeX parses with a BibTeX parser into the same fields: what LaTeX would
/// read as a command (`_` in a path) is escaped and read back as written; a body's name is
/// braced, not split into a person's; the entry types are classic BibTeX's.
#[test]
fn bibtex_round_trips_through_a_bibtex_parser() {
    for &game in ludotrace::corpus::GAME_IDS {
        let bib = ok(&["cite", game, "--style", "bibtex"]);
        let parsed =
            biblatex::Bibliography::parse(&bib).unwrap_or_else(|e| panic!("{game}: {e:?}\n{bib}"));
        let csl = json(&["cite", game, "--style", "csl-json"]);
        let items = csl.as_array().unwrap();
        assert_eq!(parsed.len(), items.len(), "{bib}");
        for entry in parsed.iter() {
            let ty = entry.entry_type.to_string();
            assert!(["article", "book", "misc"].contains(&ty.as_str()), "{ty}");
            let title: String = entry
                .get("title")
                .unwrap()
                .iter()
                .map(|c| c.v.get())
                .collect();
            assert!(
                items.iter().any(|i| i["title"] == title.as_str()),
                "{game}: title {title} not among the CSL items"
            );
            if let Some(note) = entry.get("note") {
                let note: String = note.iter().map(|c| c.v.get()).collect();
                assert!(!note.contains("\\_"), "{note}");
            }
        }
        if game == "um-el-bagara" {
            // An encoding's path has underscores: escaped in the file, read back plain.
            assert!(bib.contains("two\\_rows"), "{bib}");
            let e = parsed
                .iter()
                .find(|e| e.key.starts_with("ludii-1.3.11:"))
                .unwrap();
            let note: String = e.get("note").unwrap().iter().map(|c| c.v.get()).collect();
            assert!(note.contains("two_rows"), "{note}");
        }
    }
}

/// `cite --tool` cites the program and the corpus it carries, and agrees with CITATION.cff
/// and Cargo.toml; the licence files exist and say what they do not cover.
#[test]
fn the_tool_can_be_cited_and_its_licence_read() {
    let text = ok(&["cite", "--tool"]);
    let version = env!("CARGO_PKG_VERSION");
    assert!(text.contains(&format!("Version {version}")), "{text}");
    let run = json(&["run", "seega", "-n", "1", "--format", "json"]);
    let hash = run["corpus_hash"].as_str().unwrap();
    assert!(text.contains(&format!("Corpus BLAKE3 {hash}")), "{text}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let cff = std::fs::read_to_string(root.join("CITATION.cff")).unwrap();
    assert!(cff.contains(&format!("version: {version}")), "{cff}");
    assert!(
        cff.contains(&format!("license: {}", env!("CARGO_PKG_LICENSE"))),
        "{cff}"
    );
    let licence = std::fs::read_to_string(root.join("LICENSE")).unwrap();
    for covered in ["LICENSE-APACHE", "LICENSE-MIT", "MIT OR Apache-2.0"] {
        assert!(licence.contains(covered), "{covered}");
    }
    for excepted in ["Davies", "Lane", "Digital Ludeme Project", "Ludii"] {
        assert!(licence.contains(excepted), "{excepted}");
    }
    assert!(root.join("LICENSE-APACHE").exists() && root.join("LICENSE-MIT").exists());
    // A game and --tool, or neither, is refused with what to give.
    let err = usage_error(&["cite"]);
    assert!(err.contains("--tool"), "{err}");
    let err = usage_error(&["cite", "seega", "--tool"]);
    assert!(err.contains("one of the two"), "{err}");
}

/// A rule book as GitHub's Markdown renders it (pulldown-cmark with footnotes): the footnote
/// labels in the order the text references them, each definition with its text as rendered,
/// and each `##` section's title, `###` headings and rendered text (outside the footnotes).
#[derive(Default)]
struct RuleBook {
    refs: Vec<String>,
    notes: Vec<(String, String)>,
    sections: Vec<BookSection>,
}

#[derive(Default)]
struct BookSection {
    title: String,
    heads: Vec<String>,
    text: String,
}

impl RuleBook {
    fn parse(md: &str) -> RuleBook {
        use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
        let mut b = RuleBook {
            sections: vec![BookSection::default()],
            ..RuleBook::default()
        };
        let (mut in_note, mut head) = (false, None);
        for e in Parser::new_ext(md, Options::ENABLE_FOOTNOTES) {
            let s = b.sections.last_mut().unwrap();
            let into = if in_note {
                &mut b.notes.last_mut().unwrap().1
            } else {
                match head {
                    Some(HeadingLevel::H2) => &mut s.title,
                    Some(HeadingLevel::H3) => s.heads.last_mut().unwrap(),
                    _ => &mut s.text,
                }
            };
            match e {
                Event::FootnoteReference(l) => b.refs.push(l.to_string()),
                Event::Start(Tag::FootnoteDefinition(l)) => {
                    in_note = true;
                    b.notes.push((l.to_string(), String::new()));
                }
                Event::End(TagEnd::FootnoteDefinition) => in_note = false,
                Event::Start(Tag::Heading { level, .. }) => {
                    match level {
                        HeadingLevel::H2 => b.sections.push(BookSection::default()),
                        HeadingLevel::H3 => s.heads.push(String::new()),
                        _ => {}
                    }
                    head = Some(level);
                }
                Event::End(TagEnd::Heading(_)) => head = None,
                Event::Text(t) | Event::Code(t) => into.push_str(&t),
                Event::SoftBreak | Event::HardBreak | Event::End(_) => into.push(' '),
                _ => {}
            }
        }
        b
    }

    /// The section under the heading `title`.
    fn section(&self, title: &str) -> &BookSection {
        self.sections
            .iter()
            .find(|s| s.title.trim() == title)
            .unwrap_or_else(|| panic!("no section {title}"))
    }

    /// The footnotes' texts in the order the text references them, after checking that
    /// references and definitions match one to one and are numbered in that order.
    fn notes_in_order(&self) -> Vec<&str> {
        let numbers: Vec<String> = (1..=self.refs.len()).map(|n| n.to_string()).collect();
        assert_eq!(self.refs, numbers, "referenced once each, in order");
        let defined: Vec<&String> = self.notes.iter().map(|(l, _)| l).collect();
        assert_eq!(
            defined,
            numbers.iter().collect::<Vec<_>>(),
            "defined once each"
        );
        self.notes.iter().map(|(_, t)| t.trim()).collect()
    }
}

/// Whitespace folded, as the book prints the corpus's words.
fn folded(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words a note quotes, in `“…”`.
fn quoted(note: &str) -> Vec<String> {
    note.split('“')
        .skip(1)
        .map(|q| q.split_once('”').expect("closed quote").0.to_owned())
        .collect()
}

/// What a note says of a class, from the JSON's `class`.
fn class_words(class: &serde_json::Value) -> Vec<String> {
    let label = |s: &serde_json::Value| match s.as_str().unwrap() {
        "DLP" => "the DLP".to_owned(),
        s => s.to_owned(),
    };
    let sources = class["sources"].as_array().unwrap();
    match class["class"].as_str().unwrap() {
        "grounded" => std::iter::once("Grounded in".to_owned())
            .chain(sources.iter().map(label))
            .collect(),
        "borrowed" => std::iter::once("Borrowed from".to_owned())
            .chain(sources.iter().map(label))
            .collect(),
        _ => vec!["Interpolated".to_owned()],
    }
}

/// `show -i READING --format markdown` is the reading as a rule book: every clause in play
/// order, each followed by the option the reading takes of the points it leaves open, each
/// with a footnote that quotes exactly the words it cites and gives its class; the open points
/// it decides at the end; then the corpus and the command that prints it again.
#[test]
fn a_readings_rule_book_footnotes_every_rule_with_its_words_and_class() {
    let md = ok(&[
        "show",
        "um-el-bagara",
        "-i",
        "davies",
        "--format",
        "markdown",
    ]);
    let v = json(&["show", "um-el-bagara", "-i", "davies", "--format", "json"]);
    let book = RuleBook::parse(&md);
    // The remarks (what the sources say beyond the rules) are noted after the rules.
    let (remarks, notes): (Vec<_>, Vec<_>) = book
        .notes_in_order()
        .into_iter()
        .partition(|n| n.starts_with("Remark "));
    assert_eq!(remarks.len(), v["remarks"].as_array().unwrap().len());
    assert!(
        md.starts_with("# Um el-Bagara: the reading `davies`\n\n*Davies 1925"),
        "{md}"
    );
    let rules = v["rules"].as_array().unwrap();
    let choices = v["choices"].as_array().unwrap();
    let choice = |id: &serde_json::Value| choices.iter().find(|c| &c["id"] == id).unwrap();
    let option = |c: &serde_json::Value| {
        c["options"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"] == c["chosen"])
            .cloned()
    };
    // What each note must annotate, in play order: a clause, then the options taken of the
    // points it leaves open; then the options taken of points no clause raises.
    let mut expected = Vec::new();
    for r in rules {
        expected.push((
            format!("Clause {},", r["id"].as_str().unwrap()),
            r["cites"].clone(),
            r["class"].clone(),
        ));
        for o in r["open"].as_array().unwrap() {
            let c = choice(o);
            if let Some(taken) = option(c) {
                expected.push((
                    format!(
                        "The answer to the open point {}, option {},",
                        c["id"].as_str().unwrap(),
                        taken["id"].as_str().unwrap()
                    ),
                    taken["cites"].clone(),
                    c["class"].clone(),
                ));
            }
        }
    }
    let raised = |id: &serde_json::Value| {
        rules
            .iter()
            .any(|r| r["open"].as_array().unwrap().contains(id))
    };
    for c in choices.iter().filter(|c| !raised(&c["id"])) {
        if let Some(taken) = option(c) {
            expected.push((
                format!(
                    "The answer to the open point {}, option {},",
                    c["id"].as_str().unwrap(),
                    taken["id"].as_str().unwrap()
                ),
                taken["cites"].clone(),
                c["class"].clone(),
            ));
        }
    }
    assert_eq!(
        notes.len(),
        expected.len(),
        "a note for every rule: {notes:#?}"
    );
    for (note, (subject, cites, class)) in notes.iter().zip(&expected) {
        assert!(note.starts_with(subject.as_str()), "{subject}: {note}");
        let mut words: Vec<String> = cites
            .as_array()
            .unwrap()
            .iter()
            .map(|q| folded(q["quote"].as_str().unwrap()))
            .collect();
        let mut got = quoted(note);
        words.sort();
        got.sort();
        assert_eq!(got, words, "the words it rests on, verbatim: {note}");
        for q in cites.as_array().unwrap() {
            assert!(note.contains(q["at"].as_str().unwrap()), "{note}");
            assert!(note.contains(q["locator"].as_str().unwrap()), "{note}");
        }
        for w in class_words(class) {
            assert!(note.contains(&w), "{w} in {note}");
        }
    }
    // The rules read as one set: the option taken follows its clause, as a rule.
    let rules_text = folded(&book.section("The rules").text);
    let starter = option(choice(&serde_json::json!("starter"))).unwrap();
    let at = rules_text.find("One player begins").unwrap();
    assert!(
        rules_text[at..].contains(&format!(
            "(\"if B should begin\"). {}",
            folded(starter["says"].as_str().unwrap())
        )),
        "{rules_text}"
    );
    assert!(!rules_text.contains("open point"), "{rules_text}");
    // The points it decides, each with its question, the option taken, who proposes it and
    // the options not taken.
    let decided = book.section("The open points this reading decides");
    let taken: Vec<&serde_json::Value> =
        choices.iter().filter(|c| !c["chosen"].is_null()).collect();
    assert_eq!(decided.heads.len(), taken.len(), "{:?}", decided.heads);
    let text = folded(&decided.text);
    for (head, c) in decided.heads.iter().zip(&taken) {
        assert!(head.starts_with(c["id"].as_str().unwrap()), "{head}");
        assert!(
            text.contains(&folded(c["question"].as_str().unwrap())),
            "{text}"
        );
        let o = option(c).unwrap();
        assert!(
            text.contains(&format!(
                "Taken: {}. {}",
                o["id"].as_str().unwrap(),
                folded(o["says"].as_str().unwrap())
            )),
            "{text}"
        );
        for other in c["options"].as_array().unwrap() {
            assert!(
                text.contains(&format!("{}:", other["id"].as_str().unwrap()))
                    || other["id"] == o["id"],
                "{text}"
            );
            for by in other["by"].as_array().unwrap() {
                let by = by.as_str().unwrap();
                assert!(
                    text.contains(by.strip_prefix("reading:").unwrap_or(by).trim()),
                    "{by}"
                );
            }
        }
    }
    assert!(
        md.trim_end()
            .ends_with("\n\nreproduce: `ludotrace show um-el-bagara -i davies --format markdown`")
            && md.contains("\n\ncorpus: built-in (blake3 "),
        "{md}"
    );
    // Without a reading, the Markdown is the game's rules with their quotes, as before.
    let plain = ok(&["show", "um-el-bagara", "--format", "markdown"]);
    assert!(
        plain.starts_with("# Um el-Bagara\n") && !plain.contains("[^"),
        "{plain}"
    );
}

/// Every reading of every game makes a rule book whose footnotes match their references one
/// to one: one for each clause, each option taken and each rule the reading sets itself;
/// every point decided is listed as decided, every other as left undecided.
#[test]
fn every_readings_rule_book_has_a_footnote_for_every_rule() {
    use ludotrace::corpus::{CorpusFiles, load};
    use ludotrace::present::{Format, Out, rulebook};
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    for g in &corpus.games {
        for i in &g.interpretations {
            let mut out = Out::new(Format::Markdown, None);
            rulebook::print(&mut out, &corpus, g, i, "h", None);
            let md = out.take();
            let book = RuleBook::parse(&md);
            let notes = book.notes_in_order();
            let at = format!("{} -i {}", g.id, i.id);
            assert_eq!(
                notes.len(),
                g.clauses.len() + i.choose.len() + i.provenance.settings.len() + g.remarks.len(),
                "{at}"
            );
            for (c, note) in g
                .clauses
                .iter()
                .zip(notes.iter().filter(|n| n.starts_with("Clause ")))
            {
                assert!(
                    note.starts_with(&format!("Clause {},", c.id)),
                    "{at}: {note}"
                );
                let mut words: Vec<String> = c.cites.iter().map(|q| folded(&q.quote)).collect();
                let mut got = quoted(note);
                words.sort();
                got.sort();
                assert_eq!(got, words, "{at}: {note}");
            }
            let decided = &book.section("The open points this reading decides").heads;
            for ch in &g.choices {
                match i.chosen(&ch.id) {
                    Some(_) => assert!(
                        decided
                            .iter()
                            .any(|h| h.split(' ').next() == Some(ch.id.as_str())),
                        "{at}: {}",
                        ch.id
                    ),
                    None => assert!(
                        book.section("The open points this reading leaves undecided")
                            .text
                            .contains(&format!("{}:", ch.id)),
                        "{at}: {}",
                        ch.id
                    ),
                }
            }
        }
    }
}
