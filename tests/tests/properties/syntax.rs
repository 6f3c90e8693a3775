//! Properties of the parser and the printer.
//!
//! 1. *Round trip*: printing an arbitrary well-formed AST (every item kind,
//!    every statement kind, nested guards with the parentheses the grammar
//!    needs, strings with escapes and raw strings, tests with nested values)
//!    and parsing the text back gives an equal AST (spans are ignored by
//!    `==`), and printing is a fixed point.
//! 2. *Printer parentheses*: a guard built with no parentheses at all prints
//!    to text that parses back to the same tree once `Paren` nodes are
//!    removed, so the printer never changes a guard's meaning.
//! 3. *Robustness*: arbitrary strings, and token-level mutations (deleted,
//!    duplicated, swapped, inserted tokens) and truncations at any byte of
//!    the examples, the standard library and the syntax fixtures never
//!    panic `syntax::parse`. Either parsing succeeds with no diagnostics, or
//!    it fails with at least one error, and every diagnostic has a code and
//!    a primary label at a valid line and column.
//!
//! The case count is 64 unless `PROPTEST_CASES` says otherwise.

use proptest::prelude::*;
use proptest::test_runner::Config;
use std::path::{Path, PathBuf};
use stpc_compiler::diagnostics::render::{human_string, json_lines};
use stpc_compiler::diagnostics::LabelStyle;
use stpc_compiler::syntax::ast::*;
use stpc_compiler::syntax::{self, print};
use stpc_compiler::{Diagnostics, Loc, SourceMap};

fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 64;
    }
    config
}

// ------------------------------------------------------------------ names

/// Every keyword of the grammar (`kw_x = @{ "x" ... }`), read from the
/// grammar itself so the list cannot drift.
fn keywords() -> Vec<String> {
    include_str!("../../../grammar/stpc.pest")
        .lines()
        .filter(|l| l.trim_start().starts_with("kw_"))
        .filter_map(|l| l.split('"').nth(1).map(str::to_string))
        .collect()
}

/// Names: never a keyword, so no name can be read as part of the syntax
/// around it (reserved words are always excluded; contextual keywords are
/// excluded so the property tests the printer, not keyword ambiguities).
fn name() -> impl Strategy<Value = String> {
    let keywords = keywords();
    "[a-z_][a-z0-9_]{0,7}".prop_filter("not a keyword", move |n| !keywords.contains(n))
}

fn ident() -> impl Strategy<Value = Ident> {
    name().prop_map(|name| Ident {
        name,
        loc: Loc::default(),
    })
}

fn idents(max: usize) -> impl Strategy<Value = Vec<Ident>> {
    prop::collection::vec(ident(), 1..=max)
}

fn number() -> impl Strategy<Value = Number> {
    ("-?[0-9]{1,3}", prop::option::of("[0-9]{1,3}")).prop_map(|(int, frac)| Number {
        text: match frac {
            Some(f) => format!("{int}.{f}"),
            None => int,
        },
        loc: Loc::default(),
    })
}

/// String contents: any characters, with quotes, backslashes, newlines and
/// control characters made likely.
fn string_value() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => any::<char>(),
            2 => prop::sample::select(vec!['"', '\\', '\n', '\t', '\r', '\0', '\u{7f}', '#', '/', '*', '{', '}']),
            4 => prop::char::range('a', 'z'),
        ],
        0..12,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

fn string() -> impl Strategy<Value = Str> {
    string_value().prop_map(|value| Str {
        value,
        raw: false,
        loc: Loc::default(),
    })
}

/// A plain or raw string, as a labeler pattern may be.
fn text() -> impl Strategy<Value = Str> {
    prop_oneof![
        string(),
        string_value().prop_map(|value| Str {
            value,
            raw: true,
            loc: Loc::default(),
        }),
    ]
}

fn subject() -> impl Strategy<Value = Subject> {
    prop_oneof![Just(Subject::Args), Just(Subject::Destination)]
}

fn address_kind() -> impl Strategy<Value = AddressKind> {
    prop_oneof![
        Just(AddressKind::Host),
        Just(AddressKind::Url),
        Just(AddressKind::Collection)
    ]
}

// ------------------------------------------------------------------ items

