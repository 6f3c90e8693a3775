//! What changes between two tables outside the cells' actions, classified.
//!
//! The cells say what each point of the domain decides; what lands on a
//! point, and what a decision does, is set elsewhere: budget limits, the
//! audit policy, transforms, labelers, destination labels, cuts,
//! thresholds, substitutes. Each difference there is a [`Finding`],
//! classified as a weakening (the new table can disclose more), a
//! strengthening, or neutral. Where the direction cannot be proven (a
//! transform's steps edited, a budget that now counts another label in an
//! order that is not comparable), the change is a weakening: a reviewer must
//! look, and `--fail-on-weakening` must fail.
//!
//! Labelers are compared by **probing**: every sample string the
//! conformance vectors draw from either table's lexicons, patterns and
//! entities (plus any probes the caller adds, such as a labeling dev set)
//! is labelled by both tables; a sample whose label falls below a forbidden
//! cut it used to reach is a weakening.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use stpc_runtime::table::{Lattice, Subject, Table};
use stpc_runtime::Engine;

/// How a finding changes what can be disclosed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Classification {
    /// The new table can disclose more.
    Weakening,
    /// The new table discloses less.
    Strengthening,
    /// No effect on what is disclosed.
    Neutral,
}

/// One difference outside the cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Weakening, strengthening or neutral.
    pub classification: Classification,
    /// What it concerns: `budget`, `audit`, `transform`, `rewrite`,
    /// `shadow`, `labeler`, `destination`, `cut`, `threshold`.
    pub subject: &'static str,
    /// One line for a reviewer.
    pub description: String,
}

fn finding(classification: Classification, subject: &'static str, d: String) -> Finding {
    Finding {
        classification,
        subject,
        description: d,
    }
}

/// `a` compared with `b` in a lattice: below, above, equal or unordered.
fn order(lat: &Lattice, a: u32, b: u32) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    match (lat.leq(a, b), lat.leq(b, a)) {
        (true, true) => Some(Equal),
        (true, false) => Some(Less),
        (false, true) => Some(Greater),
        (false, false) => None,
    }
}

fn label(lat: &Lattice, l: u32) -> String {
    lat.label_name(l).unwrap_or("?").to_owned()
}

/// Every finding between OLD and NEW; `probes` are extra argument values
/// (field name, value) for the labeler comparison.
#[must_use]
pub fn findings(old: &Table, new: &Table, probes: &[(String, Value)]) -> Vec<Finding> {
    let mut out = Vec::new();
    budgets(old, new, &mut out);
    audit(old, new, &mut out);
    transforms(old, new, &mut out);
    destinations(old, new, &mut out);
    cuts(old, new, &mut out);
    thresholds(old, new, &mut out);
    labelers(old, new, probes, &mut out);
    out.sort_by(|a, b| {
        a.classification
            .cmp(&b.classification)
            .then_with(|| a.description.cmp(&b.description))
    });
    out
}

