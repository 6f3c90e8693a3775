//! Structural validation of a table.
//!
//! After the digest says the bytes are what the compiler wrote, validation
//! says the content is something a runtime can evaluate without ever
//! indexing out of range: every index is in range, the lattices are lattices
//! (idempotent, commutative, associative joins with a bottom), the dimensions
//! come in the fixed order with the value lists the rest of the table implies,
//! every branch has exactly one child per value of its dimension, and the
//! diagram is *ordered* (a child tests a strictly later dimension or is a
//! leaf), which makes it acyclic with paths no longer than the dimension count.
//!
//! Evaluation still fails closed on its own (see [`super::Table::evaluate`]);
//! validation exists so a bad table is refused at load time with a message
//! that says what is wrong, rather than blocking every event later.

use std::collections::HashSet;

use super::{
    domain, Cell, Condition, DimensionKind, FieldType, LabelRule, Lattice, Node, Step, Subject,
    Table, MAX_DIMS, MISSING, UNKNOWN,
};
use crate::error::LoadError;

/// The most labels a lattice may have (keeps the associativity check cheap).
pub const MAX_LABELS: usize = 64;

/// Check every structural rule of the format.
///
/// # Errors
///
/// The first rule found broken.
pub fn validate(t: &Table) -> Result<(), LoadError> {
    lattice(&t.lattices.args, "lattices.args")?;
    lattice(&t.lattices.destination, "lattices.destination")?;
    for (k, v) in &t.params {
        if !v.is_finite() {
            return Err(LoadError::invalid(format!("params.{k}"), "must be finite"));
        }
    }
    dimensions(t)?;
    diagram(t)?;
    for (i, c) in t.cells.iter().enumerate() {
        cell(t, i, c)?;
    }
    vocabulary(t)?;
    policy(t)?;
    rewriting(t)?;
    labelers(t)?;
    index_ref(t)
}

/// A named labeler index names it by a well-formed hash.
fn index_ref(t: &Table) -> Result<(), LoadError> {
    let Some(ix) = &t.index else { return Ok(()) };
    let hex = |c: u8| c.is_ascii_digit() || (b'a'..=b'f').contains(&c);
    if ix.sha256.len() != 64 || !ix.sha256.bytes().all(hex) {
        return Err(LoadError::invalid(
            "index.sha256",
            "must be 64 lowercase hex digits",
        ));
    }
    Ok(())
}

/// Tools and destinations refer to what exists.
fn vocabulary(t: &Table) -> Result<(), LoadError> {
    let n_dest = t.lattices.destination.labels.len();
    let n_obs = t.observers.len();
    unique(t.tools.iter().map(|x| x.name.as_str()), "tools")?;
    for (i, tool) in t.tools.iter().enumerate() {
        unique(
            tool.args.iter().map(|a| a.name.as_str()),
            &format!("tools[{i}].args"),
        )?;
        for (j, a) in tool.args.iter().enumerate() {
            field_type(&a.ty, &format!("tools[{i}].args[{j}]"))?;
        }
        for (j, d) in tool.destinations.iter().enumerate() {
            index(
                format!("tools[{i}].destinations[{j}]"),
                *d,
                t.destinations.len(),
            )?;
        }
        if let Some(s) = tool.substitute {
            index(format!("tools[{i}].substitute"), s, t.substitutes.len())?;
        }
    }
    unique(
        t.destinations.iter().map(|x| x.name.as_str()),
        "destinations",
    )?;
    for (i, d) in t.destinations.iter().enumerate() {
        index(format!("destinations[{i}].label"), d.label, n_dest)?;
        for (j, o) in d.observers.iter().enumerate() {
            index(format!("destinations[{i}].observers[{j}]"), *o, n_obs)?;
        }
    }
    Ok(())
}