fn field_type() -> impl Strategy<Value = FieldType> {
    let leaf = prop_oneof![
        ident().prop_map(FieldType::Named),
        idents(3).prop_map(|v| FieldType::Enum(v, Loc::default())),
    ];
    leaf.prop_recursive(3, 6, 1, |inner| {
        inner.prop_map(|t| FieldType::List(Box::new(t), Loc::default()))
    })
}

fn use_decl() -> impl Strategy<Value = Item> {
    (idents(3), prop::option::of(idents(3))).prop_map(|(path, group)| {
        Item::Use(Use {
            path,
            group,
            loc: Loc::default(),
        })
    })
}

fn lattice() -> impl Strategy<Value = Item> {
    let chain = idents(4).prop_flat_map(|labels| {
        let n = labels.len() - 1;
        (
            Just(labels),
            prop::collection::vec(
                prop_oneof![Just("<".to_string()), Just("<=".to_string())],
                n,
            ),
        )
            .prop_map(|(labels, ops)| Chain { labels, ops })
    });
    (
        ident(),
        prop::option::of(subject()),
        prop::collection::vec(chain, 1..4),
    )
        .prop_map(|(name, role, chains)| {
            Item::Lattice(Lattice {
                name,
                role,
                chains,
                loc: Loc::default(),
            })
        })
}

fn simple_items() -> impl Strategy<Value = Item> {
    prop_oneof![
        (ident(), idents(4)).prop_map(|(name, values)| Item::Enum(Enum {
            name,
            values,
            loc: Loc::default()
        })),
        idents(4).prop_map(|names| Item::Channels(Channels {
            names,
            loc: Loc::default()
        })),
        (
            ident(),
            prop_oneof![Just(Locality::External), Just(Locality::Internal)],
            idents(3)
        )
            .prop_map(|(name, locality, sees)| Item::Observer(Observer {
                name,
                locality,
                sees,
                loc: Loc::default()
            })),
    ]
}

fn destination() -> impl Strategy<Value = Item> {
    let stmt = prop_oneof![
        (address_kind(), string()).prop_map(|(k, s)| DestinationStmt::Address(k, s)),
        ident().prop_map(DestinationStmt::Label),
        idents(3).prop_map(DestinationStmt::ObservedBy),
    ];
    (ident(), prop::collection::vec(stmt, 0..4)).prop_map(|(name, stmts)| {
        Item::Destination(Destination {
            name,
            stmts,
            loc: Loc::default(),
        })
    })
}

fn tool() -> impl Strategy<Value = Item> {
    let field = (ident(), field_type()).prop_map(|(name, ty)| Field { name, ty });
    let stmt = prop_oneof![
        ident().prop_map(ToolStmt::Effect),
        prop::collection::vec(field, 0..4).prop_map(ToolStmt::Args),
        idents(3).prop_map(ToolStmt::Destinations),
        ident().prop_map(ToolStmt::Substitute),
    ];
    (ident(), prop::collection::vec(stmt, 0..5)).prop_map(|(name, stmts)| {
        Item::Tool(Tool {
            name,
            stmts,
            loc: Loc::default(),
        })
    })
}

fn substitute() -> impl Strategy<Value = Item> {
    let stmt = prop_oneof![
        idents(3).prop_map(SubstituteStmt::ObservedBy),
        prop_oneof![Just(PromoteMode::Reuse), Just(PromoteMode::Reissue)]
            .prop_map(|m| SubstituteStmt::OnPromote(m, Loc::default())),
    ];
    (ident(), ident(), prop::collection::vec(stmt, 0..3)).prop_map(|(name, tool, stmts)| {
        Item::Substitute(Substitute {
            name,
            tool,
            stmts,
            loc: Loc::default(),
        })
    })
}

fn lexicon() -> impl Strategy<Value = Item> {
    let entry =
        (string(), prop::option::of(string())).prop_map(|(phrase, replacement)| LexiconEntry {
            phrase,
            replacement,
        });
    (ident(), prop::collection::vec(entry, 0..4)).prop_map(|(name, entries)| {
        Item::Lexicon(Lexicon {
            name,
            entries,
            loc: Loc::default(),
        })
    })
}

fn matcher() -> impl Strategy<Value = Matcher> {
    prop_oneof![
        prop::collection::vec(ident(), 1..4).prop_map(Matcher::Lexicon),
        prop::collection::vec(ident(), 1..4).prop_map(Matcher::Terms),
        prop::collection::vec(ident(), 1..12).prop_map(Matcher::Parts),
        text().prop_map(Matcher::Pattern),
        ident().prop_map(Matcher::Entity),
        (address_kind(), string()).prop_map(|(k, s)| Matcher::Address(k, s)),
    ]
}

