//! The dense index of a decision table and the arithmetic of its direct
//! path: the diagram flattened into one array ([`flatten`]), expanded over
//! the whole domain when it is small enough ([`Dense`]), and the strides a
//! resolved decision adds to its base ([`Direct`]).

use std::num::NonZeroU64;
use std::sync::Arc;

use super::LabelsIn;
use crate::table::{domain, Node, Table, MAX_DIMS};

/// Confidence cuts the direct resolved path compares inline.
pub const FAST_CUTS: usize = 4;

/// Budgets the direct resolved path adds inline.
pub const FAST_BUDGETS: usize = 4;

/// Everything [`super::Decider::cell_resolved`] reads past the resolved
/// base, in one struct: which decider's [`super::Resolved`] it accepts,
/// the dense index's entries, the strides it adds, the confidence cuts and
/// the `<missing>` label ids. The id, the `<missing>` ids and the budget
/// count are copies of the decider's, kept here so the path reads this
/// struct only and its `Option` needs no tag of its own. A decision is then a handful of
/// multiply-adds, compares folded into one validity flag and one load, all
/// of it from this struct and the index (the benchmark's memory-clobbering
/// `black_box` makes every field a load per call, so the count of fields
/// and branches is the cost).
#[derive(Debug)]
pub(super) struct Direct {
    /// Id of the decider that built it: a [`super::Resolved`] of another
    /// takes the checked path (and fails closed there).
    pub(super) decider: NonZeroU64,
    /// The dense index's entries (shared with [`Dense`]).
    pub(super) cells: Arc<[u32]>,
    /// Strides of the argument label, destination label and confidence
    /// dimensions.
    pub(super) arg: u32,
    pub(super) dest: u32,
    pub(super) conf: u32,
    /// The `<missing>` ids of the argument and destination lattices: a
    /// label id at or over them is outside the domain.
    pub(super) missing_arg: u32,
    pub(super) missing_dest: u32,
    /// Budgets of the table (the length a budget vector must have).
    pub(super) budgets: usize,
    /// Per budget (in order), the stride of its dimension.
    pub(super) budget_strides: [u32; FAST_BUDGETS],
    /// The confidence cuts, padded with `+inf` (which no confidence in
    /// `[0, 1]` reaches), so the interval is a fixed count of compares.
    pub(super) cuts: [f64; FAST_CUTS],
    /// At most one cut (every std table has none, the paper's one): the
    /// interval is one compare, behind a branch every event takes the same
    /// way. A `u8`, not a `bool`: an `Option<Direct>` then keeps its tag
    /// in the decider id's zero, so the one compare with the resolved
    /// call's id also says the direct path exists.
    pub(super) one_cut: u8,
}

impl Direct {
    /// The direct path over `dense`, for a table whose domain is the fixed
    /// dimensions and one two-valued dimension per budget; `None` past
    /// [`FAST_CUTS`] cuts or [`FAST_BUDGETS`] budgets.
    pub(super) fn new(
        decider: NonZeroU64,
        dense: &Dense,
        cuts: &[f64],
        budgets: usize,
        missing: (u32, u32),
    ) -> Option<Direct> {
        if cuts.len() > FAST_CUTS || budgets > FAST_BUDGETS {
            return None;
        }
        let stride = |d: usize| dense.strides.get(d).copied();
        let mut fixed_cuts = [f64::INFINITY; FAST_CUTS];
        fixed_cuts.get_mut(..cuts.len())?.copy_from_slice(cuts);
        let mut b = [0u32; FAST_BUDGETS];
        for (i, slot) in b.iter_mut().enumerate().take(budgets) {
            *slot = stride(domain::FIXED + i)?;
        }
        Some(Direct {
            decider,
            cells: Arc::clone(&dense.cells),
            arg: stride(domain::ARG_LABEL)?,
            dest: stride(domain::DEST_LABEL)?,
            conf: stride(domain::CONFIDENCE)?,
            missing_arg: missing.0,
            missing_dest: missing.1,
            budgets,
            budget_strides: b,
            cuts: fixed_cuts,
            one_cut: u8::from(cuts.len() <= 1),
        })
    }

