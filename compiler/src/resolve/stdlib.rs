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
