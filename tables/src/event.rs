//! Explanations of decisions over the event JSON of `stpc decide` and
//! `stpc explain --event`: which cell decided an event and which dimensions
//! the diagram looked at on the way. The event itself is
//! [`stpc_runtime::event`], shared with every embedding (the Python package
//! reads the same structure).

use std::collections::BTreeMap;

use stpc_runtime::decide::{Decider, Decision, LabelsIn, Point, Query};
use stpc_runtime::table::{DimensionKind, Node, Table, MISSING, UNKNOWN};
use stpc_runtime::Engine;

pub use stpc_runtime::event::{elide_values, EventInput, LabelsInput};
/// Label names of one event.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LabelNames {
    /// The joined argument label, or `<missing>`.
    pub args: String,
    /// The destination label, or `<missing>`.
    pub destination: String,
    /// Per-field labels.
    pub fields: BTreeMap<String, String>,
}

/// Labels of an event as ids: what a [`Query`] needs (the runtime's
/// [`stpc_runtime::Labels`]).
pub use stpc_runtime::Labels as LabelIds;

/// Label names of an event's label ids.
pub trait NamedLabels {
    /// The names, with `<missing>` for absent labels.
    fn names(&self, table: &Table) -> LabelNames;
}

impl NamedLabels for LabelIds {
    fn names(&self, table: &Table) -> LabelNames {
        let arg = |l: Option<u32>| {
            l.and_then(|l| table.lattices.args.label_name(l))
                .unwrap_or(MISSING)
                .to_owned()
        };
        LabelNames {
            args: arg(self.args),
            destination: self
                .destination
                .and_then(|l| table.lattices.destination.label_name(l))
                .unwrap_or(MISSING)
                .to_owned(),
            fields: self
                .fields
                .iter()
                .map(|(f, l)| (f.clone(), arg(Some(*l))))
                .collect(),
        }
    }
}

/// The labels of an event: the explicit ones if given (a label name not in
/// its lattice is an error), else the engine's labeler.
///
/// # Errors
///
/// The name of a label that is not in its lattice.
pub fn labels_of(engine: &Engine, event: &EventInput) -> Result<LabelIds, String> {
    labels_why(engine, event, false).map(|(labels, _)| labels)
}

/// The event's labels, and when they come from the labelers and `explain`
/// is set, why: per field and for the destination, the rules that fired,
/// on which span, and the hard negatives that dropped one.
///
/// # Errors
///
/// A given label that is not a label of its lattice.
pub fn labels_why(
    engine: &Engine,
    event: &EventInput,
    explain: bool,
) -> Result<(LabelIds, Option<stpc_runtime::label::Explanation>), String> {
    let table = engine.table();
    match &event.labels {
        Some(given) => {
            let arg = |name: &str| {
                table.lattices.args.label_id(name).ok_or_else(|| {
                    format!("`{name}` is not a label of `{}`", table.lattices.args.name)
                })
            };
            let mut fields = Vec::new();
            for (f, l) in &given.fields {
                fields.push((f.clone(), arg(l)?));
            }
            let labels = LabelIds {
                args: given.args.as_deref().map(arg).transpose()?,
                destination: given
                    .destination
                    .as_deref()
                    .map(|name| {
                        table.lattices.destination.label_id(name).ok_or_else(|| {
                            format!(
                                "`{name}` is not a label of `{}`",
                                table.lattices.destination.name
                            )
                        })
                    })
                    .transpose()?,
                fields,
            };
            Ok((labels, None))
        }
        None => {
            let dest = engine.decider().destination_id(&event.destination);
            let labeled = engine.labeler().label_event(
                &event.tool,
                &event.args,
                dest,
                &event.destination,
                explain,
            );
            let l = labeled.labels;
            let labels = LabelIds {
                args: l.args,
                destination: l.destination,
                fields: l.fields,
            };
            Ok((labels, explain.then_some(labeled.explanation)))
        }
    }
}

/// Budget states in budget order from the names of exhausted budgets.
///
/// # Errors
///
/// A name that is not a budget of the table.
pub fn budget_states(table: &Table, exhausted: &[String]) -> Result<Vec<bool>, String> {
    for name in exhausted {
        if !table.budgets.iter().any(|b| &b.name == name) {
            return Err(format!(
                "`{name}` is not a budget of contract `{}`",
                table.contract
            ));
        }
    }
    Ok(table.budget_states(|b| exhausted.iter().any(|e| e == b)))
}

/// Decide an event with the decider alone (no monitor, no task state).
#[must_use]
pub fn query<'a>(
    event: &'a EventInput,
    labels: &'a LabelIds,
    field_refs: &'a [(&'a str, u32)],
    budgets: &'a [bool],
) -> Query<'a> {
    Query {
        tool: &event.tool,
        destination: &event.destination,
        mode: &event.mode,
        confidence: event.confidence,
        labels: LabelsIn {
            args: labels.args,
            destination: labels.destination,
            fields: field_refs,
        },
        budgets_exhausted: budgets,
    }
}

/// One coordinate of an explained point.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Coordinate {
    /// Dimension kind: `tool`, `destination`, `mode`, `arg_label`,
    /// `dest_label`, `confidence`, `budget` or `field_label`.
    pub dim: &'static str,
    /// The budget or field the dimension is about, if any.
    pub about: Option<String>,
    /// The value's name (`<unknown>`, `<missing>`, an interval `[0.7, +inf)`).
    pub value: String,
    /// Whether the diagram tested this dimension on the way to the cell.
    pub tested: bool,
}

