//! The reduced ordered multi-valued decision diagram, built top-down.
//!
//! The state of the construction is the **residual pipeline**: the rules
//! partially evaluated under the dimension values fixed so far, with the
//! rules that became false dropped and everything after the first rule that
//! became unconditionally true cut off. When the first remaining rule is
//! true, the node is a leaf for that rule's cell. Otherwise the node tests
//! the smallest dimension any remaining guard still reads (dimensions no
//! guard reads are skipped, which is already part of the reduction) and has
//! one child per value, each the residual restricted to that value.
//!
//! Two tables make this cheap:
//!
//! - a **memo** from residual pipeline to node: two prefixes of the domain
//!   that leave the same residual share one subdiagram, so the work is
//!   proportional to the number of *distinct* residuals, not to the number
//!   of points. For a contract over `n` tools whose guards treat most tools
//!   alike, the tool dimension yields a handful of distinct residuals, so
//!   compile time is near-linear in `n` (one restriction per tool value);
//! - a **unique table** (hash-consing) from node to id: structurally equal
//!   nodes get one id, and a branch whose children are all equal is replaced
//!   by that child, so the diagram is reduced.
//!
//! Why top-down rather than building a dense table and compressing it: the
//! dense table is the product of every dimension (easily millions of points
//! for a realistic contract), while the residual construction never visits
//! a point, only distinct residuals. Node ids are assigned in creation order
//! and the memo is only looked up, never iterated, so the output is
//! deterministic.

use std::collections::{BTreeMap, HashMap};

use super::domain::Domain;
use super::expr::Expr;
use stpc_runtime::table::{Diagram, Node};

/// A diagram whose leaves point at cells, and the rule of each cell.
pub(crate) struct Built {
    /// The diagram.
    pub(crate) diagram: Diagram,
    /// `cell_rules[c]` is the index of the rule that produced cell `c`.
    pub(crate) cell_rules: Vec<u32>,
}

/// Why the diagram could not be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BuildError {
    /// A point of the domain matches no rule (the pipeline has no default).
    NoRule,
    /// More nodes, cells or dimensions than the format's indices hold.
    TooLarge,
}

type Residual = Vec<(u32, Expr)>;

struct Builder<'a> {
    domain: &'a Domain,
    nodes: Vec<Node>,
    unique: HashMap<Node, u32>,
    memo: HashMap<Residual, u32>,
    cell_of_rule: BTreeMap<u32, u32>,
    cell_rules: Vec<u32>,
}

/// Builds the diagram of the pipeline `rules` (rule index, guard formula).
pub(crate) fn build(domain: &Domain, rules: Vec<(u32, Expr)>) -> Result<Built, BuildError> {
    let mut b = Builder {
        domain,
        nodes: Vec::new(),
        unique: HashMap::new(),
        memo: HashMap::new(),
        cell_of_rule: BTreeMap::new(),
        cell_rules: Vec::new(),
    };
    let root = b.build(normalise(rules))?;
    Ok(Built {
        diagram: Diagram {
            root,
            nodes: b.nodes,
        },
        cell_rules: b.cell_rules,
    })
}

/// Drops false rules and everything after the first true one.
fn normalise(rules: Residual) -> Residual {
    let mut out = Vec::with_capacity(rules.len());
    for (id, e) in rules {
        match e {
            Expr::Const(false) => {}
            Expr::Const(true) => {
                out.push((id, Expr::Const(true)));
                break;
            }
            e => out.push((id, e)),
        }
    }
    out
}

impl Builder<'_> {
    fn intern(&mut self, node: Node) -> Result<u32, BuildError> {
        if let Some(id) = self.unique.get(&node) {
            return Ok(*id);
        }
        let id = u32::try_from(self.nodes.len()).map_err(|_| BuildError::TooLarge)?;
        self.nodes.push(node.clone());
        self.unique.insert(node, id);
        Ok(id)
    }

    fn leaf(&mut self, rule: u32) -> Result<u32, BuildError> {
        let cell = match self.cell_of_rule.get(&rule) {
            Some(c) => *c,
            None => {
                let c = u32::try_from(self.cell_rules.len()).map_err(|_| BuildError::TooLarge)?;
                self.cell_rules.push(rule);
                self.cell_of_rule.insert(rule, c);
                c
            }
        };
        self.intern(Node::Leaf { cell })
    }

    fn build(&mut self, residual: Residual) -> Result<u32, BuildError> {
        match residual.first() {
            None => return Err(BuildError::NoRule),
            Some((rule, Expr::Const(true))) => return self.leaf(*rule),
            Some(_) => {}
        }
        if let Some(id) = self.memo.get(&residual) {
            return Ok(*id);
        }
        // INVARIANT: the first rule is not constant, so some guard reads a dimension.
        let dim = residual
            .iter()
            .filter_map(|(_, e)| e.min_dim())
            .min()
            .ok_or(BuildError::NoRule)?;
        let mut children = Vec::with_capacity(self.domain.size(dim));
        for v in 0..self.domain.size(dim) {
            let next = normalise(
                residual
                    .iter()
                    .map(|(id, e)| (*id, e.restrict(dim, v)))
                    .collect(),
            );
            children.push(self.build(next)?);
        }
        let id = match children.first() {
            Some(first) if children.iter().all(|c| c == first) => *first,
            _ => {
                let dim = u16::try_from(dim).map_err(|_| BuildError::TooLarge)?;
                self.intern(Node::Branch { dim, children })?
            }
        };
        self.memo.insert(residual, id);
        Ok(id)
    }
}
