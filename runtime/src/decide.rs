//! From an event's names and labels to a cell of the table.
//!
//! [`Decider`] precomputes, once per table, hash maps from tool, destination
//! (name, host, collection) and mode names to dimension values, so building a
//! [`Point`] is a few hash lookups and a short scan of the confidence cuts,
//! and deciding is then one array lookup per dimension in the diagram.
//!
//! Name lookups go through [`NameIndex`]: up to [`SMALL_INDEX`] names are
//! bucketed by length ([`SmallNames`]: a contract names a handful of tools,
//! destinations and modes, most buckets hold one name, and a lookup
//! compares at most the names of its length, while hashing a 10-byte name
//! alone measured 11 ns here), and past that a hash map with [`FxBuildHasher`], a multiply-rotate hasher over
//! 8-byte words (the scheme of rustc's `FxHasher`), instead of std's SipHash:
//! the keys are names fixed by the table and looked-up strings cannot insert
//! anything, so HashDoS resistance buys nothing. Writing the 20 lines of the
//! hasher here avoids a dependency.
//!
//! Unknown tools and destinations map to the `<unknown>` value; a label not
//! supplied maps to `<missing>`; an unknown mode, a NaN confidence or a
//! mismatched budget vector is a [`DecideError`], which [`Decider::decide`]
//! turns into the fail-closed BLOCK cell.

use std::sync::Arc;

mod dense;
mod names;

use dense::{flatten, walk_prefix, Dense, Direct, INVALID, LEAF, NO_CELL};
pub use dense::{DENSE_LIMIT, FAST_BUDGETS, FAST_CUTS, PREFIX_LIMIT};

pub use names::{FxBuildHasher, FxHasher, NameIndex, NameMap, SmallNames, SMALL_INDEX};

use crate::address;
use crate::error::DecideError;
use crate::table::{domain, Action, AddressKind, Cell, DimensionKind, Node, Table, MAX_DIMS};

/// Name of the rule reported for fail-closed decisions.
pub const FAIL_CLOSED_RULE_NAME: &str = "<fail-closed>";

/// A point of the abstract domain: one value id per dimension, stored inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point {
    coords: [u32; MAX_DIMS],
    len: u8,
}

impl Point {
    /// A point from explicit coordinates; `None` if there are too many.
    #[must_use]
    pub fn new(coords: &[u32]) -> Option<Point> {
        let mut p = Point {
            coords: [0; MAX_DIMS],
            len: u8::try_from(coords.len()).ok()?,
        };
        p.coords.get_mut(..coords.len())?.copy_from_slice(coords);
        Some(p)
    }

    /// The coordinates, one per dimension.
    #[must_use]
    pub fn coords(&self) -> &[u32] {
        self.coords.get(..usize::from(self.len)).unwrap_or(&[])
    }
}

impl std::fmt::Debug for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.coords()).finish()
    }
}

/// The reference evaluation: walk `table`'s diagram for `point` and return
/// its cell. [`Decider`] is the fast path; this is the definition it is
/// tested against.
///
/// Fails closed: a node, child or cell index out of range, a point with too
/// few coordinates, or a walk longer than the number of dimensions yields
/// `None`, which every caller decides as BLOCK ([`Decision::fail_closed`]),
/// never ALLOW.
#[must_use]
pub fn evaluate<'t>(table: &'t Table, point: &Point) -> Option<&'t Cell> {
    evaluate_index(table, point).and_then(|c| table.cells.get(c as usize))
}

/// Like [`evaluate`] but returns the cell index; `None` when failing closed.
#[must_use]
pub fn evaluate_index(table: &Table, point: &Point) -> Option<u32> {
    let coords = point.coords();
    let mut node = table.diagram.root;
    // An ordered diagram visits each dimension at most once; the bound
    // also stops a cyclic table that skipped validation.
    for _ in 0..=table.dimensions.len() {
        match table.diagram.nodes.get(node as usize)? {
            Node::Leaf { cell } => return Some(*cell),
            Node::Branch { dim, children } => {
                let value = *coords.get(usize::from(*dim))?;
                node = *children.get(value as usize)?;
            }
        }
    }
    None
}

