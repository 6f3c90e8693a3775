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
    // An unknown tool is reported here; the rest of the test is still
    // checked, so one run reports every problem in it.
    let tool_id = cx.lookup(m, &t.tool, Kind::Tool).map(hir::ToolId);
    let tool = tool_id.and_then(|id| cx.program.tool(id)).cloned();
    let mut args = Vec::new();
    for a in &t.args {
        if let Some(tool) = &tool {
            known_field(cx, tool, &a.name);
        }
        args.push((a.name.name.clone(), value(&a.value)));
    }
    let mut event = Clauses::default();
    for clause in &t.clauses {
        event.add(cx, m, c, tool.as_ref(), clause);
    }
    // `expect labels { .. }` names labels as a pin does.
    let mut expected = Clauses::default();
    for (target, label) in t.expect_labels.iter().flat_map(|(b, _)| b) {
        expected.label(cx, tool.as_ref(), target, label);
    }
    // `to { .. }`: what leaves, so only for the actions that dispatch.
    let expect_to = t.expect_to.as_ref().map(|(fields, loc)| {
        if !matches!(
            t.expect,
            ast::ExpectAction::Allow | ast::ExpectAction::Rewrite
        ) {
            cx.diags.push(errors::bad_test(
                &format!(
                    "nothing is dispatched on `{}`, so `to {{ .. }}` has nothing to describe",
                    t.expect.keyword()
                ),
                loc.span(),
                "`expect ... to { .. }` states the arguments an `allow` or a `rewrite` sends",
            ));
        }
        fields
            .iter()
            .map(|a| {
                if let Some(tool) = &tool {
                    known_field(cx, tool, &a.name);
                }
                (a.name.name.clone(), value(&a.value))
            })
            .collect()
    });
    let expect_rule = t.expect_rule.as_ref().and_then(|rule| {
        let found = c
            .rules
            .iter()
            .position(|r| r.name.as_deref() == Some(rule.name.as_str()));
        if found.is_none() {
            let names = c.rules.iter().filter_map(|r| r.name.as_deref());
            cx.diags.push(crate::resolve::errors::unknown_name(
                "rule",
                &rule.name,
                rule.loc.span(),
                names,
                None,
            ));
        }
        found.and_then(hir::RuleId::from_index)
    });
    Some(hir::Test {
        name: t.name.value.clone(),
        tool: tool_id?,
        args,
        destination: event.destination,
        mode: event.mode,
        confidence: event.confidence,
        branch: event.branch,
        after: event.after,
        labels: event.labels,
        expect: expect(t.expect),
        expect_rule,
        expect_to,
        expect_labels: expected.labels,
        span: t.loc.span(),
    })
}

/// Reports a field the tool does not declare.
fn known_field(cx: &mut Cx<'_>, tool: &hir::Tool, name: &ast::Ident) {
    if tool.field(&name.name).is_none() {
        let names = tool.fields.iter().map(|f| f.name.as_str());
        let whose = format!("tool `{}` has no field `{}`", tool.name, name.name);
        cx.diags.push(errors::unknown_field(
            &name.name,
            &whose,
            name.loc.span(),
            names,
        ));
    }
}

/// The event clauses of a test (`to`, mode, `confidence`, `branch`,
/// `after`, `labels`), checked one by one.
#[derive(Default)]
struct Clauses {
    destination: Option<hir::TestDest>,
    mode: Option<hir::ModeId>,
    confidence: Option<f64>,
    branch: Option<String>,
    after: Vec<(hir::BudgetId, u32)>,
    labels: Vec<(hir::LabelTarget, hir::LabelId)>,
}

impl Clauses {
    fn add(
        &mut self,
        cx: &mut Cx<'_>,
        m: usize,
        c: &hir::Contract,
        tool: Option<&hir::Tool>,
        clause: &ast::EventClause,
    ) {
        match clause {
            ast::EventClause::ToName(n) => {
                self.destination = cx
                    .lookup(m, n, Kind::Destination)
                    .map(|d| hir::TestDest::Named(hir::DestId(d)));
            }
            ast::EventClause::ToAddress(s) => {
                self.destination = Some(hir::TestDest::Address(s.value.clone()))
            }
            ast::EventClause::Mode(n, written) => {
                if let Some(clause) = written {
                    cx.diags
                        .push(errors::test_mode_keyword(clause.span(), &n.name));
                }
                self.mode = cx.mode(n);
            }
            ast::EventClause::Confidence(n) => {
                let v = n.value();
                if !(0.0..=1.0).contains(&v) {
                    cx.diags
                        .push(errors::out_of_unit("confidence", &n.text, n.loc.span()));
                }
                self.confidence = Some(v);
            }
            ast::EventClause::Branch(s) => self.branch = Some(s.value.clone()),
            ast::EventClause::After(n, b) => self.after(cx, c, n, b),
            ast::EventClause::Labels(bindings) => {
                for (target, label) in bindings {
                    self.label(cx, tool, target, label);
                }
            }
        }
    }

    /// `after N dispatches of budget`.
    fn after(&mut self, cx: &mut Cx<'_>, c: &hir::Contract, n: &ast::Number, b: &ast::Ident) {
        let Some(id) = c.budget(&b.name) else {
            let names = c.budgets.iter().map(|b| b.name.as_str());
            cx.diags.push(crate::resolve::errors::unknown_name(
                "budget",
                &b.name,
                b.loc.span(),
                names,
                None,
            ));
            return;
        };
        match n.text.parse::<u32>() {
            Ok(k) => self.after.push((id, k)),
            Err(_) => cx.diags.push(errors::bad_test(
                &format!("`after {}` is not a whole number of dispatches", n.text),
                n.loc.span(),
                "write a count such as `after 5 dispatches of b`",
            )),
        }
    }

    /// One `field: label` or `destination: label` binding of `labels { ... }`.
    fn label(
        &mut self,
        cx: &mut Cx<'_>,
        tool: Option<&hir::Tool>,
        target: &ast::Ident,
        label: &ast::Ident,
    ) {
        if target.name == "destination" {
            if let Some(l) = cx.label(hir::Subject::Destination, label) {
                self.labels.push((hir::LabelTarget::Destination, l));
            }
            return;
        }
        if let Some(tool) = tool {
            known_field(cx, tool, target);
        }
        if let Some(l) = cx.label(hir::Subject::Args, label) {
            self.labels
                .push((hir::LabelTarget::Field(target.name.clone()), l));
        }
    }
}
