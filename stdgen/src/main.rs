//! `cargo run -p stpc-stdgen` (from the repository root): regenerate
//! `stdlib-contracts/lexicons.stpc` from `stdlib-contracts/data/**/*.toml`.
//! Writes only when the text changed; exit 1 on bad data.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn data_files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            data_files(&p, root, out)?;
        } else if p.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            let rel = p
                .strip_prefix(root)
                .unwrap_or(&p)
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, text));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let root = Path::new(".");
    if !root.join(stpc_stdgen::DATA).is_dir() {
        eprintln!(
            "run from the repository root: {} not found",
            stpc_stdgen::DATA
        );
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    if let Err(e) = data_files(&root.join(stpc_stdgen::DATA), root, &mut files) {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let text = match stpc_stdgen::generate(&files) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let out = root.join(stpc_stdgen::OUTPUT);
    if std::fs::read_to_string(&out).ok().as_deref() == Some(text.as_str()) {
        println!("{} is up to date", stpc_stdgen::OUTPUT);
        return ExitCode::SUCCESS;
    }
    let tmp = out.with_extension("stpc.tmp");
    if let Err(e) = std::fs::write(&tmp, &text).and_then(|()| std::fs::rename(&tmp, &out)) {
        let _ = std::fs::remove_file(&tmp);
        eprintln!("error: cannot write {}: {e}", out.display());
        return ExitCode::from(2);
    }
    println!(
        "wrote {} ({} files of data)",
        stpc_stdgen::OUTPUT,
        files.len()
    );
    ExitCode::SUCCESS
}