/// Observers, cuts, thresholds, budgets and the audit policy.
fn policy(t: &Table) -> Result<(), LoadError> {
    let n_args = t.lattices.args.labels.len();
    let n_dest = t.lattices.destination.labels.len();
    let n_obs = t.observers.len();
    unique(t.observers.iter().map(|x| x.name.as_str()), "observers")?;
    for (i, f) in t.forbid.iter().enumerate() {
        let n = match f.subject {
            Subject::Args => n_args,
            Subject::Destination => n_dest,
        };
        index(format!("forbid[{i}].label"), f.label, n)?;
        for (j, o) in f.observers.iter().enumerate() {
            index(format!("forbid[{i}].observers[{j}]"), *o, n_obs)?;
        }
    }
    let n_modes = t.dimensions.get(domain::MODE).map_or(0, |d| d.values.len());
    for (i, f) in t.forbid.iter().enumerate() {
        for (j, m) in f.unless.iter().enumerate() {
            index(format!("forbid[{i}].unless[{j}]"), *m, n_modes)?;
        }
    }
    for (i, th) in t.thresholds.iter().enumerate() {
        index(format!("thresholds[{i}].mode"), th.mode, n_modes)?;
        if !(0.0..=1.0).contains(&th.value) {
            return Err(LoadError::invalid(
                format!("thresholds[{i}].value"),
                "must be in [0, 1]",
            ));
        }
    }
    for (i, b) in t.budgets.iter().enumerate() {
        if b.limit == 0 {
            return Err(LoadError::invalid(
                format!("budgets[{i}].limit"),
                "must be at least 1",
            ));
        }
        let n = match b.subject {
            Subject::Args => n_args,
            Subject::Destination => n_dest,
        };
        index(format!("budgets[{i}].at_least"), b.at_least, n)?;
    }
    for (i, s) in t.audit.sinks.iter().enumerate() {
        index(format!("audit.sinks[{i}]"), *s, n_obs)?;
    }
    Ok(())
}

/// Substitutes, transforms and lexicons.
fn rewriting(t: &Table) -> Result<(), LoadError> {
    let n_args = t.lattices.args.labels.len();
    let n_obs = t.observers.len();
    unique(t.substitutes.iter().map(|x| x.name.as_str()), "substitutes")?;
    for (i, s) in t.substitutes.iter().enumerate() {
        index(format!("substitutes[{i}].tool"), s.tool, t.tools.len())?;
        for (j, o) in s.observers.iter().enumerate() {
            index(format!("substitutes[{i}].observers[{j}]"), *o, n_obs)?;
        }
    }
    for (i, tr) in t.transforms.iter().enumerate() {
        index(
            format!("transforms[{i}].output_label"),
            tr.output_label,
            n_args,
        )?;
        if tr.steps.is_empty() {
            return Err(LoadError::invalid(
                format!("transforms[{i}].steps"),
                "must not be empty",
            ));
        }
        for (j, ty) in tr.applies_to.iter().enumerate() {
            field_type(ty, &format!("transforms[{i}].applies_to[{j}]"))?;
        }
        for (j, st) in tr.steps.iter().enumerate() {
            if let Step::ReplaceLexicon { lexicon, .. } = st {
                index(
                    format!("transforms[{i}].steps[{j}].lexicon"),
                    *lexicon,
                    t.lexicons.len(),
                )?;
            }
        }
    }
    for (i, l) in t.lexicons.iter().enumerate() {
        if l.entries.iter().any(|e| e.phrase.trim().is_empty()) {
            return Err(LoadError::invalid(
                format!("lexicons[{i}].entries"),
                "a phrase is empty",
            ));
        }
    }
    Ok(())
}

/// The argument and destination labelers.
fn labelers(t: &Table) -> Result<(), LoadError> {
    let n_args = t.lattices.args.labels.len();
    let n_dest = t.lattices.destination.labels.len();
    labeler(
        t,
        &t.labelers.args.rules,
        t.labelers.args.fallback,
        n_args,
        "labelers.args",
    )?;
    labeler(
        t,
        &t.labelers.destination.rules,
        t.labelers.destination.fallback,
        n_dest,
        "labelers.destination",
    )
}

fn index(what: String, i: u32, len: usize) -> Result<(), LoadError> {
    if (i as usize) < len {
        Ok(())
    } else {
        Err(LoadError::IndexOutOfRange {
            what,
            index: u64::from(i),
            len,
        })
    }
}

fn unique<'a>(names: impl Iterator<Item = &'a str>, what: &str) -> Result<(), LoadError> {
    let mut seen = HashSet::new();
    for (i, n) in names.enumerate() {
        if n.is_empty() {
            return Err(LoadError::invalid(
                format!("{what}[{i}].name"),
                "must not be empty",
            ));
        }
        if !seen.insert(n) {
            return Err(LoadError::invalid(
                format!("{what}[{i}].name"),
                "is a duplicate",
            ));
        }
    }
    Ok(())
}

fn field_type(ty: &FieldType, what: &str) -> Result<(), LoadError> {
    match ty {
        FieldType::Enum { values } if values.is_empty() => {
            Err(LoadError::invalid(what, "an enum type has no values"))
        }
        FieldType::List { item } => field_type(item, what),
        _ => Ok(()),
    }
}