fn labeler() -> impl Strategy<Value = Item> {
    let loc = Loc::default();
    let matched = (
        prop::collection::vec(ident(), 0..2),
        prop::collection::vec(ident(), 0..3),
        prop::collection::vec(matcher(), 1..3),
        ident(),
        prop::collection::vec(matcher(), 0..3),
    )
        .prop_map(move |(tools, fields, when, label, unless)| {
            LabelRule::Match(MatchRule {
                tools,
                fields,
                when,
                label,
                unless,
                loc,
            })
        });
    let rule = prop_oneof![
        4 => matched,
        1 => ident().prop_map(move |label| LabelRule::Fallback { label, loc }),
    ];
    (ident(), subject(), prop::collection::vec(rule, 0..5)).prop_map(|(name, subject, rules)| {
        Item::Labeler(Labeler {
            name,
            subject,
            rules,
            loc: Loc::default(),
        })
    })
}

fn transform() -> impl Strategy<Value = Item> {
    let loc = Loc::default();
    let step = prop_oneof![
        (ident(), prop::option::of(string()))
            .prop_map(move |(l, w)| TransformStep::ReplaceLexicon(l, w, loc)),
        (ident(), prop::option::of(string()))
            .prop_map(move |(k, w)| TransformStep::RedactEntity(k, w, loc)),
        ident().prop_map(move |g| TransformStep::CoarsenTime(g, loc)),
        string().prop_map(move |s| TransformStep::Constant(s, loc)),
    ];
    (
        ident(),
        prop::collection::vec(field_type(), 1..3),
        ident(),
        prop::collection::vec(step, 0..4),
    )
        .prop_map(|(name, inputs, output, steps)| {
            Item::Transform(Transform {
                name,
                inputs,
                output,
                steps,
                loc: Loc::default(),
            })
        })
}

// ------------------------------------------------------------------ guards

fn atom() -> impl Strategy<Value = Expr> {
    let loc = Loc::default();
    let predicate = prop_oneof![
        Just(Predicate::ToolAllowed),
        Just(Predicate::DestinationAllowed),
        Just(Predicate::DestinationUndeclared),
        Just(Predicate::DestinationExternal),
        prop::option::of(ident()).prop_map(Predicate::BudgetExhausted),
        Just(Predicate::LabelsMissing),
        Just(Predicate::SubstituteAvailable),
    ];
    let compare_subject = prop_oneof![
        Just(CompareSubject::Tool),
        Just(CompareSubject::Destination),
        Just(CompareSubject::Mode),
        Just(CompareSubject::Effect),
        Just(CompareSubject::Confidence),
        prop::option::of(ident()).prop_map(CompareSubject::Args),
    ];
    let op = prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge),
    ];
    let operand = prop_oneof![
        number().prop_map(Operand::Number),
        Just(Operand::Threshold(loc)),
        ident().prop_map(Operand::Name),
    ];
    let test = prop_oneof![
        (op, operand).prop_map(|(o, v)| CompareTest::Op(o, v)),
        idents(3).prop_map(CompareTest::In),
    ];
    prop_oneof![
        any::<bool>().prop_map(move |b| Expr::Bool(b, loc)),
        predicate.prop_map(move |p| Expr::Predicate(p, loc)),
        (compare_subject, test).prop_map(move |(subject, test)| Expr::Compare(Compare {
            subject,
            subject_loc: loc,
            test,
            loc,
        })),
        ident().prop_map(Expr::Flag),
    ]
}

/// Guards with no parentheses at all: any nesting of `not`, `and`, `or`.
fn bare_expr() -> impl Strategy<Value = Expr> {
    let loc = Loc::default();
    atom().prop_recursive(4, 24, 2, move |inner| {
        prop_oneof![
            inner.clone().prop_map(move |e| Expr::Not(Box::new(e), loc)),
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| Expr::And(
                Box::new(a),
                Box::new(b),
                loc
            )),
            (inner.clone(), inner.clone()).prop_map(move |(a, b)| Expr::Or(
                Box::new(a),
                Box::new(b),
                loc
            )),
            inner.prop_map(move |e| Expr::Paren(Box::new(e), loc)),
        ]
    })
}

