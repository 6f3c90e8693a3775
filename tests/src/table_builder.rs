//! One builder for hand-built test tables: a vocabulary (a [`Table`] whose
//! diagram is still empty), the values of the mode, confidence and
//! field-label dimensions ([`Domain`]), and a decision function over the
//! whole abstract domain. [`lower`] runs the function on every point and
//! hash-conses the results into a reduced ordered diagram, brute force and
//! independent of the compiler's lowering, so the runtime, eval and
//! table-tool tests do not depend on it.
//!
//! [`crate::web_search_table`] and [`crate::policy_tables`] are contracts
//! built with it; [`Spec`] and [`build`] make generic vocabularies for
//! property tests.

#![expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "test oracles and helpers: a failure should fail the test"
)]

use std::collections::{BTreeMap, HashMap};

use stpc_runtime::table::{
    domain as layout, validate, Action, Address, AddressKind, ArgField, AuditPolicy, Budget, Cell,
    Condition, Destination, Diagram, Dimension, DimensionKind, FieldType, LabelRule, Labeler,
    Labelers, Lattice, Lattices, Lexicon, LexiconEntry, Locality, Node, Observer, Step, Subject,
    Table, Tool, Transform, FORMAT_VERSION, MISSING, UNKNOWN,
};

/// The dimension values a table's vocabulary does not name: modes,
/// confidence cuts and the fields that get a `field_label` dimension.
#[derive(Clone, Debug, Default)]
pub struct Domain {
    /// Mode names, `committed` first.
    pub modes: Vec<String>,
    /// Strictly increasing confidence cuts.
    pub cuts: Vec<f64>,
    /// Fields with their own label dimension.
    pub fields: Vec<String>,
}

impl Domain {
    /// The six modes of `std::modes`, one confidence cut, no field dimension.
    #[must_use]
    pub fn std(cut: f64) -> Domain {
        Domain {
            modes: names(&MODES),
            cuts: vec![cut],
            fields: Vec::new(),
        }
    }
}

/// The modes of `std::modes`, in declaration order.
pub const MODES: [&str; 6] = [
    "committed",
    "speculative",
    "prefetch",
    "retry",
    "validation",
    "shadow",
];

/// The argument labels of `std::labels`.
pub const ARG_LABELS: [&str; 4] = ["public", "personal", "sensitive", "intent_revealing"];

/// The destination labels of `std::labels`.
pub const DEST_LABELS: [&str; 5] = [
    "public",
    "tenant_internal",
    "sensitive",
    "regulated",
    "forbidden",
];

/// Label id of `sensitive` in [`ARG_LABELS`].
pub const SENSITIVE: u32 = 2;

/// Label id of `intent_revealing` in [`ARG_LABELS`].
pub const INTENT: u32 = 3;

/// A point of the domain by name, in the fixed dimension order.
#[derive(Clone, Copy, Debug)]
pub struct Coords<'a> {
    /// Tool id; the tool count is `<unknown>`.
    pub tool: u32,
    /// Destination id; the destination count is `<unknown>`.
    pub dest: u32,
    /// Mode id.
    pub mode: u32,
    /// Joined argument label; the label count is `<missing>`.
    pub arg: u32,
    /// Destination label; the label count is `<missing>`.
    pub dest_label: u32,
    /// Confidence interval index.
    pub conf: u32,
    /// One value per budget: 0 available, 1 exhausted.
    pub budgets: &'a [u32],
    /// One label per field dimension.
    pub fields: &'a [u32],
}

impl Coords<'_> {
    /// Whether the first budget is exhausted.
    #[must_use]
    pub fn budget_exhausted(&self) -> bool {
        self.budgets.first() == Some(&1)
    }
}

/// Owned names from string slices.
#[must_use]
pub fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// A total order as a lattice: `join(a, b) = max(a, b)`.
#[must_use]
pub fn chain(name: &str, labels: &[impl AsRef<str>]) -> Lattice {
    let n = labels.len() as u32;
    Lattice {
        name: name.to_owned(),
        labels: labels.iter().map(|s| s.as_ref().to_owned()).collect(),
        join: (0..n).map(|a| (0..n).map(|b| a.max(b)).collect()).collect(),
        bottom: 0,
    }
}

/// A lexicon from `(phrase, replacement)` pairs.
#[must_use]
pub fn lexicon(name: &str, entries: &[(&str, Option<&str>)]) -> Lexicon {
    Lexicon {
        name: name.to_owned(),
        entries: entries
            .iter()
            .map(|(p, r)| LexiconEntry {
                phrase: (*p).to_owned(),
                replacement: r.map(str::to_owned),
            })
            .collect(),
    }
}

