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
            let (line, column) = e
                .location()
                .map_or((1, 1), |l| (l.line() as usize, l.column() as usize));
            let full = e.without_snippet().to_string();
            let message = match full.find(" at line ") {
                Some(i) => full[..i].to_owned(),
                None => full,
            };
            let (code, message) = classify_yaml_error(message, text, line);
            diags.push(Place::new(path, line, column), code, message);
            None
        }
    }
}

fn classify_yaml_error(message: String, text: &str, line: usize) -> (&'static str, String) {
    let has_tab = text
        .lines()
        .nth(line.saturating_sub(1))
        .is_some_and(|l| l.contains('\t'))
        || text.lines().nth(line).is_some_and(|l| l.starts_with('\t'));
    if message.starts_with("unknown field") {
        ("unknown-key", message)
    } else if message.starts_with("duplicate mapping key") {
        let key = message.trim_start_matches("duplicate mapping key: ");
        let key = key.split(',').next().unwrap_or(key);
        (
            "duplicate-key",
            format!("duplicate key `{key}`: each key may appear once in a mapping"),
        )
    } else if message.starts_with("missing field") {
        (
            "missing-field",
            format!("{message} (or it is indented wrongly)"),
        )
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
            format!("{message}: YAML indentation must use spaces, not tabs"),
        )
    } else if let Some(ty) = message.strip_prefix("invalid ") {
        let expected = match ty.trim() {
            "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number, 0 or more",
            "i8" | "i16" | "i32" | "i64" => "a whole number",
            "bool" => "`true` or `false`",
            other => other,
        };
        ("wrong-type", format!("wrong type: expected {expected}"))
    } else if message.starts_with("invalid") || message.contains("expected") {
        ("wrong-type", message)
    } else {
        ("yaml-syntax", message)
    }
}
