//! Sample strings for a labeler's rules: strings a regular expression can
//! match (one per branch of its alternations), and strings each built-in
//! entity recogniser finds. The conformance vectors (`stpc vectors`) label
//! them to pin the runtime's labeler; the verifier labels them to write a
//! counterexample as a concrete call (`web_search(q: "…")`).
//!
//! Hand-written rather than a crate: a generator of random matches (such as
//! `rand_regex`) would give unreadable strings and no control over which
//! branch each sample covers; this walks `regex-syntax`'s HIR and picks
//! readable characters.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Sample strings per entity kind, each recognised by `runtime/src/entity.rs`
/// (and some near misses).
pub const ENTITY_SAMPLES: &[&str] = &[
    "write to jane.doe@example.com today",
    "JANE@EXAMPLE.ORG",
    "call +1 415 555 0100",
    "(415) 555-0100",
    "415.555.0100",
    "Dr. Alice Smith",
    "my name is bob",
    "Name: Carol Jones",
    "2024-03-15",
    "3/15/2024",
    "15.03.2024",
    "March 15, 2024",
    "15th of March",
    "at 14:30",
    "3pm",
    "10:15 a.m.",
    "$1,200.50",
    "40 euros",
    "€ 3.5k",
    "123-45-6789",
    "AB 12 34 56 C",
    "passport number X1234567",
    "221 Baker Street",
    "12 Main St.",
    "https://example.com/a?b=c",
    "www.example.org/page",
    "192.168.0.1",
    "2001:db8::1",
    "fe80:0:0:0:0:0:0:1",
    "999.999.999.999",
    "not an entity at all",
];

/// Characters tried first when a class needs one (readable samples).
const NICE: &[char] = &[
    'a', 'e', 'x', 'A', 'E', '0', '1', '5', ' ', '-', '.', '_', '/', ':', 'é',
];

fn class_char(c: &Class) -> Option<char> {
    match c {
        Class::Unicode(u) => {
            let ranges = u.ranges();
            NICE.iter()
                .copied()
                .chain('a'..='z')
                .chain('0'..='9')
                .find(|ch| ranges.iter().any(|r| r.start() <= *ch && *ch <= r.end()))
                .or_else(|| ranges.iter().map(|r| r.start()).find(|ch| !ch.is_control()))
        }
        Class::Bytes(b) => b
            .ranges()
            .iter()
            .map(|r| r.start())
            .find(|x| x.is_ascii() && !x.is_ascii_control())
            .map(char::from),
    }
}

/// Up to `limit` elements of `v`, evenly spaced.
#[must_use]
pub fn spread<T: Clone>(v: &[T], limit: usize) -> Vec<T> {
    if v.len() <= limit || limit == 0 {
        return v.to_vec();
    }
    (0..limit)
        .filter_map(|i| v.get(i * v.len() / limit).cloned())
        .collect()
}

/// Strings the expression can match, one per branch of its alternations
/// where the structure allows (look-arounds are ignored, so a sample may not
/// actually match: the vector records whatever the runtime says).
fn hir_samples(h: &Hir, limit: usize, depth: usize) -> Vec<String> {
    if depth > 64 {
        return vec![String::new()];
    }
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(l) => vec![String::from_utf8_lossy(&l.0).into_owned()],
        HirKind::Class(c) => class_char(c)
            .map(|c| vec![c.to_string()])
            .unwrap_or_default(),
        HirKind::Repetition(r) => {
            let subs = hir_samples(&r.sub, limit, depth + 1);
            let times = usize::try_from(r.min.clamp(1, 8)).unwrap_or(1);
            let mut out: Vec<String> = subs.iter().map(|s| s.repeat(times)).collect();
            if r.min == 0 {
                out.push(String::new());
            }
            out
        }
        HirKind::Capture(c) => hir_samples(&c.sub, limit, depth + 1),
        HirKind::Concat(parts) => {
            let parts: Vec<Vec<String>> = parts
                .iter()
                .map(|p| hir_samples(p, limit, depth + 1))
                .collect();
            if parts.iter().any(Vec::is_empty) {
                return Vec::new();
            }
            let n = parts.iter().map(Vec::len).max().unwrap_or(1).min(limit);
            (0..n)
                .map(|k| {
                    parts
                        .iter()
                        .filter_map(|p| p.get(k % p.len().max(1)).map(String::as_str))
                        .collect::<String>()
                })
                .collect()
        }
        HirKind::Alternation(alts) => {
            let all: Vec<String> = alts
                .iter()
                .flat_map(|a| hir_samples(a, limit, depth + 1))
                .collect();
            spread(&all, limit)
        }
    }
}

/// Sample strings of a Rust regex (empty when it does not parse).
#[must_use]
pub fn pattern_samples(regex: &str, limit: usize) -> Vec<String> {
    let Ok(h) = regex_syntax::ParserBuilder::new().build().parse(regex) else {
        return Vec::new();
    };
    let mut out: Vec<String> = hir_samples(&h, limit, 0)
        .into_iter()
        .filter(|s| !s.is_empty() && s.len() <= 400)
        .collect();
    out.dedup();
    spread(&out, limit)
}
