//! The paper's worked web-search contract (`examples/paper_web_search.stpc`)
//! in four engines, decided on the same random event mix:
//!
//! - stpc: the contract compiled to a decision table, decided by
//!   `stpc-runtime` from strings ([`Decider::decide`]) and with tool,
//!   destination and mode resolved once ([`Decider::resolve`], then
//!   [`Decider::decide_resolved`]);
//! - a hand-written Rust function of the compiled pipeline, the floor;
//! - regorus (Rego): the pipeline as an `else` chain, run by regorus's RVM
//!   and by its interpreter;
//! - cedar-policy: one `permit` per pipeline rule; the deciding rule is the
//!   lowest-numbered satisfied policy (first match wins, as in the pipeline).
//!
//! Every encoding implements the compiled contract's pipeline, rule for rule
//! and in its order (an undeclared mode fails closed; `unknown_tool`;
//! `unknown_destination`; `unlabeled` when the argument or the destination
//! label is missing; the speculative gate at τ = 0.7; the budget, counted
//! over sensitive dispatches, before the rewrite; `scrub`; `allow`), and
//! each engine answers with the rule that decided, not only the action, so
//! agreement is checked on the deciding rule of every event of the mix.
//!
//! The encodings are exact on the mix's vocabulary: destinations written
//! as lowercase hosts. The table also resolves destinations by name
//! (`brave`), in upper case and as URLs (`https://api.brave.com/…`), which
//! the Rego, Cedar and hand-written versions would block as unknown; the
//! mix does not use those forms.
//!
//! [`Decider::decide`]: stpc_runtime::decide::Decider::decide
//! [`Decider::resolve`]: stpc_runtime::decide::Decider::resolve
//! [`Decider::decide_resolved`]: stpc_runtime::decide::Decider::decide_resolved

use stpc_tests::mutation::Rng;

/// The action a pipeline rule takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Dispatch unchanged.
    Allow,
    /// Rewrite forbidden fields.
    Rewrite,
    /// Defer until promotion.
    Defer,
    /// Block.
    Block,
}

/// What decided an event: the pipeline rule by its index in the compiled
/// table (`rule_id`), or `None` when the event failed closed before any
/// rule (an undeclared mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The deciding rule's index; `None` fails closed.
    pub rule: Option<u8>,
    /// Its action.
    pub action: Action,
}

/// The compiled contract's pipeline, in order: (rule name, action).
pub const RULES: [(&str, Action); 7] = [
    ("unknown_tool", Action::Block),
    ("unknown_destination", Action::Block),
    ("unlabeled", Action::Block),
    ("gate", Action::Defer),
    ("over_budget", Action::Defer),
    ("scrub", Action::Rewrite),
    ("allow", Action::Allow),
];

/// The verdict of rule `index` (`-1` or anything outside the pipeline fails
/// closed, as every reader must).
#[must_use]
pub fn verdict(index: i64) -> Verdict {
    match u8::try_from(index)
        .ok()
        .and_then(|i| Some((i, RULES.get(usize::from(i))?.1)))
    {
        Some((rule, action)) => Verdict {
            rule: Some(rule),
            action,
        },
        None => FAIL_CLOSED,
    }
}

/// An event that fails closed before the pipeline.
pub const FAIL_CLOSED: Verdict = Verdict {
    rule: None,
    action: Action::Block,
};

/// Argument label rank at and above which a field is forbidden
/// (`forbid args >= sensitive`): public 0, personal 1, sensitive 2,
/// intent_revealing 3.
pub const SENSITIVE: u32 = 2;

/// One decision's inputs, labels given, packed in 8 bytes so that the
/// 100,000 events of the mix stay in cache (at 88 bytes, with three string
/// slices, every engine's figure was the memory's bandwidth): names are
/// indices into the mix's vocabularies, read back as strings by each
/// engine through the accessors.
#[derive(Clone, Copy, Debug)]
pub struct Event {
    tool: u8,
    destination: u8,
    mode: u8,
    confidence: u8,
    arg_rank: u8,
    dest_rank: u8,
    budget_exhausted: bool,
    /// Index of the event's argument text in the labeling pool (used when
    /// labels are computed rather than given).
    pub text: u8,
}

/// A missing label in [`Event`].
const MISSING: u8 = u8::MAX;

