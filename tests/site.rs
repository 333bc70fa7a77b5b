//! `ludotrace site`: the same bytes at any thread count, well-formed pages that request
//! nothing outside, every quote marked and linked both ways, bad input refused; and, in a
//! real browser (Chromium headless), every page loading without a console error, the links
//! of the dumped DOM, the search driven by the URL, and the pages at a phone's width.
//!
//! The full site (reports included) is made from the small test corpus, with an alias added,
//! because a report plays some thousands of games a reading, slower in the tests' debug build;
//! the pages of the built-in corpus (every game, without the reports) are made by the
//! library's own `site::pages` and checked the same way; `LUDOTRACE_SITE=DIR` adds a whole
//! site made elsewhere (CI makes the built-in corpus's with a release build).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ludotrace::corpus::{CorpusFiles, load};
use ludotrace::present::site;

use crate::util::{bin, copy_tree, fails, mini_corpus, run};

/// The small corpus with another name for its game, so that search by alias can be tried.
fn corpus_with_alias() -> tempfile::TempDir {
    let dir = mini_corpus();
    let path = dir.path().join("rulesets/um-el-bagara.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen(
        "name: Um el-Bagara\n",
        "name: Um el-Bagara\naliases: [The Cow Game, Baqâra]\n",
        1,
    );
    std::fs::write(&path, text).unwrap();
    dir
}

/// `ludotrace --corpus CORPUS site --out OUT -n 5 --threads T`, which must succeed (five games
/// a reading, which the reports' self-play section plays too: these tests are about pages,
/// not numbers, and a debug build plays slowly).
fn make_site(corpus: &Path, out: &Path, threads: &str) {
    let (code, _, err) = run(bin()
        .arg("--corpus")
        .arg(corpus)
        .args(["site", "-n", "5", "--threads", threads, "--out"])
        .arg(out));
    assert_eq!(code, 0, "{err}");
}

/// The pages of the built-in corpus (no reports), written into `dir`.
pub(crate) fn builtin_pages(dir: &Path) {
    let corpus = load(&CorpusFiles::embedded())
        .corpus
        .expect("the corpus loads");
    let samples = site::samples(&corpus, "built-in").expect("the sample games explain");
    std::fs::create_dir_all(dir.join("explain")).unwrap();
    for f in site::pages(&corpus, Vec::new(), samples) {
        std::fs::write(dir.join(&f.name), f.text).unwrap();
    }
}

/// Every file under `dir`, by relative path.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn html_pages(dir: &Path) -> Vec<(String, String)> {
    files(dir)
        .into_iter()
        .filter(|(n, _)| n.ends_with(".html"))
        .map(|(n, b)| (n, String::from_utf8(b).unwrap()))
        .collect()
}

// ---------------------------------------------------------------------------------------
// A small HTML reader: strict (XML-like) for the pages as written, lenient for Chromium's
// dumped DOM (which does not close void elements).

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
];

/// An element: tag, attributes, and the index range of its descendants.
#[derive(Debug)]
pub(crate) struct El {
    pub(crate) tag: String,
    pub(crate) attrs: BTreeMap<String, String>,
    /// Indices of the elements inside it are `first_child..end`.
    end: usize,
}

