//! GitHub Actions workflow commands: one `::error` or `::warning` line per
//! diagnostic, which the runner turns into an annotation on the file.
//!
//! ```text
//! ::error file=a.stpc,line=2,col=11,endLine=2,endColumn=12,title=E0102::expected `;`%0Ahelp: add `;`
//! ```
//!
//! Escaping follows the runner's rules (`actions/toolkit`, `command.ts`):
//! in the message, `%`, `\r` and `\n` become `%25`, `%0D` and `%0A`; in
//! property values, `:` and `,` are escaped as well (`%3A`, `%2C`), because
//! they separate properties. Secondary labels have no place in an
//! annotation, so they become `note:` lines of the message.

use super::{Diagnostic, LabelStyle, Severity};
use crate::source::SourceMap;

/// Escapes a message (the part after `::`).
pub fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value (`file=…`, `title=…`).
pub fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// One workflow command line per diagnostic, each ending in a newline.
pub fn lines(map: &SourceMap, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&line(map, d));
        out.push('\n');
    }
    out
}

/// An annotation for a failure that has no source location.
pub fn failure(message: &str) -> String {
    format!("::error title=stpc::{}\n", escape_data(message))
}

/// The workflow command for one diagnostic (no final newline).
pub fn line(map: &SourceMap, d: &Diagnostic) -> String {
    let command = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut props = Vec::new();
    if let Some(span) = d.primary_span() {
        if let Some(file) = map.get(span.file) {
            let (line, col) = file.line_col(span.start as usize);
            let (end_line, end_col) = file.line_col(span.end as usize);
            props.push(format!("file={}", escape_property(file.name())));
            props.push(format!("line={line}"));
            props.push(format!("col={col}"));
            props.push(format!("endLine={end_line}"));
            props.push(format!("endColumn={end_col}"));
        }
    }
    props.push(format!("title={}", escape_property(d.code.as_str())));
    let mut message = d.message.clone();
    let primary = d.primary_span();
    for label in &d.labels {
        let is_primary = label.style == LabelStyle::Primary && Some(label.span) == primary;
        if is_primary || label.message.is_empty() {
            continue;
        }
        if let Some(file) = map.get(label.span.file) {
            let (l, c) = file.line_col(label.span.start as usize);
            message.push_str(&format!(
                "\nnote: {} ({}:{l}:{c})",
                label.message,
                file.name()
            ));
        }
    }
    for note in &d.notes {
        message.push_str("\nnote: ");
        message.push_str(note);
    }
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    format!("::{command} {}::{}", props.join(","), escape_data(&message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;
    use crate::source::Span;

    #[test]
    fn data_escapes_percent_and_newlines_only() {
        assert_eq!(escape_data("50% a:b, c\r\nd"), "50%25 a:b, c%0D%0Ad");
    }

    #[test]
    fn properties_also_escape_colon_and_comma() {
        assert_eq!(escape_property("dir:a,b%\n.stpc"), "dir%3Aa%2Cb%25%0A.stpc");
    }

    #[test]
    fn percent_is_escaped_first_so_escapes_are_not_doubled() {
        assert_eq!(escape_data("%0A"), "%250A");
        assert_eq!(escape_property("%3A"), "%253A");
    }

    #[test]
    fn a_diagnostic_becomes_one_annotation() {
        let mut map = SourceMap::new();
        let id = map.add("d,1.stpc", "contract c {\n    tools x\n}\n");
        let d = Diagnostic::new(Code::E0102, "expected `;`: 100%")
            .primary(Span::new(id, 23, 24), "here")
            .secondary(Span::new(id, 0, 8), "in this contract")
            .help("add `;`");
        assert_eq!(
            line(&map, &d),
            "::error file=d%2C1.stpc,line=2,col=11,endLine=2,endColumn=12,title=E0102::\
             expected `;`: 100%25%0Anote: in this contract (d,1.stpc:1:1)%0Ahelp: add `;`"
        );
    }

    #[test]
    fn a_failure_has_no_location() {
        assert_eq!(
            failure("cannot read `a`\n"),
            "::error title=stpc::cannot read `a`%0A\n"
        );
    }
}
