//! One constructor per `E03xx`/`E04xx`/`W0xxx` code, so each message lives in
//! one place.

use crate::diagnostics::{suggest, Code, Diagnostic};
use crate::source::Span;

/// `E0301`: the declared order has a cycle.
pub(crate) fn lattice_cycle(lattice: &str, cycle: &[String], span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0301,
        format!("lattice `{lattice}` has a cycle: {}", cycle.join(" < ")),
    )
    .primary(span, "the order of this lattice is cyclic")
    .note("a lattice's order must be acyclic: no label may be below itself")
    .help("remove one of the orderings on the cycle")
}

/// `E0302`: a pair with no unique least upper bound.
pub(crate) fn no_join(lattice: &str, a: &str, b: &str, why: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0302,
        format!("labels `{a}` and `{b}` of lattice `{lattice}` have no unique join"),
    )
    .primary(span, format!("`{a}` and `{b}` {why}"))
    .help(format!(
        "add a label above both `{a}` and `{b}` that is below every other upper bound"
    ))
}

/// `E0303`: a pair with no unique greatest lower bound.
pub(crate) fn no_meet(lattice: &str, a: &str, b: &str, why: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0303,
        format!("labels `{a}` and `{b}` of lattice `{lattice}` have no unique meet"),
    )
    .primary(span, format!("`{a}` and `{b}` {why}"))
    .help(format!(
        "add a label below both `{a}` and `{b}` that is above every other lower bound"
    ))
}

/// `E0304`: two lattices declared for the same role.
pub(crate) fn second_role_lattice(
    role: &str,
    name: &str,
    span: Span,
    first: &str,
    first_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0304,
        format!("lattice `{name}` is a second lattice `for {role}`"),
    )
    .primary(span, format!("`{first}` is already the `{role}` lattice"))
    .secondary(first_span, format!("`{first}` declared `for {role}` here"))
    .help(format!(
        "declare exactly one lattice `for {role}`; drop the role from the other"
    ))
}

/// `E0305`: labels of a role are used but no lattice has that role.
pub(crate) fn no_role_lattice(role: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0305, format!("no lattice is declared `for {role}`"))
        .primary(
            span,
            format!("this `{role}` label needs a lattice `for {role}`"),
        )
        .help("import the standard labels with `use std::labels;`")
}

/// `E0401`: a label of another lattice.
pub(crate) fn wrong_lattice(
    label: &str,
    found: &str,
    expected: &str,
    span: Span,
    decl: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0401,
        format!("label `{label}` belongs to lattice `{found}`, not `{expected}`"),
    )
    .primary(span, format!("expected a label of `{expected}`"))
    .secondary(decl, format!("`{label}` is a label of `{found}`"))
}

/// `E0402`: a label that is not in the lattice.
pub(crate) fn unknown_label<'a>(
    label: &str,
    lattice: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0402,
        format!("`{label}` is not a label of lattice `{lattice}`"),
    )
    .primary(span, format!("not in `{lattice}`"))
    .maybe_help(suggest::did_you_mean(label, candidates))
}

/// `E0403`: a threshold or confidence outside [0, 1].
pub(crate) fn out_of_unit(what: &str, value: &str, span: Span) -> Diagnostic {
    out_of_unit_msg(&format!("{what} `{value}`"), span)
}

/// `E0403` with the whole subject written by the caller.
pub(crate) fn out_of_unit_msg(subject: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0403, format!("{subject} is outside [0, 1]"))
        .primary(span, "confidences are probabilities between 0 and 1")
        .help("use a value between 0 and 1, such as `0.7`")
}

/// `E0404`: a budget that is not a positive integer.
pub(crate) fn bad_budget(name: &str, value: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0404,
        format!("budget `{name}` must be a positive integer, found `{value}`"),
    )
    .primary(span, "a budget counts dispatches: 1, 2, 3, ...")
    .help("use a whole number of at least 1; to forbid every qualifying dispatch, write a `block` rule")
}

/// `E0405`: an empty allow-list.
pub(crate) fn empty_allow_list(contract: &str, what: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0405,
        format!("contract `{contract}` allows no {what}"),
    )
    .primary(span, format!("no `{what}` statement"))
    .help(format!("list the allowed {what}, such as `{what} a, b;`"))
}