/// Parses `html` into elements in document order. With `strict`, returns what is not
/// well-formed: a void element not closed `/>`, an attribute not quoted, a tag not balanced,
/// a bare `&` or `<`, `<` or `&` in a script or style.
pub(crate) fn parse(html: &str, strict: bool) -> (Vec<El>, Vec<String>) {
    let mut els: Vec<El> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut errors = Vec::new();
    let b = html.as_bytes();
    let mut i = 0;
    let text_ok = |t: &str, errors: &mut Vec<String>| {
        for (k, _) in t.match_indices('&') {
            let rest = &t[k + 1..];
            let end = rest.find(';').unwrap_or(usize::MAX);
            let ent = if end < 12 { &rest[..end] } else { "" };
            let valid = !ent.is_empty()
                && (ent.starts_with('#') || ent.chars().all(|c| c.is_ascii_alphanumeric()));
            if !valid {
                errors.push(format!(
                    "a bare `&` in text: {:?}",
                    &t[k..(k + 20).min(t.len())]
                ));
            }
        }
    };
    while i < b.len() {
        let Some(lt) = html[i..].find('<') else {
            text_ok(&html[i..], &mut errors);
            break;
        };
        text_ok(&html[i..i + lt], &mut errors);
        i += lt;
        if html[i..].starts_with("<!--") {
            i += html[i..].find("-->").map_or(b.len() - i, |e| e + 3);
            continue;
        }
        if html[i..].starts_with("<!") || html[i..].starts_with("<?") {
            i += html[i..].find('>').unwrap() + 1;
            continue;
        }
        let close = html[i..].starts_with("</");
        let start = i + if close { 2 } else { 1 };
        let name_end = html[start..]
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .map(|e| start + e)
            .unwrap_or(b.len());
        let tag = html[start..name_end].to_ascii_lowercase();
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_alphanumeric()) {
            errors.push(format!("a bare `<` at byte {i}"));
            i += 1;
            continue;
        }
        // Attributes.
        let mut j = name_end;
        let mut attrs = BTreeMap::new();
        let mut self_closed = false;
        loop {
            while j < b.len() && (b[j] as char).is_whitespace() {
                j += 1;
            }
            if j >= b.len() {
                break;
            }
            if html[j..].starts_with("/>") {
                self_closed = true;
                j += 2;
                break;
            }
            if b[j] == b'>' {
                j += 1;
                break;
            }
            let ne = html[j..]
                .find(|c: char| c == '=' || c.is_whitespace() || c == '>' || c == '/')
                .map_or(b.len(), |e| j + e);
            let name = html[j..ne].to_ascii_lowercase();
            j = ne;
            if j < b.len() && b[j] == b'=' {
                j += 1;
                let q = b[j];
                if q == b'"' || q == b'\'' {
                    let e = html[j + 1..].find(q as char).unwrap() + j + 1;
                    attrs.insert(name, unescape(&html[j + 1..e]));
                    j = e + 1;
                } else {
                    errors.push(format!("<{tag}>: attribute {name} not quoted"));
                    let e = html[j..]
                        .find(|c: char| c.is_whitespace() || c == '>')
                        .map_or(b.len(), |e| j + e);
                    attrs.insert(name, unescape(&html[j..e]));
                    j = e;
                }
            } else if name.is_empty() {
                j += 1;
            } else {
                attrs.insert(name, String::new());
            }
        }
        i = j;
        if close {
            match stack.iter().rposition(|&k| els[k].tag == tag) {
                Some(pos) => {
                    if strict && pos + 1 != stack.len() {
                        errors.push(format!(
                            "</{tag}> closes over an open <{}>",
                            els[*stack.last().unwrap()].tag
                        ));
                    }
                    for k in stack.drain(pos..) {
                        els[k].end = els.len();
                    }
                }
                None => errors.push(format!("</{tag}> without <{tag}>")),
            }
            continue;
        }
        let void = VOID.contains(&tag.as_str());
        if strict && void && !self_closed {
            errors.push(format!("<{tag}> not closed as <{tag} />"));
        }
        // Inside inline SVG (foreign content), any element may be self-closed.
        let foreign = tag == "svg" || stack.iter().any(|&k| els[k].tag == "svg");
        if strict && self_closed && !void && !foreign {
            errors.push(format!("<{tag} /> is not a void element"));
        }
        let k = els.len();
        els.push(El {
            tag: tag.clone(),
            attrs,
            end: k + 1,
        });
        if tag == "script" || tag == "style" {
            let end = html[i..].find(&format!("</{tag}>")).unwrap() + i;
            let raw = &html[i..end];
            if strict && (raw.contains('<') || raw.contains('&')) {
                errors.push(format!("<{tag}> holds `<` or `&`: not well-formed as XML"));
            }
            i = end + tag.len() + 3;
            continue;
        }
        if !void && !self_closed {
            stack.push(k);
        }
    }
    if strict && !stack.is_empty() {
        errors.push(format!(
            "unclosed: {:?}",
            stack.iter().map(|&k| &els[k].tag).collect::<Vec<_>>()
        ));
    }
    for k in stack {
        els[k].end = els.len();
    }
    (els, errors)
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// What is wrong with the links of a page: ids repeated, a `#x` with no element `x`, a mark
/// whose link does not lead to an element that links back to one of the mark's quotes, a
/// back link that does not lead to a mark in a source text.
pub(crate) fn link_problems(els: &[El]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut ids: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, e) in els.iter().enumerate() {
        if let Some(id) = e.attrs.get("id")
            && ids.insert(id, k).is_some()
        {
            problems.push(format!("id {id} twice"));
        }
    }
    for e in els {
        if let Some(h) = e.attrs.get("href").and_then(|h| h.strip_prefix('#'))
            && !ids.contains_key(h)
        {
            problems.push(format!("href=#{h}: no such id"));
        }
    }
    let inside = |k: usize| els.iter().enumerate().skip(k + 1).take(els[k].end - k - 1);
    let mut marks = 0;
    for (k, e) in els.iter().enumerate() {
        if e.tag != "mark" {
            continue;
        }
        marks += 1;
        let quotes: Vec<&str> = e.attrs["data-q"].split(' ').collect();
        let Some(owner) = inside(k)
            .find(|(_, a)| a.tag == "a")
            .and_then(|(_, a)| a.attrs.get("href"))
            .and_then(|h| h.strip_prefix('#'))
        else {
            problems.push(format!("mark {quotes:?} has no link"));
            continue;
        };
        let Some(&o) = ids.get(owner) else {
            continue;
        };
        let back = inside(o).any(|(_, a)| {
            a.tag == "a"
                && a.attrs
                    .get("href")
                    .is_some_and(|h| quotes.iter().any(|q| h == &format!("#{q}")))
        });
        if !back {
            problems.push(format!("#{owner} does not link back to any of {quotes:?}"));
        }
    }
    for e in els {
        if e.attrs.get("class").map(String::as_str) != Some("back") {
            continue;
        }
        let target = e.attrs["href"].trim_start_matches('#');
        let ok = ids
            .get(target)
            .is_some_and(|&t| els[t].tag == "mark" || els[t].tag == "span");
        if !ok {
            problems.push(format!("back link #{target} leads to no marked quote"));
        }
    }
    if marks == 0
        && els
            .iter()
            .any(|e| e.attrs.get("class").is_some_and(|c| c == "back"))
    {
        problems.push("back links but no marks".to_owned());
    }
    problems
}