/// Label ids of one event, as the labeler or the embedder supplies them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LabelsIn<'a> {
    /// Joined argument label; `None` is `<missing>`.
    pub args: Option<u32>,
    /// Destination label; `None` is `<missing>`.
    pub destination: Option<u32>,
    /// Per-field labels by field name (only needed by `field_label` dimensions).
    pub fields: &'a [(&'a str, u32)],
}

/// Everything a decision looks at.
#[derive(Clone, Copy, Debug)]
pub struct Query<'a> {
    /// Tool name.
    pub tool: &'a str,
    /// Destination name, host or collection.
    pub destination: &'a str,
    /// Mode name.
    pub mode: &'a str,
    /// Branch confidence in `[0, 1]`.
    pub confidence: f64,
    /// The event's labels.
    pub labels: LabelsIn<'a>,
    /// `true` for each budget (in budget order) that is exhausted.
    pub budgets_exhausted: &'a [bool],
}

/// The outcome of evaluating the table for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision<'t> {
    /// The action.
    pub action: Action,
    /// Cell index; `None` for the fail-closed cell.
    pub cell: Option<u32>,
    /// Rule that produced the cell; `None` when failing closed.
    pub rule_id: Option<u32>,
    /// That rule's name ([`FAIL_CLOSED_RULE_NAME`] when failing closed).
    pub rule_name: &'t str,
    /// Transform indices (REWRITE).
    pub transforms: &'t [u32],
    /// Substitute index from the cell (SHADOW).
    pub substitute: Option<u32>,
    /// REWRITE: fields at or above this argument label are rewritten too
    /// (the cell's `scope`).
    pub scope: Option<u32>,
    /// REWRITE: a promoted branch decides the call again as committed.
    pub reissue: bool,
}