fn budgets(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    let by_name = |t: &Table| -> BTreeMap<String, (u32, Subject, u32)> {
        t.budgets
            .iter()
            .map(|b| (b.name.clone(), (b.limit, b.subject, b.at_least)))
            .collect()
    };
    let (o, n) = (by_name(old), by_name(new));
    for (name, (ol, osub, oat)) in &o {
        let Some((nl, nsub, nat)) = n.get(name) else {
            out.push(finding(
                Weakening,
                "budget",
                format!("budget `{name}` is removed (it allowed {ol} per task)"),
            ));
            continue;
        };
        if nl > ol {
            out.push(finding(
                Weakening,
                "budget",
                format!("budget `{name}` allows more dispatches per task: {ol} -> {nl}"),
            ));
        } else if nl < ol {
            out.push(finding(
                Strengthening,
                "budget",
                format!("budget `{name}` allows fewer dispatches per task: {ol} -> {nl}"),
            ));
        }
        let lat = |t: &'_ Table, s: Subject| -> Lattice {
            match s {
                Subject::Args => t.lattices.args.clone(),
                Subject::Destination => t.lattices.destination.clone(),
            }
        };
        let (olat, nlat) = (lat(old, *osub), lat(new, *nsub));
        let (oname, nname) = (label(&olat, *oat), label(&nlat, *nat));
        if osub != nsub || oname != nname {
            // Counting from a higher label counts fewer dispatches.
            let higher = osub == nsub
                && nlat
                    .label_id(&oname)
                    .is_some_and(|x| order(&nlat, *nat, x) == Some(std::cmp::Ordering::Less));
            out.push(finding(
                if higher { Strengthening } else { Weakening },
                "budget",
                format!(
                    "budget `{name}` counts dispatches at or above `{nname}` instead of `{oname}`"
                ),
            ));
        }
    }
    for (name, (nl, _, _)) in &n {
        if !o.contains_key(name) {
            out.push(finding(
                Strengthening,
                "budget",
                format!("budget `{name}` is added ({nl} per task)"),
            ));
        }
    }
}

fn audit(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    let (o, n) = (&old.audit, &new.audit);
    if !o.raw_args && n.raw_args {
        out.push(finding(
            Weakening,
            "audit",
            "raw arguments are granted to the audit sinks (`with raw args`)".to_owned(),
        ));
    } else if o.raw_args && !n.raw_args {
        out.push(finding(
            Strengthening,
            "audit",
            "raw arguments are no longer granted to the audit sinks".to_owned(),
        ));
    }
    if o.scrub_after_commit && !n.scrub_after_commit {
        out.push(finding(
            Weakening,
            "audit",
            "raw arguments are no longer scrubbed after commit".to_owned(),
        ));
    } else if !o.scrub_after_commit && n.scrub_after_commit {
        out.push(finding(
            Strengthening,
            "audit",
            "raw arguments are scrubbed after commit".to_owned(),
        ));
    }
    let names = |t: &Table, sinks: &[u32]| -> Vec<String> {
        let mut v: Vec<String> = sinks
            .iter()
            .filter_map(|s| t.observers.get(*s as usize).map(|o| o.name.clone()))
            .collect();
        v.sort();
        v
    };
    let (os, ns) = (names(old, &o.sinks), names(new, &n.sinks));
    let added: Vec<&String> = ns.iter().filter(|s| !os.contains(s)).collect();
    let removed: Vec<&String> = os.iter().filter(|s| !ns.contains(s)).collect();
    if !added.is_empty() {
        out.push(finding(
            Weakening,
            "audit",
            format!("audit records also go to {added:?}"),
        ));
    }
    if !removed.is_empty() {
        out.push(finding(
            Strengthening,
            "audit",
            format!("audit records no longer go to {removed:?}"),
        ));
    }
}

/// A transform's steps with lexicon ids resolved to the lexicons' content,
/// so two tables that number their lexicons differently compare equal.
fn steps_key(t: &Table, tr: &stpc_runtime::table::Transform) -> Vec<String> {
    tr.steps
        .iter()
        .map(|step| match step {
            stpc_runtime::table::Step::ReplaceLexicon { lexicon, with } => format!(
                "replace {} {with:?}",
                t.lexicons
                    .get(*lexicon as usize)
                    .and_then(|l| serde_json::to_string(l).ok())
                    .unwrap_or_default()
            ),
            other => serde_json::to_string(other).unwrap_or_default(),
        })
        .collect()
}

