//! One constructor per `E02xx` code, so each message lives in one place.

use crate::diagnostics::{suggest, Code, Diagnostic};
use crate::source::Span;

/// `E0201`: a name that nothing in scope declares.
pub(crate) fn unknown_name<'a>(
    what: &str,
    name: &str,
    span: Span,
    candidates: impl IntoIterator<Item = &'a str>,
    in_std: Option<&str>,
) -> Diagnostic {
    let d = Diagnostic::new(Code::E0201, format!("unknown {what} `{name}`"))
        .primary(span, format!("no {what} called `{name}` is in scope"));
    match in_std {
        Some(module) => d
            .note(format!("`{module}` declares a {what} `{name}`"))
            .help(format!(
                "did you mean to import it from std? add `use {module}::{name};`"
            )),
        None => d.maybe_help(suggest::did_you_mean(name, candidates)),
    }
}

/// `E0202`: a name declared twice in one scope.
pub(crate) fn duplicate(what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::new(Code::E0202, format!("`{name}` is declared more than once"))
        .primary(span, format!("second {what} `{name}`"))
        .secondary(first, "first declared here")
        .help(format!(
            "rename or remove one of the two declarations of `{name}`"
        ))
}

/// `E0203`: a name of the wrong kind where another kind is expected.
pub(crate) fn wrong_kind(
    name: &str,
    expected: &str,
    found: &str,
    span: Span,
    decl: Span,
) -> Diagnostic {
    Diagnostic::new(
        Code::E0203,
        format!("expected a {expected}, found {found} `{name}`"),
    )
    .primary(span, format!("this is a {found}, not a {expected}"))
    .secondary(decl, format!("`{name}` is declared here as a {found}"))
}

/// `E0204`: a `use` whose module or item does not exist.
pub(crate) fn unresolved_import(path: &str, span: Span, help: Option<String>) -> Diagnostic {
    Diagnostic::new(Code::E0204, format!("unresolved import `{path}`"))
        .primary(span, "no module or item at this path")
        .maybe_help(help)
}

/// `E0205`: modules that import each other in a cycle.
pub(crate) fn import_cycle(cycle: &[String], span: Span) -> Diagnostic {
    Diagnostic::new(Code::E0205, format!("import cycle: {}", cycle.join(" -> ")))
        .primary(span, "this import closes the cycle")
        .help("move the shared declarations into a module that both can import")
}

/// `E0206`: a name that two whole-module imports both provide.
pub(crate) fn ambiguous(
    name: &str,
    span: Span,
    a: &str,
    b: &str,
    a_span: Span,
    b_span: Span,
) -> Diagnostic {
    Diagnostic::new(Code::E0206, format!("`{name}` is ambiguous"))
        .primary(span, format!("`{name}` could come from `{a}` or `{b}`"))
        .secondary(a_span, format!("imported from `{a}` here"))
        .secondary(b_span, format!("imported from `{b}` here"))
        .help(format!(
            "import `{name}` explicitly, such as `use {a}::{{{name}}};`"
        ))
}

/// `E0207`: a set that contains itself, directly or through other sets.
pub(crate) fn set_cycle(cycle: &[String], span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0207,
        format!("set `{}` contains itself: {}", cycle.first().map_or("", String::as_str), cycle.join(" -> ")),
    )
    .primary(span, "this set is reached again through its own members")
    .help("list the members the sets share in one set that both name, instead of each naming the other")
}

/// `E0209`: a contract that extends itself, directly or through others.
pub(crate) fn extends_cycle(cycle: &[String], span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0209,
        format!(
            "contract `{}` extends itself: {}",
            cycle.first().map_or("", String::as_str),
            cycle.join(" extends ")
        ),
    )
    .primary(span, "this `extends` closes the cycle")
    .help(
        "a contract can extend a contract that extends others, but never one of its own extensions",
    )
}

/// `E0208`: a set with both tools and destinations among its members.
pub(crate) fn set_mixed(name: &str, span: Span, tool: Span, destination: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E0208,
        format!("set `{name}` holds both tools and destinations"),
    )
    .primary(span, "a set lists tools or destinations, not both")
    .secondary(tool, "a tool")
    .secondary(destination, "a destination")
    .help("split it into a set of tools and a set of destinations")
}
