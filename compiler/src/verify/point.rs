//! Points of the domain as events, and their rendering as counterexamples.
//!
//! A counterexample is written as the tool call a user would recognise:
//! `web_search(q: <intent_revealing>) to brave (api.brave.com), mode
//! speculative, confidence 0.85 (in [0.7, +inf)), destination label public,
//! budget sensitive_dispatches available`. A dimension the offending path
//! does not test is shown with its first value: every value gives the same
//! cell, so the event is as concrete as any other.

use stpc_runtime::table::{domain, DimensionKind, Table};

pub(crate) use super::examples::Examples;

pub(crate) use stpc_runtime::table::domain::{
    ARG_LABEL as ARG, CONFIDENCE as CONF, DESTINATION as DEST, DEST_LABEL as DLABEL, MODE, TOOL,
};

/// A point with the table's meaning of each coordinate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Event {
    /// Tool index; `None` is `<unknown>`.
    pub(crate) tool: Option<u32>,
    /// Destination index; `None` is `<unknown>`.
    pub(crate) dest: Option<u32>,
    /// Joined argument label; `None` is `<missing>`.
    pub(crate) arg: Option<u32>,
    /// Destination label; `None` is `<missing>`.
    pub(crate) dlabel: Option<u32>,
    /// Mode value; `None` when the point leaves it free (the soundness pass
    /// fixes it whenever a cut is scoped by mode).
    pub(crate) mode: Option<u32>,
}

impl Event {
    /// Reads the fixed dimensions of `coords` (free ones count as value 0).
    pub(crate) fn of(t: &Table, coords: &[Option<u32>]) -> Event {
        let at = |d: usize| coords.get(d).copied().flatten().unwrap_or(0);
        let known = |v: u32, n: usize| ((v as usize) < n).then_some(v);
        let dest = known(at(DEST), t.destinations.len());
        // A free destination label of a declared destination is its declared label (A2).
        let declared = dest
            .and_then(|d| t.destinations.get(d as usize))
            .map(|d| d.label);
        let dlabel = match (coords.get(DLABEL).copied().flatten(), declared) {
            (None, Some(l)) => Some(l),
            _ => known(at(DLABEL), t.lattices.destination.labels.len()),
        };
        Event {
            tool: known(at(TOOL), t.tools.len()),
            dest,
            arg: known(at(ARG), t.lattices.args.labels.len()),
            dlabel,
            mode: coords.get(MODE).copied().flatten(),
        }
    }
}

/// A label as shown in a counterexample: `<sensitive>`, or `<missing>`.
fn shown(label: &str) -> String {
    if label.starts_with('<') {
        label.to_owned()
    } else {
        format!("<{label}>")
    }
}

/// The tool call and its context, for a note.
pub(crate) fn render(ex: &Examples<'_>, coords: &[Option<u32>]) -> String {
    let t = ex.table();
    let at = |d: usize| coords.get(d).copied().flatten().unwrap_or(0);
    let value = |d: usize| {
        t.dimensions
            .get(d)
            .and_then(|x| x.values.get(at(d) as usize))
            .map_or("?", String::as_str)
    };
    let e = Event::of(t, coords);
    let arg = shown(value(ARG));
    let call = match e.tool.and_then(|i| t.tools.get(i as usize)) {
        Some(tool) => {
            // Fields with a label dimension of their own show that label;
            // the first field stands for the joined label otherwise.
            let own: Vec<String> = t
                .dimensions
                .iter()
                .enumerate()
                .filter_map(|(d, dim)| match &dim.kind {
                    DimensionKind::FieldLabel { field }
                        if tool.args.iter().any(|a| &a.name == field) =>
                    {
                        Some(format!("{field}: {}", shown(value(d))))
                    }
                    _ => None,
                })
                .collect();
            // A concrete value the labeler gives the joined label, when
            // one is found: the counterexample as a real call.
            let concrete = own
                .is_empty()
                .then(|| e.tool.zip(e.arg))
                .flatten()
                .and_then(|(tool, label)| ex.value(tool, label));
            match (own.is_empty(), concrete, tool.args.first()) {
                (false, _, _) => {
                    format!("`{}({})` (argument label {arg})", tool.name, own.join(", "))
                }
                (true, Some((f, v)), _) => {
                    let v = serde_json::Value::String(v);
                    format!("`{}({f}: {v})` (labelled {arg})", tool.name)
                }
                (true, None, Some(f)) => format!("`{}({}: {arg})`", tool.name, f.name),
                (true, None, None) => format!("`{}()` (argument label {arg})", tool.name),
            }
        }
        None => format!("a call to an `<unknown>` tool with arguments labelled {arg}"),
    };
    let dest = match e.dest.and_then(|i| t.destinations.get(i as usize)) {
        Some(d) => format!("`{}` ({})", d.name, d.address.value),
        None => "an `<unknown>` destination".to_owned(),
    };
    let mut s = format!("{call} to {dest}, mode `{}`", value(MODE));
    let conf_name = |i: usize| {
        t.dimensions
            .get(CONF)
            .and_then(|x| x.values.get(i))
            .map_or("?", String::as_str)
    };
    if let Some(DimensionKind::Confidence { cuts }) = t.dimensions.get(CONF).map(|d| &d.kind) {
        if !cuts.is_empty() {
            // A confidence the path does not test: show the top interval,
            // where committed and promoted events (confidence 1.0) fall.
            let i = coords
                .get(CONF)
                .copied()
                .flatten()
                .map_or(cuts.len(), |v| v as usize);
            match domain::confidence_in(cuts, i) {
                Some(c) => s.push_str(&format!(", confidence {c} (in {})", conf_name(i))),
                None => s.push_str(&format!(", confidence in {}", conf_name(i))),
            }
        }
    }
    let dlabel = match e.dlabel {
        Some(l) => t.lattices.destination.label_name(l).unwrap_or("?"),
        None => value(DLABEL),
    };
    s.push_str(&format!(", destination label {}", shown(dlabel)));
    for (d, dim) in t.dimensions.iter().enumerate().skip(CONF + 1) {
        match &dim.kind {
            DimensionKind::Budget { budget } => {
                let name = t
                    .budgets
                    .get(*budget as usize)
                    .map_or("?", |b| b.name.as_str());
                s.push_str(&format!(", budget `{name}` {}", value(d)));
            }
            DimensionKind::FieldLabel { field } => {
                s.push_str(&format!(", field `{field}` labelled {}", shown(value(d))))
            }
            _ => {}
        }
    }
    s
}
