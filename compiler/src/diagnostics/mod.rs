//! Diagnostics: plain data, collected in a sink, rendered at the edge.
//!
//! A [`Diagnostic`] is a code, a severity, a one-line message, labels (the
//! first primary label is where the problem is; secondary labels may point
//! into other files, such as an imported `std` module), notes and one help
//! line. Stages build diagnostics through one constructor per code in their
//! own `errors.rs`, push them into [`Diagnostics`] and keep going, so one run
//! reports every independent problem.
//!
//! Rendering lives in [`render`]: rustc-style text through
//! codespan-reporting, our own documented JSON, and a miette adapter for
//! library users. codespan-reporting is the renderer because our labels span
//! several files, which miette's single-source model does not support.
//! CI formats live beside it: [`sarif`] (SARIF 2.1.0 for code scanning) and
//! [`github`] (workflow-command annotations).

mod code;
pub mod github;
#[cfg(feature = "miette")]
pub mod miette;
pub mod render;
pub mod sarif;
pub mod suggest;

pub use code::Code;

use crate::source::Span;
use serde::Serialize;

/// Most diagnostics [`Diagnostics::sorted`] reports per file.
pub const MAX_PER_FILE: usize = 100;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Stops compilation.
    Error,
    /// Reported; an error under `--deny warnings`.
    Warning,
}

/// Whether a label marks the problem itself or related context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LabelStyle {
    /// Where the problem is.
    Primary,
    /// Context, possibly in another file.
    Secondary,
}

/// A span with a short message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// Primary or secondary.
    pub style: LabelStyle,
    /// Where.
    pub span: Span,
    /// What to say there (may be empty).
    pub message: String,
}

/// A machine-applicable repair: replace the text of `span` with
/// `replacement`. Editors offer it as a code action; `stpc fmt` applies the
/// ones that only modernise a spelling.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// The text to replace (empty to insert).
    pub span: Span,
    /// What to put there.
    pub replacement: String,
}

/// One problem found in the user's contracts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// One line, lowercase, no final period; user input in backticks.
    pub message: String,
    /// The first primary label is the diagnostic's location.
    pub labels: Vec<Label>,
    /// Facts, such as a counterexample event.
    pub notes: Vec<String>,
    /// One imperative fix.
    pub help: Option<String>,
    /// Edits that carry out the help, when it is mechanical.
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity and no labels.
    pub fn new(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
            fixes: Vec::new(),
        }
    }

    /// Adds a machine-applicable repair.
    #[must_use]
    pub fn fix(mut self, span: Span, replacement: impl Into<String>) -> Diagnostic {
        self.fixes.push(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }

    /// Adds a primary label.
    #[must_use]
    pub fn primary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            style: LabelStyle::Primary,
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a secondary label.
    #[must_use]
    pub fn secondary(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            style: LabelStyle::Secondary,
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    #[must_use]
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    /// Sets the help line.
    #[must_use]
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line when there is one.
    #[must_use]
    pub fn maybe_help(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// The primary location, if any.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels
            .iter()
            .find(|l| l.style == LabelStyle::Primary)
            .or_else(|| self.labels.first())
            .map(|l| l.span)
    }

    /// An internal compiler error: a state stpc believed impossible.
    pub fn internal(span: Span, what: impl Into<String>) -> Diagnostic {
        Diagnostic::new(
            Code::E0900,
            format!("internal compiler error: {}", what.into()),
        )
        .primary(span, "while compiling this")
        .help("this is a bug in stpc; please report it with the input that caused it")
    }
}

/// The sink every stage pushes into.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty sink.
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// Records a diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.items.push(diagnostic);
    }

    /// Records many.
    pub fn extend(&mut self, diagnostics: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(diagnostics);
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Turns every warning into an error (`--deny warnings`).
    pub fn deny_warnings(&mut self) {
        for d in &mut self.items {
            d.severity = Severity::Error;
        }
    }

    /// Takes every recorded diagnostic out, in insertion order.
    pub fn take(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.items)
    }

    /// The recorded diagnostics in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// Deduplicated and in a deterministic order: by file, start, code,
    /// message; at most [`MAX_PER_FILE`] per file, the last one kept saying
    /// how many more there were.
    ///
    /// A capped report stays readable, and every renderer (each quotes its
    /// diagnostic's line) stays linear on hostile input: a 2 KB line of
    /// `]` is 2,000 errors.
    pub fn sorted(&self) -> Vec<Diagnostic> {
        let items = self.sorted_all();
        let mut out: Vec<Diagnostic> = Vec::with_capacity(items.len().min(MAX_PER_FILE * 2));
        let mut run: (Option<crate::source::FileId>, usize) = (None, 0);
        let mut hidden = 0_usize;
        let flush = |out: &mut Vec<Diagnostic>, hidden: &mut usize| {
            if *hidden > 0 {
                if let Some(last) = out.last_mut() {
                    last.notes.push(format!(
                        "{hidden} more diagnostics in this file are not shown; fix these first"
                    ));
                }
                *hidden = 0;
            }
        };
        for d in items {
            let file = d.primary_span().map(|s| s.file);
            if file != run.0 {
                flush(&mut out, &mut hidden);
                run = (file, 0);
            }
            run.1 += 1;
            if run.1 > MAX_PER_FILE {
                hidden += 1;
            } else {
                out.push(d);
            }
        }
        flush(&mut out, &mut hidden);
        out
    }

    /// Every diagnostic, deduplicated and sorted, without the cap.
    pub fn sorted_all(&self) -> Vec<Diagnostic> {
        let mut items = self.items.clone();
        items.sort_by(|a, b| {
            let key = |d: &Diagnostic| {
                let s = d.primary_span().unwrap_or_default();
                (s.file, s.start, s.end)
            };
            key(a)
                .cmp(&key(b))
                .then(a.code.cmp(&b.code))
                .then(a.message.cmp(&b.message))
        });
        items.dedup();
        items
    }

    /// The codes recorded, sorted (a multiset).
    pub fn codes(&self) -> Vec<Code> {
        let mut codes: Vec<Code> = self.items.iter().map(|d| d.code).collect();
        codes.sort();
        codes
    }

    /// Consumes the sink.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }
}
