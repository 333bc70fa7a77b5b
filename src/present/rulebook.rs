//! A reading as a rule book a historian can print: `show GAME -i READING --format markdown`.
//!
//! The rules of one reading in prose and in play order: each clause of the ruleset (their order
//! is play order), and after a clause that leaves a point open, the reading's answer, the
//! `says` of the option it takes, so that the book reads as one set of rules rather than a
//! list of questions. Every rule ends with a footnote giving the words it rests on (verbatim,
//! with where they stand) and its class against the sources the reading reads. The open
//! points the reading decides are listed at the end, each with the option taken, who proposes
//! it and the options not taken, then the corpus and the command that prints the book again.
//!
//! It prints what `show` gathers ([`show::output`]) and decides nothing: the classes are the
//! corpus's (`corpus::provenance`). The footnotes are GitHub's (and pulldown-cmark's): a
//! reference `[^n]` and a definition `[^n]: …`, numbered in the order they are referenced.

use std::path::Path;

use crate::analysis::reproduce::Reproduce;
use crate::corpus::{Class, Classed, Corpus, Game, Interpretation};
use crate::present::out::Out;
use crate::present::run::footer;
use crate::present::show::{
    self, ShowChoice, ShowCite, ShowInterpretation, ShowOption, ShowOutput, value_text,
};

/// Prints the rule book of reading `i` of game `g`. `hash` is the corpus's and `dir` the
/// corpus directory read (none for the built-in corpus), for the footer.
pub fn print(
    out: &mut Out,
    corpus: &Corpus,
    g: &Game,
    i: &Interpretation,
    hash: &str,
    dir: Option<&Path>,
) {
    let d = show::output(corpus, g, Some(i));
    // `output` describes the reading it is given; without one there is no book to print.
    let Some(reading) = &d.interpretation else {
        return;
    };
    let mut notes = Notes::default();
    front(out, &d, reading);
    rules(out, &d, reading, &mut notes);
    remarks(out, &d, &mut notes);
    decided(out, &d);
    undecided(out, &d);
    notes.print(out);
    let reproduce = Reproduce::new("show", dir)
        .word(&d.game)
        .option("-i", &reading.id)
        .option("--format", "markdown")
        .line();
    footer(out, hash, &reproduce, dir);
}

/// The footnotes of a book, numbered in the order the text references them.
#[derive(Default)]
struct Notes(Vec<String>);

impl Notes {
    /// Adds a note; returns its reference, which ends the text it annotates.
    fn add(&mut self, text: String) -> String {
        self.0.push(text);
        format!("[^{}]", self.0.len())
    }

    /// The definitions, each a paragraph of its own (a definition runs on to the next blank
    /// line, so none may follow another directly). They have no heading of their own:
    /// renderers gather footnotes at the end of the page, where a heading would stand empty.
    fn print(&self, out: &mut Out) {
        for (n, text) in self.0.iter().enumerate() {
            out.para(&format!("[^{}]: {text}", n + 1));
        }
    }
}

/// The title, the reading's description and its basis.
fn front(out: &mut Out, d: &ShowOutput, r: &ShowInterpretation) {
    out.para(&format!("# {}: the reading {}", text(&d.name), code(&r.id)));
    out.para(&format!("*{}*", prose(&r.title)));
    let also = if d.aliases.is_empty() {
        String::new()
    } else {
        format!("Also called {}. ", prose(&d.aliases.join(", ")))
    };
    out.para(&format!(
        "{also}Game {}, {} family; {}; observed {}.",
        code(&d.game),
        d.family,
        prose(&d.people),
        d.observed
    ));
    if let Some(about) = &r.about {
        out.para(&block(&prose(about)));
    }
    let mut basis = format!("It reads {}.", list(r.basis.iter().map(|b| code(b))));
    if !r.by.is_empty() {
        basis.push_str(&format!(" It follows {}.", by_text(&r.by)));
    }
    if let Some(e) = &r.extends {
        basis.push_str(&format!(" It extends the reading {}.", code(e)));
    }
    out.para(&basis);
    out.para(&format!(
        "Against what it reads, its rules (clauses, chosen options and own settings) are {}. \
         Each rule ends with a note: the words it rests on and where they stand, and its class, \
         *grounded* (it quotes what the reading reads), *borrowed* (it quotes only other \
         sources) or *interpolated* (it quotes nothing, and the note says who added it).",
        text(&r.provenance.to_string())
    ));
    // Where the reading departs from what its basis grounds, the editors' reason, up front.
    for d in &r.departs {
        out.para(&format!(
            "At {} it takes {} though what it reads grounds {}: {}",
            code(&d.choice),
            code(&d.takes),
            list(d.grounded.iter().map(|g| code(g))),
            prose(&d.why)
        ));
    }
}

