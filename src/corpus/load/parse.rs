//! Reading one YAML file: the YAML crate's result or its error, turned into a diagnostic
//! with a code of ours and a message a corpus author can act on.
//!
//! Architecture Invariant: the only file of the crate that calls the YAML crate
//! (serde-saphyr); `raw` names its span type, `diag` its locations, and nothing else knows
//! which crate reads the YAML.

use serde::de::DeserializeOwned;

use crate::corpus::diag::{Diagnostics, Place};
use crate::corpus::files::MAX_FILE_BYTES;

/// Parses one YAML document into `T`, turning any failure into a diagnostic.
pub fn parse_yaml<T: DeserializeOwned>(
    path: &str,
    text: &str,
    diags: &mut Diagnostics,
) -> Option<T> {
    if text.len() as u64 > MAX_FILE_BYTES {
        diags.push(
            Place::file(path),
            "file-too-large",
            format!(
                "file is {} bytes; corpus files must be at most {MAX_FILE_BYTES} bytes",
                text.len()
            ),
        );
        return None;
    }
    let meaningful = text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#') && t != "---" && t != "..."
    });
    if !meaningful {
        diags.push(
            Place::new(path, 1, 1),
            "empty-file",
            "the file is empty: expected a YAML mapping beginning with `schema_version: 1`",
        );
        return None;
    }
    match serde_saphyr::from_str::<T>(text) {
        Ok(v) => Some(v),
        Err(e) => {
            // Read straight into `T`, an unclosed bracket is reported as the wrong type of
            // the value it opens. So a file that fails is read again as YAML alone, into
            // nothing: if that fails too, the file is not well-formed YAML, whatever its
            // format, and is a syntax error. (Only on failure: a good file is read once.)
            let (place, code, message) = match serde_saphyr::from_str::<serde::de::IgnoredAny>(text)
            {
                Err(syntax) => {
                    let (place, message) = located(path, &syntax);
                    let (code, message) = classify_syntax_error(message, text, place.line);
                    (place, code, message)
                }
                Ok(_) => {
                    let (place, message) = located(path, &e);
                    let (code, message) = classify_format_error(message);
                    (place, code, message)
                }
            };
            diags.push(place, code, message);
            None
        }
    }
}

/// The place of a YAML crate error and its message without the place and the snippet.
fn located(path: &str, e: &serde_saphyr::Error) -> (Place, String) {
    let (line, column) = e
        .location()
        .map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
    let full = e.without_snippet().to_string();
    let message = match full.find(" at line ") {
        Some(i) => full[..i].to_owned(),
        None => full,
    };
    (Place::new(path, line, column), message)
}

/// The code and message of a file that is not well-formed YAML (or that the parser's
/// budgets refuse, or with a key twice in one mapping).
fn classify_syntax_error(message: String, text: &str, line: usize) -> (&'static str, String) {
    let has_tab = text
        .lines()
        .nth(line.saturating_sub(1))
        .is_some_and(|l| l.contains('\t'))
        || text.lines().nth(line).is_some_and(|l| l.starts_with('\t'));
    if message.starts_with("duplicate mapping key") {
        duplicate_key(&message)
    } else if message.starts_with("budget breached") || message.contains("recursion limit") {
        (
            "hostile-input",
            format!(
                "{message}: the file nests too deeply or expands aliases beyond the loader's limits"
            ),
        )
    } else if message.contains("tab") || has_tab {
        (
            "yaml-syntax",
            format!("not well-formed YAML: {message}; YAML indentation must use spaces, not tabs"),
        )
    } else {
        (
            "yaml-syntax",
            format!(
                "not well-formed YAML: {}",
                crate::family::plain_type_words(message.trim_start_matches("wrong type: "))
            ),
        )
    }
}

/// `duplicate-key`, naming the key.
fn duplicate_key(message: &str) -> (&'static str, String) {
    let key = message.trim_start_matches("duplicate mapping key: ");
    let key = key.split(',').next().unwrap_or(key);
    (
        "duplicate-key",
        format!("duplicate key `{key}`: each key may appear once in a mapping"),
    )
}

/// The code and message of well-formed YAML that does not fit its format: an unknown or
/// missing key, or a value of the wrong type, said without the YAML crate's or Rust's type
/// names.
fn classify_format_error(message: String) -> (&'static str, String) {
    if message.starts_with("unknown field") {
        ("unknown-key", message)
    } else if message.starts_with("duplicate mapping key") {
        duplicate_key(&message)
    } else if message.starts_with("missing field") {
        (
            "missing-field",
            format!("{message} (or it is indented wrongly)"),
        )
    } else if message.starts_with("budget breached") || message.contains("recursion limit") {
        classify_syntax_error(message, "", 0)
    } else {
        let message = message.trim_start_matches("wrong type: ");
        // serde's and the YAML crate's own messages (`invalid type: …`, `expected …`) are
        // said plainly; a message of the formats' own checks (a date's parts) is already.
        let plain = crate::family::plain_type_words(message);
        if plain == message {
            ("wrong-type", message.to_owned())
        } else {
            ("wrong-type", format!("wrong type: {plain}"))
        }
    }
}
