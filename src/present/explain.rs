//! The printers of `explain` ([`crate::analysis::explain::ExplainOutput`]): the game move by
//! move as text that fits the terminal (80 columns unless `--width` says otherwise),
//! Markdown, JSON, or the step-through viewer as one HTML page ([`super::viewer`]).
//!
//! In text and Markdown a rule is written in full (what it says, its words and their place,
//! its class, an option's open point and the other options) the first time a game applies
//! it, and by its id after that: a long game would otherwise repeat the same quotes
//! thousands of times.

use std::collections::HashSet;

use crate::analysis::explain::{Application, ExplainOutput, Explanation, Gap, Position, Rule};
use crate::corpus::Corpus;
use crate::present::Format;
use crate::present::out::{Out, wrap};
use crate::present::show::class_tag;
use crate::present::site::viewer;

/// The width text is laid out to when the output is not a terminal.
const TEXT_WIDTH: usize = 80;

/// Prints an explanation in the output's format.
pub fn print(out: &mut Out, corpus: &Corpus, e: &ExplainOutput) {
    match out.format {
        Format::Json => out.json(e),
        Format::Html => out.raw(&viewer::page(corpus, e)),
        Format::Markdown => markdown(out, e),
        Format::Table | Format::Csv => text(out, e),
    }
}

/// Lines of a paragraph wrapped to `width` after `indent`, the first after `first` instead.
fn para(out: &mut Out, first: &str, indent: &str, s: &str, width: usize) {
    // The longer lead decides the room, so that no line, the first included, overflows.
    let lead = first.chars().count().max(indent.chars().count());
    let room = width.saturating_sub(lead).max(20);
    for (i, line) in wrap(s, room, false).into_iter().enumerate() {
        let lead = if i == 0 { first } else { indent };
        out.line(&format!("{lead}{line}"));
    }
}

fn text(out: &mut Out, e: &ExplainOutput) {
    let width = match out.width() {
        Some(0) | None => TEXT_WIDTH,
        Some(w) => w,
    };
    header(out, e, width);
    game_text(out, &e.explained, width);
    if let Some(a) = &e.against {
        out.line("");
        out.line(&"═".repeat(width.min(TEXT_WIDTH)));
        let x = &a.explained;
        para(
            out,
            "",
            "",
            &format!(
                "The same game under {} ({}): it replays {}'s moves while they are legal \
                 in it ({} moves and {} chance outcomes replayed), then its own agent plays.",
                x.interpretation,
                x.title,
                e.explained.interpretation,
                a.replayed_moves,
                a.replayed_chances
            ),
            width,
        );
        match &a.parting {
            None => para(
                out,
                "",
                "",
                "The readings never part in this game: every move and every position is the same.",
                width,
            ),
            Some(p) => {
                out.line("");
                para(
                    out,
                    "",
                    "",
                    &format!("The games part at ply {} ({}).", p.ply, p.how),
                    width,
                );
                para(
                    out,
                    &format!("  {}: ", e.explained.interpretation),
                    "    ",
                    &p.first,
                    width,
                );
                para(
                    out,
                    &format!("  {}: ", x.interpretation),
                    "    ",
                    &p.second,
                    width,
                );
                para(
                    out,
                    "  ",
                    "  ",
                    if p.at_this_ply {
                        "The open points that part them there:"
                    } else {
                        "No open point the two answer differently is consulted at that ply \
                         itself; they answer these differently:"
                    },
                    width,
                );
                for c in &p.choices {
                    let q = if c.question.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", c.question)
                    };
                    para(
                        out,
                        "  - ",
                        "    ",
                        &format!(
                            "{}{q}: {} takes {}, {} takes {} [{}]",
                            c.choice,
                            e.explained.interpretation,
                            c.first,
                            x.interpretation,
                            c.second,
                            c.params.join(", ")
                        ),
                        width,
                    );
                }
            }
        }
        out.line("");
        game_text(out, x, width);
    }
}

fn header(out: &mut Out, e: &ExplainOutput, width: usize) {
    let x = &e.explained;
    para(
        out,
        "",
        "",
        &format!("{} · {} ({})", x.name, x.interpretation, x.title),
        width,
    );
    para(
        out,
        "",
        "",
        &match &e.from_position {
            None => format!(
                "Game {} of `{}`: the same game that run plays as its game {}. Players: {}.",
                x.index,
                e.same_game_as,
                x.index,
                x.seating.join(", ")
            ),
            Some(_) => format!(
                "From the position given, with the players and the generator of game {} of \
                 `{}`: not a game run plays. Players: {}.",
                x.index,
                e.same_game_as,
                x.seating.join(", ")
            ),
        },
        width,
    );
    para(
        out,
        "",
        "",
        &format!("This explanation again: `{}`", e.command),
        width,
    );
}