const TOOLS: [(&str, u32); 4] = [
    ("web_search", 90),
    ("email_send", 4),
    ("doc_retrieval", 3),
    ("Web_Search", 3),
];
// `api.bing.microsoft.com` is a destination web_search declares but the
// contract does not allow.
const DESTINATIONS: [(&str, u32); 4] = [
    ("api.brave.com", 46),
    ("api.duckduckgo.com", 42),
    ("api.bing.microsoft.com", 7),
    ("evil.example", 5),
];
const MODES: [(&str, u32); 7] = [
    ("speculative", 45),
    ("committed", 35),
    ("prefetch", 5),
    ("retry", 4),
    ("validation", 4),
    ("shadow", 4),
    ("replay", 3),
];
const CONFIDENCES: [f64; 8] = [0.0, 0.25, 0.5, 0.69, 0.7, 0.75, 0.9, 1.0];

fn name<const N: usize>(names: &[(&'static str, u32); N], i: u8) -> &'static str {
    names.get(usize::from(i)).map_or("", |(n, _)| n)
}

fn rank(r: u8) -> Option<u32> {
    (r != MISSING).then_some(u32::from(r))
}

fn packed(r: Option<u32>) -> u8 {
    r.and_then(|r| u8::try_from(r).ok())
        .filter(|r| *r != MISSING)
        .unwrap_or(MISSING)
}

impl Event {
    /// Tool name.
    #[inline]
    #[must_use]
    pub fn tool(&self) -> &'static str {
        name(&TOOLS, self.tool)
    }

    /// Destination host.
    #[inline]
    #[must_use]
    pub fn destination(&self) -> &'static str {
        name(&DESTINATIONS, self.destination)
    }

    /// Execution mode.
    #[inline]
    #[must_use]
    pub fn mode(&self) -> &'static str {
        name(&MODES, self.mode)
    }

    /// Branch confidence in [0, 1], with at most three decimals (Cedar has
    /// no floating point and receives thousandths).
    #[inline]
    #[must_use]
    pub fn confidence(&self) -> f64 {
        CONFIDENCES
            .get(usize::from(self.confidence))
            .copied()
            .unwrap_or(f64::NAN)
    }

    /// Joined argument label rank (`ArgLabel`), `None` when missing.
    #[inline]
    #[must_use]
    pub fn arg_rank(&self) -> Option<u32> {
        rank(self.arg_rank)
    }

    /// Destination label rank (`DestLabel`), `None` when missing.
    #[inline]
    #[must_use]
    pub fn dest_rank(&self) -> Option<u32> {
        rank(self.dest_rank)
    }

    /// Whether the `sensitive_dispatches` budget is exhausted.
    #[inline]
    #[must_use]
    pub fn budget_exhausted(&self) -> bool {
        self.budget_exhausted
    }

    /// The same event with other labels (as a labeler gave them).
    #[must_use]
    pub fn with_labels(self, arg_rank: Option<u32>, dest_rank: Option<u32>) -> Event {
        Event {
            arg_rank: packed(arg_rank),
            dest_rank: packed(dest_rank),
            ..self
        }
    }
}

/// Values of each packed field of [`Event`] (a missing label is the last
/// value of its field): the domain [`FlatTable`] covers.
const FIELD_SIZES: [usize; 7] = [
    TOOLS.len(),
    DESTINATIONS.len(),
    MODES.len(),
    CONFIDENCES.len(),
    5,
    6,
    2,
];

impl Event {
    /// The event's index in the row-major order of [`FIELD_SIZES`]; `None`
    /// for a field outside its range.
    #[inline]
    fn key(&self) -> Option<usize> {
        let label = |r: u8, missing: u8| if r == MISSING { missing } else { r };
        let fields = [
            self.tool,
            self.destination,
            self.mode,
            self.confidence,
            label(self.arg_rank, 4),
            label(self.dest_rank, 5),
            u8::from(self.budget_exhausted),
        ];
        let mut key = 0;
        for (v, n) in fields.into_iter().zip(FIELD_SIZES) {
            let v = usize::from(v);
            if v >= n {
                return None;
            }
            key = key * n + v;
        }
        Some(key)
    }
}

/// Every event of the mix's domain decided once by [`hand_written`], in
/// one array indexed by the event's packed fields: a decision is one index
/// computation and one load, the floor under any engine that decides from
/// the event's fields.
#[derive(Debug)]
pub struct FlatTable {
    verdicts: Vec<Verdict>,
}

