//! The canonical layout as a list of lines, each tied to the source it prints.
//!
//! The text of every line comes from the canonical printer
//! ([`crate::syntax::print`]): each item is printed with `print_item` and
//! split into lines. This module only knows the printer's *line structure*
//! (a block is a header line, one line per statement, and a closing `}`;
//! a contract puts a blank line around `decide` and `test` blocks) and
//! pairs each printed line with the byte range of the source it came from.
//! The blank lines between items are read off `print` itself. If the
//! printer's structure ever drifts from this description, the line counts
//! disagree and formatting stops with an internal error instead of
//! misplacing comments.

use super::scan;
use crate::source::{Loc, Span};
use crate::syntax::ast::*;
use crate::syntax::print;

/// What a line is, for placing comments around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An empty line the printer puts between items and around blocks.
    Blank,
    /// A block's first line, ending in `{`.
    Open,
    /// A complete statement or item.
    Leaf,
    /// A block's closing `}`.
    Close,
}

/// One line of the canonical layout.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    /// The printed text, indentation included, no newline.
    pub(crate) text: String,
    /// What the line is.
    pub(crate) kind: Kind,
    /// The source bytes it prints (`None` for blank lines).
    pub(crate) range: Option<(usize, usize)>,
}

impl Line {
    /// The indentation of the line's text, in spaces.
    pub(crate) fn indent(&self) -> usize {
        self.text.len() - self.text.trim_start_matches(' ').len()
    }
}

/// The layout could not be built: an AST shape this module does not expect.
#[derive(Debug)]
pub(crate) struct LayoutError {
    /// Where.
    pub(crate) span: Span,
    /// What went wrong.
    pub(crate) what: String,
}

type Result<T> = std::result::Result<T, LayoutError>;

/// A printed line's kind and source range, before its text is known.
type Slot = (Kind, Option<(usize, usize)>);

/// Lays out a whole file. The separators between items (blank lines) are
/// taken from [`print::print`] itself, so they follow the printer too.
pub(crate) fn lines(file: &File, text: &str) -> Result<Vec<Line>> {
    let whole = print::print(file);
    let mut rest = whole.as_str();
    let mut out = Vec::new();
    for item in &file.items {
        let drift = || LayoutError {
            span: item.loc().span(),
            what: "the printer's output for the file does not consist of its items' outputs"
                .to_string(),
        };
        let separator = rest.len() - rest.trim_start_matches('\n').len();
        for _ in 0..separator {
            out.push(Line {
                text: String::new(),
                kind: Kind::Blank,
                range: None,
            });
        }
        let printed = print::print_item(item);
        rest = rest
            .get(separator..)
            .and_then(|r| r.strip_prefix(printed.as_str()))
            .ok_or_else(drift)?;
        let slots = Slots::new(text).item(item)?;
        let printed: Vec<&str> = printed.lines().collect();
        if printed.len() != slots.len() {
            return Err(LayoutError {
                span: item.loc().span(),
                what: format!(
                    "the printer wrote {} lines for this item where the formatter expected {}",
                    printed.len(),
                    slots.len()
                ),
            });
        }
        for ((kind, range), line) in slots.into_iter().zip(printed) {
            if (kind == Kind::Blank) != line.trim().is_empty() {
                return Err(LayoutError {
                    span: item.loc().span(),
                    what: "the printer's blank lines differ from the formatter's".to_string(),
                });
            }
            out.push(Line {
                text: line.to_string(),
                kind,
                range,
            });
        }
    }
    Ok(out)
}

fn range(loc: Loc) -> (usize, usize) {
    let s = loc.span();
    (s.start as usize, s.end as usize)
}

fn end(loc: Loc) -> usize {
    loc.span().end as usize
}

/// Collects the slots of one item.
struct Slots<'t> {
    text: &'t str,
    out: Vec<Slot>,
}

