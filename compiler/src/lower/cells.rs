//! Terminal cells: one per rule that decides some point, carrying the
//! action, its transforms or substitute, and the rule's id and name.
//!
//! An unnamed rule gets the stable name `rule#N`, `N` its 1-based position
//! in the pipeline (the numbering the checker's diagnostics use). `#` cannot
//! occur in a source name, so a generated name never collides with a
//! written one.

use super::vocab::Index;
use crate::hir;
use stpc_runtime::table as t;

/// The display name of rule `i` (0-based) of a pipeline.
pub fn rule_name(rule: &hir::Rule, i: usize) -> String {
    rule.name
        .clone()
        .unwrap_or_else(|| format!("rule#{}", i + 1))
}

/// The cells for `cell_rules` (rule index per cell).
pub(crate) fn cells(
    p: &hir::Program,
    c: &hir::Contract,
    ix: &Index,
    cell_rules: &[u32],
) -> Vec<t::Cell> {
    cell_rules
        .iter()
        .filter_map(|r| c.rules.get(*r as usize).map(|rule| (*r, rule)))
        .map(|(id, rule)| {
            let mut cell = t::Cell {
                action: t::Action::Block,
                transforms: Vec::new(),
                substitute: None,
                rule_id: id,
                rule_name: rule_name(rule, id as usize),
                scope: None,
                reissue: false,
            };
            match &rule.action {
                hir::Action::Allow => cell.action = t::Action::Allow,
                hir::Action::Block => cell.action = t::Action::Block,
                hir::Action::Defer => cell.action = t::Action::Defer,
                hir::Action::Rewrite(rw) => {
                    cell.action = t::Action::Rewrite;
                    cell.transforms = rw
                        .transforms
                        .iter()
                        .filter_map(|x| ix.transform(*x))
                        .collect();
                    cell.scope = rw
                        .scope
                        .and_then(|l| super::vocab::local(p, hir::Subject::Args, l));
                    cell.reissue = rw.reissue;
                }
                hir::Action::Shadow(s) => {
                    cell.action = t::Action::Shadow;
                    cell.substitute = s.and_then(|s| ix.substitute(s));
                }
            }
            cell
        })
        .collect()
}
