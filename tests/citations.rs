//! Citations against what each style's specification prescribes: a journal article, a web
//! page without an author, and two works of one author in one year, in every style the tool
//! names (APA 7, Chicago author-date, Chicago notes and bibliography), and the same keys and
//! names in BibTeX, CSL-JSON and text. The expected strings are written from the style
//! manuals (APA 7 §§9.4–9.5, 10.1, 10.16, 8.14–8.19; CMOS 17 §§14.171, 14.206, 15.19, 15.46,
//! 15.50–15.51, 9.61), not from the tool's output; the plain text has no italics.

use ludotrace::present::cite::{self, Reference, Style};
use serde_json::json;

use crate::util::ok;

fn article() -> Reference {
    Reference {
        key: "davies-1925".into(),
        csl: json!({
            "id": "davies-1925",
            "type": "article-journal",
            "author": [{ "family": "Davies", "given": "R." }],
            // Sentence case, as CSL keeps titles: a title-case style raises it.
            "title": "Some Arab games and puzzles",
            "container-title": "Sudan Notes and Records",
            "volume": "8",
            "issued": { "date-parts": [[1925]] },
            "page": "137–152",
        }),
        locator: Some("138-139".into()),
    }
}

fn web_page() -> Reference {
    Reference {
        key: "cow-game".into(),
        csl: json!({
            "id": "cow-game",
            "type": "webpage",
            "title": "How to play the Cow Game",
            "title-short": "How to play",
            "container-title": "Mancala World",
            "URL": "https://example.org/cow-game",
            "accessed": { "date-parts": [[2026, 11, 23]] },
        }),
        locator: None,
    }
}

fn second_article() -> Reference {
    Reference {
        key: "davies-1925b".into(),
        csl: json!({
            "id": "davies-1925b",
            "type": "article-journal",
            "author": [{ "family": "Davies", "given": "R." }],
            "title": "Games of the Kababish",
            "container-title": "Sudan Notes and Records",
            "volume": "8",
            "issued": { "date-parts": [[1925]] },
            "page": "153–160",
        }),
        locator: None,
    }
}

/// (entry, in-text citation or note) for each reference, by key.
fn rendered(refs: &[Reference], style: &str) -> Vec<(String, String, String)> {
    let style = cite::csl_style(style).unwrap();
    cite::cite(refs, &style)
        .into_iter()
        .map(|c| (c.id, c.entry, c.in_text))
        .collect()
}

fn one(refs: &[Reference], style: &str, key: &str) -> (String, String) {
    let all = rendered(refs, style);
    let (_, e, t) = all
        .into_iter()
        .find(|(k, _, _)| k == key)
        .unwrap_or_else(|| panic!("{key} not rendered in {style}"));
    (e, t)
}

#[test]
fn a_journal_article_in_every_style() {
    let refs = [article()];
    assert_eq!(
        one(&refs, "apa", "davies-1925"),
        (
            "Davies, R. (1925). Some Arab games and puzzles. Sudan Notes and Records, 8, 137–152."
                .into(),
            "(Davies, 1925, pp. 138–139)".into()
        )
    );
    assert_eq!(
        one(&refs, "chicago-author-date", "davies-1925"),
        (
            "Davies, R. 1925. “Some Arab Games and Puzzles.” Sudan Notes and Records 8: 137–52."
                .into(),
            "(Davies 1925, 138–39)".into()
        )
    );
    assert_eq!(
        one(&refs, "chicago-notes", "davies-1925"),
        (
            "Davies, R. “Some Arab Games and Puzzles.” Sudan Notes and Records 8 (1925): 137–52."
                .into(),
            "R. Davies, “Some Arab Games and Puzzles,” Sudan Notes and Records 8 (1925): 138–39."
                .into()
        )
    );
}

