//! From an event's names and labels to a cell of the table.
//!
//! [`Decider`] precomputes, once per table, hash maps from tool, destination
//! (name, host, collection) and mode names to dimension values, so building a
//! [`Point`] is a few hash lookups and a short scan of the confidence cuts,
//! and deciding is then one array lookup per dimension in the diagram.
//!
//! The maps use [`FxBuildHasher`], a multiply-rotate hasher over 8-byte words
//! (the scheme of rustc's `FxHasher`), instead of std's SipHash: the keys are a
//! few dozen names fixed by the table, the looked-up strings cannot insert
//! anything, so HashDoS resistance buys nothing, and SipHash alone would cost
//! about a third of the 60 ns decision budget. Writing the 20 lines here avoids
//! a dependency.
//!
//! Unknown tools and destinations map to the `<unknown>` value; a label not
//! supplied maps to `<missing>`; an unknown mode, a NaN confidence or a
//! mismatched budget vector is a [`DecideError`], which [`Decider::decide`]
//! turns into the fail-closed BLOCK cell.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use crate::error::DecideError;
use crate::table::{
    Action, AddressKind, Cell, DimensionKind, Table, FAIL_CLOSED_CELL, FAIL_CLOSED_RULE_ID, MAX_DIMS,
};

/// Name of the rule reported for fail-closed decisions.
pub const FAIL_CLOSED_RULE_NAME: &str = "<fail-closed>";

/// A multiply-rotate hasher for short, trusted keys (see the module docs).
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            for (d, s) in w.iter_mut().zip(rest) {
                *d = *s;
            }
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `BuildHasher` for [`FxHasher`].
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// Name → value id map used for every string lookup on the decision path.
pub type NameMap = HashMap<Box<str>, u32, FxBuildHasher>;

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
        let mut p = Point { coords: [0; MAX_DIMS], len: u8::try_from(coords.len()).ok()? };
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
    /// Rule that produced the cell ([`FAIL_CLOSED_RULE_ID`] when failing closed).
    pub rule_id: u32,
    /// That rule's name ([`FAIL_CLOSED_RULE_NAME`] when failing closed).
    pub rule_name: &'t str,
    /// Transform indices (REWRITE).
    pub transforms: &'t [u32],
    /// Substitute index from the cell (SHADOW).
    pub substitute: Option<u32>,
}

impl<'t> Decision<'t> {
    fn from_cell(cell: Option<u32>, c: &'t Cell) -> Decision<'t> {
        let rule_name = if c.rule_id == FAIL_CLOSED_RULE_ID { FAIL_CLOSED_RULE_NAME } else { c.rule_name.as_str() };
        Decision {
            action: c.action,
            cell,
            rule_id: c.rule_id,
            rule_name,
            transforms: &c.transforms,
            substitute: c.substitute,
        }
    }

    /// The fail-closed BLOCK decision.
    #[must_use]
    pub fn fail_closed() -> Decision<'static> {
        Decision::from_cell(None, &FAIL_CLOSED_CELL)
    }
}

/// Precomputed lookups over one table.
pub struct Decider {
    table: Arc<Table>,
    tools: NameMap,
    destinations: NameMap,
    modes: NameMap,
    unknown_tool: u32,
    unknown_destination: u32,
    missing_arg: u32,
    missing_dest: u32,
    cuts: Vec<f64>,
    budgets: usize,
    fields: Vec<Box<str>>,
}

