//! A miette adapter for programs that report through miette (feature
//! `miette`).
//!
//! The CLI renders with codespan-reporting, which labels several files per
//! diagnostic; miette has one source per diagnostic, so labels in other files
//! become `related` diagnostics here.

use super::{Diagnostic, LabelStyle, Severity};
use crate::source::SourceMap;

/// A diagnostic paired with its sources, implementing [`miette::Diagnostic`].
///
/// Labels in the primary label's file become miette labels; labels in other
/// files become `related` diagnostics, because miette has one source per
/// diagnostic.
#[derive(Debug)]
pub struct MietteDiagnostic {
    message: String,
    code: String,
    help: Option<String>,
    severity: miette::Severity,
    source: Option<miette::NamedSource<String>>,
    labels: Vec<miette::LabeledSpan>,
    related: Vec<MietteDiagnostic>,
}

impl MietteDiagnostic {
    /// Adapts a diagnostic for miette reporting.
    pub fn new(d: &Diagnostic, map: &SourceMap) -> MietteDiagnostic {
        let file = d.primary_span().map(|s| s.file);
        let mut labels = Vec::new();
        let mut related = Vec::new();
        for l in &d.labels {
            let span = miette::SourceSpan::from(l.span.range());
            let text = (!l.message.is_empty()).then(|| l.message.clone());
            if Some(l.span.file) == file {
                labels.push(match l.style {
                    LabelStyle::Primary => miette::LabeledSpan::new_primary_with_span(text, span),
                    LabelStyle::Secondary => miette::LabeledSpan::new_with_span(text, span),
                });
            } else if let Some(other) = map.get(l.span.file) {
                related.push(MietteDiagnostic {
                    message: l.message.clone(),
                    code: d.code.as_str().to_string(),
                    help: None,
                    severity: miette::Severity::Advice,
                    source: Some(miette::NamedSource::new(
                        other.name(),
                        other.text().to_string(),
                    )),
                    labels: vec![miette::LabeledSpan::new_with_span(None, span)],
                    related: Vec::new(),
                });
            }
        }
        let mut message = d.message.clone();
        for note in &d.notes {
            message.push_str("; ");
            message.push_str(note);
        }
        MietteDiagnostic {
            message,
            code: d.code.as_str().to_string(),
            help: d.help.clone(),
            severity: match d.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
            },
            source: file
                .and_then(|f| map.get(f))
                .map(|f| miette::NamedSource::new(f.name(), f.text().to_string())),
            labels,
            related,
        }
    }
}

impl std::fmt::Display for MietteDiagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MietteDiagnostic {}

impl miette::Diagnostic for MietteDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.related.iter().map(|r| r as &dyn miette::Diagnostic),
        ))
    }
}
