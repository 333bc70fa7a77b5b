//! The examples of the README and the guide, run and compared with what they show.
//!
//! Every ```console block of README.md and guide/*.md is run by trycmd against the `ludotrace`
//! this build made (release in CI: `cargo test --release --locked --test guide`) and its
//! output, standard error included, compared with the block, line for line; `? N` after a
//! command is the exit code it must give. The tables of every option alone
//! (guide/options/GAME.md) are made again and compared with the committed pages.
//!
//! After an intended change, write the new outputs into the pages and review `git diff`:
//! `TRYCMD=overwrite cargo test --release --locked --test guide`.
//!
//! Each page runs in a results store of its own, new for the run, so that what a page shows
//! never depends on another page, an earlier run or the user's store: a page's commands run in
//! order, and a rerun it shows taking its blocks from the store does so every time. The store's
//! path (a scratch file) reads `[STORE]` on the page. A page with a `PAGE.out/` directory
//! beside it runs in a scratch directory (the files it writes go there), one with `PAGE.in/` in
//! that directory.
//!
//! The debug build (optimised at level 1 only) plays games two to three times slower than the
//! release one, and CI runs this page against the release binary as well: the few examples
//! that play longest (a report; the assessments; three games' tables of every option) are
//! marked ignored in a debug build, with the reason, and run in the release build.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether the pages are to be rewritten with what the commands print (`TRYCMD=overwrite`).
fn overwrite() -> bool {
    std::env::var_os("TRYCMD").is_some_and(|v| v == "overwrite")
}

/// The examples are of the built-in corpus: a corpus named in the environment would change
/// every output.
fn built_in_corpus() {
    assert!(
        std::env::var_os("LUDOTRACE_CORPUS").is_none(),
        "the guide's examples use the built-in corpus: unset LUDOTRACE_CORPUS to run them"
    );
}

/// Runs the ```console examples of one page (a path from the repository root).
fn page(page: &str) {
    built_in_corpus();
    let dir = tempfile::tempdir().unwrap();
    let store = dir
        .path()
        .join("results.sqlite")
        .to_string_lossy()
        .into_owned();
    let cases = trycmd::TestCases::new();
    cases
        .register_bin("ludotrace", PathBuf::from(env!("CARGO_BIN_EXE_ludotrace")))
        .env("LUDOTRACE_STORE", &store)
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "0")
        .case(root().join(page));
    // The store's path, where a command names it, reads `[STORE]` on the page.
    cases.insert_var("[STORE]", store).unwrap();
    cases.run();
}

#[test]
fn readme() {
    page("README.md");
}

#[test]
fn guide_index() {
    page("guide/README.md");
}

#[test]
fn command_line() {
    page("guide/command-line.md");
}

#[test]
fn browse() {
    page("guide/browse.md");
}

#[test]
fn flag() {
    page("guide/flag.md");
}

#[test]
fn run() {
    page("guide/run.md");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "skilled players search every position of thousands of games (Um el Banât's \
              borrowing, forty games an option): minutes in a debug build; the release \
              run checks it (`cargo test --release --test guide`)"
)]
fn assess() {
    page("guide/assess.md");
}

#[test]
fn explain() {
    page("guide/explain.md");
}

#[test]
fn solve() {
    page("guide/solve.md");
}

#[test]
fn diff() {
    page("guide/diff.md");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "a report plays its comparisons and flags at their own game counts: a debug \
              build's minutes; the release run checks it (`cargo test --release --test guide`)"
)]
fn report() {
    page("guide/report.md");
}

#[test]
fn scale_out() {
    page("guide/scale-out.md");
}

#[test]
fn replay() {
    page("guide/replay.md");
}

#[test]
fn json() {
    page("guide/json.md");
}

#[test]
fn contributing() {
    page("guide/contributing.md");
}

#[test]
fn testing() {
    page("guide/testing.md");
}

/// The command that makes a game's table of every option alone.
fn options_command(game: &str) -> [String; 7] {
    [
        "run",
        game,
        "--each-option",
        "-n",
        "200",
        "--format",
        "markdown",
    ]
    .map(String::from)
}