/// A labeler rule for every field and tool.
#[must_use]
pub fn rule(when: Vec<Condition>, unless: Vec<Condition>, label: u32) -> LabelRule {
    LabelRule {
        when,
        unless,
        fields: Vec::new(),
        tools: Vec::new(),
        label,
    }
}

/// A cell with no substitute, transforms `[0]` for REWRITE.
#[must_use]
pub fn cell(action: Action, rule_id: u32, rule_name: &str) -> Cell {
    Cell {
        action,
        transforms: if action == Action::Rewrite {
            vec![0]
        } else {
            vec![]
        },
        substitute: None,
        rule_id,
        rule_name: rule_name.to_owned(),
        scope: None,
        reissue: false,
    }
}

/// An empty vocabulary: std lattices, no tools, destinations or rules.
#[must_use]
pub fn skeleton(contract: &str) -> Table {
    Table {
        format_version: FORMAT_VERSION,
        digest: String::new(),
        contract: contract.to_owned(),
        params: BTreeMap::new(),
        lattices: Lattices {
            args: chain("ArgLabel", &ARG_LABELS),
            destination: chain("DestLabel", &DEST_LABELS),
        },
        dimensions: Vec::new(),
        diagram: Diagram {
            root: 0,
            nodes: Vec::new(),
        },
        cells: Vec::new(),
        tools: Vec::new(),
        destinations: Vec::new(),
        undeclared_destinations: false,
        observers: Vec::new(),
        forbid: Vec::new(),
        thresholds: Vec::new(),
        budgets: Vec::new(),
        audit: AuditPolicy {
            sinks: Vec::new(),
            raw_args: false,
            withhold_destination: false,
            withhold_labels: false,
            scrub_after_commit: false,
        },
        substitutes: Vec::new(),
        transforms: Vec::new(),
        lexicons: Vec::new(),
        labelers: Labelers {
            args: Labeler {
                rules: Vec::new(),
                fallback: 0,
            },
            destination: Labeler {
                rules: Vec::new(),
                fallback: 0,
            },
        },
        index: None,
    }
}

/// The dimensions of `table`'s vocabulary over `domain`, in the fixed order
/// of the wire format.
#[must_use]
pub fn dimensions(table: &Table, domain: &Domain) -> Vec<Dimension> {
    let with = |v: Vec<String>, last: &str| v.into_iter().chain([last.to_owned()]).collect();
    let mut dims = vec![
        Dimension {
            kind: DimensionKind::Tool,
            values: with(
                table.tools.iter().map(|t| t.name.clone()).collect(),
                UNKNOWN,
            ),
        },
        Dimension {
            kind: DimensionKind::Destination,
            values: with(
                table.destinations.iter().map(|d| d.name.clone()).collect(),
                UNKNOWN,
            ),
        },
        Dimension {
            kind: DimensionKind::Mode,
            values: domain.modes.clone(),
        },
        Dimension {
            kind: DimensionKind::ArgLabel,
            values: with(table.lattices.args.labels.clone(), MISSING),
        },
        Dimension {
            kind: DimensionKind::DestLabel,
            values: with(table.lattices.destination.labels.clone(), MISSING),
        },
        Dimension {
            kind: DimensionKind::Confidence {
                cuts: domain.cuts.clone(),
            },
            values: layout::interval_names(&domain.cuts),
        },
    ];
    for i in 0..table.budgets.len() {
        dims.push(Dimension {
            kind: DimensionKind::Budget { budget: i as u32 },
            values: layout::BUDGET_VALUES.map(str::to_owned).to_vec(),
        });
    }
    for f in &domain.fields {
        dims.push(Dimension {
            kind: DimensionKind::FieldLabel { field: f.clone() },
            values: with(table.lattices.args.labels.clone(), MISSING),
        });
    }
    dims
}

