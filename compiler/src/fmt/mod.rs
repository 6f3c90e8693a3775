//! Formatting: source text to the one canonical layout, comments kept.
//!
//! ```text
//! text ──syntax::parse──▶ ast::File ──layout::lines──▶ lines (printer text + source ranges)
//!      ──trivia::comments──▶ comments ──comments::render──▶ formatted text
//!                                                  │
//!            safety net: parse the output again ◀──┘  same AST? same comments?
//! ```
//!
//! **Layout.** There is exactly one layout, the canonical printer's
//! ([`crate::syntax::print`], whose module docs state the rules: 4-space
//! indentation, 100 columns, hanging-indent name lists, filled lexicon
//! rows, rules broken before `when`); there are no options. The formatter
//! does not print anything itself: it asks the printer for each item's
//! *units* (a statement, header, closing brace or row, possibly over
//! several lines) and pairs them with the source they came from
//! ([`layout`]), so a file with no comments formats to exactly
//! `print(parse(text))`, and a change to the printer is a change to
//! `stpc fmt`.
//!
//! **Comments.** The grammar skips comments; [`crate::syntax::trivia`]
//! finds them again with their spans, and [`comments`] attaches each to
//! the unit it precedes or ends (see there for the rules). No comment is
//! ever dropped: one that cannot stay where it was, such as a comment in the
//! middle of a statement, moves to its own line above that statement. The
//! one place where comments shape the layout is a braced list (enum,
//! channels, lattice, lexicon): a comment between its braces makes it a
//! block and starts a new row at the entry after the comment, so a
//! comment heading a group of lexicon entries stays with that group
//! (rustfmt does the same for a list with comments).
//!
//! **Safety net** (Cedar's formatter does the same). Before returning, the
//! output is parsed again; if its AST differs from the input's, or the
//! multiset of comment texts differs, formatting is refused with an
//! internal error (`E0900`) and the caller writes nothing. Idempotence
//! (`format(format(x)) == format(x)`) is a tested property rather than a
//! run-time check.
//!
//! Alternatives rejected: a general document-algebra pretty printer
//! (Wadler/Gleam style) would be a second layout to keep in step with the
//! printer; the printer's few width decisions (fill a list, break a rule
//! before `when`, one `call` argument per line) are direct code instead.
//! Re-lexing the source and re-indenting tokens would keep user layout
//! that the canonical printer deliberately normalises.

mod comments;
mod layout;
mod scan;
#[cfg(test)]
mod tests;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::source::{FileId, Span};
use crate::syntax::{self, ast, trivia};

/// Formats one file's text.
///
/// Returns the formatted text, or `None` when the file has syntax errors
/// (reported into `diagnostics`) or the safety net refused the result
/// (reported as an internal error, `E0900`).
pub fn format(file: FileId, text: &str, diagnostics: &mut Diagnostics) -> Option<String> {
    let mut ast = syntax::parse(file, text, diagnostics)?;
    // Deprecated spellings are written the one way the language keeps.
    syntax::modernize::modernize(&mut ast);
    let comments = trivia::comments(file, text);
    let lines = match layout::lines(&ast, text, &comments) {
        Ok(lines) => lines,
        Err(e) => {
            diagnostics.push(Diagnostic::internal(
                e.span,
                format!("cannot format: {}", e.what),
            ));
            return None;
        }
    };
    let output = comments::render(&lines, &comments, text);
    match verify(file, &ast, &comments, &output) {
        Ok(()) => Some(output),
        Err(problem) => {
            diagnostics.push(*problem);
            None
        }
    }
}

/// Parses the output again and compares it with the input.
fn verify(
    file: FileId,
    before: &ast::File,
    comments: &[syntax::Comment],
    output: &str,
) -> Result<(), Box<Diagnostic>> {
    let at_start = Span::new(file, 0, 0);
    let mut scratch = Diagnostics::new();
    let Some(after) = syntax::parse(file, output, &mut scratch) else {
        return Err(Box::new(
            Diagnostic::internal(at_start, "the formatted text does not parse")
                .note("the file was left unchanged"),
        ));
    };
    if &after != before {
        let span = first_difference(before, &after).unwrap_or(at_start);
        return Err(Box::new(
            Diagnostic::internal(span, "formatting would change this declaration")
                .note("the file was left unchanged"),
        ));
    }
    let mut expected: Vec<&str> = comments.iter().map(|c| c.text.as_str()).collect();
    let found_comments = trivia::comments(file, output);
    let mut found: Vec<&str> = found_comments.iter().map(|c| c.text.as_str()).collect();
    expected.sort_unstable();
    found.sort_unstable();
    if expected != found {
        let lost = comments
            .iter()
            .find(|c| !found.contains(&c.text.as_str()))
            .map_or(at_start, |c| c.span);
        return Err(Box::new(
            Diagnostic::internal(lost, "formatting would lose or duplicate a comment")
                .note("the file was left unchanged"),
        ));
    }
    Ok(())
}

/// The span of the first input item that differs after formatting.
fn first_difference(before: &ast::File, after: &ast::File) -> Option<Span> {
    before
        .items
        .iter()
        .zip(after.items.iter().map(Some).chain(std::iter::repeat(None)))
        .find(|(b, a)| Some(*b) != *a)
        .map(|(b, _)| b.loc().span())
}
