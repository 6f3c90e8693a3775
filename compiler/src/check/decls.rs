//! Declarations: observers, destinations, tools, substitutes, lexicons,
//! labelers and transforms.

use super::{errors, Cx};
use crate::diagnostics::Diagnostic;
use crate::hir::{self, Type};
use crate::resolve::{errors as rerrors, Binding, Kind};
use crate::source::Span;
use crate::syntax::ast;
use std::collections::HashMap;

pub(crate) fn check(cx: &mut Cx<'_>) {
    observers(cx);
    destinations(cx);
    substitutes(cx);
    tools(cx);
    lexicons(cx);
    labelers(cx);
    transforms(cx);
}

fn items<'r>(cx: &Cx<'r>, kind: Kind) -> Vec<(usize, &'r ast::Item, Span)> {
    let r = cx.resolved;
    r.of_kind(kind)
        .filter_map(|d| r.item(d).map(|i| (d.module, i, d.span)))
        .collect()
}

pub(crate) fn subject(s: ast::Subject) -> hir::Subject {
    match s {
        ast::Subject::Args => hir::Subject::Args,
        ast::Subject::Destination => hir::Subject::Destination,
    }
}

fn address_kind(k: ast::AddressKind) -> hir::AddressKind {
    match k {
        ast::AddressKind::Host => hir::AddressKind::Host,
        ast::AddressKind::Url => hir::AddressKind::Url,
        ast::AddressKind::Collection => hir::AddressKind::Collection,
    }
}

pub(crate) fn observer_list(
    cx: &mut Cx<'_>,
    module: usize,
    names: &[ast::Ident],
) -> Vec<hir::ObserverId> {
    names
        .iter()
        .filter_map(|n| cx.lookup(module, n, Kind::Observer).map(hir::ObserverId))
        .collect()
}

fn observers(cx: &mut Cx<'_>) {
    for (_, item, span) in items(cx, Kind::Observer) {
        let ast::Item::Observer(o) = item else {
            cx.diags.push(Diagnostic::internal(span, "not an observer"));
            continue;
        };
        let mut sees = Vec::new();
        for c in &o.sees {
            match cx.channels.get(&c.name) {
                Some(id) => sees.push(*id),
                None => {
                    let mut names: Vec<&str> = cx.channels.keys().map(String::as_str).collect();
                    names.sort_unstable();
                    cx.diags.push(errors::unknown_channel(
                        &o.name.name,
                        &c.name,
                        c.loc.span(),
                        names,
                    ));
                }
            }
        }
        cx.program.observers.push(hir::Observer {
            name: o.name.name.clone(),
            external: o.locality == ast::Locality::External,
            sees,
            span,
        });
    }
}

fn destinations(cx: &mut Cx<'_>) {
    for (m, item, span) in items(cx, Kind::Destination) {
        let ast::Item::Destination(dst) = item else {
            cx.diags
                .push(Diagnostic::internal(span, "not a destination"));
            continue;
        };
        let mut out = hir::Destination {
            name: dst.name.name.clone(),
            addresses: Vec::new(),
            label: None,
            observers: Vec::new(),
            span,
        };
        let mut label_at: Option<Span> = None;
        for stmt in &dst.stmts {
            match stmt {
                ast::DestinationStmt::Address(k, s) => out.addresses.push(hir::Address {
                    kind: address_kind(*k),
                    value: s.value.clone(),
                }),
                ast::DestinationStmt::Label(l) => {
                    if let Some(first) = label_at {
                        cx.diags.push(errors::repeated(
                            "the destination's `label`",
                            l.loc.span(),
                            first,
                        ));
                        continue;
                    }
                    label_at = Some(l.loc.span());
                    out.label = cx.label(hir::Subject::Destination, l);
                }
                ast::DestinationStmt::ObservedBy(names) => {
                    let list = observer_list(cx, m, names);
                    out.observers.extend(list);
                }
            }
        }
        let at = dst.name.loc.span();
        if out.addresses.is_empty() {
            cx.diags.push(errors::incomplete(
                "destination",
                &out.name,
                "address",
                "add where it is: `host \"api.example.com\";`, `url \"https://...\";` or `collection \"...\";`",
                at,
            ));
        }
        if label_at.is_none() {
            cx.diags.push(errors::incomplete(
                "destination",
                &out.name,
                "label",
                "add the label of what the endpoint discloses, such as `label public;`",
                at,
            ));
        }
        cx.program.destinations.push(out);
    }
}

