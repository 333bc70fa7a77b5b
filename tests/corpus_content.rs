//! The built-in corpus: it checks clean, its texts are in their witnesses, and each game has
//! the interpretations and register coverage that outside checks rely on.

use std::collections::BTreeSet;

use ludotrace::corpus::{self, CorpusFiles, text::fold};
use ludotrace::family::sowing::SowingParams;
use ludotrace::registry::{FamilyParams, FamilyVisitor, GameFamily};

use crate::util::{bin, root, run};

fn corpus() -> corpus::Corpus {
    let loaded = corpus::load(&CorpusFiles::read_dir(&root()).unwrap());
    assert!(loaded.diagnostics.is_empty(), "{:#?}", loaded.diagnostics);
    loaded.corpus.unwrap()
}

#[test]
fn the_embedded_corpus_checks_clean() {
    let (exit, out, err) = run(bin().arg("check"));
    assert_eq!(exit, 0, "{out}{err}");
    assert!(out.contains("no problems"));
}

#[test]
fn the_embedded_corpus_is_the_repository_corpus() {
    let embedded = CorpusFiles::embedded();
    let disk = CorpusFiles::read_dir(&root()).unwrap();
    let names = |f: &CorpusFiles| f.files.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
    assert_eq!(names(&embedded), names(&disk));
    for (a, b) in embedded.files.iter().zip(&disk.files) {
        assert_eq!(
            a.content.as_ref().ok(),
            b.content.as_ref().ok(),
            "{}",
            a.path
        );
    }
}

