//! The report's composition from analysis results made by hand (or played on the tiny
//! corpus of `tests/fixtures/mini`, four games a reading), without the binary.

use super::*;

use crate::analysis::diff::{Difference, Metric};
use crate::analysis::flags::found::Effect;
use crate::analysis::flags::{FlagsOutput, OneAtATime, Ranked, Sensitivity};
use crate::analysis::global::{GlobalDesign, GlobalIndex, GlobalOutcome};
use crate::analysis::header::Header;
use crate::analysis::play::{Run, RunRow};
use crate::exec::Mode;
use crate::stats::Rate;

fn mini_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mini")
}

fn mini() -> (CorpusFiles, Corpus) {
    let files = CorpusFiles::read_dir(&mini_dir()).expect("the mini corpus is there");
    let corpus = crate::corpus::load(&files)
        .corpus
        .expect("the mini corpus loads");
    (files, corpus)
}

/// Four games of each of the three readings.
fn played<'c>(corpus: &'c Corpus, files: &CorpusFiles) -> Run<'c> {
    let exec = Exec::new(Mode::Play, corpus_hash(files), None, false);
    let args = RunArgs {
        game: "um-el-bagara".to_owned(),
        interpretation: None,
        all: true,
        games: 4,
        lineup: Lineup::random(),
        seed: 1,
        max_plies: 500,
        max_quiet: 0,
        set: Vec::new(),
        choose: Vec::new(),
        each_option: false,
        threads: Some(1),
        corpus: Some(mini_dir()),
    };
    crate::analysis::play::run(&exec, corpus, files, &args, &hidden(), None).expect("the run plays")
}

/// Sets a row's first mover's win rate, and its draws and timeouts of 20 games.
fn set(row: &mut RunRow, first: f64, draws: u64, timeouts: u64) {
    let o = &mut row.output;
    o.header.games = 20;
    o.results.draws = draws;
    o.results.timeouts = timeouts;
    o.results
        .by_order
        .rates
        .get_mut("first")
        .expect("a first mover")
        .value = first;
}

fn rate(value: f64) -> Rate {
    Rate {
        value,
        lo: value - 0.05,
        hi: value + 0.05,
    }
}

fn metric(name: &str, value: f64) -> Metric {
    Metric {
        metric: name.to_owned(),
        a: 0.5,
        b: 0.5 + value,
        difference: Difference {
            value,
            lo: value - 0.05,
            hi: value + 0.05,
        },
        p_adjusted: 1.0,
        verdict: "no difference detected".to_owned(),
        limit_sensitive: false,
        at_raised_limits: Vec::new(),
    }
}

fn one(base: &str, option: &str, first_mover: Option<f64>) -> OneAtATime {
    OneAtATime {
        base: base.to_owned(),
        choice: "starter".to_owned(),
        option: option.to_owned(),
        sets: std::collections::BTreeMap::new(),
        refused: first_mover.is_none().then(|| "cannot".to_owned()),
        cannot_end: false,
        metrics: first_mover
            .map(|v| vec![metric("p1_win", 0.0), metric("first_mover_win", v)])
            .unwrap_or_default(),
        reproduce: String::new(),
    }
}

fn index_of(choice: &str, metric: &str, total: f64) -> GlobalIndex {
    GlobalIndex {
        choice: choice.to_owned(),
        metric: metric.to_owned(),
        first_order: rate(total / 2.0),
        total: rate(total),
        rows: 8,
    }
}

fn design(first_mover_varies: bool) -> GlobalDesign {
    let outcome = |metric: &str, varies: bool| GlobalOutcome {
        metric: metric.to_owned(),
        mean: 0.5,
        variance: rate(0.01),
        noise: 0.001,
        q: 40.0,
        df: 21.0,
        p: 0.01,
        varies,
    };
    GlobalDesign {
        design: "saltelli".to_owned(),
        asked: 24,
        rows: 8,
        factors: vec!["starter".to_owned(), "tie".to_owned()],
        readings: 22,
        refused: 0,
        refused_combinations: 0,
        refused_example: None,
        cannot_end: 0,
        cannot_end_combinations: Vec::new(),
        games_per_reading: 3,
        games: 66,
        resamples: 1000,
        frame: "literal".to_owned(),
        outcomes: vec![
            outcome("first_mover_win", first_mover_varies),
            outcome("draw_or_timeout", true),
        ],
    }
}

