//! Word-level collation of two witnesses of a passage.
//!
//! Texts are compared as word sequences (whitespace never counts as a difference; page
//! breaks and figure captions are structure, not text), and each run of differing words is
//! reported with a little shared context, in the manner of a critical apparatus.

use similar::{Algorithm, ChangeTag, TextDiff};

/// One place where two witnesses differ.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Variant {
    /// Words shared just before the difference.
    pub before: String,
    /// The base witness's words (empty: the other witness adds words).
    pub base: String,
    /// The other witness's words (empty: it omits words).
    pub other: String,
    /// Words shared just after.
    pub after: String,
}

/// A run of words that both texts share, or that one of them alone has.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct WordRun {
    /// `same` (in both), `removed` (in the base only) or `added` (in the other only).
    pub op: String,
    /// The words, space-separated.
    pub text: String,
}

/// Every word of two texts, in order, as runs shared or one text's own: the base text is the
/// `same` and `removed` runs, the other the `same` and `added` ones. Texts that share less
/// than half their words ([`MIN_SHARED`]) are one replacement, the whole of one for the whole
/// of the other: words matched here and there across two different sentences ("the", "of")
/// would only break both up.
pub fn word_runs(base: &str, other: &str) -> Vec<WordRun> {
    let a: Vec<&str> = base.split_whitespace().collect();
    let b: Vec<&str> = other.split_whitespace().collect();
    let mut changes = changes(&a, &b);
    let shared = changes.iter().filter(|c| c.0 == ChangeTag::Equal).count();
    if (2 * shared) as f64 <= MIN_SHARED * (a.len() + b.len()) as f64 && shared > 0 {
        changes = a
            .iter()
            .map(|w| (ChangeTag::Delete, (*w).to_owned()))
            .chain(b.iter().map(|w| (ChangeTag::Insert, (*w).to_owned())))
            .collect();
    }
    let mut runs: Vec<WordRun> = Vec::new();
    for (tag, word) in &changes {
        let op = match tag {
            ChangeTag::Equal => "same",
            ChangeTag::Delete => "removed",
            ChangeTag::Insert => "added",
        };
        match runs.last_mut() {
            Some(run) if run.op == op => {
                run.text.push(' ');
                run.text.push_str(word);
            }
            _ => runs.push(WordRun {
                op: op.to_owned(),
                text: word.to_owned(),
            }),
        }
    }
    runs
}

/// The least share of their words (shared words of both over all words of both) two texts
/// must have in common for [`word_runs`] to show them word by word.
pub const MIN_SHARED: f64 = 0.5;

/// [`word_runs`] in the manner of `git diff --word-diff`: `[-removed-]{+added+}`.
pub fn word_diff_text(runs: &[WordRun]) -> String {
    let words: Vec<String> = runs
        .iter()
        .map(|r| match r.op.as_str() {
            "removed" => format!("[-{}-]", r.text),
            "added" => format!("{{+{}+}}", r.text),
            _ => r.text.clone(),
        })
        .collect();
    words.join(" ")
}

/// The word-by-word changes from `a` to `b`: the one diff of this module.
fn changes(a: &[&str], b: &[&str]) -> Vec<(ChangeTag, String)> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_slices(a, b);
    diff.iter_all_changes()
        .map(|c| (c.tag(), c.value().to_owned()))
        .collect()
}

