//! Building contracts: statements, the `decide` pipeline and its guards
//! (a Pratt parser over `not`, `and`, `or`).

use super::{BuildError, Builder, Result, Rule_};
use crate::source::Loc;
use crate::syntax::ast::*;
use crate::syntax::grammar::Rule;
use pest::iterators::Pair;

impl Builder {
    pub(super) fn contract(&self, pair: Pair<'_, Rule>) -> Result<Contract> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = self.ident(c.expect(Rule::ident)?)?;
        let mut params = Vec::new();
        if let Some(p) = c.optional(Rule::params) {
            let mut pc = self.children(p);
            for param in pc.all(Rule::param) {
                let mut qc = self.children(param);
                let name = self.ident(qc.expect(Rule::ident)?)?;
                let default = self.number(qc.expect(Rule::number)?)?;
                qc.finish()?;
                params.push(Param { name, default });
            }
            pc.finish()?;
        }
        let extends = match c.optional(Rule::extends) {
            Some(e) => {
                let mut ec = self.children(e);
                let mut pc = self.children(ec.expect(Rule::path)?);
                let path = self.idents(&mut pc)?;
                pc.finish()?;
                ec.finish()?;
                Some(path)
            }
            None => None,
        };
        let mut stmts = Vec::new();
        while let Some(p) = c.next_any() {
            stmts.push(self.contract_stmt(p)?);
        }
        Ok(Contract {
            name,
            params,
            extends,
            stmts,
            loc,
        })
    }

    fn contract_stmt(&self, pair: Pair<'_, Rule>) -> Result<ContractStmt> {
        let loc = self.loc(&pair);
        let rule = pair.as_rule();
        if rule == Rule::decide {
            return Ok(ContractStmt::Decide(self.decide(pair)?));
        }
        if rule == Rule::test_block {
            return Ok(ContractStmt::Test(self.test(pair)?));
        }
        let mut c = self.children(pair.clone());
        let stmt = match rule {
            Rule::allow_tools | Rule::allow_dests => {
                let list = AllowList {
                    extend: c.optional(Rule::op_extend).is_some(),
                    names: self.ident_list(c.expect(Rule::ident_list)?)?,
                    loc,
                };
                if rule == Rule::allow_tools {
                    ContractStmt::Tools(list)
                } else {
                    ContractStmt::Destinations(list)
                }
            }
            Rule::use_labelers => {
                ContractStmt::Labelers(self.ident_list(c.expect(Rule::ident_list)?)?, loc)
            }
            Rule::forbid => ContractStmt::Forbid(Forbid {
                subject: self.subject(c.expect(Rule::label_subject)?)?,
                label: self.ident(c.expect(Rule::ident)?)?,
                observers: self.ident_list(c.expect(Rule::ident_list)?)?,
                unless: match c.optional(Rule::forbid_unless) {
                    Some(u) => self.ident_list(self.children(u).expect(Rule::ident_list)?)?,
                    None => Vec::new(),
                },
                loc,
            }),
            Rule::threshold => {
                let mode = self.ident(c.expect(Rule::ident)?)?;
                let mut vc = self.children(c.expect(Rule::number_or_param)?);
                let value = match vc.next_any() {
                    Some(p) if p.as_rule() == Rule::number => {
                        NumberOrParam::Number(self.number(p)?)
                    }
                    Some(p) if p.as_rule() == Rule::ident => NumberOrParam::Param(self.ident(p)?),
                    Some(p) => return Err(self.unexpected(&p, "a threshold")),
                    None => return Err(self.unexpected(&pair, "a threshold")),
                };
                vc.finish()?;
                ContractStmt::Threshold(Threshold { mode, value, loc })
            }
            Rule::budget => ContractStmt::Budget(Budget {
                name: self.ident(c.expect(Rule::ident)?)?,
                limit: self.number(c.expect(Rule::number)?)?,
                subject: self.subject(c.expect(Rule::label_subject)?)?,
                label: self.ident(c.expect(Rule::ident)?)?,
                loc,
            }),
            Rule::audit => {
                let none = c.has_keyword(Rule::kw_none);
                let mut audit = Audit {
                    sinks: Vec::new(),
                    raw_args: None,
                    withheld: Vec::new(),
                    scrub_after_commit: false,
                    none,
                    loc,
                };
                if let Some(to) = c.optional(Rule::audit_to) {
                    let mut tc = self.children(to);
                    let mut sc = self.children(tc.expect(Rule::audit_sinks)?);
                    audit.sinks = self.idents(&mut sc)?;
                    sc.finish()?;
                    if let Some(g) = tc.optional(Rule::raw_grant) {
                        audit.raw_args = Some(self.children(g).has_keyword(Rule::kw_with));
                    }
                    for w in tc.all(Rule::withhold) {
                        let wloc = self.loc(&w);
                        let mut wc = self.children(w);
                        let what = self.children(wc.expect(Rule::withheld)?);
                        let withheld = if what.has_keyword(Rule::kw_labels) {
                            Withheld::Labels
                        } else {
                            Withheld::Destination
                        };
                        wc.finish()?;
                        audit.withheld.push((withheld, wloc));
                    }
                    audit.scrub_after_commit = tc.optional(Rule::scrub).is_some();
                    tc.finish()?;
                }
                ContractStmt::Audit(audit)
            }
            _ => return Err(self.unexpected(&pair, "a contract")),
        };
        c.finish()?;
        Ok(stmt)
    }