/// Independent of the loader's own check: read each witness document from disk and look for
/// every passage segment, evidence paraphrase and encoding text in it.
#[test]
fn every_source_text_occurs_in_its_named_witness() {
    let c = corpus();
    let doc = |id: &str| {
        let w = &c.witnesses[id];
        fold(&std::fs::read_to_string(root().join(&w.file)).unwrap())
    };
    let mut checked = 0;
    for p in c.passages.values() {
        for r in &p.readings {
            let d = doc(&r.witness);
            for s in &r.segments {
                assert!(
                    d.contains(&fold(&s.text)),
                    "{} / {}: {:?}",
                    p.anchor,
                    r.witness,
                    s.text
                );
                assert!(
                    !s.text.contains("[Page"),
                    "page marker kept as text in {}",
                    p.anchor
                );
                checked += 1;
            }
        }
    }
    for e in c.evidence.values() {
        for w in &e.witnesses {
            assert!(doc(w).contains(&fold(&e.rules)), "{} in {w}", e.id);
            assert!(doc(w).contains(&e.id), "{} in {w}", e.id);
            checked += 1;
        }
    }
    for e in c.encodings.values() {
        for (_, w, t) in &e.texts {
            assert!(doc(w).contains(&fold(t)), "{} in {w}", e.id);
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
}

/// Every game has remarks (what its source says beyond the rules), and each remark quotes
/// the texts of works (never a paraphrase or an encoding) in whole words: at least three, the
/// quote beginning and ending where a word does, in some witness of its passage.
#[test]
fn every_game_has_remarks_quoted_in_whole_words() {
    let c = corpus();
    let word = |ch: Option<char>| ch.is_some_and(char::is_alphanumeric);
    for g in &c.games {
        assert!(!g.remarks.is_empty(), "{} has no remarks", g.id);
        for r in &g.remarks {
            assert!(!r.cites.is_empty(), "{}/{}", g.id, r.id);
            for q in &r.cites {
                let words = q
                    .quote
                    .split_whitespace()
                    .filter(|w| w.chars().any(char::is_alphanumeric))
                    .count();
                assert!(
                    words >= 3,
                    "{}/{}: «{}» is under three words",
                    g.id,
                    r.id,
                    q.quote
                );
                let p = c
                    .passages
                    .get(&q.at)
                    .unwrap_or_else(|| panic!("{}/{}: {} is no passage", g.id, r.id, q.at));
                let whole = p.readings.iter().flat_map(|rd| rd.runs()).any(|run| {
                    corpus::text::find(&run, &q.quote).is_some_and(|at| {
                        let (head, quoted, tail) =
                            (&run[..at.start], &run[at.clone()], &run[at.end..]);
                        let (first, last) = (quoted.chars().next(), quoted.chars().last());
                        let cut_before = word(first) && word(head.chars().last());
                        let cut_after = word(last) && word(tail.chars().next());
                        !cut_before && !cut_after
                    })
                });
                assert!(
                    whole,
                    "{}/{}: «{}» begins or ends inside a word",
                    g.id, r.id, q.quote
                );
            }
        }
    }
}

#[test]
fn every_source_and_record_the_design_names_is_present() {
    let c = corpus();
    for game in corpus::GAME_IDS {
        let work = if *game == "lib-al-aqil" {
            "lane-1836"
        } else {
            "davies-1925"
        };
        assert!(
            c.passages.contains_key(&format!("{work}#{game}")),
            "{work}#{game}"
        );
    }
    for n in [694, 703, 869, 1251, 1252, 1410, 1532] {
        assert!(c.evidence.contains_key(&format!("DLP.Evidence.{n}")), "{n}");
    }
    assert_eq!(
        c.passages["davies-1925#um-el-banat"].readings.len(),
        2,
        "both witnesses kept"
    );
    let lane = &c.passages["lane-1836#lib-al-aqil"].readings[0];
    assert!(
        lane.segments.iter().any(|s| s.after_elision),
        "Lane's elisions are marked"
    );
    for g in corpus::GAME_IDS {
        assert!(
            c.encodings
                .values()
                .any(|e| e.game == *g && e.system == "Ludii"),
            "Ludii encoding of {g}"
        );
    }
}

fn addressed(g: &corpus::Game) -> BTreeSet<String> {
    g.clauses
        .iter()
        .flat_map(|c| c.addresses.iter())
        .chain(g.choices.iter().flat_map(|c| c.addresses.iter()))
        .cloned()
        .collect()
}

#[test]
fn every_register_point_of_every_game_is_addressed() {
    let c = corpus();
    let expect = [
        ("um-el-bagara", "BG", 10, "ENC-3.", 5),
        ("um-el-tuweisat", "TW", 14, "ENC-4.", 4),
        ("um-el-banat", "UB", 19, "ENC-2.", 7),
        ("lib-al-aqil", "LA", 19, "ENC-5.", 8),
        ("seega", "SJ", 11, "ENC-6.", 7),
        ("sijat-el-taba", "ST", 17, "ENC-8.", 7),
        ("lib-el-merafib", "HY", 26, "ENC-7.", 12),
    ];
    for (game, prefix, n, enc, m) in expect {
        let a = addressed(c.game(game).unwrap());
        for i in 1..=n {
            let id = format!("{prefix}-{i:02}");
            assert!(a.contains(&id), "{game} does not address {id}");
            // The register ships in the corpus: each point is there, open, with readings.
            let p = &c.points[&id];
            assert_eq!(p.status, corpus::PointStatus::Open, "{id}");
            assert_eq!(p.game.as_deref(), Some(game), "{id}");
        }
        for i in 1..=m {
            let id = format!("{enc}{i}");
            assert!(a.contains(&id), "{game} does not address {id}");
            assert_eq!(c.points[&id].status, corpus::PointStatus::Encoding, "{id}");
        }
    }
}

#[test]
fn the_corrected_register_is_the_one_shipped() {
    let c = corpus();
    // UB-18 is new: whose remainder is borrowed, the gainer's (Davies) or the larger
    // holder's (the DLP).
    let ub18 = &c.points["UB-18"];
    assert_eq!(ub18.readings.len(), 2);
    assert!(ub18.cites.iter().any(|q| q.at == "davies-1925#um-el-banat"));
    assert!(ub18.cites.iter().any(|q| q.at == "DLP.Evidence.703"));
    // TW-01: twelve of the eighteen, all nine of the opponent's.
    let tw01 = &c.points["TW-01"];
    assert!(tw01.says.contains("nine"), "{}", tw01.says);
    assert!(
        !tw01.says.contains("twelve of the opponent"),
        "{}",
        tw01.says
    );
    // The made-up ids of earlier versions are gone.
    for g in &c.games {
        for id in addressed(g) {
            assert!(
                !id.contains("SETTLED") && !id.starts_with("LUDII-") && !id.contains("INHERITED"),
                "{}: {id}",
                g.id
            );
        }
    }
}

/// The class of the option a reading takes for a choice.
fn chosen_class(game: &str, reading: &str, choice: &str) -> corpus::Classed {
    let c = corpus();
    let g = c.game(game).unwrap();
    let i = g.interpretation(reading).unwrap();
    i.provenance
        .choice(choice)
        .unwrap_or_else(|| panic!("{game}/{reading} takes no option of {choice}"))
        .clone()
}

#[test]
fn the_attributions_the_review_found_wrong_are_computed_true() {
    // Seega: Davies' words fit both step lengths; `davies` takes one step on Ludii's.
    let k = chosen_class("seega", "davies", "step");
    assert_ne!(k.class, corpus::Class::Grounded, "{k:?}");
    // Um el Banât: the borrowing basis `davies` plays is Davies' own, the stage's gainer
    // (UB-18 a), and `dlp` plays the DLP's larger holder (UB-18 b); neither is declined.
    let k = chosen_class("um-el-banat", "davies", "borrowing-basis");
    assert_eq!(k.class, corpus::Class::Grounded, "{k:?}");
    assert!(k.sources.contains(&"Davies".to_owned()), "{k:?}");
    let k = chosen_class("um-el-banat", "dlp", "borrowing-basis");
    assert_eq!(k.class, corpus::Class::Grounded, "{k:?}");
    assert!(k.sources.contains(&"DLP".to_owned()), "{k:?}");
    let c = corpus();
    assert!(
        !c.game("um-el-banat")
            .unwrap()
            .declined
            .iter()
            .any(|d| d.reading.starts_with("UB-18"))
    );
    // The hyena game: exact arrival at the village and keeping each banked score apart are
    // the DLP's; what the releasing tâba does and what a tâba thrown on the way home does,
    // nobody's words say.
    for (choice, class) in [
        ("village-exact", corpus::Class::Borrowed),
        ("well-pay", corpus::Class::Borrowed),
        ("leave", corpus::Class::Interpolated),
        ("return-taba", corpus::Class::Interpolated),
    ] {
        let k = chosen_class("lib-el-merafib", "davies", choice);
        assert_eq!(k.class, class, "{choice}: {k:?}");
        if class == corpus::Class::Borrowed {
            assert_eq!(k.sources[0], "DLP", "{choice}: {k:?}");
        }
    }
    // Um el-Bagara: the DLP says nothing of rows, so `any` rests on nobody's words.
    let g = c.game("um-el-bagara").unwrap();
    let any = g
        .choices
        .iter()
        .flat_map(|ch| ch.options.iter())
        .find(|o| o.register.iter().any(|r| r == "BG-04b"))
        .unwrap();
    assert!(
        !any.cites.iter().any(|q| q.at.starts_with("DLP")),
        "{any:?}"
    );
}

#[test]
fn no_reading_claims_to_read_its_source_literally() {
    let c = corpus();
    for g in &c.games {
        for i in &g.interpretations {
            let text =
                format!("{} {}", i.title, i.about.clone().unwrap_or_default()).to_lowercase();
            for claim in ["read literally", "as they stand", "as it stands"] {
                assert!(!text.contains(claim), "{}/{}: «{claim}»", g.id, i.id);
            }
        }
    }
}

#[test]
fn each_game_has_the_interpretations_outside_checks_rely_on() {
    let c = corpus();
    for (game, ids) in [
        (
            "um-el-bagara",
            &["davies", "dlp", "ludii", "ludii-1.0.8"][..],
        ),
        (
            "um-el-tuweisat",
            &["davies", "dlp", "ludii", "ludii-1.0.8", "ludii-intended"][..],
        ),
        ("um-el-banat", &["davies", "dlp", "ludii"][..]),
        ("lib-al-aqil", &["lane", "dlp", "ludii"][..]),
        (
            "seega",
            &[
                "davies",
                "dlp",
                "ludii",
                "ludii-1.0.8",
                "ludii-1.0.8-sebawee",
                "ludii-1.0.8-tisawee",
            ][..],
        ),
        (
            "sijat-el-taba",
            &["davies", "dlp", "ludii", "ludii-1.0.8"][..],
        ),
        ("lib-el-merafib", &["davies", "dlp", "ludii"][..]),
    ] {
        let g = c.game(game).unwrap();
        for id in ids {
            assert!(g.interpretation(id).is_some(), "{game} lacks {id}");
        }
    }
}

#[test]
fn every_interpretation_binds_to_complete_typed_parameters() {
    let c = corpus();
    for g in &c.games {
        for i in &g.interpretations {
            let values = i.param_values();
            struct Typed<'a>(&'a serde_json::Map<String, serde_json::Value>);
            impl FamilyVisitor for Typed<'_> {
                type Output = Result<(), String>;
                fn visit<F: GameFamily>(self) -> Self::Output {
                    F::Params::from_values(self.0).map(drop)
                }
            }
            let checked = g.family.visit(Typed(&values));
            checked.unwrap_or_else(|e| panic!("{}/{}: {e}", g.id, i.id));
        }
    }
}