/// Why an event got its decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Explanation {
    /// The contract.
    pub contract: String,
    /// The cell index; `None` when the decision failed closed.
    pub cell: Option<u32>,
    /// The action.
    pub action: &'static str,
    /// The deciding rule's index ([`FAIL_CLOSED_RULE_ID`] when failing closed).
    pub rule_id: Option<u32>,
    /// The rule's name.
    pub rule_name: String,
    /// Names of the cell's transforms (REWRITE).
    pub transforms: Vec<String>,
    /// Name of the cell's substitute (SHADOW); `None` is the tool's own.
    pub substitute: Option<String>,
    /// The point, one coordinate per dimension.
    pub coordinates: Vec<Coordinate>,
    /// Why the event could not be placed, when it failed closed.
    pub invalid: Option<String>,
    /// The labels used.
    pub labels: LabelNames,
    /// Why the labelers gave them (absent when the event gave its labels).
    pub labeling: Option<stpc_runtime::label::Explanation>,
}

fn dim_name(kind: &DimensionKind) -> (&'static str, Option<String>) {
    match kind {
        DimensionKind::Tool => ("tool", None),
        DimensionKind::Destination => ("destination", None),
        DimensionKind::Mode => ("mode", None),
        DimensionKind::ArgLabel => ("arg_label", None),
        DimensionKind::DestLabel => ("dest_label", None),
        DimensionKind::Confidence { .. } => ("confidence", None),
        DimensionKind::Budget { budget } => ("budget", Some(budget.to_string())),
        DimensionKind::FieldLabel { field } => ("field_label", Some(field.clone())),
    }
}

/// The walk of the diagram for a point: the cell reached (`None` when the
/// walk fails closed) and the dimensions tested on the way.
#[must_use]
pub fn trace(table: &Table, point: &Point) -> (Option<u32>, Vec<usize>) {
    let coords = point.coords();
    let mut tested = Vec::new();
    let mut node = table.diagram.root;
    for _ in 0..=table.dimensions.len() {
        match table.diagram.nodes.get(node as usize) {
            Some(Node::Leaf { cell }) => {
                let ok = (*cell as usize) < table.cells.len();
                return (ok.then_some(*cell), tested);
            }
            Some(Node::Branch { dim, children }) => {
                let d = usize::from(*dim);
                tested.push(d);
                match coords.get(d).and_then(|v| children.get(*v as usize)) {
                    Some(next) => node = *next,
                    None => return (None, tested),
                }
            }
            None => return (None, tested),
        }
    }
    (None, tested)
}

/// The display name of a dimension value (budget dimensions show the budget's
/// name in [`Coordinate::about`]).
fn value_name(table: &Table, dim: usize, value: u32) -> String {
    table
        .dimensions
        .get(dim)
        .and_then(|d| d.values.get(value as usize))
        .cloned()
        .unwrap_or_else(|| UNKNOWN.to_owned())
}

/// Explain the decision of an event against a table.
///
/// # Errors
///
/// An explicit label or budget name the table does not know.
pub fn explain(engine: &Engine, event: &EventInput) -> Result<Explanation, String> {
    let table = engine.table();
    let decider: &Decider = engine.decider();
    let (labels, labeling) = labels_why(engine, event, true)?;
    let budgets = budget_states(table, &event.budgets_exhausted)?;
    let field_refs = labels.field_refs();
    let q = query(event, &labels, &field_refs, &budgets);
    let (cell, coordinates, invalid) = match decider.point(&q) {
        Ok(point) => {
            let (cell, tested) = trace(table, &point);
            let coordinates = point
                .coords()
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let (dim, about) = table
                        .dimensions
                        .get(i)
                        .map_or(("?", None), |d| dim_name(&d.kind));
                    let about = match (&table.dimensions.get(i).map(|d| &d.kind), about) {
                        (Some(DimensionKind::Budget { budget }), _) => {
                            table.budgets.get(*budget as usize).map(|b| b.name.clone())
                        }
                        (_, about) => about,
                    };
                    Coordinate {
                        dim,
                        about,
                        value: value_name(table, i, *v),
                        tested: tested.contains(&i),
                    }
                })
                .collect();
            (cell, coordinates, None)
        }
        Err(e) => (None, Vec::new(), Some(e.to_string())),
    };
    let d = cell
        .and_then(|i| {
            table
                .cells
                .get(i as usize)
                .map(|c| Decision::from_cell(i, c))
        })
        .unwrap_or_else(Decision::fail_closed);
    Ok(Explanation {
        contract: table.contract.clone(),
        cell: d.cell,
        action: d.action.as_str(),
        rule_id: d.rule_id,
        rule_name: d.rule_name.to_owned(),
        transforms: d
            .transforms
            .iter()
            .filter_map(|t| table.transforms.get(*t as usize).map(|t| t.name.clone()))
            .collect(),
        substitute: d
            .substitute
            .and_then(|s| table.substitutes.get(s as usize).map(|s| s.name.clone())),
        coordinates,
        invalid,
        labels: labels.names(table),
        labeling,
    })
}
