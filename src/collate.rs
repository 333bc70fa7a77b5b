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

/// The differences between `base` and `other`, in text order.
pub fn collate(base: &str, other: &str, context_words: usize) -> Vec<Variant> {
    let a: Vec<&str> = base.split_whitespace().collect();
    let b: Vec<&str> = other.split_whitespace().collect();
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .diff_slices(&a, &b);
    let mut out = Vec::new();
    let changes: Vec<(ChangeTag, &str)> = diff
        .iter_all_changes()
        .map(|c| (c.tag(), c.value()))
        .collect();
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
}