/// The rules in play order: each clause, followed by the option the reading takes of every
/// point it leaves open; then the options taken of points no clause raises, and the rules the
/// reading sets itself.
fn rules(out: &mut Out, d: &ShowOutput, r: &ShowInterpretation, notes: &mut Notes) {
    out.para("## The rules");
    for c in &d.rules {
        // Who else states a clause that quotes words; who states one that quotes none.
        let who = if c.cites.is_empty() { "By" } else { "Also by" };
        let what = format!("Clause {}", code(&c.id));
        let n = note(&what, &c.cites, &c.by, who, c.class.as_ref());
        let mut para = format!("{}{}", block(&prose(&c.says)), notes.add(n));
        for o in &c.open {
            if let Some((ch, taken)) = chosen(d, o) {
                para.push(' ');
                para.push_str(&answer(ch, taken, notes));
            }
        }
        out.para(&para);
    }
    let raised = |id: &str| d.rules.iter().any(|c| c.open.iter().any(|o| o == id));
    for ch in d.choices.iter().filter(|ch| !raised(&ch.id)) {
        if let Some((ch, taken)) = chosen(d, &ch.id) {
            out.para(&block(&answer(ch, taken, notes)));
        }
    }
    for p in r.params.iter().filter(|p| p.class.is_some()) {
        let what = format!("The reading's own setting of {}", code(&p.name));
        // No clause or option words it: the parameter's own documentation (Markdown already)
        // says what it decides.
        out.para(&format!(
            "The reading itself sets {} to {} ({}).{}",
            code(&p.name),
            code(&value_text(&p.value)),
            p.meaning.trim().trim_end_matches('.'),
            notes.add(note(&what, &[], &r.by, "By", p.class.as_ref()))
        ));
    }
}

/// The choice `id` and the option the reading takes of it, if it takes one.
fn chosen<'d>(d: &'d ShowOutput, id: &str) -> Option<(&'d ShowChoice, &'d ShowOption)> {
    let ch = d.choices.iter().find(|ch| ch.id == id)?;
    let taken = ch
        .options
        .iter()
        .find(|o| Some(&o.id) == ch.chosen.as_ref())?;
    Some((ch, taken))
}

/// What the sources say of the game beyond its rules (who plays it, skill, materials …),
/// each remark footnoted with its words as a rule is; remarks have no class, since no
/// reading takes them.
fn remarks(out: &mut Out, d: &ShowOutput, notes: &mut Notes) {
    if d.remarks.is_empty() {
        return;
    }
    out.para("## Beyond the rules: what the sources say of the game");
    for r in &d.remarks {
        let quotes = r.cites.iter().map(|q| {
            format!(
                "“{}” ({}, {})",
                text(&q.quote),
                text(&q.locator),
                code(&q.at)
            )
        });
        let n = format!(
            "Remark {} ({}): {}.",
            code(&r.id),
            r.kind.as_str(),
            list(quotes)
        );
        out.para(&format!("{}{}", block(&prose(&r.says)), notes.add(n)));
    }
}

/// The option taken, as a rule, with its note.
fn answer(ch: &ShowChoice, o: &ShowOption, notes: &mut Notes) -> String {
    let what = format!(
        "The answer to the open point {}, option {}",
        code(&ch.id),
        code(&o.id)
    );
    let mut n = note(&what, &o.cites, &o.by, "Proposed by", ch.class.as_ref());
    if let Some(e) = &o.engine {
        n.push_str(&format!(
            " An engine's behaviour, no source's words: {}.",
            prose(e)
        ));
    }
    format!("{}{}", prose(&o.says), notes.add(n))
}

