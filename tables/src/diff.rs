//! A semantic diff of two decision tables: which points of the decision
//! domain change action, grouped into readable regions, with every change
//! that discloses more flagged as a weakening.
//!
//! **Aligning the domains.** The two tables may differ in tools,
//! destinations, modes, labels, confidence cuts, budgets and field
//! dimensions, so both are read over one *unified* domain, aligned by value
//! *names*:
//!
//! - tools and destinations: the union of the names, then `<unknown>`; a
//!   name one side does not declare is that side's `<unknown>` (which is how
//!   its runtime would read such an event);
//! - modes: the union; a mode one side does not declare is that side's
//!   fail-closed BLOCK (its runtime refuses the mode);
//! - argument and destination labels (and field labels): the union, then
//!   `<missing>`; a label one side's lattice lacks is that side's
//!   `<missing>`;
//! - confidence: the union of the cuts, so every unified interval lies inside
//!   one interval of each side;
//! - budgets and fields by name; a side without the budget or field ignores
//!   that dimension.
//!
//! **Algorithm.** Both diagrams are walked at once over the unified
//! dimensions: at each step, a side whose node tests a dimension already
//! fixed follows it; otherwise the walk branches on the earliest unified
//! dimension either side tests. The walk ends in pairs of cells, each for a
//! *cube* (a value set per dimension; dimensions neither side tested stay
//! free). This is linear in the size of the product diagram, not of the
//! product domain. The changed cubes are grouped by (old cell, new cell)
//! provenance and merged along dimensions (two cubes equal on every other
//! dimension become one) until nothing merges.
//!
//! **Direction.** Actions are ordered by what they disclose at issue time:
//! ALLOW > REWRITE > SHADOW = DEFER > BLOCK. A change towards a larger action
//! is a *weakening*; towards a smaller one a *strengthening*; SHADOW <-> DEFER
//! is *lateral* (neither dispatches to an external observer now; both may
//! re-decide on promotion).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use stpc_runtime::decide::Decision;
use stpc_runtime::table::{domain, Action, DimensionKind, Lattice, Node, Table, MISSING, UNKNOWN};

/// Most cubes the joint walk may produce before giving up.
pub const MAX_CUBES: usize = 1 << 20;

/// What a unified dimension ranges over.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "dim", rename_all = "snake_case")]
pub enum UnifiedKind {
    /// Tools.
    Tool,
    /// Destinations.
    Destination,
    /// Modes.
    Mode,
    /// The joined argument label.
    ArgLabel,
    /// The destination label.
    DestLabel,
    /// Confidence intervals between these cuts.
    Confidence {
        /// The union of both sides' cuts.
        cuts: Vec<f64>,
    },
    /// One budget's state.
    Budget {
        /// The budget's name.
        name: String,
    },
    /// One field's label.
    FieldLabel {
        /// The field's name.
        field: String,
    },
}

/// A dimension of the unified domain.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnifiedDim {
    /// What it ranges over.
    pub kind: UnifiedKind,
    /// Value names.
    pub values: Vec<String>,
}

/// One side's decision for a region.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideDecision {
    /// The action.
    pub action: &'static str,
    /// The rule index (`4294967295` when failing closed).
    pub rule_id: Option<u32>,
    /// The rule's name.
    pub rule_name: String,
    /// The cell; `None` when failing closed.
    pub cell: Option<u32>,
}

/// Which way a change goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// NEW discloses more than OLD.
    Weakening,
    /// NEW discloses less.
    Strengthening,
    /// SHADOW <-> DEFER.
    Lateral,
}

/// A region of the unified domain whose action changes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Weakening, strengthening or lateral.
    pub direction: Direction,
    /// The decision of OLD.
    pub old: SideDecision,
    /// The decision of NEW.
    pub new: SideDecision,
    /// Per unified dimension, the value ids in the region; `None` is every value.
    pub region: Vec<Option<BTreeSet<u32>>>,
    /// Number of unified points in the region.
    pub points: u128,
    /// One line for a reviewer.
    pub description: String,
}

