//! Printing an AST back to source in the one canonical layout.
//!
//! `print(parse(s))` parses back to an equal AST (a tested property), and
//! the formatter builds on this printer, interleaving the comments that
//! [`super::trivia`] collected. The layout depends on the AST alone (never
//! on spans or on how the source was laid out), so printing is a fixed
//! point.
//!
//! # Layout
//!
//! Four-space indentation and a [`WIDTH`] of 100 columns, in the spirit of
//! rustfmt:
//!
//! - **Items.** A blank line between top-level items, except inside a run
//!   of items of the same kind that are each one line (`enum`s, one-line
//!   `lattice`s, `lexicon`s or `channels`), and inside runs of `use` and of
//!   `observer` declarations, which stay together even when one of them
//!   wraps. Inside a contract, a blank line around `decide` and `test`
//!   blocks; destinations, tools, substitutes, labelers and transforms are
//!   always blocks, one statement per line.
//! - **Name lists** (`tools`, `destinations`, `observed by`, `sees`,
//!   `forbid ... at`, `audit to`) fill the line and continue on the next
//!   with a hanging indent of one level, breaking only after a comma.
//! - **Braced lists** (`enum`, `channels`, single-chain `lattice`,
//!   `lexicon`, a `use` group, a tool's `args`) stay on one line when it
//!   fits. Otherwise they open a block: enum values, channels and lexicon
//!   entries fill rows of up to 100 columns, a lattice puts one chain per
//!   row (a multi-chain lattice always does), a `use` group fills rows like
//!   rustfmt's imports, and `args` fields go one per row, like struct
//!   fields. Every row ends in a comma. The formatter can also ask for
//!   the block form and for a row to start at a given entry ([`Breaks`]),
//!   which it does where a comment sits inside the braces.
//! - **Lexicon entries with a replacement** (`"a" => "b"`) fill rows like
//!   plain phrases. One entry per row would be easier to diff, but the
//!   shipped lexicons hold thousands of short pairs, mostly replacements,
//!   and one per row made `lexicons.stpc` 4,200 lines instead of about
//!   1,650, with most lines a quarter full. An entry is never split across
//!   rows, so each pair still reads as a unit, and a comment inside a
//!   lexicon starts a new row, so groups (`// German`) stay grouped.
//! - **Decision rules** that do not fit break before `when`/`unless`, which
//!   goes on a continuation line one level deeper; a guard still too long
//!   breaks before its top-level `and`/`or` operators, one level deeper
//!   again.
//! - **Labeler rules** that do not fit (long regular expressions) break
//!   before `->`, so the label stays visible at the start of the next line.
//! - **Tests.** The `call` line, then the event clauses together on one
//!   continuation line (`to brave speculative confidence 0.9`), which wraps
//!   at the same indentation when it is long; a `call` whose arguments do
//!   not fit puts one argument per line, like a Rust call.
//!
//! Strings are never split, so a line holding a long string may exceed the
//! width.
//!
//! The formatter reads the printer's output as *units*
//! ([`item_units`]): one per statement, header or closing brace, or row of
//! a filled block ([`block_rows`]). A unit may span several lines; the
//! formatter pairs each unit with the source it prints, to place comments.

use super::ast::*;
use std::fmt::Write;
use std::ops::Range;

/// The line width the layout aims for. Strings are never split, so a line
/// holding a long one can be longer.
pub const WIDTH: usize = 100;

/// Prints a whole file.
pub fn print(file: &File) -> String {
    let mut out = String::new();
    let mut prev: Option<(&Item, Vec<String>)> = None;
    for item in &file.items {
        let units = item_units(item);
        if let Some((p, p_units)) = &prev {
            if separated(p, p_units, item, &units) {
                out.push('\n');
            }
        }
        for u in &units {
            out.push_str(u);
            out.push('\n');
        }
        prev = Some((item, units));
    }
    out
}

/// Whether a blank line separates two consecutive items, given their
/// units: not within runs of `use` or of `observer` declarations, nor
/// between items of the same kind that are each one line; otherwise it
/// does.
pub fn separated(a: &Item, a_units: &[String], b: &Item, b_units: &[String]) -> bool {
    let one_line = |units: &[String]| units.len() == 1 && units.iter().all(|u| !u.contains('\n'));
    if std::mem::discriminant(a) != std::mem::discriminant(b) {
        return true;
    }
    let runs = matches!(a, Item::Use(_) | Item::Observer(_));
    !(runs || (one_line(a_units) && one_line(b_units)))
}

/// Prints one item (no trailing blank line).
pub fn print_item(item: &Item) -> String {
    let mut out = String::new();
    for u in item_units(item) {
        out.push_str(&u);
        out.push('\n');
    }
    out
}