/// `E0426`: `tools +=` or `destinations +=` with nothing inherited.
pub(crate) fn nothing_to_extend(contract: &str, what: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0426,
        format!("`{what} +=` in contract `{contract}`, which extends nothing"),
    )
    .primary(
        span,
        format!("there is no inherited list of {what} to add to"),
    )
    .help(format!(
        "write `{what} a, b;`, or extend a contract: `contract {contract} extends base {{ ... }}`"
    ))
}

/// `E0406`: a pipeline without a final default rule.
pub(crate) fn no_default(contract: &str, span: Span, last: Option<Span>) -> Diagnostic {
    let d = Diagnostic::new(
        Code::E0406,
        format!("the pipeline of contract `{contract}` has no final default rule"),
    );
    let d = match last {
        Some(last) => d
            .primary(
                last,
                "the last rule is guarded, so some events match no rule",
            )
            .secondary(span, "in this contract"),
        None => d.primary(span, "this contract has no `decide` rules"),
    };
    d.note("a pipeline is fail-closed only when every event reaches some rule")
        .help("end `decide` with an unguarded rule such as `block;` or `defer;`")
}

/// `E0407`: an observer that sees a channel that does not exist.
pub(crate) fn unknown_channel<'a>(
    observer: &str,
    channel: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0407,
        format!("observer `{observer}` sees unknown channel `{channel}`"),
    )
    .primary(span, "no such channel in `channels { ... }`")
    .maybe_help(suggest::did_you_mean(channel, candidates))
}

/// `E0408`: an unknown entity kind.
pub(crate) fn unknown_entity<'a>(
    kind: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(Code::E0408, format!("unknown entity kind `{kind}`"))
        .primary(span, "not an entity kind the labeler recognises")
        .note(
            "entity kinds: email, phone, person_name, date, time, money, gov_id, address, url, ip",
        )
        .maybe_help(suggest::did_you_mean(kind, candidates))
}

/// `E0409`: an unknown time granularity.
pub(crate) fn unknown_granularity<'a>(
    g: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(Code::E0409, format!("unknown time granularity `{g}`"))
        .primary(
            span,
            "`coarsen time to` takes hour, day, week, month or year",
        )
        .maybe_help(suggest::did_you_mean(g, candidates))
}

/// `E0410`: a pattern that is not a valid regular expression.
pub(crate) fn bad_regex(error: &str, span: Span) -> Diagnostic {
    let first = error.lines().last().unwrap_or(error).trim().to_string();
    Diagnostic::new(Code::E0410, "pattern is not a valid regular expression")
        .primary(span, first)
        .help("patterns use Rust `regex` syntax; write them as raw strings such as r\"\\d{3}\"")
}

/// `E0411`: a transform step that fits none of the transform's input types.
pub(crate) fn step_type(
    transform: &str,
    step: &str,
    needs: &str,
    inputs: &str,
    span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0411,
        format!("step `{step}` of transform `{transform}` does not apply to {inputs}"),
    )
    .primary(span, format!("this step needs a {needs} input"))
    .help(format!(
        "add `{needs}` to the transform's input types, or remove the step"
    ))
}

/// `E0412`: a rewrite whose transforms fit no field they could rewrite.
pub(crate) fn rewrite_type(tool: &str, field: &str, ty: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0412,
        format!("no transform of this rewrite applies to field `{tool}.{field}` of type `{ty}`"),
    )
    .primary(span, "this rewrite cannot lower the field's label")
    .help(format!(
        "add a transform that takes `{ty}` to the `using` list"
    ))
}

/// `W0011`: a rewrite that no cut and no scope point at any field.
pub(crate) fn rewrite_changes_nothing(rule: Option<&str>, span: Span) -> Diagnostic {
    let message = match rule {
        Some(rule) => format!("rewrite `{rule}` can never change a field"),
        None => "this rewrite can never change a field".to_owned(),
    };
    Diagnostic::new(Code::W0011, message)
    .primary(
        span,
        "no argument cut covers the modes this rule fires in, and it names no scope",
    )
    .help("name what it scrubs: `rewrite args >= personal using ...`, or declare the cut it serves")
}

