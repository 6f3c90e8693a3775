//! Building `test` blocks: the event, its JSON-like argument values and
//! clauses, and the expectation.

use super::{BuildError, Builder, Result};
use crate::syntax::ast::*;
use crate::syntax::grammar::Rule;
use pest::iterators::Pair;

impl Builder {
    pub(super) fn test(&self, pair: Pair<'_, Rule>) -> Result<Test> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.text(c.expect(Rule::string)?)?;
        let mut ec = self.children(c.expect(Rule::test_event)?);
        let tool = self.ident(ec.expect(Rule::ident)?)?;
        let args = ec
            .all(Rule::call_arg)
            .into_iter()
            .map(|a| self.call_arg(a))
            .collect::<Result<Vec<_>>>()?;
        let mut clauses = Vec::new();
        while let Some(p) = ec.next_any() {
            clauses.push(self.event_clause(p)?);
        }
        let expect_labels = match c.optional(Rule::expect_labels) {
            Some(p) => {
                let lloc = self.loc(&p);
                let mut lc = self.children(p);
                let bindings = lc
                    .all(Rule::label_binding)
                    .into_iter()
                    .map(|b| self.label_binding(b))
                    .collect::<Result<Vec<_>>>()?;
                lc.finish()?;
                Some((bindings, lloc))
            }
            None => None,
        };
        let mut xc = self.children(c.expect(Rule::expectation)?);
        let action_pair = xc.expect(Rule::expect_action)?;
        let ac = self.children(action_pair);
        let expect = if ac.has_keyword(Rule::kw_allow) {
            ExpectAction::Allow
        } else if ac.has_keyword(Rule::kw_block) {
            ExpectAction::Block
        } else if ac.has_keyword(Rule::kw_defer) {
            ExpectAction::Defer
        } else if ac.has_keyword(Rule::kw_rewrite) {
            ExpectAction::Rewrite
        } else {
            ExpectAction::Shadow
        };
        let expect_rule = match xc.optional(Rule::ident) {
            Some(p) => Some(self.ident(p)?),
            None => None,
        };
        let expect_to = match xc.optional(Rule::expect_to) {
            Some(p) => {
                let tloc = self.loc(&p);
                let mut tc = self.children(p);
                let mut oc = self.children(tc.expect(Rule::object_value)?);
                let fields = oc
                    .all(Rule::call_arg)
                    .into_iter()
                    .map(|a| self.call_arg(a))
                    .collect::<Result<Vec<_>>>()?;
                oc.finish()?;
                tc.finish()?;
                Some((fields, tloc))
            }
            None => None,
        };
        xc.finish()?;
        c.finish()?;
        Ok(Test {
            name,
            tool,
            args,
            clauses,
            expect,
            expect_rule,
            expect_to,
            expect_labels,
            loc,
        })
    }

    fn call_arg(&self, pair: Pair<'_, Rule>) -> Result<CallArg> {
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let value = self.value(c.expect(Rule::value)?)?;
        c.finish()?;
        Ok(CallArg { name, value })
    }

    fn value(&self, pair: Pair<'_, Rule>) -> Result<Value> {
        let mut c = self.children(pair);
        let inner = c.next_any().ok_or_else(|| BuildError {
            span: c.parent,
            what: "empty value".into(),
        })?;
        c.finish()?;
        let loc = self.loc(&inner);
        Ok(match inner.as_rule() {
            Rule::string => Value::Str(self.text(inner)?),
            Rule::number => Value::Number(self.number(inner)?),
            Rule::lit_bool => Value::Bool(self.children(inner).has_keyword(Rule::kw_true), loc),
            Rule::list_value => {
                let mut lc = self.children(inner);
                let items = lc
                    .all(Rule::value)
                    .into_iter()
                    .map(|v| self.value(v))
                    .collect::<Result<Vec<_>>>()?;
                lc.finish()?;
                Value::List(items, loc)
            }
            Rule::object_value => {
                let mut oc = self.children(inner);
                let items = oc
                    .all(Rule::call_arg)
                    .into_iter()
                    .map(|v| self.call_arg(v))
                    .collect::<Result<Vec<_>>>()?;
                oc.finish()?;
                Value::Object(items, loc)
            }
            _ => return Err(self.unexpected(&inner, "a value")),
        })
    }

    /// `field: label` or `destination: label`.
    fn label_binding(&self, pair: Pair<'_, Rule>) -> Result<(Ident, Ident)> {
        let bloc = self.loc(&pair);
        let mut bc = self.children(pair);
        let key = match bc.optional(Rule::kw_destination) {
            Some(_) => Ident {
                name: "destination".into(),
                loc: bloc,
            },
            None => self.ident(bc.expect(Rule::ident)?)?,
        };
        let label = self.ident(bc.expect(Rule::ident)?)?;
        bc.finish()?;
        Ok((key, label))
    }

    fn event_clause(&self, pair: Pair<'_, Rule>) -> Result<EventClause> {
        let rule = pair.as_rule();
        let mut c = self.children(pair.clone());
        let clause = match rule {
            Rule::ev_to => match c.next_any() {
                Some(p) if p.as_rule() == Rule::ident => EventClause::ToName(self.ident(p)?),
                Some(p) if p.as_rule() == Rule::string => EventClause::ToAddress(self.text(p)?),
                _ => return Err(self.unexpected(&pair, "`to`")),
            },
            Rule::ev_mode => {
                let explicit = c.has_keyword(Rule::kw_mode).then(|| self.loc(&pair));
                EventClause::Mode(self.ident(c.expect(Rule::ident)?)?, explicit)
            }
            Rule::ev_confidence => EventClause::Confidence(self.number(c.expect(Rule::number)?)?),
            Rule::ev_branch => EventClause::Branch(self.text(c.expect(Rule::string)?)?),
            Rule::ev_budget => EventClause::After(
                self.number(c.expect(Rule::number)?)?,
                self.ident(c.expect(Rule::ident)?)?,
            ),
            Rule::ev_labels => EventClause::Labels(
                c.all(Rule::label_binding)
                    .into_iter()
                    .map(|b| self.label_binding(b))
                    .collect::<Result<Vec<_>>>()?,
            ),
            _ => return Err(self.unexpected(&pair, "a test event")),
        };
        c.finish()?;
        Ok(clause)
    }
}