/// A rule's note: what it annotates, the words it quotes with where they stand, who else
/// states it (`who`: `Also by`, `By` or `Proposed by`), and its class.
fn note(
    what: &str,
    cites: &[ShowCite],
    by: &[String],
    who: &str,
    class: Option<&Classed>,
) -> String {
    let interpolated = class.is_some_and(|k| k.class == Class::Interpolated);
    let mut s = what.to_owned();
    if cites.is_empty() {
        // Without quotes, only an encoding named in `by:` keeps it from being interpolated:
        // its words are its code.
        s.push_str(if interpolated || class.is_none() {
            ", which quotes no words."
        } else {
            ", which quotes no words but names an encoding (its words are code)."
        });
    } else {
        // A quote that grounds nothing (a term, a deferral, the question's own words) says so
        // beside it, as `show` does.
        let quotes = cites.iter().map(|q| {
            format!(
                "“{}” ({}, {}{})",
                text(&q.quote),
                text(&q.locator),
                code(&q.at),
                q.note
                    .as_ref()
                    .map_or(String::new(), |n| format!("; {}", text(n)))
            )
        });
        s.push_str(&format!(", resting on {}.", list(quotes)));
    }
    // An interpolation's `by:` is who added it, which its class says.
    if !by.is_empty() && !interpolated {
        s.push_str(&format!(" {who} {}.", by_text(by)));
    }
    if let Some(k) = class {
        s.push(' ');
        s.push_str(&class_sentence(k));
    }
    s
}

/// A class as a sentence: `Grounded in Davies.`, `Borrowed from the DLP.`, `Interpolated by
/// ludotrace editors; ….`
fn class_sentence(k: &Classed) -> String {
    let sources = || {
        list(k.sources.iter().map(|s| {
            // The DLP is a project, read with its article; the other labels are names.
            if s == "DLP" {
                "the DLP".to_owned()
            } else {
                text(s)
            }
        }))
    };
    match k.class {
        Class::Grounded => format!("Grounded in {}.", sources()),
        Class::Borrowed => format!("Borrowed from {}.", sources()),
        Class::Interpolated if k.by.is_empty() => "Interpolated.".to_owned(),
        Class::Interpolated => format!("Interpolated by {}.", by_text(&k.by)),
    }
}

/// The open points the reading decides: each question, the option taken and who proposes
/// it, and the options not taken.
fn decided(out: &mut Out, d: &ShowOutput) {
    let taken: Vec<(&ShowChoice, &ShowOption)> = d
        .choices
        .iter()
        .filter_map(|ch| chosen(d, &ch.id))
        .collect();
    if taken.is_empty() {
        return;
    }
    out.para("## The open points this reading decides");
    for (ch, o) in taken {
        let addresses = if ch.addresses.is_empty() {
            String::new()
        } else {
            format!(" ({})", ch.addresses.join(", "))
        };
        out.para(&format!("### {}{addresses}", code(&ch.id)));
        out.para(&block(&prose(&ch.question)));
        // Who proposes it is said just before: an interpolation's class need not repeat it.
        let class = ch
            .class
            .as_ref()
            .map_or_else(String::new, |k| match k.class {
                Class::Interpolated => " Interpolated: it quotes nothing.".to_owned(),
                _ => format!(" {}", class_sentence(k)),
            });
        out.para(&format!(
            "**Taken: {}.** {} Proposed by {}.{class}{}",
            code(&o.id),
            prose(&o.says),
            by_text(&o.by),
            engine(o)
        ));
        let others: Vec<&ShowOption> = ch.options.iter().filter(|x| x.id != o.id).collect();
        if others.is_empty() {
            continue;
        }
        out.para("Not taken:");
        for x in others {
            out.line(&format!(
                "- {}: {} Proposed by {}.{}",
                code(&x.id),
                prose(&x.says),
                by_text(&x.by),
                engine(x)
            ));
        }
        out.line("");
    }
}

