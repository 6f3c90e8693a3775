//! A call goes only where its tool says it goes: for a tool that declares
//! its destinations, an event to any other destination, even one the
//! contract allows for another tool, must end in DEFER or BLOCK.
//!
//! The allow-list of a contract is a union over its tools (`destinations
//! brave, gmail;`); without this check, `email_send` to `brave` could be
//! dispatched because `brave` is allowed for `web_search`. The pairs are
//! enumerated explicitly, not through value classes: classes are computed
//! from the diagram, which is what is being checked. SHADOW is not a
//! dispatch (the substitute never contacts the destination), so it passes.

use std::collections::{BTreeMap, HashSet};

use super::{cubes, errors, point, Cx};
use crate::diagnostics::Diagnostic;
use stpc_runtime::table::{Node, Table};
use stpc_runtime::Action;

/// The cells reachable from the root under `coords` (fixed dimensions
/// followed, free ones expanded), in increasing order.
fn reachable(t: &Table, coords: &[Option<u32>]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![t.diagram.root];
    while let Some(node) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        match t.diagram.nodes.get(node as usize) {
            Some(Node::Leaf { cell }) => out.push(*cell),
            Some(Node::Branch { dim, children }) => {
                match coords.get(usize::from(*dim)).copied().flatten() {
                    Some(v) => stack.extend(children.get(v as usize).copied()),
                    None => stack.extend(children.iter().copied()),
                }
            }
            None => {}
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

pub(crate) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let t = cx.table;
    let dims = t.dimensions.len();
    // One counterexample per rule: (tool, destination, rendered point).
    let mut found: BTreeMap<u32, (String, String, String)> = BTreeMap::new();
    for (ti, tool) in t.tools.iter().enumerate() {
        if tool.destinations.is_empty() {
            continue;
        }
        let Ok(ti) = u32::try_from(ti) else { continue };
        for (di, dest) in t.destinations.iter().enumerate() {
            let Ok(di) = u32::try_from(di) else { continue };
            if tool.destinations.contains(&di) {
                continue;
            }
            let mut coords = vec![None; dims];
            if let Some(slot) = coords.get_mut(point::TOOL) {
                *slot = Some(ti);
            }
            if let Some(slot) = coords.get_mut(point::DEST) {
                *slot = Some(di);
            }
            for c in reachable(t, &coords) {
                let Some(cell) = t.cells.get(c as usize) else {
                    continue;
                };
                if !matches!(cell.action, Action::Allow | Action::Rewrite)
                    || found.contains_key(&cell.rule_id)
                {
                    continue;
                }
                if let Some(path) = cubes::path_to(t, t.diagram.root, c, &coords) {
                    found.insert(
                        cell.rule_id,
                        (
                            tool.name.clone(),
                            dest.name.clone(),
                            point::render(t, &path),
                        ),
                    );
                }
            }
        }
    }
    for (rule, (tool, dest, example)) in found {
        let (name, span) = cx.rule(rule);
        out.push(errors::undeclared_destination(
            &name,
            cx.action_keyword(rule),
            &tool,
            &dest,
            span,
            &example,
        ));
    }
}