impl<'t> Decision<'t> {
    /// The decision of cell `cell` of a table.
    #[inline]
    #[must_use]
    pub fn from_cell(cell: u32, c: &'t Cell) -> Decision<'t> {
        Decision {
            action: c.action,
            cell: Some(cell),
            rule_id: Some(c.rule_id),
            rule_name: c.rule_name.as_str(),
            transforms: &c.transforms,
            substitute: c.substitute,
            scope: c.scope,
            reissue: c.reissue,
        }
    }

    /// The decision of a looked-up cell ([`Decider::cell`]); `None` fails
    /// closed.
    #[inline]
    #[must_use]
    pub fn of_cell(cell: Option<(u32, &'t Cell)>) -> Decision<'t> {
        match cell {
            Some((i, c)) => Decision::from_cell(i, c),
            None => Decision::fail_closed(),
        }
    }

    /// The fail-closed BLOCK decision: no cell, no rule.
    #[must_use]
    pub fn fail_closed() -> Decision<'t> {
        Decision {
            action: Action::Block,
            cell: None,
            rule_id: None,
            rule_name: FAIL_CLOSED_RULE_NAME,
            transforms: &[],
            substitute: None,
            scope: None,
            reissue: false,
        }
    }
}

/// Tool, destination and mode of a call resolved once
/// ([`Decider::resolve`]), with their offset in the dense index. It belongs
/// to the decider that made it: given to another (a reloaded table), it
/// decides as [`Decision::fail_closed`], never as a cell of the other
/// table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// Tool, placed destination and mode ids.
    ids: [u32; 3],
    /// Offset of these three coordinates in the dense index (0 without
    /// one).
    base: u32,
    /// Id of the decider that resolved it (non-zero, so an
    /// `Option<Resolved>` is no larger than a `Resolved`).
    decider: std::num::NonZeroU64,
}

/// Source of [`Decider`] ids: every decider made in a process has its own.
static DECIDERS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Precomputed lookups over one table.
pub struct Decider {
    table: Arc<Table>,
    tools: NameIndex,
    destinations: NameIndex,
    modes: NameIndex,
    unknown_tool: u32,
    unknown_destination: u32,
    /// Per tool, its declared destinations, sorted; empty when it declares
    /// none (any destination the contract knows).
    tool_destinations: Vec<Box<[u32]>>,
    missing_arg: u32,
    missing_dest: u32,
    cuts: Vec<f64>,
    budgets: usize,
    fields: Vec<Box<str>>,
    /// The diagram flattened into one array (see [`flatten`]).
    flat: Vec<u32>,
    /// Encoded root: an offset into `flat`, or `LEAF | cell`.
    root: u32,
    /// Memoised walk over the first three dimensions (tool, destination,
    /// mode): `prefix[(t * D + d) * M + m]` is the encoded node the walk
    /// reaches; empty when the product is larger than [`PREFIX_LIMIT`].
    prefix: Vec<u32>,
    /// `(T, D, M)`: value counts of the first three dimensions.
    prefix_dims: (usize, usize, usize),
    /// With the direct path ([`Decider::direct`]), `bases[(t * D + d) * M +
    /// m]` is the dense offset of tool `t`, destination `d` as placed for
    /// `t` ([`Decider::placed_destination`]) and mode `m` ([`INVALID`] if
    /// none): what [`Decider::resolve_ids`] computes, as one load.
    bases: Vec<u32>,
    /// The whole diagram as one flat array over the domain, when the domain
    /// has at most [`DENSE_LIMIT`] points: a decision is then a mixed-radix
    /// index and one load, with no walk.
    dense: Option<Dense>,
    /// [`Decider::decide_resolved`]'s direct path, when it may add
    /// offsets into the dense index directly: the domain is the fixed
    /// dimensions and one two-valued dimension per budget, no per-field
    /// label, at most [`FAST_CUTS`] cuts and [`FAST_BUDGETS`] budgets.
    /// Decided once here so a table that skipped validation with other
    /// dimensions takes the checked path, where every mismatch fails
    /// closed.
    direct: Option<Direct>,
    /// This decider's id (see [`Resolved`]).
    id: std::num::NonZeroU64,
    /// Destinations declared by URL glob, in declaration order (the first
    /// that matches an address not known by name wins).
    url_globs: Vec<u32>,
}

/// [`Decider::placed_destination`] over the per-tool destination lists.
fn placed(tool_destinations: &[Box<[u32]>], unknown: u32, tool: usize, dest: usize) -> u32 {
    let dest = len_u32(dest);
    match tool_destinations.get(tool) {
        Some(own) if !own.is_empty() && own.binary_search(&dest).is_err() => unknown,
        _ => dest,
    }
}

impl std::fmt::Debug for Decider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decider")
            .field("contract", &self.table.contract)
            .finish_non_exhaustive()
    }
}

fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Decider {
    /// Build the lookups. The table should come from [`Table::from_json`];
    /// an unvalidated table is still safe (every miss fails closed).
    #[must_use]
    pub fn new(table: Arc<Table>) -> Decider {
        let tools = NameIndex::new(
            table
                .tools
                .iter()
                .enumerate()
                .map(|(i, t)| (t.name.as_str().into(), len_u32(i)))
                .collect(),
        );
        let mut dest_pairs: Vec<(Box<str>, u32)> = Vec::new();
        // Names win over addresses: addresses first, then names (later wins).
        for (i, d) in table.destinations.iter().enumerate() {
            if d.address.kind != AddressKind::Url {
                dest_pairs.push((d.address.value.as_str().into(), len_u32(i)));
                dest_pairs.push((d.address.value.to_ascii_lowercase().into(), len_u32(i)));
            }
        }
        for (i, d) in table.destinations.iter().enumerate() {
            dest_pairs.push((d.name.as_str().into(), len_u32(i)));
        }
        let destinations = NameIndex::new(dest_pairs);
        let mut mode_pairs = Vec::new();
        let mut cuts = Vec::new();
        let mut fields = Vec::new();
        for d in &table.dimensions {
            match &d.kind {
                DimensionKind::Mode => {
                    for (i, m) in d.values.iter().enumerate() {
                        mode_pairs.push((m.as_str().into(), len_u32(i)));
                    }
                }
                DimensionKind::Confidence { cuts: c } => cuts.clone_from(c),
                DimensionKind::FieldLabel { field } => fields.push(field.as_str().into()),
                _ => {}
            }
        }
        let modes = NameIndex::new(mode_pairs);
        let (flat, root) = flatten(&table).unwrap_or((Vec::new(), INVALID));
        let count = |i: usize| table.dimensions.get(i).map_or(0, |d| d.values.len());
        let prefix_dims = (count(0), count(1), count(2));
        let size = prefix_dims
            .0
            .saturating_mul(prefix_dims.1)
            .saturating_mul(prefix_dims.2);
        let mut prefix = Vec::new();
        if size <= PREFIX_LIMIT {
            prefix.reserve(size);
            for t in 0..prefix_dims.0 {
                for d in 0..prefix_dims.1 {
                    for m in 0..prefix_dims.2 {
                        prefix.push(walk_prefix(
                            &flat,
                            root,
                            [len_u32(t), len_u32(d), len_u32(m)],
                        ));
                    }
                }
            }
        }
        let sizes = table
            .dimensions
            .iter()
            .map(|d| len_u32(d.values.len()))
            .collect();
        let dense = Dense::new(&flat, root, sizes);
        let budgets = table.budgets.len();
        let id =
            std::num::NonZeroU64::new(DECIDERS.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                .unwrap_or(std::num::NonZeroU64::MIN);
        let missing = (
            len_u32(table.lattices.args.labels.len()),
            len_u32(table.lattices.destination.labels.len()),
        );
        let direct = dense
            .as_ref()
            .filter(|d| {
                fields.is_empty()
                    // Every cell id is under the reserved `NO_CELL`.
                    && table.cells.len() < NO_CELL as usize
                    && d.n == domain::FIXED + budgets
                    && d.sizes
                        .get(domain::FIXED..d.n)
                        .is_some_and(|s| s.iter().all(|&n| n == 2))
            })
            .and_then(|d| Direct::new(id, d, &cuts, budgets, missing));
        let tool_destinations: Vec<Box<[u32]>> = table
            .tools
            .iter()
            .map(|t| {
                let mut d = t.destinations.clone();
                d.sort_unstable();
                d.into_boxed_slice()
            })
            .collect();
        let unknown_destination = len_u32(table.destinations.len());
        let mut bases = Vec::new();
        // Every tool and destination id a lookup returns, `<unknown>`
        // included, is then inside the first two dimensions (mode ids come
        // from the mode dimension itself), so `bases` is indexed without a
        // range check of its own.
        let ids_fit =
            prefix_dims.0 == table.tools.len() + 1 && prefix_dims.1 == table.destinations.len() + 1;
        if let (Some(dense), Some(_), true) = (&dense, &direct, ids_fit && size <= PREFIX_LIMIT) {
            bases.reserve(size);
            for t in 0..prefix_dims.0 {
                for d in 0..prefix_dims.1 {
                    let placed = placed(&tool_destinations, unknown_destination, t, d);
                    for m in 0..prefix_dims.2 {
                        let ids = [len_u32(t), placed, len_u32(m)];
                        bases.push(dense.offset(&ids).unwrap_or(INVALID));
                    }
                }
            }
        }
        Decider {
            dense,
            direct,
            bases,
            id,
            flat,
            root,
            prefix,
            prefix_dims,
            unknown_tool: len_u32(table.tools.len()),
            unknown_destination,
            tool_destinations,
            missing_arg: missing.0,
            missing_dest: missing.1,
            budgets: table.budgets.len(),
            tools,
            destinations,
            modes,
            cuts,
            fields,
            url_globs: (0u32..)
                .zip(&table.destinations)
                .filter(|(_, d)| d.address.kind == AddressKind::Url)
                .map(|(i, _)| i)
                .collect(),
            table,
        }
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// Tool id, or `None` when the table does not know the tool.
    #[must_use]
    pub fn tool_id(&self, name: &str) -> Option<u32> {
        self.tools.get(name)
    }

    /// Destination id for a name, host or collection, or for a URL matching
    /// a declared URL glob; `None` when unknown.
    #[must_use]
    pub fn destination_id(&self, name: &str) -> Option<u32> {
        if let Some(d) = self.destinations.get(name) {
            return Some(d);
        }
        // Fall back to the host of a URL or of a host with a path, then to
        // URL globs; slow path only for destinations not given by name. An
        // address HTTP clients could read differently is unknown. A name
        // made only of lowercase host characters is its own host, already
        // looked up: parsing it again would find nothing new.
        let plain = name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-');
        if !plain {
            let parsed = address::parse(name).ok()?;
            if let Some(d) = parsed
                .host
                .as_deref()
                .and_then(|h| self.destinations.get(h))
            {
                return Some(d);
            }
        }
        self.url_globs.iter().copied().find(|&i| {
            self.table
                .destinations
                .get(i as usize)
                .is_some_and(|d| address::glob_match(&d.address.value, name))
        })
    }

    /// Mode id, or `None` when the mode is not declared.
    #[must_use]
    pub fn mode_id(&self, name: &str) -> Option<u32> {
        self.modes.get(name)
    }

    /// Confidence interval index of `c`.
    ///
    /// # Errors
    ///
    /// [`DecideError::NonFiniteConfidence`] for NaN or infinities,
    /// [`DecideError::ConfidenceOutOfRange`] outside `[0, 1]` (a confidence
    /// of 1.7 is no more certain than 1.0: it is a bug upstream, and fails
    /// closed).
    #[inline]
    pub fn interval(&self, c: f64) -> Result<u32, DecideError> {
        if c.is_finite() && !(0.0..=1.0).contains(&c) {
            return Err(DecideError::ConfidenceOutOfRange);
        }
        domain::interval(&self.cuts, c)
            .map(len_u32)
            .ok_or(DecideError::NonFiniteConfidence)
    }

    /// Build the point for a query.
    ///
    /// # Errors
    ///
    /// An unknown mode, a non-finite confidence, a wrong number of budget
    /// states or a label id outside its lattice.
    pub fn point(&self, q: &Query<'_>) -> Result<Point, DecideError> {
        let tool = self.tool_id(q.tool).unwrap_or(self.unknown_tool);
        let dest = self
            .destination_id(q.destination)
            .unwrap_or(self.unknown_destination);
        self.point_ids(tool, dest, q)
    }

    /// Build the point when tool and destination ids are already resolved
    /// (`None` is `<unknown>`).
    ///
    /// # Errors
    ///
    /// As [`Decider::point`].
    pub fn point_resolved(
        &self,
        tool: Option<u32>,
        dest: Option<u32>,
        q: &Query<'_>,
    ) -> Result<Point, DecideError> {
        self.point_ids(
            tool.unwrap_or(self.unknown_tool),
            dest.unwrap_or(self.unknown_destination),
            q,
        )
    }

    fn point_ids(&self, tool: u32, dest: u32, q: &Query<'_>) -> Result<Point, DecideError> {
        let mut p = Point {
            coords: [0; MAX_DIMS],
            len: 0,
        };
        let n = self.fill(tool, dest, q, &mut p.coords)?;
        p.len = u8::try_from(n).map_err(|_| DecideError::TooManyDimensions)?;
        Ok(p)
    }

    /// The destination an event is placed at: a destination its tool does
    /// not declare (when the tool declares any) is placed as `<unknown>`,
    /// so a call goes only where its tool says it goes. A contract's
    /// allow-list is a union over its tools; without this, `email_send` to
    /// `brave` would be allowed because `brave` is allowed for `web_search`.
    /// Every fail-closed pipeline then BLOCKs or DEFERs it, which the
    /// verifier proves for `<unknown>` destinations.
    #[inline]
    #[must_use]
    pub fn placed_destination(&self, tool: u32, dest: u32) -> u32 {
        placed(
            &self.tool_destinations,
            self.unknown_destination,
            tool as usize,
            dest as usize,
        )
    }

    /// Write the coordinates of a query into `coords`; returns how many.
    #[inline]
    fn fill(
        &self,
        tool: u32,
        dest: u32,
        q: &Query<'_>,
        coords: &mut [u32; MAX_DIMS],
    ) -> Result<usize, DecideError> {
        let mode = self.mode_id(q.mode).ok_or(DecideError::UnknownMode)?;
        let dest = self.placed_destination(tool, dest);
        self.fill_ids(
            [tool, dest, mode],
            q.confidence,
            &q.labels,
            q.budgets_exhausted,
            coords,
        )
    }

    /// [`Decider::fill`] with tool, placed destination and mode resolved.
    #[inline]
    fn fill_ids(
        &self,
        [tool, dest, mode]: [u32; 3],
        confidence: f64,
        labels: &LabelsIn<'_>,
        budgets_exhausted: &[bool],
        coords: &mut [u32; MAX_DIMS],
    ) -> Result<usize, DecideError> {
        let label = |l: Option<u32>, missing: u32| match l {
            None => Ok(missing),
            Some(id) if id < missing => Ok(id),
            Some(_) => Err(DecideError::LabelOutOfRange),
        };
        let arg = label(labels.args, self.missing_arg)?;
        let dl = label(labels.destination, self.missing_dest)?;
        let conf = self.interval(confidence)?;
        if budgets_exhausted.len() != self.budgets {
            return Err(DecideError::BudgetCount {
                expected: self.budgets,
                found: budgets_exhausted.len(),
            });
        }
        let (fixed, rest) = coords.split_at_mut(domain::FIXED);
        fixed.copy_from_slice(&[tool, dest, mode, arg, dl, conf]);
        let mut n = domain::FIXED;
        let mut slots = rest.iter_mut();
        for b in budgets_exhausted {
            *slots.next().ok_or(DecideError::TooManyDimensions)? = u32::from(*b);
            n += 1;
        }
        for f in &self.fields {
            let l = labels
                .fields
                .iter()
                .find(|(name, _)| *name == &**f)
                .map(|(_, l)| *l);
            *slots.next().ok_or(DecideError::TooManyDimensions)? = label(l, self.missing_arg)?;
            n += 1;
        }
        Ok(n)
    }

    /// Resolve the tool, destination and mode of a call once (an agent
    /// resolves them when it builds a call, or once per tool and
    /// endpoint); [`Decider::decide_resolved`] then looks up only what
    /// changes per event. An unknown tool or destination resolves to
    /// `<unknown>` (and fails closed in every verified table); `None` for a
    /// mode the table does not declare, which the caller must decide as
    /// [`Decision::fail_closed`].
    #[must_use]
    pub fn resolve(&self, tool: &str, destination: &str, mode: &str) -> Option<Resolved> {
        let mode = self.mode_id(mode)?;
        self.resolve_ids(self.tool_id(tool), self.destination_id(destination), mode)
    }

    /// [`Decider::resolve`] from ids (`None` is `<unknown>`); `None` when
    /// an id is outside the table.
    #[must_use]
    pub fn resolve_ids(&self, tool: Option<u32>, dest: Option<u32>, mode: u32) -> Option<Resolved> {
        let tool = tool.unwrap_or(self.unknown_tool);
        let dest = self.placed_destination(tool, dest.unwrap_or(self.unknown_destination));
        let (t, d, m) = self.prefix_dims;
        if tool as usize >= t || dest as usize >= d || mode as usize >= m {
            return None;
        }
        let base = match &self.dense {
            Some(dense) => dense.offset(&[tool, dest, mode])?,
            None => 0,
        };
        Some(Resolved {
            ids: [tool, dest, mode],
            base,
            decider: self.id,
        })
    }

    /// Decide an event whose tool, destination and mode were resolved by
    /// this decider's [`Decider::resolve`] (another decider's fails
    /// closed). With the dense index and no per-field dimension, this is
    /// the offset of the rest of the point added to the
    /// resolved base and one load; any input outside the domain (a label
    /// id out of range, a confidence outside `[0, 1]`, a wrong number of
    /// budgets) fails closed.
    #[inline]
    #[must_use]
    pub fn decide_resolved(
        &self,
        r: Resolved,
        confidence: f64,
        labels: &LabelsIn<'_>,
        budgets_exhausted: &[bool],
    ) -> Decision<'_> {
        Decision::of_cell(self.cell_resolved(r, confidence, labels, budgets_exhausted))
    }

    /// The cell [`Decider::decide_resolved`] decides, with its index,
    /// without copying its fields into a [`Decision`]; `None` fails closed.
    /// The dense path is a few instructions and inlines into the caller;
    /// every other table takes [`Decider::cell_resolved_checked`], out of
    /// line.
    #[inline]
    #[must_use]
    pub fn cell_resolved(
        &self,
        r: Resolved,
        confidence: f64,
        labels: &LabelsIn<'_>,
        budgets_exhausted: &[bool],
    ) -> Option<(u32, &Cell)> {
        match &self.direct {
            Some(d) if d.decider == r.decider => {
                self.cell_of(d.at(r.base, confidence, labels, budgets_exhausted))
            }
            _ => {
                self.cell_resolved_checked(r.ids, r.decider, confidence, *labels, budgets_exhausted)
            }
        }
    }

    /// [`Decider::cell_resolved`] for a table without the direct path:
    /// the point checked coordinate by coordinate, then the dense index or
    /// the walk. The resolved call comes as its parts and the labels by
    /// value, so the direct path that inlines into the caller stores
    /// nothing for this cold call.
    #[cold]
    #[inline(never)]
    fn cell_resolved_checked(
        &self,
        ids: [u32; 3],
        decider: std::num::NonZeroU64,
        confidence: f64,
        labels: LabelsIn<'_>,
        budgets_exhausted: &[bool],
    ) -> Option<(u32, &Cell)> {
        if decider != self.id {
            return None;
        }
        let mut coords = [0u32; MAX_DIMS];
        let n = self
            .fill_ids(ids, confidence, &labels, budgets_exhausted, &mut coords)
            .ok()?;
        self.cell_of(self.cell_index(coords.get(..n)?)?)
    }

    /// Cell `i` of the table, with its index; `None` past the last cell,
    /// and so for the direct path's [`NO_CELL`], a cell id no table with a
    /// direct path has ([`Decider::new`]): the bound check is the only
    /// check.
    #[inline]
    fn cell_of(&self, i: u32) -> Option<(u32, &Cell)> {
        Some((i, self.table.cells.get(i as usize)?))
    }

    /// Decide a query; any error yields the fail-closed BLOCK decision.
    #[must_use]
    pub fn decide(&self, q: &Query<'_>) -> Decision<'_> {
        Decision::of_cell(self.cell(q))
    }

    /// The cell [`Decider::decide`] decides, with its index, without
    /// copying its fields into a [`Decision`]; `None` fails closed. On the
    /// direct path this is three name lookups, one load of the resolved
    /// base ([`Decider::bases`]) and the direct path's arithmetic.
    #[inline]
    #[must_use]
    pub fn cell(&self, q: &Query<'_>) -> Option<(u32, &Cell)> {
        let mode = self.mode_id(q.mode)?;
        let tool = self.tool_id(q.tool).unwrap_or(self.unknown_tool);
        let dest = self
            .destination_id(q.destination)
            .unwrap_or(self.unknown_destination);
        let (_, dn, mn) = self.prefix_dims;
        let i = (tool as usize * dn + dest as usize) * mn + mode as usize;
        if let (Some(d), Some(&base)) = (&self.direct, self.bases.get(i)) {
            if base == INVALID {
                return None;
            }
            return self.cell_of(d.at(base, q.confidence, &q.labels, q.budgets_exhausted));
        }
        let r = self.resolve_ids(Some(tool), Some(dest), mode)?;
        self.cell_resolved_checked(
            r.ids,
            r.decider,
            q.confidence,
            q.labels,
            q.budgets_exhausted,
        )
    }

    /// Where the walk starts: the memoised node after the tool, destination
    /// and mode dimensions when the prefix cache exists, else the root.
    #[inline]
    fn start(&self, coords: &[u32]) -> u32 {
        if let (false, [t, d, m, ..]) = (self.prefix.is_empty(), coords) {
            let (t, d, m) = (*t as usize, *d as usize, *m as usize);
            if t < self.prefix_dims.0 && d < self.prefix_dims.1 && m < self.prefix_dims.2 {
                let i = (t * self.prefix_dims.1 + d) * self.prefix_dims.2 + m;
                if let Some(at) = self.prefix.get(i) {
                    return *at;
                }
            }
            return INVALID;
        }
        self.root
    }

    /// Walk the flattened diagram from `at`; `None` on any inconsistency.
    #[inline]
    fn walk_from(&self, mut at: u32, coords: &[u32]) -> Option<u32> {
        // Bounded like `Table::evaluate_index`: an ordered diagram visits each
        // dimension at most once.
        for _ in 0..=MAX_DIMS {
            if at & LEAF != 0 {
                return (at != INVALID).then_some(at & !LEAF);
            }
            let base = at as usize;
            let dim = *self.flat.get(base)? as usize;
            let n = *self.flat.get(base + 1)?;
            let v = *coords.get(dim)?;
            if v >= n {
                return None;
            }
            at = *self.flat.get(base + 2 + v as usize)?;
        }
        None
    }

    /// The cell index of a point: the dense index's entry, or the walk's
    /// leaf; `None` fails closed.
    #[inline]
    fn cell_index(&self, coords: &[u32]) -> Option<u32> {
        match &self.dense {
            Some(dense) => {
                let at = dense.get(coords);
                (at != NO_CELL).then_some(at)
            }
            None => self.walk_from(self.start(coords), coords),
        }
    }

    #[inline]
    fn decide_coords(&self, coords: &[u32]) -> Decision<'_> {
        Decision::of_cell(self.cell_index(coords).and_then(|i| self.cell_of(i)))
    }

    /// Decide a prepared point.
    #[inline]
    #[must_use]
    pub fn decide_point(&self, p: &Point) -> Decision<'_> {
        self.decide_coords(p.coords())
    }

    /// Decide a prepared point by walking the diagram, bypassing the dense
    /// index: the path of tables too large for one, kept callable for tests
    /// (both paths agree on every point) and benchmarks.
    #[must_use]
    pub fn decide_point_by_walk(&self, p: &Point) -> Decision<'_> {
        let coords = p.coords();
        Decision::of_cell(
            self.walk_from(self.start(coords), coords)
                .and_then(|i| self.cell_of(i)),
        )
    }

    /// Whether decisions use the dense index (the domain has at most
    /// [`DENSE_LIMIT`] points).
    #[must_use]
    pub fn is_dense(&self) -> bool {
        self.dense.is_some()
    }
}