/// A flags report of the mini game, by hand: the ranking's first choice moved the draws
/// by 3.4 points; with a global analysis, `tie` carries most of who wins (total 0.62,
/// above starter's 0.30; `starter`'s 0.99 is of the draws, not of who wins).
fn flags_output(effect: bool, global: Option<bool>) -> FlagsOutput {
    FlagsOutput {
        header: Header {
            schema_version: 1,
            ludotrace: "0".to_owned(),
            corpus_hash: "h".to_owned(),
            game: "um-el-bagara".to_owned(),
            seed: 1,
            games: 500,
            max_plies: 500,
            max_quiet: 0,
            agents: vec!["random".to_owned(); 2],
            lineup: vec!["random".to_owned()],
            swap: false,
        },
        overrides: Vec::new(),
        flags: Vec::new(),
        sensitivity: Sensitivity {
            one_at_a_time: vec![
                one("literal", "first-seat", Some(0.02)),
                one("literal", "alternate", Some(-0.2)),
                one("literal", "refused", None),
                one("roe", "from-roe", Some(0.9)),
            ],
            ranking: vec![Ranked {
                choice: "starter".to_owned(),
                effect: effect.then(|| Effect {
                    base: "literal".to_owned(),
                    option: "first-seat".to_owned(),
                    metric: "draw".to_owned(),
                    difference: rate(0.034),
                    p_adjusted: 0.9,
                    verdict: "no difference detected".to_owned(),
                }),
            }],
            engine_artefacts: Vec::new(),
            global: global.map(|_| {
                vec![
                    index_of("starter", "first_mover_win", 0.30),
                    index_of("tie", "first_mover_win", 0.62),
                    index_of("starter", "draw_or_timeout", 0.99),
                ]
            }),
            global_design: global.map(design),
            cannot_end_left_out: 0,
        },
    }
}

#[test]
fn a_section_moves_headings_two_levels_down_outside_code() {
    let mut doc = String::new();
    section(
        &mut doc,
        "The rules",
        "ludotrace show g",
        "# Game\ntext\n```sh\n# a comment, not a heading\n```\n## Choices\n",
    );
    assert_eq!(
        doc,
        "## The rules\n\n`ludotrace show g`\n\n### Game\ntext\n```sh\n# a comment, not a \
         heading\n```\n#### Choices\n\n"
    );
}

