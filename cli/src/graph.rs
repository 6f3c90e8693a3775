//! `stpc graph CONTRACT.stpc --lattice NAME | --diagram`: Graphviz DOT of a
//! label lattice (its Hasse diagram) or of a contract's decision diagram.
//!
//! The diagram is lowered but not verified, so an unsound contract can be
//! drawn while it is being fixed. Edges that lead to the same child are
//! merged into one edge labelled with every value, which keeps the drawing
//! of a tool dimension with many tools readable.

use crate::{output, Global, Outcome};
use std::collections::BTreeMap;
use stpc_compiler::hir;
use stpc_compiler::{Diagnostics, SourceMap};
use stpc_runtime::table::{Node, Table};

/// Arguments of `stpc graph`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["lattice", "diagram"])))]
pub struct GraphArgs {
    /// The contract file; `-` reads standard input.
    #[arg(value_name = "CONTRACT")]
    pub file: String,
    /// Draw the lattice with this name (its Hasse diagram).
    #[arg(long, value_name = "NAME")]
    pub lattice: Option<String>,
    /// Draw the contract's decision diagram.
    #[arg(long)]
    pub diagram: bool,
    /// The contract to draw when the file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
}

fn read_file(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// A DOT string literal.
fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The Hasse diagram of a lattice: an edge for each covering pair.
pub fn lattice_dot(p: &hir::Program, l: &hir::Lattice) -> String {
    let mut s = format!(
        "digraph {} {{\n  rankdir=BT;\n  node [shape=box];\n",
        quote(&l.name)
    );
    for id in &l.labels {
        s.push_str(&format!("  {};\n", quote(p.label_name(*id))));
    }
    let lt = |a: hir::LabelId, b: hir::LabelId| a != b && l.leq(a, b) == Some(true);
    for a in &l.labels {
        for b in &l.labels {
            let covers = lt(*a, *b) && !l.labels.iter().any(|m| lt(*a, *m) && lt(*m, *b));
            if covers {
                s.push_str(&format!(
                    "  {} -> {};\n",
                    quote(p.label_name(*a)),
                    quote(p.label_name(*b))
                ));
            }
        }
    }
    s.push_str("}\n");
    s
}

/// The decision diagram: branches named by dimension, leaves by action and rule.
pub fn diagram_dot(t: &Table) -> String {
    let mut s = format!(
        "digraph {} {{\n  node [fontname=\"monospace\"];\n",
        quote(&t.contract)
    );
    for (i, n) in t.diagram.nodes.iter().enumerate() {
        match n {
            Node::Leaf { cell } => {
                let label = t.cells.get(*cell as usize).map_or_else(
                    || "?".to_owned(),
                    |c| format!("{}\\n{}", c.action.as_str(), c.rule_name.replace('"', "'")),
                );
                s.push_str(&format!(
                    "  n{i} [shape=box, style=rounded, label=\"{label}\"];\n"
                ));
            }
            Node::Branch { dim, children } => {
                let dim = t.dimensions.get(usize::from(*dim));
                let name = dim.map_or("?".to_owned(), |d| match &d.kind {
                    stpc_runtime::table::DimensionKind::FieldLabel { field } => {
                        format!("args.{field}")
                    }
                    stpc_runtime::table::DimensionKind::Budget { budget } => {
                        format!(
                            "budget {}",
                            t.budgets
                                .get(*budget as usize)
                                .map_or("?", |b| b.name.as_str())
                        )
                    }
                    k => serde_json::to_value(k)
                        .ok()
                        .and_then(|v| v.get("dim").and_then(|d| d.as_str().map(str::to_owned)))
                        .unwrap_or_default(),
                });
                s.push_str(&format!(
                    "  n{i} [shape=ellipse, label={}];\n",
                    quote(&name)
                ));
                let mut edges: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
                for (v, c) in children.iter().enumerate() {
                    let value = dim
                        .and_then(|d| d.values.get(v))
                        .map_or("?", String::as_str);
                    edges.entry(*c).or_default().push(value);
                }
                for (c, values) in edges {
                    let label = if values.len() > 6 {
                        format!(
                            "{} | ... ({} values)",
                            values
                                .iter()
                                .take(5)
                                .copied()
                                .collect::<Vec<_>>()
                                .join(" | "),
                            values.len()
                        )
                    } else {
                        values.join(" | ")
                    };
                    s.push_str(&format!("  n{i} -> n{c} [label={}];\n", quote(&label)));
                }
            }
        }
    }
    s.push_str("}\n");
    s
}

/// Runs `stpc graph`.
pub fn run(global: &Global, args: GraphArgs) -> Outcome {
    let mut map = SourceMap::new();
    let mut diagnostics = Diagnostics::new();
    let root = match output::read_source(&args.file, &mut map, &mut diagnostics) {
        Ok(Some(root)) => root,
        Ok(None) => {
            output::emit(global, &map, &diagnostics.sorted());
            return Outcome::Problems;
        }
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let program = stpc_compiler::check(&mut map, &[root], &mut read_file, &mut diagnostics);
    let dot = if diagnostics.has_errors() {
        None
    } else if let Some(name) = &args.lattice {
        match program.lattices.iter().find(|l| &l.name == name) {
            Some(l) => Some(lattice_dot(&program, l)),
            None => {
                let names: Vec<&str> = program.lattices.iter().map(|l| l.name.as_str()).collect();
                output::emit(global, &map, &diagnostics.sorted());
                output::fail(
                    global,
                    &format!(
                        "no lattice named `{name}`; the lattices are {}",
                        names.join(", ")
                    ),
                );
                return Outcome::Failure;
            }
        }
    } else {
        stpc_compiler::lower::select(
            &program,
            &[root],
            args.contract.as_deref(),
            &[],
            &mut diagnostics,
        )
        .and_then(|c| stpc_compiler::lower::lower(&program, &c, &mut diagnostics))
        .map(|t| diagram_dot(&t))
    };
    output::emit(global, &map, &diagnostics.sorted());
    match dot {
        Some(dot) if !diagnostics.has_errors() => {
            crate::out!("{dot}");
            Outcome::Success
        }
        _ => Outcome::Problems,
    }
}
