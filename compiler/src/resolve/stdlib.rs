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
/// that exists in std but is not imported.
///
/// The declarations are read once per process from the embedded files by
/// the lexical pre-pass, not the parser: a declaration is an item keyword
/// at bracket depth 0 followed by its name, and the lexer already skips
/// comments and strings, so a name in either never counts. Parsing every
/// std module (31,000 lexicon entries) cost about 0.25 s, paid by every
/// `stpc check` of a file with one unknown name; lexing costs a few
/// milliseconds. A test holds the two readings equal.
pub(crate) fn declaring(name: &str, kind: super::Kind) -> Option<&'static str> {
    static INDEX: std::sync::OnceLock<Vec<(&'static str, super::Kind, String)>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        FILES
            .iter()
            .flat_map(|(path, text)| {
                let stem = path.strip_suffix(".stpc").unwrap_or(path);
                let module = format!("std::{}", stem.replace('/', "::"));
                declarations(text)
                    .into_iter()
                    .map(move |(n, k)| (n, k, module.clone()))
            })
            .collect()
    });
    index
        .iter()
        .find(|(n, k, _)| *n == name && *k == kind)
        .map(|(_, _, m)| m.as_str())
}

/// The `(name, kind)` of every top-level declaration of `text`, by its
/// tokens (see [`declaring`]).
fn declarations(text: &str) -> Vec<(&str, super::Kind)> {
    use super::Kind;
    let lexed = crate::syntax::lex::lex(crate::FileId(u32::MAX), text);
    let word = |t: &crate::syntax::lex::Token| text.get(t.start..t.end).unwrap_or("");
    lexed
        .tokens
        .windows(2)
        .filter_map(|pair| {
            let [keyword, name] = pair else { return None };
            if keyword.depth != 0 {
                return None;
            }
            let kind = match word(keyword) {
                "lattice" => Kind::Lattice,
                "enum" => Kind::Enum,
                "observer" => Kind::Observer,
                "destination" => Kind::Destination,
                "tool" => Kind::Tool,
                "substitute" => Kind::Substitute,
                "lexicon" => Kind::Lexicon,
                "labeler" => Kind::Labeler,
                "transform" => Kind::Transform,
                "set" => Kind::Set,
                "contract" => Kind::Contract,
                _ => return None,
            };
            let n = word(name);
            let ident = n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ident.then_some((n, kind))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    /// The lexical reading of every std file finds exactly the
    /// declarations the parser finds.
    #[test]
    fn declarations_by_tokens_are_the_parsed_ones() {
        for (path, text) in super::FILES {
            let mut ignored = crate::Diagnostics::new();
            let file = crate::syntax::parse(crate::FileId(u32::MAX), text, &mut ignored)
                .unwrap_or_else(|| panic!("std file {path} parses"));
            let parsed: Vec<(&str, super::super::Kind)> = file
                .items
                .iter()
                .filter_map(|item| {
                    Some((item.name()?.name.as_str(), super::super::Kind::of(item)?))
                })
                .collect();
            assert_eq!(super::declarations(text), parsed, "{path}");
        }
    }
}
