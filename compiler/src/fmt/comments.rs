//! Putting comments back: attach each one to a unit of the layout, then
//! render the layout with them.
//!
//! A unit is what [`super::layout`] pairs with a source range: a
//! statement (possibly printed over several lines), a block header, a
//! closing `}` or a row of a braced list. Each comment from
//! [`crate::syntax::trivia`] is attached by position (Gleam's `extra.rs`
//! approach), in this order of preference:
//!
//! 1. **Inside a unit's source** (between a statement's first and last
//!    byte, or in a block header before its `{`): the printer lays the
//!    unit out by itself, so there is no place for the comment inside it.
//!    It becomes a leading comment of that unit, on its own line above it.
//! 2. **At the end of a source line, after a unit's code**
//!    (`tools a; // why`): a trailing comment of the last unit that
//!    started before it, kept at the end of that unit's last line.
//! 3. **Otherwise** (on its own line, or followed by more code on its
//!    line): a leading comment of the next unit, indented like it; before
//!    a block's `}` it is indented one level deeper, as the block's last
//!    content. Comments after the last item stay at the end of the file.
//!
//! A blank line that separated an own-line comment from what came before
//! or after it is kept (at most one), except directly after a `{` or
//! before a `}`, so a comment heading a group of statements still heads
//! it. Every other blank line is the printer's.

use super::layout::{Kind, Line};
use super::scan;
use crate::syntax::Comment;

/// One comment, ready to be printed.
#[derive(Clone, Debug)]
struct Placed {
    text: String,
    /// A blank line before it in the source (own-line comments only).
    blank_before: bool,
    /// A blank line after it in the source (own-line comments only).
    blank_after: bool,
}

/// The comments attached to one line.
#[derive(Clone, Debug, Default)]
struct Attached {
    leading: Vec<Placed>,
    trailing: Vec<Placed>,
}

/// Renders the layout with every comment in `comments` placed.
pub(crate) fn render(lines: &[Line], comments: &[Comment], text: &str) -> String {
    let mut attached = vec![Attached::default(); lines.len()];
    let mut at_end = Vec::new();
    // Lines with a source range, by start (the layout is in source order).
    let ranged: Vec<(usize, usize, usize)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| l.range.map(|(s, e)| (s, e, i)))
        .collect();
    for c in comments {
        let (start, end) = (c.span.start as usize, c.span.end as usize);
        let own_line = Placed {
            text: c.text.clone(),
            blank_before: scan::newlines_before(text, start) >= 2,
            blank_after: scan::newlines_after(text, end) >= 2,
        };
        let moved = Placed {
            text: c.text.clone(),
            blank_before: false,
            blank_after: false,
        };
        let before = ranged.iter().rev().find(|(s, _, _)| *s <= start);
        let after = ranged.iter().find(|(s, _, _)| *s >= end);
        match before {
            // 1. Inside a line's source.
            Some(&(_, e, i)) if start < e => push_leading(&mut attached, i, moved),
            // 2. At the end of a source line, after code.
            Some(&(_, _, i))
                if c.trailing
                    && scan::rest_of_line_is_blank(text, end)
                    && !ends_in_line_comment(&attached, i) =>
            {
                if let Some(a) = attached.get_mut(i) {
                    a.trailing.push(moved);
                }
            }
            // 3. Before the next line, or at the end of the file.
            _ => {
                let placed = if c.trailing { moved } else { own_line };
                match after {
                    Some(&(_, _, i)) => push_leading(&mut attached, i, placed),
                    None => at_end.push(placed),
                }
            }
        }
    }
    let mut out = Output::default();
    for (line, a) in lines.iter().zip(&attached) {
        if line.kind == Kind::Blank {
            out.blank();
            continue;
        }
        let indent = line.indent() + if line.kind == Kind::Close { 4 } else { 0 };
        out.comments(&a.leading, indent, line.kind != Kind::Close);
        let mut text = line.text.clone();
        for t in &a.trailing {
            text.push(' ');
            text.push_str(&t.text);
        }
        out.line(text, line.kind);
    }
    out.comments(&at_end, 0, false);
    out.finish()
}

fn push_leading(attached: &mut [Attached], i: usize, placed: Placed) {
    if let Some(a) = attached.get_mut(i) {
        a.leading.push(placed);
    }
}

/// Whether the line already ends in a `//` comment, after which nothing
/// more can go on the line.
fn ends_in_line_comment(attached: &[Attached], i: usize) -> bool {
    attached
        .get(i)
        .and_then(|a| a.trailing.last())
        .is_some_and(|t| t.text.starts_with("//"))
}

/// The text being built, and what its last line was.
#[derive(Default)]
struct Output {
    text: String,
    last: Option<Kind>,
}

impl Output {
    /// A blank line, unless at the start, after a blank line or after `{`.
    fn blank(&mut self) {
        if matches!(self.last, Some(Kind::Leaf | Kind::Close)) {
            self.text.push('\n');
            self.last = Some(Kind::Blank);
        }
    }

    fn line(&mut self, text: String, kind: Kind) {
        self.text.push_str(&text);
        self.text.push('\n');
        self.last = Some(kind);
    }

    /// Own-line comments at `indent`; `blank_after_allowed` is false
    /// before a `}` and at the end of the file.
    fn comments(&mut self, comments: &[Placed], indent: usize, blank_after_allowed: bool) {
        for c in comments {
            if c.blank_before {
                self.blank();
            }
            self.line(format!("{}{}", " ".repeat(indent), c.text), Kind::Leaf);
        }
        if blank_after_allowed && comments.last().is_some_and(|c| c.blank_after) {
            self.blank();
        }
    }

    fn finish(self) -> String {
        self.text
    }
}
