//! The step-through viewer in a real browser (Chromium headless, as the site is tested):
//! stepping with the keyboard changes the board and the rules shown, a quote's link lands on
//! its mark in the source text (in a page that stands alone, and from the site's sample to the
//! game's page), nothing reaches the console, and the page fits a phone's width.

use std::path::Path;

use crate::site::{builtin_pages, chromium, dump, file_url, link_problems, parse, widths};
use crate::util::ok;

/// A script that, once the page has loaded, presses keys and writes what the first viewer
/// shows after each into `<ol id="probe">`: the step's heading, the board's description, the
/// rules listed, the first quote's link and the position in its notation.
const PROBE: &str = "<script>window.addEventListener('load', function () {\
  var ol = document.createElement('ol'); ol.id = 'probe'; document.body.appendChild(ol);\
  function rec(key) { var v = document.querySelector('.viewer');\
    var li = document.createElement('li'); li.setAttribute('data-key', key);\
    li.setAttribute('data-h', v.querySelector('h3.step').textContent);\
    li.setAttribute('data-board', v.querySelector('svg title').textContent);\
    li.setAttribute('data-rules', Array.prototype.map.call(v.querySelectorAll('li.rule strong'),\
      function (e) { return e.textContent; }).join(' '));\
    var a = v.querySelector('li.rule blockquote a');\
    li.setAttribute('data-href', a ? a.getAttribute('href') : '');\
    li.setAttribute('data-pos', v.querySelector('code.position').textContent);\
    ol.appendChild(li); }\
  function press(key) { document.dispatchEvent(new KeyboardEvent('keydown', {key: key, bubbles: true})); rec(key); }\
  rec('load'); for (var i = 0; i < 30; i++) { press('ArrowRight'); }\
  press('ArrowLeft'); press('Home'); press('End'); });</script>";

/// What the probe recorded: (key, heading, board, rules, first quote's link, position).
fn probe(chrome: &Path, page: &Path) -> Vec<[String; 6]> {
    let html = std::fs::read_to_string(page).unwrap();
    let probed = page.with_file_name("probed.html");
    std::fs::write(
        &probed,
        html.replacen("</body>", &format!("{PROBE}</body>"), 1),
    )
    .unwrap();
    let (dom, console) = dump(chrome, &file_url(&probed), 375);
    assert!(
        console.is_empty(),
        "{}: the console says {console:#?}",
        page.display()
    );
    let (els, _) = parse(&dom, false);
    els.iter()
        .filter(|e| e.tag == "li" && e.attrs.contains_key("data-key"))
        .map(|e| {
            [
                "data-key",
                "data-h",
                "data-board",
                "data-rules",
                "data-href",
                "data-pos",
            ]
            .map(|k| e.attrs.get(k).cloned().unwrap_or_default())
        })
        .collect()
}

/// The ids of a page as Chromium built it.
fn ids(chrome: &Path, page: &Path) -> Vec<String> {
    let (dom, console) = dump(chrome, &file_url(page), 375);
    assert!(console.is_empty(), "{}: {console:#?}", page.display());
    let (els, _) = parse(&dom, false);
    let problems = link_problems(&els);
    assert!(problems.is_empty(), "{}: {problems:#?}", page.display());
    els.iter()
        .filter_map(|e| e.attrs.get("id").cloned())
        .collect()
}

#[test]
fn in_chromium_the_viewer_steps_with_the_keyboard_and_its_quotes_land_on_the_source() {
    let Some(chrome) = chromium() else {
        if std::env::var_os("LUDOTRACE_REQUIRE_CHROMIUM").is_some_and(|v| v == "1") {
            panic!("Chromium not found (LUDOTRACE_REQUIRE_CHROMIUM=1)");
        }
        eprintln!(
            "\n*** SKIPPED: Chromium not found: the viewer's browser test did not run. ***\n"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();

    // A page that stands alone: two viewers (--against), the sources below.
    let page = dir.path().join("viewer.html");
    let html = ok(&[
        "explain",
        "seega",
        "-i",
        "davies",
        "--against",
        "ludii",
        "--plies",
        "1..40",
        "--format",
        "html",
    ]);
    std::fs::write(&page, &html).unwrap();
    let seen = probe(&chrome, &page);
    assert_eq!(seen.len(), 34, "{seen:#?}");
    let [_, h0, b0, r0, _, p0] = &seen[0];
    assert!(h0.starts_with("Step 0 of "), "{h0}");
    assert!(r0.is_empty(), "the start applies no rule: {r0}");
    assert!(p0.starts_with("board=...../"), "the start's position: {p0}");
    let [_, h1, _, r1, _, _] = &seen[1];
    assert!(h1.starts_with("Step 1 of "), "ArrowRight steps on: {h1}");
    assert!(!r1.is_empty(), "a step shows the rules it applied");
    // Each step shows its position, to copy into --position.
    assert!(seen[2][5].contains("ply=1 "), "{:?}", seen[2]);
    // The board changes as the dogs are placed, and the rules shown change with the step.
    assert!(seen.iter().any(|s| s[2] != *b0), "the board never changed");
    let rules: std::collections::BTreeSet<&str> = seen.iter().map(|s| s[3].as_str()).collect();
    assert!(rules.len() > 2, "the rules shown never changed: {rules:?}");
    // ArrowLeft steps back, Home goes to the start, End to the last step.
    let back = &seen[31];
    assert_eq!(back[0], "ArrowLeft");
    assert!(back[1].starts_with("Step 29 of "), "{back:?}");
    assert_eq!(seen[32][1], *h0, "Home");
    let end = &seen[33][1];
    let (at, of) = end
        .strip_prefix("Step ")
        .and_then(|r| r.split_once(':'))
        .and_then(|(n, _)| n.split_once(" of "))
        .expect("a step heading");
    assert_eq!(at, of, "End goes to the last step: {end}");
    // A quote's link lands on its mark in the texts below.
    let href = seen
        .iter()
        .map(|s| s[4].as_str())
        .find(|h| !h.is_empty())
        .expect("a step quotes a source");
    let target = href.strip_prefix('#').expect("an in-page link");
    assert!(
        ids(&chrome, &page).iter().any(|i| i == target),
        "{href} lands on nothing"
    );
    let w = widths(&chrome, dir.path(), &["viewer.html".to_owned()]);
    assert_eq!(w.get("viewer.html").map(|x| x.0), Some(true), "{w:?}");

    // The site's sample: its quotes link to their marks on the game's page.
    let site = tempfile::tempdir().unwrap();
    builtin_pages(site.path());
    let sample = site.path().join("explain/seega-davies.html");
    let seen = probe(&chrome, &sample);
    let href = seen
        .iter()
        .map(|s| s[4].as_str())
        .find(|h| !h.is_empty())
        .expect("a step quotes a source");
    let (file, target) = href.split_once('#').expect("a link to a mark");
    assert_eq!(file, "../seega.html", "{href}");
    assert!(
        ids(&chrome, &site.path().join("seega.html"))
            .iter()
            .any(|i| i == target),
        "{href} lands on nothing"
    );
}
