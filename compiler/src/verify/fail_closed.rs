//! Fail-closed: a `<missing>` label, an `<unknown>` tool or an `<unknown>`
//! destination must end in DEFER or BLOCK (an `<unknown>` destination only
//! when the contract does not decide undeclared destinations by label).
//!
//! A prefix that fixes such a dimension to its `<missing>`/`<unknown>`
//! value, or leaves it free, contains such points; no cell below it may
//! disclose.
//! SHADOW counts as disclosing here: for an unknown tool there is no
//! substitute to run, and for a missing label nothing says the substitute
//! may see the value.

use std::collections::BTreeMap;

use super::{cubes, errors, point, Cx};
use crate::diagnostics::Diagnostic;
use stpc_runtime::Action;

pub(crate) fn check(
    cx: &Cx<'_>,
    prefixes: &[cubes::Prefix],
    below: &mut cubes::Below,
    out: &mut Vec<Diagnostic>,
) {
    let t = cx.table;
    let cases = [
        (
            point::TOOL,
            t.tools.len(),
            "a tool the contract does not know (`<unknown>`)",
            "block unless tool allowed;",
        ),
        (
            point::DEST,
            t.destinations.len(),
            "a destination the contract does not know (`<unknown>`)",
            "block unless destination allowed;",
        ),
        (
            point::ARG,
            t.lattices.args.labels.len(),
            "arguments without a label (`<missing>`)",
            "block when labels missing;",
        ),
        (
            point::DLABEL,
            t.lattices.destination.labels.len(),
            "a destination without a label (`<missing>`)",
            "block when labels missing;",
        ),
    ];
    let mut found: BTreeMap<(u32, usize), String> = BTreeMap::new();
    // A contract that allows undeclared destinations decides them by label
    // (`destinations undeclared;`): an `<unknown>` destination may then be
    // dispatched, and the soundness check proves every cut for it as seen
    // by every external observer. A `<missing>` destination label still
    // has to fail closed.
    let skip_dest = t.undeclared_destinations;
    for prefix in prefixes {
        for c in below.cells(t, prefix.node) {
            let Some(cell) = t.cells.get(c as usize) else {
                continue;
            };
            if matches!(cell.action, Action::Defer | Action::Block) {
                continue;
            }
            for (case, (dim, value, _, _)) in cases.iter().enumerate() {
                if skip_dest && *dim == point::DEST {
                    continue;
                }
                let Ok(value) = u32::try_from(*value) else {
                    continue;
                };
                let hit = match prefix.coords.get(*dim) {
                    Some(None) => true,
                    Some(Some(v)) => *v == value,
                    None => false,
                };
                if !hit || found.contains_key(&(cell.rule_id, case)) {
                    continue;
                }
                let mut p = prefix.coords.clone();
                if let Some(slot) = p.get_mut(*dim) {
                    *slot = Some(value);
                }
                // A declared destination never has a missing label (A2).
                if !cubes::feasible(t, &p) {
                    continue;
                }
                if let Some(path) = cubes::path_to(t, prefix.node, c, &p) {
                    found.insert((cell.rule_id, case), point::render(&cx.examples, &path));
                }
            }
        }
    }
    // One diagnostic per rule, naming every case it mishandles.
    let mut by_rule: BTreeMap<u32, (Vec<&str>, Vec<&str>, String)> = BTreeMap::new();
    for ((rule, case), example) in found {
        let Some((_, _, what, fix)) = cases.get(case) else {
            continue;
        };
        let entry = by_rule
            .entry(rule)
            .or_insert_with(|| (Vec::new(), Vec::new(), example));
        entry.0.push(what);
        if !entry.1.contains(fix) {
            entry.1.push(fix);
        }
    }
    for (rule, (whats, fixes, example)) in by_rule {
        let (name, span) = cx.rule(rule);
        let action = cx.action_keyword(rule);
        let what = match whats.as_slice() {
            [one] => (*one).to_owned(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => continue,
        };
        let fixes: Vec<String> = fixes.iter().map(|f| format!("`{f}`")).collect();
        out.push(errors::not_fail_closed(
            &name,
            action,
            &what,
            &fixes.join(" and "),
            span,
            &example,
        ));
    }
}
