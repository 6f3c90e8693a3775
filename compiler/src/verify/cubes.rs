//! Walking the diagram without walking every path.
//!
//! An ordered diagram has as many paths as the product of the values its
//! later dimensions distinguish (six field-label dimensions of five values
//! each make 15,625 paths below every tool and destination), while the
//! checks read only the first dimensions: tool, destination, mode and the
//! two labels. So verification enumerates **prefixes**: the partial paths
//! down to the first node that tests a later dimension (or a leaf), and
//! pairs each prefix with the set of cells reachable below its node,
//! memoised per node. A point of the domain follows exactly one path, so
//! "some point of this prefix reaches cell `c`" is exactly "`c` is below
//! the prefix's node".
//!
//! **Feasibility.** Under A2 (correct labels) a destination the table
//! declares has its declared label: the runtime's labeler never gives it
//! another. Prefixes that fix a declared destination and a different
//! destination label are skipped, and so are expansions that would pair
//! them. Points with an `<unknown>` destination range over every label.
//!
//! **Value classes.** Tools with the same substitute and field types, and
//! destinations with the same label and observers, are indistinguishable to
//! every check, so a branch visits one representative per class among the
//! values that share a child, and an expansion one per class. A contract
//! over a thousand tools with a destination each then has a handful of
//! prefixes, not a million.
//!
//! [`structure`] proves what makes the per-path reasoning valid (every
//! index in range, one child per value, children test later dimensions), so
//! every point reaches exactly one leaf.

use std::collections::{HashMap, HashSet};

use super::point;
use stpc_runtime::table::{Node, Table};

/// A structural defect: why the table is not a total function.
#[derive(Debug)]
pub(crate) enum Defect {
    /// A node or cell index out of range.
    Dangling(String),
    /// A branch with the wrong number of children.
    Arity(u32),
    /// A child that does not test a later dimension.
    Unordered(u32),
}

/// Value counts of every dimension.
pub(crate) fn sizes(t: &Table) -> Vec<usize> {
    t.dimensions.iter().map(|d| d.values.len()).collect()
}

/// Checks every node: indices in range, arity, order.
pub(crate) fn structure(t: &Table) -> Result<(), Defect> {
    let sizes = sizes(t);
    let nodes = &t.diagram.nodes;
    if nodes.get(t.diagram.root as usize).is_none() {
        return Err(Defect::Dangling(format!("root node {}", t.diagram.root)));
    }
    for (id, n) in (0u32..).zip(nodes) {
        match n {
            Node::Leaf { cell } => {
                if t.cells.get(*cell as usize).is_none() {
                    return Err(Defect::Dangling(format!("cell {cell}")));
                }
            }
            Node::Branch { dim, children } => {
                if Some(&children.len()) != sizes.get(usize::from(*dim)) {
                    return Err(Defect::Arity(id));
                }
                for c in children {
                    match nodes.get(*c as usize) {
                        None => return Err(Defect::Dangling(format!("node {c}"))),
                        Some(Node::Branch { dim: d, .. }) if d <= dim => {
                            return Err(Defect::Unordered(id))
                        }
                        Some(_) => {}
                    }
                }
            }
        }
    }
    Ok(())
}

/// The dimension a node tests, `None` for a leaf.
pub(crate) fn dim_of(t: &Table, node: u32) -> Option<usize> {
    match t.diagram.nodes.get(node as usize) {
        Some(Node::Branch { dim, .. }) => Some(usize::from(*dim)),
        _ => None,
    }
}

/// The declared label of destination value `d`, if `d` is declared.
pub(crate) fn declared_label(t: &Table, d: Option<u32>) -> Option<u32> {
    d.and_then(|d| t.destinations.get(d as usize))
        .map(|d| d.label)
}

/// Whether the fixed coordinates can occur together: a declared
/// destination has its declared label (A2), and a tool is only ever placed
/// at a destination it declares (the runtime places any other as
/// `<unknown>`; see `Decider::placed_destination`).
pub(crate) fn feasible(t: &Table, coords: &[Option<u32>]) -> bool {
    let dest = coords.get(point::DEST).copied().flatten();
    let label_ok = match (dest, coords.get(point::DLABEL).copied().flatten()) {
        (Some(d), Some(l)) => declared_label(t, Some(d)).is_none_or(|x| x == l),
        _ => true,
    };
    let tool_ok = match (coords.get(point::TOOL).copied().flatten(), dest) {
        (Some(tool), Some(d)) => t.places(tool, d),
        _ => true,
    };
    label_ok && tool_ok
}

