//! Lattices: prove a declared order is a lattice and tabulate it.
//!
//! A lattice declaration is a set of chains (`a < b < c, a < d`). Each
//! consecutive pair is an edge of a petgraph `DiGraph`; `toposort` proves the
//! order acyclic, and when it fails the strongly connected component holding
//! the offending node is walked to recover one cycle as a list of labels
//! (Gleam's `dep_tree.rs` does the same for module imports).
//!
//! The order is then closed transitively (Floyd–Warshall over booleans:
//! label sets are small, tens of labels, so `O(n^3)` is nothing and simpler
//! than repeated DFS) and, for every pair, the set of upper bounds is
//! searched for a least element (the join) and the set of lower bounds for a
//! greatest one (the meet). A pair with no upper bound, or with two minimal
//! upper bounds, is not a lattice; the first such pair (in declaration
//! order) is reported, naming both labels and why. Tables are computed once
//! here and stored in `hir::Lattice`, so lowering and the runtime never
//! recompute an order.
//!
//! [`build`] is a pure function over label indices so that the property
//! tests can drive it directly with generated orders.

use petgraph::algo::{kosaraju_scc, toposort};
use petgraph::graph::{DiGraph, NodeIndex};

/// Why a pair has no unique join or meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// No common bound at all.
    NoBound,
    /// Two or more minimal (maximal) common bounds; these two, for instance.
    Ambiguous(usize, usize),
}

/// Why an order is not a lattice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LatticeError {
    /// A cycle, as label indices in order, starting at the lowest index
    /// (the first is not repeated at the end).
    Cycle(Vec<usize>),
    /// A pair without a unique least upper bound.
    NoJoin(usize, usize, Why),
    /// A pair without a unique greatest lower bound.
    NoMeet(usize, usize, Why),
}

/// The order, join and meet of a proven lattice, row-major `n * n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Number of labels.
    pub n: usize,
    /// `leq[i * n + j]`: `i <= j`.
    pub leq: Vec<bool>,
    /// `join[i * n + j]`: the least upper bound of `i` and `j`.
    pub join: Vec<u32>,
    /// `meet[i * n + j]`: the greatest lower bound of `i` and `j`.
    pub meet: Vec<u32>,
}

impl Tables {
    /// `i <= j`.
    pub fn leq(&self, i: usize, j: usize) -> bool {
        self.leq.get(i * self.n + j).copied().unwrap_or(false)
    }

    /// The join of `i` and `j`.
    pub fn join(&self, i: usize, j: usize) -> Option<usize> {
        self.join.get(i * self.n + j).map(|x| *x as usize)
    }

    /// The meet of `i` and `j`.
    pub fn meet(&self, i: usize, j: usize) -> Option<usize> {
        self.meet.get(i * self.n + j).map(|x| *x as usize)
    }

    /// The least element.
    pub fn bottom(&self) -> Option<usize> {
        (0..self.n).find(|b| (0..self.n).all(|x| self.leq(*b, x)))
    }

    /// The greatest element.
    pub fn top(&self) -> Option<usize> {
        (0..self.n).find(|t| (0..self.n).all(|x| self.leq(x, *t)))
    }

    /// Whether every pair is comparable.
    pub fn is_total(&self) -> bool {
        (0..self.n).all(|i| (0..self.n).all(|j| self.leq(i, j) || self.leq(j, i)))
    }
}

