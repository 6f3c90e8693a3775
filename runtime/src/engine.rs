//! A loaded table with everything compiled that evaluation needs: the
//! [`Decider`]'s lookups, the [`Labeler`]'s matchers, and the forbidden cut
//! per mode and destination as a dense `mode × destination × label` matrix.
//! The rewriter's date shapes do not depend on the table: they are compiled
//! once per process, on the first rewrite (or by [`Engine::warm_up`]).
//!
//! An `Engine` is immutable and `Send + Sync`; many monitors (one per agent
//! session) can share one behind an `Arc`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::decide::Decider;
use crate::error::LoadError;
use crate::label::{Labeler, Labels};
use crate::table::{domain, Locality, Subject, Table};
use crate::transform::{self, Rewriter};

/// Result of applying a REWRITE cell's transforms.
#[derive(Clone, PartialEq)]
pub enum Rewritten {
    /// Every field is now below the cut.
    Done {
        /// The rewritten arguments.
        args: Value,
        /// Names of the fields that were transformed.
        fields: Vec<String>,
        /// For each transformed field, the transforms applied to it, by name,
        /// in order: what an audit record keeps instead of the new value.
        applied: BTreeMap<String, Vec<String>>,
        /// Labels of the rewritten arguments.
        labels: Labels,
    },
    /// Some fields are still at or above the cut (A3 failed at run time).
    Insufficient {
        /// Names of those fields.
        fields: Vec<String>,
    },
}

impl std::fmt::Debug for Rewritten {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rewritten::Done { fields, .. } => f
                .debug_struct("Done")
                .field("fields", fields)
                .finish_non_exhaustive(),
            Rewritten::Insufficient { fields } => f
                .debug_struct("Insufficient")
                .field("fields", fields)
                .finish(),
        }
    }
}

/// What a REWRITE cell asks of [`Engine::rewrite`].
#[derive(Clone, Copy, Debug, Default)]
pub struct RewriteCell<'t> {
    /// Transform indices, applied in order to each field they fit.
    pub transforms: &'t [u32],
    /// Fields at or above this argument label are rewritten too.
    pub scope: Option<u32>,
}

/// A loaded, compiled table.
#[derive(Debug)]
pub struct Engine {
    table: Arc<Table>,
    decider: Decider,
    labeler: Arc<Labeler>,
    /// `forbidden[m][d][l]`: in mode `m`, argument label `l` may not reach destination `d`'s
    /// external observers; the last row of each mode is the unknown
    /// destination, the last mode an unknown mode.
    forbidden: Vec<Vec<Vec<bool>>>,
    committed: u32,
}

impl Engine {
    /// Loads a table from its JSON bytes and requires its signature (the
    /// text of its `.sig` file) to be made by one of `trusted` over its
    /// digest: what a deployment that loads tables it did not compile
    /// should use. A re-sealed table (edited, digest recomputed) is
    /// refused.
    ///
    /// # Errors
    ///
    /// Anything [`Table::from_json`] refuses, [`LoadError::Signature`], or
    /// labelers that do not compile.
    pub fn load_signed(
        table_json: &[u8],
        signature: &str,
        trusted: &crate::signature::TrustedKeys,
    ) -> Result<Engine, LoadError> {
        let table = Table::from_json(table_json)?;
        trusted.check(&table, signature)?;
        Engine::new(Arc::new(table))
    }

    /// Compile a table (normally one from [`Table::from_json`]).
    ///
    /// # Errors
    ///
    /// A labeler pattern or lexicon that does not compile, or a table whose
    /// mode dimension has no `committed` value.
    pub fn new(table: Arc<Table>) -> Result<Engine, LoadError> {
        let labeler = Arc::new(Labeler::new(&table)?);
        Engine::with_labeler(table, labeler)
    }

    /// [`Engine::new`], with the labeler's automata loaded from the index
    /// `stpc compile` wrote beside the table (see [`crate::label::index`])
    /// instead of built from its lexicons: the same engine, deciding and
    /// labelling exactly alike, in a fraction of the start-up.
    ///
    /// # Errors
    ///
    /// [`LoadError::Index`] when the table names no index or `index` is
    /// not the one it names (a caller may then fall back to
    /// [`Engine::new`]); otherwise as [`Engine::new`].
    pub fn with_index(table: Arc<Table>, index: &[u8]) -> Result<Engine, LoadError> {
        let labeler = Arc::new(Labeler::with_index(&table, index)?);
        Engine::with_labeler(table, labeler)
    }