fn paren(e: Expr) -> Expr {
    Expr::Paren(Box::new(e), Loc::default())
}

/// Adds `Paren` wherever the grammar needs one, as the parser would keep
/// them: a looser operator under a tighter one, or a right operand of the
/// same strength (`and` and `or` associate to the left).
fn parenthesize(e: Expr) -> Expr {
    let binds = |e: &Expr| match e {
        Expr::Or(..) => 0,
        Expr::And(..) => 1,
        Expr::Not(..) => 2,
        _ => 3,
    };
    let at_least = |e: Expr, min: u8| {
        let e = parenthesize(e);
        if binds(&e) < min {
            paren(e)
        } else {
            e
        }
    };
    match e {
        Expr::Not(inner, l) => Expr::Not(Box::new(at_least(*inner, 2)), l),
        Expr::And(a, b, l) => Expr::And(Box::new(at_least(*a, 1)), Box::new(at_least(*b, 2)), l),
        Expr::Or(a, b, l) => Expr::Or(Box::new(at_least(*a, 0)), Box::new(at_least(*b, 1)), l),
        Expr::Paren(inner, l) => Expr::Paren(Box::new(parenthesize(*inner)), l),
        other => other,
    }
}

/// Removes every `Paren` node.
fn strip_parens(e: Expr) -> Expr {
    match e {
        Expr::Paren(inner, _) => strip_parens(*inner),
        Expr::Not(inner, l) => Expr::Not(Box::new(strip_parens(*inner)), l),
        Expr::And(a, b, l) => Expr::And(Box::new(strip_parens(*a)), Box::new(strip_parens(*b)), l),
        Expr::Or(a, b, l) => Expr::Or(Box::new(strip_parens(*a)), Box::new(strip_parens(*b)), l),
        other => other,
    }
}

fn guard() -> impl Strategy<Value = Guard> {
    (any::<bool>(), bare_expr()).prop_map(|(negated, e)| Guard {
        negated,
        expr: parenthesize(e),
    })
}

// ------------------------------------------------------------------ contracts

fn action() -> impl Strategy<Value = Action> {
    let loc = Loc::default();
    prop_oneof![
        Just(Action::Allow(loc)),
        Just(Action::Block(loc)),
        Just(Action::Defer(loc)),
        (
            idents(3),
            prop::option::of(ident()),
            prop::option::of(prop_oneof![
                Just(PromoteMode::Reuse),
                Just(PromoteMode::Reissue)
            ]),
        )
            .prop_map(move |(transforms, scope, promote)| Action::Rewrite(
                Rewrite {
                    transforms,
                    scope,
                    on_promote: promote.map(|m| (m, loc)),
                },
                loc
            )),
        prop::option::of(ident()).prop_map(move |s| Action::Shadow(s, loc)),
    ]
}

fn rule() -> impl Strategy<Value = Rule> {
    (
        prop::option::of(ident()),
        action(),
        prop::option::of(guard()),
    )
        .prop_map(|(name, action, guard)| Rule {
            name,
            action,
            guard,
            loc: Loc::default(),
        })
}

fn value() -> impl Strategy<Value = Value> {
    let loc = Loc::default();
    let leaf = prop_oneof![
        string().prop_map(Value::Str),
        number().prop_map(Value::Number),
        any::<bool>().prop_map(move |b| Value::Bool(b, loc)),
    ];
    leaf.prop_recursive(3, 12, 3, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(move |v| Value::List(v, loc)),
            prop::collection::vec((ident(), inner), 0..3).prop_map(move |v| {
                Value::Object(
                    v.into_iter()
                        .map(|(name, value)| CallArg { name, value })
                        .collect(),
                    loc,
                )
            }),
        ]
    })
}

fn event_clause() -> impl Strategy<Value = EventClause> {
    let label_key = prop_oneof![
        ident(),
        Just(Ident {
            name: "destination".to_string(),
            loc: Loc::default()
        }),
    ];
    prop_oneof![
        ident().prop_map(EventClause::ToName),
        string().prop_map(EventClause::ToAddress),
        (ident(), any::<bool>())
            .prop_map(|(m, explicit)| EventClause::Mode(m, explicit.then(Loc::default))),
        number().prop_map(EventClause::Confidence),
        string().prop_map(EventClause::Branch),
        (number(), ident()).prop_map(|(n, b)| EventClause::After(n, b)),
        prop::collection::vec((label_key, ident()), 1..3).prop_map(EventClause::Labels),
    ]
}

