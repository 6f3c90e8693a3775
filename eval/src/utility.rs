//! What a policy costs and what it protects, side by side: the two numbers
//! a deployment chooses a policy by.
//!
//! **Utility** is measured on the committed plan: every candidate the agent
//! ends up needing, whatever mode it was issued in. Each ends in one bucket:
//!
//! | bucket | what happened |
//! |---|---|
//! | `unchanged` | sent as issued, at issue time: full utility, no wait |
//! | `late` | sent as issued, but only once its branch was promoted (deferred, or shadowed and then reissued): the answer is right, the speculation's head start is lost |
//! | `altered` | sent with rewritten fields, or answered by a local substitute |
//! | `withheld` | deferred and never sent |
//! | `blocked` | blocked at issue or on promotion |
//!
//! `unchanged share` (unchanged over committed) is the utility axis of the
//! Pareto check: speculation exists for the head start, so a call that
//! waits for its branch has lost part of what it was for, and `late` is
//! reported beside it rather than counted as free.
//!
//! **Revealing-ghost leakage** is measured on the abandoned branches. A
//! *revealing ghost* is an abandoned speculative candidate the baseline
//! sends with an argument field, or to a destination, labeled at or above
//! `sensitive` in its lattice (the baseline, Naive by default, sends every
//! candidate as issued, so its labels are the candidate's own). A policy
//! *leaks* one when the provider receives that candidate with its revealing
//! part intact: a field still at or above `sensitive` (sent unchanged, or
//! rewritten without lowering it), or the sensitive destination itself,
//! which no rewrite changes. The leakage is the leaked share of the
//! revealing ghosts; 0 when there are none. It is a label measure: a
//! rewrite that the labeler judges generic counts as not leaking, which is
//! why `stpc eval` reports it beside the adversaries' recovery, which reads
//! the text itself.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use stpc_runtime::table::Lattice;

use crate::trace::{Dispatch, TaskTrace};

/// The label the leakage measure counts from.
pub const REVEALING: &str = "sensitive";

/// The committed plan's candidates, by what happened to them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Utility {
    /// Candidates in the committed plan.
    pub committed: usize,
    /// Sent as issued, at issue time.
    pub unchanged: usize,
    /// Sent as issued after waiting for the branch.
    pub late: usize,
    /// Sent rewritten, or answered by a substitute.
    pub altered: usize,
    /// Deferred and never sent.
    pub withheld: usize,
    /// Blocked.
    pub blocked: usize,
}

impl Utility {
    /// `unchanged / committed` (0 for an empty plan).
    #[must_use]
    pub fn unchanged_share(&self) -> f64 {
        share(self.unchanged, self.committed)
    }
}

/// Revealing ghosts and how many of them reached the provider revealing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leakage {
    /// Revealing ghosts of the frontier (the same for every policy).
    pub revealing: usize,
    /// Those the provider received with a revealing field.
    pub leaked: usize,
}

impl Leakage {
    /// `leaked / revealing` (0 when nothing is revealing).
    #[must_use]
    pub fn share(&self) -> f64 {
        share(self.leaked, self.revealing)
    }
}

#[expect(clippy::cast_precision_loss, reason = "counts of candidates")]
fn share(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// The utility buckets of one policy's traces.
#[must_use]
pub fn utility(traces: &[TaskTrace]) -> Utility {
    let mut u = Utility::default();
    for t in traces {
        u.add(t);
    }
    u
}

impl Utility {
    /// Count one task's committed plan.
    pub fn add(&mut self, t: &TaskTrace) {
        for e in t.events.iter().filter(|e| e.in_plan) {
            self.committed += 1;
            match e.dispatch {
                Dispatch::Original => self.unchanged += 1,
                Dispatch::DeferredThenPromoted { rewritten: false }
                | Dispatch::ShadowThenReissued { rewritten: false } => self.late += 1,
                Dispatch::Rewritten
                | Dispatch::ShadowedLocally
                | Dispatch::DeferredThenPromoted { rewritten: true }
                | Dispatch::ShadowThenReissued { rewritten: true } => self.altered += 1,
                Dispatch::Withheld => self.withheld += 1,
                Dispatch::Blocked => self.blocked += 1,
            }
        }
    }
}

/// The labels that make a dispatch revealing, per lattice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Revealing {
    /// Argument labels at or above [`REVEALING`].
    pub args: HashSet<String>,
    /// Destination labels at or above [`REVEALING`].
    pub destination: HashSet<String>,
}

impl Revealing {
    /// From a table's two lattices.
    #[must_use]
    pub fn of(lattices: &stpc_runtime::table::Lattices) -> Revealing {
        Revealing {
            args: revealing_labels(&lattices.args),
            destination: revealing_labels(&lattices.destination),
        }
    }

    fn reveals(&self, s: &crate::trace::Sent) -> bool {
        self.destination.contains(&s.dest_label)
            || s.labels
                .iter()
                .any(|(f, l)| f != "<destination>" && self.args.contains(l))
    }
}