impl FlatTable {
    /// Decide every point of the domain with [`hand_written`].
    #[must_use]
    pub fn new() -> FlatTable {
        let total: usize = FIELD_SIZES.iter().product();
        let mut verdicts = vec![FAIL_CLOSED; total];
        for (key, slot) in verdicts.iter_mut().enumerate() {
            let mut rest = key;
            let mut fields = [0u8; 7];
            for (f, n) in fields.iter_mut().zip(FIELD_SIZES).rev() {
                *f = u8::try_from(rest % n).unwrap_or(u8::MAX);
                rest /= n;
            }
            let [tool, destination, mode, confidence, arg, dest, budget] = fields;
            let unlabel = |r: u8, missing: u8| if r == missing { MISSING } else { r };
            let e = Event {
                tool,
                destination,
                mode,
                confidence,
                arg_rank: unlabel(arg, 4),
                dest_rank: unlabel(dest, 5),
                budget_exhausted: budget == 1,
                text: 0,
            };
            *slot = hand_written(&e);
        }
        FlatTable { verdicts }
    }

    /// The verdict of `e` (an event outside the domain fails closed).
    #[inline]
    #[must_use]
    pub fn decide(&self, e: &Event) -> Verdict {
        e.key()
            .and_then(|k| self.verdicts.get(k))
            .copied()
            .unwrap_or(FAIL_CLOSED)
    }
}

impl Default for FlatTable {
    fn default() -> FlatTable {
        FlatTable::new()
    }
}

/// The pipeline written by hand: the floor any engine is measured against.
#[must_use]
pub fn hand_written(e: &Event) -> Verdict {
    let rule = |i| verdict(i);
    if !matches!(
        e.mode(),
        "committed" | "speculative" | "prefetch" | "retry" | "validation" | "shadow"
    ) {
        return FAIL_CLOSED;
    }
    if e.tool() != "web_search" {
        return rule(0);
    }
    let destination = e.destination();
    if destination != "api.brave.com" && destination != "api.duckduckgo.com" {
        return rule(1);
    }
    let (Some(arg), Some(_)) = (e.arg_rank(), e.dest_rank()) else {
        return rule(2);
    };
    if e.mode() == "speculative" && e.confidence() < 0.7 {
        return rule(3);
    }
    let sensitive = arg >= SENSITIVE;
    if e.budget_exhausted() && sensitive {
        return rule(4);
    }
    if sensitive {
        return rule(5);
    }
    rule(6)
}

/// The pipeline as a Rego `else` chain: `rule` is the deciding rule's
/// index, `-1` fails closed. A missing label is passed as rank `-1`.
pub const REGO_POLICY: &str = r#"
package stpc

modes := {"committed", "speculative", "prefetch", "retry", "validation", "shadow"}
tools := {"web_search"}
destinations := {"api.brave.com", "api.duckduckgo.com"}

rule := -1 if {
    not modes[input.mode]
} else := 0 if {
    not tools[input.tool]
} else := 1 if {
    not destinations[input.destination]
} else := 2 if {
    input.arg_rank < 0
} else := 2 if {
    input.dest_rank < 0
} else := 3 if {
    input.mode == "speculative"
    input.confidence < 0.7
} else := 4 if {
    input.budget_exhausted
    input.arg_rank >= 2
} else := 5 if {
    input.arg_rank >= 2
} else := 6
"#;

/// The Rego entry point.
pub const REGO_ENTRY: &str = "data.stpc.rule";

/// The pipeline as Cedar policies, one per rule; `policy0` fails closed on
/// an undeclared mode and `policy{k+1}` is pipeline rule `k`. Cedar has no
/// floating point: confidence is passed in thousandths. A missing label is
/// passed as rank `-1`.
pub const CEDAR_POLICIES: &str = r#"
// policy0: an undeclared mode fails closed
permit(principal, action, resource) when {
    !(["committed", "speculative", "prefetch", "retry", "validation", "shadow"].contains(context.mode))
};
// policy1: unknown_tool
permit(principal, action, resource) when { !(["web_search"].contains(context.tool)) };
// policy2: unknown_destination
permit(principal, action, resource) when {
    !(["api.brave.com", "api.duckduckgo.com"].contains(context.destination))
};
// policy3: unlabeled
permit(principal, action, resource) when { context.arg_rank < 0 || context.dest_rank < 0 };
// policy4: gate
permit(principal, action, resource) when { context.mode == "speculative" && context.confidence < 700 };
// policy5: over_budget
permit(principal, action, resource) when { context.budget_exhausted && context.arg_rank >= 2 };
// policy6: scrub
permit(principal, action, resource) when { context.arg_rank >= 2 };
// policy7: allow
permit(principal, action, resource);
"#;