fn test_block() -> impl Strategy<Value = Test> {
    let expect = prop_oneof![
        Just(ExpectAction::Allow),
        Just(ExpectAction::Block),
        Just(ExpectAction::Defer),
        Just(ExpectAction::Rewrite),
        Just(ExpectAction::Shadow),
    ];
    (
        string(),
        ident(),
        prop::collection::vec((ident(), value()), 0..3),
        prop::collection::vec(event_clause(), 0..4),
        expect,
        prop::option::of(ident()),
        prop::option::of(prop::collection::vec((ident(), value()), 0..3)),
        prop::option::of(prop::collection::vec((ident(), ident()), 1..3)),
    )
        .prop_map(
            |(name, tool, args, clauses, expect, expect_rule, expect_to, expect_labels)| Test {
                name,
                tool,
                args: args
                    .into_iter()
                    .map(|(name, value)| CallArg { name, value })
                    .collect(),
                clauses,
                expect,
                expect_rule,
                expect_to: expect_to.map(|fields| {
                    let fields = fields
                        .into_iter()
                        .map(|(name, value)| CallArg { name, value })
                        .collect();
                    (fields, Loc::default())
                }),
                expect_labels: expect_labels.map(|l| (l, Loc::default())),
                loc: Loc::default(),
            },
        )
}

fn contract_stmt() -> impl Strategy<Value = ContractStmt> {
    let loc = Loc::default();
    let audit = prop_oneof![
        Just(Audit {
            sinks: Vec::new(),
            raw_args: None,
            withheld: Vec::new(),
            scrub_after_commit: false,
            none: true,
            loc,
        }),
        (
            idents(2),
            prop::option::of(any::<bool>()),
            prop::collection::vec(
                prop_oneof![Just(Withheld::Destination), Just(Withheld::Labels)],
                0..3
            ),
            any::<bool>()
        )
            .prop_map(
                move |(sinks, raw_args, withheld, scrub_after_commit)| Audit {
                    sinks,
                    raw_args,
                    withheld: withheld.into_iter().map(|w| (w, loc)).collect(),
                    scrub_after_commit,
                    none: false,
                    loc,
                }
            ),
    ];
    prop_oneof![
        (idents(3), any::<bool>()).prop_map(move |(names, extend)| {
            ContractStmt::Tools(AllowList { names, extend, loc })
        }),
        (idents(3), any::<bool>()).prop_map(move |(names, extend)| {
            ContractStmt::Destinations(AllowList { names, extend, loc })
        }),
        (
            subject(),
            ident(),
            idents(3),
            prop_oneof![Just(Vec::new()), idents(2)]
        )
            .prop_map(move |(subject, label, observers, unless)| {
                ContractStmt::Forbid(Forbid {
                    subject,
                    label,
                    observers,
                    unless,
                    loc,
                })
            }),
        (
            ident(),
            prop_oneof![
                number().prop_map(NumberOrParam::Number),
                ident().prop_map(NumberOrParam::Param)
            ]
        )
            .prop_map(move |(mode, value)| ContractStmt::Threshold(Threshold {
                mode,
                value,
                loc
            })),
        (ident(), number(), subject(), ident()).prop_map(move |(name, limit, subject, label)| {
            ContractStmt::Budget(Budget {
                name,
                limit,
                subject,
                label,
                loc,
            })
        }),
        audit.prop_map(ContractStmt::Audit),
        prop::collection::vec(rule(), 0..5)
            .prop_map(move |rules| ContractStmt::Decide(Decide { rules, loc })),
        test_block().prop_map(ContractStmt::Test),
    ]
}

fn contract() -> impl Strategy<Value = Item> {
    let param = (ident(), number()).prop_map(|(name, default)| Param { name, default });
    (
        ident(),
        prop::collection::vec(param, 0..3),
        prop::option::of(idents(3)),
        prop::collection::vec(contract_stmt(), 0..7),
    )
        .prop_map(|(name, params, extends, stmts)| {
            Item::Contract(Contract {
                name,
                params,
                extends,
                stmts,
                loc: Loc::default(),
            })
        })
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        1 => use_decl(),
        1 => lattice(),
        1 => simple_items(),
        1 => destination(),
        1 => tool(),
        1 => substitute(),
        1 => lexicon(),
        1 => labeler(),
        1 => transform(),
        3 => contract(),
    ]
}

