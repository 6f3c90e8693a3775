//! Monotonicity: raising an argument or destination label never yields a
//! more disclosing action (`W0601`).
//!
//! Disclosure rank: ALLOW 3 > REWRITE 2 > SHADOW = DEFER 1 > BLOCK 0
//! (SHADOW and DEFER both disclose nothing externally). For each label
//! dimension and each pair `l < l'` where `l'` covers `l` in its lattice,
//! a **pair walk** descends the diagram twice at once, for the point with
//! `l` and the point with `l'`, every other coordinate equal (the classic
//! BDD "apply" product), memoised on the node pair; it collects every pair
//! of cells where the higher point's action outranks the lower's. Checking
//! covers suffices: the order is the transitive closure of its covers, and
//! a violation along a chain shows at some cover on it. `<missing>` is
//! outside the order, and a declared destination's label is fixed (A2), so
//! the destination label is only raised for `<unknown>` destinations. The
//! walks are bounded by [`WORK_LIMIT`] states in total; beyond it the rest
//! goes unchecked (a warning, not a soundness property).

use std::collections::BTreeMap;

use std::collections::HashMap;

use super::{cubes, errors, point, Cx};
use crate::diagnostics::Diagnostic;
use stpc_runtime::table::{DimensionKind, Lattice, Node, Table};

/// Nodes visited at most by the monotonicity check.
pub(crate) const WORK_LIMIT: usize = 20_000_000;

/// The labels covering `l`.
fn covers(lat: &Lattice, l: u32) -> Vec<u32> {
    let n = u32::try_from(lat.labels.len()).unwrap_or(0);
    let above: Vec<u32> = (0..n).filter(|m| *m != l && lat.leq(l, *m)).collect();
    above
        .iter()
        .copied()
        .filter(|m| !above.iter().any(|k| k != m && lat.leq(*k, *m)))
        .collect()
}

/// The pair walk for one raised dimension: from a pair of nodes (the lower
/// point's and the higher point's), every pair of cells the two points can
/// reach with all other coordinates equal and the lower cell less
/// disclosing. Memoised on the node pair and the pinned destination label.
struct Walk<'a> {
    t: &'a Table,
    dim: usize,
    low: u32,
    high: u32,
    memo: HashMap<State, Vec<(u32, u32)>>,
    work: usize,
}

/// The lower point's node, the higher point's node, and the destination
/// label a declared destination pins (until the label dimension is passed).
type State = (u32, u32, Option<u32>);

/// The successors of a state: the dimension tested and, per value taken,
/// the next state.
type Successors = Option<(usize, Vec<(u32, State)>)>;

