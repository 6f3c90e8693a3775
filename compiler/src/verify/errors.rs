//! Constructors for the diagnostics verification reports (`E06xx`, `W060x`).

use crate::diagnostics::{Code, Diagnostic};
use crate::source::Span;
use stpc_runtime::table::Subject;

/// `E0601`: a forbidden label reaches an observer through a dispatch.
pub(crate) struct Leak<'a> {
    pub(crate) rule: &'a str,
    pub(crate) action: &'a str,
    pub(crate) subject: &'a str,
    pub(crate) label: &'a str,
    pub(crate) cut: &'a str,
    pub(crate) observers: &'a [String],
    pub(crate) rewritten: bool,
    /// The modes the cut leaves out (`committed`), empty for every mode.
    pub(crate) unless: &'a [String],
}

fn list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `E0601`.
pub(crate) fn leak(
    l: &Leak<'_>,
    rule_span: Span,
    cut_span: Option<Span>,
    example: &str,
) -> Diagnostic {
    let after = if l.rewritten { " after rewriting" } else { "" };
    let scope = if l.unless.is_empty() {
        String::new()
    } else {
        format!(" unless {}", l.unless.join(", "))
    };
    let destination = l.subject == "destination";
    let mut d = Diagnostic::new(
        Code::E0601,
        format!(
            "rule `{}` lets {} labelled `{}` reach {}{after}, which the cut `{} >= {}{scope}` forbids",
            l.rule,
            l.subject,
            l.label,
            list(l.observers),
            l.subject,
            l.cut
        ),
    )
    .primary(
        rule_span,
        format!("this `{}` reaches the observer", l.action),
    );
    if let Some(s) = cut_span {
        d = d.secondary(s, "the forbidden cut");
    }
    d = d.note(format!("counterexample: {example}"));
    d = d.note(if destination {
        format!(
            "observer {} sees the destination, labelled `{}`",
            list(l.observers),
            l.label
        )
    } else {
        format!(
            "observer {} receives the `{}` field",
            list(l.observers),
            l.label
        )
    });
    let guard = if l.unless.is_empty() {
        String::new()
    } else {
        format!(" and not {}", l.unless.join(" and not "))
    };
    if l.rewritten {
        d = d.note("a rewrite leaves a field at or above the cut when a transform's declared output is not below it, or when fields below the cut join to it");
        d.help("declare the transform's output strictly below the cut, or `block` such events")
    } else if destination {
        if l.action == "rewrite" {
            d = d.note("a rewrite changes the arguments, never the destination");
        }
        d.help(format!(
            "put a rule that defers, shadows or blocks `destination >= {}{guard}` before `{}`",
            l.cut, l.rule
        ))
    } else {
        d.help(format!(
            "put a rule that rewrites, defers or blocks `{} >= {}{guard}` before `{}`",
            l.subject, l.cut, l.rule
        ))
    }
}

/// `E0601`: audit records give a sink a cut names what the cut forbids
/// it: the raw arguments of committed events, or the destination of events
/// that never left.
pub(crate) fn audit_leak(
    subject: Subject,
    cut: &str,
    sinks: &[String],
    span: Span,
    cut_span: Option<Span>,
    example: &str,
) -> Diagnostic {
    let (message, primary, why, help) = match subject {
        Subject::Args => (
            format!("the audit policy gives {} raw arguments labelled `{cut}`, which the cut `args >= {cut}` forbids", list(sinks)),
            "raw arguments are recorded here",
            "`with raw args` records the raw arguments of every committed event, whatever its decision",
            "audit `without raw args`, or remove the sink from the cut",
        ),
        Subject::Destination => (
            format!("the audit policy tells {} destinations labelled `{cut}`, which the cut `destination >= {cut}` forbids", list(sinks)),
            "every event's record names its destination",
            "the record of a deferred, shadowed or blocked call is written though the call never left",
            "audit `without destination unless dispatched`, or remove the sink from the cut",
        ),
    };
    let mut d = Diagnostic::new(Code::E0601, message).primary(span, primary);
    if let Some(s) = cut_span {
        d = d.secondary(s, "the forbidden cut");
    }
    d.note(format!("counterexample: {example}"))
        .note(why)
        .help(help)
}