/// The open points the reading takes no option of: the engine plays the family's defaults
/// there.
fn undecided(out: &mut Out, d: &ShowOutput) {
    let open: Vec<&ShowChoice> = d.choices.iter().filter(|ch| ch.chosen.is_none()).collect();
    if open.is_empty() {
        return;
    }
    out.para("## The open points this reading leaves undecided");
    out.para(
        "It takes no option of these; where they arise, the engine plays the family's defaults.",
    );
    for ch in open {
        out.line(&format!("- {}: {}", code(&ch.id), prose(&ch.question)));
    }
    out.line("");
}

/// ` An engine's behaviour, …` for an option that is one.
fn engine(o: &ShowOption) -> String {
    o.engine.as_ref().map_or_else(String::new, |e| {
        format!(" An engine's behaviour, no source's words: {}.", prose(e))
    })
}

/// Who a `by:` names: anchors as code, `reading: who, and why` as its words.
fn by_text(by: &[String]) -> String {
    by.iter()
        .map(|b| match b.strip_prefix("reading:") {
            Some(who) => prose(who),
            None => code(b),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Words as Markdown that renders them as written (a source's words, verbatim; a label):
/// whitespace folded to single spaces (a YAML block's line breaks are not the text's), and
/// every character that could start emphasis, a link, code, HTML or an entity escaped.
fn text(s: &str) -> String {
    let mut out = String::new();
    for (n, word) in s.split_whitespace().enumerate() {
        if n > 0 {
            out.push(' ');
        }
        for c in word.chars() {
            if matches!(
                c,
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '~' | '|'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// The editors' prose (a rule, a question, a description) as Markdown: like [`text`], but
/// their code spans (`` `pass` ``, a parameter's value) stay code. With an unpaired backtick
/// nothing is code.
fn prose(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return text(s);
    }
    let mut out = String::new();
    for (n, part) in parts.iter().enumerate() {
        if n.is_multiple_of(2) {
            // `text` trims; the spaces that part the text from a code span are kept.
            let t = text(part);
            let before = n > 0 && part.starts_with(char::is_whitespace);
            let after = n + 1 < parts.len() && part.ends_with(char::is_whitespace);
            if t.is_empty() {
                if before || after {
                    out.push(' ');
                }
                continue;
            }
            if before {
                out.push(' ');
            }
            out.push_str(&t);
            if after {
                out.push(' ');
            }
        } else {
            out.push_str(&code(
                &part.split_whitespace().collect::<Vec<_>>().join(" "),
            ));
        }
    }
    out
}

/// Escaped text that begins a paragraph: what would open a heading, a list or a thematic break
/// there (`#`, `-`, `+`, `=`, `1.`) is escaped too.
fn block(s: &str) -> String {
    if s.starts_with(['#', '-', '+', '=']) {
        return format!("\\{s}");
    }
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if (1..10).contains(&digits) && s[digits..].starts_with(['.', ')']) {
        return format!("{}\\{}", &s[..digits], &s[digits..]);
    }
    s.to_owned()
}

/// An id as code.
fn code(s: &str) -> String {
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_markup_and_folds_whitespace() {
        assert_eq!(
            text("a *b*\n  [c] <d>_e & `f`"),
            r"a \*b\* \[c\] \<d\>\_e \& \`f\`"
        );
        assert_eq!(block("- a"), r"\- a");
        assert_eq!(block("1. a"), r"1\. a");
        assert_eq!(block("1925 was"), "1925 was");
        assert_eq!(block("# a"), r"\# a");
        // The editors' code spans stay code, with what is in them as written.
        assert_eq!(
            prose("with `pass` or `a_b`, not_c"),
            r"with `pass` or `a_b`, not\_c"
        );
        assert_eq!(prose("`a` `b`"), "`a` `b`");
        assert_eq!(prose("odd ` tick_"), r"odd \` tick\_");
    }

    #[test]
    fn lists_read_as_prose() {
        let l = |v: &[&str]| list(v.iter().map(|s| (*s).to_owned()));
        assert_eq!(l(&[]), "");
        assert_eq!(l(&["a"]), "a");
        assert_eq!(l(&["a", "b", "c"]), "a, b and c");
    }
}