    /// [`Engine::with_index`] with the index decoded by `index`
    /// ([`crate::label::index::Index::decode`]), called while the
    /// labeler's regular expressions compile on a second thread: a loader
    /// decodes the index on a thread of its own while the table is still
    /// being read and checked, and passes a function that joins it, as
    /// `stpc decide` does.
    ///
    /// # Errors
    ///
    /// What `index` returns; otherwise as [`Engine::with_index`].
    pub fn with_index_from(
        table: Arc<Table>,
        index: impl FnOnce() -> Result<crate::label::index::Index, LoadError>,
    ) -> Result<Engine, LoadError> {
        let labeler = Arc::new(Labeler::with_index_from(&table, index)?);
        Engine::with_labeler(table, labeler)
    }

    /// Compiles what every engine of this process shares and no table
    /// changes (the entity recognisers, the rewrite shapes), unless done
    /// already: a loader with a spare thread calls it there while the
    /// table loads, so that building the first engine does not wait for
    /// it. Calling it is never needed, and never harmful.
    pub fn warm_up() {
        let _ = crate::entity::Recognisers::shared();
        let _ = Rewriter::shared();
    }

    /// Like [`Engine::new`], but reuses `other`'s labeler when the two
    /// tables label alike (same lexicons, labelers, lattices, tools,
    /// destinations and transforms), as the std policies do: a process that
    /// loads many policies (an evaluation, a server with one table per
    /// tenant) then holds one copy of the lexicon automata instead of one
    /// per table. Otherwise it is [`Engine::new`].
    ///
    /// # Errors
    ///
    /// As [`Engine::new`].
    pub fn new_sharing(table: Arc<Table>, other: &Engine) -> Result<Engine, LoadError> {
        if other.labels_like(&table) {
            Engine::with_labeler(table, Arc::clone(&other.labeler))
        } else {
            Engine::new(table)
        }
    }

    /// Whether `table` labels exactly as this engine's table does (what
    /// [`Engine::new_sharing`] requires to share the labeler).
    #[must_use]
    pub fn labels_like(&self, table: &Table) -> bool {
        let b = &*self.table;
        table.lexicons == b.lexicons
            && table.labelers == b.labelers
            && table.lattices == b.lattices
            && table.tools == b.tools
            && table.destinations == b.destinations
            && table.transforms == b.transforms
    }

    fn with_labeler(table: Arc<Table>, labeler: Arc<Labeler>) -> Result<Engine, LoadError> {
        let committed = table.committed_mode().ok_or_else(|| {
            LoadError::invalid(
                "dimensions[2]",
                "the mode dimension must contain `committed`",
            )
        })?;
        let forbidden = forbidden_matrix(&table);
        Ok(Engine {
            decider: Decider::new(Arc::clone(&table)),
            labeler,
            forbidden,
            committed,
            table,
        })
    }

    /// The table.
    #[must_use]
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The decision lookups.
    #[must_use]
    pub fn decider(&self) -> &Decider {
        &self.decider
    }

    /// The labeler.
    #[must_use]
    pub fn labeler(&self) -> &Labeler {
        &self.labeler
    }

    /// Mode id of `committed`.
    #[must_use]
    pub fn committed_mode(&self) -> u32 {
        self.committed
    }

    /// Name of the `committed` mode, as events spell it (what a promoted
    /// event is decided as).
    #[must_use]
    pub fn committed_mode_name(&self) -> String {
        self.table
            .dimensions
            .get(2)
            .and_then(|d| d.values.get(self.committed as usize))
            .cloned()
            .unwrap_or_else(|| "committed".to_owned())
    }

    /// Whether an argument label may not reach the destination's external
    /// observers in mode `mode` (a cut scoped `unless committed` does not
    /// cover a committed event). A missing label, an unknown mode or an
    /// unknown id is forbidden by every cut (fail closed).
    #[must_use]
    pub fn is_forbidden(
        &self,
        mode: Option<u32>,
        destination: Option<u32>,
        label: Option<u32>,
    ) -> bool {
        let by_mode = mode
            .and_then(|m| self.forbidden.get(m as usize))
            .or_else(|| self.forbidden.last());
        let row = by_mode.and_then(|rows| {
            destination
                .and_then(|d| rows.get(d as usize))
                .or_else(|| rows.last())
        });
        match (row, label) {
            (Some(row), Some(l)) => row.get(l as usize).copied().unwrap_or(true),
            _ => true,
        }
    }

