//! Shared CLI plumbing: reading inputs, colour, printing diagnostics,
//! atomic writes.

use crate::{ColorChoice, Format, Global};
use codespan_reporting::term::termcolor::{BufferWriter, ColorChoice as TermColor};
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use stpc_compiler::diagnostics::{github, render, sarif};
use stpc_compiler::{Diagnostic, Diagnostics, FileId, SourceMap};

/// Reads a path (or stdin for `-`) into the source map.
///
/// Invalid UTF-8 is reported as `E0112` and the file is not added for
/// parsing. An unreadable file is an operational error, returned as text.
pub fn read_source(
    path: &str,
    map: &mut SourceMap,
    diagnostics: &mut Diagnostics,
) -> Result<Option<FileId>, String> {
    let (name, bytes) = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        ("<stdin>".to_string(), buf)
    } else {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{path}`: {e}"))?;
        (path.to_string(), bytes)
    };
    match std::str::from_utf8(&bytes) {
        Ok(text) => Ok(Some(map.add(name, text))),
        Err(_) => {
            // Keep a lossy copy so the diagnostic can show where the bad byte is.
            let lossy = String::from_utf8_lossy(&bytes).into_owned();
            let id = map.add(name, lossy);
            let _ = stpc_compiler::syntax::decode(id, &bytes, diagnostics);
            Ok(None)
        }
    }
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stderr().is_terminal()
        }
    }
}

/// Prints diagnostics: human text to stderr; json, sarif and github to stdout.
///
/// Call it once per command with every diagnostic: a SARIF log is one
/// document, so a second call would print a second log.
pub fn emit(global: &Global, map: &SourceMap, diagnostics: &[Diagnostic]) {
    match global.format {
        Format::Human | Format::Junit => {
            let choice = if use_color(global.color) {
                TermColor::Always
            } else {
                TermColor::Never
            };
            // Rendered into one buffer and written once: the renderer makes
            // a write per fragment, and unbuffered stderr turned each into
            // a system call (10 s for 100 diagnostics on a long line).
            let writer = BufferWriter::stderr(choice);
            let mut buffer = writer.buffer();
            let _ = render::human(&mut buffer, map, diagnostics);
            let _ = writer.print(&buffer);
        }
        Format::Json => {
            let _ = std::io::stdout().write_all(render::json_lines(map, diagnostics).as_bytes());
        }
        Format::Sarif => {
            let root = current_dir();
            let options = sarif::SarifOptions {
                root: root.as_deref(),
                failure: None,
            };
            let _ = std::io::stdout()
                .write_all(sarif::log_string(map, diagnostics, &options).as_bytes());
        }
        Format::Github => {
            let _ = std::io::stdout().write_all(github::lines(map, diagnostics).as_bytes());
        }
    }
}

/// The working directory as text, to make SARIF artifact paths relative.
fn current_dir() -> Option<String> {
    std::env::current_dir()
        .ok()
        .map(|d| d.to_string_lossy().into_owned())
}

/// Writes to standard output. When the reader has gone (`stpc decide … |
/// head -1`), the process ends quietly with the status a shell gives a
/// program killed by `SIGPIPE` (141), as `cat` or `grep` would: nothing is
/// half-done at that point, since files are written atomically and audit
/// records one whole line per write. Any other write error is reported once
/// on standard error and ends the process with status 2.
pub fn write_stdout(args: std::fmt::Arguments<'_>, newline: bool) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let result = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    if let Err(e) = result {
        closed(&e);
    }
}

/// Writes a line to standard error; a closed standard error ends the
/// process like a closed standard output.
pub fn write_stderr(args: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let mut err = std::io::stderr().lock();
    if let Err(e) = err.write_fmt(args).and_then(|()| err.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
    }
}

fn closed(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    let _ = std::io::Write::write_fmt(
        &mut std::io::stderr(),
        format_args!("error: cannot write to standard output: {e}\n"),
    );
    std::process::exit(2);
}

/// Prints an operational error (no source location).
pub fn fail(global: &Global, message: &str) {
    match global.format {
        Format::Human | Format::Junit => crate::errln!("error: {message}"),
        Format::Json => {
            let v = serde_json::json!({"code": null, "severity": "error", "message": message,
                "help": null, "notes": [], "labels": []});
            crate::outln!("{v}");
        }
        Format::Sarif => {
            let root = current_dir();
            let options = sarif::SarifOptions {
                root: root.as_deref(),
                failure: Some(message),
            };
            crate::out!("{}", sarif::log_string(&SourceMap::new(), &[], &options));
        }
        Format::Github => crate::out!("{}", github::failure(message)),
    }
}

/// Writes a file atomically: a temporary file beside it, then a rename.
///
/// A symbolic link is followed, so the file it points to is replaced, not
/// the link; an existing file keeps its permissions.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!(".{name}.stpc-tmp-");
    remove_stale_temporaries(dir, &prefix);
    let tmp = dir.join(format!("{prefix}{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(contents)?;
        if let Some(permissions) = permissions {
            f.set_permissions(permissions)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes the temporary files an earlier write of the same file left when
/// its process was killed (`kill -9` between create and rename): those
/// whose process no longer runs. Where processes cannot be looked up (no
/// `/proc`), nothing is removed.
fn remove_stale_temporaries(dir: &Path, prefix: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// A rule as people read it: `rule 5 `scrub``, numbered from 1 like the
/// names of unnamed rules (`rule#5`) and the checker's `#5`, or only the
/// name (`<fail-closed>`) when no rule decided. Machine output keeps the
/// 0-based `rule_id` the table stores.
pub fn rule_text(id: Option<u32>, name: &str) -> String {
    match id {
        Some(i) => format!("rule {} `{name}`", u64::from(i) + 1),
        None => format!("`{name}`"),
    }
}