/// Prints one item as units: a block's header line, each statement (one or
/// more lines), each row of a filled block, a blank line (an empty unit)
/// and a closing `}`. Joining the units with newlines gives
/// [`print_item`] without its final newline.
pub fn item_units(item: &Item) -> Vec<String> {
    item_units_with(item, None)
}

/// Where the rows of a braced list (a lattice, enum, channels or lexicon)
/// must break. `None` lays the list out by width alone. `Some(starts)`
/// asks for the block form even when the list would fit on one line, with
/// a row starting at each entry index in `starts`: the formatter asks for
/// this when comments sit between the braces, so that they can stay
/// between the entries they were written between, as rustfmt does for a
/// list with comments.
pub type Breaks<'a> = Option<&'a [usize]>;

/// [`item_units`] with the rows of a braced list broken as `breaks` asks.
pub fn item_units_with(item: &Item, breaks: Breaks<'_>) -> Vec<String> {
    let mut p = Printer::default();
    p.item(item, breaks);
    p.units
}

/// For an item printed as a block of rows (a lattice, an enum, channels or
/// a lexicon that does not fit on one line or has `breaks`, or a lattice
/// of several chains): the entries each row holds, as index ranges into
/// the item's chains, values, names or entries. `None` when the item is
/// printed on one line or is another kind of item.
pub fn block_rows(item: &Item, breaks: Breaks<'_>) -> Option<Vec<Range<usize>>> {
    match item {
        Item::Lattice(l) => {
            let chains: Vec<String> = l.chains.iter().map(chain).collect();
            let one = format!("{} {{ {} }}", lattice_head(l), chains.join(", "));
            (l.chains.len() > 1 || width(&one) > WIDTH || breaks.is_some())
                .then(|| (0..chains.len()).map(|i| i..i + 1).collect())
        }
        Item::Enum(e) => filled_block(
            &format!("enum {}", e.name.name),
            &strings(&e.values),
            breaks,
        ),
        Item::Channels(c) => filled_block("channels", &strings(&c.names), breaks),
        Item::Set(x) => filled_block(
            &format!("set {}", x.name.name),
            &strings(&x.members),
            breaks,
        ),
        Item::Lexicon(l) if l.entries.is_empty() => None,
        Item::Lexicon(l) => filled_block(
            &format!("lexicon {}", l.name.name),
            &l.entries.iter().map(entry).collect::<Vec<_>>(),
            breaks,
        ),
        _ => None,
    }
}

/// The rows of a braced list `head { a, b }` as a block, or `None` when it
/// fits on one line and nothing forces a break.
fn filled_block(head: &str, entries: &[String], breaks: Breaks<'_>) -> Option<Vec<Range<usize>>> {
    let one = format!("{head} {{ {} }}", entries.join(", "));
    (width(&one) > WIDTH || breaks.is_some()).then(|| rows(1, entries, breaks.unwrap_or_default()))
}

/// Greedy rows of `entry,` items at `indent` levels, each at most
/// [`WIDTH`] wide (a lone entry may be wider), with a new row at each
/// index in `breaks`.
fn rows(indent: usize, entries: &[String], breaks: &[usize]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut len = 0;
    for (i, e) in entries.iter().enumerate() {
        let w = width(e) + 1;
        if i > start && (len + 1 + w > WIDTH || breaks.contains(&i)) {
            out.push(start..i);
            start = i;
        }
        len = if i == start {
            indent * 4 + w
        } else {
            len + 1 + w
        };
    }
    if start < entries.len() {
        out.push(start..entries.len());
    }
    out
}

/// The display width of a line, counting characters.
fn width(s: &str) -> usize {
    s.chars().count()
}

fn pad(indent: usize) -> String {
    "    ".repeat(indent)
}

/// Lays out `head`, then `pieces` (each followed by `sep`, the last by
/// `tail`, separated by spaces) on lines of at most [`WIDTH`] columns: the
/// first line at `first` levels of indentation, the rest at `cont` levels.
/// Lines break only between pieces, and the first piece always stays with
/// `head`.
fn fill(
    first: usize,
    cont: usize,
    head: &str,
    pieces: &[String],
    sep: &str,
    tail: &str,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = format!("{}{head}", pad(first));
    if pieces.is_empty() {
        line.push_str(tail);
    }
    for (i, p) in pieces.iter().enumerate() {
        let end = if i + 1 == pieces.len() { tail } else { sep };
        let piece = format!("{p}{end}");
        if i == 0 {
            line.push_str(&piece);
        } else if width(&line) + 1 + width(&piece) > WIDTH {
            lines.push(std::mem::replace(
                &mut line,
                format!("{}{piece}", pad(cont)),
            ));
        } else {
            line.push(' ');
            line.push_str(&piece);
        }
    }
    lines.push(line);
    lines
}

