//! Deprecated spellings rewritten to the one the language keeps, on the
//! AST, for `stpc fmt`:
//!
//! - `a <= b` in a lattice chain is `a < b` (`W0006`);
//! - `mode == m` in a guard is `m`, and `mode != m` is `not m` (`W0007`);
//! - `mode m` in a test event is `m` (`W0008`).
//!
//! The checker reports each old spelling with a fix; the formatter applies
//! all of them, so a formatted file never carries one. Every rewrite keeps
//! the meaning (the checker reads both spellings the same way) and the
//! source locations, so comments stay where they were.
//!
//! The walk over guards is iterative (an explicit stack), so a guard of any
//! depth is rewritten without growing the call stack.

use super::ast::{
    CmpOp, CompareSubject, CompareTest, ContractStmt, EventClause, Expr, File, Item, Operand,
};

/// Rewrites every deprecated spelling of `file` in place.
pub fn modernize(file: &mut File) {
    for item in &mut file.items {
        match item {
            Item::Lattice(l) => {
                for chain in &mut l.chains {
                    for op in &mut chain.ops {
                        if op == "<=" {
                            "<".clone_into(op);
                        }
                    }
                }
            }
            Item::Contract(c) => {
                for stmt in &mut c.stmts {
                    match stmt {
                        ContractStmt::Decide(d) => {
                            for rule in &mut d.rules {
                                if let Some(g) = &mut rule.guard {
                                    modernize_expr(&mut g.expr);
                                }
                            }
                        }
                        ContractStmt::Test(t) => {
                            for clause in &mut t.clauses {
                                if let EventClause::Mode(_, written) = clause {
                                    *written = None;
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// Rewrites `mode == m` and `mode != m` everywhere inside `expr`.
fn modernize_expr(expr: &mut Expr) {
    let mut stack: Vec<&mut Expr> = vec![expr];
    while let Some(e) = stack.pop() {
        if let Some(short) = shorter(e) {
            *e = short;
        }
        match e {
            Expr::Not(inner, _) | Expr::Paren(inner, _) => stack.push(inner),
            Expr::And(a, b, _) | Expr::Or(a, b, _) => {
                stack.push(a);
                stack.push(b);
            }
            Expr::Bool(..) | Expr::Predicate(..) | Expr::Compare(_) | Expr::Flag(_) => {}
        }
    }
}

/// The bare-mode spelling of a mode comparison, if `e` is one.
fn shorter(e: &Expr) -> Option<Expr> {
    let Expr::Compare(c) = e else { return None };
    let (CompareSubject::Mode, CompareTest::Op(op, Operand::Name(mode))) = (&c.subject, &c.test)
    else {
        return None;
    };
    let flag = Expr::Flag(mode.clone());
    match op {
        CmpOp::Eq => Some(flag),
        CmpOp::Ne => Some(Expr::Not(Box::new(flag), c.loc)),
        CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge => None,
    }
}