#[test]
fn a_finding_gives_the_ranges_over_the_readings() {
    let (files, corpus) = mini();
    let mut run = played(&corpus, &files);
    assert_eq!(run.rows.len(), 3);
    // First mover: 45 %, 50 %, 55 %; draws or timeouts of 20 games: 2 + 0, 3 + 1, 5 + 0
    // → 10 %, 20 %, 25 %.
    set(&mut run.rows[0], 0.45, 2, 0);
    set(&mut run.rows[1], 0.50, 3, 1);
    set(&mut run.rows[2], 0.55, 5, 0);
    assert_eq!(
        finding(&run.rows, None, None, None),
        "first mover wins 45.0–55.0 % over 3 reading(s), draws or timeouts 10.0–25.0 %"
    );
    // Within half a permille, one value (the lowest): 50.0 %; 4 of 20 each: 20.0 %.
    set(&mut run.rows[0], 0.5, 4, 0);
    set(&mut run.rows[1], 0.5004, 2, 2);
    set(&mut run.rows[2], 0.5002, 0, 4);
    assert_eq!(
        finding(&run.rows, None, None, None),
        "first mover wins 50.0 % over 3 reading(s), draws or timeouts 20.0 %"
    );
    let base = "first mover wins 50.0 % over 3 reading(s), draws or timeouts 20.0 %";
    // The ranking's first choice, its change in points (0.034 → +3.4).
    let largest = "largest one-at-a-time change: starter = first-seat into literal (draw \
                   +3.4 [-1.6, +8.4] pts, no difference detected)";
    assert_eq!(
        finding(&run.rows, Some(&flags_output(true, None)), None, None),
        format!("{base}; {largest}")
    );
    // Nothing measured: no change named.
    assert_eq!(
        finding(&run.rows, Some(&flags_output(false, None)), None, None),
        base
    );
    // The self-play section's words, then the exact value's, come last.
    assert_eq!(
        finding(&run.rows, None, Some("every self-play criterion met"), None),
        format!("{base}; every self-play criterion met")
    );
    assert_eq!(
        finding(
            &run.rows,
            None,
            Some("every self-play criterion met"),
            Some("exact value under `a`: endless")
        ),
        format!("{base}; every self-play criterion met; exact value under `a`: endless")
    );
    // The global analysis: the largest total index of who wins, where it varies and its
    // interval clears the others', with the interval.
    assert_eq!(
        finding(&run.rows, Some(&flags_output(true, Some(true))), None, None),
        format!(
            "{base}; {largest}; most of who wins over the option space: tie (total index \
             0.62 [0.57, 0.67], apart from every other open point's)"
        )
    );
    // Intervals that overlap rank nothing: the design that would, instead of a share. Gap
    // 0.32, bridged by 0.30 + 0.30: (0.60 / 0.32)² × 8 rows = 28.1 → 29 rows, × 4 readings.
    let mut wide = flags_output(true, Some(true));
    for i in wide.sensitivity.global.as_mut().unwrap() {
        i.total.lo = i.total.value - 0.3;
        i.total.hi = i.total.value + 0.3;
    }
    assert_eq!(
        finding(&run.rows, Some(&wide), None, None),
        format!(
            "{base}; {largest}; which open point decides who wins over the option space: not \
             resolved at this design size (8 rows; about 29 rows, --design 116, would part \
             the largest total index's interval from the others' if they narrow as 1/√rows)"
        )
    );
    assert_eq!(
        finding(
            &run.rows,
            Some(&flags_output(true, Some(false))),
            None,
            None
        ),
        format!("{base}; {largest}; who wins does not vary beyond noise over the option space")
    );
}

#[test]
fn the_run_figures_name_the_game_and_the_games_played() {
    let (files, corpus) = mini();
    let run = played(&corpus, &files);
    let g = run.game;
    let o = outcomes_figure(g, &run.rows);
    assert_eq!(o.name, "um-el-bagara-outcomes.svg");
    assert_eq!(o.alt, "Outcomes of every reading of Um el-Bagara");
    assert!(
        o.caption.contains("(4 random games a reading)"),
        "{}",
        o.caption
    );
    let l = lengths_figure(g, &run.rows);
    assert_eq!(l.name, "um-el-bagara-lengths.svg");
    // Three readings: all drawn, none left out.
    assert!(!l.caption.contains("the first"), "{}", l.caption);
    for f in [&o, &l] {
        assert!(f.svg.starts_with("<svg"), "{}", &f.svg[..40]);
        for reading in ["literal", "engine", "roe"] {
            assert!(f.svg.contains(reading), "{} lacks {reading}", f.name);
        }
    }
}