fn substitutes(cx: &mut Cx<'_>) {
    for (m, item, span) in items(cx, Kind::Substitute) {
        let ast::Item::Substitute(s) = item else {
            cx.diags
                .push(Diagnostic::internal(span, "not a substitute"));
            continue;
        };
        let tool = cx.lookup(m, &s.tool, Kind::Tool).map(hir::ToolId);
        let mut out = hir::Substitute {
            name: s.name.name.clone(),
            tool,
            observers: Vec::new(),
            on_promote: hir::PromoteMode::Reissue,
            span,
        };
        let mut promote_at: Option<Span> = None;
        for stmt in &s.stmts {
            match stmt {
                ast::SubstituteStmt::ObservedBy(names) => {
                    let list = observer_list(cx, m, names);
                    out.observers.extend(list);
                }
                ast::SubstituteStmt::OnPromote(mode, loc) => {
                    if let Some(first) = promote_at {
                        cx.diags
                            .push(errors::repeated("`on promote`", loc.span(), first));
                        continue;
                    }
                    promote_at = Some(loc.span());
                    out.on_promote = match mode {
                        ast::PromoteMode::Reuse => hir::PromoteMode::Reuse,
                        ast::PromoteMode::Reissue => hir::PromoteMode::Reissue,
                    };
                }
            }
        }
        cx.program.substitutes.push(out);
    }
}

/// Resolves a field type; unknown names are `E0201` and become `Type::Error`.
pub(crate) fn field_type(cx: &mut Cx<'_>, module: usize, ty: &ast::FieldType) -> Type {
    match ty {
        ast::FieldType::Named(n) => match n.name.as_str() {
            "text" => Type::Text,
            "entity" => Type::Entity,
            "time" => Type::Time,
            "number" => Type::Number,
            _ => {
                let scope = cx.resolved.modules.get(module).map(|m| &m.scope);
                if let Some(Binding::Decl(d)) = scope.and_then(|s| s.get(&n.name)) {
                    if let Some(decl) = cx.resolved.decls.get(*d).filter(|d| d.kind == Kind::Enum) {
                        cx.resolved.mark_used_from(module, *d);
                        if let Some(e) = cx.program.enums.get(decl.index as usize) {
                            return Type::Enum(e.values.clone());
                        }
                    }
                }
                let mut candidates = vec!["text", "entity", "time", "number"];
                candidates.extend(cx.program.enums.iter().map(|e| e.name.as_str()));
                cx.diags.push(rerrors::unknown_name(
                    "type",
                    &n.name,
                    n.loc.span(),
                    candidates,
                    None,
                ));
                Type::Error
            }
        },
        ast::FieldType::Enum(values, _) => {
            Type::Enum(values.iter().map(|v| v.name.clone()).collect())
        }
        ast::FieldType::List(inner, _) => Type::List(Box::new(field_type(cx, module, inner))),
    }
}