impl Walk<'_> {
    /// The successor states of `(n1, n2, pinned)` with the value taken, or
    /// `None` for two leaves.
    fn successors(&self, (n1, n2, pinned): State) -> Successors {
        let t = self.t;
        let (d1, d2) = (cubes::dim_of(t, n1), cubes::dim_of(t, n2));
        let dim = match (d1, d2) {
            (None, None) => return None,
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
        };
        let child = |n: u32, tests: Option<usize>, v: u32| -> u32 {
            match (tests == Some(dim), t.diagram.nodes.get(n as usize)) {
                (true, Some(Node::Branch { children, .. })) => {
                    children.get(v as usize).copied().unwrap_or(n)
                }
                _ => n,
            }
        };
        let n = t.dimensions.get(dim).map_or(0, |d| d.values.len());
        let n = u32::try_from(n).unwrap_or(0);
        let mut out = Vec::new();
        if dim == self.dim {
            // Raising a declared destination's label is not a feasible pair.
            if dim == point::DLABEL && pinned.is_some() {
                return Some((dim, out));
            }
            out.push((
                self.low,
                (child(n1, d1, self.low), child(n2, d2, self.high), None),
            ));
            return Some((dim, out));
        }
        for v in 0..n {
            let next_pin = if dim == point::DEST {
                cubes::declared_label(t, Some(v)).filter(|_| (v as usize) < t.destinations.len())
            } else if dim < point::DLABEL {
                pinned
            } else {
                None
            };
            if dim == point::DLABEL && pinned.is_some_and(|p| p != v) {
                continue;
            }
            out.push((v, (child(n1, d1, v), child(n2, d2, v), next_pin)));
        }
        Some((dim, out))
    }

    fn pairs(&mut self, s: State) -> Vec<(u32, u32)> {
        if let Some(v) = self.memo.get(&s) {
            return v.clone();
        }
        if self.work == 0 {
            return Vec::new();
        }
        self.work -= 1;
        let t = self.t;
        let (n1, n2, _) = s;
        let result = match self.successors(s) {
            None => match (
                t.diagram.nodes.get(n1 as usize),
                t.diagram.nodes.get(n2 as usize),
            ) {
                (Some(Node::Leaf { cell: c1 }), Some(Node::Leaf { cell: c2 })) => {
                    let r = |c: &u32| {
                        t.cells
                            .get(*c as usize)
                            .map_or(0, |c| c.action.disclosure_rank())
                    };
                    if r(c2) > r(c1) {
                        vec![(*c1, *c2)]
                    } else {
                        Vec::new()
                    }
                }
                _ => Vec::new(),
            },
            // The same node past the raised dimension decides both points alike.
            Some((dim, _)) if n1 == n2 && dim > self.dim => Vec::new(),
            Some((_, next)) => {
                let mut all = Vec::new();
                for (_, st) in next {
                    for p in self.pairs(st) {
                        if !all.contains(&p) {
                            all.push(p);
                        }
                    }
                }
                all.sort_unstable();
                all
            }
        };
        self.memo.insert(s, result.clone());
        result
    }

    /// The lower point of a witness for `pair`, following the memo.
    fn witness(&self, pair: (u32, u32)) -> Vec<Option<u32>> {
        let mut coords = vec![None; self.t.dimensions.len()];
        let mut s: State = (self.t.diagram.root, self.t.diagram.root, None);
        while let Some((dim, next)) = self.successors(s) {
            let Some((v, st)) = next
                .into_iter()
                .find(|(_, st)| self.memo.get(st).is_some_and(|ps| ps.contains(&pair)))
            else {
                break;
            };
            if let Some(slot) = coords.get_mut(dim) {
                *slot = Some(v);
            }
            s = st;
        }
        coords
    }
}

pub(crate) fn check(cx: &Cx<'_>, out: &mut Vec<Diagnostic>) {
    let t = cx.table;
    let dims: Vec<(usize, &Lattice, String)> = t
        .dimensions
        .iter()
        .enumerate()
        .filter_map(|(d, dim)| match &dim.kind {
            DimensionKind::ArgLabel => Some((d, &t.lattices.args, "argument label".to_owned())),
            DimensionKind::DestLabel => {
                Some((d, &t.lattices.destination, "destination label".to_owned()))
            }
            DimensionKind::FieldLabel { field } => {
                Some((d, &t.lattices.args, format!("label of field `{field}`")))
            }
            _ => None,
        })
        .collect();
    let mut work = WORK_LIMIT;
    let mut found: BTreeMap<(u32, u32, usize), (u32, u32, String)> = BTreeMap::new();
    for (d, lat, _) in &dims {
        for low in 0..u32::try_from(lat.labels.len()).unwrap_or(0) {
            for high in covers(lat, low) {
                let mut w = Walk {
                    t,
                    dim: *d,
                    low,
                    high,
                    memo: HashMap::new(),
                    work,
                };
                let root = t.diagram.root;
                let pairs = w.pairs((root, root, None));
                for (c1, c2) in pairs {
                    let (Some(a), Some(b)) = (t.cells.get(c1 as usize), t.cells.get(c2 as usize))
                    else {
                        continue;
                    };
                    found.entry((a.rule_id, b.rule_id, *d)).or_insert_with(|| {
                        (low, high, point::render(&cx.examples, &w.witness((c1, c2))))
                    });
                }
                work = w.work;
            }
        }
    }
    for ((low, high, d), (from, to, example)) in found {
        let Some((_, lat, what)) = dims.iter().find(|x| x.0 == d) else {
            continue;
        };
        let (low_name, low_span) = cx.rule(low);
        let (high_name, high_span) = cx.rule(high);
        let kw = |r: u32| cx.action_keyword(r);
        let low_side = errors::Side {
            rule: &low_name,
            action: kw(low),
            label: lat.label_name(from).unwrap_or("?"),
            span: low_span,
        };
        let high_side = errors::Side {
            rule: &high_name,
            action: kw(high),
            label: lat.label_name(to).unwrap_or("?"),
            span: high_span,
        };
        out.push(errors::not_monotone(what, &low_side, &high_side, &example));
    }
}