    fn decide(&self, pair: Pair<'_, Rule>) -> Result<Decide> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let rules = c
            .all(Rule::decide_rule)
            .into_iter()
            .map(|r| self.rule(r))
            .collect::<Result<Vec<_>>>()?;
        c.finish()?;
        Ok(Decide { rules, loc })
    }

    fn rule(&self, pair: Pair<'_, Rule>) -> Result<Rule_> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let name = match c.optional(Rule::rule_name) {
            Some(p) => {
                let mut nc = self.children(p);
                let id = self.ident(nc.expect(Rule::ident)?)?;
                nc.finish()?;
                Some(id)
            }
            None => None,
        };
        let action = self.action(c.expect(Rule::action)?)?;
        let guard = match c.optional(Rule::guard) {
            Some(g) => {
                let mut gc = self.children(g);
                let negated = gc.has_keyword(Rule::kw_unless);
                let expr = self.expr(gc.expect(Rule::expr)?)?;
                gc.finish()?;
                Some(Guard { negated, expr })
            }
            None => None,
        };
        c.finish()?;
        Ok(Rule_ {
            name,
            action,
            guard,
            loc,
        })
    }

    fn action(&self, pair: Pair<'_, Rule>) -> Result<Action> {
        let mut c = self.children(pair);
        let inner = c.next_any().ok_or_else(|| BuildError {
            span: c.parent,
            what: "empty action".into(),
        })?;
        c.finish()?;
        let loc = self.loc(&inner);
        let rule = inner.as_rule();
        let mut ic = self.children(inner.clone());
        let action = match rule {
            Rule::act_allow => Action::Allow(loc),
            Rule::act_block => Action::Block(loc),
            Rule::act_defer => Action::Defer(loc),
            Rule::act_rewrite => {
                let scope = match ic.optional(Rule::rewrite_scope) {
                    Some(p) => {
                        let mut sc = self.children(p);
                        let label = self.ident(sc.expect(Rule::ident)?)?;
                        sc.finish()?;
                        Some(label)
                    }
                    None => None,
                };
                let transforms = self.ident_list(ic.expect(Rule::ident_list)?)?;
                let on_promote = match ic.optional(Rule::rewrite_promote) {
                    Some(p) => {
                        let ploc = self.loc(&p);
                        let mut pc = self.children(p);
                        let mode = self.promote_mode(pc.expect(Rule::promote_mode)?)?;
                        pc.finish()?;
                        Some((mode, ploc))
                    }
                    None => None,
                };
                Action::Rewrite(
                    Rewrite {
                        transforms,
                        scope,
                        on_promote,
                    },
                    loc,
                )
            }
            Rule::act_shadow => Action::Shadow(
                match ic.optional(Rule::ident) {
                    Some(p) => Some(self.ident(p)?),
                    None => None,
                },
                loc,
            ),
            _ => return Err(self.unexpected(&inner, "an action")),
        };
        ic.finish()?;
        Ok(action)
    }

    /// Guards: a Pratt parser over `not` (prefix), `and`, `or` (infix, left).
    fn expr(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        use pest::pratt_parser::{Assoc, Op, PrattParser};
        let pratt = PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not));
        pratt
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let loc = Loc(self.span(&op).to(rhs.loc().span()));
                Ok(Expr::Not(Box::new(rhs), loc))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let loc = Loc(lhs.loc().span().to(rhs.loc().span()));
                match op.as_rule() {
                    Rule::op_and => Ok(Expr::And(Box::new(lhs), Box::new(rhs), loc)),
                    Rule::op_or => Ok(Expr::Or(Box::new(lhs), Box::new(rhs), loc)),
                    _ => Err(self.unexpected(&op, "a condition")),
                }
            })
            .parse(pair.into_inner())
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> Result<Expr> {
        let loc = self.loc(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::expr => Ok(Expr::Paren(Box::new(self.expr(pair)?), loc)),
            Rule::lit_bool => Ok(Expr::Bool(
                self.children(pair).has_keyword(Rule::kw_true),
                loc,
            )),
            Rule::flag => {
                let mut c = self.children(pair);
                let id = self.ident(c.expect(Rule::ident)?)?;
                c.finish()?;
                Ok(Expr::Flag(id))
            }
            Rule::predicate => {
                let mut c = self.children(pair);
                let p = if c.has_keyword(Rule::kw_tool) {
                    Predicate::ToolAllowed
                } else if c.has_keyword(Rule::kw_destination) {
                    if c.has_keyword(Rule::kw_allowed) {
                        Predicate::DestinationAllowed
                    } else if c.has_keyword(Rule::kw_undeclared) {
                        Predicate::DestinationUndeclared
                    } else {
                        Predicate::DestinationExternal
                    }
                } else if c.has_keyword(Rule::kw_budget) {
                    Predicate::BudgetExhausted(match c.optional(Rule::ident) {
                        Some(p) => Some(self.ident(p)?),
                        None => None,
                    })
                } else if c.has_keyword(Rule::kw_labels) {
                    Predicate::LabelsMissing
                } else {
                    Predicate::SubstituteAvailable
                };
                c.finish()?;
                Ok(Expr::Predicate(p, loc))
            }
            Rule::comparison => Ok(Expr::Compare(self.comparison(pair)?)),
            _ => Err(self.unexpected(&pair, "a condition")),
        }
    }

    fn comparison(&self, pair: Pair<'_, Rule>) -> Result<Compare> {
        let loc = self.loc(&pair);
        let mut c = self.children(pair);
        let subject_pair = c.expect(Rule::subject)?;
        let subject_loc = self.loc(&subject_pair);
        let mut sc = self.children(subject_pair);
        let subject = if let Some(a) = sc.optional(Rule::args_subject) {
            let mut ac = self.children(a);
            let field = match ac.optional(Rule::ident) {
                Some(p) => Some(self.ident(p)?),
                None => None,
            };
            ac.finish()?;
            CompareSubject::Args(field)
        } else if sc.has_keyword(Rule::kw_tool) {
            CompareSubject::Tool
        } else if sc.has_keyword(Rule::kw_destination) {
            CompareSubject::Destination
        } else if sc.has_keyword(Rule::kw_mode) {
            CompareSubject::Mode
        } else if sc.has_keyword(Rule::kw_effect) {
            CompareSubject::Effect
        } else {
            CompareSubject::Confidence
        };
        sc.finish()?;
        let test = if let Some(op) = c.optional(Rule::op_cmp) {
            let op = match op.as_str() {
                "==" => CmpOp::Eq,
                "!=" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                ">=" => CmpOp::Ge,
                _ => return Err(self.unexpected(&op, "a comparison")),
            };
            let operand_pair = c.expect(Rule::operand)?;
            let oloc = self.loc(&operand_pair);
            let oc = self.children(operand_pair);
            let operand = if oc.has_keyword(Rule::kw_threshold) {
                Operand::Threshold(oloc)
            } else {
                let mut oc = oc;
                match oc.next_any() {
                    Some(p) if p.as_rule() == Rule::number => Operand::Number(self.number(p)?),
                    Some(p) if p.as_rule() == Rule::ident => Operand::Name(self.ident(p)?),
                    Some(p) => return Err(self.unexpected(&p, "an operand")),
                    None => {
                        return Err(BuildError {
                            span: oloc.span(),
                            what: "empty operand".into(),
                        })
                    }
                }
            };
            CompareTest::Op(op, operand)
        } else {
            let mut set = self.children(c.expect(Rule::set)?);
            let names = self.idents(&mut set)?;
            set.finish()?;
            CompareTest::In(names)
        };
        c.finish()?;
        Ok(Compare {
            subject,
            subject_loc,
            test,
            loc,
        })
    }
}