fn tools(cx: &mut Cx<'_>) {
    for (m, item, span) in items(cx, Kind::Tool) {
        let ast::Item::Tool(t) = item else {
            cx.diags.push(Diagnostic::internal(span, "not a tool"));
            continue;
        };
        let mut out = hir::Tool {
            name: t.name.name.clone(),
            effect: None,
            fields: Vec::new(),
            destinations: Vec::new(),
            substitute: None,
            span,
        };
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        for stmt in &t.stmts {
            let (what, at) = match stmt {
                ast::ToolStmt::Effect(i) => ("`effect`", i.loc.span()),
                ast::ToolStmt::Args(f) => ("`args`", f.first().map_or(span, |f| f.name.loc.span())),
                ast::ToolStmt::Destinations(d) => {
                    ("`destinations`", d.first().map_or(span, |d| d.loc.span()))
                }
                ast::ToolStmt::Substitute(i) => ("`substitute`", i.loc.span()),
            };
            if let Some(first) = seen.get(what) {
                cx.diags
                    .push(errors::repeated(&format!("the tool's {what}"), at, *first));
                continue;
            }
            seen.insert(what, at);
            match stmt {
                ast::ToolStmt::Effect(e) => out.effect = cx.effect(e),
                ast::ToolStmt::Args(fields) => {
                    let mut names: HashMap<&str, Span> = HashMap::new();
                    for f in fields {
                        if let Some(first) = names.get(f.name.name.as_str()) {
                            cx.diags.push(rerrors::duplicate(
                                "field",
                                &f.name.name,
                                f.name.loc.span(),
                                *first,
                            ));
                            continue;
                        }
                        names.insert(&f.name.name, f.name.loc.span());
                        let ty = field_type(cx, m, &f.ty);
                        out.fields.push(hir::Field {
                            name: f.name.name.clone(),
                            ty,
                            span: f.name.loc.span(),
                        });
                    }
                }
                ast::ToolStmt::Destinations(names) => {
                    for n in names {
                        if let Some(d) = cx.lookup(m, n, Kind::Destination) {
                            out.destinations.push(hir::DestId(d));
                        }
                    }
                }
                ast::ToolStmt::Substitute(s) => {
                    if let Some(sid) = cx.lookup(m, s, Kind::Substitute) {
                        let sid = hir::SubstituteId(sid);
                        let me = hir::ToolId::from_index(cx.program.tools.len());
                        if let Some(sub) = cx.program.substitute(sid) {
                            if let Some(other_tool) = sub.tool.filter(|t| Some(*t) != me) {
                                let other = cx.program.tool(other_tool).map_or_else(
                                    || {
                                        cx.resolved
                                            .of_kind(Kind::Tool)
                                            .nth(other_tool.index())
                                            .map_or("?".to_string(), |d| d.name.clone())
                                    },
                                    |t| t.name.clone(),
                                );
                                let d = errors::substitute_mismatch(
                                    &t.name.name,
                                    &s.name,
                                    &other,
                                    s.loc.span(),
                                    sub.span,
                                );
                                cx.diags.push(d);
                            }
                        }
                        out.substitute = Some(sid);
                    }
                }
            }
        }
        cx.program.tools.push(out);
    }
}

fn lexicons(cx: &mut Cx<'_>) {
    for (_, item, span) in items(cx, Kind::Lexicon) {
        let ast::Item::Lexicon(l) = item else {
            cx.diags.push(Diagnostic::internal(span, "not a lexicon"));
            continue;
        };
        cx.program.lexicons.push(hir::Lexicon {
            name: l.name.name.clone(),
            entries: l
                .entries
                .iter()
                .map(|e| {
                    (
                        e.phrase.value.clone(),
                        e.replacement.as_ref().map(|r| r.value.clone()),
                    )
                })
                .collect(),
            span,
        });
    }
}

fn entity(cx: &mut Cx<'_>, kind: &ast::Ident) -> Option<hir::EntityKind> {
    let k = hir::EntityKind::parse(&kind.name);
    if k.is_none() {
        let names = hir::EntityKind::ALL.iter().map(|k| k.as_str());
        cx.diags
            .push(errors::unknown_entity(&kind.name, kind.loc.span(), names));
    }
    k
}