fn transforms(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Neutral, Weakening};
    for t in &old.transforms {
        match new.transforms.iter().find(|n| n.name == t.name) {
            None => out.push(finding(
                Neutral,
                "transform",
                format!("transform `{}` is no longer used", t.name),
            )),
            Some(n) if steps_key(new, n) != steps_key(old, t) || n.applies_to != t.applies_to => {
                out.push(finding(
                    Weakening,
                    "transform",
                    format!(
                        "transform `{}` rewrites differently ({} -> {} steps): its output may keep more",
                        t.name,
                        t.steps.len(),
                        n.steps.len()
                    ),
                ));
            }
            Some(n) => {
                let (ol, nl) = (
                    label(&old.lattices.args, t.output_label),
                    label(&new.lattices.args, n.output_label),
                );
                if ol != nl {
                    out.push(finding(
                        Weakening,
                        "transform",
                        format!(
                            "transform `{}` declares its output `{nl}` instead of `{ol}`",
                            t.name
                        ),
                    ));
                }
            }
        }
    }
}

fn destinations(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    // `destinations += undeclared;`: whatever the cells now decide for
    // `<unknown>` destinations, the verifier no longer requires them all to
    // fail closed, so turning it on is a weakening on its own.
    match (old.undeclared_destinations, new.undeclared_destinations) {
        (false, true) => out.push(finding(
            Weakening,
            "destination",
            "undeclared destinations are now allowed and decided by their label \
             (`destinations += undeclared;`)"
                .to_owned(),
        )),
        (true, false) => out.push(finding(
            Strengthening,
            "destination",
            "undeclared destinations are no longer allowed".to_owned(),
        )),
        _ => {}
    }
    for d in &old.destinations {
        let Some(n) = new.destinations.iter().find(|n| n.name == d.name) else {
            continue;
        };
        let (ol, nl) = (
            label(&old.lattices.destination, d.label),
            label(&new.lattices.destination, n.label),
        );
        if ol == nl && d.address == n.address {
            continue;
        }
        if d.address != n.address {
            out.push(finding(
                Weakening,
                "destination",
                format!(
                    "destination `{}` moves from `{}` to `{}`",
                    d.name, d.address.value, n.address.value
                ),
            ));
        }
        if ol != nl {
            let lat = &new.lattices.destination;
            let lower = lat
                .label_id(&ol)
                .is_some_and(|o| order(lat, n.label, o) == Some(std::cmp::Ordering::Less));
            let higher = lat
                .label_id(&ol)
                .is_some_and(|o| order(lat, n.label, o) == Some(std::cmp::Ordering::Greater));
            out.push(finding(
                if higher && !lower {
                    Strengthening
                } else {
                    Weakening
                },
                "destination",
                format!(
                    "destination `{}` is labelled `{nl}` instead of `{ol}`",
                    d.name
                ),
            ));
        }
    }
}

/// A cut as the diff compares it: subject, observer names, and the mode
/// names it leaves out (`unless committed`), all by name.
type CutKey = (String, Vec<String>, Vec<String>);