impl<'t> Slots<'t> {
    fn new(text: &'t str) -> Slots<'t> {
        Slots {
            text,
            out: Vec::new(),
        }
    }

    fn item(mut self, item: &Item) -> Result<Vec<Slot>> {
        match item {
            Item::Use(_) | Item::Enum(_) | Item::Channels(_) | Item::Observer(_) => {
                self.leaf(range(item.loc()));
            }
            Item::Lattice(l) if l.chains.len() <= 1 => self.leaf(range(l.loc)),
            Item::Lattice(l) => {
                self.open(l.loc, end(l.name.loc))?;
                for c in &l.chains {
                    match (c.labels.first(), c.labels.last()) {
                        (Some(a), Some(b)) => self.leaf((range(a.loc).0, end(b.loc))),
                        _ => return Err(self.error(l.loc, "a lattice chain with no labels")),
                    }
                }
                self.close(l.loc);
            }
            Item::Destination(d) => {
                let mut at = self.open(d.loc, end(d.name.loc))?;
                for _ in &d.stmts {
                    at = self.until(d.loc, at, b';')?;
                }
                self.close(d.loc);
            }
            Item::Tool(t) => {
                let mut at = self.open(t.loc, end(t.name.loc))?;
                for s in &t.stmts {
                    let terminator = if matches!(s, ToolStmt::Args(_)) {
                        b'}'
                    } else {
                        b';'
                    };
                    at = self.until(t.loc, at, terminator)?;
                }
                self.close(t.loc);
            }
            Item::Substitute(s) => {
                let mut at = self.open(s.loc, end(s.tool.loc))?;
                for st in &s.stmts {
                    at = match st {
                        SubstituteStmt::ObservedBy(_) => self.until(s.loc, at, b';')?,
                        SubstituteStmt::OnPromote(_, loc) => {
                            self.leaf(range(*loc));
                            end(*loc)
                        }
                    };
                }
                self.close(s.loc);
            }
            Item::Lexicon(l) if l.entries.is_empty() => self.leaf(range(l.loc)),
            Item::Lexicon(l) => {
                self.open(l.loc, end(l.name.loc))?;
                for e in &l.entries {
                    let last = e.replacement.as_ref().unwrap_or(&e.phrase);
                    self.leaf((range(e.phrase.loc).0, end(last.loc)));
                }
                self.close(l.loc);
            }
            Item::Labeler(l) => {
                self.open(l.loc, end(l.name.loc))?;
                for r in &l.rules {
                    self.leaf(range(label_rule_loc(r)));
                }
                self.close(l.loc);
            }
            Item::Transform(t) => {
                self.open(t.loc, end(t.output.loc))?;
                for s in &t.steps {
                    self.leaf(range(step_loc(s)));
                }
                self.close(t.loc);
            }
            Item::Contract(c) => self.contract(c)?,
        }
        Ok(self.out)
    }

    fn contract(&mut self, c: &Contract) -> Result<()> {
        self.open(c.loc, end(c.name.loc))?;
        let mut prev_block = false;
        for (i, s) in c.stmts.iter().enumerate() {
            let block = matches!(s, ContractStmt::Decide(_) | ContractStmt::Test(_));
            if i > 0 && (block || prev_block) {
                self.out.push((Kind::Blank, None));
            }
            prev_block = block;
            match s {
                ContractStmt::Tools(_, loc) | ContractStmt::Destinations(_, loc) => {
                    self.leaf(range(*loc));
                }
                ContractStmt::Forbid(f) => self.leaf(range(f.loc)),
                ContractStmt::Threshold(t) => self.leaf(range(t.loc)),
                ContractStmt::Budget(b) => self.leaf(range(b.loc)),
                ContractStmt::Audit(a) => self.leaf(range(a.loc)),
                ContractStmt::Decide(d) => {
                    self.open(d.loc, range(d.loc).0)?;
                    for r in &d.rules {
                        self.leaf(range(r.loc));
                    }
                    self.close(d.loc);
                }
                ContractStmt::Test(t) => self.test(t)?,
            }
        }
        self.close(c.loc);
        Ok(())
    }

    /// `test "name" {`, the `call` line, one line per event clause, the
    /// `expect` line and `}`.
    fn test(&mut self, t: &Test) -> Result<()> {
        let mut at = self.open(t.loc, end(t.name.loc))?;
        at = self.until(t.loc, at, b')')?;
        for c in &t.clauses {
            let start = scan::skip_trivia(self.text, at);
            at = match c {
                EventClause::ToName(i) | EventClause::Mode(i, _) | EventClause::After(_, i) => {
                    end(i.loc)
                }
                EventClause::ToAddress(s) | EventClause::Branch(s) => end(s.loc),
                EventClause::Confidence(n) => end(n.loc),
                EventClause::Labels(_) => self.find(t.loc, start, b'}')? + 1,
            };
            self.out.push((Kind::Leaf, Some((start, at))));
        }
        self.until(t.loc, at, b';')?;
        self.close(t.loc);
        Ok(())
    }

    fn error(&self, loc: Loc, what: &str) -> LayoutError {
        LayoutError {
            span: loc.span(),
            what: what.to_string(),
        }
    }

    fn find(&self, within: Loc, from: usize, byte: u8) -> Result<usize> {
        scan::find(self.text, from, byte)
            .filter(|&p| p < end(within))
            .ok_or_else(|| {
                self.error(
                    within,
                    &format!(
                        "no `{}` where the parsed tree says there is one",
                        char::from(byte)
                    ),
                )
            })
    }

    /// A block header from the item's start to its `{` (searched from
    /// `from`, past anything that might contain a brace). Returns the
    /// position after the `{`.
    fn open(&mut self, loc: Loc, from: usize) -> Result<usize> {
        let brace = self.find(loc, from, b'{')?;
        self.out.push((Kind::Open, Some((range(loc).0, brace + 1))));
        Ok(brace + 1)
    }

    fn close(&mut self, loc: Loc) {
        let e = end(loc);
        self.out.push((Kind::Close, Some((e.saturating_sub(1), e))));
    }

    /// A statement with a span of its own.
    fn leaf(&mut self, r: (usize, usize)) {
        self.out.push((Kind::Leaf, Some(r)));
    }

    /// A statement without a span: from the next token after `at` to the
    /// first `terminator`. Returns its end.
    fn until(&mut self, within: Loc, at: usize, terminator: u8) -> Result<usize> {
        let start = scan::skip_trivia(self.text, at);
        let stop = self.find(within, start, terminator)? + 1;
        self.leaf((start, stop));
        Ok(stop)
    }
}

fn label_rule_loc(r: &LabelRule) -> Loc {
    match r {
        LabelRule::Lexicon { loc, .. }
        | LabelRule::Pattern { loc, .. }
        | LabelRule::Entity { loc, .. }
        | LabelRule::Address { loc, .. }
        | LabelRule::Fallback { loc, .. } => *loc,
    }
}

fn step_loc(s: &TransformStep) -> Loc {
    match s {
        TransformStep::ReplaceLexicon(_, _, loc)
        | TransformStep::RedactEntity(_, _, loc)
        | TransformStep::CoarsenTime(_, loc)
        | TransformStep::Constant(_, loc) => *loc,
    }
}
