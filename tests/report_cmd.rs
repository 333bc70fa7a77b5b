//! `ludotrace report`: a synthetic corpus's report against its snapshot, every command the
//! report prints run again and found in it, `--check` failing on an edited report and passing
//! after regeneration, and the same bytes at 1 and 2 threads.

use std::path::Path;

use crate::util::{bin, mini_corpus, root, run};

/// `report um-el-bagara` on the mini corpus into `out`, `-n 20` (which the self-play section
/// plays too: 20 games an arm, a debug build's minute), at `threads`.
fn report(corpus: &Path, out: &Path, threads: &str, check: bool) -> (i32, String, String) {
    let mut cmd = bin();
    cmd.arg("--corpus")
        .arg(corpus)
        .args([
            "report",
            "um-el-bagara",
            "-n",
            "20",
            "--threads",
            threads,
            "--out",
        ])
        .arg(out);
    if check {
        cmd.arg("--check");
    }
    run(&mut cmd)
}

/// The report with the temporary corpus's path written as `CORPUS`, for the snapshot.
fn portable(text: &str, corpus: &Path) -> String {
    text.replace(&corpus.display().to_string(), "CORPUS")
}

#[test]
fn a_synthetic_report_matches_its_snapshot_and_its_commands() {
    let corpus = mini_corpus();
    let out = tempfile::tempdir().unwrap();
    let (code, _, err) = report(corpus.path(), out.path(), "2", false);
    assert_eq!(code, 0, "{err}");
    let md = std::fs::read_to_string(out.path().join("um-el-bagara.md")).unwrap();
    let snapshot = root().join("tests/golden/report/mini-um-el-bagara.md");
    let got = portable(&md, corpus.path());
    if std::env::var_os("LUDOTRACE_BLESS").is_some() {
        std::fs::create_dir_all(snapshot.parent().unwrap()).unwrap();
        std::fs::write(&snapshot, &got).unwrap();
    }
    let want = std::fs::read_to_string(&snapshot).unwrap_or_default();
    assert!(
        got == want,
        "the report differs from {} (regenerate: LUDOTRACE_BLESS=1 cargo test --locked report_cmd, and review the diff)",
        snapshot.display()
    );
    // Every section's command, run again, prints what the section holds (its headings two
    // levels down).
    let mut commands = 0;
    for line in md.lines() {
        let Some(cmd) = line.strip_prefix('`').and_then(|l| l.strip_suffix('`')) else {
            continue;
        };
        let Some(rest) = cmd.strip_prefix("ludotrace ") else {
            continue;
        };
        let words: Vec<String> = rest
            .split(' ')
            .map(|w| w.trim_matches('\'').to_owned())
            .collect();
        let (code, printed, err) = run(bin().args(&words));
        assert_eq!(code, 0, "{cmd}: {err}");
        let demoted: String = printed
            .lines()
            .map(|l| {
                if l.starts_with('#') {
                    format!("##{l}\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let body = if words.iter().any(|w| w == "cite") {
            demoted.lines().map(|l| format!("- {l}\n")).collect()
        } else {
            demoted
        };
        assert!(
            md.contains(&body),
            "{cmd}: its output is not in the report:\n{body}"
        );
        commands += 1;
    }
    assert_eq!(
        commands, 9,
        "show, show --readings, run, assess (every reading), assess (strong), assess \
         --by-point, diff, flags, cite"
    );
    // The page beside it: well-formed, self-contained.
    let page = std::fs::read_to_string(out.path().join("um-el-bagara.html")).unwrap();
    well_formed(&page);
    for outside in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!page.contains(outside), "{outside}");
    }
    assert!(page.contains("name=\"viewport\""));
    // The figures: files beside the Markdown, named in it, taken into the page inline.
    for what in ["outcomes", "lengths", "selfplay", "tornado", "variance"] {
        let name = format!("um-el-bagara-{what}.svg");
        assert!(
            md.contains(&format!("]({name})")),
            "{name} not in the report"
        );
        let svg = std::fs::read_to_string(out.path().join(&name)).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("viewBox"), "{name}");
        assert!(
            page.contains(svg.trim_end()),
            "{name} not inline in the page"
        );
    }
    assert!(!page.contains("<img"), "every figure is inline");
    // Each with its title for those who cannot see it, and its caption.
    assert_eq!(page.matches("<svg role=\"img\" aria-label=\"").count(), 5);
    assert_eq!(page.matches("<figcaption>").count(), 5);
    assert!(
        page.contains(
            "<meta name=\"citation_title\" content=\"Um el-Bagara: a ludotrace report\" />"
        )
    );
    // The BibTeX and CSL-JSON beside it.
    let bib = std::fs::read_to_string(out.path().join("um-el-bagara.bib")).unwrap();
    assert!(biblatex::Bibliography::parse(&bib).is_ok(), "{bib}");
    let csl: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.path().join("um-el-bagara.csl.json")).unwrap(),
    )
    .unwrap();
    assert!(csl.as_array().is_some_and(|a| !a.is_empty()));
}