#[test]
fn the_tornado_ranks_the_primary_readings_options_by_their_change() {
    let (_, corpus) = mini();
    let g = &corpus.games[0];
    let t = tornado_figure(g, "literal", &flags_output(true, None));
    assert_eq!(t.name, "um-el-bagara-tornado.svg");
    assert!(
        t.caption.contains("(500 random games an arm)"),
        "{}",
        t.caption
    );
    // |−20| points before |2|, the refused option last; roe's row is not literal's.
    let at = |label: &str| t.svg.find(label);
    let (alternate, first_seat, refused) = (
        at("starter = alternate").expect("drawn"),
        at("starter = first-seat").expect("drawn"),
        at("starter = refused").expect("drawn"),
    );
    assert!(alternate < first_seat && first_seat < refused, "{}", t.svg);
    assert!(at("from-roe").is_none());
    assert!(t.svg.contains("the engine cannot play it in this reading"));
}

#[test]
fn the_variance_figure_needs_a_global_analysis() {
    let (_, corpus) = mini();
    let g = &corpus.games[0];
    assert!(variance_figure(g, &flags_output(true, None)).is_none());
    let varies = variance_figure(g, &flags_output(true, Some(true))).expect("a figure");
    assert_eq!(varies.name, "um-el-bagara-variance.svg");
    assert!(
        varies
            .caption
            .contains("a Saltelli design of 8 rows, 3 random games")
    );
    assert!(!varies.caption.contains("nothing to share out"));
    assert!(varies.svg.contains("starter") && varies.svg.contains("tie"));
    let flat = variance_figure(g, &flags_output(true, Some(false))).expect("a figure");
    assert!(flat.caption.ends_with(
        "Here there is nothing to share out: the first mover's wins do not vary beyond \
         sampling noise over the option space (the test is in the table above)."
    ));
}

fn meta<'a>(title: &'a str, game: Option<&'a Game>) -> page::Meta<'a> {
    page::Meta {
        title,
        game,
        hash: "abc",
        references: vec!["Davies, R. (1925). Some Arab Games. https://example.org/x.".to_owned()],
    }
}

#[test]
fn a_figure_is_cited_then_taken_into_the_page_with_its_title_and_caption() {
    let f = Figure {
        name: "g-x.svg".to_owned(),
        alt: "An \"x\"".to_owned(),
        caption: "What x is.".to_owned(),
        svg: "<svg width=\"1\"><text>X</text></svg>\n".to_owned(),
    }
    .labelled();
    assert_eq!(
        f.svg,
        "<svg role=\"img\" aria-label=\"An &quot;x&quot;\" width=\"1\">\n<title>An &quot;x&quot;</title>\n\
         <desc>What x is.</desc><text>X</text></svg>\n"
    );
    let mut doc = String::from("# a<b\n\n");
    f.cite(&mut doc);
    assert_eq!(doc, "# a<b\n\n![An \"x\"](g-x.svg)\n\n*What x is.*\n\n");
    doc.push_str("| a |\n|---|\n| x<br>y |\n");
    let page = page::html(&meta("a<b", None), &doc, &[f]);
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(page.contains("<title>a&lt;b</title>"), "{page}");
    assert!(
        page.contains(
            "<figure class=\"figure\" id=\"figure-x\"><svg role=\"img\" aria-label=\"An &quot;x&quot;\" \
             width=\"1\">\n<title>An &quot;x&quot;</title>\n<desc>What x is.</desc><text>X</text></svg>\n\
             <figcaption>What x is.</figcaption></figure>\n"
        ),
        "{page}"
    );
    assert!(
        !page.contains("<img") && !page.contains("<em>What"),
        "{page}"
    );
    assert!(page.contains("<td>x<br />y</td>"), "{page}");
    assert!(!page.contains("<br>"));
    assert!(page.ends_with("</body>\n</html>\n"));
}