fn file() -> impl Strategy<Value = File> {
    prop::collection::vec(item(), 0..6).prop_map(|items| File { items })
}

// ------------------------------------------------------------------ helpers

/// Parses `text` as one file named `t.stpc`.
fn parse(text: &str) -> (SourceMap, Option<File>, Diagnostics) {
    let mut map = SourceMap::new();
    let id = map.add("t.stpc", text);
    let mut diagnostics = Diagnostics::new();
    let ast = syntax::parse(id, text, &mut diagnostics);
    (map, ast, diagnostics)
}

/// The robustness contract: success with no diagnostics, or failure with
/// errors, every one with a code and a primary label at a valid position.
/// Rendering must not fail either.
fn check_outcome(
    map: &SourceMap,
    ast: Option<&File>,
    diagnostics: &Diagnostics,
) -> Result<(), TestCaseError> {
    match ast {
        Some(_) => prop_assert!(diagnostics.is_empty(), "AST with diagnostics"),
        None => prop_assert!(diagnostics.has_errors(), "no AST and no error"),
    }
    for d in diagnostics.iter() {
        prop_assert!(!d.code.as_str().is_empty());
        prop_assert!(!d.message.is_empty(), "{} has no message", d.code);
        let primary = d.labels.iter().find(|l| l.style == LabelStyle::Primary);
        prop_assert!(primary.is_some(), "{} has no primary label", d.code);
        for label in &d.labels {
            let file = map.get(label.span.file);
            prop_assert!(file.is_some(), "{}: label in an unknown file", d.code);
            let Some(file) = file else { continue };
            let text = file.text();
            let (start, end) = (label.span.start as usize, label.span.end as usize);
            prop_assert!(
                start <= end && end <= text.len(),
                "{}: span {start}..{end} outside the text",
                d.code
            );
            prop_assert!(
                text.is_char_boundary(start) && text.is_char_boundary(end),
                "{}: span {start}..{end} splits a character",
                d.code
            );
            let (line, column) = file.line_col(start);
            let lines = text.matches('\n').count() + 1;
            prop_assert!(
                line >= 1 && line <= lines,
                "{}: line {line} of {lines}",
                d.code
            );
            let line_len = text.lines().nth(line - 1).map_or(0, |l| l.chars().count());
            prop_assert!(
                column >= 1 && column <= line_len + 1,
                "{}: column {column}",
                d.code
            );
        }
    }
    let sorted = diagnostics.sorted();
    let _ = human_string(map, &sorted);
    let _ = json_lines(map, &sorted);
    Ok(())
}

/// Splits text into tokens for mutation: words, strings, single
/// punctuation characters, and the whitespace between them.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len())
        } else if c.is_whitespace() {
            rest.find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len())
        } else if c == '"' {
            rest.get(1..)
                .and_then(|r| r.find('"'))
                .map_or(rest.len(), |n| n + 2)
        } else {
            c.len_utf8()
        };
        let (token, tail) = rest.split_at(len.max(c.len_utf8()).min(rest.len()));
        out.push(token);
        rest = tail;
    }
    out
}

/// The shipped and fixture sources the mutations start from.
fn corpus() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["examples", "stdlib-contracts", "tests/fixtures/syntax"] {
        collect(&root.join(dir), &mut files);
    }
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read(f).ok())
        .filter_map(|b| String::from_utf8(b).ok())
        .collect();
    assert!(
        !texts.is_empty(),
        "no corpus files found under {}",
        root.display()
    );
    texts
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "stpc") {
            out.push(path);
        }
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert(usize, String),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let vocabulary = {
        let mut v: Vec<String> = keywords();
        v.extend(
            [
                "{", "}", "(", ")", "[", "]", ";", ",", ":", "::", ".", "<", "<=", ">=", "==",
                "!=", "->", "=>", "=", "-", "#", "\"", "\"x\"", "r\"\\d\"", "r#\"", "0.5", "1.",
                ".5", "//", "/*", "*/", "\n", " ", "é", "&&", "\\", "x",
            ]
            .map(str::to_string),
        );
        v
    };
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (any::<usize>(), prop::sample::select(vocabulary))
            .prop_map(|(i, t)| Mutation::Insert(i, t)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut toks: Vec<String> = tokens(text).into_iter().map(str::to_string).collect();
    for m in mutations {
        if toks.is_empty() {
            break;
        }
        let n = toks.len();
        match m {
            Mutation::Delete(i) => {
                toks.remove(i % n);
            }
            Mutation::Duplicate(i) => {
                let t = toks.get(i % n).cloned().unwrap_or_default();
                toks.insert(i % n, t);
            }
            Mutation::Swap(a, b) => toks.swap(a % n, b % n),
            Mutation::Insert(i, t) => toks.insert(i % (n + 1), t.clone()),
        }
    }
    toks.concat()
}