/// The differences between `base` and `other`, in text order.
pub fn collate(base: &str, other: &str, context_words: usize) -> Vec<Variant> {
    let a: Vec<&str> = base.split_whitespace().collect();
    let b: Vec<&str> = other.split_whitespace().collect();
    let mut out = Vec::new();
    let changes = changes(&a, &b);
    let changes: Vec<(ChangeTag, &str)> = changes.iter().map(|(t, w)| (*t, w.as_str())).collect();
    let mut i = 0;
    while i < changes.len() {
        if changes[i].0 == ChangeTag::Equal {
            i += 1;
            continue;
        }
        let start = i;
        while i < changes.len() && changes[i].0 != ChangeTag::Equal {
            i += 1;
        }
        let base_words: Vec<&str> = changes[start..i]
            .iter()
            .filter(|c| c.0 == ChangeTag::Delete)
            .map(|c| c.1)
            .collect();
        let other_words: Vec<&str> = changes[start..i]
            .iter()
            .filter(|c| c.0 == ChangeTag::Insert)
            .map(|c| c.1)
            .collect();
        let before: Vec<&str> = changes[..start]
            .iter()
            .rev()
            .filter(|c| c.0 == ChangeTag::Equal)
            .take(context_words)
            .map(|c| c.1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after: Vec<&str> = changes[i..]
            .iter()
            .take_while(|c| c.0 == ChangeTag::Equal)
            .take(context_words)
            .map(|c| c.1)
            .collect();
        out.push(Variant {
            before: before.join(" "),
            base: base_words.join(" "),
            other: other_words.join(" "),
            after: after.join(" "),
        });
    }
    out
}

/// The differences between `base` and `other` that fall inside `span`, a run of words of
/// `base` (its first occurrence, compared word for word): a change of the span's words, or
/// words the other text adds between two of them. Empty when `base` does not contain `span`.
pub fn collate_within(base: &str, other: &str, span: &str, context_words: usize) -> Vec<Variant> {
    let a: Vec<&str> = base.split_whitespace().collect();
    let b: Vec<&str> = other.split_whitespace().collect();
    let s: Vec<&str> = span.split_whitespace().collect();
    if s.is_empty() || s.len() > a.len() {
        return Vec::new();
    }
    let Some(start) = a.windows(s.len()).position(|w| w == s.as_slice()) else {
        return Vec::new();
    };
    let end = start + s.len();
    let changes = changes(&a, &b);
    let mut out = Vec::new();
    // `at`: the index in `a` of the next base word.
    let (mut i, mut at) = (0, 0);
    while i < changes.len() {
        if changes[i].0 == ChangeTag::Equal {
            at += 1;
            i += 1;
            continue;
        }
        let (first, from) = (i, at);
        while i < changes.len() && changes[i].0 != ChangeTag::Equal {
            if changes[i].0 == ChangeTag::Delete {
                at += 1;
            }
            i += 1;
        }
        // Inside: a changed base word of the span, or words added strictly within it.
        let inside = if at > from {
            from < end && at > start
        } else {
            from > start && from < end
        };
        if !inside {
            continue;
        }
        let words = |tag: ChangeTag| -> String {
            changes[first..i]
                .iter()
                .filter(|c| c.0 == tag)
                .map(|c| c.1.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        out.push(Variant {
            before: a[from.saturating_sub(context_words)..from].join(" "),
            base: words(ChangeTag::Delete),
            other: words(ChangeTag::Insert),
            after: a[at..(at + context_words).min(a.len())].join(" "),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_substitution_omission_and_addition() {
        let v = collate("falls into a house", "falls in to a house", 1);
        assert_eq!(v.len(), 1);
        assert_eq!((v[0].base.as_str(), v[0].other.as_str()), ("into", "in to"));
        let v = collate("with any together with any other", "with any other", 2);
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].other, "");
        assert!(collate("same  words\nhere", "same words here", 2).is_empty());
    }

    #[test]
    fn collate_within_keeps_the_quoted_span_only() {
        let base = "He sows anticlockwise from his house and takes the fours";
        let other = "He sows anti-clockwise from his house and takes all fours";
        let v = collate_within(base, other, "sows anticlockwise from his", 1);
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(
            (v[0].base.as_str(), v[0].other.as_str()),
            ("anticlockwise", "anti-clockwise")
        );
        assert_eq!(
            (v[0].before.as_str(), v[0].after.as_str()),
            ("sows", "from")
        );
        // The other difference lies outside the span.
        assert_eq!(collate_within(base, other, "takes the fours", 1).len(), 1);
        assert!(collate_within(base, other, "from his house", 1).is_empty());
        assert!(collate_within(base, other, "not in the text", 1).is_empty());
        // Words the other witness adds inside the span count; at its edge they do not.
        let v = collate_within("a b c d", "a b x c d", "b c", 0);
        assert_eq!((v.len(), v[0].other.as_str()), (1, "x"));
        assert!(collate_within("a b c d", "a b x c d", "c d", 0).is_empty());
    }

    #[test]
    fn word_runs_keep_every_word_of_both_texts() {
        let a = "The chain takes only houses of the opponent's row";
        let b = "The chain may also take houses of the mover's own row";
        let runs = word_runs(a, b);
        let side = |skip: &str| {
            runs.iter()
                .filter(|r| r.op != skip)
                .map(|r| r.text.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(side("added"), a);
        assert_eq!(side("removed"), b);
        assert_eq!(
            word_diff_text(&runs),
            "The chain [-takes only-] {+may also take+} houses of the [-opponent's-] \
             {+mover's own+} row"
        );
        // Two different sentences sharing a few small words: one replacement.
        let runs = word_runs(
            "Each further house is a separate permission",
            "The whole chain is always taken",
        );
        assert_eq!(
            word_diff_text(&runs),
            "[-Each further house is a separate permission-] {+The whole chain is always taken+}"
        );
        assert_eq!(word_runs("", "").len(), 0);
        assert_eq!(word_diff_text(&word_runs("", "new words")), "{+new words+}");
    }
}