fn labelers(cx: &mut Cx<'_>) {
    for (m, item, span) in items(cx, Kind::Labeler) {
        let ast::Item::Labeler(l) = item else {
            cx.diags.push(Diagnostic::internal(span, "not a labeler"));
            continue;
        };
        let subj = subject(l.subject);
        let mut out = hir::Labeler {
            name: l.name.name.clone(),
            subject: subj,
            rules: Vec::new(),
            fallback: None,
            span,
        };
        let mut fallback_at: Option<Span> = None;
        for rule in &l.rules {
            let r = match rule {
                ast::LabelRule::Fallback { label, loc } => {
                    if let Some(first) = fallback_at {
                        cx.diags.push(errors::repeated(
                            "the labeler's `fallback`",
                            loc.span(),
                            first,
                        ));
                        continue;
                    }
                    fallback_at = Some(loc.span());
                    out.fallback = cx.label(subj, label);
                    continue;
                }
                ast::LabelRule::Match(r) => r,
            };
            if subj == hir::Subject::Destination && !(r.fields.is_empty() && r.tools.is_empty()) {
                cx.diags.push(errors::labeler_rule(
                    &l.name.name,
                    "field and tool scope",
                    "destination",
                    r.loc.span(),
                ));
            }
            let at = || MatcherCx {
                module: m,
                labeler: &l.name.name,
                subject: subj,
            };
            let when: Vec<Option<hir::Matcher>> =
                r.when.iter().map(|x| matcher(cx, at(), x)).collect();
            let unless: Vec<Option<hir::Matcher>> =
                r.unless.iter().map(|x| matcher(cx, at(), x)).collect();
            let label = cx.label(subj, &r.label);
            let (Some(when), Some(unless), Some(label)) = (
                when.into_iter().collect::<Option<Vec<_>>>(),
                unless.into_iter().collect::<Option<Vec<_>>>(),
                label,
            ) else {
                continue;
            };
            out.rules.push(hir::LabelRule {
                when,
                unless,
                tools: r.tools.iter().map(|t| t.name.clone()).collect(),
                fields: r.fields.iter().map(|f| f.name.clone()).collect(),
                label,
                span: r.loc.span(),
            });
        }
        cx.program.labelers.push(out);
    }
}

/// Where a matcher is checked: the module, the labeler and its subject.
struct MatcherCx<'a> {
    module: usize,
    labeler: &'a str,
    subject: hir::Subject,
}

/// One condition of a labeler rule, resolved and checked.
fn matcher(cx: &mut Cx<'_>, at: MatcherCx<'_>, m: &ast::Matcher) -> Option<hir::Matcher> {
    // Every name is looked up (each unknown one reported), then the list.
    let lexicons = |cx: &mut Cx<'_>, names: &[ast::Ident]| {
        let ids: Vec<_> = names
            .iter()
            .map(|n| cx.lookup(at.module, n, Kind::Lexicon).map(hir::LexiconId))
            .collect();
        ids.into_iter().collect::<Option<Vec<_>>>()
    };
    match m {
        ast::Matcher::Lexicon(n) => lexicons(cx, n).map(hir::Matcher::Lexicon),
        ast::Matcher::Terms(n) => lexicons(cx, n).map(hir::Matcher::Terms),
        ast::Matcher::Parts(n) => lexicons(cx, n).map(hir::Matcher::Parts),
        ast::Matcher::Pattern(regex) => match pattern_error(&regex.value) {
            None => Some(hir::Matcher::Pattern(regex.value.clone())),
            Some(e) => {
                cx.diags.push(errors::bad_regex(&e, regex.loc.span()));
                None
            }
        },
        ast::Matcher::Entity(kind) => {
            if at.subject == hir::Subject::Destination {
                cx.diags.push(errors::labeler_rule(
                    at.labeler,
                    "entity",
                    "destination",
                    kind.loc.span(),
                ));
            }
            entity(cx, kind).map(hir::Matcher::Entity)
        }
        ast::Matcher::Address(kind, pattern) => {
            if at.subject == hir::Subject::Args {
                cx.diags.push(errors::labeler_rule(
                    at.labeler,
                    kind.keyword(),
                    "args",
                    pattern.loc.span(),
                ));
            }
            Some(hir::Matcher::Address(
                address_kind(*kind),
                pattern.value.clone(),
            ))
        }
    }
}

