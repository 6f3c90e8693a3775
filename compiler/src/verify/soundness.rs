//! The soundness invariant (Theorem 1) on one point: what each observer
//! receives under the point's cell, and whether a forbidden label is in it.
//!
//! Stated from the table alone, so it also checks lowering:
//!
//! - **ALLOW** dispatches unchanged: the destination's observers (every
//!   external observer for an `<unknown>` destination) receive the argument
//!   label on the `arguments` channel and the destination label on the
//!   `destination` channel.
//! - **REWRITE** dispatches with every field at or above an argument cut
//!   that applies to the destination (the runtime's rule: the cut names one
//!   of the destination's external observers) replaced by a transform's
//!   declared output; the other fields keep their labels. Since only the
//!   joined label is known, the rest is every label below the joined one
//!   that no applicable cut forbids, joined: the worst combination of
//!   fields. The destination channel is unchanged.
//! - **SHADOW** runs the cell's substitute (or the tool's own) and emits
//!   only to the substitute's observers; an external one is a leak whatever
//!   the labels. A tool without a substitute fails closed at run time.
//! - A cut scoped `unless committed` (or any list of modes) is checked
//!   only at points of the other modes: it states the marginal exposure
//!   `Δ_i`, what ghost calls add to what the committed plan discloses.
//!   Every point of a table with such a cut has its mode fixed.
//! - The audit sinks read a record of every dispatched event, which names
//!   its destination: a destination cut that names a sink is checked at
//!   every ALLOW and REWRITE as if the sink observed the dispatch. (Records
//!   of events that never left are the audit policy's business, checked
//!   once for the whole table: `without destination unless dispatched`.)
//! - **DEFER** and **BLOCK** dispatch nothing now. An abandoned event is
//!   never dispatched; a promoted one is re-decided as `committed` with
//!   confidence 1.0, which is another point of the domain, checked in its
//!   own right (the note on a committed counterexample says so).

use super::point::Event;
use stpc_runtime::table::{Action, Cell, Locality, Subject, Table};

/// One forbidden label reaching one observer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Leak {
    /// Index of the violated cut in `table.forbid` (`None`: an external
    /// observer of a SHADOW substitute).
    pub(crate) cut: Option<usize>,
    /// The observer that receives it.
    pub(crate) observer: u32,
    /// The label it receives.
    pub(crate) label: Option<u32>,
    /// The substitute, for SHADOW.
    pub(crate) substitute: Option<u32>,
    /// For REWRITE: the label left after the rewrite.
    pub(crate) rewritten: bool,
}

fn sees(t: &Table, o: u32, channel: &str) -> bool {
    t.observers
        .get(o as usize)
        .is_some_and(|o| o.sees.iter().any(|c| c == channel))
}

fn external(t: &Table, o: u32) -> bool {
    t.observers
        .get(o as usize)
        .is_some_and(|o| o.locality == Locality::External)
}

fn channel(s: Subject) -> &'static str {
    match s {
        Subject::Args => "arguments",
        Subject::Destination => "destination",
    }
}

/// Observers of a dispatch to `dest` (`None`: every external observer).
fn dispatch_observers(t: &Table, dest: Option<u32>) -> Vec<u32> {
    match dest.and_then(|d| t.destinations.get(d as usize)) {
        Some(d) => d.observers.clone(),
        None => (0..t.observers.len())
            .filter_map(|o| u32::try_from(o).ok())
            .filter(|o| external(t, *o))
            .collect(),
    }
}

/// The forbidden labels that reach an observer at `e` under `cell`.
pub(crate) fn leaks(t: &Table, e: &Event, cell: &Cell) -> Vec<Leak> {
    match cell.action {
        Action::Defer | Action::Block => Vec::new(),
        Action::Allow => dispatch(t, e, e.arg, false),
        Action::Rewrite => match rewritten_label(t, e, cell) {
            // Nothing the cell's transforms can change: the monitor re-labels
            // the unchanged arguments, finds them still at the cut and refuses
            // (`rewrite_insufficient`, DEFER or BLOCK), so nothing is
            // dispatched on any channel. A tool without arguments (whose
            // label can only come from undeclared keys) is the common case.
            Refusal::Refused => Vec::new(),
            Refusal::Dispatched(arg, rewritten) => dispatch(t, e, arg, rewritten),
        },
        Action::Shadow => shadow(t, e, cell),
    }
}