#[test]
fn a_report_page_has_anchors_contents_links_and_citation_metadata() {
    let (_, corpus) = mini();
    let g = &corpus.games[0];
    let mut doc = format!(
        "# {}\n\nSee https://example.org/a_(b). And doi:10.1234/xyz, `https://not.a/link`.\n\n",
        g.name
    );
    let mut o = Out::new(Format::Markdown, None);
    crate::present::show::show(&mut o, &corpus, g, None);
    section(&mut doc, "The rules", "ludotrace show", &o.take());
    section(
        &mut doc,
        "Bibliography",
        "ludotrace cite",
        "- A ref (https://x.org/y).\n",
    );
    let page = page::html(&meta(&g.name, Some(g)), &doc, &[]);
    // The head: what a reference manager reads.
    for tag in [
        format!("<meta name=\"citation_title\" content=\"{}: a ludotrace report\" />", g.name),
        "<meta name=\"citation_author\" content=\"The ludotrace authors\" />".to_owned(),
        {
            // Highwire's date form, YYYY/MM/DD.
            let (y, m, d) = cite::RELEASE_DATE;
            format!("<meta name=\"citation_publication_date\" content=\"{y}/{m:02}/{d:02}\" />")
        },
        "<meta name=\"citation_technical_report_institution\" content=\"ludotrace\" />".to_owned(),
        "<meta name=\"citation_reference\" content=\"Davies, R. (1925). Some Arab Games. https://example.org/x.\" />"
            .to_owned(),
    ] {
        assert!(page.contains(&tag), "{tag} not in {page}");
    }
    // The way back, and the contents before the first section.
    assert!(page.contains(
        "<nav class=\"top\" aria-label=\"Reports\"><a href=\"index.html\">All the reports</a></nav>"
    ));
    let toc = page.find("<nav class=\"toc\"").expect("contents");
    assert!(toc < page.find("<h2").expect("a section"));
    assert!(
        page.contains("<li><a href=\"#the-rules\">The rules</a></li>"),
        "{page}"
    );
    assert!(
        page.contains("<h2 id=\"the-rules\">The rules<a class=\"para\" href=\"#the-rules\""),
        "{page}"
    );
    // Every clause, remark, open point and option: its id, and a link to it.
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
    assert!(ids.len() > 3, "{ids:?}");
    for id in &ids {
        assert_eq!(
            page.matches(&format!(" id=\"{id}\"")).count(),
            1,
            "{id} in {page}"
        );
        assert!(
            page.contains(&format!("<a class=\"para\" href=\"#{id}\"")),
            "no link to {id}"
        );
    }
    // Addresses are links; code is not touched.
    assert!(
        page.contains(
            "See <a href=\"https://example.org/a_(b)\">https://example.org/a_(b)</a>. And "
        )
    );
    assert!(page.contains("<a href=\"https://doi.org/10.1234/xyz\">doi:10.1234/xyz</a>, "));
    assert!(page.contains("<code>https://not.a/link</code>"));
    assert!(page.contains("A ref (<a href=\"https://x.org/y\">https://x.org/y</a>)."));
    // In a site, the report also leads to the site and to the game's page.
    let sited = in_site(&page, Some((&g.id, &g.name)));
    assert!(sited.contains(&format!(
        "<nav class=\"top\" aria-label=\"Reports\"><a href=\"../index.html\">The site</a> · \
         <a href=\"../{}.html\">{} on the site</a> · <a href=\"index.html\">All the reports</a></nav>",
        g.id, g.name
    )), "{sited}");
}

#[test]
fn addresses_and_dois_are_found_in_text() {
    let links = |t: &str| -> Vec<(String, Option<String>)> { page::links_in(t) };
    let l = |s: &str| Some(s.to_owned());
    assert_eq!(
        links("at http://a.b/c, then 10.5555/12.3-x; and (https://d.e/f)."),
        vec![
            ("at ".to_owned(), None),
            ("http://a.b/c".to_owned(), l("http://a.b/c")),
            (", then ".to_owned(), None),
            (
                "10.5555/12.3-x".to_owned(),
                l("https://doi.org/10.5555/12.3-x")
            ),
            ("; and (".to_owned(), None),
            ("https://d.e/f".to_owned(), l("https://d.e/f")),
            (").".to_owned(), None),
        ]
    );
    // Not addresses: a scheme alone, a version number, a word that merely contains one.
    for plain in [
        "https:// x",
        "version 10.2 of it",
        "xhttps://a.b",
        "1:10.1/2",
    ] {
        assert!(links(plain).iter().all(|p| p.1.is_none()), "{plain}");
    }
}

