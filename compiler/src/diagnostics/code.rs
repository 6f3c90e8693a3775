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
    /// Delimiters nested deeper, or a condition longer, than the compiler
    /// accepts.
    E0118 = (Error, "nesting too deep"),
    // ---- E02xx: names and imports
    /// A name that nothing in scope declares.
    E0201 = (Error, "unknown name"),
    /// A name declared twice in one module.
    E0202 = (Error, "duplicate declaration"),
    /// A name of one kind used where another kind is expected.
    E0203 = (Error, "wrong kind of name"),
    /// A `use` whose module or item does not exist.
    E0204 = (Error, "unresolved import"),
    /// Modules that import each other in a cycle.
    E0205 = (Error, "import cycle"),
    /// A name that two whole-module imports both provide.
    E0206 = (Error, "ambiguous name"),
    /// A `set` that contains itself, directly or through other sets.
    E0207 = (Error, "recursive set"),
    /// A `set` with both tools and destinations among its members.
    E0208 = (Error, "set of tools and destinations"),
    /// A contract that extends itself, directly or through other contracts.
    E0209 = (Error, "recursive extends"),
    // ---- E03xx: lattices
    /// A lattice whose order has a cycle.
    E0301 = (Error, "cyclic lattice order"),
    /// Two labels with no unique least upper bound.
    E0302 = (Error, "missing or ambiguous join"),
    /// Two labels with no unique greatest lower bound.
    E0303 = (Error, "missing or ambiguous meet"),
    /// A second lattice declared for the same role.
    E0304 = (Error, "two lattices for one role"),
    /// A label of a role is used but no lattice has that role.
    E0305 = (Error, "no lattice for a role"),
    // ---- E04xx: contracts and typing
    /// A label of another lattice than the one compared against.
    E0401 = (Error, "label from the wrong lattice"),
    /// A label that is not in its lattice.
    E0402 = (Error, "unknown label"),
    /// A threshold or confidence outside [0, 1].
    E0403 = (Error, "value outside [0, 1]"),
    /// A budget that is not a positive integer.
    E0404 = (Error, "invalid budget"),
    /// A contract with no allowed tools or destinations.
    E0405 = (Error, "empty allow-list"),
    /// A pipeline without a final default rule.
    E0406 = (Error, "no default rule"),
    /// An observer that sees a channel that does not exist.
    E0407 = (Error, "unknown channel"),
    /// An entity kind the labeler does not know.
    E0408 = (Error, "unknown entity kind"),
    /// A time granularity that does not exist.
    E0409 = (Error, "unknown time granularity"),
    /// A pattern that is not a valid regular expression.
    E0410 = (Error, "invalid regular expression"),
    /// A transform step that fits none of the transform's input types.
    E0411 = (Error, "transform step does not fit its input types"),
    /// A rewrite whose transforms fit no field they could rewrite.
    E0412 = (Error, "rewrite does not fit the field's type"),
    /// A transform whose output label is not strictly below the cut it serves.
    E0413 = (Error, "rewrite does not preserve the cut (A3)"),
    /// A shadow substitute observed by an external observer.
    E0414 = (Error, "shadow substitute is externally observed (A3)"),
    /// A shadow with no substitute for a tool it can see.
    E0415 = (Error, "no substitute for shadow"),
    /// An argument field that no relevant tool has.
    E0416 = (Error, "unknown argument field"),
    /// A comparison that does not fit its subject.
    E0417 = (Error, "invalid comparison"),
    /// A statement or vocabulary given twice.
    E0418 = (Error, "repeated statement"),
    /// A name where a number or contract parameter is expected.
    E0419 = (Error, "unknown parameter"),
    /// `budget exhausted` in a contract with no budget.
    E0420 = (Error, "no budget to exhaust"),
    /// A tool naming a substitute declared for another tool.
    E0421 = (Error, "substitute for another tool"),
    /// A labeler rule that does not fit what the labeler labels.
    E0422 = (Error, "labeler rule does not fit its subject"),
    /// A test event clause that does not fit.
    E0423 = (Error, "invalid test event"),
    /// A declaration missing a part every table needs: a destination
    /// without an address or a label, a transform without a step.
    E0424 = (Error, "incomplete declaration"),
    /// A `// stpc: allow(...)` comment without a reason, or naming a code
    /// that cannot be suppressed.
    E0425 = (Error, "invalid suppression"),
    /// `tools +=` or `destinations +=` in a contract that extends nothing.
    E0426 = (Error, "nothing to add to"),
    // ---- E05xx: lowering
    /// The contract's domain does not fit the table format.
    E0501 = (Error, "domain too large for a table"),
    /// A labeler without a fallback, or no labeler for a subject.
    E0502 = (Error, "no labeler fallback"),
    /// The program lacks a vocabulary every table needs.
    E0503 = (Error, "missing table vocabulary"),
    /// No contract, an unknown one, or several and none chosen.
    E0504 = (Error, "no contract to compile"),
    /// A `--param` override that is not a parameter or is out of range.
    E0505 = (Error, "invalid parameter override"),
    // ---- E06xx: verification
    /// A cell lets a forbidden label reach an observer (Theorem 1).
    E0601 = (Error, "forbidden label reaches an observer"),
    /// A SHADOW cell's substitute is seen by an observer it must not reach.
    E0602 = (Error, "shadow substitute leaks"),
    /// A missing label, unknown tool or unknown destination can disclose.
    E0603 = (Error, "pipeline is not fail-closed"),
    /// The decision table is not total or not deterministic.
    E0604 = (Error, "decision table is not total"),
    // ---- W0xxx: warnings
    /// A declaration nothing uses.
    W0001 = (Warning, "unused declaration"),
    /// A rule that an earlier rule always pre-empts.
    W0002 = (Warning, "rule can never fire"),
    /// A threshold that no rule reads.
    W0003 = (Warning, "threshold can never trigger"),
    /// A budget that no rule reads.
    W0004 = (Warning, "budget never read"),
    /// An item imported by name that the file never uses.
    W0005 = (Warning, "unused import"),
    /// `<=` between two labels of a lattice chain, which means `<`.
    W0006 = (Warning, "`<=` in a lattice chain"),
    /// `mode == m` or `mode != m`, which the bare mode says.
    W0007 = (Warning, "mode comparison has a shorter spelling"),
    /// `mode m` in a test event, where the bare mode is the spelling.
    W0008 = (Warning, "redundant `mode` in a test event"),
    /// A contract that does not name the labelers its events go through.
    W0009 = (Warning, "contract does not name its labelers"),
    /// A `// stpc: allow(...)` comment that suppresses nothing.
    W0010 = (Warning, "unused suppression"),
    /// A REWRITE that no cut and no scope point at any field.
    W0011 = (Warning, "rewrite can never change a field"),
    /// Raising a label yields a more disclosing action.
    W0601 = (Warning, "decision is not monotone in labels"),
    /// A rule that decides no point of the domain.
    W0602 = (Warning, "rule decides no event"),
    /// A destination with several addresses keeps only the first.
    W0603 = (Warning, "destination address dropped"),
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
