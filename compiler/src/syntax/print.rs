//! Printing an AST back to source in the one canonical layout.
//!
//! `print(parse(s))` parses back to an equal AST (a tested property), and
//! the formatter builds on this printer, interleaving the comments that
//! [`super::trivia`] collected. Layout: four-space indentation, one
//! statement per line, a blank line between top-level items, lists on one
//! line.

use super::ast::*;
use std::fmt::Write;

/// Prints a whole file.
pub fn print(file: &File) -> String {
    let mut p = Printer::default();
    for (i, item) in file.items.iter().enumerate() {
        if i > 0 {
            p.out.push('\n');
        }
        p.item(item);
    }
    p.out
}

/// Prints one item (no trailing blank line).
pub fn print_item(item: &Item) -> String {
    let mut p = Printer::default();
    p.item(item);
    p.out
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
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

fn call_args(args: &[CallArg]) -> String {
    args.iter()
        .map(|a| format!("{}: {}", a.name.name, value(&a.value)))
        .collect::<Vec<_>>()
        .join(", ")
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
        Action::Rewrite(ts, _) => format!("rewrite using {}", names(ts)),
        Action::Shadow(None, _) => "shadow".into(),
        Action::Shadow(Some(s), _) => format!("shadow using {}", s.name),
    }
}

impl Printer {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn open(&mut self, head: &str) {
        self.line(&format!("{head} {{"));
        self.indent += 1;
    }

