//! Each fixture in tests/fixtures/bad replaces one file of the small valid corpus in
//! tests/fixtures/mini; `cases.txt` says where the problem must be reported and with which
//! code. One generic runner checks them all, so adding a case is adding two lines of data.

use crate::util::{bin, mini_corpus, root, run};

#[test]
fn the_mini_fixture_corpus_is_valid() {
    let dir = mini_corpus();
    let (code, out, err) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("no problems"), "{out}");
}

#[test]
fn every_bad_input_fixture_is_reported_at_its_place() {
    let cases = std::fs::read_to_string(root().join("tests/fixtures/bad/cases.txt")).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for line in cases
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let [fixture, target, place, code] = cols[..] else {
            panic!("bad cases.txt line: {line}")
        };
        count += 1;
        let dir = mini_corpus();
        std::fs::copy(
            root().join("tests/fixtures/bad").join(fixture),
            dir.path().join(target),
        )
        .unwrap();
        let (exit, out, err) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
        let expected = format!("{place}: error[{code}]: ");
        if exit != 1 || !out.contains(&expected) || err.contains("panicked") {
            failures.push(format!(
                "{fixture}: exit {exit}, expected `{expected}` in:\n{out}{err}"
            ));
        }
        // Messages are for corpus authors: no Rust or YAML-crate type names.
        if let Some(word) = rust_words(&out) {
            failures.push(format!("{fixture}: the message says `{word}`:\n{out}"));
        }
    }
    assert!(count >= 25, "only {count} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The first Rust or serde type name in a text, if any: `u8`, `usize`, `invalid type`,
/// `struct Cap`, `string scalar`, `Option<…>`.
fn rust_words(text: &str) -> Option<String> {
    const TYPES: &[&str] = &[
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64",
        "bool", "struct", "enum", "scalar",
    ];
    let words = text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
    if let Some(w) = words.into_iter().find(|w| TYPES.contains(w)) {
        return Some(w.to_owned());
    }
    ["invalid type", "invalid value", "Option<", "Vec<"]
        .into_iter()
        .find(|p| text.contains(p))
        .map(str::to_owned)
}

#[test]
fn rust_type_names_are_caught() {
    assert_eq!(rust_words("expected u8").as_deref(), Some("u8"));
    assert_eq!(
        rust_words("invalid type: map").as_deref(),
        Some("invalid type")
    );
    assert_eq!(
        rust_words("expected a whole number from 0 to 255, found -5"),
        None
    );
}

#[test]
fn check_reports_every_problem_of_every_file_in_one_pass() {
    let dir = mini_corpus();
    let bad = root().join("tests/fixtures/bad");
    std::fs::copy(
        bad.join("quote-not-found.yaml"),
        dir.path().join("rulesets/um-el-bagara.yaml"),
    )
    .unwrap();
    std::fs::copy(
        bad.join("dangling-witness.yaml"),
        dir.path().join("sources/mini.yaml"),
    )
    .unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1);
    assert!(out.contains("error[dangling-witness]"), "{out}");
    assert!(out.contains("error[quote-not-found]"), "{out}");
}

#[test]
fn a_broken_corpus_stops_other_commands_with_exit_2_and_the_diagnostics() {
    let dir = mini_corpus();
    std::fs::copy(
        root().join("tests/fixtures/bad/unknown-key.yaml"),
        dir.path().join("rulesets/um-el-bagara.yaml"),
    )
    .unwrap();
    let (exit, out, err) = run(bin().arg("list").arg("--corpus").arg(dir.path()));
    assert_eq!(exit, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("rulesets/um-el-bagara.yaml:18:5: error[unknown-key]"),
        "{err}"
    );
    assert!(err.contains("expected one of"), "{err}");
}

#[test]
fn an_unknown_remark_kind_is_refused_with_the_kinds_there_are() {
    let dir = mini_corpus();
    std::fs::copy(
        root().join("tests/fixtures/bad/remark-kind.yaml"),
        dir.path().join("rulesets/um-el-bagara.yaml"),
    )
    .unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1, "{out}");
    let line = out
        .lines()
        .find(|l| l.contains("error[remark-kind]"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("`players`"), "{line}");
    for kind in ludotrace::corpus::RemarkKind::ALL {
        assert!(line.contains(&format!("`{}`", kind.as_str())), "{line}");
    }
}

#[test]
fn a_very_large_file_is_refused_before_parsing() {
    let dir = mini_corpus();
    let big = format!("schema_version: 1\n# {}\n", "x".repeat(5 * 1024 * 1024));
    std::fs::write(dir.path().join("rulesets/um-el-bagara.yaml"), big).unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1);
    assert!(
        out.contains("rulesets/um-el-bagara.yaml: error[file-too-large]"),
        "{out}"
    );
    assert!(out.contains("at most"), "{out}");
}