/// Every page well-formed, every resource local, every link inside the site resolving.
fn check_static(dir: &Path) {
    let all = files(dir);
    for (name, html) in html_pages(dir) {
        let (els, errors) = parse(&html, true);
        assert!(errors.is_empty(), "{name} is not well-formed: {errors:#?}");
        assert!(
            html.contains(
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />"
            ),
            "{name}: no viewport"
        );
        let base = Path::new(&name).parent().unwrap_or(Path::new(""));
        for e in &els {
            for attr in ["src", "href"] {
                let Some(v) = e.attrs.get(attr) else { continue };
                let resource = matches!(e.tag.as_str(), "link" | "script" | "img")
                    || attr == "src"
                    || e.tag != "a";
                if v.contains("://") || v.starts_with("//") {
                    assert!(
                        !resource,
                        "{name}: <{} {attr}=\"{v}\"> would request a resource outside the site",
                        e.tag
                    );
                    continue;
                }
                if v.starts_with('#') || v.starts_with("mailto:") {
                    continue;
                }
                let path = v.split('#').next().unwrap();
                // `reports/../seega.html` is `seega.html`.
                let mut parts: Vec<String> = Vec::new();
                for c in base.join(path).components() {
                    match c {
                        std::path::Component::ParentDir => {
                            assert!(parts.pop().is_some(), "{name}: {v} leads out of the site");
                        }
                        c => parts.push(c.as_os_str().to_string_lossy().into_owned()),
                    }
                }
                let target = parts.join("/");
                assert!(
                    all.contains_key(&target),
                    "{name}: {attr}=\"{v}\": no file {target}"
                );
            }
        }
        let problems = link_problems(&els);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
    }
}