/// Proves that `n` labels ordered by `edges` (`(a, b)` means `a < b`) form a
/// lattice and tabulates it. Edges naming labels `>= n` are ignored.
pub fn build(n: usize, edges: &[(usize, usize)]) -> Result<Tables, Vec<LatticeError>> {
    let mut graph: DiGraph<usize, ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..n).map(|i| graph.add_node(i)).collect();
    for (a, b) in edges {
        if let (Some(x), Some(y)) = (nodes.get(*a), nodes.get(*b)) {
            graph.update_edge(*x, *y, ());
        }
    }
    if let Err(cycle) = toposort(&graph, None) {
        let mut labels = find_cycle(&graph, cycle.node_id());
        // Start at the label declared first, so the report is deterministic.
        if let Some(first) = labels
            .iter()
            .enumerate()
            .min_by_key(|(_, l)| **l)
            .map(|(i, _)| i)
        {
            labels.rotate_left(first);
        }
        return Err(vec![LatticeError::Cycle(labels)]);
    }
    let mut leq = vec![false; n * n];
    let set = |leq: &mut Vec<bool>, i: usize, j: usize| {
        if let Some(c) = leq.get_mut(i * n + j) {
            *c = true;
        }
    };
    for i in 0..n {
        set(&mut leq, i, i);
    }
    for e in graph.edge_indices() {
        if let Some((a, b)) = graph.edge_endpoints(e) {
            set(&mut leq, a.index(), b.index());
        }
    }
    for k in 0..n {
        for i in 0..n {
            if !leq.get(i * n + k).copied().unwrap_or(false) {
                continue;
            }
            for j in 0..n {
                if leq.get(k * n + j).copied().unwrap_or(false) {
                    set(&mut leq, i, j);
                }
            }
        }
    }
    let le = |i: usize, j: usize| leq.get(i * n + j).copied().unwrap_or(false);
    let mut join = vec![0u32; n * n];
    let mut meet = vec![0u32; n * n];
    let mut errors = Vec::new();
    for i in 0..n {
        for j in i..n {
            match extremum(n, |c| le(i, c) && le(j, c), le) {
                Ok(c) => store(&mut join, n, i, j, c),
                Err(why) => {
                    if !errors.iter().any(|e| matches!(e, LatticeError::NoJoin(..))) {
                        errors.push(LatticeError::NoJoin(i, j, why));
                    }
                }
            }
            match extremum(n, |c| le(c, i) && le(c, j), |a, b| le(b, a)) {
                Ok(c) => store(&mut meet, n, i, j, c),
                Err(why) => {
                    if !errors.iter().any(|e| matches!(e, LatticeError::NoMeet(..))) {
                        errors.push(LatticeError::NoMeet(i, j, why));
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(Tables { n, leq, join, meet })
    } else {
        Err(errors)
    }
}

fn store(table: &mut [u32], n: usize, i: usize, j: usize, v: usize) {
    // A label index fits in `u32`: `table` has `n * n` entries.
    let Ok(v) = u32::try_from(v) else { return };
    if let Some(c) = table.get_mut(i * n + j) {
        *c = v;
    }
    if let Some(c) = table.get_mut(j * n + i) {
        *c = v;
    }
}

/// The least element (by `below`) of `{c : bound(c)}`.
fn extremum(
    n: usize,
    bound: impl Fn(usize) -> bool,
    below: impl Fn(usize, usize) -> bool,
) -> Result<usize, Why> {
    let bounds: Vec<usize> = (0..n).filter(|c| bound(*c)).collect();
    if bounds.is_empty() {
        return Err(Why::NoBound);
    }
    if let Some(least) = bounds
        .iter()
        .find(|c| bounds.iter().all(|d| below(**c, *d)))
    {
        return Ok(*least);
    }
    let minimal: Vec<usize> = bounds
        .iter()
        .copied()
        .filter(|c| !bounds.iter().any(|d| d != c && below(*d, *c)))
        .collect();
    match (minimal.first(), minimal.get(1)) {
        (Some(a), Some(b)) => Err(Why::Ambiguous(*a, *b)),
        _ => Err(Why::NoBound),
    }
}

/// One cycle through `start`, as node weights in order.
fn find_cycle(graph: &DiGraph<usize, ()>, start: NodeIndex) -> Vec<usize> {
    let scc = kosaraju_scc(graph)
        .into_iter()
        .find(|c| c.contains(&start))
        .unwrap_or_else(|| vec![start]);
    // Breadth-first from `start` inside the component until an edge returns to it.
    let mut parent: std::collections::HashMap<NodeIndex, NodeIndex> =
        std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(u) = queue.pop_front() {
        for v in graph.neighbors(u) {
            if v == start {
                let mut path = vec![u];
                let mut cur = u;
                while let Some(p) = parent.get(&cur) {
                    path.push(*p);
                    cur = *p;
                }
                if path.last() != Some(&start) {
                    path.push(start);
                }
                path.reverse();
                return path
                    .iter()
                    .filter_map(|x| graph.node_weight(*x).copied())
                    .collect();
            }
            if scc.contains(&v) && !parent.contains_key(&v) && v != start {
                parent.insert(v, u);
                queue.push_back(v);
            }
        }
    }
    graph.node_weight(start).copied().into_iter().collect()
}