/// What the checks can observe of value `v` of dimension `dim`: values
/// with equal signatures are interchangeable for them.
fn signature(t: &Table, declared_by: &[Vec<u32>], dim: usize, v: u32) -> String {
    match dim {
        // Which destinations a tool may be placed at, and which tools a
        // destination may be reached by, decide feasibility: values that
        // differ there are not interchangeable.
        point::TOOL => match t.tools.get(v as usize) {
            Some(tool) => format!(
                "{:?}/{:?}/{:?}",
                tool.substitute,
                tool.args.iter().map(|a| &a.ty).collect::<Vec<_>>(),
                tool.destinations
            ),
            None => "<unknown>".to_owned(),
        },
        point::DEST => match t.destinations.get(v as usize) {
            Some(d) => format!(
                "{}/{:?}/{:?}",
                d.label,
                d.observers,
                declared_by.get(v as usize).map_or(&[][..], Vec::as_slice)
            ),
            None => "<unknown>".to_owned(),
        },
        _ => v.to_string(),
    }
}

/// The value classes of a table, computed once per verification: per
/// dimension, each value's class id and one representative per class.
/// Formatting signatures per branch and per expansion instead made
/// verifying 10,000 tools quadratic (half of compiling them).
#[derive(Debug, Default)]
pub(crate) struct Classes {
    /// Per dimension, the class id of each value.
    class_of: Vec<Vec<u32>>,
    /// Per dimension, the first value of each class, in value order.
    representatives: Vec<Vec<u32>>,
}

impl Classes {
    pub(crate) fn new(t: &Table) -> Classes {
        let mut out = Classes::default();
        // Per destination, the tools that declare it (once, not per value:
        // a scan of every tool per destination is quadratic at 10,000 tools).
        let mut declared_by: Vec<Vec<u32>> = vec![Vec::new(); t.destinations.len()];
        for (i, tool) in (0u32..).zip(&t.tools) {
            for d in &tool.destinations {
                if let Some(list) = declared_by.get_mut(*d as usize) {
                    list.push(i);
                }
            }
        }
        for (dim, size) in sizes(t).into_iter().enumerate() {
            let mut ids: HashMap<String, u32> = HashMap::new();
            let mut class_of = Vec::with_capacity(size);
            let mut reps = Vec::new();
            for v in 0..u32::try_from(size).unwrap_or(0) {
                let next = u32::try_from(ids.len()).unwrap_or(u32::MAX);
                let id = *ids
                    .entry(signature(t, &declared_by, dim, v))
                    .or_insert_with(|| {
                        reps.push(v);
                        next
                    });
                class_of.push(id);
            }
            out.class_of.push(class_of);
            out.representatives.push(reps);
        }
        out
    }

    fn of(&self, dim: usize, v: u32) -> u32 {
        self.class_of
            .get(dim)
            .and_then(|c| c.get(v as usize))
            .copied()
            .unwrap_or(v)
    }

    fn values(&self, dim: usize) -> Vec<u32> {
        self.representatives.get(dim).cloned().unwrap_or_default()
    }
}

/// One representative value per (child, signature) class of a branch.
fn representatives(classes: &Classes, dim: usize, children: &[u32]) -> Vec<(u32, u32)> {
    let mut seen: HashSet<(u32, u32)> = HashSet::new();
    let mut out = Vec::new();
    for (v, c) in children.iter().enumerate() {
        let Ok(v) = u32::try_from(v) else { continue };
        if seen.insert((*c, classes.of(dim, v))) {
            out.push((v, *c));
        }
    }
    out
}

/// A partial path: the dimensions it tests before `upto`, and its node.
#[derive(Clone, Debug)]
pub(crate) struct Prefix {
    /// `Some(v)` for a dimension the path tests, `None` otherwise.
    pub(crate) coords: Vec<Option<u32>>,
    /// The first node on the path that tests a dimension `>= upto`, or a leaf.
    pub(crate) node: u32,
}