#[test]
fn the_site_is_the_same_bytes_at_any_thread_count() {
    let corpus = corpus_with_alias();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    make_site(corpus.path(), &a.path().join("s"), "1");
    make_site(corpus.path(), &b.path().join("s"), "2");
    let (fa, fb) = (files(&a.path().join("s")), files(&b.path().join("s")));
    assert_eq!(fa.keys().collect::<Vec<_>>(), fb.keys().collect::<Vec<_>>());
    for (name, bytes) in &fa {
        assert!(
            bytes == &fb[name],
            "{name} differs between --threads 1 and 2"
        );
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains(&a.path().display().to_string()),
            "{name} names the output directory"
        );
    }
    for name in [
        "index.html",
        "um-el-bagara.html",
        "reports/um-el-bagara.html",
        "reports/index.html",
        ".ludotrace-site",
    ] {
        assert!(fa.contains_key(name), "no {name}");
    }
    // Made again into the same directory: the same files. A file the last run wrote and this
    // one does not make is removed; a file the site never listed is left alone.
    let s = a.path().join("s");
    std::fs::write(s.join("gone.html"), "old").unwrap();
    let marker = std::fs::read_to_string(s.join(site::MARKER)).unwrap();
    std::fs::write(s.join(site::MARKER), format!("{marker}gone.html\n")).unwrap();
    std::fs::write(s.join("notes.txt"), "mine").unwrap();
    make_site(corpus.path(), &s, "2");
    assert!(
        !s.join("gone.html").exists(),
        "a file no longer made is removed"
    );
    std::fs::remove_file(s.join("notes.txt")).expect("a file the site did not write stays");
    assert_eq!(files(&s), fa);
}

#[test]
fn every_page_is_well_formed_local_and_linked_both_ways() {
    let corpus = corpus_with_alias();
    let out = tempfile::tempdir().unwrap();
    make_site(corpus.path(), out.path(), "2");
    check_static(out.path());
    // The reports' index names the pages it links to; a report leads back to the site.
    let read = |n: &str| std::fs::read_to_string(out.path().join(n)).unwrap();
    let index = read("reports/index.html");
    assert!(
        index.contains("<a href=\"um-el-bagara.html\">um-el-bagara.html</a>"),
        "{index}"
    );
    assert!(!index.contains(".md</a>"), "{index}");
    let report = read("reports/um-el-bagara.html");
    assert!(report.contains("<a href=\"../um-el-bagara.html\">Um el-Bagara on the site</a>"));
    assert!(report.contains("<a href=\"../index.html\">The site</a>"));
    // The built-in corpus's pages, every game (their links to reports/ aside).
    let pages = tempfile::tempdir().unwrap();
    builtin_pages(pages.path());
    for (name, html) in html_pages(pages.path()) {
        let (els, errors) = parse(&html, true);
        assert!(errors.is_empty(), "{name} is not well-formed: {errors:#?}");
        let problems = link_problems(&els);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
        assert!(
            !html.contains("not found in the texts shown"),
            "{name}: a quote is not marked in any text shown"
        );
        for e in &els {
            if matches!(e.tag.as_str(), "link" | "script" | "img") {
                for v in e.attrs.get("src").into_iter().chain(e.attrs.get("href")) {
                    assert!(!v.contains("://"), "{name}: {v}");
                }
            }
        }
    }
    // Every quote of Um el Banât is marked: as many back links as quotes.
    let banat = std::fs::read_to_string(pages.path().join("um-el-banat.html")).unwrap();
    assert!(
        banat.matches("class=\"back\"").count() > 20,
        "few quotes marked"
    );
    assert!(banat.contains("id=\"UB-18\""));
}

/// The text of a page outside its script (the search's data is JSON, with JSON's escapes).
fn outside_script(html: &str) -> String {
    match (html.find("<script>"), html.find("</script>")) {
        (Some(a), Some(b)) => format!("{}{}", &html[..a], &html[b..]),
        _ => html.to_owned(),
    }
}