fn lattice(l: &Lattice, what: &str) -> Result<(), LoadError> {
    let n = l.labels.len();
    if n == 0 || n > MAX_LABELS {
        return Err(LoadError::invalid(
            format!("{what}.labels"),
            "must have 1 to 64 labels",
        ));
    }
    unique(
        l.labels.iter().map(String::as_str),
        &format!("{what}.labels"),
    )?;
    if l.join.len() != n || l.join.iter().any(|row| row.len() != n) {
        return Err(LoadError::invalid(
            format!("{what}.join"),
            "must be a square table with one row and column per label",
        ));
    }
    index(format!("{what}.bottom"), l.bottom, n)?;
    let ids = (0u32..).take(n);
    let j = |a: u32, b: u32| l.join(a, b);
    for a in ids.clone() {
        if j(a, a) != Some(a) || j(l.bottom, a) != Some(a) {
            return Err(LoadError::invalid(
                format!("{what}.join"),
                "join is not idempotent or bottom is not least",
            ));
        }
        for b in ids.clone() {
            let Some(ab) = j(a, b).filter(|ab| (*ab as usize) < n && j(b, a) == Some(*ab)) else {
                return Err(LoadError::invalid(
                    format!("{what}.join"),
                    "join is out of range or not commutative",
                ));
            };
            for c in ids.clone() {
                if j(ab, c) != j(b, c).and_then(|bc| j(a, bc)) {
                    return Err(LoadError::invalid(
                        format!("{what}.join"),
                        "join is not associative",
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Value names a label dimension must have: the lattice's labels, then `<missing>`.
fn label_values(l: &Lattice) -> Vec<String> {
    l.labels
        .iter()
        .cloned()
        .chain([MISSING.to_owned()])
        .collect()
}

fn dimensions(t: &Table) -> Result<(), LoadError> {
    let dims = &t.dimensions;
    if dims.len() < 6 || dims.len() > MAX_DIMS {
        return Err(LoadError::invalid(
            "dimensions",
            "must have 6 to 24 entries",
        ));
    }
    let mut budgets_seen = 0usize;
    let mut fields = HashSet::new();
    for (i, d) in dims.iter().enumerate() {
        let what = format!("dimensions[{i}]");
        let ok_kind = match (i, &d.kind) {
            (domain::TOOL, DimensionKind::Tool) => expect_values(&what, &d.values, t.tools.iter().map(|x| x.name.clone()).chain([UNKNOWN.to_owned()]).collect()),
            (domain::DESTINATION, DimensionKind::Destination) => expect_values(&what, &d.values, t.destinations.iter().map(|x| x.name.clone()).chain([UNKNOWN.to_owned()]).collect()),
            (domain::MODE, DimensionKind::Mode) => {
                unique(d.values.iter().map(String::as_str), &format!("{what}.values"))?;
                if !d.values.iter().any(|m| m == "committed") {
                    return Err(LoadError::invalid(what, "the mode dimension must contain `committed`"));
                }
                Ok(())
            }
            (domain::ARG_LABEL, DimensionKind::ArgLabel) => expect_values(&what, &d.values, label_values(&t.lattices.args)),
            (domain::DEST_LABEL, DimensionKind::DestLabel) => expect_values(&what, &d.values, label_values(&t.lattices.destination)),
            (domain::CONFIDENCE, DimensionKind::Confidence { cuts }) => {
                if cuts.iter().any(|c| !c.is_finite()) || cuts.windows(2).any(|w| matches!(w, [a, b] if a >= b)) {
                    return Err(LoadError::invalid(what, "confidence cuts must be finite and strictly increasing"));
                }
                if d.values.len() != cuts.len() + 1 {
                    return Err(LoadError::invalid(what, "a confidence dimension has one more value than cuts"));
                }
                Ok(())
            }
            (_, DimensionKind::Budget { budget }) if i >= domain::FIXED => {
                if *budget as usize != budgets_seen || !fields.is_empty() {
                    return Err(LoadError::invalid(what, "budget dimensions must follow confidence, one per budget in budget order"));
                }
                budgets_seen += 1;
                expect_values(&what, &d.values, domain::BUDGET_VALUES.map(str::to_owned).to_vec())
            }
            (_, DimensionKind::FieldLabel { field }) if i >= domain::FIXED => {
                if !fields.insert(field.as_str()) {
                    return Err(LoadError::invalid(what, "a field has two field_label dimensions"));
                }
                expect_values(&what, &d.values, label_values(&t.lattices.args))
            }
            _ => Err(LoadError::invalid(what, "dimensions must be tool, destination, mode, arg_label, dest_label, confidence, budgets, field labels in that order")),
        };
        ok_kind?;
    }
    if budgets_seen != t.budgets.len() {
        return Err(LoadError::invalid(
            "dimensions",
            "every budget needs exactly one budget dimension",
        ));
    }
    Ok(())
}

fn expect_values(what: &str, found: &[String], expected: Vec<String>) -> Result<(), LoadError> {
    if found == expected.as_slice() {
        Ok(())
    } else {
        Err(LoadError::invalid(
            format!("{what}.values"),
            "do not match the names this dimension implies",
        ))
    }
}

fn diagram(t: &Table) -> Result<(), LoadError> {
    let nodes = &t.diagram.nodes;
    index("diagram.root".to_owned(), t.diagram.root, nodes.len())?;
    for (i, (id, node)) in nodes
        .iter()
        .enumerate()
        .zip(0u32..)
        .map(|((i, n), id)| (i, (id, n)))
    {
        match node {
            Node::Leaf { cell } => index(format!("diagram.nodes[{i}].cell"), *cell, t.cells.len())?,
            Node::Branch { dim, children } => {
                let d = t.dimensions.get(usize::from(*dim)).ok_or_else(|| {
                    LoadError::IndexOutOfRange {
                        what: format!("diagram.nodes[{i}].dim"),
                        index: u64::from(*dim),
                        len: t.dimensions.len(),
                    }
                })?;
                if children.len() != d.values.len() {
                    return Err(LoadError::ChildCount {
                        node: id,
                        dim: *dim,
                        expected: d.values.len(),
                        found: children.len(),
                    });
                }
                for (j, c) in children.iter().enumerate() {
                    index(format!("diagram.nodes[{i}].children[{j}]"), *c, nodes.len())?;
                    if let Some(Node::Branch { dim: child_dim, .. }) = nodes.get(*c as usize) {
                        if child_dim <= dim {
                            return Err(LoadError::invalid(
                                format!("diagram.nodes[{i}].children[{j}]"),
                                "a child must test a later dimension (the diagram must be ordered and acyclic)",
                            ));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

fn cell(t: &Table, i: usize, c: &Cell) -> Result<(), LoadError> {
    use super::Action;
    for (j, tr) in c.transforms.iter().enumerate() {
        index(
            format!("cells[{i}].transforms[{j}]"),
            *tr,
            t.transforms.len(),
        )?;
    }
    if let Some(s) = c.substitute {
        index(format!("cells[{i}].substitute"), s, t.substitutes.len())?;
    }
    if let Some(l) = c.scope {
        index(format!("cells[{i}].scope"), l, t.lattices.args.labels.len())?;
    }
    if c.action != Action::Rewrite && (c.scope.is_some() || c.reissue) {
        return Err(LoadError::invalid(
            format!("cells[{i}]"),
            "only a rewrite cell has a scope or reissues on promotion",
        ));
    }
    match c.action {
        Action::Rewrite if c.transforms.is_empty() => Err(LoadError::invalid(
            format!("cells[{i}]"),
            "a rewrite cell needs at least one transform",
        )),
        Action::Allow | Action::Shadow | Action::Defer | Action::Block
            if !c.transforms.is_empty() =>
        {
            Err(LoadError::invalid(
                format!("cells[{i}]"),
                "only a rewrite cell has transforms",
            ))
        }
        Action::Allow | Action::Rewrite | Action::Defer | Action::Block
            if c.substitute.is_some() =>
        {
            Err(LoadError::invalid(
                format!("cells[{i}]"),
                "only a shadow cell has a substitute",
            ))
        }
        _ => Ok(()),
    }
}

fn labeler(
    t: &Table,
    rules: &[LabelRule],
    fallback: u32,
    n: usize,
    what: &str,
) -> Result<(), LoadError> {
    index(format!("{what}.fallback"), fallback, n)?;
    let lex = t.lexicons.len();
    for (i, r) in rules.iter().enumerate() {
        let w = format!("{what}.rules[{i}]");
        index(format!("{w}.label"), r.label, n)?;
        if r.when.is_empty() {
            return Err(LoadError::invalid(w, "a rule needs at least one condition"));
        }
        for (j, c) in r.when.iter().chain(&r.unless).enumerate() {
            match c {
                Condition::Lexicon { lexicons }
                | Condition::Terms { lexicons }
                | Condition::Parts { lexicons } => {
                    if lexicons.is_empty() {
                        return Err(LoadError::invalid(
                            format!("{w}.conditions[{j}].lexicons"),
                            "a condition names at least one lexicon",
                        ));
                    }
                    for (k, l) in lexicons.iter().enumerate() {
                        index(format!("{w}.conditions[{j}].lexicons[{k}]"), *l, lex)?;
                    }
                }
                Condition::Pattern { .. }
                | Condition::Entity { .. }
                | Condition::Address { .. } => {}
            }
        }
    }
    Ok(())
}