    /// The cell at `base` plus the offset of the rest of the point
    /// (labels, confidence interval, budgets); [`NO_CELL`] outside the
    /// domain. Every check folds into one flag, labels are selected
    /// without branches and the interval is a fixed count of compares, so
    /// a random stream of events takes the same branches every time.
    #[inline]
    pub(super) fn at(
        &self,
        base: u32,
        confidence: f64,
        labels: &LabelsIn<'_>,
        budgets_exhausted: &[bool],
    ) -> u32 {
        let (arg, arg_ok) = coordinate(labels.args, self.missing_arg);
        let (dl, dl_ok) = coordinate(labels.destination, self.missing_dest);
        // Outside [0, 1], NaN included, fails closed: with -0.0 made +0.0,
        // the bits of a float in [0, 1] are at most those of 1.0 as an
        // integer, and those of a negative number, a NaN or one over 1.0
        // are above (one compare instead of two float compares).
        let conf_ok = (confidence + 0.0).to_bits() <= 1f64.to_bits();
        let [first, ..] = self.cuts;
        let conf: u32 = if self.one_cut != 0 {
            u32::from(confidence >= first)
        } else {
            self.cuts
                .iter()
                .map(|cut| u32::from(confidence >= *cut))
                .sum()
        };
        let mut at = base
            .wrapping_add(arg.wrapping_mul(self.arg))
            .wrapping_add(dl.wrapping_mul(self.dest))
            .wrapping_add(conf.wrapping_mul(self.conf));
        for (b, stride) in budgets_exhausted.iter().zip(&self.budget_strides) {
            at = at.wrapping_add(u32::from(*b).wrapping_mul(*stride));
        }
        // One flag, folded into the offset: an invalid input reads past
        // the index (u32::MAX is over DENSE_LIMIT), which fails closed.
        let ok = arg_ok & dl_ok & conf_ok & (budgets_exhausted.len() == self.budgets);
        let at = if ok { at } else { u32::MAX };
        self.cells.get(at as usize).copied().unwrap_or(NO_CELL)
    }
}

/// The coordinate of a label id (`None` is `<missing>`) and whether it is
/// inside the lattice: a selection and a compare, no branch.
#[inline]
fn coordinate(label: Option<u32>, missing: u32) -> (u32, bool) {
    let v = label.unwrap_or(missing);
    (v, v < missing + u32::from(label.is_none()))
}

/// The largest domain compiled to a [`Dense`] index (entries of 4 bytes:
/// 1 MB). The std policies' domain has 48,600 points.
pub const DENSE_LIMIT: usize = 1 << 18;

/// Every point of the domain to its cell id, or [`NO_CELL`], row-major in
/// dimension order.
#[derive(Debug)]
pub(super) struct Dense {
    /// Dimension count.
    pub(super) n: usize,
    /// Values per dimension (inline: no indirection on the hot path).
    pub(super) sizes: [u32; MAX_DIMS],
    pub(super) strides: [u32; MAX_DIMS],
    pub(super) cells: Arc<[u32]>,
}

impl Dense {
    /// Expands the flattened diagram; `None` if the domain is over
    /// [`DENSE_LIMIT`] or the diagram is inconsistent.
    pub(super) fn new(flat: &[u32], root: u32, sizes: Vec<u32>) -> Option<Dense> {
        let total = sizes
            .iter()
            .try_fold(1usize, |acc, &n| acc.checked_mul(n as usize))?;
        if total > DENSE_LIMIT || sizes.len() > MAX_DIMS {
            return None;
        }
        let mut strides = [1u32; MAX_DIMS];
        for d in (0..sizes.len().saturating_sub(1)).rev() {
            let next = strides.get(d + 1).copied()?;
            *strides.get_mut(d)? = next.checked_mul(*sizes.get(d + 1)?)?;
        }
        let mut fixed = [0u32; MAX_DIMS];
        fixed.get_mut(..sizes.len())?.copy_from_slice(&sizes);
        let n = sizes.len();
        let mut cells = vec![NO_CELL; total];
        fill(
            (fixed.get(..n)?, strides.get(..n)?),
            &mut cells,
            flat,
            root,
            0,
            0,
        )?;
        Some(Dense {
            n,
            sizes: fixed,
            strides,
            cells: cells.into(),
        })
    }

    /// The offset of the first coordinates `coords` (a prefix of a point),
    /// each checked against its dimension's size; `None` outside the
    /// domain. A `u32`: the index has at most [`DENSE_LIMIT`] entries.
    pub(super) fn offset(&self, coords: &[u32]) -> Option<u32> {
        let sizes = self.sizes.get(..self.n)?;
        if coords.len() > sizes.len() {
            return None;
        }
        let mut i = 0usize;
        for ((&c, &n), &stride) in coords.iter().zip(sizes).zip(&self.strides) {
            if c >= n {
                return None;
            }
            i += c as usize * stride as usize;
        }
        u32::try_from(i).ok()
    }

