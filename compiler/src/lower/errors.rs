//! Constructors for the diagnostics lowering reports (`E05xx`, `W0603`).

use crate::diagnostics::{suggest, Code, Diagnostic};
use crate::hir::Subject;
use crate::source::Span;

fn subject_word(s: Subject) -> &'static str {
    match s {
        Subject::Args => "args",
        Subject::Destination => "destination",
    }
}

/// `E0501`: the domain does not fit the table format.
pub(crate) fn domain_too_large(contract: &str, what: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0501,
        format!("contract `{contract}` does not fit a decision table: {what}"),
    )
    .primary(span, "lowered here")
    .help("split the contract, or read fewer individual fields with `args.f`")
}

/// `E0502`: a labeler without a fallback.
pub(crate) fn no_fallback(labeler: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0502,
        format!("labeler `{labeler}` has no fallback label"),
    )
    .primary(span, "a value no rule matches would have no label")
    .note("a missing label must never become the bottom label (`public`)")
    .help("end the labeler with `fallback <label>;`, such as `fallback sensitive;`")
}

/// `E0502`: no labeler for some subjects at all.
pub(crate) fn no_labeler(subjects: &[Subject], span: Span) -> Diagnostic {
    let words: Vec<String> = subjects
        .iter()
        .map(|s| format!("`for {}`", subject_word(*s)))
        .collect();
    Diagnostic::new(Code::E0502, format!("no labeler {} is in scope", words.join(" or ")))
        .primary(span, "this contract needs labels for its runtime")
        .help("import the standard labelers with `use std::labelers;`, or declare a labeler with a `fallback`")
}

/// `E0503`: the program lacks something every table needs.
pub(crate) fn missing_vocabulary(contract: &str, what: &str, span: Span, help: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E0503,
        format!("contract `{contract}` cannot be lowered: {what}"),
    )
    .primary(span, "lowered here")
    .help(help.to_owned())
}

/// `E0504`: `--contract NAME` names no contract.
pub(crate) fn unknown_contract(
    name: &str,
    candidates: Vec<&str>,
    span: Option<Span>,
) -> Diagnostic {
    let help = suggest::did_you_mean(name, candidates.iter().copied()).or_else(|| {
        (!candidates.is_empty()).then(|| format!("the contracts are {}", list(&candidates)))
    });
    let d = Diagnostic::new(Code::E0504, format!("no contract named `{name}`")).maybe_help(help);
    match span {
        Some(s) => d.primary(s, "in this file"),
        None => d,
    }
}

/// `E0504`: several contracts and no `--contract`.
pub(crate) fn ambiguous_contract(candidates: Vec<&str>, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0504,
        "this file declares several contracts".to_owned(),
    )
    .primary(span, "one of them")
    .help(format!(
        "choose one with `--contract NAME`: {}",
        list(&candidates)
    ))
}

/// `E0504`: no contract at all.
pub(crate) fn no_contract(span: Option<Span>) -> Diagnostic {
    let d = Diagnostic::new(Code::E0504, "no contract to compile".to_owned())
        .help("declare a `contract NAME { ... }` in the file given to `stpc compile`");
    match span {
        Some(s) => d.primary(s, "this file declares none"),
        None => d,
    }
}

/// `E0505`: a `--param` that is not a parameter or is out of range.
pub(crate) fn bad_param(
    name: &str,
    contract: &str,
    candidates: Vec<&str>,
    span: Span,
) -> Diagnostic {
    let help = suggest::did_you_mean(name, candidates.iter().copied())
        .unwrap_or_else(|| "a parameter value must be in [0, 1]".to_owned());
    Diagnostic::new(
        Code::E0505,
        format!("`{name}` is not a parameter of `{contract}` or its value is outside [0, 1]"),
    )
    .primary(span, "the contract")
    .help(help)
}

/// `W0603`: a destination with several addresses keeps only the first.
pub(crate) fn extra_addresses(dest: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::W0603,
        format!("destination `{dest}` has several addresses; the table keeps the first"),
    )
    .primary(span, "declared here")
    .note("calls to the other addresses are `<unknown>` to the runtime, which fails closed on them")
    .help("declare one destination per address")
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
