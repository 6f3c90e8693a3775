//! The canonical layout as a list of lines, each tied to the source it prints.
//!
//! The text of every line comes from the canonical printer
//! ([`crate::syntax::print`]): each item is printed as *units* with
//! [`print::item_units`]. A unit is one statement, block header, closing
//! `}`, blank line or row of a filled block, and may span several printed
//! lines (a wrapped `tools` list, a rule broken before `when`, a `call`
//! with one argument per line); the formatter keeps a unit together and
//! places comments around it, never inside it. This module only knows the
//! printer's *unit structure* (a block is a header, one unit per
//! statement, and a closing `}`; a test is its header, the `call`, the
//! event clauses as one unit, `expect` and `}`; a contract puts a blank
//! line around `decide` and `test` blocks; a lattice, enum, channels or
//! lexicon that does not fit on one line, or holds a comment, is a block
//! of the rows [`print::block_rows`] chose) and pairs each unit with the
//! byte range of the source it came from. The blank lines between items follow
//! [`print::separated`], the printer's own rule. If the printer's
//! structure ever drifts from this description, the unit counts disagree
//! and formatting stops with an internal error instead of misplacing
//! comments.

use super::scan;
use crate::source::{Loc, Span};
use crate::syntax::ast::*;
use crate::syntax::{print, Comment};

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

/// One unit of the canonical layout.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    /// The printed text, indentation included, no final newline; a unit
    /// the printer wrapped holds several lines.
    pub(crate) text: String,
    /// What the line is.
    pub(crate) kind: Kind,
    /// The source bytes it prints (`None` for blank lines).
    pub(crate) range: Option<(usize, usize)>,
}

impl Line {
    /// The indentation of the unit's first line, in spaces.
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

/// Lays out a whole file. The blank lines between items follow
/// [`print::separated`], as in [`print::print`]; `comments` (all of the
/// file's) decide where the rows of braced lists must break.
pub(crate) fn lines(file: &File, text: &str, comments: &[Comment]) -> Result<Vec<Line>> {
    let mut out = Vec::new();
    let mut prev: Option<(&Item, Vec<String>)> = None;
    for item in &file.items {
        let (printed, slots) = match one_line(item, text, comments) {
            Some(line) => (vec![line], vec![(Kind::Leaf, Some(range(item.loc())))]),
            None => {
                let breaks = breaks(item, text, comments)?;
                let printed = print::item_units_with(item, breaks.as_deref());
                (printed, Slots::new(text, breaks.as_deref()).item(item)?)
            }
        };
        if let Some((p, p_units)) = &prev {
            if print::separated(p, p_units, item, &printed) {
                out.push(Line {
                    text: String::new(),
                    kind: Kind::Blank,
                    range: None,
                });
            }
        }
        if printed.len() != slots.len() {
            return Err(LayoutError {
                span: item.loc().span(),
                what: format!(
                    "the printer wrote {} units for this item where the formatter expected {}",
                    printed.len(),
                    slots.len()
                ),
            });
        }
        for ((kind, range), line) in slots.into_iter().zip(printed.iter()) {
            if (kind == Kind::Blank) != line.trim().is_empty() {
                return Err(LayoutError {
                    span: item.loc().span(),
                    what: "the printer's blank lines differ from the formatter's".to_string(),
                });
            }
            out.push(Line {
                text: line.clone(),
                kind,
                range,
            });
        }
        prev = Some((item, printed));
    }
    Ok(out)
}

/// A `tool` or `destination` its author wrote on one line, printed on one
/// line when it still fits: `tool t { effect e; args { q: text } destinations d; }`.
/// The author's choice is kept (as `gofmt` keeps a one-line function),
/// since a deployment declaring a dozen endpoints reads better as a table
/// than as sixty lines of blocks; a block written over several lines, or
/// one with a comment inside, keeps the block layout.
fn one_line(item: &Item, text: &str, comments: &[Comment]) -> Option<String> {
    if !matches!(item, Item::Tool(_) | Item::Destination(_)) {
        return None;
    }
    let (start, stop) = range(item.loc());
    let source = text.get(start..stop)?;
    let inside = |c: &Comment| {
        let s = c.span.start as usize;
        c.span.file == item.loc().span().file && s >= start && s < stop
    };
    if source.contains('\n') || comments.iter().any(inside) {
        return None;
    }
    let units = print::item_units(item);
    let line = units.iter().map(|u| u.trim()).collect::<Vec<_>>().join(" ");
    (!line.contains('\n') && line.chars().count() <= print::WIDTH).then_some(line)
}

/// Where the comments inside a braced list's braces ask its rows to break
/// (see [`print::Breaks`]): `None` when there are none, otherwise a row
/// starts at the first entry that ends after each comment starts (the
/// entry the comment precedes or sits in), so a comment stays between
/// the entries it was written between.
fn breaks(item: &Item, text: &str, comments: &[Comment]) -> Result<Option<Vec<usize>>> {
    let Some(Entries { from, ranges }) = entries(item)? else {
        return Ok(None);
    };
    let loc = item.loc();
    let brace = scan::find(text, from, b'{')
        .filter(|&b| b < end(loc))
        .ok_or_else(|| error(loc, "no `{` where the parsed tree says there is one"))?;
    let inside: Vec<usize> = comments
        .iter()
        .map(|c| c.span.start as usize)
        .filter(|&s| s > brace && s < end(loc))
        .collect();
    if inside.is_empty() {
        return Ok(None);
    }
    let mut starts: Vec<usize> = inside
        .iter()
        .filter_map(|&s| ranges.iter().position(|e| e.1 > s))
        .filter(|&k| k > 0)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    Ok(Some(starts))
}

/// A braced list's entries, as [`print::block_rows`] counts them.
struct Entries {
    /// Where to start looking for the list's `{`.
    from: usize,
    /// The source range of each entry (chain, value, name or lexicon entry).
    ranges: Vec<(usize, usize)>,
}

/// The entries of a lattice, enum, channels or lexicon; `None` for other
/// items.
fn entries(item: &Item) -> Result<Option<Entries>> {
    let (from, ranges) = match item {
        Item::Lattice(l) => (
            end(l.name.loc),
            l.chains
                .iter()
                .map(|c| match (c.labels.first(), c.labels.last()) {
                    (Some(a), Some(b)) => Ok((range(a.loc).0, end(b.loc))),
                    _ => Err(error(l.loc, "a lattice chain with no labels")),
                })
                .collect::<Result<_>>()?,
        ),
        Item::Enum(e) => (
            end(e.name.loc),
            e.values.iter().map(|v| range(v.loc)).collect(),
        ),
        Item::Set(x) => (
            end(x.name.loc),
            x.members.iter().map(|v| range(v.loc)).collect(),
        ),
        Item::Channels(c) => (
            range(c.loc).0,
            c.names.iter().map(|n| range(n.loc)).collect(),
        ),
        Item::Lexicon(l) => (
            end(l.name.loc),
            l.entries
                .iter()
                .map(|e| {
                    let last = e.replacement.as_ref().unwrap_or(&e.phrase);
                    (range(e.phrase.loc).0, end(last.loc))
                })
                .collect(),
        ),
        _ => return Ok(None),
    };
    Ok(Some(Entries { from, ranges }))
}

fn error(loc: Loc, what: &str) -> LayoutError {
    LayoutError {
        span: loc.span(),
        what: what.to_string(),
    }
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
    /// The row breaks the printer was given for a braced list.
    breaks: print::Breaks<'t>,
    out: Vec<Slot>,
}

impl<'t> Slots<'t> {
    fn new(text: &'t str, breaks: print::Breaks<'t>) -> Slots<'t> {
        Slots {
            text,
            breaks,
            out: Vec::new(),
        }
    }