/// Every feasible prefix of the diagram over dimensions `< upto`.
pub(crate) fn prefixes(t: &Table, classes: &Classes, upto: usize) -> Vec<Prefix> {
    let mut out = Vec::new();
    let mut coords = vec![None; t.dimensions.len()];
    let mut walker = Walker {
        t,
        classes,
        upto,
        memo: HashMap::new(),
        rep_at: HashMap::new(),
    };
    walker.walk(t.diagram.root, &mut coords, &mut out);
    out
}

/// The prefix walk, with each branch's representatives computed once: a
/// node is reached once per representative above it (one per tool class:
/// every tool with a substitute of its own is a class), and recomputing a
/// destination branch's representatives each time was quadratic in tools
/// times destinations.
struct Walker<'t> {
    t: &'t Table,
    classes: &'t Classes,
    upto: usize,
    memo: HashMap<u32, std::rc::Rc<[(u32, u32)]>>,
    /// Per destination branch, the position in its representatives of each
    /// (child, class) pair (see [`Walker::placed`]).
    rep_at: HashMap<u32, HashMap<(u32, u32), usize>>,
}

impl Walker<'_> {
    fn walk(&mut self, node: u32, coords: &mut Vec<Option<u32>>, out: &mut Vec<Prefix>) {
        let t = self.t;
        match t.diagram.nodes.get(node as usize) {
            Some(Node::Branch { dim, children }) if usize::from(*dim) < self.upto => {
                let d = usize::from(*dim);
                let classes = self.classes;
                let reps = std::rc::Rc::clone(
                    self.memo
                        .entry(node)
                        .or_insert_with(|| representatives(classes, d, children).into()),
                );
                let placed = if d == point::DEST {
                    self.placed(node, children, &reps, coords)
                } else {
                    None
                };
                match placed {
                    Some(at) => {
                        for &(v, child) in at.iter().filter_map(|i| reps.get(*i)) {
                            self.step(d, v, child, coords, out);
                        }
                    }
                    None => {
                        for &(v, child) in reps.iter() {
                            self.step(d, v, child, coords, out);
                        }
                    }
                }
                if let Some(slot) = coords.get_mut(d) {
                    *slot = None;
                }
            }
            _ => out.push(Prefix {
                coords: coords.clone(),
                node,
            }),
        }
    }

    /// Fix dimension `d` to `v` and go on to `child` if that is feasible.
    fn step(
        &mut self,
        d: usize,
        v: u32,
        child: u32,
        coords: &mut Vec<Option<u32>>,
        out: &mut Vec<Prefix>,
    ) {
        if let Some(slot) = coords.get_mut(d) {
            *slot = Some(v);
        }
        if feasible(self.t, coords) {
            self.walk(child, coords, out);
        }
    }

    /// At a destination branch below a tool that declares its
    /// destinations, the positions (in order) of the representatives the
    /// tool can be placed at: its declared destinations' and the
    /// `<unknown>` destination's; `None` when every destination is
    /// possible. Testing every representative instead made the walk
    /// quadratic (10,000 tools, each declaring its own destination: 10⁸
    /// feasibility checks, a fifth of compiling them). The same prefixes
    /// come out: a destination class records which tools declare its
    /// members (`signature`), so a tool declares every member of a class
    /// or none, and the representative of a declared destination's
    /// (child, class) pair is declared too.
    fn placed(
        &mut self,
        node: u32,
        children: &[u32],
        reps: &[(u32, u32)],
        coords: &[Option<u32>],
    ) -> Option<Vec<usize>> {
        let t = self.t;
        let tool = coords.get(point::TOOL).copied().flatten()?;
        let declared = &t.tools.get(tool as usize)?.destinations;
        if declared.is_empty() {
            return None;
        }
        let classes = self.classes;
        let class = |v: u32| classes.of(point::DEST, v);
        let at = self.rep_at.entry(node).or_insert_with(|| {
            reps.iter()
                .enumerate()
                .map(|(i, &(v, child))| ((child, class(v)), i))
                .collect()
        });
        let known = u32::try_from(t.destinations.len()).unwrap_or(u32::MAX);
        let unknown = known..u32::try_from(children.len()).unwrap_or(0);
        let mut out: Vec<usize> = declared
            .iter()
            .copied()
            .chain(unknown)
            .filter_map(|v| {
                let child = *children.get(v as usize)?;
                at.get(&(child, class(v))).copied()
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        Some(out)
    }
}

/// Cells reachable below each node, memoised.
#[derive(Default)]
pub(crate) struct Below {
    memo: HashMap<u32, Vec<u32>>,
}

impl Below {
    /// The cells reachable from `node`, in increasing order.
    pub(crate) fn cells(&mut self, t: &Table, node: u32) -> Vec<u32> {
        if let Some(v) = self.memo.get(&node) {
            return v.clone();
        }
        let v = match t.diagram.nodes.get(node as usize) {
            Some(Node::Leaf { cell }) => vec![*cell],
            Some(Node::Branch { children, .. }) => {
                let mut all = Vec::new();
                let mut seen = HashSet::new();
                for c in children {
                    if seen.insert(*c) {
                        all.extend(self.cells(t, *c));
                    }
                }
                all.sort_unstable();
                all.dedup();
                all
            }
            None => Vec::new(),
        };
        self.memo.insert(node, v.clone());
        v
    }
}

/// Completes `coords` (a prefix ending at `node`) with a feasible path from
/// `node` to `cell`; `None` if there is none.
pub(crate) fn path_to(
    t: &Table,
    node: u32,
    cell: u32,
    coords: &[Option<u32>],
) -> Option<Vec<Option<u32>>> {
    let mut coords = coords.to_vec();
    let mut dead = HashSet::new();
    find(t, node, cell, &mut coords, &mut dead).then_some(coords)
}

fn find(
    t: &Table,
    node: u32,
    cell: u32,
    coords: &mut Vec<Option<u32>>,
    dead: &mut HashSet<u32>,
) -> bool {
    match t.diagram.nodes.get(node as usize) {
        Some(Node::Leaf { cell: c }) => *c == cell,
        Some(Node::Branch { dim, children }) => {
            let d = usize::from(*dim);
            // A node whose subdiagram misses the cell misses it whatever the
            // prefix (only the destination label is constrained by it, and
            // that is tested above every node a failure is memoised for).
            if dead.contains(&node) {
                return false;
            }
            for (v, child) in children.iter().enumerate() {
                if let Some(slot) = coords.get_mut(d) {
                    *slot = u32::try_from(v).ok();
                }
                if feasible(t, coords) && find(t, *child, cell, coords, dead) {
                    return true;
                }
            }
            if let Some(slot) = coords.get_mut(d) {
                *slot = None;
            }
            if d > point::DLABEL {
                dead.insert(node);
            }
            false
        }
        None => false,
    }
}

/// Every point of `coords` over the dimensions in `dims` (other free
/// dimensions stay `None`), one representative per value class (all values
/// when `all`); infeasible points are skipped unless `all`.
pub(crate) fn expand(
    t: &Table,
    classes: &Classes,
    coords: &[Option<u32>],
    dims: &[usize],
    all: bool,
    f: &mut dyn FnMut(&[Option<u32>]),
) {
    let sizes = sizes(t);
    let free: Vec<(usize, Vec<u32>)> = dims
        .iter()
        .copied()
        .filter(|d| coords.get(*d).is_some_and(Option::is_none))
        .map(|d| {
            let size = sizes.get(d).copied().unwrap_or(1);
            let values = if all {
                (0..u32::try_from(size).unwrap_or(0)).collect()
            } else {
                classes.values(d)
            };
            (d, values)
        })
        .collect();
    if free.iter().any(|(_, v)| v.is_empty()) {
        return;
    }
    let mut at = vec![0usize; free.len()];
    let mut p: Vec<Option<u32>> = coords.to_vec();
    loop {
        for ((d, values), i) in free.iter().zip(&at) {
            if let Some(slot) = p.get_mut(*d) {
                *slot = values.get(*i).copied();
            }
        }
        if all || feasible(t, &p) {
            f(&p);
        }
        let mut carried = true;
        for ((_, values), i) in free.iter().zip(at.iter_mut()) {
            if *i + 1 < values.len() {
                *i += 1;
                carried = false;
                break;
            }
            *i = 0;
        }
        if carried {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, reason = "test code")]

    use super::{feasible, point, prefixes, representatives, Classes, Node, Table};

    /// Tools that declare one destination, two shared ones, or none (any
    /// destination), with and without substitutes.
    fn table() -> Table {
        let mut s = String::from(
            "use std::labels;\nuse std::modes;\nuse std::observers;\nuse std::labelers;\n",
        );
        let labels = ["public", "tenant_internal", "sensitive"];
        for i in 0..9 {
            let label = labels[i % 3];
            s.push_str(&format!(
                "destination d{i} {{ host \"api{i}.example\"; label {label}; observed by provider; }}\n"
            ));
        }
        let mut tools = Vec::new();
        for i in 0..12 {
            let dests = match i % 4 {
                0 => format!(" destinations d{};", i % 9),
                1 => format!(" destinations d{}, d{};", i % 9, (i + 4) % 9),
                2 => " destinations d0, d1;".to_owned(),
                _ => String::new(),
            };
            let sub = if i % 3 == 0 {
                format!(" substitute s{i};")
            } else {
                String::new()
            };
            s.push_str(&format!(
                "tool t{i} {{ effect external_read; args {{ q: text }}{dests}{sub} }}\n"
            ));
            if i % 3 == 0 {
                s.push_str(&format!(
                    "substitute s{i} for t{i} {{ observed by runtime_log; }}\n"
                ));
            }
            tools.push(format!("t{i}"));
        }
        let dests: Vec<String> = (0..9).map(|i| format!("d{i}")).collect();
        s.push_str(&format!(
            "contract c {{\n tools {};\n destinations {};\n forbid args >= sensitive at provider;\n \
             threshold speculative 0.7;\n audit to runtime_log without raw args;\n decide {{\n \
             block unless tool allowed;\n block unless destination allowed;\n \
             block when labels missing;\n defer when speculative and confidence < threshold;\n \
             careful: defer when tool in {{t1, t6}} and args >= personal;\n \
             ghost: shadow when prefetch and substitute available;\n \
             block when args >= sensitive;\n allow;\n }}\n}}\n",
            tools.join(", "),
            dests.join(", ")
        ));
        let mut map = crate::SourceMap::new();
        let id = map.add("placed.stpc", &s);
        let mut diagnostics = crate::Diagnostics::new();
        let mut files = std::collections::HashMap::<String, String>::new();
        crate::compile(
            &mut map,
            &[id],
            &mut files,
            &crate::CompileOptions::default(),
            &mut diagnostics,
        )
        .unwrap_or_else(|| panic!("compiles: {:?}", diagnostics.sorted()))
    }

    /// The walk without the placement shortcut: every representative of
    /// every branch, kept when feasible.
    fn every(
        t: &Table,
        classes: &Classes,
        upto: usize,
        node: u32,
        coords: &mut Vec<Option<u32>>,
        out: &mut Vec<(Vec<Option<u32>>, u32)>,
    ) {
        match t.diagram.nodes.get(node as usize) {
            Some(Node::Branch { dim, children }) if usize::from(*dim) < upto => {
                let d = usize::from(*dim);
                for (v, child) in representatives(classes, d, children) {
                    coords[d] = Some(v);
                    if feasible(t, coords) {
                        every(t, classes, upto, child, coords, out);
                    }
                }
                coords[d] = None;
            }
            _ => out.push((coords.clone(), node)),
        }
    }

    #[test]
    fn visiting_only_placed_destinations_gives_the_same_prefixes() {
        let t = table();
        let classes = Classes::new(&t);
        for upto in [point::DEST + 1, point::CONF] {
            let got: Vec<(Vec<Option<u32>>, u32)> = prefixes(&t, &classes, upto)
                .into_iter()
                .map(|p| (p.coords, p.node))
                .collect();
            let mut want = Vec::new();
            let mut coords = vec![None; t.dimensions.len()];
            every(&t, &classes, upto, t.diagram.root, &mut coords, &mut want);
            assert_eq!(got, want, "prefixes up to dimension {upto}");
            // The contract places tools: some prefixes fix a destination.
            assert!(got.iter().any(|(c, _)| c[point::DEST].is_some()));
        }
    }
}
