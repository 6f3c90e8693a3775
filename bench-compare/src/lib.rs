//! The paper's worked web-search contract, encoded for three engines so one
//! criterion run compares them on the same decision:
//!
//! - stpc: the contract in `examples/paper_web_search.stpc`, compiled to a
//!   decision table and evaluated by `stpc-runtime` (labels given);
//! - cedar-policy: one `permit` per pipeline rule, evaluated in one
//!   `is_authorized` call; the deciding rule is the lowest-numbered policy in
//!   the response's reasons (first match wins, as in the pipeline);
//! - regorus: the pipeline as a Rego `else` chain, compiled to regorus's RVM
//!   bytecode and also run by its tree-walking interpreter;
//! - a hand-written Rust function of the same pipeline, the floor.
//!
//! Every engine receives the same inputs per decision: tool and destination
//! as strings, the mode, the confidence, the joined argument label and
//! whether the budget is exhausted. Building each engine's request from them
//! is inside the timed loop for all of them.

/// The pipeline's outcome, shared by every encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Dispatch unchanged.
    Allow,
    /// Rewrite forbidden fields.
    Rewrite,
    /// Defer until promotion.
    Defer,
    /// Block.
    Block,
}

/// One decision's inputs.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// Tool name.
    pub tool: &'a str,
    /// Destination host.
    pub destination: &'a str,
    /// Execution mode.
    pub mode: &'a str,
    /// Branch confidence in [0, 1].
    pub confidence: f64,
    /// Argument label rank: public 0, personal 1, sensitive 2, intent_revealing 3.
    pub arg_rank: u32,
    /// Whether the sensitive-dispatch budget is exhausted.
    pub budget_exhausted: bool,
}

/// The pipeline written by hand: the floor any engine is measured against.
pub fn hand_written(i: &Input<'_>) -> Outcome {
    if i.tool != "web_search" {
        return Outcome::Block;
    }
    if i.destination != "api.brave.com" && i.destination != "api.duckduckgo.com" {
        return Outcome::Block;
    }
    if i.mode == "speculative" && i.confidence < 0.7 {
        return Outcome::Defer;
    }
    if i.arg_rank >= 2 {
        return Outcome::Rewrite;
    }
    if i.budget_exhausted {
        return Outcome::Defer;
    }
    Outcome::Allow
}

/// Cedar has no floating point: confidence is passed in thousandths.
pub const CEDAR_POLICIES: &str = r#"
// policy0: block unless tool allowed
permit(principal, action, resource) when { !(["web_search"].contains(context.tool)) };
// policy1: block unless destination allowed
permit(principal, action, resource) when {
    !(["api.brave.com", "api.duckduckgo.com"].contains(context.destination))
};
// policy2: defer when speculative and confidence < 0.7
permit(principal, action, resource) when { context.mode == "speculative" && context.confidence < 700 };
// policy3: rewrite when args >= sensitive
permit(principal, action, resource) when { context.arg_rank >= 2 };
// policy4: defer when budget exhausted
permit(principal, action, resource) when { context.budget_exhausted };
// policy5: allow
permit(principal, action, resource);
"#;

/// The outcome of each Cedar policy, by index.
pub const CEDAR_OUTCOMES: [Outcome; 6] = [
    Outcome::Block,
    Outcome::Block,
    Outcome::Defer,
    Outcome::Rewrite,
    Outcome::Defer,
    Outcome::Allow,
];

/// The pipeline as a Rego `else` chain.
pub const REGO_POLICY: &str = r#"
package stpc

allowed_tools := {"web_search"}
allowed_destinations := {"api.brave.com", "api.duckduckgo.com"}

decision := "block" if {
    not allowed_tools[input.tool]
} else := "block" if {
    not allowed_destinations[input.destination]
} else := "defer" if {
    input.mode == "speculative"
    input.confidence < 0.7
} else := "rewrite" if {
    input.arg_rank >= 2
} else := "defer" if {
    input.budget_exhausted
} else := "allow"
"#;

/// Maps an outcome name to the shared enum.
pub fn outcome(name: &str) -> Option<Outcome> {
    match name {
        "allow" => Some(Outcome::Allow),
        "rewrite" => Some(Outcome::Rewrite),
        "defer" => Some(Outcome::Defer),
        "block" => Some(Outcome::Block),
        _ => None,
    }
}