#[test]
fn check_fails_on_an_edited_report_and_passes_after_regeneration() {
    let corpus = mini_corpus();
    let out = tempfile::tempdir().unwrap();
    assert_eq!(report(corpus.path(), out.path(), "1", false).0, 0);
    let (code, printed, err) = report(corpus.path(), out.path(), "2", true);
    assert_eq!(code, 0, "{printed}{err}");
    assert!(printed.contains("regenerate byte for byte"), "{printed}");
    // Same bytes at 1 and 2 threads: the check above compared them.
    let path = out.path().join("um-el-bagara.md");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("# Um el-Bagara", "# Um el-Bagara (edited)", 1),
    )
    .unwrap();
    let (code, printed, _) = report(corpus.path(), out.path(), "2", true);
    assert_eq!(code, 1, "{printed}");
    assert!(printed.contains("-# Um el-Bagara (edited)"), "{printed}");
    assert!(printed.contains("+# Um el-Bagara"), "{printed}");
    assert!(printed.contains("1 of 9 file(s)"), "{printed}");
    assert_eq!(report(corpus.path(), out.path(), "2", false).0, 0);
    // Regenerated, the edit is gone; a file that is not there is said to be missing, and
    // is the only one that differs.
    std::fs::remove_file(out.path().join("um-el-bagara.bib")).unwrap();
    let (code, printed, _) = report(corpus.path(), out.path(), "2", true);
    assert_eq!(code, 1, "{printed}");
    assert!(printed.contains("um-el-bagara.bib: missing"), "{printed}");
    assert!(printed.contains("1 of 9 file(s)"), "{printed}");
}

/// The committed reports of the built-in corpus are what ludotrace makes now (CI also runs
/// `report --all --check` on the release build; this checks one game, quickly).
#[test]
fn the_committed_index_names_every_game() {
    let index = std::fs::read_to_string(root().join("reports/index.md")).unwrap();
    for &game in ludotrace::corpus::GAME_IDS {
        assert!(index.contains(&format!("[{game}.md]({game}.md)")), "{game}");
        for ext in ["md", "html", "bib", "csl.json"] {
            assert!(
                root().join(format!("reports/{game}.{ext}")).exists(),
                "{game}.{ext}"
            );
        }
        // Every figure inline, whatever the game's name does to the alt text (Li'b …).
        let page = std::fs::read_to_string(root().join(format!("reports/{game}.html"))).unwrap();
        assert!(
            !page.contains("<img"),
            "{game}.html has a figure left as an image"
        );
        assert_eq!(
            page.matches("<figure class=\"figure\" id=\"figure-")
                .count(),
            5,
            "{game}.html: outcomes, lengths, self-play, tornado, variance"
        );
    }
}

/// Checks that an HTML page is well-formed: every element closed in order, void elements
/// written closed (`<br />`), after the doctype.
fn well_formed(page: &str) {
    let body = page
        .strip_prefix("<!DOCTYPE html>\n")
        .expect("the page starts with its doctype");
    let mut open: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find('<') {
        let after = &rest[i + 1..];
        let end = after.find('>').expect("every tag ends");
        let tag = &after[..end];
        rest = &after[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let top = open
                .pop()
                .unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(top, name, "</{name}> closes <{top}>");
        } else if !tag.ends_with('/') {
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            assert!(
                !["br", "hr", "meta", "img", "input", "link"].contains(&name.as_str()),
                "<{tag}> is a void element left open"
            );
            open.push(name);
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
}