/// Makes `guide/options/GAME.md` again (a heading, where it comes from, then the command's
/// Markdown) and compares it with the committed page, or writes it with `TRYCMD=overwrite`.
fn options_page(game: &str) {
    built_in_corpus();
    let args = options_command(game);
    let out = Command::new(env!("CARGO_BIN_EXE_ludotrace"))
        .arg("--no-store")
        .args(&args)
        .env("NO_COLOR", "1")
        .env("CLICOLOR_FORCE", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ludotrace {} failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let made = format!(
        "# Every option alone: `{game}`\n\n\
         Made by `ludotrace {}`, and made again and compared by the guide's test \
         ([testing](../testing.md#the-guides-examples)). What the columns mean: \
         [every option alone](../run.md#every-option-alone-the-table-of-readings).\n\n{}",
        args.join(" "),
        String::from_utf8(out.stdout).unwrap()
    );
    let path = root().join("guide/options").join(format!("{game}.md"));
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if made == committed {
        return;
    }
    if overwrite() {
        std::fs::write(&path, made).unwrap();
        return;
    }
    panic!(
        "{} differs from what `ludotrace {}` makes now (rewrite it with `TRYCMD=overwrite \
         cargo test --release --locked --test guide`):\n{}",
        Path::new("guide/options")
            .join(format!("{game}.md"))
            .display(),
        args.join(" "),
        similar::TextDiff::from_lines(&committed, &made)
            .unified_diff()
            .header("committed", "made now")
    );
}

#[test]
fn options_um_el_bagara() {
    options_page("um-el-bagara");
}

#[test]
fn options_um_el_tuweisat() {
    options_page("um-el-tuweisat");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "some 35 options × 200 games of up to 10 000 plies: a debug build's minutes; the \
              release run checks it (`cargo test --release --test guide`)"
)]
fn options_um_el_banat() {
    options_page("um-el-banat");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "some 50 options × 200 games of boards to sixty points: a debug build's minutes; the \
              release run checks it (`cargo test --release --test guide`)"
)]
fn options_lib_al_aqil() {
    options_page("lib-al-aqil");
}

#[test]
fn options_seega() {
    options_page("seega");
}

#[test]
fn options_lib_el_merafib() {
    options_page("lib-el-merafib");
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "some 35 options × 200 games of the stick race: a debug build's minute; the \
              release run checks it (`cargo test --release --test guide`)"
)]
fn options_sijat_el_taba() {
    options_page("sijat-el-taba");
}

/// Every page of the guide is run by one of the tests above.
#[test]
fn every_page_is_run() {
    const PAGES: [&str; 15] = [
        "README.md",
        "assess.md",
        "command-line.md",
        "browse.md",
        "flag.md",
        "run.md",
        "explain.md",
        "solve.md",
        "diff.md",
        "report.md",
        "scale-out.md",
        "replay.md",
        "json.md",
        "contributing.md",
        "testing.md",
    ];
    let mut found: Vec<String> = std::fs::read_dir(root().join("guide"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .collect();
    found.sort();
    let mut pages = PAGES.map(String::from).to_vec();
    pages.sort();
    assert_eq!(
        found, pages,
        "a page of guide/ needs its test in tests/guide.rs"
    );
}

/// Every relative link of the README and the guide leads to a file that exists (and, with a
/// `#fragment` into a Markdown page of the guide, to one of its headings).
#[test]
fn links_resolve() {
    let mut pages = vec![root().join("README.md")];
    for dir in ["guide", "guide/options"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((f, frag)) => (f, Some(frag)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
                continue;
            }
            if let Some(fragment) = fragment
                && path.extension().is_some_and(|e| e == "md")
                && !anchors(&std::fs::read_to_string(&path).unwrap()).contains(fragment)
            {
                broken.push(format!("{}: {target} (no such heading)", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The targets of the inline Markdown links `[text](target)` of a page, outside code.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

/// The anchors a forge gives a page's headings: lower case, spaces to hyphens, punctuation
/// other than hyphens and underscores dropped.
fn anchors(text: &str) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let anchor: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        out.insert(anchor);
    }
    out
}