/// The verdict of the lowest-numbered satisfied Cedar policy.
#[must_use]
pub fn cedar_verdict(first_policy: Option<usize>) -> Verdict {
    match first_policy {
        Some(0) | None => FAIL_CLOSED,
        Some(k) => verdict(i64::try_from(k - 1).unwrap_or(-1)),
    }
}

/// A missing label as the Rego and Cedar encodings receive it.
#[must_use]
pub fn rank_or_missing(rank: Option<u32>) -> i64 {
    rank.map_or(-1, i64::from)
}

/// One of `items`, by weight. The generator is the tests' seeded
/// SplitMix64, so the mix (and every figure measured on it) is the same
/// sequence whatever crate versions resolve.
fn weighted<T: Copy>(rng: &mut Rng, items: &[(T, u32)]) -> Option<T> {
    let total: u32 = items.iter().map(|(_, w)| w).sum();
    let mut pick = u32::try_from(rng.below(total as usize)).ok()?;
    for (item, w) in items {
        if pick < *w {
            return Some(*item);
        }
        pick -= w;
    }
    None
}

/// The random mix: `n` events from `seed`, each field drawn on its own so
/// every rule of the pipeline decides a sizeable share (see
/// [`shares`]); `texts` is the size of the argument pool events point into
/// (at most 255 texts are used).
#[must_use]
pub fn mix(seed: u64, n: usize, texts: usize) -> Vec<Event> {
    let mut rng = Rng::new(seed);
    let index = |items: &[(&str, u32)], rng: &mut Rng| {
        let weights: Vec<(u8, u32)> = (0u8..).zip(items).map(|(i, (_, w))| (i, *w)).collect();
        weighted(rng, &weights).unwrap_or(0)
    };
    let pool = texts.clamp(1, usize::from(u8::MAX));
    (0..n)
        .map(|_| Event {
            tool: index(&TOOLS, &mut rng),
            destination: index(&DESTINATIONS, &mut rng),
            mode: index(&MODES, &mut rng),
            confidence: (rng.below(CONFIDENCES.len())) as u8,
            arg_rank: if rng.below(25) == 0 {
                MISSING
            } else {
                rng.below(4) as u8
            },
            dest_rank: if rng.below(25) == 0 {
                MISSING
            } else {
                rng.below(5) as u8
            },
            budget_exhausted: rng.below(10) < 3,
            text: rng.below(pool) as u8,
        })
        .collect()
}

/// How many events of `events` each verdict decides, by rule (the last
/// entry counts events that failed closed).
#[must_use]
pub fn shares(verdicts: impl IntoIterator<Item = Verdict>) -> [usize; RULES.len() + 1] {
    let mut counts = [0; RULES.len() + 1];
    for v in verdicts {
        let slot = v.rule.map_or(RULES.len(), usize::from);
        if let Some(c) = counts.get_mut(slot) {
            *c += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_is_reproducible_and_every_rule_decides_a_share() {
        let a = mix(7, 20_000, 10);
        let b = mix(7, 20_000, 10);
        assert!(a
            .iter()
            .zip(&b)
            .all(|(x, y)| hand_written(x) == hand_written(y) && x.text == y.text));
        let counts = shares(a.iter().map(hand_written));
        for (slot, count) in counts.iter().enumerate() {
            assert!(
                *count * 100 > a.len(),
                "rule slot {slot} decides under 1 % of the mix: {counts:?}"
            );
        }
    }

    #[test]
    fn the_flat_table_agrees_with_the_hand_written_pipeline() {
        let flat = FlatTable::new();
        for e in mix(3, 20_000, 10) {
            assert_eq!(flat.decide(&e), hand_written(&e), "{e:?}");
        }
        let odd = Event {
            mode: 200,
            ..mix(3, 1, 10)[0]
        };
        assert_eq!(flat.decide(&odd), FAIL_CLOSED);
    }

    #[test]
    fn verdicts_outside_the_pipeline_fail_closed() {
        assert_eq!(verdict(-1), FAIL_CLOSED);
        assert_eq!(verdict(7), FAIL_CLOSED);
        assert_eq!(verdict(5).action, Action::Rewrite);
        assert_eq!(cedar_verdict(None), FAIL_CLOSED);
        assert_eq!(cedar_verdict(Some(0)), FAIL_CLOSED);
        assert_eq!(cedar_verdict(Some(7)), verdict(6));
    }
}