    /// The encoded cell of `coords`; [`INVALID`] outside the domain.
    #[inline]
    pub(super) fn get(&self, coords: &[u32]) -> u32 {
        if coords.len() != self.n {
            return NO_CELL;
        }
        self.offset(coords)
            .and_then(|i| self.cells.get(i as usize))
            .copied()
            .unwrap_or(NO_CELL)
    }
}

/// Fills the block of `cells` whose first `d` coordinates are fixed (at
/// `offset`) from encoded node `at`, over a domain of `(sizes, strides)`. A
/// leaf fills its whole block at once; a branch on a later dimension is
/// reached by enumerating the dimensions it skips.
fn fill(
    (sizes, strides): (&[u32], &[u32]),
    cells: &mut [u32],
    flat: &[u32],
    at: u32,
    d: usize,
    offset: usize,
) -> Option<()> {
    let block = match d.checked_sub(1) {
        None => cells.len(),
        Some(prev) => *strides.get(prev)? as usize,
    };
    if at & LEAF != 0 {
        let cell = if at == INVALID { NO_CELL } else { at & !LEAF };
        cells.get_mut(offset..offset + block)?.fill(cell);
        return Some(());
    }
    let size = *sizes.get(d)?;
    let stride = *strides.get(d)? as usize;
    let base = at as usize;
    let dim = *flat.get(base)? as usize;
    for v in 0..size {
        let child = if dim == d {
            if v >= *flat.get(base + 1)? {
                return None;
            }
            *flat.get(base + 2 + v as usize)?
        } else if dim > d {
            at
        } else {
            // A branch on an earlier dimension: not an ordered diagram.
            return None;
        };
        fill(
            (sizes, strides),
            cells,
            flat,
            child,
            d + 1,
            offset + v as usize * stride,
        )?;
    }
    Some(())
}

/// The largest prefix cache built (entries of 4 bytes).
pub const PREFIX_LIMIT: usize = 1 << 16;

/// An encoded node that is a leaf pointing at no cell: fails closed.
pub(super) const INVALID: u32 = u32::MAX;

/// A [`Dense`] entry (and the direct path's answer) for a point with no
/// cell: the cell id [`flatten`] reserves, so it is never a cell of a table
/// with a dense index.
pub(super) const NO_CELL: u32 = INVALID & !LEAF;

/// Tag bit of an encoded leaf in the flattened diagram.
pub(super) const LEAF: u32 = 1 << 31;

/// Walk the flattened diagram over dimensions 0 to 2 only, stopping at the
/// first node that tests a later dimension; [`INVALID`] on inconsistency.
pub(super) fn walk_prefix(flat: &[u32], mut at: u32, values: [u32; 3]) -> u32 {
    for _ in 0..4 {
        if at & LEAF != 0 {
            return at;
        }
        let base = at as usize;
        let (Some(dim), Some(n)) = (flat.get(base), flat.get(base + 1)) else {
            return INVALID;
        };
        let Some(v) = values.get(*dim as usize) else {
            return at;
        };
        if v >= n {
            return INVALID;
        }
        let Some(next) = flat.get(base + 2 + *v as usize) else {
            return INVALID;
        };
        at = *next;
    }
    INVALID
}

/// Flatten the diagram for cache-friendly evaluation: a branch becomes
/// `[dim, n, child_0, ..., child_{n-1}]` at some offset, and every reference
/// to a node is either that offset or `LEAF | cell` for a leaf, so a walk is
/// one load of the dimension and one of the child per level, all in one
/// allocation. `None` when the diagram is malformed or too large to encode,
/// in which case every decision fails closed.
pub(super) fn flatten(t: &Table) -> Option<(Vec<u32>, u32)> {
    let nodes = &t.diagram.nodes;
    let mut offsets = Vec::with_capacity(nodes.len());
    let mut size = 0usize;
    for n in nodes {
        match n {
            Node::Leaf { cell } => {
                // `NO_CELL` is reserved: the dense index's entry for a
                // point without a cell.
                if *cell & LEAF != 0 || *cell == NO_CELL {
                    return None;
                }
                offsets.push(LEAF | *cell);
            }
            Node::Branch { children, .. } => {
                let off = u32::try_from(size).ok().filter(|o| o & LEAF == 0)?;
                offsets.push(off);
                size += 2 + children.len();
            }
        }
    }
    let enc = |i: u32| offsets.get(i as usize).copied();
    let mut flat = Vec::with_capacity(size);
    for n in nodes {
        if let Node::Branch { dim, children } = n {
            flat.push(u32::from(*dim));
            flat.push(u32::try_from(children.len()).ok()?);
            for c in children {
                flat.push(enc(*c)?);
            }
        }
    }
    Some((flat, enc(t.diagram.root)?))
}
