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

/// FNV-1a over the build's sources: the code that plays games. A store and a plan name the
/// build a result came from, so a changed engine never reuses an old build's blocks even
/// under the same version number.
fn source_hash(root: &Path) -> u64 {
    let mut files = Vec::new();
    walk(root, "src", &mut files);
    files.push(("Cargo.lock".to_owned(), root.join("Cargo.lock")));
    println!(
        "cargo:rerun-if-changed={}",
        root.join("Cargo.lock").display()
    );
    files.sort();
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for (rel, path) in &files {
        let bytes = fs::read(path).unwrap_or_default();
        for b in rel.bytes().chain([0]).chain(bytes).chain([0]) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

fn main() {
    let root =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!(
        "cargo:rustc-env=LUDOTRACE_SOURCE_HASH={:016x}",
        source_hash(&root)
    );
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