#[test]
fn the_readings_differ_where_the_references_say_they_do() {
    let c = corpus();
    let p = |game: &str, i: &str| {
        SowingParams::from_values(
            &c.game(game)
                .unwrap()
                .interpretation(i)
                .unwrap()
                .param_values(),
        )
        .unwrap()
    };
    let tw108 = p("um-el-tuweisat", "ludii-1.0.8");
    let intended = p("um-el-tuweisat", "ludii-intended");
    assert!(tw108.ludii_left_hole_quirk);
    assert!(!intended.ludii_left_hole_quirk);
    assert!(!p("um-el-tuweisat", "ludii").ludii_left_hole_quirk);
    assert_eq!(tw108.capture_counts, vec![2]);
    let bg108 = p("um-el-bagara", "ludii-1.0.8");
    assert_eq!(bg108.capture_counts, vec![2, 4]);
    assert_eq!(bg108.min_sow, 2);
    assert_eq!(
        bg108.end_check,
        ludotrace::family::sowing::EndCheck::AllPassed
    );
    assert_eq!(bg108.cap.and_then(|c| c.turns), Some(2500));
    assert_eq!(bg108.cap.map(|c| c.moves), Some(10000));
    let davies = p("um-el-bagara", "davies");
    assert_eq!(davies.cap, None, "a literal reading emulates no engine");
    assert_ne!(
        davies.chain_rows, bg108.chain_rows,
        "BG-04: Ludii limits the chain to the opponent's row"
    );
}
