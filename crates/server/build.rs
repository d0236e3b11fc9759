//! Embeds the page (`web/`), the graded library (`data/library/`) and the
//! rules pages (`crates/server/rules/`) into the binary, so that `patience
//! serve` needs no files beside it.
//!
//! Generates `$OUT_DIR/embedded.rs` with one `(path, bytes)` table per folder.
//! A missing or empty folder gives an empty table: the build never fails on it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../..");
    let mut out = String::new();
    for (name, dir) in [
        ("WEB", "web"),
        ("LIBRARY", "data/library"),
        ("RULES", "crates/server/rules"),
    ] {
        let dir = root.join(dir);
        // A directory here makes cargo rescan it for any change of any file in it.
        println!("cargo:rerun-if-changed={}", dir.display());
        let mut files = Vec::new();
        collect(&dir, &dir, &mut files);
        files.sort();
        writeln!(out, "pub static {name}: &[(&str, &[u8])] = &[").unwrap();
        for (rel, abs) in files {
            writeln!(
                out,
                "    ({rel:?}, include_bytes!({:?})),",
                abs.display().to_string()
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("embedded.rs");
    std::fs::write(dest, out).unwrap();
}

/// Every regular file under `dir`, as (path relative to `base` with `/`, absolute path).
/// Hidden files and `node_modules` are left out.
fn collect(base: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(base, &path, out);
        } else if kind.is_file() {
            let rel = path.strip_prefix(base).unwrap_or(&path);
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let abs = path.canonicalize().unwrap_or(path);
            out.push((rel.join("/"), abs));
        }
    }
}