impl std::fmt::Debug for Decider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decider").field("contract", &self.table.contract).finish_non_exhaustive()
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
        let mut tools = NameMap::default();
        for (i, t) in table.tools.iter().enumerate() {
            tools.insert(t.name.as_str().into(), len_u32(i));
        }
        let mut destinations = NameMap::default();
        // Names win over addresses: insert addresses first, then names.
        for (i, d) in table.destinations.iter().enumerate() {
            if d.address.kind != AddressKind::Url {
                destinations.insert(d.address.value.to_ascii_lowercase().into(), len_u32(i));
                destinations.insert(d.address.value.as_str().into(), len_u32(i));
            }
        }
        for (i, d) in table.destinations.iter().enumerate() {
            destinations.insert(d.name.as_str().into(), len_u32(i));
        }
        let mut modes = NameMap::default();
        let mut cuts = Vec::new();
        let mut fields = Vec::new();
        for d in &table.dimensions {
            match &d.kind {
                DimensionKind::Mode => {
                    for (i, m) in d.values.iter().enumerate() {
                        modes.insert(m.as_str().into(), len_u32(i));
                    }
                }
                DimensionKind::Confidence { cuts: c } => cuts.clone_from(c),
                DimensionKind::FieldLabel { field } => fields.push(field.as_str().into()),
                _ => {}
            }
        }
        Decider {
            unknown_tool: len_u32(table.tools.len()),
            unknown_destination: len_u32(table.destinations.len()),
            missing_arg: len_u32(table.lattices.args.labels.len()),
            missing_dest: len_u32(table.lattices.destination.labels.len()),
            budgets: table.budgets.len(),
            tools,
            destinations,
            modes,
            cuts,
            fields,
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
        self.tools.get(name).copied()
    }

    /// Destination id for a name, host or collection, or for a URL matching
    /// a declared URL glob; `None` when unknown.
    #[must_use]
    pub fn destination_id(&self, name: &str) -> Option<u32> {
        if let Some(d) = self.destinations.get(name) {
            return Some(*d);
        }
        // Fall back to URL globs and the host part of a URL; slow path only
        // for destinations not given by name.
        let host = crate::label::host_of(name);
        if let Some(d) = host.and_then(|h| self.destinations.get(h.to_ascii_lowercase().as_str())) {
            return Some(*d);
        }
        self.table.destinations.iter().position(|d| {
            d.address.kind == AddressKind::Url && crate::label::glob_match(&d.address.value, name)
        }).map(len_u32)
    }

    /// Mode id, or `None` when the mode is not declared.
    #[must_use]
    pub fn mode_id(&self, name: &str) -> Option<u32> {
        self.modes.get(name).copied()
    }

    /// Confidence interval index of `c`.
    ///
    /// # Errors
    ///
    /// [`DecideError::NonFiniteConfidence`] for NaN or infinities.
    pub fn interval(&self, c: f64) -> Result<u32, DecideError> {
        if !c.is_finite() {
            return Err(DecideError::NonFiniteConfidence);
        }
        Ok(len_u32(self.cuts.iter().take_while(|cut| c >= **cut).count()))
    }

    /// Build the point for a query.
    ///
    /// # Errors
    ///
    /// An unknown mode, a non-finite confidence, a wrong number of budget
    /// states or a label id outside its lattice.
    pub fn point(&self, q: &Query<'_>) -> Result<Point, DecideError> {
        let tool = self.tool_id(q.tool).unwrap_or(self.unknown_tool);
        let dest = self.destination_id(q.destination).unwrap_or(self.unknown_destination);
        self.point_ids(tool, dest, q)
    }

    /// Build the point when tool and destination ids are already resolved
    /// (`None` is `<unknown>`).
    ///
    /// # Errors
    ///
    /// As [`Decider::point`].
    pub fn point_resolved(&self, tool: Option<u32>, dest: Option<u32>, q: &Query<'_>) -> Result<Point, DecideError> {
        self.point_ids(tool.unwrap_or(self.unknown_tool), dest.unwrap_or(self.unknown_destination), q)
    }

    fn point_ids(&self, tool: u32, dest: u32, q: &Query<'_>) -> Result<Point, DecideError> {
        let mode = self.mode_id(q.mode).ok_or(DecideError::UnknownMode)?;
        let label = |l: Option<u32>, missing: u32| match l {
            None => Ok(missing),
            Some(id) if id < missing => Ok(id),
            Some(_) => Err(DecideError::LabelOutOfRange),
        };
        let arg = label(q.labels.args, self.missing_arg)?;
        let dl = label(q.labels.destination, self.missing_dest)?;
        let conf = self.interval(q.confidence)?;
        if q.budgets_exhausted.len() != self.budgets {
            return Err(DecideError::BudgetCount { expected: self.budgets, found: q.budgets_exhausted.len() });
        }
        let mut p = Point { coords: [0; MAX_DIMS], len: 0 };
        let fixed = [tool, dest, mode, arg, dl, conf];
        let budgets = q.budgets_exhausted.iter().map(|b| u32::from(*b));
        let mut n = 0usize;
        for (slot, v) in p.coords.iter_mut().zip(fixed.into_iter().chain(budgets)) {
            *slot = v;
            n += 1;
        }
        for f in &self.fields {
            let l = q.labels.fields.iter().find(|(name, _)| *name == &**f).map(|(_, l)| *l);
            let v = label(l, self.missing_arg)?;
            *p.coords.get_mut(n).ok_or(DecideError::TooManyDimensions)? = v;
            n += 1;
        }
        p.len = u8::try_from(n).map_err(|_| DecideError::TooManyDimensions)?;
        Ok(p)
    }

    /// Decide a query; any error yields the fail-closed BLOCK decision.
    #[must_use]
    pub fn decide(&self, q: &Query<'_>) -> Decision<'_> {
        match self.point(q) {
            Ok(p) => self.decide_point(&p),
            Err(_) => Decision::fail_closed(),
        }
    }

    /// Decide a prepared point.
    #[must_use]
    pub fn decide_point(&self, p: &Point) -> Decision<'_> {
        match self.table.evaluate_index(p) {
            Some(i) => match self.table.cells.get(i as usize) {
                Some(c) => Decision::from_cell(Some(i), c),
                None => Decision::fail_closed(),
            },
            None => Decision::fail_closed(),
        }
    }
}
