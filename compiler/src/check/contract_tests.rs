//! Contract `test` blocks: the event resolved against the contract.

use super::{errors, Cx};
use crate::hir;
use crate::resolve::Kind;
use crate::syntax::ast;

fn value(v: &ast::Value) -> hir::Value {
    match v {
        ast::Value::Str(s) => hir::Value::Str(s.value.clone()),
        ast::Value::Number(n) => hir::Value::Number(n.value()),
        ast::Value::Bool(b, _) => hir::Value::Bool(*b),
        ast::Value::List(vs, _) => hir::Value::List(vs.iter().map(value).collect()),
        ast::Value::Object(fields, _) => hir::Value::Object(
            fields
                .iter()
                .map(|a| (a.name.name.clone(), value(&a.value)))
                .collect(),
        ),
    }
}

fn expect(a: ast::ExpectAction) -> hir::ActionKind {
    match a {
        ast::ExpectAction::Allow => hir::ActionKind::Allow,
        ast::ExpectAction::Block => hir::ActionKind::Block,
        ast::ExpectAction::Defer => hir::ActionKind::Defer,
        ast::ExpectAction::Rewrite => hir::ActionKind::Rewrite,
        ast::ExpectAction::Shadow => hir::ActionKind::Shadow,
    }
}

pub(crate) fn test(
    cx: &mut Cx<'_>,
    m: usize,
    c: &hir::Contract,
    t: &ast::Test,
) -> Option<hir::Test> {
    let tool_id = cx.lookup(m, &t.tool, Kind::Tool).map(hir::ToolId);
    let tool = tool_id.and_then(|id| cx.p.tool(id)).cloned();
    let mut args = Vec::new();
    for a in &t.args {
        if let Some(tool) = &tool {
            if tool.field(&a.name.name).is_none() {
                let names = tool.fields.iter().map(|f| f.name.as_str());
                let whose = format!("tool `{}` has no field `{}`", tool.name, a.name.name);
                cx.d.push(errors::unknown_field(
                    &a.name.name,
                    &whose,
                    a.name.loc.span(),
                    names,
                ));
            }
        }
        args.push((a.name.name.clone(), value(&a.value)));
    }
    let mut out = hir::Test {
        name: t.name.value.clone(),
        tool: tool_id.unwrap_or(hir::ToolId(u32::MAX)),
        args,
        destination: None,
        mode: None,
        confidence: None,
        branch: None,
        after: Vec::new(),
        labels: Vec::new(),
        expect: expect(t.expect),
        expect_rule: None,
        span: t.loc.span(),
    };
    for clause in &t.clauses {
        match clause {
            ast::EventClause::ToName(n) => {
                out.destination = cx
                    .lookup(m, n, Kind::Destination)
                    .map(|d| hir::TestDest::Named(hir::DestId(d)));
            }
            ast::EventClause::ToAddress(s) => {
                out.destination = Some(hir::TestDest::Address(s.value.clone()))
            }
            ast::EventClause::Mode(n, _) => out.mode = cx.mode(n),
            ast::EventClause::Confidence(n) => {
                let v = n.value();
                if !(0.0..=1.0).contains(&v) {
                    cx.d.push(errors::out_of_unit("confidence", &n.text, n.loc.span()));
                }
                out.confidence = Some(v);
            }
            ast::EventClause::Branch(s) => out.branch = Some(s.value.clone()),
            ast::EventClause::After(n, b) => {
                let Some(id) = c.budget(&b.name) else {
                    let names = c.budgets.iter().map(|b| b.name.as_str());
                    cx.d.push(crate::resolve::errors::unknown_name(
                        "budget",
                        &b.name,
                        b.loc.span(),
                        names,
                    ));
                    continue;
                };
                match n.text.parse::<u32>() {
                    Ok(k) => out.after.push((id, k)),
                    Err(_) => cx.d.push(errors::bad_test(
                        &format!("`after {}` is not a whole number of dispatches", n.text),
                        n.loc.span(),
                        "write a count such as `after 5 dispatches of b`",
                    )),
                }
            }
            ast::EventClause::Labels(bindings) => {
                for (target, label) in bindings {
                    if target.name == "destination" {
                        if let Some(l) = cx.label(hir::Subject::Destination, label) {
                            out.labels.push((hir::LabelTarget::Destination, l));
                        }
                        continue;
                    }
                    if let Some(tool) = &tool {
                        if tool.field(&target.name).is_none() {
                            let names = tool.fields.iter().map(|f| f.name.as_str());
                            let whose =
                                format!("tool `{}` has no field `{}`", tool.name, target.name);
                            cx.d.push(errors::unknown_field(
                                &target.name,
                                &whose,
                                target.loc.span(),
                                names,
                            ));
                        }
                    }
                    if let Some(l) = cx.label(hir::Subject::Args, label) {
                        out.labels
                            .push((hir::LabelTarget::Field(target.name.clone()), l));
                    }
                }
            }
        }
    }
    if let Some(rule) = &t.expect_rule {
        match c
            .rules
            .iter()
            .position(|r| r.name.as_deref() == Some(rule.name.as_str()))
        {
            Some(i) => out.expect_rule = Some(hir::RuleId::from_index(i)),
            None => {
                let names = c.rules.iter().filter_map(|r| r.name.as_deref());
                cx.d.push(crate::resolve::errors::unknown_name(
                    "rule",
                    &rule.name,
                    rule.loc.span(),
                    names,
                ));
            }
        }
    }
    tool_id.map(|_| out)
}