#[test]
fn a_web_page_without_an_author_is_cited_by_its_title() {
    let refs = [web_page()];
    let (entry, in_text) = one(&refs, "apa", "cow-game");
    assert_eq!(
        entry,
        "How to play the Cow Game. (n.d.). Mancala World. Retrieved November 23, 2026, from \
         https://example.org/cow-game"
    );
    assert_eq!(in_text, "(How to Play, n.d.)");
    // Chicago puts the site's owner where no author is (CMOS 17 §15.51: "Google. 2017.
    // “Privacy Policy.”"), and cites it so in the text.
    let (entry, in_text) = one(&refs, "chicago-author-date", "cow-game");
    assert_eq!(
        entry,
        "Mancala World. n.d. “How to Play the Cow Game.” Accessed November 23, 2026. \
         https://example.org/cow-game."
    );
    assert_eq!(in_text, "(Mancala World, n.d.)");
    // The bibliography likewise (CMOS 17 §14.206: "Google. “Privacy Policy.”"); the note
    // begins with the title (§14.206: "“Privacy Policy,” Privacy & Terms, Google").
    let (entry, note) = one(&refs, "chicago-notes", "cow-game");
    assert_eq!(
        entry,
        "Mancala World. “How to Play the Cow Game.” Accessed November 23, 2026. \
         https://example.org/cow-game."
    );
    assert_eq!(
        note,
        "“How to Play the Cow Game,” Mancala World, accessed November 23, 2026, \
         https://example.org/cow-game."
    );
}

/// Two works of one author and year: a and b in the order of the reference list (by title),
/// the same letter in the text, whatever order they are cited in.
#[test]
fn two_works_of_one_author_in_one_year_are_told_apart_by_a_letter() {
    let refs = [article(), second_article()];
    let apa = rendered(&refs, "apa");
    assert_eq!(
        apa,
        [
            (
                "davies-1925b".to_owned(),
                "Davies, R. (1925a). Games of the Kababish. Sudan Notes and Records, 8, 153–160."
                    .to_owned(),
                "(Davies, 1925a)".to_owned()
            ),
            (
                "davies-1925".to_owned(),
                "Davies, R. (1925b). Some Arab games and puzzles. Sudan Notes and Records, 8, \
                 137–152."
                    .to_owned(),
                "(Davies, 1925b, pp. 138–139)".to_owned()
            ),
        ]
    );
    let chicago = rendered(&refs, "chicago-author-date");
    assert_eq!(
        chicago
            .iter()
            .map(|(k, e, t)| (k.as_str(), e.as_str(), t.as_str()))
            .collect::<Vec<_>>(),
        [
            (
                "davies-1925b",
                "Davies, R. 1925a. “Games of the Kababish.” Sudan Notes and Records 8: 153–60.",
                "(Davies 1925a)"
            ),
            (
                "davies-1925",
                "Davies, R. 1925b. “Some Arab Games and Puzzles.” Sudan Notes and Records 8: 137–52.",
                "(Davies 1925b, 138–39)"
            ),
        ]
    );
    // Notes name the title, so no letter; the bibliography lists the two under one name,
    // by title.
    let notes = rendered(&refs, "chicago-notes");
    assert_eq!(notes[0].0, "davies-1925b");
    assert_eq!(
        notes[0].2,
        "R. Davies, “Games of the Kababish,” Sudan Notes and Records 8 (1925): 153–60."
    );
    assert!(
        notes
            .iter()
            .all(|(_, e, t)| !e.contains("1925a") && !t.contains("1925a"))
    );
}

/// BibTeX and CSL-JSON carry the same keys as the text, people as family and given names,
/// the article's issue as BibTeX's number.
#[test]
fn one_key_per_work_in_every_format() {
    let mut a = article();
    a.csl["issue"] = json!("2");
    let refs = [a, web_page()];
    let bib = cite::render(&refs, Style::Bibtex);
    let parsed = biblatex::Bibliography::parse(&bib).unwrap();
    let keys: Vec<&str> = parsed.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["davies-1925", "cow-game"], "{bib}");
    assert!(
        bib.contains("author = {Davies, R.}") && bib.contains("number = {2}"),
        "{bib}"
    );
    let csl: serde_json::Value =
        serde_json::from_str(&cite::render(&refs, Style::CslJson)).unwrap();
    assert_eq!(csl[0]["id"], "davies-1925");
    assert_eq!(csl[1]["title-short"], "How to play");
    let text = cite::render(&refs, Style::Text);
    assert!(
        text.contains("[Key: davies-1925]") && text.contains("[Key: cow-game]"),
        "{text}"
    );
}