/// `E0413`: a transform whose output label is not strictly below the cut.
pub(crate) fn a3_transform(
    transform: &str,
    output: &str,
    cut: &str,
    span: Span,
    decl: Span,
    cut_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0413,
        format!("transform `{transform}` produces `{output}`, which is not strictly below the cut `{cut}`"),
    )
    .primary(span, format!("rewriting with `{transform}` would still leak `{output}`"))
    .secondary(decl, format!("`{transform}` declares output `{output}`"))
    .secondary(cut_span, format!("the contract forbids `{cut}` and above here"))
    .note("action preservation (A3): a rewrite's output must carry a label strictly below the forbidden cut")
    .help(format!("use a transform whose output is below `{cut}`, or lower `{transform}`'s output label"))
}

/// `E0414`: a substitute observed by an external observer.
pub(crate) fn a3_substitute(
    substitute: &str,
    observer: &str,
    span: Span,
    decl: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0414,
        format!("substitute `{substitute}` is observed by external observer `{observer}`"),
    )
    .primary(
        span,
        format!("shadowing with `{substitute}` reaches `{observer}`"),
    )
    .secondary(decl, format!("`{substitute}` is declared here"))
    .note("action preservation (A3): a shadow substitute must emit nothing to an external observer")
    .help(format!(
        "observe `{substitute}` only by internal observers such as `runtime_log`"
    ))
}

/// `E0415`: a shadow with no substitute for a tool.
pub(crate) fn no_substitute(tool: &str, span: Span, detail: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E0415,
        format!("tool `{tool}` has no substitute for this shadow"),
    )
    .primary(span, detail.to_string())
    .help(format!("declare `substitute name for {tool} {{ observed by runtime_log; }}`, or guard the rule with `substitute available`"))
}

/// `E0416`: an argument field that no relevant tool has.
pub(crate) fn unknown_field<'a>(
    field: &str,
    why: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(Code::E0416, format!("unknown argument field `{field}`"))
        .primary(span, why.to_string())
        .maybe_help(suggest::did_you_mean(field, candidates))
}

/// `E0417`: a comparison that does not fit its subject.
pub(crate) fn bad_comparison(what: &str, span: Span, help: &str) -> Diagnostic {
    Diagnostic::new(Code::E0417, format!("invalid comparison: {what}"))
        .primary(span, "this comparison")
        .help(help.to_string())
}

/// `E0418`: a statement or vocabulary given twice.
pub(crate) fn repeated(what: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(Code::E0418, format!("{what} is given more than once"))
        .primary(span, "given again here")
        .secondary(first, "first given here")
        .help("keep one of them")
}

/// `E0419`: a name where a number or parameter is expected.
pub(crate) fn unknown_param<'a>(
    name: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    Diagnostic::new(Code::E0419, format!("unknown parameter `{name}`"))
        .primary(span, "not a parameter of this contract")
        .maybe_help(suggest::did_you_mean(name, candidates).or_else(|| {
            Some(format!(
                "declare it, such as `contract c({name} = 0.7) {{ ... }}`"
            ))
        }))
}

/// `E0420`: `budget exhausted` in a contract without budgets.
pub(crate) fn no_budgets(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0420,
        "`budget exhausted` in a contract with no budget",
    )
    .primary(span, "there is no budget to exhaust")
    .help("declare one, such as `budget b 5 per task counting args >= sensitive;`")
}

/// `E0421`: a tool and its substitute disagree.
pub(crate) fn substitute_mismatch(
    tool: &str,
    substitute: &str,
    other: &str,
    span: Span,
    decl: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0421,
        format!("substitute `{substitute}` stands in for `{other}`, not `{tool}`"),
    )
    .primary(span, format!("`{tool}` names a substitute of another tool"))
    .secondary(decl, format!("`{substitute}` is declared `for {other}`"))
    .help(format!("declare a substitute `for {tool}`"))
}

/// `E0422`: a labeler rule that does not fit what the labeler labels.
pub(crate) fn labeler_rule(labeler: &str, rule: &str, subject: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0422,
        format!("`{rule}` rules cannot label the {subject} in labeler `{labeler}`"),
    )
    .primary(span, format!("`{rule}` rule in a `for {subject}` labeler"))
    .help("entity rules label arguments; host, url and collection rules label destinations")
}

/// `E0423`: a test's value or clause that does not fit.
pub(crate) fn bad_test(what: &str, span: Span, help: &str) -> Diagnostic {
    Diagnostic::new(Code::E0423, format!("invalid test: {what}"))
        .primary(span, what.to_string())
        .help(help.to_string())
}