#[test]
fn the_index_has_a_line_a_game() {
    let (files, corpus) = mini();
    let args = ReportArgs {
        game: None,
        out: PathBuf::from("reports"),
        games: 40,
        check: false,
        threads: Some(1),
        corpus: Some(mini_dir()),
    };
    let f = index(
        &corpus,
        &corpus_hash(&files),
        &args,
        &["it finds".to_owned()],
    );
    assert_eq!(f.name, "index.md");
    assert!(f.text.starts_with("# ludotrace reports\n\n"));
    assert!(
        f.text.contains(", seed 1, 40 games a reading)"),
        "{}",
        f.text
    );
    let row = f
        .text
        .lines()
        .find(|l| l.starts_with("| Um el-Bagara |"))
        .expect("a line for the game");
    // Three readings, one open point.
    assert!(
        row.ends_with(
            " | 3 | 1 | it finds | [um-el-bagara.md](um-el-bagara.md) · \
             [BibTeX](um-el-bagara.bib) · [CSL-JSON](um-el-bagara.csl.json) |"
        ),
        "{row}"
    );
    // The page's links say where they lead: the page, not the Markdown.
    let page = index_html(&corpus, &corpus_hash(&files), &f);
    assert_eq!(page.name, "index.html");
    assert!(
        page.text
            .contains("<a href=\"um-el-bagara.html\">um-el-bagara.html</a>"),
        "{}",
        page.text
    );
    assert!(!page.text.contains(".md<") && !page.text.contains(".md\""));
}

#[test]
fn check_reports_each_file_that_differs_or_is_missing() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = |name: &str, text: &str| File {
        name: name.to_owned(),
        text: text.to_owned(),
    };
    std::fs::write(dir.path().join("same.md"), "one\n").expect("written");
    std::fs::write(dir.path().join("changed.md"), "old\n").expect("written");
    let made = [
        file("same.md", "one\n"),
        file("changed.md", "new\n"),
        file("gone.md", "x\n"),
    ];
    let mut out = Out::new(Format::Markdown, None);
    assert_eq!(check(&mut out, dir.path(), &made).expect("checked"), 1);
    let said = out.take();
    let d = dir.path().display();
    assert!(said.contains(&format!("{d}/gone.md: missing\n")), "{said}");
    assert!(said.contains("-old\n+new\n"), "{said}");
    assert!(!said.contains("same.md"), "{said}");
    assert!(
        said.ends_with(&format!(
            "2 of 3 file(s) in {d} differ from what the corpus and ludotrace make now; \
             `ludotrace report` regenerates them\n"
        )),
        "{said}"
    );
    // With the index among them, the command is `report --all`; all alike, exit 0.
    let mut out = Out::new(Format::Markdown, None);
    let all = [file("index.md", "i\n")];
    assert_eq!(check(&mut out, dir.path(), &all).expect("checked"), 1);
    assert!(
        out.take()
            .contains("`ludotrace report --all` regenerates them")
    );
    let mut out = Out::new(Format::Markdown, None);
    assert_eq!(check(&mut out, dir.path(), &made[..1]).expect("checked"), 0);
    assert_eq!(
        out.take(),
        format!("1 file(s) in {d} regenerate byte for byte\n")
    );
}

#[test]
fn make_refuses_no_games() {
    let (files, corpus) = mini();
    let exec = Exec::new(Mode::Play, corpus_hash(&files), None, false);
    let args = ReportArgs {
        game: Some("um-el-bagara".to_owned()),
        out: PathBuf::from("reports"),
        games: 0,
        check: false,
        threads: Some(1),
        corpus: None,
    };
    let e = make(&exec, &corpus, &files, &args).expect_err("no games");
    assert_eq!(e.to_string(), "-n must be 1 to 1000000000, not 0");
}