/// The labels of `lattice` at or above [`REVEALING`]; empty when the
/// lattice has no such label (then nothing is revealing).
#[must_use]
pub fn revealing_labels(lattice: &Lattice) -> HashSet<String> {
    let Some(cut) = lattice.labels.iter().position(|l| l == REVEALING) else {
        return HashSet::new();
    };
    let cut = u32::try_from(cut).unwrap_or(u32::MAX);
    (0u32..)
        .zip(&lattice.labels)
        .filter(|(id, _)| lattice.leq(cut, *id))
        .map(|(_, l)| l.clone())
        .collect()
}

/// The revealing ghosts of the baseline's traces: `(task, candidate)`.
#[must_use]
pub fn revealing_ghosts(baseline: &[TaskTrace], revealing: &Revealing) -> HashSet<(usize, usize)> {
    let mut out = HashSet::new();
    for (ti, t) in baseline.iter().enumerate() {
        add_revealing_ghosts(ti, t, revealing, &mut out);
    }
    out
}

/// Add the revealing ghosts of task `ti`'s baseline trace to `out`.
pub fn add_revealing_ghosts(
    ti: usize,
    t: &TaskTrace,
    revealing: &Revealing,
    out: &mut HashSet<(usize, usize)>,
) {
    for s in &t.issued.sent {
        let ghost = t
            .events
            .get(s.index)
            .is_some_and(|e| e.speculative() && !e.in_plan);
        if ghost && revealing.reveals(s) {
            out.insert((ti, s.index));
        }
    }
}

/// How many of `ghosts` a policy's traces send to the provider revealing.
#[must_use]
pub fn leakage(
    traces: &[TaskTrace],
    ghosts: &HashSet<(usize, usize)>,
    revealing: &Revealing,
) -> Leakage {
    let mut leaked = HashSet::new();
    for (ti, t) in traces.iter().enumerate() {
        add_leaked(ti, t, ghosts, revealing, &mut leaked);
    }
    Leakage {
        revealing: ghosts.len(),
        leaked: leaked.len(),
    }
}

/// Add to `leaked` the ghosts of `ghosts` that task `ti`'s trace sends
/// revealing.
pub fn add_leaked(
    ti: usize,
    t: &TaskTrace,
    ghosts: &HashSet<(usize, usize)>,
    revealing: &Revealing,
    leaked: &mut HashSet<(usize, usize)>,
) {
    for s in &t.issued.sent {
        if ghosts.contains(&(ti, s.index)) && revealing.reveals(s) {
            leaked.insert((ti, s.index));
        }
    }
}

/// The policies no other policy beats on both axes (lower leakage share,
/// higher unchanged share, strictly better on one): indices into `points`,
/// each `(leakage share, unchanged share)`.
#[must_use]
pub fn pareto_front(points: &[(f64, f64)]) -> Vec<usize> {
    (0..points.len())
        .filter(|&i| {
            let Some(&(li, ui)) = points.get(i) else {
                return false;
            };
            !points
                .iter()
                .any(|&(l, u)| l <= li && u >= ui && (l < li || u > ui))
        })
        .collect()
}

/// The policies of a report on the front of (leakage share, unchanged
/// share): indices into `policies`. A policy without a leakage measure (a
/// lone replay) counts as leaking nothing.
#[must_use]
pub fn front_of(policies: &[crate::report::ReplayReport]) -> Vec<usize> {
    let points: Vec<(f64, f64)> = policies
        .iter()
        .map(|p| {
            (
                p.leakage.map_or(0.0, |l| l.share()),
                p.utility.unchanged_share(),
            )
        })
        .collect();
    pareto_front(&points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_keeps_what_nothing_dominates() {
        // (leakage, utility): 0 dominates 1; 2 and 3 trade off; 4 ties 3.
        let points = [(0.1, 0.9), (0.2, 0.8), (0.0, 0.5), (0.5, 1.0), (0.5, 1.0)];
        assert_eq!(pareto_front(&points), vec![0, 2, 3, 4]);
        assert!(pareto_front(&[]).is_empty());
    }

    #[test]
    fn revealing_labels_are_the_cut_and_above() {
        let lattice = Lattice {
            name: "ArgLabel".into(),
            labels: vec![
                "public".into(),
                "personal".into(),
                "sensitive".into(),
                "intent_revealing".into(),
            ],
            join: vec![
                vec![0, 1, 2, 3],
                vec![1, 1, 2, 3],
                vec![2, 2, 2, 3],
                vec![3, 3, 3, 3],
            ],
            bottom: 0,
        };
        let mut got: Vec<String> = revealing_labels(&lattice).into_iter().collect();
        got.sort();
        assert_eq!(got, ["intent_revealing", "sensitive"]);
        let mut other = lattice.clone();
        other.labels[2] = "secret".into();
        assert!(revealing_labels(&other).is_empty());
    }
}
