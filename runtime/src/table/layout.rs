//! The layout check of [`super::Table::from_json`]: the bytes of a table
//! file must be exactly its canonical encoding, compact or pretty, so that
//! no byte of a file is insignificant.
//!
//! The check compares the file with the compact encoding that the digest
//! is computed over anyway, instead of serialising the table a second time
//! in each layout: in a compact file every byte must agree; in a pretty
//! file every byte outside whitespace must agree, and the whitespace must
//! be exactly where `serde_json`'s pretty printer (two-space indent) puts
//! it. Inside strings, whitespace is content and is compared like any byte.
//!
//! Written by hand because it is the layout rule itself (a JSON
//! minifier would accept any whitespace): what a pretty file may hold
//! between two tokens is one of four things, each fixed by the depth.

/// Whether `file` (without a trailing newline) is `compact`, the compact
/// encoding of a table, in the compact or the pretty layout.
pub(crate) fn matches(file: &[u8], compact: &[u8]) -> bool {
    file == compact || pretty(file, compact)
}

/// Whether `file` is the pretty layout of `compact`.
fn pretty(file: &[u8], compact: &[u8]) -> bool {
    let mut i = 0usize; // in `file`
    let mut j = 0usize; // in `compact`
    let mut depth = 0usize;
    // Whether the last token opened a container (so `]`/`}` may follow
    // with no whitespace: an empty container).
    let mut opened = false;
    while let Some(&c) = compact.get(j) {
        match c {
            b'"' => {
                let Some(end) = string_end(compact, j) else {
                    return false;
                };
                if file.get(i..i + (end - j)) != compact.get(j..end) {
                    return false;
                }
                i += end - j;
                j = end;
                opened = false;
                continue;
            }
            b'{' | b'[' => {
                if file.get(i) != Some(&c) {
                    return false;
                }
                i += 1;
                j += 1;
                depth += 1;
                opened = true;
                // A non-empty container breaks the line before its first
                // element.
                if !matches!(compact.get(j), Some(b'}' | b']')) && !newline(file, &mut i, depth) {
                    return false;
                }
                continue;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if !opened && !newline(file, &mut i, depth) {
                    return false;
                }
                if file.get(i) != Some(&c) {
                    return false;
                }
                opened = false;
            }
            b',' => {
                if file.get(i) != Some(&b',') {
                    return false;
                }
                i += 1;
                j += 1;
                if !newline(file, &mut i, depth) {
                    return false;
                }
                continue;
            }
            b':' => {
                if file.get(i..i + 2) != Some(b": ") {
                    return false;
                }
                i += 2;
                j += 1;
                continue;
            }
            _ => {
                if file.get(i) != Some(&c) {
                    return false;
                }
                opened = false;
            }
        }
        i += 1;
        j += 1;
    }
    i == file.len()
}

/// Consumes a newline and `depth` two-space indents at `file[*i..]`.
fn newline(file: &[u8], i: &mut usize, depth: usize) -> bool {
    if file.get(*i) != Some(&b'\n') {
        return false;
    }
    let start = *i + 1;
    let end = start + 2 * depth;
    match file.get(start..end) {
        Some(indent) if indent.iter().all(|&b| b == b' ') => {
            *i = end;
            true
        }
        _ => false,
    }
}

/// The index just past the string that starts at `s[at]` (a `"`).
fn string_end(s: &[u8], at: usize) -> Option<usize> {
    let mut k = at + 1;
    loop {
        let rest = s.get(k..)?;
        let off = memchr::memchr2(b'"', b'\\', rest)?;
        k += off;
        match s.get(k)? {
            b'\\' => k += 2,
            _ => return Some(k + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]

    use super::matches;
    use proptest::prelude::*;
    use serde_json::{json, Value};

    fn both(v: &Value) -> (Vec<u8>, Vec<u8>) {
        (
            serde_json::to_vec(v).unwrap(),
            serde_json::to_vec_pretty(v).unwrap(),
        )
    }

    #[test]
    fn both_layouts_match_and_nothing_else_does() {
        let v = json!({"a": [], "b": {}, "c": [1, {"d": "x, y: {z}"}], "e": "q\"\\ ", "f": [[]]});
        let (compact, pretty) = both(&v);
        assert!(matches(&compact, &compact));
        assert!(matches(&pretty, &compact));
        // One byte of whitespace more or less anywhere is refused.
        for k in 0..pretty.len() {
            let mut fewer = pretty.clone();
            let removed = fewer.remove(k);
            if removed.is_ascii_whitespace() {
                assert!(!matches(&fewer, &compact), "removed byte {k}");
            }
            let mut more = pretty.clone();
            more.insert(k, b' ');
            let inside_string = !matches(&more, &compact);
            assert!(inside_string, "inserted a space at {k}");
        }
        // A tab for an indent, a CRLF, a four-space indent.
        let s = String::from_utf8(pretty.clone()).unwrap();
        for bad in [
            s.replacen("  ", "\t", 1),
            s.replacen('\n', "\r\n", 1),
            s.replace("\n  ", "\n    "),
        ] {
            assert!(!matches(bad.as_bytes(), &compact));
        }
    }

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            any::<bool>().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            "[ a-z\"\\\\:,{}\\[\\]\n]{0,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 32, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map("[a-z ]{0,3}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The check agrees with serialising in each layout and comparing.
        #[test]
        fn agrees_with_reserialising(v in value(), cut in any::<usize>(), byte in any::<u8>()) {
            let (compact, pretty) = both(&v);
            prop_assert!(matches(&pretty, &compact));
            let mut edited = pretty.clone();
            if !edited.is_empty() {
                let k = cut % edited.len();
                if let Some(b) = edited.get_mut(k) {
                    *b = byte;
                }
            }
            let expected = edited == compact || edited == pretty;
            prop_assert_eq!(matches(&edited, &compact), expected);
        }
    }
}
