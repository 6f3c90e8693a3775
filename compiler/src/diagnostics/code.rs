//! The registry of diagnostic codes.
//!
//! One list, consumed by a macro, defines every code with its severity and
//! title (rustc's `rustc_error_codes`). Codes are never renumbered or reused:
//! a retired code stays in the list and its explanation says so. Every code
//! has a long-form explanation in `explanations/<CODE>.md`, which
//! `stpc explain` prints and the book includes; a test enforces that every
//! code has one and a fixture.
//!
//! Ranges: `E01xx` syntax, `E02xx` names and imports, `E03xx` lattices,
//! `E04xx` contracts and typing, `E05xx` lowering, `E06xx` verification,
//! `E09xx` internal errors, `W0xxx` warnings.

use super::Severity;

macro_rules! codes {
    ($( $(#[doc = $doc:literal])* $name:ident = ($sev:ident, $title:literal), )*) => {
        /// A stable diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[doc = $doc])* $name, )*
        }

        impl Code {
            /// Every code, in registry order.
            pub const ALL: &'static [Code] = &[$(Code::$name,)*];

            /// The code as users write it, such as `E0101`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$name => stringify!($name),)* }
            }

            /// The default severity of diagnostics with this code.
            pub fn severity(self) -> Severity {
                match self { $(Code::$name => Severity::$sev,)* }
            }

            /// A one-line title.
            pub fn title(self) -> &'static str {
                match self { $(Code::$name => $title,)* }
            }

            /// The long-form Markdown explanation.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$name => include_str!(concat!("explanations/", stringify!($name), ".md")),)*
                }
            }
        }
    };
}

codes! {
    // ---- E01xx: syntax
    /// A token that the grammar does not allow here.
    E0101 = (Error, "unexpected token"),
    /// A statement is missing its terminating `;`.
    E0102 = (Error, "missing semicolon"),
    /// A `{`, `(` or `[` is never closed.
    E0103 = (Error, "unclosed delimiter"),
    /// A string literal runs to the end of its line.
    E0104 = (Error, "unterminated string"),
    /// A word that looks like a misspelled keyword.
    E0105 = (Error, "unknown keyword"),
    /// The file ends in the middle of a declaration.
    E0106 = (Error, "unexpected end of file"),
    /// A backslash escape that strings do not support.
    E0107 = (Error, "invalid escape sequence"),
    /// A malformed number literal.
    E0108 = (Error, "invalid number"),
    /// A closing delimiter with no matching opening one.
    E0109 = (Error, "unmatched closing delimiter"),
    /// A character that cannot start any token.
    E0110 = (Error, "unknown character"),
    /// A reserved word used as a name.
    E0111 = (Error, "reserved word used as a name"),
    /// The input is not valid UTF-8.
    E0112 = (Error, "invalid utf-8"),
    /// A `/*` comment that is never closed.
    E0113 = (Error, "unterminated block comment"),
    /// Two list items with no `,` between them.
    E0114 = (Error, "missing comma"),
    /// A word in a `decide` pipeline that is not one of the five actions.
    E0115 = (Error, "unknown action"),
    /// A delimiter closed by the wrong kind of delimiter.
    E0116 = (Error, "mismatched delimiter"),
    /// `when` or `unless` with no condition after it.
    E0117 = (Error, "missing condition"),
    // ---- E09xx: internal
    /// A bug in stpc: a state the compiler believed impossible.
    E0900 = (Error, "internal compiler error"),
}

impl Code {
    /// Looks a code up by its text, such as `E0101` (case-insensitive).
    pub fn parse(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
