//! Embeds the standard library: every `.stpc` file under `stdlib-contracts/`
//! becomes an entry of a generated table, so `stpc` resolves `use std::...`
//! from any directory without reading the file system.

#![expect(
    clippy::disallowed_methods,
    clippy::disallowed_macros,
    reason = "a build script reads the stdlib directory, writes the generated table and talks to cargo on stdout"
)]

use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            collect(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "stpc") {
            if let Ok(rel) = path.strip_prefix(base) {
                let rel = rel.to_string_lossy().replace('\\', "/");
                out.push((rel, path.clone()));
            }
        }
    }
}

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let std_dir = manifest.join("..").join("stdlib-contracts");
    println!("cargo:rerun-if-changed={}", std_dir.display());
    println!("cargo:rerun-if-changed=build.rs");
    let mut files = Vec::new();
    collect(&std_dir, &std_dir, &mut files);
    let mut code = String::from("/// Every embedded std module: (path relative to `stdlib-contracts/`, text).\npub(crate) const FILES: &[(&str, &str)] = &[\n");
    for (rel, path) in &files {
        code.push_str(&format!(
            "    ({rel:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    code.push_str("];\n");
    let out =
        PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("stdlib.rs");
    if let Err(e) = std::fs::write(&out, code) {
        println!("cargo:warning=cannot write {}: {e}", out.display());
    }
}
