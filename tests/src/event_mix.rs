//! A realistic event mix over the standard library's tools, for benchmarks
//! of the real path (`benches/std_path.rs`, `bench-compare`).
//!
//! Written for benchmarking (no value comes from a labeled set): every std
//! tool, short and long arguments, English, German, Spanish, French and
//! Dutch, nested JSON (lists of filters and attendees), destinations as
//! agents write them (URLs, hosts with paths, collection names), and
//! committed and speculative events at several confidences, so that every
//! action of the std policies occurs.

use serde_json::{json, Value};
use stpc_runtime::audit::{AuditRecord, AuditSink};
use stpc_runtime::{AuditError, ProposedEvent};

/// An audit sink that discards records, for benchmarks of the monitor
/// (they measure the decision, not a sink's allocation growth).
#[derive(Debug, Default)]
pub struct NullSink;

impl AuditSink for NullSink {
    fn record(&mut self, rec: &AuditRecord) -> Result<(), AuditError> {
        std::hint::black_box(rec);
        Ok(())
    }
}

fn ev(tool: &str, destination: &str, mode: &str, confidence: f64, args: Value) -> ProposedEvent {
    ProposedEvent {
        tool: tool.to_owned(),
        destination: destination.to_owned(),
        mode: mode.to_owned(),
        confidence,
        branch: "b1".to_owned(),
        args,
    }
}

/// The tools, arguments and destinations of the mix, each issued in several
/// modes and at several confidences.
fn calls() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "web_search",
            "https://api.brave.com/res/v1/web/search?q=x",
            json!({"q": "weather in Lisbon tomorrow", "count": 5}),
        ),
        (
            "web_search",
            "api.duckduckgo.com",
            json!({"q": "side effects of stopping antidepressants suddenly after two years", "lang": "en"}),
        ),
        (
            "web_search",
            "api.bing.microsoft.com/v7.0/search",
            json!({"q": "tarief containervervoer Rotterdam naar Duisburg per TEU december, inclusief terminal handling en douane", "lang": "any"}),
        ),
        (
            "web_search",
            "customsearch.googleapis.com",
            json!({"q": "Mieterverein Beratung Kündigung wegen Eigenbedarf Frist", "lang": "de"}),
        ),
        (
            "doc_retrieval",
            "public-kb",
            json!({"query": "how to reset the VPN client on a managed laptop", "top_k": 3, "filters": ["it", "howto"]}),
        ),
        (
            "doc_retrieval",
            "hr-leave",
            json!({"query": "¿cuántos días de permiso por mudanza tengo este año según el convenio colectivo?", "filters": ["es", {"year": "2026"}]}),
        ),
        (
            "doc_retrieval",
            "engineering",
            json!({"query": "rollback procedure for the payments service after a failed deploy", "top_k": 10}),
        ),
        (
            "calendar_lookup",
            "calendar.googleapis.com",
            json!({"who": "Camille Lefèvre", "start": "2026-03-02T09:00", "end": "2026-03-02T18:00", "query": "réunion budget trimestriel"}),
        ),
        (
            "calendar_lookup",
            "graph.microsoft.com/v1.0/me/calendarView",
            json!({"who": "j.bakker@example.nl", "query": "appointment with the fertility clinic"}),
        ),
        (
            "crm_lookup",
            "corp.my.salesforce.com",
            json!({"customer": "Acme Logistics GmbH", "account_id": "ACC-20931", "query": "open renewal opportunities"}),
        ),
        (
            "email_search",
            "gmail.googleapis.com",
            json!({"query": "invoice from the plumber for March", "sender": "billing@plumbing.example", "folder": "inbox"}),
        ),
        (
            "email_search",
            "graph.microsoft.com",
            json!({"query": "results of my biopsy and next steps", "after": "2026-01-01"}),
        ),
        (
            "loan_rates",
            "api.loanrates.example/v2/quotes",
            json!({"q": "best rate for a small personal loan", "product": "personal_loan", "amount": 8000, "term_months": 36}),
        ),
        (
            "loan_rates",
            "api.loanrates.example",
            json!({"q": "debt consolidation after missing three credit card payments", "product": "personal_loan"}),
        ),
        (
            "email_send",
            "gmail.googleapis.com",
            json!({"recipient": "team@example.com", "subject": "Standup notes", "body": "Notes from today: shipping the importer on Thursday, review on Friday."}),
        ),
        (
            "calendar_create_event",
            "calendar.googleapis.com",
            json!({"title": "Quarterly planning", "attendees": ["ana@example.com", "li@example.com"], "start": "2026-04-01T10:00"}),
        ),
        (
            "notes_lookup",
            "local-notes",
            json!({"query": "what did I write about the kitchen renovation quotes"}),
        ),
        (
            "web_search",
            "api.brave.com",
            json!({"q": "my ssn is 123-45-6789, can the IRS garnish wages"}),
        ),
    ]
}

/// The mix: each call committed, speculative at 0.9 and 0.4, and prefetched
/// at 0.2 (72 events).
#[must_use]
pub fn std_mix() -> Vec<ProposedEvent> {
    let mut out = Vec::new();
    for (tool, dest, args) in calls() {
        out.push(ev(tool, dest, "committed", 1.0, args.clone()));
        out.push(ev(tool, dest, "speculative", 0.9, args.clone()));
        out.push(ev(tool, dest, "speculative", 0.4, args.clone()));
        out.push(ev(tool, dest, "prefetch", 0.2, args));
    }
    out
}
