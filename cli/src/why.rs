//! Labeling explanations as text, shared by `stpc explain --event`,
//! `stpc decide --explain` and failing `test` blocks.
//!
//! Only rule numbers (from 1, in the labeler's order, as decision rules
//! are numbered), conditions, lexicon entries and byte spans are printed,
//! never the argument text itself.

use std::fmt::Write as _;

use stpc_runtime::label::{Evidence, Explanation};

/// Per field and for the destination: the label, the rules that fired
/// (joined into it), and the rules a hard negative dropped.
#[must_use]
pub fn labeling(why: &Explanation) -> String {
    let mut s = String::from("labeling:\n");
    for f in &why.fields {
        let how = match (f.fired.is_empty(), f.fallback) {
            (true, _) => "the fallback".to_owned(),
            (false, true) => "the join of the rules below and the fallback".to_owned(),
            (false, false) => "the join of the rules below".to_owned(),
        };
        let _ = writeln!(s, "  field `{}`: {} ({how})", f.field, f.label);
        for r in &f.fired {
            let _ = writeln!(
                s,
                "    rule {} -> {} on `{}`: {}",
                r.rule + 1,
                r.label,
                r.leaf,
                evidence_list(&r.evidence)
            );
        }
        for d in &f.suppressed {
            let _ = writeln!(
                s,
                "    rule {} -> {} on `{}` dropped by {}",
                d.rule + 1,
                d.label,
                d.leaf,
                evidence(&d.by)
            );
        }
    }
    if let Some(d) = &why.destination {
        let _ = writeln!(s, "  destination: {} (by {})", d.label, d.by);
        for r in &d.fired {
            let _ = writeln!(
                s,
                "    rule {} -> {}: {}",
                r.rule + 1,
                r.label,
                evidence_list(&r.evidence)
            );
        }
    }
    s
}

fn evidence_list(list: &[Evidence]) -> String {
    list.iter().map(evidence).collect::<Vec<_>>().join("; ")
}

fn evidence(e: &Evidence) -> String {
    let mut s = e.condition.clone();
    if let Some(m) = &e.matched {
        let _ = write!(s, " matched `{m}`");
    }
    if let Some((a, b)) = e.span {
        let _ = write!(s, " at {a}..{b}");
    }
    if e.fuzzy {
        s.push_str(" (one typo)");
    }
    s
}