/// `W0001`: a declaration nothing uses.
pub(crate) fn unused(kind: &str, name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::W0001, format!("{kind} `{name}` is never used"))
        .primary(
            span,
            format!("`{name}` is declared but nothing refers to it"),
        )
        .help(format!("remove `{name}`, or use it"))
}

/// `W0006`: `<=` in a lattice chain.
pub(crate) fn chain_leq(span: Span) -> Diagnostic {
    Diagnostic::new(Code::W0006, "`<=` in a lattice chain means `<`")
        .primary(span, "a chain lists labels from lowest to highest")
        .help("write `<` (`stpc fmt` does)")
        .fix(span, " < ")
}

/// `W0007`: `mode == m` (write `m`) or `mode != m` (write `not m`).
pub(crate) fn mode_comparison(span: Span, mode: &str, negated: bool) -> Diagnostic {
    let short = if negated {
        format!("not {mode}")
    } else {
        mode.to_owned()
    };
    Diagnostic::new(Code::W0007, format!("this mode test is spelled `{short}`"))
        .primary(span, "a comparison where the mode alone says it")
        .help(format!("write `{short}` (`stpc fmt` does)"))
        .fix(span, short)
}

/// `W0008`: `mode m` in a test event.
pub(crate) fn test_mode_keyword(span: Span, mode: &str) -> Diagnostic {
    Diagnostic::new(
        Code::W0008,
        format!("`mode {mode}` is spelled `{mode}` in a test"),
    )
    .primary(span, "the mode alone names it")
    .help(format!("write `{mode}` (`stpc fmt` does)"))
    .fix(span, mode.to_owned())
}

/// `W0009`: a contract that names no labelers while the program has some.
pub(crate) fn unnamed_labelers(
    contract: &str,
    names: &[String],
    span: Span,
    insert_at: Option<Span>,
) -> Diagnostic {
    let list = names.join(", ");
    let d = Diagnostic::new(
        Code::W0009,
        format!("contract `{contract}` does not name its labelers"),
    )
    .primary(span, "its events go through every labeler in scope")
    .help(format!("name them: `labelers {list};`"));
    match insert_at {
        Some(at) => d.fix(at, format!("\n    labelers {list};")),
        None => d,
    }
}

/// `W0005`: an item imported by name that the file never uses.
pub(crate) fn unused_import(name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::W0005, format!("unused import `{name}`"))
        .primary(
            span,
            format!("`{name}` is imported but this file never refers to it"),
        )
        .help(format!("remove `{name}` from the `use`"))
}

/// `W0002`: a rule an earlier rule always pre-empts.
pub(crate) fn shadowed_rule(rule: &str, span: Span, earlier: Span, why: &str) -> Diagnostic {
    Diagnostic::new(Code::W0002, format!("rule {rule} can never fire"))
        .primary(span, "every event this rule matches is decided earlier")
        .secondary(earlier, why.to_string())
        .help("remove the rule, or move it before the rule that covers it")
}

/// `W0002`: a rule after the pipeline's default rule.
pub(crate) fn after_default(
    rule: &str,
    span: Span,
    default: &str,
    default_span: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::W0002,
        format!("rule {rule} is unreachable after the default rule {default}"),
    )
    .primary(span, "no event reaches this rule")
    .secondary(
        default_span,
        "this unguarded rule decides every event that reaches it",
    )
    .help("move the rule before the default, or remove it")
}

/// `W0003`: a threshold that no rule reads.
pub(crate) fn unread_threshold(mode: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::W0003, format!("threshold for `{mode}` can never trigger"))
        .primary(span, "no rule compares `confidence` with `threshold`")
        .help("add a rule such as `defer when speculative and confidence < threshold;`, or remove the threshold")
}

/// `W0004`: a budget that no rule reads.
pub(crate) fn unread_budget(name: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::W0004, format!("budget `{name}` is never read"))
        .primary(span, "no rule tests whether this budget is exhausted")
        .help(format!(
            "add a rule such as `defer when budget {name} exhausted;`, or remove the budget"
        ))
}

/// A declaration without a statement it must have (E0424).
pub(crate) fn incomplete(
    kind: &str,
    name: &str,
    missing: &str,
    help: &str,
    span: Span,
) -> Diagnostic {
    let article = if missing.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Diagnostic::new(Code::E0424, format!("{kind} `{name}` has no {missing}"))
        .primary(span, format!("declared without {article} {missing}"))
        .help(help.to_owned())
}