fn game_text(out: &mut Out, x: &Explanation, width: usize) {
    let (a, _) = x.shown;
    out.line("");
    para(
        out,
        "",
        "",
        &format!("{} · {}: {}.", x.name, x.interpretation, x.shown_text()),
        width,
    );
    out.line("");
    out.line(if a <= 1 {
        "Start"
    } else {
        "Before the plies shown"
    });
    board(out, &x.start, &x.layout, width);
    notation(out, &x.start, width);
    let mut seen: HashSet<&str> = HashSet::new();
    let mut last = &x.start;
    for s in &x.steps {
        out.line("");
        out.line(&s.title());
        for app in &s.applies {
            application(out, x, app, &mut seen, width);
        }
        // A step that changes nothing on the board (a lot, a throw, a pass) shows none, only
        // what changed beside it.
        if s.after.sites != last.sites
            || s.after.seats != last.seats
            || s.after.marked != last.marked
        {
            board(out, &s.after, &x.layout, width);
        } else if s.after.notes != last.notes {
            let notes: Vec<String> = s
                .after
                .notes
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            out.line(&format!("    {}", notes.join(" · ")));
        }
        notation(out, &s.after, width);
        last = &s.after;
    }
    out.line("");
    for line in &x.result {
        out.line(line);
    }
    for g in &x.end_gaps {
        gap(out, g, "  ", width);
    }
}

fn application<'x>(
    out: &mut Out,
    x: &'x Explanation,
    app: &Application,
    seen: &mut HashSet<&'x str>,
    width: usize,
) {
    let label = if app.kind == "move" {
        format!("move {}", app.what)
    } else {
        app.what.clone()
    };
    para(out, "  ", "    ", &label, width);
    // Rules met before are named on one line; a new one is written in full.
    let mut before: Vec<&str> = Vec::new();
    for id in &app.rules {
        let Some(rule) = x.rules.iter().find(|r| &r.id == id) else {
            continue;
        };
        if !seen.insert(rule.id.as_str()) {
            before.push(rule.id.as_str());
            continue;
        }
        let tag = rule
            .class
            .as_ref()
            .map_or_else(|| "engine default".to_owned(), class_tag);
        para(
            out,
            "    ← ",
            "      ",
            &format!("{} [{tag}]", rule.id),
            width,
        );
        rule_text(out, rule, width);
    }
    if !before.is_empty() {
        para(
            out,
            "    ← ",
            "      ",
            &format!("{} (as above)", before.join(", ")),
            width,
        );
    }
    for g in &app.gaps {
        gap(out, g, "    ", width);
    }
}

/// A rule in full, under its id.
fn rule_text(out: &mut Out, rule: &Rule, width: usize) {
    let set: Vec<String> = rule
        .params
        .iter()
        .map(|(p, v)| format!("{p} = {v}"))
        .collect();
    para(out, "      ", "      ", &rule.says, width);
    if !set.is_empty() {
        para(
            out,
            "      ",
            "        ",
            &format!("sets {}", set.join(", ")),
            width,
        );
    }
    for q in &rule.cites {
        let note = q.note.as_ref().map_or(String::new(), |n| format!(" ({n})"));
        para(
            out,
            "      “",
            "       ",
            &format!("{}” ({}){note}", q.quote, q.locator),
            width,
        );
    }
    if let Some(c) = &rule.choice {
        para(
            out,
            "      open point ",
            "        ",
            &format!("{}: {}", c.id, c.question),
            width,
        );
        for o in c.options.iter().filter(|o| o.id != c.taken) {
            let by = if o.by.is_empty() {
                String::new()
            } else {
                format!(" (by {})", o.by.join("; "))
            };
            para(
                out,
                "        other option ",
                "          ",
                &format!("{}: {}{by}", o.id, o.says),
                width,
            );
        }
    }
}

/// A gap, under what it concerns.
fn gap(out: &mut Out, g: &Gap, indent: &str, width: usize) {
    para(
        out,
        &format!("{indent}! "),
        &format!("{indent}  "),
        &g.sentence(),
        width,
    );
}

/// The position in the notation `--position` reads, under a step's board: wrapped at its
/// spaces, which the notation reads as it reads spaces, so that it can be copied as shown.
fn notation(out: &mut Out, p: &Position, width: usize) {
    para(out, "    position: ", "      ", &p.notation, width);
}

/// The board, indented under a step.
fn board(out: &mut Out, p: &Position, layout: &[Vec<String>], width: usize) {
    for line in p.view(layout).lines(width.saturating_sub(4)) {
        out.line(format!("    {line}").trim_end());
    }
}