    /// Apply a REWRITE cell's transforms to every field at or above a cut
    /// that covers the event's mode and destination, or at or above the
    /// cell's `scope`, whose declared type a transform fits, then re-label.
    /// The result is held to the cuts alone: a scope asks for more
    /// scrubbing, it is not a promise the verifier checks.
    #[must_use]
    pub fn rewrite(
        &self,
        tool: Option<u32>,
        mode: Option<u32>,
        destination: Option<u32>,
        cell: RewriteCell<'_>,
        args: &Value,
        labels: &Labels,
    ) -> Rewritten {
        let RewriteCell { transforms, scope } = cell;
        let lattice = &self.table.lattices.args;
        let in_scope = |l: u32| scope.is_some_and(|s| lattice.leq(s, l));
        let Value::Object(map) = args else {
            return Rewritten::Insufficient { fields: Vec::new() };
        };
        let decl = tool.and_then(|t| self.table.tools.get(t as usize));
        let tool_name = decl.map_or("", |d| d.name.as_str());
        // Compiled on the first rewrite of the process; should it ever
        // fail (a runtime bug: tests compile it), nothing is rewritten and
        // every field the rewrite was for stays insufficient.
        let Some(rewriter) = Rewriter::shared() else {
            let fields = labels
                .fields
                .iter()
                .filter(|(_, l)| self.is_forbidden(mode, destination, Some(*l)) || in_scope(*l))
                .map(|(n, _)| n.clone())
                .collect();
            return Rewritten::Insufficient { fields };
        };
        let mut out = map.clone();
        let mut changed = Vec::new();
        let mut applied: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, label) in &labels.fields {
            if !self.is_forbidden(mode, destination, Some(*label)) && !in_scope(*label) {
                continue;
            }
            let ty = decl
                .and_then(|d| d.args.iter().find(|a| &a.name == name))
                .map(|a| &a.ty);
            let (Some(ty), Some(v)) = (ty, out.get_mut(name)) else {
                continue;
            };
            for tr in transforms
                .iter()
                .filter_map(|t| self.table.transforms.get(*t as usize))
            {
                if transform::fits(&tr.applies_to, ty) {
                    transform::apply(&self.table, &self.labeler, &rewriter, tr, v);
                    applied
                        .entry(name.clone())
                        .or_default()
                        .push(tr.name.clone());
                }
            }
            changed.push(name.clone());
        }
        let args = Value::Object(out);
        let (fields, joined) = self.labeler.label_args(tool_name, &args);
        let still: Vec<String> = fields
            .iter()
            .filter(|(_, l)| self.is_forbidden(mode, destination, Some(*l)))
            .map(|(n, _)| n.clone())
            .collect();
        if !still.is_empty() {
            return Rewritten::Insufficient { fields: still };
        }
        Rewritten::Done {
            args,
            fields: changed,
            applied,
            labels: Labels {
                fields,
                args: joined,
                destination: labels.destination,
            },
        }
    }
}

/// The `mode × destination × label` matrix of forbidden argument labels.
///
/// A cut `forbid args >= L at O` applies to a declared destination when one
/// of the destination's external observers is in `O`; to an unknown
/// destination every argument cut applies. It applies in every mode but
/// those it names `unless`; the last mode row (a mode the table does not
/// know) has every cut.
fn forbidden_matrix(t: &Table) -> Vec<Vec<Vec<bool>>> {
    let modes = t.dimensions.get(domain::MODE).map_or(0, |d| d.values.len());
    (0u32..)
        .take(modes)
        .map(Some)
        .chain([None])
        .map(|m| forbidden_rows(t, m))
        .collect()
}

/// The `destination × label` rows of [`forbidden_matrix`] for one mode.
fn forbidden_rows(t: &Table, mode: Option<u32>) -> Vec<Vec<bool>> {
    let lat = &t.lattices.args;
    let n = lat.labels.len();
    let row = |applies: &dyn Fn(&[u32]) -> bool| -> Vec<bool> {
        (0u32..)
            .take(n)
            .map(|l| {
                t.forbid
                    .iter()
                    .filter(|c| {
                        c.subject == Subject::Args && c.covers(mode) && applies(&c.observers)
                    })
                    .any(|c| lat.leq(c.label, l))
            })
            .collect()
    };
    let mut rows: Vec<Vec<bool>> = t
        .destinations
        .iter()
        .map(|d| {
            let external: Vec<u32> = d
                .observers
                .iter()
                .copied()
                .filter(|o| {
                    t.observers
                        .get(*o as usize)
                        .is_none_or(|ob| ob.locality == Locality::External)
                })
                .collect();
            row(&|obs: &[u32]| obs.iter().any(|o| external.contains(o)))
        })
        .collect();
    rows.push(row(&|_| true));
    rows
}
