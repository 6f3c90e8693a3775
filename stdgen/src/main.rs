//! `cargo run -p stpc-stdgen` (from the repository root): regenerate
//! `stdlib-contracts/lexicons.stpc` from `stdlib-contracts/data/**/*.toml`.
//! Writes only when the text changed; exit 1 on bad data.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = Path::new(".");
    if !root.join(stpc_stdgen::DATA).is_dir() {
        eprintln!(
            "run from the repository root: {} not found",
            stpc_stdgen::DATA
        );
        return ExitCode::from(2);
    }
    let files = match stpc_stdgen::read_data(root) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
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
