//! The standard library, embedded at build time by `build.rs`.

include!(concat!(env!("OUT_DIR"), "/stdlib.rs"));

/// The prefix of every std module's file name in the source map.
pub(crate) const PREFIX: &str = "<std>/";

/// The text of a std file by its name in the source map (`<std>/labels.stpc`).
pub(crate) fn get(name: &str) -> Option<&'static str> {
    let rel = name.strip_prefix(PREFIX)?;
    FILES.iter().find(|(p, _)| *p == rel).map(|(_, t)| *t)
}

/// Every std module path, such as `std::policies::paper`.
pub(crate) fn module_paths() -> impl Iterator<Item = String> {
    FILES.iter().map(|(p, _)| {
        let stem = p.strip_suffix(".stpc").unwrap_or(p);
        format!("std::{}", stem.replace('/', "::"))
    })
}

/// Every embedded std file: (path relative to `stdlib-contracts/`, text).
pub(crate) fn files() -> &'static [(&'static str, &'static str)] {
    FILES
}

/// The std module that declares `name` as a `kind`, such as
/// `std::tools` for the tool `web_search`: the hint of `E0201` for a name
/// that exists in std but is not imported. The declarations are read once
/// per process from the embedded files (parsed, not scanned as text, so a
/// name in a comment or a string never counts).
pub(crate) fn declaring(name: &str, kind: super::Kind) -> Option<&'static str> {
    static INDEX: std::sync::OnceLock<Vec<(String, super::Kind, String)>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut out = Vec::new();
        for (path, text) in FILES {
            let mut ignored = crate::Diagnostics::new();
            let Some(file) = crate::syntax::parse(crate::FileId(u32::MAX), text, &mut ignored)
            else {
                continue;
            };
            let stem = path.strip_suffix(".stpc").unwrap_or(path);
            let module = format!("std::{}", stem.replace('/', "::"));
            for item in &file.items {
                if let (Some(kind), Some(ident)) = (super::Kind::of(item), item.name()) {
                    out.push((ident.name.clone(), kind, module.clone()));
                }
            }
        }
        out
    });
    index
        .iter()
        .find(|(n, k, _)| n == name && *k == kind)
        .map(|(_, _, m)| m.as_str())
}
