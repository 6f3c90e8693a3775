//! Source files, spans and the source map.
//!
//! Every AST node carries a [`Span`]: a file id plus a byte range, `Copy`, no
//! borrowed text (Gleam's `SrcSpan`, Nickel's `RawSpan`). The [`SourceMap`]
//! owns the names and texts of every file the compiler has seen, including
//! imported `std` modules, and is the only thing renderers read. Diagnostics
//! may therefore point into several files at once.
//!
//! AST nodes hold a [`Loc`], a span that never takes part in equality or
//! hashing, so two parses of the same text that differ only in layout compare
//! equal and the print-parse round trip is a single `assert_eq`.

use std::fmt;
use std::ops::Range;

/// Identifies one file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets; offsets beyond `u32::MAX` saturate.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span {
            file,
            start: clamp(start),
            end: clamp(end.max(start)),
        }
    }

    /// The byte range as `usize`s.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The smallest span covering both `self` and `other` (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// A copy shifted right by `offset` bytes.
    pub fn shifted(self, offset: u32) -> Span {
        Span {
            file: self.file,
            start: self.start.saturating_add(offset),
            end: self.end.saturating_add(offset),
        }
    }
}

/// A span stored in an AST node: `Copy`, and invisible to `==` and `Hash`.
#[derive(Clone, Copy, Default)]
pub struct Loc(pub Span);

impl Loc {
    /// The span.
    pub fn span(self) -> Span {
        self.0
    }
}

impl PartialEq for Loc {
    fn eq(&self, _: &Loc) -> bool {
        // INVARIANT: locations never distinguish nodes; see the module doc.
        true
    }
}

impl Eq for Loc {}

impl std::hash::Hash for Loc {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl fmt::Debug for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}..{}", self.0.start, self.0.end)
    }
}

impl From<Span> for Loc {
    fn from(span: Span) -> Loc {
        Loc(span)
    }
}

/// One file's name, text and line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl SourceFile {
    /// The display name (a path relative to where the user ran `stpc`, or `<stdin>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The full text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text a span covers, or `""` when the span is out of range.
    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    /// The byte range of a 0-based line (its newline included), or `None`
    /// past the last line.
    pub fn line_range(&self, line_index: usize) -> Option<Range<usize>> {
        let start = *self.line_starts.get(line_index)?;
        let end = self
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(self.text.len());
        Some(start..end)
    }

    /// How many lines the file has.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
    }
}

/// Owns every source text the compiler has read.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        self.files.push(SourceFile {
            name: name.into(),
            text,
            line_starts,
        });
        id
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    /// The id of the file with this name, if it was added.
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .and_then(|i| u32::try_from(i).ok())
            .map(FileId)
    }

    /// Every file with its id, in the order added.
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        (0u32..).zip(&self.files).map(|(i, f)| (FileId(i), f))
    }

    /// The text a span covers, or `""`.
    pub fn slice(&self, span: Span) -> &str {
        self.get(span.file).map_or("", |f| f.slice(span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let mut map = SourceMap::new();
        let id = map.add("a.stpc", "ab\nçd\n");
        let file = map.get(id).unwrap();
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(3), (2, 1));
        assert_eq!(file.line_col(5), (2, 2));
        assert_eq!(file.line_col(100), (3, 1));
    }

    #[test]
    fn locs_never_distinguish_nodes() {
        let a = Loc(Span::new(FileId(0), 1, 2));
        let b = Loc(Span::new(FileId(3), 5, 9));
        assert_eq!(a, b);
        assert_ne!(a.span(), b.span());
    }
}