#[test]
fn the_pages_read_as_a_reader_expects() {
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let dir = tempfile::tempdir().unwrap();
    builtin_pages(dir.path());
    let pages = html_pages(dir.path());
    let page = |n: &str| &pages.iter().find(|(m, _)| m == n).unwrap().1;
    for (name, html) in &pages {
        let text = outside_script(html);
        // A register reading's id is whole: `SJ-01a`, not the point's id before it again.
        for p in corpus.points.values() {
            for r in &p.readings {
                let doubled = format!("{}{}", p.id, r.id);
                assert!(!text.contains(&doubled), "{name}: {doubled}");
            }
        }
        // No empty quotation of a witness.
        assert!(
            !text.contains("<blockquote class=\"text\"></blockquote>"),
            "{name}: an empty witness"
        );
        // One page is "p.", a range "pp." with an en dash.
        for (at, _) in text.match_indices("(pp. ") {
            let pages = &text[at + 5..at + 5 + text[at + 5..].find(')').unwrap()];
            assert!(pages.contains('–'), "{name}: (pp. {pages})");
        }
        for (at, _) in text.match_indices("(p. ") {
            let pages = &text[at + 4..at + 4 + text[at + 4..].find(')').unwrap()];
            assert!(!pages.contains(['–', '-']), "{name}: (p. {pages})");
        }
        // No escape of a file's string shown as text.
        assert!(
            !text.contains("\\&quot;") && !text.contains("\\\""),
            "{name}: a raw escape"
        );
    }
    // Every clause, remark, open point, option and register reading can be cited by its
    // address: its id, and a "¶" link to it.
    for g in &corpus.games {
        let html = page(&format!("{}.html", g.id));
        let mut ids: Vec<String> = g
            .clauses
            .iter()
            .map(|c| format!("clause-{}", c.id))
            .collect();
        ids.extend(g.remarks.iter().map(|r| format!("remark-{}", r.id)));
        for ch in &g.choices {
            ids.push(format!("choice-{}", ch.id));
            ids.extend(
                ch.options
                    .iter()
                    .map(|o| format!("option-{}-{}", ch.id, o.id)),
            );
        }
        for id in &ids {
            assert!(
                html.contains(&format!(" id=\"{id}\"")),
                "{}: no id {id}",
                g.id
            );
            assert!(
                html.contains(&format!("<a class=\"para\" href=\"#{id}\"")),
                "{}: no link to {id}",
                g.id
            );
        }
    }
    let seega = page("seega.html");
    assert!(
        seega.contains("<li id=\"SJ-01a\"><strong>SJ-01a</strong>"),
        "{seega}"
    );
    assert!(seega.contains("(pp. 138–139)"));
    assert!(seega.contains("No text of this witness is recorded in the corpus."));
    let aqil = page("lib-al-aqil.html");
    assert!(aqil.contains("(p. 346)"));
    assert!(
        aqil.contains("Li'b al-'Aqil (&quot;game of the wise&quot;)"),
        "{aqil}"
    );
}

#[test]
fn a_games_figures_from_the_report_are_on_its_page_only() {
    let corpus = load(&CorpusFiles::embedded()).corpus.unwrap();
    let svg = |name: &str| ludotrace::present::report::File {
        name: name.to_owned(),
        text: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>\n"
            .to_owned(),
    };
    // The report's outcomes, as the game page takes them in: a figure it shows, a link.
    let md = ludotrace::present::report::File {
        name: "um-el-banat.md".to_owned(),
        text:
            "# Um el Banât\n\n## Outcomes of every reading\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n\
               ![Outcomes](um-el-banat-outcomes.svg)\n\nSee [the flags](#flags) and \
               [BibTeX](um-el-banat.bib).\n\n## Flags\n\nnot taken\n\n\
               ![Lengths & more](um-el-banat-lengths.svg)\n\n*How long they last.*\n"
                .to_owned(),
    };
    let made = site::pages(
        &corpus,
        vec![
            md,
            svg("um-el-banat-outcomes.svg"),
            svg("um-el-banat-lengths.svg"),
            svg("seega-lengths.svg"),
        ],
        Vec::new(),
    );
    let page = |n: &str| &made.iter().find(|f| f.name == n).unwrap().text;
    let banat = page("um-el-banat.html");
    assert_eq!(
        banat
            .matches("src=\"reports/um-el-banat-outcomes.svg\"")
            .count(),
        1,
        "the section's figure, once, from the page's directory: {banat}"
    );
    assert!(banat.contains(
        "<figure id=\"figure-um-el-banat-lengths\"><img src=\"reports/um-el-banat-lengths.svg\" \
         alt=\"Lengths &amp; more\" /><figcaption>How long they last.</figcaption></figure>"
    ), "{banat}");
    assert!(banat.contains("href=\"reports/um-el-banat.bib\""));
    assert!(banat.contains("<td>1</td>") && !banat.contains("not taken"));
    assert!(!page("um-el-banat.html").contains("seega-lengths"));
    assert!(page("seega.html").contains("<img src=\"reports/seega-lengths.svg\""));
    assert!(!page("um-el-bagara.html").contains(".svg"));
    assert!(made.iter().any(|f| f.name == "reports/seega-lengths.svg"));
}

