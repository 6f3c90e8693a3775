//! The dense index of a decision table and the arithmetic of its direct
//! path: the diagram flattened into one array ([`flatten`]), expanded over
//! the whole domain when it is small enough ([`Dense`]), and the strides a
//! resolved decision adds to its base ([`Strides`]).

use crate::table::{domain, Node, Table, MAX_DIMS};

/// Confidence cuts the direct resolved path compares inline.
pub const FAST_CUTS: usize = 4;

/// Budgets the direct resolved path adds inline.
pub const FAST_BUDGETS: usize = 4;

/// What [`super::Decider::decide_resolved`] needs past the resolved base, fixed
/// per table and kept inline so a decision reads no other allocation
/// than the dense index and the cell: a handful of multiply-adds, compares
/// folded into one validity flag, one load.
#[derive(Debug, Clone, Copy)]
pub(super) struct Strides {
    /// Strides of the argument label, destination label and confidence
    /// dimensions.
    pub(super) arg: u32,
    pub(super) dest: u32,
    pub(super) conf: u32,
    /// Per budget (in order), the stride of its dimension.
    pub(super) budgets: [u32; FAST_BUDGETS],
    /// The confidence cuts, padded with `+inf` (which no confidence in
    /// `[0, 1]` reaches), so the interval is a fixed count of compares.
    pub(super) cuts: [f64; FAST_CUTS],
}

impl Strides {
    pub(super) fn new(dense: &Dense, cuts: &[f64], budgets: usize) -> Option<Strides> {
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
        Some(Strides {
            arg: stride(domain::ARG_LABEL)?,
            dest: stride(domain::DEST_LABEL)?,
            conf: stride(domain::CONFIDENCE)?,
            budgets: b,
            cuts: fixed_cuts,
        })
    }
}

/// The largest domain compiled to a [`Dense`] index (entries of 4 bytes:
/// 1 MB). The std policies' domain has 48,600 points.
pub const DENSE_LIMIT: usize = 1 << 18;

/// Every point of the domain to its encoded cell (`LEAF | cell`, or
/// [`INVALID`]), row-major in dimension order.
#[derive(Debug)]
pub(super) struct Dense {
    /// Dimension count.
    pub(super) n: usize,
    /// Values per dimension (inline: no indirection on the hot path).
    pub(super) sizes: [u32; MAX_DIMS],
    pub(super) strides: [u32; MAX_DIMS],
    pub(super) cells: Vec<u32>,
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
        let mut dense = Dense {
            n: sizes.len(),
            sizes: fixed,
            strides,
            cells: vec![INVALID; total],
        };
        dense.fill(flat, root, 0, 0)?;
        Some(dense)
    }

    /// Fills the block of points whose first `d` coordinates are fixed
    /// (at `offset`) from encoded node `at`. A leaf fills its whole block at
    /// once; a branch on a later dimension is reached by enumerating the
    /// dimensions it skips.
    fn fill(&mut self, flat: &[u32], at: u32, d: usize, offset: usize) -> Option<()> {
        let block = match d.checked_sub(1) {
            None => self.cells.len(),
            Some(prev) => *self.strides.get(prev)? as usize,
        };
        if at & LEAF != 0 {
            self.cells.get_mut(offset..offset + block)?.fill(at);
            return Some(());
        }
        if d >= self.n {
            return None;
        }
        let size = *self.sizes.get(d)?;
        let stride = *self.strides.get(d)? as usize;
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
            self.fill(flat, child, d + 1, offset + v as usize * stride)?;
        }
        Some(())
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
            return INVALID;
        }
        self.offset(coords)
            .and_then(|i| self.cells.get(i as usize))
            .copied()
            .unwrap_or(INVALID)
    }
}

/// The largest prefix cache built (entries of 4 bytes).
pub const PREFIX_LIMIT: usize = 1 << 16;

/// An encoded node that is a leaf pointing at no cell: fails closed.
pub(super) const INVALID: u32 = u32::MAX;

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
                if *cell & LEAF != 0 {
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
