//! Which contract to lower, with which parameter values.
//!
//! `stpc compile FILE` lowers the one contract the file declares; with
//! several, `--contract NAME` chooses (a contract of an imported module can
//! be named too). `--param name=value` overrides a declared parameter and
//! re-resolves every threshold read from it before lowering.

use super::errors;
use crate::diagnostics::Diagnostics;
use crate::hir;
use crate::source::FileId;

/// The contract to lower, with overrides applied; `None` after reporting.
pub fn select(
    p: &hir::Program,
    roots: &[FileId],
    name: Option<&str>,
    params: &[(String, f64)],
    diagnostics: &mut Diagnostics,
) -> Option<hir::Contract> {
    let in_roots: Vec<&hir::Contract> = p
        .contracts
        .iter()
        .filter(|c| roots.contains(&c.span.file))
        .collect();
    let chosen = match name {
        Some(n) => match in_roots
            .iter()
            .copied()
            .find(|c| c.name == n)
            .or_else(|| p.contract(n))
        {
            Some(c) => c,
            None => {
                let candidates: Vec<&str> = in_roots.iter().map(|c| c.name.as_str()).collect();
                let span = in_roots.first().map(|c| c.span);
                diagnostics.push(errors::unknown_contract(n, candidates, span));
                return None;
            }
        },
        None => match in_roots.as_slice() {
            [one] => *one,
            [] => {
                diagnostics.push(errors::no_contract(None));
                return None;
            }
            [first, ..] => {
                let candidates = in_roots.iter().map(|c| c.name.as_str()).collect();
                diagnostics.push(errors::ambiguous_contract(candidates, first.span));
                return None;
            }
        },
    };
    let mut contract = chosen.clone();
    let rejected = contract.override_params(params);
    for r in &rejected {
        let candidates = contract.params.iter().map(|x| x.name.as_str()).collect();
        diagnostics.push(errors::bad_param(
            r,
            &contract.name,
            candidates,
            contract.span,
        ));
    }
    rejected.is_empty().then_some(contract)
}
