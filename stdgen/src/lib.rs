//! The std generator: `stdlib-contracts/data/**/*.toml` to
//! `stdlib-contracts/lexicons.stpc`.
//!
//! Each data file is one lexicon (several files may add to one lexicon:
//! their entries are merged in file order), in groups of translations that
//! share a `replacement`; the format is in `stdlib-contracts/data/README.md`.
//! The output lists every lexicon in name order, entries in data order with
//! duplicates (after case and accent folding) dropped, and is put in the
//! canonical layout by `stpc fmt`'s formatter, so the generated file is a
//! fixed point of `stpc fmt` like every shipped file.
//!
//! [`generate`] is pure (texts in, text out), so the suite's freshness test
//! regenerates in memory; `main.rs` reads the files and writes the result.
//! Run it from the repository root: `cargo run -p stpc-stdgen`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Where the generated file goes, relative to the repository root.
pub const OUTPUT: &str = "stdlib-contracts/lexicons.stpc";

/// Where the data files are, relative to the repository root.
pub const DATA: &str = "stdlib-contracts/data";

/// The command that regenerates, as the generated file's header names it.
pub const COMMAND: &str = "cargo run -p stpc-stdgen";

/// Every data file under `root`'s [`DATA`], as (path relative to `root`
/// with `/` separators, text), in path order (directories recursively).
///
/// # Errors
///
/// A directory or file that cannot be read.
pub fn read_data(root: &Path) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    data_files(&root.join(DATA), root, &mut out)?;
    Ok(out)
}

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

/// Languages a group may list, in output order (`any`: not one language).
pub const LANGUAGES: [&str; 6] = ["en", "de", "nl", "es", "fr", "any"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DataFile {
    name: String,
    description: String,
    source: String,
    #[serde(default)]
    group: Vec<Group>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    #[serde(default)]
    replacement: Option<String>,
    #[serde(default)]
    en: Vec<String>,
    #[serde(default)]
    de: Vec<String>,
    #[serde(default)]
    nl: Vec<String>,
    #[serde(default)]
    es: Vec<String>,
    #[serde(default)]
    fr: Vec<String>,
    #[serde(default)]
    any: Vec<String>,
}

impl Group {
    fn entries(&self) -> impl Iterator<Item = &String> {
        self.en
            .iter()
            .chain(&self.de)
            .chain(&self.nl)
            .chain(&self.es)
            .chain(&self.fr)
            .chain(&self.any)
    }
}

/// One lexicon being assembled.
#[derive(Default)]
struct Lexicon {
    descriptions: Vec<String>,
    sources: Vec<String>,
    entries: Vec<(String, Option<String>)>,
    seen: std::collections::HashSet<String>,
}

/// The generated `lexicons.stpc` from the data files, given as
/// `(path relative to the repository root, text)` in any order.
///
/// # Errors
///
/// A file that is not valid data (its path and the problem), an entry that
/// folds to nothing, or a generated text the formatter refuses.
pub fn generate(files: &[(String, String)]) -> Result<String, String> {
    let mut sorted: Vec<&(String, String)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut lexicons: BTreeMap<String, Lexicon> = BTreeMap::new();
    for (path, text) in sorted {
        let data: DataFile = toml::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        if !is_name(&data.name) {
            return Err(format!("{path}: `{}` is not a lexicon name", data.name));
        }
        let lex = lexicons.entry(data.name.clone()).or_default();
        lex.descriptions.push(data.description.trim().to_owned());
        lex.sources.push(data.source.trim().to_owned());
        for g in &data.group {
            for e in g.entries() {
                let entry = e.trim();
                let key = fold_key(entry);
                if key.is_empty() {
                    return Err(format!("{path}: the entry `{entry}` has no word"));
                }
                if lex.seen.insert(key) {
                    lex.entries.push((entry.to_owned(), g.replacement.clone()));
                }
            }
        }
    }
    let mut out = format!(
        "// @generated by `{COMMAND}` from {DATA}/*.toml — do not edit.\n\
         //\n\
         // std::lexicons — the vocabularies of the std labelers and rewrite\n\
         // transforms, one lexicon per data file. Entries are matched as words by\n\
         // `terms` rules (case and accents folded, endings accepted, `*` for\n\
         // compounds, one typo in long words) and verbatim by `lexicon` rules;\n\
         // each entry's replacement is what `replace lexicon` puts instead.\n"
    );
    for (name, lex) in &lexicons {
        out.push('\n');
        for d in lex.descriptions.iter().filter(|d| !d.is_empty()) {
            for line in wrap(d, 96) {
                out.push_str(&format!("// {line}\n"));
            }
        }
        for s in lex.sources.iter().filter(|s| !s.is_empty()) {
            for line in wrap(&format!("Source: {s}"), 96) {
                out.push_str(&format!("// {line}\n"));
            }
        }
        out.push_str(&format!("lexicon {name} {{\n"));
        for (entry, replacement) in &lex.entries {
            match replacement.as_deref().filter(|r| !r.is_empty()) {
                Some(r) => out.push_str(&format!("    {} => {},\n", quote(entry), quote(r))),
                None => out.push_str(&format!("    {},\n", quote(entry))),
            }
        }
        out.push_str("}\n");
    }
    let mut diagnostics = stpc_compiler::Diagnostics::new();
    stpc_compiler::format(stpc_compiler::FileId(0), &out, &mut diagnostics).ok_or_else(|| {
        let first = diagnostics
            .sorted()
            .first()
            .map(|d| d.message.clone())
            .unwrap_or_default();
        format!("the generated lexicons do not format: {first}")
    })
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// The key duplicates are found by: lowercase, without `*`.
fn fold_key(entry: &str) -> String {
    entry
        .trim_matches('*')
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A string literal of the language (only `"` and `\` need escaping).
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Greedy word wrap for comments.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