/// Lowers `vocabulary` over `domain` by brute force: `decide` runs on every
/// point; equal cells and equal subdiagrams are shared, and a branch whose
/// children are all equal is skipped (a reduced ordered diagram). Returns
/// the sealed table, which the runtime's validator accepts.
#[must_use]
pub fn lower(vocabulary: Table, domain: &Domain, decide: &mut dyn FnMut(&Coords) -> Cell) -> Table {
    let mut table = vocabulary;
    table.dimensions = dimensions(&table, domain);
    let sizes: Vec<usize> = table.dimensions.iter().map(|d| d.values.len()).collect();
    let budgets = table.budgets.len();
    let mut cells: Vec<Cell> = Vec::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut node_index: HashMap<Node, u32> = HashMap::new();
    let mut leaf = |c: &[u32]| -> Node {
        let coords = Coords {
            tool: c[0],
            dest: c[1],
            mode: c[2],
            arg: c[3],
            dest_label: c[4],
            conf: c[5],
            budgets: &c[6..6 + budgets],
            fields: &c[6 + budgets..],
        };
        let cell = decide(&coords);
        let ix = match cells.iter().position(|x| *x == cell) {
            Some(i) => i,
            None => {
                cells.push(cell);
                cells.len() - 1
            }
        };
        Node::Leaf { cell: ix as u32 }
    };
    let mut intern = |n: Node| -> u32 {
        if let Some(i) = node_index.get(&n) {
            return *i;
        }
        let i = nodes.len() as u32;
        nodes.push(n.clone());
        node_index.insert(n, i);
        i
    };
    let root = reduce(0, &mut Vec::new(), &sizes, &mut leaf, &mut intern);
    table.diagram = Diagram { root, nodes };
    table.cells = cells;
    let table = table.seal().unwrap();
    validate::validate(&table).unwrap();
    table
}

fn reduce(
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
        children.push(reduce(dim + 1, coords, sizes, leaf, intern));
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

/// A generic vocabulary for property tests: every tool takes every field as
/// text and may reach every destination (`<name>.example`), one external
/// observer, budgets of limit 1, one constant transform.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Contract name.
    pub contract: String,
    /// Tool names.
    pub tools: Vec<String>,
    /// Destination names.
    pub destinations: Vec<String>,
    /// Mode names.
    pub modes: Vec<String>,
    /// Argument labels, a chain.
    pub arg_labels: Vec<String>,
    /// Destination labels, a chain.
    pub dest_labels: Vec<String>,
    /// Confidence cuts.
    pub cuts: Vec<f64>,
    /// Budget names.
    pub budgets: Vec<String>,
    /// Field names, each with its own label dimension.
    pub fields: Vec<String>,
}

impl Spec {
    /// Value counts of the dimensions, in table order.
    #[must_use]
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

    fn vocabulary(&self) -> Table {
        let mut t = skeleton(&self.contract);
        t.lattices = Lattices {
            args: chain("ArgLabel", &self.arg_labels),
            destination: chain("DestLabel", &self.dest_labels),
        };
        t.tools = self
            .tools
            .iter()
            .map(|name| Tool {
                name: name.clone(),
                effect: "external_read".into(),
                args: self
                    .fields
                    .iter()
                    .map(|f| ArgField {
                        name: f.clone(),
                        ty: FieldType::Text,
                    })
                    .collect(),
                destinations: (0..self.destinations.len() as u32).collect(),
                substitute: None,
            })
            .collect();
        t.destinations = self
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
            .collect();
        t.observers = vec![Observer {
            name: "provider".into(),
            locality: Locality::External,
            sees: vec!["arguments".into()],
        }];
        t.budgets = self
            .budgets
            .iter()
            .map(|b| Budget {
                name: b.clone(),
                limit: 1,
                subject: Subject::Args,
                at_least: 0,
            })
            .collect();
        t.transforms = vec![Transform {
            name: "generic".into(),
            applies_to: vec![FieldType::Text],
            output_label: 0,
            steps: vec![Step::Constant {
                value: "something".into(),
            }],
        }];
        t
    }
}

/// Builds and seals a table deciding each point (its coordinates in table
/// order) with `decide`, which returns the action and the rule id (the rule
/// name is `r<id>`).
#[must_use]
pub fn build(spec: &Spec, decide: &dyn Fn(&[u32]) -> (Action, u32)) -> Table {
    let domain = Domain {
        modes: spec.modes.clone(),
        cuts: spec.cuts.clone(),
        fields: spec.fields.clone(),
    };
    lower(spec.vocabulary(), &domain, &mut |c: &Coords| {
        let mut point = vec![c.tool, c.dest, c.mode, c.arg, c.dest_label, c.conf];
        point.extend_from_slice(c.budgets);
        point.extend_from_slice(c.fields);
        let (action, rule_id) = decide(&point);
        cell(action, rule_id, &format!("r{rule_id}"))
    })
}