fn strings(list: &[Ident]) -> Vec<String> {
    list.iter().map(|i| i.name.clone()).collect()
}

fn names(list: &[Ident]) -> String {
    list.iter()
        .map(|i| i.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
/// A string literal as written back: raw strings stay raw.
pub fn quote(s: &Str) -> String {
    if s.raw {
        let mut hashes = String::new();
        while s.value.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        return format!("r{hashes}\"{}\"{hashes}", s.value);
    }
    let mut out = String::with_capacity(s.value.len() + 2);
    out.push('"');
    for c in s.value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn field_type(t: &FieldType) -> String {
    match t {
        FieldType::Named(i) => i.name.clone(),
        FieldType::Enum(values, _) => format!("enum({})", names(values)),
        FieldType::List(inner, _) => format!("list({})", field_type(inner)),
    }
}

fn value(v: &Value) -> String {
    match v {
        Value::Str(s) => quote(s),
        Value::Number(n) => n.text.clone(),
        Value::Bool(b, _) => b.to_string(),
        Value::List(items, _) => format!(
            "[{}]",
            items.iter().map(value).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(items, _) => format!("{{{}}}", call_args(items)),
    }
}

fn call_arg(a: &CallArg) -> String {
    format!("{}: {}", a.name.name, value(&a.value))
}

fn call_args(args: &[CallArg]) -> String {
    args.iter().map(call_arg).collect::<Vec<_>>().join(", ")
}

/// Prints a guard expression with minimal but faithful parentheses.
///
/// The user's own `( )` are kept as `Paren` nodes and printed as written.
/// Where a tree built by a program (not the parser) nests a looser operator
/// under a tighter one, such as an `Or` under an `And` or a `Not`, the
/// printer adds the parentheses the grammar needs, so printing never
/// changes the meaning of a guard.
pub fn expr(e: &Expr) -> String {
    expr_at(e, Prec::Or)
}

/// Binding strength, loosest first: `or`, then `and`, then `not`, then atoms.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Or,
    And,
    Not,
    Atom,
}

fn prec(e: &Expr) -> Prec {
    match e {
        Expr::Or(..) => Prec::Or,
        Expr::And(..) => Prec::And,
        Expr::Not(..) => Prec::Not,
        Expr::Bool(..)
        | Expr::Predicate(..)
        | Expr::Compare(..)
        | Expr::Flag(..)
        | Expr::Paren(..) => Prec::Atom,
    }
}

/// Prints `e` where the context needs at least `min` binding strength.
fn expr_at(e: &Expr, min: Prec) -> String {
    if prec(e) < min {
        return format!("({})", expr_at(e, Prec::Or));
    }
    match e {
        Expr::Bool(b, _) => b.to_string(),
        // `and` and `or` associate to the left: a right operand of the same
        // strength needs parentheses.
        Expr::Not(inner, _) => format!("not {}", expr_at(inner, Prec::Not)),
        Expr::And(a, b, _) => format!("{} and {}", expr_at(a, Prec::And), expr_at(b, Prec::Not)),
        Expr::Or(a, b, _) => format!("{} or {}", expr_at(a, Prec::Or), expr_at(b, Prec::And)),
        Expr::Paren(inner, _) => format!("({})", expr_at(inner, Prec::Or)),
        Expr::Flag(i) => i.name.clone(),
        Expr::Predicate(p, _) => match p {
            Predicate::ToolAllowed => "tool allowed".into(),
            Predicate::DestinationAllowed => "destination allowed".into(),
            Predicate::DestinationExternal => "destination external".into(),
            Predicate::DestinationUndeclared => "destination undeclared".into(),
            Predicate::BudgetExhausted(None) => "budget exhausted".into(),
            Predicate::BudgetExhausted(Some(b)) => format!("budget {} exhausted", b.name),
            Predicate::LabelsMissing => "labels missing".into(),
            Predicate::SubstituteAvailable => "substitute available".into(),
        },
        Expr::Compare(c) => {
            let subject = match &c.subject {
                CompareSubject::Tool => "tool".to_string(),
                CompareSubject::Destination => "destination".into(),
                CompareSubject::Mode => "mode".into(),
                CompareSubject::Effect => "effect".into(),
                CompareSubject::Confidence => "confidence".into(),
                CompareSubject::Args(None) => "args".into(),
                CompareSubject::Args(Some(f)) => format!("args.{}", f.name),
            };
            match &c.test {
                CompareTest::Op(op, operand) => {
                    let rhs = match operand {
                        Operand::Number(n) => n.text.clone(),
                        Operand::Threshold(_) => "threshold".into(),
                        Operand::Name(i) => i.name.clone(),
                    };
                    format!("{subject} {} {rhs}", op.symbol())
                }
                CompareTest::In(set) => format!("{subject} in {{{}}}", names(set)),
            }
        }
    }
}

/// Prints a rule as one line without indentation.
pub fn rule(r: &Rule) -> String {
    let mut s = String::new();
    if let Some(n) = &r.name {
        let _ = write!(s, "{}: ", n.name);
    }
    s.push_str(&action(&r.action));
    if let Some(g) = &r.guard {
        let _ = write!(
            s,
            " {} {}",
            if g.negated { "unless" } else { "when" },
            expr(&g.expr)
        );
    }
    s.push(';');
    s
}

fn action(a: &Action) -> String {
    match a {
        Action::Allow(_) | Action::Block(_) | Action::Defer(_) => a.keyword().to_string(),
        Action::Rewrite(r, _) => {
            let mut s = String::from("rewrite ");
            if let Some(l) = &r.scope {
                let _ = write!(s, "args >= {} ", l.name);
            }
            let _ = write!(s, "using {}", names(&r.transforms));
            match r.on_promote {
                Some((PromoteMode::Reuse, _)) => s.push_str(" on promote reuse"),
                Some((PromoteMode::Reissue, _)) => s.push_str(" on promote reissue"),
                None => {}
            }
            s
        }
        Action::Shadow(None, _) => "shadow".into(),
        Action::Shadow(Some(s), _) => format!("shadow using {}", s.name),
    }
}

/// A guard's expression as pieces to fill: its operands at the top level
/// of `and`/`or` chains, each after the first led by its operator. Joined
/// with spaces, they are [`expr`].
fn guard_pieces(e: &Expr) -> Vec<String> {
    fn flat(e: &Expr, min: Prec, lead: &str, out: &mut Vec<String>) {
        match e {
            _ if prec(e) < min => out.push(format!("{lead}{}", expr_at(e, min))),
            Expr::Or(a, b, _) => {
                flat(a, Prec::Or, lead, out);
                flat(b, Prec::And, "or ", out);
            }
            Expr::And(a, b, _) => {
                flat(a, Prec::And, lead, out);
                flat(b, Prec::Not, "and ", out);
            }
            _ => out.push(format!("{lead}{}", expr_at(e, min))),
        }
    }
    let mut out = Vec::new();
    flat(e, Prec::Or, "", &mut out);
    out
}

/// A rule at `indent` levels: one line when it fits, otherwise broken
/// before `when`/`unless` and, if still too long, before the guard's
/// top-level operators.
fn rule_lines(r: &Rule, indent: usize) -> Vec<String> {
    let one = format!("{}{}", pad(indent), rule(r));
    let Some(g) = r.guard.as_ref().filter(|_| width(&one) > WIDTH) else {
        return vec![one];
    };
    let mut head = pad(indent);
    if let Some(n) = &r.name {
        let _ = write!(head, "{}: ", n.name);
    }
    head.push_str(&action(&r.action));
    let keyword = if g.negated { "unless " } else { "when " };
    let mut lines = vec![head];
    lines.extend(fill(
        indent + 1,
        indent + 2,
        keyword,
        &guard_pieces(&g.expr),
        "",
        ";",
    ));
    lines
}

fn lattice_head(l: &Lattice) -> String {
    let role = l
        .role
        .map(|r| format!(" for {}", r.keyword()))
        .unwrap_or_default();
    format!("lattice {}{role}", l.name.name)
}

/// A chain's pieces: the first label, then `< label` for each next one.
fn chain_pieces(c: &Chain) -> Vec<String> {
    c.labels
        .iter()
        .enumerate()
        .map(|(i, label)| match i {
            0 => label.name.clone(),
            _ => format!(
                "{} {}",
                c.ops.get(i - 1).map_or("<", String::as_str),
                label.name
            ),
        })
        .collect()
}

/// A labeler rule as a head (scope and conditions) and a tail (`-> label`,
/// hard negatives and `;`).
fn match_rule_parts(m: &MatchRule) -> (String, String) {
    let mut head = scope(m);
    head.push_str(&m.when.iter().map(matcher).collect::<Vec<_>>().join(" and "));
    let mut tail = format!("-> {}", m.label.name);
    if !m.unless.is_empty() {
        tail.push_str(" unless ");
        tail.push_str(
            &m.unless
                .iter()
                .map(matcher)
                .collect::<Vec<_>>()
                .join(" or "),
        );
    }
    tail.push(';');
    (head, tail)
}

/// `tool a: `, `field x, y: `, or nothing.
fn scope(m: &MatchRule) -> String {
    let mut head = String::new();
    if !m.tools.is_empty() {
        head.push_str(&format!("tool {}", names(&m.tools)));
        head.push_str(if m.fields.is_empty() { ": " } else { " " });
    }
    if !m.fields.is_empty() {
        head.push_str(&format!("field {}: ", names(&m.fields)));
    }
    head
}

/// A labeler rule too long for two lines: one condition per line, `and`,
/// `->`, `unless` and `or` leading the continuation lines, and a lexicon
/// list that is still too long filled with a deeper hanging indent.
fn match_rule_lines(indent: usize, m: &MatchRule) -> Vec<String> {
    let mut pieces: Vec<(String, &Matcher)> = Vec::new();
    for (i, w) in m.when.iter().enumerate() {
        let lead = if i == 0 { scope(m) } else { "and ".to_owned() };
        pieces.push((lead, w));
    }
    let mut lines = Vec::new();
    for (i, (lead, w)) in pieces.iter().enumerate() {
        let at = if i == 0 { indent } else { indent + 1 };
        lines.extend(matcher_lines(at, lead, w, ""));
    }
    let label = format!("-> {}", m.label.name);
    if m.unless.is_empty() {
        lines.push(format!("{}{label};", pad(indent + 1)));
        return lines;
    }
    for (i, u) in m.unless.iter().enumerate() {
        let lead = if i == 0 {
            format!("{label} unless ")
        } else {
            "or ".to_owned()
        };
        let end = if i + 1 == m.unless.len() { ";" } else { "" };
        lines.extend(matcher_lines(indent + 1, &lead, u, end));
    }
    lines
}

/// One matcher after `lead`, then `end`, filled when its lexicon list is
/// too long for a line.
fn matcher_lines(indent: usize, lead: &str, m: &Matcher, end: &str) -> Vec<String> {
    let one = format!("{}{lead}{}{end}", pad(indent), matcher(m));
    if width(&one) <= WIDTH {
        return vec![one];
    }
    let (keyword, list) = match m {
        Matcher::Lexicon(l) => ("lexicon", l),
        Matcher::Terms(l) => ("terms", l),
        Matcher::Parts(l) => ("parts", l),
        _ => return vec![one],
    };
    fill(
        indent,
        indent + 2,
        &format!("{lead}{keyword} "),
        &strings(list),
        ",",
        end,
    )
}

/// A matcher as written.
pub fn matcher(m: &Matcher) -> String {
    match m {
        Matcher::Lexicon(i) => format!("lexicon {}", names(i)),
        Matcher::Terms(i) => format!("terms {}", names(i)),
        Matcher::Parts(i) => format!("parts {}", names(i)),
        Matcher::Pattern(s) => format!("pattern {}", quote(s)),
        Matcher::Entity(i) => format!("entity {}", i.name),
        Matcher::Address(k, s) => format!("{} {}", k.keyword(), quote(s)),
    }
}

fn chain(c: &Chain) -> String {
    chain_pieces(c).join(" ")
}

fn entry(e: &LexiconEntry) -> String {
    match &e.replacement {
        Some(r) => format!("{} => {}", quote(&e.phrase), quote(r)),
        None => quote(&e.phrase),
    }
}

fn clause(c: &EventClause) -> String {
    match c {
        EventClause::ToName(i) => format!("to {}", i.name),
        EventClause::ToAddress(s) => format!("to {}", quote(s)),
        EventClause::Mode(m, Some(_)) => format!("mode {}", m.name),
        EventClause::Mode(m, None) => m.name.clone(),
        EventClause::Confidence(n) => format!("confidence {}", n.text),
        EventClause::Branch(b) => format!("branch {}", quote(b)),
        EventClause::After(n, b) => format!("after {} dispatches of {}", n.text, b.name),
        EventClause::Labels(bs) => format!("labels {{ {} }}", label_bindings(bs)),
    }
}

/// `q: sensitive, destination: public`
fn label_bindings(bs: &[(Ident, Ident)]) -> String {
    bs.iter()
        .map(|(k, v)| format!("{}: {}", k.name, v.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builds the units of one item.
#[derive(Default)]
struct Printer {
    units: Vec<String>,
    indent: usize,
}

impl Printer {
    /// A one-line unit at the current indentation.
    fn line(&mut self, text: &str) {
        self.units.push(format!("{}{text}", pad(self.indent)));
    }

    /// A unit of lines that carry their own indentation.
    fn unit(&mut self, lines: Vec<String>) {
        self.units.push(lines.join("\n"));
    }

    fn blank(&mut self) {
        self.units.push(String::new());
    }

    /// A statement `head a, b, c;` whose list fills lines with a hanging
    /// indent.
    fn list(&mut self, head: &str, list: &[Ident], tail: &str) {
        let lines = fill(
            self.indent,
            self.indent + 1,
            head,
            &strings(list),
            ",",
            tail,
        );
        self.unit(lines);
    }

    fn open(&mut self, head: &str) {
        self.line(&format!("{head} {{"));
        self.indent += 1;
    }

    fn close(&mut self) {
        self.indent = self.indent.saturating_sub(1);
        self.line("}");
    }

    /// A braced list `head { a, b }`: on one line, or as a block of the
    /// rows [`block_rows`] chose.
    fn braced(&mut self, head: &str, entries: &[String], rows: Option<Vec<Range<usize>>>) {
        match rows {
            None => self.line(&format!("{head} {{ {} }}", entries.join(", "))),
            Some(rows) => {
                self.open(head);
                for r in rows {
                    let row = entries.get(r).unwrap_or_default();
                    self.line(&format!("{},", row.join(", ")));
                }
                self.close();
            }
        }
    }

    fn item(&mut self, item: &Item, breaks: Breaks<'_>) {
        match item {
            Item::Use(u) => self.use_decl(u),
            Item::Lattice(l) => self.lattice(item, l, breaks),
            Item::Enum(e) => self.braced(
                &format!("enum {}", e.name.name),
                &strings(&e.values),
                block_rows(item, breaks),
            ),
            Item::Channels(c) => {
                self.braced("channels", &strings(&c.names), block_rows(item, breaks))
            }
            Item::Set(x) => self.braced(
                &format!("set {}", x.name.name),
                &strings(&x.members),
                block_rows(item, breaks),
            ),
            Item::Observer(o) => {
                let locality = match o.locality {
                    Locality::External => "external",
                    Locality::Internal => "internal",
                };
                self.list(
                    &format!("observer {} {locality} sees ", o.name.name),
                    &o.sees,
                    ";",
                );
            }
            Item::Destination(d) => self.destination(d),
            Item::Tool(t) => self.tool(t),
            Item::Substitute(s) => self.substitute(s),
            Item::Lexicon(l) if l.entries.is_empty() => {
                self.line(&format!("lexicon {} {{}}", l.name.name));
            }
            Item::Lexicon(l) => self.braced(
                &format!("lexicon {}", l.name.name),
                &l.entries.iter().map(entry).collect::<Vec<_>>(),
                block_rows(item, breaks),
            ),
            Item::Labeler(l) => {
                self.open(&format!(
                    "labeler {} for {}",
                    l.name.name,
                    l.subject.keyword()
                ));
                for r in &l.rules {
                    self.label_rule(r);
                }
                self.close();
            }
            Item::Transform(t) => self.transform(t),
            Item::Contract(c) => self.contract(c),
        }
    }

    /// `use a::b;` or `use a::{b, c};`, the group filled across lines when long.
    fn use_decl(&mut self, u: &Use) {
        let path = u
            .path
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join("::");
        match &u.group {
            Some(g) => {
                let one = format!("use {path}::{{{}}};", names(g));
                if width(&one) <= WIDTH {
                    self.line(&one);
                } else {
                    let mut lines = vec![format!("use {path}::{{")];
                    lines.extend(fill(1, 1, "", &strings(g), ",", ","));
                    lines.push("};".into());
                    self.unit(lines);
                }
            }
            None => self.line(&format!("use {path};")),
        }
    }

    /// `lattice L { a < b, ... }`, one chain per line when it does not fit.
    fn lattice(&mut self, item: &Item, l: &Lattice, breaks: Breaks<'_>) {
        match block_rows(item, breaks) {
            None => self.line(&format!(
                "{} {{ {} }}",
                lattice_head(l),
                l.chains.iter().map(chain).collect::<Vec<_>>().join(", ")
            )),
            Some(_) => {
                self.open(&lattice_head(l));
                for c in &l.chains {
                    let lines = fill(self.indent, self.indent + 1, "", &chain_pieces(c), "", ",");
                    self.unit(lines);
                }
                self.close();
            }
        }
    }

    /// `destination d { ... }`.
    fn destination(&mut self, d: &Destination) {
        self.open(&format!("destination {}", d.name.name));
        for s in &d.stmts {
            match s {
                DestinationStmt::Address(k, v) => {
                    self.line(&format!("{} {};", k.keyword(), quote(v)))
                }
                DestinationStmt::Label(l) => self.line(&format!("label {};", l.name)),
                DestinationStmt::ObservedBy(o) => self.list("observed by ", o, ";"),
            }
        }
        self.close();
    }

    /// `tool t { ... }`.
    fn tool(&mut self, t: &Tool) {
        self.open(&format!("tool {}", t.name.name));
        for s in &t.stmts {
            match s {
                ToolStmt::Effect(e) => self.line(&format!("effect {};", e.name)),
                ToolStmt::Args(fields) => self.args(fields),
                ToolStmt::Destinations(d) => self.list("destinations ", d, ";"),
                ToolStmt::Substitute(s) => self.line(&format!("substitute {};", s.name)),
            }
        }
        self.close();
    }

    /// `substitute s for t { ... }`.
    fn substitute(&mut self, s: &Substitute) {
        self.open(&format!("substitute {} for {}", s.name.name, s.tool.name));
        for st in &s.stmts {
            match st {
                SubstituteStmt::ObservedBy(o) => self.list("observed by ", o, ";"),
                SubstituteStmt::OnPromote(m, _) => self.line(match m {
                    PromoteMode::Reuse => "on promote reuse;",
                    PromoteMode::Reissue => "on promote reissue;",
                }),
            }
        }
        self.close();
    }

    /// `transform t(...) -> label { steps }`.
    fn transform(&mut self, t: &Transform) {
        let inputs = t
            .inputs
            .iter()
            .map(field_type)
            .collect::<Vec<_>>()
            .join(", ");
        self.open(&format!(
            "transform {}({inputs}) -> {}",
            t.name.name, t.output.name
        ));
        for s in &t.steps {
            let with = |w: &Option<Str>| {
                w.as_ref()
                    .map(|w| format!(" with {}", quote(w)))
                    .unwrap_or_default()
            };
            let text = match s {
                TransformStep::ReplaceLexicon(l, w, _) => {
                    format!("replace lexicon {}{};", l.name, with(w))
                }
                TransformStep::RedactEntity(k, w, _) => {
                    format!("redact entity {}{};", k.name, with(w))
                }
                TransformStep::CoarsenTime(g, _) => format!("coarsen time to {};", g.name),
                TransformStep::Constant(v, _) => format!("constant {};", quote(v)),
            };
            self.line(&text);
        }
        self.close();
    }

    /// A tool's `args { ... }`: on one line when it fits, otherwise one
    /// field per line.
    fn args(&mut self, fields: &[Field]) {
        let fs: Vec<String> = fields
            .iter()
            .map(|f| format!("{}: {}", f.name.name, field_type(&f.ty)))
            .collect();
        if fs.is_empty() {
            return self.line("args {}");
        }
        let one = format!("{}args {{ {} }}", pad(self.indent), fs.join(", "));
        if width(&one) <= WIDTH {
            return self.units.push(one);
        }
        let mut lines = vec![format!("{}args {{", pad(self.indent))];
        lines.extend(fs.iter().map(|f| format!("{}{f},", pad(self.indent + 1))));
        lines.push(format!("{}}}", pad(self.indent)));
        self.unit(lines);
    }

    /// A labeler rule: one line, two lines broken before `->`, or one line per
    /// condition when two are still too long.
    fn label_rule(&mut self, r: &LabelRule) {
        let m = match r {
            LabelRule::Match(m) => m,
            LabelRule::Fallback { label, .. } => {
                return self.line(&format!("fallback {};", label.name))
            }
        };
        let (head, tail) = match_rule_parts(m);
        let one = format!("{}{head} {tail}", pad(self.indent));
        let two = [
            format!("{}{head}", pad(self.indent)),
            format!("{}{tail}", pad(self.indent + 1)),
        ];
        if width(&one) <= WIDTH {
            self.units.push(one);
        } else if two.iter().all(|l| width(l) <= WIDTH) {
            self.unit(two.to_vec());
        } else {
            self.unit(match_rule_lines(self.indent, m));
        }
    }

    fn contract(&mut self, c: &Contract) {
        let params = if c.params.is_empty() {
            String::new()
        } else {
            format!(
                "({})",
                c.params
                    .iter()
                    .map(|p| format!("{} = {}", p.name.name, p.default.text))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let extends = c.extends.as_ref().map_or(String::new(), |path| {
            let names: Vec<&str> = path.iter().map(|i| i.name.as_str()).collect();
            format!(" extends {}", names.join("::"))
        });
        self.open(&format!("contract {}{params}{extends}", c.name.name));
        let mut prev_block = false;
        for (i, s) in c.stmts.iter().enumerate() {
            let block = matches!(s, ContractStmt::Decide(_) | ContractStmt::Test(_));
            if i > 0 && (block || prev_block) {
                self.blank();
            }
            prev_block = block;
            self.contract_stmt(s);
        }
        self.close();
    }

    fn contract_stmt(&mut self, s: &ContractStmt) {
        match s {
            ContractStmt::Tools(t) => {
                self.list(if t.extend { "tools += " } else { "tools " }, &t.names, ";");
            }
            ContractStmt::Destinations(d) => self.list(
                if d.extend {
                    "destinations += "
                } else {
                    "destinations "
                },
                &d.names,
                ";",
            ),
            ContractStmt::Labelers(l, _) => self.list("labelers ", l, ";"),
            ContractStmt::Forbid(f) => {
                let tail = if f.unless.is_empty() {
                    ";".to_owned()
                } else {
                    let modes: Vec<&str> = f.unless.iter().map(|m| m.name.as_str()).collect();
                    format!(" unless {};", modes.join(", "))
                };
                self.list(
                    &format!("forbid {} >= {} at ", f.subject.keyword(), f.label.name),
                    &f.observers,
                    &tail,
                );
            }
            ContractStmt::Threshold(t) => {
                let v = match &t.value {
                    NumberOrParam::Number(n) => n.text.clone(),
                    NumberOrParam::Param(p) => p.name.clone(),
                };
                self.line(&format!("threshold {} {v};", t.mode.name));
            }
            ContractStmt::Budget(b) => self.line(&format!(
                "budget {} {} per task counting {} >= {};",
                b.name.name,
                b.limit.text,
                b.subject.keyword(),
                b.label.name
            )),
            ContractStmt::Audit(a) => {
                if a.none {
                    self.line("audit none;");
                } else {
                    let mut tail = String::new();
                    match a.raw_args {
                        Some(true) => tail.push_str(" with raw args"),
                        Some(false) => tail.push_str(" without raw args"),
                        None => {}
                    }
                    for (w, _) in &a.withheld {
                        // A comma after a grant or another clause, none
                        // right after the sinks (`audit to log without ...`).
                        let sep = if tail.is_empty() { "" } else { "," };
                        let _ = write!(tail, "{sep} without {} unless dispatched", w.keyword());
                    }
                    if a.scrub_after_commit {
                        tail.push_str(" scrub after commit");
                    }
                    tail.push(';');
                    self.list("audit to ", &a.sinks, &tail);
                }
            }
            ContractStmt::Decide(d) => {
                self.open("decide");
                for r in &d.rules {
                    let lines = rule_lines(r, self.indent);
                    self.unit(lines);
                }
                self.close();
            }
            ContractStmt::Test(t) => self.test(t),
        }
    }

    /// `test "name" {`, the `call` (one line, or one argument per line),
    /// the event clauses on one continuation line (wrapped when long), the
    /// `expect` line and `}`.
    fn test(&mut self, t: &Test) {
        self.open(&format!("test {}", quote(&t.name)));
        let call = format!(
            "{}call {}({})",
            pad(self.indent),
            t.tool.name,
            call_args(&t.args)
        );
        if width(&call) <= WIDTH || t.args.is_empty() {
            self.units.push(call);
        } else {
            let mut lines = vec![format!("{}call {}(", pad(self.indent), t.tool.name)];
            lines.extend(
                t.args
                    .iter()
                    .map(|a| format!("{}{},", pad(self.indent + 1), call_arg(a))),
            );
            lines.push(format!("{})", pad(self.indent)));
            self.unit(lines);
        }
        if !t.clauses.is_empty() {
            let clauses: Vec<String> = t.clauses.iter().map(clause).collect();
            let lines = fill(self.indent + 1, self.indent + 1, "", &clauses, "", "");
            self.unit(lines);
        }
        if let Some((bindings, _)) = &t.expect_labels {
            self.line(&format!(
                "expect labels {{ {} }};",
                label_bindings(bindings)
            ));
        }
        let by = t
            .expect_rule
            .as_ref()
            .map(|r| format!(" by {}", r.name))
            .unwrap_or_default();
        let head = format!("expect {}{by}", t.expect.keyword());
        match &t.expect_to {
            None => self.line(&format!("{head};")),
            Some((fields, _)) => {
                let one = format!("{}{head} to {{ {} }};", pad(self.indent), call_args(fields));
                if width(&one) <= WIDTH || fields.is_empty() {
                    self.units.push(one);
                } else {
                    let mut lines = vec![format!("{}{head} to {{", pad(self.indent))];
                    lines.extend(
                        fields
                            .iter()
                            .map(|a| format!("{}{},", pad(self.indent + 1), call_arg(a))),
                    );
                    lines.push(format!("{}}};", pad(self.indent)));
                    self.unit(lines);
                }
            }
        }
        self.close();
    }
}