/// The diff of two tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    /// OLD's contract name.
    pub old_contract: String,
    /// NEW's contract name.
    pub new_contract: String,
    /// The unified domain.
    pub dimensions: Vec<UnifiedDim>,
    /// The changed regions, weakenings first.
    pub changes: Vec<Change>,
    /// Differences outside the cells' actions (budgets, audit, transforms,
    /// labelers, destination labels, cuts, thresholds, substitutes),
    /// classified.
    pub findings: Vec<crate::findings::Finding>,
}

impl Diff {
    /// Number of weakening regions.
    #[must_use]
    pub fn weakenings(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| c.direction == Direction::Weakening)
            .count()
    }

    /// Number of findings outside the cells that are weakenings.
    #[must_use]
    pub fn weakening_findings(&self) -> usize {
        self.findings
            .iter()
            .filter(|f| f.classification == crate::findings::Classification::Weakening)
            .count()
    }

    /// Whether the two tables decide every point alike.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Whether the unified point `coords` lies in a changed region.
    #[must_use]
    pub fn changes_point(&self, coords: &[u32]) -> bool {
        self.changes.iter().any(|c| {
            c.region
                .iter()
                .zip(coords)
                .all(|(set, v)| set.as_ref().is_none_or(|s| s.contains(v)))
        })
    }
}

/// Why the diff could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiffError {
    /// The product of the two diagrams is too large to walk.
    #[error("the two tables' combined decision diagram has more than {0} regions")]
    TooLarge(usize),
}

/// The direction of a change of action.
#[must_use]
pub fn direction(old: Action, new: Action) -> Direction {
    match new.disclosure_rank().cmp(&old.disclosure_rank()) {
        std::cmp::Ordering::Greater => Direction::Weakening,
        std::cmp::Ordering::Less => Direction::Strengthening,
        std::cmp::Ordering::Equal => Direction::Lateral,
    }
}

// ---------------------------------------------------------------------------
// The unified domain
// ---------------------------------------------------------------------------

/// A side's reading of one unified value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SideValue {
    Value(u32),
    FailClosed,
}

/// How one table reads the unified domain.
struct Side<'t> {
    table: &'t Table,
    /// Unified dimension of each side dimension.
    unified_of: Vec<usize>,
    /// Per unified dimension, per unified value: the side's value.
    values: Vec<Vec<SideValue>>,
}

fn union_names<'a>(
    a: impl Iterator<Item = &'a String>,
    b: impl Iterator<Item = &'a String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in a.chain(b) {
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    out
}

fn dim_values(t: &Table, pred: impl Fn(&DimensionKind) -> bool) -> Vec<String> {
    t.dimensions
        .iter()
        .find(|d| pred(&d.kind))
        .map(|d| d.values.clone())
        .unwrap_or_default()
}