    fn close(&mut self) {
        self.indent = self.indent.saturating_sub(1);
        self.line("}");
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Use(u) => {
                let path = u
                    .path
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join("::");
                match &u.group {
                    Some(g) => self.line(&format!("use {path}::{{{}}};", names(g))),
                    None => self.line(&format!("use {path};")),
                }
            }
            Item::Lattice(l) => {
                let role = l
                    .role
                    .map(|r| format!(" for {}", r.keyword()))
                    .unwrap_or_default();
                let chains = l
                    .chains
                    .iter()
                    .map(|c| {
                        let mut s = String::new();
                        for (i, label) in c.labels.iter().enumerate() {
                            if i > 0 {
                                let op = c.ops.get(i - 1).map_or("<", String::as_str);
                                let _ = write!(s, " {op} ");
                            }
                            s.push_str(&label.name);
                        }
                        s
                    })
                    .collect::<Vec<_>>();
                if chains.len() == 1 {
                    self.line(&format!(
                        "lattice {}{role} {{ {} }}",
                        l.name.name,
                        chains.join("")
                    ));
                } else {
                    self.open(&format!("lattice {}{role}", l.name.name));
                    for c in &chains {
                        self.line(&format!("{c},"));
                    }
                    self.close();
                }
            }
            Item::Enum(e) => self.line(&format!("enum {} {{ {} }}", e.name.name, names(&e.values))),
            Item::Channels(c) => self.line(&format!("channels {{ {} }}", names(&c.names))),
            Item::Observer(o) => self.line(&format!(
                "observer {} {} sees {};",
                o.name.name,
                match o.locality {
                    Locality::External => "external",
                    Locality::Internal => "internal",
                },
                names(&o.sees)
            )),
            Item::Destination(d) => {
                self.open(&format!("destination {}", d.name.name));
                for s in &d.stmts {
                    match s {
                        DestinationStmt::Address(k, v) => {
                            self.line(&format!("{} {};", k.keyword(), quote(v)))
                        }
                        DestinationStmt::Label(l) => self.line(&format!("label {};", l.name)),
                        DestinationStmt::ObservedBy(o) => {
                            self.line(&format!("observed by {};", names(o)))
                        }
                    }
                }
                self.close();
            }
            Item::Tool(t) => {
                self.open(&format!("tool {}", t.name.name));
                for s in &t.stmts {
                    match s {
                        ToolStmt::Effect(e) => self.line(&format!("effect {};", e.name)),
                        ToolStmt::Args(fields) => {
                            let fs = fields
                                .iter()
                                .map(|f| format!("{}: {}", f.name.name, field_type(&f.ty)))
                                .collect::<Vec<_>>()
                                .join(", ");
                            if fs.is_empty() {
                                self.line("args {}");
                            } else {
                                self.line(&format!("args {{ {fs} }}"));
                            }
                        }
                        ToolStmt::Destinations(d) => {
                            self.line(&format!("destinations {};", names(d)))
                        }
                        ToolStmt::Substitute(s) => self.line(&format!("substitute {};", s.name)),
                    }
                }
                self.close();
            }
            Item::Substitute(s) => {
                self.open(&format!("substitute {} for {}", s.name.name, s.tool.name));
                for st in &s.stmts {
                    match st {
                        SubstituteStmt::ObservedBy(o) => {
                            self.line(&format!("observed by {};", names(o)))
                        }
                        SubstituteStmt::OnPromote(m, _) => self.line(match m {
                            PromoteMode::Reuse => "on promote reuse;",
                            PromoteMode::Reissue => "on promote reissue;",
                        }),
                    }
                }
                self.close();
            }
            Item::Lexicon(l) => {
                if l.entries.is_empty() {
                    self.line(&format!("lexicon {} {{}}", l.name.name));
                    return;
                }
                self.open(&format!("lexicon {}", l.name.name));
                for e in &l.entries {
                    match &e.replacement {
                        Some(r) => self.line(&format!("{} => {},", quote(&e.phrase), quote(r))),
                        None => self.line(&format!("{},", quote(&e.phrase))),
                    }
                }
                self.close();
            }
            Item::Labeler(l) => {
                self.open(&format!(
                    "labeler {} for {}",
                    l.name.name,
                    l.subject.keyword()
                ));
                for r in &l.rules {
                    let unless = |u: &Option<Ident>| {
                        u.as_ref()
                            .map(|u| format!(" unless lexicon {}", u.name))
                            .unwrap_or_default()
                    };
                    let text = match r {
                        LabelRule::Lexicon {
                            lexicon,
                            label,
                            unless: u,
                            ..
                        } => format!("lexicon {} -> {}{};", lexicon.name, label.name, unless(u)),
                        LabelRule::Pattern {
                            regex,
                            label,
                            unless: u,
                            ..
                        } => format!("pattern {} -> {}{};", quote(regex), label.name, unless(u)),
                        LabelRule::Entity { kind, label, .. } => {
                            format!("entity {} -> {};", kind.name, label.name)
                        }
                        LabelRule::Address {
                            kind,
                            pattern,
                            label,
                            ..
                        } => format!("{} {} -> {};", kind.keyword(), quote(pattern), label.name),
                        LabelRule::Fallback { label, .. } => format!("fallback {};", label.name),
                    };
                    self.line(&text);
                }
                self.close();
            }
            Item::Transform(t) => {
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
            Item::Contract(c) => self.contract(c),
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
        self.open(&format!("contract {}{params}", c.name.name));
        let mut prev_block = false;
        for (i, s) in c.stmts.iter().enumerate() {
            let block = matches!(s, ContractStmt::Decide(_) | ContractStmt::Test(_));
            if i > 0 && (block || prev_block) {
                self.out.push('\n');
            }
            prev_block = block;
            self.contract_stmt(s);
        }
        self.close();
    }

    fn contract_stmt(&mut self, s: &ContractStmt) {
        match s {
            ContractStmt::Tools(t, _) => self.line(&format!("tools {};", names(t))),
            ContractStmt::Destinations(d, _) => self.line(&format!("destinations {};", names(d))),
            ContractStmt::Forbid(f) => self.line(&format!(
                "forbid {} >= {} at {};",
                f.subject.keyword(),
                f.label.name,
                names(&f.observers)
            )),
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
                    let mut s = format!("audit to {}", names(&a.sinks));
                    match a.raw_args {
                        Some(true) => s.push_str(" with raw args"),
                        Some(false) => s.push_str(" without raw args"),
                        None => {}
                    }
                    if a.scrub_after_commit {
                        s.push_str(" scrub after commit");
                    }
                    s.push(';');
                    self.line(&s);
                }
            }
            ContractStmt::Decide(d) => {
                self.open("decide");
                for r in &d.rules {
                    self.line(&rule(r));
                }
                self.close();
            }
            ContractStmt::Test(t) => self.test(t),
        }
    }

    fn test(&mut self, t: &Test) {
        self.open(&format!("test {}", quote(&t.name)));
        self.line(&format!("call {}({})", t.tool.name, call_args(&t.args)));
        self.indent += 1;
        for c in &t.clauses {
            let text = match c {
                EventClause::ToName(i) => format!("to {}", i.name),
                EventClause::ToAddress(s) => format!("to {}", quote(s)),
                EventClause::Mode(m, true) => format!("mode {}", m.name),
                EventClause::Mode(m, false) => m.name.clone(),
                EventClause::Confidence(n) => format!("confidence {}", n.text),
                EventClause::Branch(b) => format!("branch {}", quote(b)),
                EventClause::After(n, b) => format!("after {} dispatches of {}", n.text, b.name),
                EventClause::Labels(bs) => format!(
                    "labels {{ {} }}",
                    bs.iter()
                        .map(|(k, v)| format!("{}: {}", k.name, v.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            self.line(&text);
        }
        self.indent = self.indent.saturating_sub(1);
        let by = t
            .expect_rule
            .as_ref()
            .map(|r| format!(" by {}", r.name))
            .unwrap_or_default();
        self.line(&format!("expect {}{by};", t.expect.keyword()));
        self.close();
    }
}