fn cuts(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    let describe = |t: &Table| -> BTreeMap<CutKey, u32> {
        let modes = t
            .dimensions
            .get(2)
            .map(|d| d.values.as_slice())
            .unwrap_or(&[]);
        t.forbid
            .iter()
            .map(|c| {
                let mut obs: Vec<String> = c
                    .observers
                    .iter()
                    .filter_map(|o| t.observers.get(*o as usize).map(|o| o.name.clone()))
                    .collect();
                obs.sort();
                let mut unless: Vec<String> = c
                    .unless
                    .iter()
                    .filter_map(|m| modes.get(*m as usize).cloned())
                    .collect();
                unless.sort();
                let subject = match c.subject {
                    Subject::Args => "args",
                    Subject::Destination => "destination",
                };
                ((subject.to_owned(), obs, unless), c.label)
            })
            .collect()
    };
    let scope = |unless: &[String]| {
        if unless.is_empty() {
            String::new()
        } else {
            format!(" unless {}", unless.join(", "))
        }
    };
    let (o, n) = (describe(old), describe(new));
    let lat = |t: &'_ Table, s: &str| -> Lattice {
        if s == "args" {
            t.lattices.args.clone()
        } else {
            t.lattices.destination.clone()
        }
    };
    for ((subject, obs, unless), ol) in &o {
        let olat = lat(old, subject);
        let oname = label(&olat, *ol);
        match n.get(&(subject.clone(), obs.clone(), unless.clone())) {
            None => {
                // The same cut with another scope: it covers fewer modes
                // (a weakening) or more (a strengthening) than before.
                let rescoped = n.iter().find(|((s, ob, _), nl)| {
                    s == subject && ob == obs && label(&lat(new, s), **nl) == oname
                });
                match rescoped {
                    Some(((_, _, nu), _)) => {
                        // The keys differ, so a new scope inside the old
                        // one leaves out fewer modes: it covers more.
                        let covers_more = nu.iter().all(|m| unless.contains(m));
                        let modes = |u: &[String]| {
                            if u.is_empty() {
                                "every mode".to_owned()
                            } else {
                                format!("unless {}", u.join(", "))
                            }
                        };
                        out.push(finding(
                            if covers_more { Strengthening } else { Weakening },
                            "cut",
                            format!(
                                "the cut `forbid {subject} >= {oname} at {}` changes scope from `{}` to `{}`",
                                obs.join(", "),
                                modes(unless),
                                modes(nu),
                            ),
                        ));
                    }
                    None => out.push(finding(
                        Weakening,
                        "cut",
                        format!(
                            "the cut `forbid {subject} >= {oname} at {}{}` is removed",
                            obs.join(", "),
                            scope(unless)
                        ),
                    )),
                }
            }
            Some(nl) => {
                let nlat = lat(new, subject);
                let nname = label(&nlat, *nl);
                if nname == oname {
                    continue;
                }
                let lowered = nlat
                    .label_id(&oname)
                    .is_some_and(|x| order(&nlat, *nl, x) == Some(std::cmp::Ordering::Less));
                out.push(finding(
                    if lowered { Strengthening } else { Weakening },
                    "cut",
                    format!(
                        "the cut on {subject} at {}{} moves from `{oname}` to `{nname}`",
                        obs.join(", "),
                        scope(unless)
                    ),
                ));
            }
        }
    }
    for ((subject, obs, unless), nl) in &n {
        if o.contains_key(&(subject.clone(), obs.clone(), unless.clone())) {
            continue;
        }
        let nname = label(&lat(new, subject), *nl);
        // Reported above as a change of scope.
        if o.iter()
            .any(|((s, ob, _), ol)| s == subject && ob == obs && label(&lat(old, s), *ol) == nname)
        {
            continue;
        }
        out.push(finding(
            Strengthening,
            "cut",
            format!(
                "the cut `forbid {subject} >= {nname} at {}{}` is added",
                obs.join(", "),
                scope(unless)
            ),
        ));
    }
}

fn thresholds(old: &Table, new: &Table, out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    let modes = |t: &Table| -> Vec<String> {
        t.dimensions
            .get(2)
            .map(|d| d.values.clone())
            .unwrap_or_default()
    };
    let by_mode = |t: &Table| -> BTreeMap<String, f64> {
        let m = modes(t);
        t.thresholds
            .iter()
            .filter_map(|th| m.get(th.mode as usize).map(|name| (name.clone(), th.value)))
            .collect()
    };
    let (o, n) = (by_mode(old), by_mode(new));
    for (mode, ov) in &o {
        match n.get(mode) {
            Some(nv) if nv < ov => out.push(finding(
                Weakening,
                "threshold",
                format!("the `{mode}` threshold is lowered: {ov} -> {nv}"),
            )),
            Some(nv) if nv > ov => out.push(finding(
                Strengthening,
                "threshold",
                format!("the `{mode}` threshold is raised: {ov} -> {nv}"),
            )),
            Some(_) => {}
            None => out.push(finding(
                Weakening,
                "threshold",
                format!("the `{mode}` threshold ({ov}) is removed"),
            )),
        }
    }
}

/// Whether `label` reaches one of the table's argument cuts.
fn reaches_cut(t: &Table, label: u32) -> bool {
    t.forbid
        .iter()
        .filter(|c| c.subject == Subject::Args)
        .any(|c| t.lattices.args.leq(c.label, label))
}

