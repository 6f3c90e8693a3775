//! Documents as the editor holds them, and the two ways of counting columns.
//!
//! LSP positions are (line, character) where "character" counts UTF-16 code
//! units unless the client agreed to UTF-8 bytes; the compiler counts bytes.
//! Every conversion here is total: a position past the end of a line or the
//! document, or one that falls inside a multi-unit character (as a hostile or
//! confused client may send), is clamped to the nearest character boundary
//! before it, never a panic and never a split character.

use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

/// How the client counts characters within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (the protocol's default).
    Utf16,
    /// UTF-8 bytes (negotiated with `positionEncoding`).
    Utf8,
}

/// One open document: its text and where each line starts.
#[derive(Clone, Debug)]
pub struct Document {
    text: String,
    line_starts: Vec<usize>,
    /// The version the client last sent.
    pub version: i32,
}

impl Document {
    /// A document with this text.
    pub fn new(text: String, version: i32) -> Document {
        let line_starts = line_starts(&text);
        Document {
            text,
            line_starts,
            version,
        }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Applies one change: a whole new text, or a range replaced. A range is
    /// clamped into the document first.
    pub fn apply(&mut self, change: TextDocumentContentChangeEvent, encoding: Encoding) {
        match change.range {
            None => self.text = change.text,
            Some(range) => {
                let start = self.offset(range.start, encoding);
                let end = self.offset(range.end, encoding).max(start);
                self.text.replace_range(start..end, &change.text);
            }
        }
        self.line_starts = line_starts(&self.text);
    }

    /// The byte offset of a position, clamped to a character boundary.
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len();
        };
        let end = self
            .line_starts
            .get(position.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text.get(start..end).unwrap_or("");
        let want = position.character as usize;
        let mut units = 0;
        for (i, ch) in line.char_indices() {
            if ch == '\n' || ch == '\r' || units >= want {
                return start + i;
            }
            units += match encoding {
                Encoding::Utf16 => ch.len_utf16(),
                Encoding::Utf8 => ch.len_utf8(),
            };
            if units > want {
                // Inside this character: the boundary before it.
                return start + i;
            }
        }
        end
    }

    /// The position of a byte offset (clamped to the text and to a boundary).
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let prefix = self.text.get(start..offset).unwrap_or("");
        let character = match encoding {
            Encoding::Utf16 => prefix.encode_utf16().count(),
            Encoding::Utf8 => prefix.len(),
        };
        Position::new(
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(character).unwrap_or(u32::MAX),
        )
    }

    /// The range of a byte span.
    pub fn range(&self, start: usize, end: usize, encoding: Encoding) -> Range {
        Range::new(
            self.position(start, encoding),
            self.position(end.max(start), encoding),
        )
    }

    /// The identifier (`[A-Za-z_][A-Za-z0-9_]*`) touching a byte offset, with
    /// its start: what hover, definition and completion look at.
    pub fn word_at(&self, offset: usize) -> Option<(usize, &str)> {
        let bytes = self.text.as_bytes();
        let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let offset = offset.min(bytes.len());
        let mut start = offset;
        while start > 0 && bytes.get(start - 1).copied().is_some_and(is_ident) {
            start -= 1;
        }
        let mut end = offset;
        while bytes.get(end).copied().is_some_and(is_ident) {
            end += 1;
        }
        let word = self.text.get(start..end)?;
        (!word.is_empty() && !word.as_bytes().first().is_some_and(u8::is_ascii_digit))
            .then_some((start, word))
    }
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(range: Option<Range>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_and_clamp_inside_them() {
        let doc = Document::new("a😀b\nçx\n".to_owned(), 0);
        // 😀 is two UTF-16 units and four bytes.
        assert_eq!(doc.offset(Position::new(0, 3), Encoding::Utf16), 5);
        // Inside the pair: the boundary before the emoji.
        assert_eq!(doc.offset(Position::new(0, 2), Encoding::Utf16), 1);
        assert_eq!(doc.position(5, Encoding::Utf16), Position::new(0, 3));
        assert_eq!(doc.position(3, Encoding::Utf16), Position::new(0, 1));
        assert_eq!(doc.offset(Position::new(1, 1), Encoding::Utf16), 9);
        // One byte into `ç` in UTF-8: the boundary before it.
        assert_eq!(doc.offset(Position::new(1, 1), Encoding::Utf8), 7);
        // Past the line: its end; past the document: the end.
        assert_eq!(doc.offset(Position::new(0, 99), Encoding::Utf16), 6);
        assert_eq!(doc.offset(Position::new(9, 0), Encoding::Utf16), 11);
    }

    #[test]
    fn hostile_ranges_edit_within_the_document() {
        let mut doc = Document::new("héllo\nworld".to_owned(), 0);
        // Backwards and out-of-range edits are clamped, never a panic.
        let backwards = Range::new(Position::new(1, 3), Position::new(0, 1));
        doc.apply(change(Some(backwards), "X"), Encoding::Utf8);
        assert!(doc.text().starts_with('h'));
        let far = Range::new(Position::new(40, 0), Position::new(90, 7));
        doc.apply(change(Some(far), "!"), Encoding::Utf16);
        assert!(doc.text().ends_with('!'));
        // A range in the middle of `é` in UTF-8 bytes.
        let mut doc = Document::new("héllo".to_owned(), 0);
        let mid = Range::new(Position::new(0, 2), Position::new(0, 3));
        doc.apply(change(Some(mid), ""), Encoding::Utf8);
        assert_eq!(doc.text(), "hllo");
    }

    #[test]
    fn words_are_identifiers_under_the_cursor() {
        let doc = Document::new("forbid args >= sensitive;".to_owned(), 0);
        assert_eq!(doc.word_at(17), Some((15, "sensitive")));
        assert_eq!(doc.word_at(15), Some((15, "sensitive")));
        assert_eq!(doc.word_at(24), Some((15, "sensitive")));
        assert_eq!(doc.word_at(13), None);
    }
}