#[test]
fn a_file_that_is_not_utf8_is_reported() {
    let dir = mini_corpus();
    std::fs::write(
        dir.path().join("rulesets/um-el-bagara.yaml"),
        b"id: \xff\xfe\n",
    )
    .unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1);
    assert!(out.contains("not UTF-8"), "{out}");
}

#[test]
fn a_missing_or_empty_corpus_directory_is_a_clear_error() {
    let (exit, _, err) = run(bin().args(["--corpus", "no/such/dir", "list"]));
    assert_eq!(exit, 2);
    assert!(
        err.contains("corpus directory no/such/dir not found"),
        "{err}"
    );
    let empty = tempfile::tempdir().unwrap();
    let (exit, _, err) = run(bin().arg("--corpus").arg(empty.path()).arg("check"));
    assert_eq!(exit, 2);
    assert!(err.contains("is not a corpus"), "{err}");
}

#[test]
fn a_stray_file_in_rulesets_is_reported() {
    let dir = mini_corpus();
    std::fs::write(dir.path().join("rulesets/notes.txt"), "hello").unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1);
    assert!(
        out.contains("rulesets/notes.txt: error[unexpected-file]"),
        "{out}"
    );
}

#[test]
fn a_syntax_error_is_reported_first_without_the_cascade_it_causes() {
    // The source file does not parse, so nothing it defines exists: every citation of it in
    // the ruleset would look dangling. The ruleset's own problem still counts.
    let dir = mini_corpus();
    let bad = root().join("tests/fixtures/bad");
    std::fs::copy(
        bad.join("malformed-source.yaml"),
        dir.path().join("sources/mini.yaml"),
    )
    .unwrap();
    std::fs::copy(
        bad.join("uncited-clause.yaml"),
        dir.path().join("rulesets/um-el-bagara.yaml"),
    )
    .unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("sources/mini.yaml:4:9: error[yaml-syntax]: "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("rulesets/um-el-bagara.yaml:22:9: error[uncited-clause]"),
        "{out}"
    );
    assert!(!out.contains("dangling"), "{out}");
    assert!(
        out.contains("2 problem(s) (5 more about references into the unparsable file(s) left out until they parse)"),
        "{out}"
    );
    let (_, json, _) = run(bin()
        .arg("--corpus")
        .arg(dir.path())
        .args(["check", "--format", "json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["suppressed"], 5);
    assert_eq!(v["diagnostics"][0]["code"], "yaml-syntax");
    assert_eq!(v["diagnostics"].as_array().unwrap().len(), 2);
}

#[test]
fn a_corpus_directory_without_rulesets_or_sources_is_a_problem_for_check() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("rulesets")).unwrap();
    std::fs::create_dir(dir.path().join("sources")).unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1, "{out}");
    assert!(
        out.contains("rulesets/: error[empty-corpus]: no rulesets: expected one `rulesets/<game>.yaml` per game"),
        "{out}"
    );
    assert!(
        out.contains("sources/: error[empty-corpus]: no source files"),
        "{out}"
    );
    // Rulesets without sources: the missing sources are named, not only their citations.
    let mini = mini_corpus();
    std::fs::remove_file(mini.path().join("sources/mini.yaml")).unwrap();
    std::fs::remove_file(mini.path().join("sources/roe.yaml")).unwrap();
    let (exit, out, _) = run(bin().arg("--corpus").arg(mini.path()).arg("check"));
    assert_eq!(exit, 1, "{out}");
    assert!(out.contains("sources/: error[empty-corpus]"), "{out}");
    // Other commands refuse it like any corpus with problems.
    let (exit, _, err) = run(bin().arg("--corpus").arg(dir.path()).arg("list"));
    assert_eq!(exit, 2);
    assert!(err.contains("error[empty-corpus]"), "{err}");
}

#[test]
fn a_register_file_that_does_not_parse_hides_the_cascade_it_causes() {
    // Every point the file would define looks undefined to the ruleset that addresses it.
    let dir = mini_corpus();
    std::fs::write(
        dir.path().join("rulesets/register/um-el-bagara.yaml"),
        "schema_version: 1\npoints:\n  - id: [\n",
    )
    .unwrap();
    let (exit, out, err) = run(bin().arg("--corpus").arg(dir.path()).arg("check"));
    assert_eq!(exit, 1, "{out}{err}");
    assert!(
        out.starts_with("rulesets/register/um-el-bagara.yaml:3:9: error["),
        "{out}"
    );
    assert!(!out.contains("dangling-point"), "{out}");
    assert!(out.contains("left out until they parse"), "{out}");
}