fn cuts_of(t: &Table) -> Vec<f64> {
    t.dimensions
        .iter()
        .find_map(|d| match &d.kind {
            DimensionKind::Confidence { cuts } => Some(cuts.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// Build the unified dimensions of two tables.
fn unify(old: &Table, new: &Table) -> Vec<UnifiedDim> {
    let named = |kind: UnifiedKind, a: Vec<String>, b: Vec<String>, special: Option<&str>| {
        let mut values = union_names(a.iter(), b.iter());
        if let Some(s) = special {
            values.push(s.to_owned());
        }
        UnifiedDim { kind, values }
    };
    let tools = |t: &Table| t.tools.iter().map(|x| x.name.clone()).collect::<Vec<_>>();
    let dests = |t: &Table| {
        t.destinations
            .iter()
            .map(|x| x.name.clone())
            .collect::<Vec<_>>()
    };
    let modes = |t: &Table| dim_values(t, |k| matches!(k, DimensionKind::Mode));
    let args = |t: &Table| t.lattices.args.labels.clone();
    let dls = |t: &Table| t.lattices.destination.labels.clone();
    let mut dims = vec![
        named(UnifiedKind::Tool, tools(old), tools(new), Some(UNKNOWN)),
        named(
            UnifiedKind::Destination,
            dests(old),
            dests(new),
            Some(UNKNOWN),
        ),
        named(UnifiedKind::Mode, modes(old), modes(new), None),
        named(UnifiedKind::ArgLabel, args(old), args(new), Some(MISSING)),
        named(UnifiedKind::DestLabel, dls(old), dls(new), Some(MISSING)),
    ];
    let mut cuts: Vec<f64> = cuts_of(old);
    for c in cuts_of(new) {
        if !cuts.contains(&c) {
            cuts.push(c);
        }
    }
    cuts.sort_by(f64::total_cmp);
    let values = domain::interval_names(&cuts);
    dims.push(UnifiedDim {
        kind: UnifiedKind::Confidence { cuts },
        values,
    });
    let budgets = union_names(
        old.budgets.iter().map(|b| &b.name),
        new.budgets.iter().map(|b| &b.name),
    );
    for name in budgets {
        dims.push(UnifiedDim {
            kind: UnifiedKind::Budget { name },
            values: domain::BUDGET_VALUES.map(str::to_owned).to_vec(),
        });
    }
    let field = |t: &Table| {
        t.dimensions
            .iter()
            .filter_map(|d| match &d.kind {
                DimensionKind::FieldLabel { field } => Some(field.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let labels = union_names(args(old).iter(), args(new).iter());
    for f in union_names(field(old).iter(), field(new).iter()) {
        let mut values = labels.clone();
        values.push(MISSING.to_owned());
        dims.push(UnifiedDim {
            kind: UnifiedKind::FieldLabel { field: f },
            values,
        });
    }
    dims
}

impl<'t> Side<'t> {
    fn new(table: &'t Table, dims: &[UnifiedDim]) -> Side<'t> {
        let arg_missing = u32::try_from(table.lattices.args.labels.len()).unwrap_or(u32::MAX);
        let mut unified_of = Vec::with_capacity(table.dimensions.len());
        for d in &table.dimensions {
            let u = dims.iter().position(|ud| match (&ud.kind, &d.kind) {
                (UnifiedKind::Tool, DimensionKind::Tool)
                | (UnifiedKind::Destination, DimensionKind::Destination)
                | (UnifiedKind::Mode, DimensionKind::Mode)
                | (UnifiedKind::ArgLabel, DimensionKind::ArgLabel)
                | (UnifiedKind::DestLabel, DimensionKind::DestLabel)
                | (UnifiedKind::Confidence { .. }, DimensionKind::Confidence { .. }) => true,
                (UnifiedKind::Budget { name }, DimensionKind::Budget { budget }) => table
                    .budgets
                    .get(*budget as usize)
                    .is_some_and(|b| &b.name == name),
                (UnifiedKind::FieldLabel { field: a }, DimensionKind::FieldLabel { field: b }) => {
                    a == b
                }
                _ => false,
            });
            unified_of.push(u.unwrap_or(usize::MAX));
        }
        let values = dims
            .iter()
            .enumerate()
            .map(|(ui, ud)| {
                let side_dim = unified_of
                    .iter()
                    .position(|u| *u == ui)
                    .and_then(|i| table.dimensions.get(i));
                let Some(sd) = side_dim else {
                    return Vec::new();
                };
                let by_name = |name: &str, fallback: Option<usize>| -> SideValue {
                    match sd.values.iter().position(|v| v == name).or(fallback) {
                        Some(i) => SideValue::Value(u32::try_from(i).unwrap_or(u32::MAX)),
                        None => SideValue::FailClosed,
                    }
                };
                let last = sd.values.len().checked_sub(1);
                match &ud.kind {
                    UnifiedKind::Mode => ud.values.iter().map(|n| by_name(n, None)).collect(),
                    UnifiedKind::Confidence { cuts } => {
                        let side_cuts = cuts_of(table);
                        (0..ud.values.len())
                            .map(|i| {
                                let n = match i.checked_sub(1).and_then(|j| cuts.get(j)) {
                                    None => 0,
                                    Some(lo) => side_cuts.iter().take_while(|c| *c <= lo).count(),
                                };
                                SideValue::Value(u32::try_from(n).unwrap_or(u32::MAX))
                            })
                            .collect()
                    }
                    UnifiedKind::Budget { .. } => vec![SideValue::Value(0), SideValue::Value(1)],
                    UnifiedKind::FieldLabel { .. } => ud
                        .values
                        .iter()
                        .map(|n| match table.lattices.args.label_id(n) {
                            Some(id) => SideValue::Value(id),
                            None => SideValue::Value(arg_missing),
                        })
                        .collect(),
                    // Tools, destinations, labels: an unknown name reads as
                    // the side's last value (`<unknown>` / `<missing>`).
                    _ => ud.values.iter().map(|n| by_name(n, last)).collect(),
                }
            })
            .collect();
        Side {
            table,
            unified_of,
            values,
        }
    }
}

// ---------------------------------------------------------------------------
// The joint walk
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Node(u32),
    /// A cell, or `None` for the fail-closed BLOCK.
    Cell(Option<u32>),
}

/// Follow `st` through every node that tests an already fixed dimension.
fn settle(side: &Side<'_>, mut st: State, assign: &[Option<u32>]) -> State {
    let t = side.table;
    // A value the side cannot place (a mode it does not declare) fails
    // closed whatever its diagram tests.
    let unplaceable = assign
        .iter()
        .zip(&side.values)
        .any(|(a, vs)| a.is_some_and(|x| vs.get(x as usize) == Some(&SideValue::FailClosed)));
    if unplaceable {
        return State::Cell(None);
    }
    for _ in 0..=t.dimensions.len() {
        let State::Node(n) = st else {
            return st;
        };
        match t.diagram.nodes.get(n as usize) {
            None => return State::Cell(None),
            Some(Node::Leaf { cell }) => {
                let ok = (*cell as usize) < t.cells.len();
                return State::Cell(ok.then_some(*cell));
            }
            Some(Node::Branch { dim, children }) => {
                let Some(u) = side.unified_of.get(usize::from(*dim)).copied() else {
                    return State::Cell(None);
                };
                let Some(fixed) = assign.get(u).copied() else {
                    return State::Cell(None);
                };
                let Some(x) = fixed else {
                    return st;
                };
                st = match side.values.get(u).and_then(|vs| vs.get(x as usize)) {
                    Some(SideValue::Value(v)) => children
                        .get(*v as usize)
                        .map_or(State::Cell(None), |c| State::Node(*c)),
                    Some(SideValue::FailClosed) | None => State::Cell(None),
                };
            }
        }
    }
    State::Cell(None)
}

fn pending(side: &Side<'_>, st: State) -> Option<usize> {
    let State::Node(n) = st else {
        return None;
    };
    match side.table.diagram.nodes.get(n as usize) {
        Some(Node::Branch { dim, .. }) => side.unified_of.get(usize::from(*dim)).copied(),
        _ => None,
    }
}

/// A region of the joint walk: the fixed values, OLD's cell, NEW's cell.
type Leaf = (Vec<Option<u32>>, Option<u32>, Option<u32>);

struct Walk<'a, 't> {
    old: &'a Side<'t>,
    new: &'a Side<'t>,
    dims: &'a [UnifiedDim],
    out: Vec<Leaf>,
}

impl Walk<'_, '_> {
    /// Branch on each of `dims` first, then walk.
    fn forced(
        &mut self,
        assign: &mut Vec<Option<u32>>,
        dims: &[usize],
        old: State,
        new: State,
    ) -> Result<(), DiffError> {
        let Some((u, rest)) = dims.split_first() else {
            return self.walk(assign, old, new);
        };
        let count = self.dims.get(*u).map_or(0, |d| d.values.len());
        for x in 0..count {
            if let Some(slot) = assign.get_mut(*u) {
                *slot = Some(u32::try_from(x).unwrap_or(u32::MAX));
            }
            self.forced(assign, rest, old, new)?;
        }
        if let Some(slot) = assign.get_mut(*u) {
            *slot = None;
        }
        Ok(())
    }

    fn walk(
        &mut self,
        assign: &mut Vec<Option<u32>>,
        old: State,
        new: State,
    ) -> Result<(), DiffError> {
        let old = settle(self.old, old, assign);
        let new = settle(self.new, new, assign);
        let next = match (pending(self.old, old), pending(self.new, new)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some(u) = next else {
            let (State::Cell(o), State::Cell(n)) = (old, new) else {
                return Ok(());
            };
            if self.out.len() >= MAX_CUBES {
                return Err(DiffError::TooLarge(MAX_CUBES));
            }
            self.out.push((assign.clone(), o, n));
            return Ok(());
        };
        let count = self.dims.get(u).map_or(0, |d| d.values.len());
        for x in 0..count {
            if let Some(slot) = assign.get_mut(u) {
                *slot = Some(u32::try_from(x).unwrap_or(u32::MAX));
            }
            self.walk(assign, old, new)?;
        }
        if let Some(slot) = assign.get_mut(u) {
            *slot = None;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The diff
// ---------------------------------------------------------------------------

fn decision_of(t: &Table, c: Option<u32>) -> Decision<'_> {
    c.and_then(|i| {
        t.cells
            .get(i as usize)
            .map(|cell| Decision::from_cell(i, cell))
    })
    .unwrap_or_else(Decision::fail_closed)
}

fn side_decision(t: &Table, c: Option<u32>) -> SideDecision {
    let d = decision_of(t, c);
    SideDecision {
        action: d.action.as_str(),
        rule_id: d.rule_id,
        rule_name: d.rule_name.to_owned(),
        cell: d.cell,
    }
}

type Cube = Vec<Option<BTreeSet<u32>>>;

/// Merge cubes that agree on every dimension but one, until none do.
fn merge(mut cubes: Vec<Cube>, dims: &[UnifiedDim]) -> Vec<Cube> {
    loop {
        let before = cubes.len();
        for d in 0..dims.len() {
            let mut groups: BTreeMap<Cube, Option<BTreeSet<u32>>> = BTreeMap::new();
            let mut order: Vec<Cube> = Vec::new();
            for mut c in cubes {
                let set = c.get_mut(d).and_then(Option::take);
                let key = c;
                match groups.get_mut(&key) {
                    Some(acc) => {
                        *acc = match (acc.take(), set) {
                            (Some(mut a), Some(b)) => {
                                a.extend(b);
                                Some(a)
                            }
                            _ => None,
                        };
                    }
                    None => {
                        order.push(key.clone());
                        groups.insert(key, set);
                    }
                }
            }
            let full = dims.get(d).map_or(0, |x| x.values.len());
            cubes = order
                .into_iter()
                .map(|mut key| {
                    let set = groups.remove(&key).flatten().filter(|s| s.len() < full);
                    if let Some(slot) = key.get_mut(d) {
                        *slot = set;
                    }
                    key
                })
                .collect();
        }
        if cubes.len() == before {
            return cubes;
        }
    }
}

/// The semantic diff of two tables.
///
/// # Errors
///
/// [`DiffError::TooLarge`] when the joint walk would produce more than
/// [`MAX_CUBES`] regions.
pub fn diff(old: &Table, new: &Table) -> Result<Diff, DiffError> {
    diff_with_probes(old, new, &[])
}

/// [`diff`], with extra argument values `(field, value)` to probe the
/// labelers with (a labeling dev set, logged events).
///
/// # Errors
///
/// As [`diff`].
pub fn diff_with_probes(
    old: &Table,
    new: &Table,
    probes: &[(String, serde_json::Value)],
) -> Result<Diff, DiffError> {
    let dims = unify(old, new);
    let so = Side::new(old, &dims);
    let sn = Side::new(new, &dims);
    let mut walk = Walk {
        old: &so,
        new: &sn,
        dims: &dims,
        out: Vec::new(),
    };
    let mut assign = vec![None; dims.len()];
    // Dimensions where a side fails closed on some value (modes it does not
    // declare) are fixed first: no diagram tests them, yet they decide.
    let forced: Vec<usize> = (0..dims.len())
        .filter(|u| {
            [&so, &sn].iter().any(|side| {
                side.values
                    .get(*u)
                    .is_some_and(|vs| vs.contains(&SideValue::FailClosed))
            })
        })
        .collect();
    walk.forced(
        &mut assign,
        &forced,
        State::Node(old.diagram.root),
        State::Node(new.diagram.root),
    )?;
    // Group changed cubes by provenance; pairs that keep their action are
    // kept to compare what the action does (transforms, substitutes).
    let mut groups: BTreeMap<(Option<u32>, Option<u32>), Vec<Cube>> = BTreeMap::new();
    let mut same: BTreeSet<(Option<u32>, Option<u32>)> = BTreeSet::new();
    for (a, o, n) in walk.out {
        if decision_of(old, o).action == decision_of(new, n).action {
            same.insert((o, n));
            continue;
        }
        let cube: Cube = a.iter().map(|v| v.map(|x| BTreeSet::from([x]))).collect();
        groups.entry((o, n)).or_default().push(cube);
    }
    let mut changes = Vec::new();
    for ((o, n), cubes) in groups {
        let od = side_decision(old, o);
        let nd = side_decision(new, n);
        let (oa, na) = (decision_of(old, o).action, decision_of(new, n).action);
        for region in merge(cubes, &dims) {
            let points = region
                .iter()
                .zip(&dims)
                .map(|(s, d)| s.as_ref().map_or(d.values.len(), BTreeSet::len) as u128)
                .fold(1u128, u128::saturating_mul);
            let direction = direction(oa, na);
            let description = describe(&dims, &region, old, new, &od, &nd);
            changes.push(Change {
                direction,
                old: od.clone(),
                new: nd.clone(),
                region,
                points,
                description,
            });
        }
    }
    changes.sort_by(|a, b| {
        a.direction
            .cmp(&b.direction)
            .then_with(|| a.description.cmp(&b.description))
    });
    Ok(Diff {
        old_contract: old.contract.clone(),
        new_contract: new.contract.clone(),
        dimensions: dims,
        changes,
        findings: {
            let mut f = crate::findings::findings(old, new, probes);
            let pairs: Vec<_> = same.into_iter().collect();
            f.extend(crate::findings::cell_findings(old, new, &pairs));
            f.sort_by(|a, b| {
                a.classification
                    .cmp(&b.classification)
                    .then_with(|| a.description.cmp(&b.description))
            });
            f
        },
    })
}

// ---------------------------------------------------------------------------
// Descriptions
// ---------------------------------------------------------------------------

fn names_of(dim: &UnifiedDim, set: &BTreeSet<u32>) -> Vec<String> {
    set.iter()
        .filter_map(|v| dim.values.get(*v as usize).cloned())
        .collect()
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => "nothing".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Names in a set, or "any but …" when the complement is shorter.
fn choice(dim: &UnifiedDim, set: &BTreeSet<u32>, noun: &str) -> String {
    let inside = names_of(dim, set);
    let outside: Vec<String> = dim
        .values
        .iter()
        .enumerate()
        .filter(|(i, _)| !set.contains(&u32::try_from(*i).unwrap_or(u32::MAX)))
        .map(|(_, n)| n.clone())
        .collect();
    if outside.len() == 1 && outside.first().is_some_and(|o| o == UNKNOWN) && inside.len() > 1 {
        format!("any declared {noun}")
    } else if inside.len() > 2 && outside.len() < inside.len() {
        format!(
            "any {noun} but {}",
            or_list(&outside).replace(" or ", " and ")
        )
    } else {
        or_list(&inside)
    }
}

/// A label set as `at least L` when it is the up-set of `L` in a lattice
/// that has every label of the set.
fn label_choice(dim: &UnifiedDim, set: &BTreeSet<u32>, lattices: [&Lattice; 2]) -> String {
    let mut names = names_of(dim, set);
    let missing = names.iter().any(|n| n == MISSING);
    names.retain(|n| n != MISSING);
    let all = lattices
        .iter()
        .any(|lat| lat.labels.len() == names.len() && lat.labels.iter().all(|l| names.contains(l)));
    let text = if all && names.len() > 1 {
        "labelled".to_owned()
    } else if names.len() > 1 {
        lattices
            .iter()
            .find_map(|lat| {
                let ids: Option<Vec<u32>> = names.iter().map(|n| lat.label_id(n)).collect();
                let ids = ids?;
                let least = ids.iter().find(|m| ids.iter().all(|l| lat.leq(**m, *l)))?;
                let up: usize = (0..lat.labels.len())
                    .filter(|l| lat.leq(*least, u32::try_from(*l).unwrap_or(u32::MAX)))
                    .count();
                (up == ids.len())
                    .then(|| format!("at least {}", lat.label_name(*least).unwrap_or("?")))
            })
            .unwrap_or_else(|| or_list(&names))
    } else {
        or_list(&names)
    };
    match (names.is_empty(), missing) {
        (true, true) => "unlabelled".to_owned(),
        (false, true) if text == "labelled" => "any label or unlabelled".to_owned(),
        (false, true) => format!("{text} or unlabelled"),
        _ => text,
    }
}

fn confidence_choice(cuts: &[f64], set: &BTreeSet<u32>) -> String {
    // Contiguous runs of intervals.
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for v in set {
        match runs.last_mut() {
            Some((_, hi)) if *hi + 1 == *v => *hi = *v,
            _ => runs.push((*v, *v)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .map(|(lo, hi)| {
            let lower = (*lo as usize).checked_sub(1).and_then(|j| cuts.get(j));
            let upper = cuts.get(*hi as usize);
            match (lower, upper) {
                (None, None) => "any confidence".to_owned(),
                (None, Some(u)) => format!("confidence < {}", fmt_f64(*u)),
                (Some(l), None) => format!("confidence >= {}", fmt_f64(*l)),
                (Some(l), Some(u)) => format!("{} <= confidence < {}", fmt_f64(*l), fmt_f64(*u)),
            }
        })
        .collect();
    or_list(&text)
}

fn describe(
    dims: &[UnifiedDim],
    region: &[Option<BTreeSet<u32>>],
    old: &Table,
    new: &Table,
    od: &SideDecision,
    nd: &SideDecision,
) -> String {
    let mut mode = None;
    let mut tool = None;
    let mut rest: Vec<String> = Vec::new();
    let lattices = [&new.lattices.args, &old.lattices.args];
    let dest_lattices = [&new.lattices.destination, &old.lattices.destination];
    for (dim, set) in dims.iter().zip(region) {
        let Some(set) = set else { continue };
        match &dim.kind {
            UnifiedKind::Mode => mode = Some(choice(dim, set, "mode")),
            UnifiedKind::Tool => tool = Some(choice(dim, set, "tool")),
            UnifiedKind::Destination => {
                rest.insert(0, format!("to {}", choice(dim, set, "destination")))
            }
            UnifiedKind::ArgLabel => rest.push(format!(
                "with {} arguments",
                label_choice(dim, set, lattices)
            )),
            UnifiedKind::DestLabel => rest.push(format!(
                "destination {}",
                label_choice(dim, set, dest_lattices)
            )),
            UnifiedKind::Confidence { cuts } => rest.push(confidence_choice(cuts, set)),
            UnifiedKind::Budget { name } => {
                rest.push(format!("budget `{name}` {}", or_list(&names_of(dim, set))))
            }
            UnifiedKind::FieldLabel { field } => rest.push(format!(
                "field `{field}` {}",
                label_choice(dim, set, lattices)
            )),
        }
    }
    let subject = match (mode, tool) {
        (Some(m), Some(t)) if m.starts_with("any ") => format!("{t} in {m}"),
        (Some(m), None) if m.starts_with("any ") => format!("calls in {m}"),
        (Some(m), Some(t)) => format!("{m} {t}"),
        (Some(m), None) => format!("{m} calls"),
        (None, Some(t)) => t,
        (None, None) => "every call".to_owned(),
    };
    let mut text = subject;
    for (i, r) in rest.iter().enumerate() {
        if i == 0 && r.starts_with("to ") || r.starts_with("with ") {
            text.push(' ');
        } else {
            text.push_str(", ");
        }
        text.push_str(r);
    }
    let rules = if od.rule_name == nd.rule_name {
        format!("rule `{}`", od.rule_name)
    } else {
        format!("rule `{}` in OLD, `{}` in NEW", od.rule_name, nd.rule_name)
    };
    format!(
        "{text}: {} -> {} ({rules})",
        od.action.to_ascii_uppercase(),
        nd.action.to_ascii_uppercase()
    )
}

fn fmt_f64(x: f64) -> String {
    serde_json::to_string(&x).unwrap_or_else(|_| x.to_string())
}
