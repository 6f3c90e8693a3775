//! A test-only table builder (after `runtime/tests/common`): a small
//! vocabulary and a decision function over its domain, lowered by brute
//! force (every point through the function, then hash-consed into a reduced
//! ordered diagram). Independent of the compiler's lowering, so tests of the
//! diff and the vectors do not depend on it.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "test oracles and helpers: a failure should fail the test"
)]
#![allow(
    dead_code,
    reason = "each test target uses a different part of the builder"
)]

use std::collections::{BTreeMap, HashMap};

use stpc_runtime::table::*;

/// The vocabulary of a generated table.
#[derive(Clone, Debug)]
pub struct Spec {
    pub contract: String,
    pub tools: Vec<String>,
    pub destinations: Vec<String>,
    pub modes: Vec<String>,
    pub arg_labels: Vec<String>,
    pub dest_labels: Vec<String>,
    pub cuts: Vec<f64>,
    pub budgets: Vec<String>,
    pub fields: Vec<String>,
}

pub fn chain(name: &str, labels: &[String]) -> Lattice {
    let n = labels.len() as u32;
    Lattice {
        name: name.to_owned(),
        labels: labels.to_vec(),
        join: (0..n).map(|a| (0..n).map(|b| a.max(b)).collect()).collect(),
        bottom: 0,
    }
}

impl Spec {
    /// Value counts of the dimensions, in table order.
    pub fn sizes(&self) -> Vec<usize> {
        let mut s = vec![
            self.tools.len() + 1,
            self.destinations.len() + 1,
            self.modes.len(),
            self.arg_labels.len() + 1,
            self.dest_labels.len() + 1,
            self.cuts.len() + 1,
        ];
        s.extend(self.budgets.iter().map(|_| 2));
        s.extend(self.fields.iter().map(|_| self.arg_labels.len() + 1));
        s
    }

    fn dimensions(&self) -> Vec<Dimension> {
        let with = |v: &[String], last: &str| {
            v.iter()
                .cloned()
                .chain([last.to_owned()])
                .collect::<Vec<_>>()
        };
        let mut dims = vec![
            Dimension {
                kind: DimensionKind::Tool,
                values: with(&self.tools, UNKNOWN),
            },
            Dimension {
                kind: DimensionKind::Destination,
                values: with(&self.destinations, UNKNOWN),
            },
            Dimension {
                kind: DimensionKind::Mode,
                values: self.modes.clone(),
            },
            Dimension {
                kind: DimensionKind::ArgLabel,
                values: with(&self.arg_labels, MISSING),
            },
            Dimension {
                kind: DimensionKind::DestLabel,
                values: with(&self.dest_labels, MISSING),
            },
            Dimension {
                kind: DimensionKind::Confidence {
                    cuts: self.cuts.clone(),
                },
                values: (0..=self.cuts.len())
                    .map(|i| format!("interval {i}"))
                    .collect(),
            },
        ];
        for (i, _) in self.budgets.iter().enumerate() {
            dims.push(Dimension {
                kind: DimensionKind::Budget { budget: i as u32 },
                values: vec!["available".into(), "exhausted".into()],
            });
        }
        for f in &self.fields {
            dims.push(Dimension {
                kind: DimensionKind::FieldLabel { field: f.clone() },
                values: with(&self.arg_labels, MISSING),
            });
        }
        dims
    }
}

/// Build and seal a table deciding each point with `decide`, which returns
/// the action and the rule id (the rule name is `r<id>`).
pub fn build(spec: &Spec, decide: &dyn Fn(&[u32]) -> (Action, u32)) -> Table {
    let sizes = spec.sizes();
    let mut cells: Vec<Cell> = Vec::new();
    let mut cell_ix: HashMap<(Action, u32), u32> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: HashMap<Node, u32> = HashMap::new();
    fn rec(
        dim: usize,
        coords: &mut Vec<u32>,
        sizes: &[usize],
        leaf: &mut dyn FnMut(&[u32]) -> Node,
        intern: &mut dyn FnMut(Node) -> u32,
    ) -> u32 {
        if dim == sizes.len() {
            let n = leaf(coords);
            return intern(n);
        }
        let mut children = Vec::new();
        for v in 0..sizes[dim] as u32 {
            coords.push(v);
            children.push(rec(dim + 1, coords, sizes, leaf, intern));
            coords.pop();
        }
        if children.iter().all(|c| *c == children[0]) {
            return children[0];
        }
        intern(Node::Branch {
            dim: dim as u16,
            children,
        })
    }
    let mut leaf = |c: &[u32]| -> Node {
        let (action, rule_id) = decide(c);
        let next = cells.len() as u32;
        let ix = *cell_ix.entry((action, rule_id)).or_insert(next);
        if ix == next {
            cells.push(Cell {
                action,
                transforms: if action == Action::Rewrite {
                    vec![0]
                } else {
                    vec![]
                },
                substitute: None,
                rule_id,
                rule_name: format!("r{rule_id}"),
            });
        }
        Node::Leaf { cell: ix }
    };
    let mut intern = |n: Node| -> u32 {
        if let Some(i) = index.get(&n) {
            return *i;
        }
        let i = nodes.len() as u32;
        nodes.push(n.clone());
        index.insert(n, i);
        i
    };
    let root = rec(0, &mut Vec::new(), &sizes, &mut leaf, &mut intern);
    let table = Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: spec.contract.clone(),
        params: BTreeMap::new(),
        lattices: Lattices {
            args: chain("ArgLabel", &spec.arg_labels),
            destination: chain("DestLabel", &spec.dest_labels),
        },
        dimensions: spec.dimensions(),
        diagram: Diagram { root, nodes },
        cells,
        tools: spec
            .tools
            .iter()
            .map(|t| Tool {
                name: t.clone(),
                effect: "external_read".into(),
                args: spec
                    .fields
                    .iter()
                    .map(|f| ArgField {
                        name: f.clone(),
                        ty: FieldType::Text,
                    })
                    .collect(),
                destinations: (0..spec.destinations.len() as u32).collect(),
                substitute: None,
            })
            .collect(),
        destinations: spec
            .destinations
            .iter()
            .map(|d| Destination {
                name: d.clone(),
                address: Address {
                    kind: AddressKind::Host,
                    value: format!("{d}.example"),
                },
                label: 0,
                observers: vec![0],
            })
            .collect(),
        observers: vec![Observer {
            name: "provider".into(),
            locality: Locality::External,
            sees: vec!["arguments".into()],
        }],
        forbid: vec![],
        thresholds: vec![],
        budgets: spec
            .budgets
            .iter()
            .map(|b| Budget {
                name: b.clone(),
                limit: 1,
                subject: Subject::Args,
                at_least: 0,
            })
            .collect(),
        audit: AuditPolicy {
            sinks: vec![],
            raw_args: false,
            scrub_after_commit: false,
        },
        substitutes: vec![],
        transforms: vec![Transform {
            name: "generic".into(),
            applies_to: vec![FieldType::Text],
            output_label: 0,
            steps: vec![Step::Constant {
                value: "something".into(),
            }],
        }],
        lexicons: vec![],
        labelers: Labelers {
            args: Labeler {
                rules: vec![],
                fallback: 0,
            },
            destination: Labeler {
                rules: vec![],
                fallback: 0,
            },
        },
    };
    let table = table.seal().unwrap();
    validate::validate(&table).unwrap();
    table
}