fn markdown(out: &mut Out, e: &ExplainOutput) {
    let x = &e.explained;
    out.para(&format!("# {} · {}", x.name, x.interpretation));
    out.para(&match &e.from_position {
        None => format!(
            "{}. Game {} of `{}`: the same game that `run` plays as its game {}. Players: {}.",
            x.title,
            x.index,
            e.same_game_as,
            x.index,
            x.seating.join(", ")
        ),
        Some(_) => format!(
            "{}. From the position given, with the players and the generator of game {} of \
             `{}`: not a game `run` plays. Players: {}.",
            x.title,
            x.index,
            e.same_game_as,
            x.seating.join(", ")
        ),
    });
    out.para(&format!("This explanation again: `{}`", e.command));
    game_markdown(out, x);
    if let Some(a) = &e.against {
        let y = &a.explained;
        out.para(&format!("# Against {}", y.interpretation));
        out.para(&format!(
            "The same game under {} ({}): it replays {}'s moves while they are legal in it \
             ({} moves and {} chance outcomes replayed), then its own agent plays.",
            y.interpretation, y.title, x.interpretation, a.replayed_moves, a.replayed_chances
        ));
        match &a.parting {
            None => out.para("The readings never part in this game."),
            Some(p) => {
                out.para(&format!("**The games part at ply {}** ({}).", p.ply, p.how));
                out.line(&format!("- {}: {}", x.interpretation, p.first));
                out.line(&format!("- {}: {}", y.interpretation, p.second));
                out.line("");
                out.para(if p.at_this_ply {
                    "The open points that part them there:"
                } else {
                    "No open point the two answer differently is consulted at that ply itself; \
                     they answer these differently:"
                });
                for c in &p.choices {
                    out.line(&format!(
                        "- `{}`{}: {} takes `{}`, {} takes `{}` ({})",
                        c.choice,
                        if c.question.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", c.question)
                        },
                        x.interpretation,
                        c.first,
                        y.interpretation,
                        c.second,
                        c.params.join(", ")
                    ));
                }
                out.line("");
            }
        }
        game_markdown(out, y);
    }
}

fn game_markdown(out: &mut Out, x: &Explanation) {
    let (a, _) = x.shown;
    out.para(&format!("## {}: {}", x.interpretation, x.shown_text()));
    let diagram = |out: &mut Out, p: &Position| {
        out.line("```text");
        for line in p.view(&x.layout).lines(TEXT_WIDTH) {
            out.line(&line);
        }
        out.line("```");
        out.line("");
        out.para(&format!("Position: `{}`", p.notation));
    };
    out.para(if a <= 1 {
        "**Start**"
    } else {
        "**Before the plies shown**"
    });
    diagram(out, &x.start);
    for s in &x.steps {
        out.para(&format!("### {}", s.title()));
        for app in &s.applies {
            let rules: Vec<String> = app
                .rules
                .iter()
                .map(|id| format!("[{id}](#{})", anchor(id)))
                .collect();
            out.line(&format!(
                "- {}{}: {}",
                if app.kind == "move" { "move " } else { "" },
                app.what,
                rules.join(", ")
            ));
            for g in &app.gaps {
                out.line(&format!(
                    "  - **{}** ({}): {}",
                    g.flag(),
                    g.class.as_str(),
                    g.params.join(", ")
                ));
            }
        }
        out.line("");
        diagram(out, &s.after);
    }
    for line in &x.result {
        out.para(line);
    }
    for g in &x.end_gaps {
        out.para(&format!("**{}**: {}", g.flag(), g.params.join(", ")));
    }
    out.para(&format!("## The rules {} applied", x.interpretation));
    for r in &x.rules {
        let tag = r
            .class
            .as_ref()
            .map_or_else(|| "engine default".to_owned(), class_tag);
        out.para(&format!(
            "<a id=\"{}\"></a>**{}** ({tag}): {}",
            anchor(&r.id),
            r.id,
            r.says
        ));
        for q in &r.cites {
            let note = q.note.as_ref().map_or(String::new(), |n| format!(" ({n})"));
            out.line(&format!("> “{}” ({}){note}", q.quote, q.locator));
            out.line(">");
        }
        if let Some(c) = &r.choice {
            out.line(&format!("Open point `{}`: {}", c.id, c.question));
            out.line("");
            for o in &c.options {
                let by = if o.by.is_empty() {
                    String::new()
                } else {
                    format!(" (by {})", o.by.join("; "))
                };
                let taken = if o.id == c.taken { " **(taken)**" } else { "" };
                out.line(&format!("- `{}`{taken}: {}{by}", o.id, o.says));
            }
            out.line("");
        }
    }
}

/// An HTML id for a rule id.
pub(crate) fn anchor(id: &str) -> String {
    let mut s = String::from("rule-");
    for c in id.chars() {
        s.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '-'
        });
    }
    s
}
