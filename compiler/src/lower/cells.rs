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
pub(crate) fn cells(c: &hir::Contract, ix: &Index, cell_rules: &[u32]) -> Vec<t::Cell> {
    cell_rules
        .iter()
        .filter_map(|r| c.rules.get(*r as usize).map(|rule| (*r, rule)))
        .map(|(id, rule)| {
            let (action, transforms, substitute) = match &rule.action {
                hir::Action::Allow => (t::Action::Allow, Vec::new(), None),
                hir::Action::Block => (t::Action::Block, Vec::new(), None),
                hir::Action::Defer => (t::Action::Defer, Vec::new(), None),
                hir::Action::Rewrite(ts) => (
                    t::Action::Rewrite,
                    ts.iter().filter_map(|x| ix.transform(*x)).collect(),
                    None,
                ),
                hir::Action::Shadow(s) => (
                    t::Action::Shadow,
                    Vec::new(),
                    s.and_then(|s| ix.substitute(s)),
                ),
            };
            t::Cell {
                action,
                transforms,
                substitute,
                rule_id: id,
                rule_name: rule_name(rule, id as usize),
            }
        })
        .collect()
}
