//! Embeds the corpus (sources/ and rulesets/) in the binary, so that an installed ludotrace
//! works anywhere. Generates a sorted table of (relative path, include_str!) pairs.

use std::fs;
use std::path::{Path, PathBuf};

fn walk(root: &Path, rel: &str, out: &mut Vec<(String, PathBuf)>) {
    let dir = root.join(rel);
    println!("cargo:rerun-if-changed={}", dir.display());
    let Ok(entries) = fs::read_dir(&dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let rel_path = format!("{rel}/{name}");
        let path = entry.path();
        if path.is_dir() {
            walk(root, &rel_path, out);
        } else {
            println!("cargo:rerun-if-changed={}", path.display());
            out.push((rel_path, path));
        }
    }
}

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for sub in ["sources", "rulesets"] {
        walk(&root, sub, &mut files);
    }
    files.sort();
    let mut code = String::from(
        "/// Every corpus file, by path relative to the corpus root.\npub static FILES: &[(&str, &str)] = &[\n",
    );
    for (rel, path) in &files {
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("embedded_corpus.rs");
    fs::write(out, code).expect("write embedded corpus table");
}
