//! Lowering: one checked contract to a sealed decision table.
//!
//! Consumes an error-free `hir::Program` and one of its contracts; produces
//! a `stpc_runtime::table::Table` whose digest is set. Reports `E05xx` when
//! the contract does not fit the format (too many dimensions, a labeler
//! without a fallback, no `committed` mode) and `E0900` for states the
//! checker should have ruled out.
//!
//! The passes, one file each:
//!
//! ```text
//! domain    the finite abstract domain: dimensions and their values
//! guard     each rule's guard as a formula over dimension atoms (expr)
//! diagram   the reduced ordered decision diagram, top-down over the
//!           residual pipeline, memoised and hash-consed
//! vocab     lattices, tools, destinations, observers, cuts, thresholds,
//!           budgets, audit, substitutes, transforms, lexicons
//! labelers  the two labelers, merged, with their fallbacks
//! cells     one terminal per deciding rule, with provenance
//! ```
//!
//! Invariants of the output: dimensions are in the runtime's fixed order;
//! the diagram is ordered (a child tests a later dimension), reduced (no
//! branch with equal children, no two equal nodes) and total (every point
//! reaches a leaf: the last rule of an error-free pipeline is unguarded);
//! every list is in program declaration order and no hash map is iterated,
//! so lowering the same program twice gives byte-identical JSON. `verify`
//! re-checks all of this independently, from the table.

mod cells;
mod diagram;
mod domain;
mod errors;
mod expr;
mod guard;
mod labelers;
mod preempt;
mod select;
#[cfg(test)]
mod tests;
mod vocab;

pub use cells::rule_name;
pub use preempt::{preemption, Preemption};
pub use select::select;

use std::collections::BTreeMap;

use crate::diagnostics::{Diagnostic, Diagnostics};
use crate::hir;
use stpc_runtime::table::{self as t, Table, FORMAT_VERSION, MAX_DIMS};

/// Lowers `contract` of `program` to a sealed table.
///
/// Returns `None` after reporting when the contract cannot be lowered.
/// Call it only on a program the checker accepted.
pub fn lower(
    program: &hir::Program,
    contract: &hir::Contract,
    diagnostics: &mut Diagnostics,
) -> Option<Table> {
    let mut out = Vec::new();
    let table = lower_inner(program, contract, &mut out);
    diagnostics.extend(out);
    table
}

fn lower_inner(p: &hir::Program, c: &hir::Contract, out: &mut Vec<Diagnostic>) -> Option<Table> {
    preconditions(p, c, out)?;
    let domain = domain::build(p, c);
    if domain.len() > MAX_DIMS {
        let what = format!("{} dimensions, at most {MAX_DIMS}", domain.len());
        out.push(errors::domain_too_large(&c.name, &what, c.span));
        return None;
    }
    let cx = guard::Cx {
        program: p,
        contract: c,
        domain: &domain,
    };
    let rules: Vec<(u32, expr::Expr)> = c
        .rules
        .iter()
        .zip(0u32..)
        .map(|(r, i)| (i, cx.translate(&r.guard)))
        .collect();
    let built = match diagram::build(&domain, rules) {
        Ok(built) => built,
        Err(e) => {
            let what = match e {
                diagram::BuildError::NoRule => {
                    "a point of the domain matches no rule (no default rule)"
                }
                diagram::BuildError::TooLarge => {
                    "the decision diagram has more nodes, cells or dimensions than table indices hold"
                }
            };
            out.push(Diagnostic::internal(c.span, what));
            return None;
        }
    };
    let ix = vocab::index(p, c, &domain);
    let labelers = labelers::labelers(p, &ix, c, out)?;
    let errors_before = out
        .iter()
        .filter(|d| d.severity == crate::Severity::Error)
        .count();
    let tools = vocab::tools(p, &domain, &ix, out);
    let destinations = vocab::destinations(p, &domain, out);
    let transforms = vocab::transforms(p, &ix, out);
    let (forbid, thresholds, budgets, audit) = vocab::policy(p, c, out);
    let substitutes = vocab::substitutes(p, &domain, &ix, out);
    let (args, dests) = (p.args()?, p.dests()?);
    let lattices = t::Lattices {
        args: vocab::lattice(args, p, out),
        destination: vocab::lattice(dests, p, out),
    };
    // A vocabulary that could not be renumbered is an internal error
    // (reported); no table is built from it.
    if out
        .iter()
        .filter(|d| d.severity == crate::Severity::Error)
        .count()
        > errors_before
    {
        return None;
    }
    let table = Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: c.name.clone(),
        params: c
            .params
            .iter()
            .map(|x| (x.name.clone(), x.value))
            .collect::<BTreeMap<_, _>>(),
        lattices,
        dimensions: domain.dimensions(p),
        cells: cells::cells(p, c, &ix, &built.cell_rules),
        diagram: built.diagram,
        tools,
        destinations,
        undeclared_destinations: c.undeclared_destinations,
        observers: vocab::observers(p),
        forbid,
        thresholds,
        budgets,
        audit,
        substitutes,
        transforms,
        lexicons: vocab::lexicons(p, &ix),
        labelers,
        index: None,
    };
    match table.seal() {
        Ok(t) => Some(t),
        Err(e) => {
            out.push(Diagnostic::internal(
                c.span,
                format!("the table does not serialise: {e}"),
            ));
            None
        }
    }
}

/// What every table needs: both role lattices (at most 64 labels each, the
/// format's limit), a `committed` mode, and a default rule.
fn preconditions(p: &hir::Program, c: &hir::Contract, out: &mut Vec<Diagnostic>) -> Option<()> {
    let before = out.len();
    for (lat, word) in [(p.args(), "args"), (p.dests(), "destination")] {
        match lat {
            None => out.push(errors::missing_vocabulary(
                &c.name,
                &format!("no lattice is declared `for {word}`"),
                c.span,
                "import the standard lattices with `use std::labels;`",
            )),
            Some(l) if l.is_empty() || l.len() > stpc_runtime::table::validate::MAX_LABELS => {
                let what = format!(
                    "lattice `{}` has {} labels; a table allows 1 to 64",
                    l.name,
                    l.len()
                );
                out.push(errors::domain_too_large(&c.name, &what, l.span));
            }
            Some(_) => {}
        }
    }
    if p.committed.is_none() || !p.modes.iter().any(|m| m.name == "committed") {
        out.push(errors::missing_vocabulary(
            &c.name,
            "there is no execution mode `committed`",
            c.span,
            "import the standard modes with `use std::modes;`",
        ));
    }
    if !c.rules.iter().any(|r| r.guard == hir::Guard::Bool(true)) {
        out.push(Diagnostic::internal(
            c.span,
            "the pipeline has no default rule",
        ));
    }
    (out.len() == before).then_some(())
}