fn dispatch(t: &Table, e: &Event, arg: Option<u32>, rewritten: bool) -> Vec<Leak> {
    let observers = dispatch_observers(t, e.dest);
    // The audit sinks read the record of every dispatched event, which
    // names its destination: for a destination cut they observe it too.
    let sinks: Vec<u32> = t
        .audit
        .sinks
        .iter()
        .copied()
        .filter(|o| !observers.contains(o))
        .collect();
    let mut out = Vec::new();
    for (i, cut) in t
        .forbid
        .iter()
        .enumerate()
        .filter(|(_, c)| c.covers(e.mode))
    {
        let (label, lattice) = match cut.subject {
            Subject::Args => (arg, &t.lattices.args),
            Subject::Destination => (e.dlabel, &t.lattices.destination),
        };
        // A missing label is the fail-closed check's business.
        let Some(label) = label else { continue };
        if !lattice.leq(cut.label, label) {
            continue;
        }
        // A sink reads the record on the `audit` channel, or the
        // destination channel itself.
        let audited = |o: u32| {
            cut.subject == Subject::Destination
                && sinks.contains(&o)
                && (sees(t, o, "audit") || sees(t, o, "destination"))
        };
        for o in cut.observers.iter().filter(|o| {
            (observers.contains(o) && sees(t, **o, channel(cut.subject))) || audited(**o)
        }) {
            out.push(Leak {
                cut: Some(i),
                observer: *o,
                label: Some(label),
                substitute: None,
                rewritten: rewritten && cut.subject == Subject::Args,
            });
        }
    }
    out
}

/// What a REWRITE cell does with an event at run time.
enum Refusal {
    /// Dispatched with this joined argument label; whether anything was
    /// rewritten.
    Dispatched(Option<u32>, bool),
    /// The arguments are at a cut and no transform fits any field, so the
    /// monitor refuses the call.
    Refused,
}

/// The joined argument label after a REWRITE, and whether anything was
/// rewritten.
fn rewritten_label(t: &Table, e: &Event, cell: &Cell) -> Refusal {
    let lat = &t.lattices.args;
    let Some(a) = e.arg else {
        return Refusal::Dispatched(None, false);
    };
    let external: Vec<u32> = dispatch_observers(t, e.dest)
        .into_iter()
        .filter(|o| external(t, *o))
        .collect();
    let cuts: Vec<u32> = t
        .forbid
        .iter()
        .filter(|c| {
            c.subject == Subject::Args
                && c.covers(e.mode)
                && c.observers.iter().any(|o| external.contains(o))
        })
        .map(|c| c.label)
        .collect();
    let forbidden = |l: u32| cuts.iter().any(|c| lat.leq(*c, l));
    if !forbidden(a) {
        return Refusal::Dispatched(Some(a), false);
    }
    let tool = e.tool.and_then(|i| t.tools.get(i as usize));
    let mut out: Option<u32> = None;
    for tr in cell
        .transforms
        .iter()
        .filter_map(|i| t.transforms.get(*i as usize))
    {
        let fits = tool.is_none_or(|tool| {
            tool.args
                .iter()
                .any(|f| stpc_runtime::transform::fits(&tr.applies_to, &f.ty))
        });
        if fits {
            // A join a validated table cannot miss; if it does, keep the
            // forbidden label, so the cell is reported rather than passed.
            out = Some(out.map_or(tr.output_label, |o| {
                lat.join(o, tr.output_label).unwrap_or(a)
            }));
        }
    }
    // No transform fits a field: nothing changes. The monitor refuses when
    // some field is still at a cut, which a forbidden join implies only in
    // a chain (in a lattice with incomparable labels two allowed fields can
    // join above the cut, and the unchanged call is dispatched).
    let Some(mut post) = out else {
        return if is_chain(lat) {
            Refusal::Refused
        } else {
            Refusal::Dispatched(Some(a), false)
        };
    };
    for l in 0..u32::try_from(lat.labels.len()).unwrap_or(0) {
        if lat.leq(l, a) && !forbidden(l) {
            post = lat.join(post, l).unwrap_or(a);
        }
    }
    Refusal::Dispatched(Some(post), true)
}

fn shadow(t: &Table, e: &Event, cell: &Cell) -> Vec<Leak> {
    let own = e
        .tool
        .and_then(|i| t.tools.get(i as usize))
        .and_then(|tool| tool.substitute);
    let Some(s) = cell.substitute.or(own) else {
        return Vec::new();
    };
    let Some(sub) = t.substitutes.get(s as usize) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for o in &sub.observers {
        if external(t, *o) {
            out.push(Leak {
                cut: None,
                observer: *o,
                label: None,
                substitute: Some(s),
                rewritten: false,
            });
            continue;
        }
        for (i, cut) in t
            .forbid
            .iter()
            .enumerate()
            .filter(|(_, c)| c.covers(e.mode))
        {
            let (label, lattice) = match cut.subject {
                Subject::Args => (e.arg, &t.lattices.args),
                Subject::Destination => (e.dlabel, &t.lattices.destination),
            };
            let Some(label) = label else { continue };
            if lattice.leq(cut.label, label)
                && cut.observers.contains(o)
                && sees(t, *o, channel(cut.subject))
            {
                out.push(Leak {
                    cut: Some(i),
                    observer: *o,
                    label: Some(label),
                    substitute: Some(s),
                    rewritten: false,
                });
            }
        }
    }
    out
}

/// Whether every two labels of `lat` are comparable.
fn is_chain(lat: &stpc_runtime::table::Lattice) -> bool {
    let n = u32::try_from(lat.labels.len()).unwrap_or(0);
    (0..n).all(|a| (0..n).all(|b| lat.leq(a, b) || lat.leq(b, a)))
}