/// `E0602`: a SHADOW substitute reaches an observer it must not.
pub(crate) fn shadow_leak(
    rule: &str,
    substitute: &str,
    observer: &str,
    why: &str,
    rule_span: Span,
    example: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0602,
        format!("rule `{rule}` shadows with `{substitute}`, which `{observer}` observes"),
    )
    .primary(rule_span, "this `shadow` emits to the observer")
    .note(why.to_owned())
    .note(format!("counterexample: {example}"))
    .help(format!(
        "observe `{substitute}` only by internal observers no cut names, or `block` such events"
    ))
}

/// `E0603`: an unknown or missing case reaches a disclosing action.
pub(crate) fn not_fail_closed(
    rule: &str,
    action: &str,
    what: &str,
    fixes: &str,
    rule_span: Span,
    example: &str,
) -> Diagnostic {
    Diagnostic::new(Code::E0603, format!("rule `{rule}` decides `{action}` for {what}"))
        .primary(rule_span, format!("this `{action}` is reached"))
        .note(format!("counterexample: {example}"))
        .note("a pipeline must be fail-closed: missing labels, unknown tools and unknown destinations end in `defer` or `block`")
        .help(format!("add {fixes} before `{rule}`"))
}

/// `E0604`: the table is not a total function of the domain.
pub(crate) fn not_total(contract: &str, what: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0604,
        format!("the decision table of `{contract}` is not total: {what}"),
    )
    .primary(span, "compiled from this contract")
    .help("this is a bug in stpc's lowering; please report it with the contract")
}

/// `W0601`: one side of a non-monotone pair: a rule, its action, a label.
pub(crate) struct Side<'a> {
    pub(crate) rule: &'a str,
    pub(crate) action: &'a str,
    pub(crate) label: &'a str,
    pub(crate) span: Span,
}

/// `W0601`: raising a label makes the decision more disclosing.
pub(crate) fn not_monotone(
    dim: &str,
    low: &Side<'_>,
    high: &Side<'_>,
    example: &str,
) -> Diagnostic {
    Diagnostic::new(
        Code::W0601,
        format!(
            "raising the {dim} from `{}` to `{}` turns `{}` into `{}`",
            low.label, high.label, low.action, high.action
        ),
    )
    .primary(
        high.span,
        format!("`{}` decides the higher label", high.rule),
    )
    .secondary(low.span, format!("`{}` decides the lower label", low.rule))
    .note(format!("at: {example}"))
    .note("actions ordered from most to least disclosing: allow > rewrite > shadow, defer > block")
    .help(format!(
        "check that `{}` is meant to treat `{}` more leniently than `{}` treats `{}`",
        high.rule, high.label, low.rule, low.label
    ))
}

/// `W0602`: a rule that decides no point, with the reason: the condition
/// that never holds, or the earlier rules (`by`, with their spans) that
/// decide every event it matches.
pub(crate) fn unreachable_rule(
    rule: &str,
    span: Span,
    why: Option<&crate::lower::Preemption>,
    by: &[(String, Span)],
) -> Diagnostic {
    let d = Diagnostic::new(Code::W0602, format!("rule `{rule}` decides no event"));
    match why {
        Some(crate::lower::Preemption::Never(conditions)) => {
            let d = d.primary(span, "this rule's condition holds for no event");
            let d = if conditions.is_empty() {
                d.note("each condition holds for some event, but never all of them together")
            } else {
                conditions
                    .iter()
                    .fold(d, |d, c| d.note(format!("never true: {c}")))
            };
            d.help("fix the condition, or remove the rule")
        }
        _ if !by.is_empty() => {
            let names: Vec<String> = by.iter().map(|(n, _)| n.clone()).collect();
            let d = d.primary(
                span,
                format!(
                    "every event this rule matches is decided by {} first",
                    list(&names)
                ),
            );
            by.iter()
                .fold(d, |d, (n, s)| {
                    let what = if by.len() == 1 {
                        format!("`{n}` holds whenever the later rule's condition does")
                    } else {
                        format!("`{n}` decides some of the later rule's events")
                    };
                    d.secondary(*s, what)
                })
                .help("remove the rule, or move it before the rules that pre-empt it")
        }
        _ => d
            .primary(
                span,
                "every event this rule matches is decided by an earlier rule",
            )
            .help("remove the rule, or move it before the rules that pre-empt it"),
    }
}