    fn item(mut self, item: &Item) -> Result<Vec<Slot>> {
        match item {
            Item::Use(_) | Item::Observer(_) => self.leaf(range(item.loc())),
            Item::Lattice(_)
            | Item::Enum(_)
            | Item::Set(_)
            | Item::Channels(_)
            | Item::Lexicon(_) => {
                self.braced(item)?;
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

    /// A lattice, enum, channels or lexicon: one line, or a block of rows
    /// as [`print::block_rows`] chose them, each row from its first
    /// entry's start to its last entry's end.
    fn braced(&mut self, item: &Item) -> Result<()> {
        let loc = item.loc();
        let (Some(rows), Some(Entries { from, ranges })) =
            (print::block_rows(item, self.breaks), entries(item)?)
        else {
            self.leaf(range(loc));
            return Ok(());
        };
        self.open(loc, from)?;
        for row in rows {
            let last = row.end.checked_sub(1).and_then(|e| ranges.get(e));
            match (ranges.get(row.start), last) {
                (Some(first), Some(last)) => self.leaf((first.0, last.1)),
                _ => return Err(error(loc, "the printer's rows do not match the entries")),
            }
        }
        self.close(loc);
        Ok(())
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
                ContractStmt::Tools(list) | ContractStmt::Destinations(list) => {
                    self.leaf(range(list.loc));
                }
                ContractStmt::Labelers(_, loc) => self.leaf(range(*loc)),
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

    /// `test "name" {`, the `call`, the event clauses (one unit), the
    /// `expect labels` line, the `expect` line and `}`.
    fn test(&mut self, t: &Test) -> Result<()> {
        let mut at = self.open(t.loc, end(t.name.loc))?;
        at = self.until(t.loc, at, b')')?;
        let mut clauses: Option<(usize, usize)> = None;
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
            clauses = Some((clauses.map_or(start, |c| c.0), at));
        }
        if let Some(r) = clauses {
            self.leaf(r);
        }
        if let Some((_, l)) = &t.expect_labels {
            self.leaf(range(*l));
            at = end(*l);
        }
        self.until(t.loc, at, b';')?;
        self.close(t.loc);
        Ok(())
    }

    fn find(&self, within: Loc, from: usize, byte: u8) -> Result<usize> {
        scan::find(self.text, from, byte)
            .filter(|&p| p < end(within))
            .ok_or_else(|| {
                error(
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
    r.loc()
}

fn step_loc(s: &TransformStep) -> Loc {
    match s {
        TransformStep::ReplaceLexicon(_, _, loc)
        | TransformStep::RedactEntity(_, _, loc)
        | TransformStep::CoarsenTime(_, loc)
        | TransformStep::Constant(_, loc) => *loc,
    }
}