/// Why a pattern does not compile within the runtime's limit, if it does not.
fn pattern_error(regex: &str) -> Option<String> {
    regex::RegexBuilder::new(regex)
        .size_limit(stpc_runtime::label::limits::PATTERN_SIZE)
        .build()
        .err()
        .map(|e| e.to_string())
}

/// Whether a step applies to a value of type `ty`.
fn step_fits(step: &hir::Step, ty: &Type) -> bool {
    match ty {
        Type::Error => true,
        Type::List(inner) => step_fits(step, inner),
        _ => match step {
            hir::Step::Constant(_) => true,
            hir::Step::ReplaceLexicon(..) => *ty == Type::Text,
            hir::Step::RedactEntity(..) => matches!(ty, Type::Text | Type::Entity),
            hir::Step::CoarsenTime(_) => *ty == Type::Time,
        },
    }
}

fn transforms(cx: &mut Cx<'_>) {
    for (m, item, span) in items(cx, Kind::Transform) {
        let ast::Item::Transform(t) = item else {
            cx.diags.push(Diagnostic::internal(span, "not a transform"));
            continue;
        };
        let inputs: Vec<Type> = t.inputs.iter().map(|ty| field_type(cx, m, ty)).collect();
        let output = cx.label(hir::Subject::Args, &t.output);
        let mut steps = Vec::new();
        for step in &t.steps {
            let (s, at, text, needs) = match step {
                ast::TransformStep::ReplaceLexicon(lex, with, loc) => (
                    cx.lookup(m, lex, Kind::Lexicon).map(|i| {
                        hir::Step::ReplaceLexicon(
                            hir::LexiconId(i),
                            with.as_ref().map(|w| w.value.clone()),
                        )
                    }),
                    loc.span(),
                    "replace lexicon",
                    "text",
                ),
                ast::TransformStep::RedactEntity(kind, with, loc) => (
                    entity(cx, kind).map(|k| {
                        hir::Step::RedactEntity(k, with.as_ref().map(|w| w.value.clone()))
                    }),
                    loc.span(),
                    "redact entity",
                    "text or entity",
                ),
                ast::TransformStep::CoarsenTime(g, loc) => {
                    let parsed = hir::Granularity::parse(&g.name);
                    if parsed.is_none() {
                        let names = hir::Granularity::ALL.iter().map(|g| g.as_str());
                        cx.diags
                            .push(errors::unknown_granularity(&g.name, g.loc.span(), names));
                    }
                    (
                        parsed.map(hir::Step::CoarsenTime),
                        loc.span(),
                        "coarsen time",
                        "time",
                    )
                }
                ast::TransformStep::Constant(s, loc) => (
                    Some(hir::Step::Constant(s.value.clone())),
                    loc.span(),
                    "constant",
                    "",
                ),
            };
            let Some(s) = s else { continue };
            if !inputs.iter().any(|ty| step_fits(&s, ty)) {
                let list: Vec<String> = inputs
                    .iter()
                    .map(|t| format!("`{}`", t.display()))
                    .collect();
                cx.diags.push(errors::step_type(
                    &t.name.name,
                    text,
                    needs,
                    &list.join(", "),
                    at,
                ));
            }
            steps.push(s);
        }
        if t.steps.is_empty() {
            cx.diags.push(errors::incomplete(
                "transform",
                &t.name.name,
                "step",
                "add what it does, such as `replace lexicon topics with \"a topic\";` or `redact entity email;`",
                t.name.loc.span(),
            ));
        }
        cx.program.transforms.push(hir::Transform {
            name: t.name.name.clone(),
            inputs,
            output,
            steps,
            span,
        });
    }
}