/// `site --reports DIR` builds the very site `site` makes, from the reports `report --all
/// --out DIR` wrote, playing nothing; a missing or foreign report is refused, naming it.
#[test]
fn a_site_from_written_reports_is_the_site_made_afresh() {
    let corpus = corpus_with_alias();
    let c = corpus.path().to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let reports = out.path().join("reports");
    let r = reports.to_str().unwrap();
    let (code, _, err) = run(bin().args([
        "--no-store",
        "--corpus",
        c,
        "report",
        "--all",
        "-n",
        "5",
        "--out",
        r,
    ]));
    assert_eq!(code, 0, "{err}");
    make_site(corpus.path(), &out.path().join("made"), "2");
    let from = out.path().join("from");
    let (code, _, err) = run(bin()
        .args(["--corpus", c, "site", "--reports", r, "--out"])
        .arg(&from));
    assert_eq!(code, 0, "{err}");
    assert_eq!(files(&from), files(&out.path().join("made")));
    // -n has no meaning with reports already made.
    let err = fails(&["--corpus", c, "site", "--reports", r, "-n", "5"]);
    assert!(
        err.contains("--reports") && err.contains("--games"),
        "{err}"
    );
    // A report of another corpus (its opening line names another hash), then none.
    let md = reports.join("um-el-bagara.md");
    let text = std::fs::read_to_string(&md).unwrap();
    let at = text.find("corpus BLAKE3 `").unwrap() + "corpus BLAKE3 `".len();
    let mut other = text.clone();
    other.replace_range(at..at + 4, "0000");
    std::fs::write(&md, other).unwrap();
    let d = out.path().join("never");
    let err = fails(&[
        "--corpus",
        c,
        "site",
        "--reports",
        r,
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(
        err.contains("um-el-bagara.md was made by another ludotrace or from another corpus")
            && err.contains("report --all --out"),
        "{err}"
    );
    std::fs::remove_file(&md).unwrap();
    let err = fails(&[
        "--corpus",
        c,
        "site",
        "--reports",
        r,
        "--out",
        d.to_str().unwrap(),
    ]);
    assert!(
        err.contains("no report of um-el-bagara (um-el-bagara.md)"),
        "{err}"
    );
    assert!(!d.exists(), "nothing written on an error");
}

#[test]
fn bad_input_is_refused() {
    let corpus = corpus_with_alias();
    let c = corpus.path().to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("s");
    let d = dir.to_str().unwrap();
    let err = fails(&["--corpus", c, "site", "-n", "0", "--out", d]);
    assert!(err.contains("-n must be 1"), "{err}");
    assert!(!dir.exists(), "nothing written on an error");
    let file = out.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let err = fails(&[
        "--corpus",
        c,
        "site",
        "-n",
        "5",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert!(err.contains("that is a file"), "{err}");
    // A directory of someone else's files: refused, untouched; --force writes beside them.
    let theirs = out.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("index.html"), "mine").unwrap();
    let t = theirs.to_str().unwrap();
    let err = fails(&["--corpus", c, "site", "-n", "5", "--out", t]);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(
        std::fs::read_to_string(theirs.join("index.html")).unwrap(),
        "mine"
    );
    let (code, _, err) = run(bin().args(["--corpus", c, "site", "-n", "5", "--force", "--out", t]));
    assert_eq!(code, 0, "{err}");
    assert!(theirs.join(site::MARKER).exists());
    let err = fails(&["--corpus", c, "site", "-n", "many"]);
    assert!(err.contains("many"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Chromium.

/// The Chromium to drive: `LUDOTRACE_CHROMIUM`, `/usr/bin/chromium`, or `chromium` on PATH.
pub(crate) fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("LUDOTRACE_CHROMIUM") {
        let p = PathBuf::from(p);
        return p.is_file().then_some(p);
    }
    let fixed = PathBuf::from("/usr/bin/chromium");
    if fixed.is_file() {
        return Some(fixed);
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .flat_map(|d| ["chromium", "chromium-browser"].map(|n| d.join(n)))
        .find(|p| p.is_file())
}

/// Loads `url` in a fresh headless Chromium (no network: every host name fails to resolve)
/// and returns the DOM after the scripts ran, and the console's messages.
pub(crate) fn dump(chrome: &Path, url: &str, width: u32) -> (String, Vec<String>) {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            &format!("--window-size={width},800"),
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("Chromium starts");
    // Read both pipes on threads, so that a full pipe cannot stall the browser.
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut so, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut se, &mut s).unwrap();
        s
    });
    let started = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("Chromium did not finish {url} in 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let console = err
        .join()
        .unwrap()
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_owned)
        .collect();
    (out.join().unwrap(), console)
}

pub(crate) fn file_url(p: &Path) -> String {
    format!("file://{}", p.display())
}

/// A harness page that loads each page at 375 px in a frame; a script added to a copy of
/// each page reports, once it has loaded, whether the document is wider than the frame.
/// Returns page → (fits, document width).
pub(crate) fn widths(
    chrome: &Path,
    dir: &Path,
    pages: &[String],
) -> BTreeMap<String, (bool, String)> {
    const CHECK: &str = "<script>window.addEventListener('load', function () {\
        var d = document.documentElement; parent.postMessage({page: document.body.getAttribute('data-page'), \
        fits: d.scrollWidth - innerWidth, width: d.scrollWidth + '/' + innerWidth}, '*'); });</script>";
    let mut frames = String::new();
    for (k, p) in pages.iter().enumerate() {
        let html = std::fs::read_to_string(dir.join(p)).unwrap();
        let check = html
            .replacen("<body>", &format!("<body data-page=\"{p}\">"), 1)
            .replacen("</body>", &format!("{CHECK}</body>"), 1);
        // Beside the page, so that its relative links are the page's own.
        let copy = Path::new(p).with_file_name(format!("width-check-{k}.html"));
        std::fs::write(dir.join(&copy), check).unwrap();
        frames.push_str(&format!(
            "<iframe src=\"{}\" width=\"375\" height=\"700\"></iframe>\n",
            copy.display()
        ));
    }
    let harness = format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\" /><script>\
         window.addEventListener('message', function (e) {{ var li = document.createElement('li');\
         li.setAttribute('data-page', e.data.page); li.setAttribute('data-fits', e.data.fits);\
         li.setAttribute('data-width', e.data.width); document.getElementById('out').appendChild(li); }});\
         </script></head><body><ul id=\"out\"></ul>\n{frames}</body></html>"
    );
    let path = dir.join("width-check.html");
    std::fs::write(&path, harness).unwrap();
    let (dom, console) = dump(chrome, &file_url(&path), 1200);
    assert!(
        console.is_empty(),
        "console while checking widths: {console:#?}"
    );
    let (els, _) = parse(&dom, false);
    els.iter()
        .filter(|e| e.tag == "li" && e.attrs.contains_key("data-page"))
        .map(|e| {
            let over: i64 = e.attrs["data-fits"].parse().unwrap();
            (
                e.attrs["data-page"].clone(),
                (over <= 0, e.attrs["data-width"].clone()),
            )
        })
        .collect()
}

/// The hrefs of the search results in a dumped index.
fn results(dom: &str) -> Vec<String> {
    let (els, _) = parse(dom, false);
    let Some(ol) = els
        .iter()
        .position(|e| e.attrs.get("id").is_some_and(|i| i == "results"))
    else {
        return Vec::new();
    };
    els[ol + 1..els[ol].end]
        .iter()
        .filter(|e| e.tag == "a")
        .map(|e| e.attrs["href"].clone())
        .collect()
}

#[test]
fn in_chromium_pages_load_clean_link_both_ways_search_and_fit_a_phone() {
    let Some(chrome) = chromium() else {
        if std::env::var_os("LUDOTRACE_REQUIRE_CHROMIUM").is_some_and(|v| v == "1") {
            panic!(
                "Chromium not found (LUDOTRACE_REQUIRE_CHROMIUM=1): install the Debian packages chromium and chromium-driver, or set LUDOTRACE_CHROMIUM"
            );
        }
        let why = match std::env::var_os("LUDOTRACE_CHROMIUM") {
            Some(p) => format!("LUDOTRACE_CHROMIUM={} is not a file", p.to_string_lossy()),
            None => "no /usr/bin/chromium, no chromium on PATH, no LUDOTRACE_CHROMIUM".to_owned(),
        };
        eprintln!(
            "\n*** SKIPPED: Chromium not found ({why}): the site's browser test did not run. \
             Install Chromium, or set LUDOTRACE_REQUIRE_CHROMIUM=1 to make this a failure. ***\n"
        );
        return;
    };

    // The checks can fail: a broken script is seen on the console, a wide page is too wide.
    let probe = tempfile::tempdir().unwrap();
    std::fs::write(
        probe.path().join("broken.html"),
        "<!DOCTYPE html><html><body><p>x</p><script>nosuch();</script></body></html>",
    )
    .unwrap();
    std::fs::write(
        probe.path().join("wide.html"),
        "<!DOCTYPE html><html><body><div style=\"width:600px\">wide</div></body></html>",
    )
    .unwrap();
    let (_, console) = dump(&chrome, &file_url(&probe.path().join("broken.html")), 375);
    assert!(
        console
            .iter()
            .any(|l| l.contains("Uncaught ReferenceError")),
        "a script error must show on the console as read here: {console:#?}"
    );
    let w = widths(&chrome, probe.path(), &["wide.html".to_owned()]);
    assert_eq!(w.get("wide.html").map(|x| x.0), Some(false), "{w:?}");

    // The full site of the small corpus, and the built-in corpus's pages.
    let corpus = corpus_with_alias();
    let mini = tempfile::tempdir().unwrap();
    make_site(corpus.path(), mini.path(), "2");
    let builtin = tempfile::tempdir().unwrap();
    builtin_pages(builtin.path());

    // A whole site made elsewhere (CI makes the built-in corpus's in a release build), copied
    // because the width check writes its frames beside the pages.
    let given = tempfile::tempdir().unwrap();
    let mut dirs = vec![mini.path(), builtin.path()];
    if let Some(d) = std::env::var_os("LUDOTRACE_SITE") {
        copy_tree(Path::new(&d), given.path());
        dirs.push(given.path());
    }
    for dir in dirs {
        let pages: Vec<String> = html_pages(dir).into_iter().map(|(n, _)| n).collect();
        // 1. Every page loads without a console message (an error, a failed request).
        for p in &pages {
            let (dom, console) = dump(&chrome, &file_url(&dir.join(p)), 375);
            assert!(console.is_empty(), "{p}: the console says {console:#?}");
            // 2. Quotes and the rules that quote them link both ways, in the DOM as the
            // browser built it.
            let (els, _) = parse(&dom, false);
            assert!(
                els.iter().any(|e| e.tag == "h1"),
                "{p}: no heading in the DOM"
            );
            let problems = link_problems(&els);
            assert!(problems.is_empty(), "{p}: {problems:#?}");
        }
        // 4. Nothing wider than a phone's 375 px (tables scroll in their own box).
        let w = widths(&chrome, dir, &pages);
        for p in &pages {
            let (fits, width) = w.get(p).unwrap_or_else(|| panic!("{p}: no width reported"));
            assert!(fits, "{p} is wider than 375 px: document/window {width}");
        }
    }

    // 3. Search, driven by the URL.
    let index = file_url(&builtin.path().join("index.html"));
    let hits = |q: &str| {
        let (dom, console) = dump(&chrome, &format!("{index}{q}"), 375);
        assert!(
            console.is_empty(),
            "index.html{q}: the console says {console:#?}"
        );
        results(&dom)
    };
    let h = hits("?q=hyena");
    assert_eq!(
        h.first().map(String::as_str),
        Some("lib-el-merafib.html"),
        "{h:?}"
    );
    let h = hits("?q=Um%20el%20Banat");
    assert_eq!(
        h.first().map(String::as_str),
        Some("um-el-banat.html"),
        "{h:?}"
    );
    let h = hits("#q=UB-18");
    assert_eq!(
        h.first().map(String::as_str),
        Some("um-el-banat.html#UB-18"),
        "{h:?}"
    );
    let h = hits("?q=khamsawee");
    assert_eq!(h.first().map(String::as_str), Some("seega.html"), "{h:?}");
    assert!(hits("?q=zzzz-nothing").is_empty());
    let mindex = file_url(&mini.path().join("index.html"));
    let (dom, console) = dump(&chrome, &format!("{mindex}?q=baqara"), 375);
    assert!(console.is_empty(), "{console:#?}");
    let h = results(&dom);
    assert_eq!(
        h.first().map(String::as_str),
        Some("um-el-bagara.html"),
        "{h:?}"
    );
    let found: BTreeSet<String> = hits("?q=G-1").into_iter().collect();
    assert!(found.iter().any(|h| h.ends_with("#G-1")), "{found:?}");
}