// ------------------------------------------------------------------ properties

proptest! {
    #![proptest_config(config())]

    #[test]
    fn printing_then_parsing_gives_the_same_ast(file in file()) {
        let printed = print::print(&file);
        let (map, parsed, diagnostics) = parse(&printed);
        prop_assert!(
            diagnostics.is_empty(),
            "the printed file does not parse:\n{printed}\n{}",
            human_string(&map, &diagnostics.sorted())
        );
        let parsed = parsed.unwrap_or_default();
        prop_assert_eq!(&parsed, &file, "printed:\n{}", printed);
        prop_assert_eq!(print::print(&parsed), printed);
    }

    #[test]
    fn printing_adds_the_parentheses_a_guard_needs(e in bare_expr()) {
        let e = strip_parens(e);
        let text = format!("contract c {{ decide {{ allow when {}; }} }}", print::expr(&e));
        let (map, parsed, diagnostics) = parse(&text);
        prop_assert!(diagnostics.is_empty(), "{text}\n{}", human_string(&map, &diagnostics.sorted()));
        let guard = parsed
            .and_then(|f| f.items.into_iter().next())
            .and_then(|item| match item {
                Item::Contract(c) => c.stmts.into_iter().next(),
                _ => None,
            })
            .and_then(|stmt| match stmt {
                ContractStmt::Decide(d) => d.rules.into_iter().next(),
                _ => None,
            })
            .and_then(|r| r.guard);
        prop_assert!(guard.is_some(), "no guard in {}", text);
        if let Some(g) = guard {
            prop_assert_eq!(strip_parens(g.expr), e, "printed: {}", text);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in prop_oneof![
        any::<String>(),
        "[a-z{}();:,.<>=!#\"\\\\/* \n0-9_-]{0,80}",
    ]) {
        let (map, ast, diagnostics) = parse(&text);
        check_outcome(&map, ast.as_ref(), &diagnostics)?;
    }

    #[test]
    fn mutated_sources_never_panic(
        index in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let corpus = corpus();
        let original = index.get(&corpus);
        let text = mutate(original, &mutations);
        let (map, ast, diagnostics) = parse(&text);
        check_outcome(&map, ast.as_ref(), &diagnostics)?;
    }

    #[test]
    fn truncated_sources_never_panic(index in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>()) {
        let corpus = corpus();
        let original = index.get(&corpus).as_bytes();
        let bytes = &original[..cut.index(original.len() + 1)];
        let mut map = SourceMap::new();
        let mut diagnostics = Diagnostics::new();
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                let id = map.add("t.stpc", text);
                let ast = syntax::parse(id, text, &mut diagnostics);
                check_outcome(&map, ast.as_ref(), &diagnostics)?;
            }
            Err(_) => {
                // A cut inside a character: E0112, located in the lossy text.
                let id = map.add("t.stpc", String::from_utf8_lossy(bytes).into_owned());
                prop_assert!(syntax::decode(id, bytes, &mut diagnostics).is_none());
                prop_assert_eq!(diagnostics.codes(), vec![stpc_compiler::Code::E0112]);
                check_outcome(&map, None, &diagnostics)?;
            }
        }
    }
}

#[test]
fn the_corpus_parses_before_mutation() {
    // The examples and the standard library are valid; the mutations start
    // from meaningful text.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    collect(&root.join("examples"), &mut files);
    collect(&root.join("stdlib-contracts"), &mut files);
    for f in files {
        let text = String::from_utf8(std::fs::read(&f).expect("readable")).expect("utf-8");
        let (map, ast, diagnostics) = parse(&text);
        assert!(
            ast.is_some(),
            "{}:\n{}",
            f.display(),
            human_string(&map, &diagnostics.sorted())
        );
    }
}