/// The built-in corpus cited as an author would: Piette a person, the record id never
/// lowered, no "Retrieved" without "from", no doubled full stop, a/b/c down the list and in
/// the text alike, the same keys in BibTeX, CSL-JSON and text.
#[test]
fn seega_is_cited_right_in_every_style() {
    for style in ["apa", "chicago-author-date", "chicago-notes"] {
        let text = ok(&["cite", "seega", "--csl", style]);
        assert!(
            !text.contains("Eric Piette.") && text.contains("Piette, E"),
            "{style}: {text}"
        );
        assert!(!text.contains("Dlp.evidence"), "{style}: {text}");
        assert!(!text.contains("Retrieved http"), "{style}: {text}");
        assert!(!text.contains(".."), "{style}: {text}");
        if style != "chicago-notes" {
            // Each entry's letter is its citation's, and they run a, b, c, d down the list.
            let letters: Vec<(char, char)> = text
                .lines()
                .filter(|l| l.contains("n.d.-"))
                .map(|l| {
                    let first = l.split("n.d.-").nth(1).unwrap().chars().next().unwrap();
                    let cited = l.split("[In the text:").nth(1).unwrap();
                    let second = cited.split("n.d.-").nth(1).unwrap().chars().next().unwrap();
                    (first, second)
                })
                .collect();
            assert_eq!(
                letters,
                [('a', 'a'), ('b', 'b'), ('c', 'c'), ('d', 'd')],
                "{style}: {text}"
            );
        }
    }
    let bib = ok(&["cite", "seega", "--style", "bibtex"]);
    let csl = crate::util::json(&["cite", "seega", "--style", "csl-json"]);
    let text = ok(&["cite", "seega"]);
    let parsed = biblatex::Bibliography::parse(&bib).unwrap();
    for (entry, item) in parsed.iter().zip(csl.as_array().unwrap()) {
        assert_eq!(item["id"], entry.key.as_str());
        assert!(text.contains(&format!("[Key: {}]", entry.key)), "{text}");
    }
    assert!(
        bib.contains("@article{davies-1925,") && bib.contains("author = {Piette, Eric}"),
        "{bib}"
    );
    assert!(bib.contains("@misc{ludii-1.0.8:seega-sebawee,"), "{bib}");
}

/// The tool's own citation: its repository (Cargo.toml's), version and release date, the
/// same as CITATION.cff's.
#[test]
fn the_tool_is_cited_with_its_repository_version_and_date() {
    let text = ok(&["cite", "--tool"]);
    assert!(!text.contains("not recorded"), "{text}");
    let repo = env!("CARGO_PKG_REPOSITORY");
    assert!(!repo.is_empty() && text.contains(repo), "{text}");
    let (y, m, d) = cite::RELEASE_DATE;
    let cff = std::fs::read_to_string(crate::util::root().join("CITATION.cff")).unwrap();
    for line in [
        format!("repository-code: \"{repo}\""),
        format!("date-released: \"{y:04}-{m:02}-{d:02}\""),
        format!("version: {}", env!("CARGO_PKG_VERSION")),
    ] {
        assert!(
            cff.lines().any(|l| l.trim() == line),
            "{line} not in CITATION.cff"
        );
    }
    let csl = crate::util::json(&["cite", "--tool", "--style", "csl-json"]);
    assert_eq!(csl[0]["issued"]["date-parts"][0], json!([y, m, d]));
    assert_eq!(csl[0]["URL"], repo);
}

/// A title-case style raises a title's words, not a name's particles: `Um el Tuweisat`,
/// `Li'b al-'Aqil` and ludotrace's own name stay as written (CMOS 17 §8.159).
#[test]
fn names_keep_their_particles_in_a_title_case_style() {
    for (game, name) in [
        ("um-el-tuweisat", "Um el Tuweisat"),
        ("um-el-bagara", "Um el-Bagara"),
        ("lib-al-aqil", "Li'b al-'Aqil"),
    ] {
        let text = ok(&["cite", game, "--csl", "chicago-notes"]);
        assert!(
            text.contains(&format!("“{name}: Source-Annotated Ruleset.”")),
            "{text}"
        );
        assert!(
            !text.contains(" El ") && !text.contains(" Al-") && !text.contains("Ludotrace"),
            "{text}"
        );
    }
}