fn labelers(old: &Table, new: &Table, probes: &[(String, Value)], out: &mut Vec<Finding>) {
    use Classification::{Strengthening, Weakening};
    if old.labelers == new.labelers && old.lexicons == new.lexicons && old.lattices == new.lattices
    {
        return;
    }
    let (Ok(oe), Ok(ne)) = (
        Engine::new(Arc::new(old.clone())),
        Engine::new(Arc::new(new.clone())),
    ) else {
        out.push(finding(
            Weakening,
            "labeler",
            "the labelers differ and could not be compared".to_owned(),
        ));
        return;
    };
    let mut samples = crate::vectors::arg_samples(old);
    samples.extend(crate::vectors::arg_samples(new));
    samples.extend(probes.iter().cloned());
    let (mut lost, mut gained, mut total) = (0_usize, 0_usize, 0_usize);
    let mut example: Option<String> = None;
    for (field, v) in &samples {
        total += 1;
        let was = reaches_cut(old, oe.labeler().label_value(field, v));
        let is = reaches_cut(new, ne.labeler().label_value(field, v));
        if was && !is {
            lost += 1;
            example.get_or_insert_with(|| format!("field `{field}`"));
        } else if !was && is {
            gained += 1;
        }
    }
    if lost > 0 {
        out.push(finding(
            Weakening,
            "labeler",
            format!(
                "the labelers differ: {lost} of {total} probe values no longer reach a forbidden cut (first: {})",
                example.unwrap_or_default()
            ),
        ));
    }
    if gained > 0 {
        out.push(finding(
            Strengthening,
            "labeler",
            format!(
                "the labelers differ: {gained} of {total} probe values now reach a forbidden cut"
            ),
        ));
    }
    if lost == 0 && gained == 0 {
        out.push(finding(
            Classification::Neutral,
            "labeler",
            format!("the labelers differ, but none of {total} probe values changes side of a cut"),
        ));
    }
}

/// REWRITE cells that keep their action but change transforms, and SHADOW
/// cells that change substitute, between paired cells of OLD and NEW.
#[must_use]
pub fn cell_findings(
    old: &Table,
    new: &Table,
    pairs: &[(Option<u32>, Option<u32>)],
) -> Vec<Finding> {
    use stpc_runtime::Action;
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (o, n) in pairs {
        let (Some(oc), Some(nc)) = (
            o.and_then(|c| old.cells.get(c as usize)),
            n.and_then(|c| new.cells.get(c as usize)),
        ) else {
            continue;
        };
        if oc.action != nc.action {
            continue;
        }
        let names = |t: &Table, ids: &[u32]| -> Vec<String> {
            ids.iter()
                .filter_map(|i| t.transforms.get(*i as usize).map(|x| x.name.clone()))
                .collect()
        };
        let (ot, nt) = (names(old, &oc.transforms), names(new, &nc.transforms));
        if oc.action == Action::Rewrite && ot != nt && seen.insert((ot.clone(), nt.clone())) {
            out.push(finding(
                Classification::Weakening,
                "rewrite",
                format!(
                    "rule `{}` rewrites using {nt:?} instead of {ot:?}",
                    nc.rule_name
                ),
            ));
        }
        let sub = |t: &Table, s: Option<u32>| {
            s.and_then(|i| t.substitutes.get(i as usize).map(|x| x.name.clone()))
        };
        let (os, ns) = (sub(old, oc.substitute), sub(new, nc.substitute));
        if oc.action == Action::Shadow
            && os != ns
            && seen.insert((vec![], vec![format!("{os:?}{ns:?}")]))
        {
            out.push(finding(
                Classification::Weakening,
                "shadow",
                format!(
                    "rule `{}` shadows with {ns:?} instead of {os:?}",
                    nc.rule_name
                ),
            ));
        }
    }
    out
}
