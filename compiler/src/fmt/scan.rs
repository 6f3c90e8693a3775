//! Small lexical look-ups over source text that the AST cannot answer.
//!
//! Some statements carry no span of their own (`label public;` in a
//! destination, a test's event clauses), and no node records where a
//! block's `{` is. The formatter only needs a few positions, so it finds
//! them here: the next significant byte, and the next occurrence of a
//! punctuation byte outside strings and comments. The input has already
//! parsed, which is what makes these look-ups sufficient.

/// The first position at or after `pos` that is not whitespace or a comment.
pub(crate) fn skip_trivia(text: &str, pos: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = pos;
    loop {
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b' ' | b'\t' | b'\r' | b'\n'), _) => i += 1,
            (Some(b'/'), Some(b'/')) => i = line_end(text, i),
            (Some(b'/'), Some(b'*')) => i = block_comment_end(text, i),
            _ => return i.min(text.len()),
        }
    }
}

/// The first `target` byte at or after `pos` outside strings and comments.
pub(crate) fn find(text: &str, pos: usize, target: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = pos;
    while let Some(&b) = bytes.get(i) {
        let next = bytes.get(i + 1).copied();
        match b {
            _ if b == target => return Some(i),
            b'/' if next == Some(b'/') => i = line_end(text, i),
            b'/' if next == Some(b'*') => i = block_comment_end(text, i),
            b'"' => i = string_end(bytes, i),
            b'r' if matches!(next, Some(b'"' | b'#')) && !follows_ident(bytes, i) => {
                i = raw_string_end(text, i);
            }
            _ => i += 1,
        }
    }
    None
}

/// Whether only whitespace and comments follow `pos` up to the end of its line.
pub(crate) fn rest_of_line_is_blank(text: &str, pos: usize) -> bool {
    let bytes = text.as_bytes();
    let mut i = pos;
    loop {
        match (bytes.get(i), bytes.get(i + 1)) {
            (None, _) | (Some(b'\n'), _) | (Some(b'/'), Some(b'/')) => return true,
            (Some(b' ' | b'\t' | b'\r'), _) => i += 1,
            (Some(b'/'), Some(b'*')) => {
                let end = block_comment_end(text, i);
                if text.get(i..end).is_some_and(|c| c.contains('\n')) {
                    return true;
                }
                i = end;
            }
            _ => return false,
        }
    }
}

/// How many line breaks separate `pos` from the previous non-blank byte
/// (0 when there is none before it).
pub(crate) fn newlines_before(text: &str, pos: usize) -> usize {
    let Some(before) = text.get(..pos) else {
        return 0;
    };
    let trimmed = before.trim_end_matches([' ', '\t', '\r', '\n']);
    if trimmed.is_empty() {
        return 0;
    }
    before
        .get(trimmed.len()..)
        .map_or(0, |gap| gap.matches('\n').count())
}

/// How many line breaks separate `pos` from the next non-blank byte
/// (0 when there is none after it).
pub(crate) fn newlines_after(text: &str, pos: usize) -> usize {
    let Some(after) = text.get(pos..) else {
        return 0;
    };
    let trimmed = after.trim_start_matches([' ', '\t', '\r', '\n']);
    if trimmed.is_empty() {
        return 0;
    }
    after
        .get(..after.len() - trimmed.len())
        .map_or(0, |gap| gap.matches('\n').count())
}

fn line_end(text: &str, i: usize) -> usize {
    text.get(i..)
        .and_then(|s| s.find('\n'))
        .map_or(text.len(), |n| i + n)
}

fn block_comment_end(text: &str, i: usize) -> usize {
    text.get(i + 2..)
        .and_then(|s| s.find("*/"))
        .map_or(text.len(), |n| i + 2 + n + 2)
}

fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' | b'\n' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn raw_string_end(text: &str, start: usize) -> usize {
    let hashes = text
        .get(start + 1..)
        .map_or(0, |s| s.bytes().take_while(|&b| b == b'#').count());
    let body = start + 1 + hashes + 1;
    let closer = format!("\"{}", "#".repeat(hashes));
    text.get(body..)
        .and_then(|s| s.find(&closer))
        .map_or(start + 1, |n| body + n + closer.len())
}

fn follows_ident(bytes: &[u8], i: usize) -> bool {
    i.checked_sub(1)
        .and_then(|p| bytes.get(p))
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}
