import textwrap
HEAD_USE = """use std::labels;
use std::modes;
use std::observers;
use std::tools;
use std::transforms;
use std::labelers;
"""
ALL_TOOLS = "web_search, doc_retrieval, calendar_lookup, crm_lookup, email_search, loan_rates,\n        email_send, calendar_create_event, notes_lookup"
ALL_DESTS = ("brave, duckduckgo, bing, google_search,\n        docs_public_kb, docs_general, docs_engineering, docs_product, docs_hr_policies,\n"
             "        docs_hr_leave, docs_employee_relations, docs_legal, docs_finance, docs_security,\n"
             "        docs_oncology, docs_mental_health, docs_immigration, anon_retrieve, anon_search,\n"
             "        google_calendar, ms_graph, gmail, salesforce, hubspot, loan_rates_api, local_store")

# The four calls of Figure 1 / Appendix A.1.
LEASE = [
 ("e1", "committed tenant-rights search",
  'web_search(q: "tenant rights lease termination penalty")', "brave committed confidence 1.0",
  "q: intent_revealing, destination: public"),
 ("e2", "ghost search for available apartments",
  'web_search(q: "available apartments near me")', "brave speculative confidence 0.35",
  "q: sensitive, destination: public"),
 ("e3", "ghost search for eviction law",
  'web_search(q: "eviction law notice period tenant")', "duckduckgo speculative confidence 0.3",
  "q: sensitive, destination: public"),
 ("e4", "ghost personal-loan-rates API call",
  'loan_rates(q: "current personal loan rates", product: "personal_loan")', "loan_rates_api speculative confidence 0.2",
  "q: sensitive, product: public, destination: sensitive"),
]

def test(name, call, clauses, expect, labels=None, by=None):
    lab = f"\n            labels {{ {labels} }}" if labels else ""
    b = f" by {by}" if by else ""
    return f"""    test "{name}" {{
        call {call}
            to {clauses}{lab}
        expect {expect}{b};
    }}
"""

def lease_tests(expect, by=None, why=""):
    """expect: dict e1..e4 -> action; by: dict e -> rule name (for labeled tests)."""
    out = [f"    // Figure 1 (Appendix A.1): the lease vignette. {why}\n"]
    by = by or {}
    for key, name, call, clauses, labels in LEASE:
        out.append(test(f"lease {key}: {name}", call, clauses, expect[key], labels, by.get(key)))
    out.append("    // The same four calls, labeled by std::labelers instead of by hand.\n")
    for key, name, call, clauses, labels in LEASE:
        out.append(test(f"lease {key} (labeler): {name}", call, clauses, expect[key]))
    return "".join(out)

def contract(header, name, params, body, tests, extra_use=""):
    p = f"({params})" if params else ""
    return f"{header.rstrip()}\n{HEAD_USE}{extra_use}\ncontract {name}{p} {{\n{body.rstrip()}\n\n{tests.rstrip()}\n}}\n"

COMMON_SCOPE = f"""    tools {ALL_TOOLS};
    destinations {ALL_DESTS};
"""
FAILCLOSED = """        unknown_tool: block unless tool allowed;
        unknown_destination: block unless destination allowed;
        unlabeled: defer when labels missing;
"""

P = {}

P["naive"] = contract("""// std::policies::naive — the paper's Naive endpoint: no policy, every
// speculative candidate dispatches unchanged (§5, "Naive (no policy, every
// candidate dispatches)"). It is the reference the other policies are
// measured against: topic recovery 0.97 on the static-plan corpus.
//
// Only the fail-closed scaffolding every std policy shares remains: a tool
// or destination outside the deployment, or an event the labeler could not
// label, never reaches ALLOW. No cut is declared: Naive promises nothing.
""", "naive", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        allow;
    }
""", lease_tests({"e1":"allow","e2":"allow","e3":"allow","e4":"allow"}, None, "Naive lets every ghost call through unchanged.") +
test("a speculative side-effecting call dispatches too", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "I am ending my lease")', "gmail speculative confidence 0.4", "allow") +
test("an unlisted destination is still blocked", 'web_search(q: "weather in Lisbon")', '"pastebin.com" committed', "block", None, "unknown_destination") +
test("an oncology retrieval dispatches", 'doc_retrieval(query: "treatment options", top_k: 5)', "docs_oncology speculative confidence 0.3", "allow"))

P["no_spec"] = contract("""// std::policies::no_spec — the paper's No-Spec endpoint: the committed plan
// only, no speculation. Every event that is not `committed` (speculative,
// prefetch, retry, validation, shadow) is DEFERred; a deferred event whose
// branch is promoted is re-decided as committed and dispatched then, and an
// abandoned one never leaves. This is the counterfactual O_i(C) of the trace
// model, so its marginal exposure is empty by construction (0.44 topic
// recovery on the static-plan corpus is the committed calls alone).
//
// The paper treats No-Spec as a replay mode; as a contract it is one rule.
""", "no_spec", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        speculation: defer unless committed;
        allow;
    }
""", lease_tests({"e1":"allow","e2":"defer","e3":"defer","e4":"defer"}, {"e2":"speculation","e3":"speculation","e4":"speculation"}, "No-Spec issues only the committed search.") +
test("a confident prefetch waits for commit too", 'calendar_lookup(who: "alex@example.com", start: "2024-05-03")', "google_calendar prefetch confidence 0.95", "defer", None, "speculation") +
test("a retry is not committed", 'web_search(q: "weather in Lisbon")', "brave retry confidence 1.0", "defer", None, "speculation") +
test("a committed write dispatches", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "see attached")', "gmail committed confidence 1.0", "allow"))

P["sia"] = contract("""// std::policies::sia — Speculative Interaction Agents (Hooper et al., 2026),
// the only prior speculative-agent baseline: speculation is admitted only for
// read-only tools (effect pure_local, local_read or external_read); a
// speculative write waits for commit. Read-only is a property of the effect,
// not of the observation: SIA lets every topical speculative search through,
// which is the failure Proposition 2 of the paper formalises (SIA stays at
// Naive's leakage).
""", "sia", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        read_only: defer when not committed and effect in {external_write, semi_stateful, irreversible};
        allow;
    }
""", lease_tests({"e1":"allow","e2":"allow","e3":"allow","e4":"allow"}, None, "Every call is an external read, so SIA lets the ghost calls through unchanged.") +
test("a speculative e-mail send waits for commit", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "I am ending my lease")', "gmail speculative confidence 0.6", "defer", None, "read_only") +
test("a speculative calendar write waits for commit", 'calendar_create_event(title: "Viewing", start: "2024-05-03T10:00")', "google_calendar speculative confidence 0.5", "defer", None, "read_only") +
test("a speculative local read is admitted", 'notes_lookup(query: "moving checklist")', "local_store speculative confidence 0.2", "allow") +
test("a committed write dispatches", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "see attached")', "gmail committed confidence 1.0", "allow") +
test("a speculative oncology retrieval is read-only, so admitted", 'doc_retrieval(query: "staging", top_k: 3)', "docs_oncology speculative confidence 0.3", "allow"))

P["acl"] = contract("""// std::policies::acl — a per-tool allow-list (standard access control).
// The deployment authorises the five read tools of the paper's harness and
// the loan-rates API, not the side-effecting tools. An allow-list answers
// "may this agent call this tool?", not "may this observer learn this now?":
// every authorised ghost call dispatches unchanged, so ACL stays at Naive's
// leakage (0.26 vs 0.26 on the paired replay).
""", "acl", None, """    tools web_search, doc_retrieval, calendar_lookup, crm_lookup, email_search, loan_rates;
    destinations """ + ALL_DESTS + """;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        allow;
    }
""", lease_tests({"e1":"allow","e2":"allow","e3":"allow","e4":"allow"}, None, "Every call uses an authorised tool, so ACL lets the ghost calls through unchanged.") +
test("a tool off the allow-list is blocked", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "hello")', "gmail committed confidence 1.0", "block", None, "unknown_tool") +
test("a calendar write is off the allow-list", 'calendar_create_event(title: "Viewing", start: "2024-05-03T10:00")', "google_calendar committed", "block", None, "unknown_tool") +
test("a destination off the allow-list is blocked", 'web_search(q: "weather in Lisbon")', '"webhook.site" committed', "block", None, "unknown_destination") +
test("an authorised HR-leave retrieval dispatches", 'doc_retrieval(query: "parental leave policy", top_k: 5)', "docs_hr_leave speculative confidence 0.3", "allow"))

P["late_scrub"] = contract("""// std::policies::late_scrub — Late-Scrub: scrub the trace after commit.
// Every event is ALLOWed at issue time; the audit record of an abandoned
// branch is scrubbed once the branch resolves (`scrub after commit`). The
// runtime log ends up clean, but the provider and the network received the
// ghost calls at issue time, and no cleanup unsends them: Late-Scrub stays
// at Naive's leakage for every external observer. The paper treats it as a
// replay mode; as a contract it is ALLOW plus a scrubbing audit policy.
""", "late_scrub", None, COMMON_SCOPE + """    audit to runtime_log without raw args scrub after commit;

    decide {
""" + FAILCLOSED + """        allow;
    }
""", lease_tests({"e1":"allow","e2":"allow","e3":"allow","e4":"allow"}, None, "Late-Scrub lets the ghost calls through unchanged and cleans only its own log.") +
test("a speculative oncology retrieval dispatches, scrubbed later", 'doc_retrieval(query: "second opinion staging", top_k: 3)', "docs_oncology speculative confidence 0.25", "allow") +
test("a speculative mail search with an address dispatches", 'email_search(query: "lease", sender: "landlord@example.com")', "gmail speculative confidence 0.4", "allow"))

P["pre_scrub"] = contract("""// std::policies::pre_scrub — Pre-Scrub, the issue-time DLP baseline: a
// free-text PII regex runs before issue (`redact_pii`: e-mail, phone,
// government ids, street addresses, titled names, IP addresses) on events
// whose arguments carry personal data (every event at or above `personal`,
// topical ones included, as the regex runs on everything). Topics, structured
// fields (`who`, `sender`, `customer` are entities, which `redact_pii(text)`
// does not apply to) and destinations are left untouched, so a topical query
// reaches the provider verbatim; the paper finds Pre-Scrub indistinguishable
// from no redaction.
//
// Expressing it, and the gap: the baseline is unsound by design, so it
// declares no cut (`forbid args >= personal` with a topical `allow` is the
// E0601 soundness error, correctly). Without a cut the runtime's REWRITE has
// no field "at or above the cut" to transform, so at run time the `scrub_pii`
// cells dispatch the arguments unchanged: the decision table records where
// Pre-Scrub would redact, the runtime cannot yet do it. The syntax this needs
// is in stdlib-contracts/README.md ("rewrite below the cut").
""", "pre_scrub", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        scrub_pii: rewrite using redact_pii when args >= personal;
        allow;
    }
""", lease_tests({"e1":"rewrite","e2":"rewrite","e3":"rewrite","e4":"rewrite"}, {"e1":"scrub_pii","e2":"scrub_pii","e3":"scrub_pii","e4":"scrub_pii"}, "The PII scrubber runs on every call, finds no PII, and the ghost calls go out with their topical arguments unchanged.") +
test("free-text e-mail address is scrubbed", 'web_search(q: "contact jane.doe@example.com about the invoice")', "brave speculative confidence 0.5", "rewrite", "q: personal", "scrub_pii") +
test("free-text phone number is scrubbed (labeler)", 'web_search(q: "who called me from +1 415 555 0134")', "brave speculative confidence 0.5", "rewrite", None, "scrub_pii") +
test("PII inside a topical query: scrubbed, the topic passes", 'web_search(q: "call 415-555-0134 about my biopsy results")', "brave speculative confidence 0.5", "rewrite", "q: intent_revealing", "scrub_pii") +
test("a public query passes untouched", 'web_search(q: "weather in Lisbon")', "brave speculative confidence 0.5", "allow"))

P["rewrite"] = contract("""// std::policies::rewrite — Rewrite: every argument field at or above the
// cut (`sensitive`) is replaced by a generic equivalent before dispatch, in
// every mode, since the provider may not learn a sensitive field whether or
// not the branch is later committed (Appendix A: "a committed call ... would
// also REWRITE"). The transforms strip first-person framing, replace topic
// phrases with generic ones, redact entities and coarsen times; the runtime
// re-labels the result and refuses to dispatch if anything is left at the
// cut. Paper: 0.53 topic recovery on the static-plan corpus, 0.03 on the
// paired replay.
""", "rewrite", None, COMMON_SCOPE + """    forbid args >= sensitive at provider, network, co_tenant;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        scrub: rewrite using generic_query, redact_person, coarsen_month when args >= sensitive;
        allow;
    }
""", lease_tests({"e1":"rewrite","e2":"rewrite","e3":"rewrite","e4":"rewrite"}, {"e1":"scrub","e2":"scrub","e3":"scrub","e4":"scrub"}, "Rewrite dispatches every call with generic arguments.") +
test("a public query dispatches unchanged", 'web_search(q: "weather in Lisbon")', "brave speculative confidence 0.3", "allow") +
test("a personal calendar lookup is below the cut", 'calendar_lookup(who: "alex@example.com", start: "2024-05-03")', "google_calendar speculative confidence 0.4", "allow", "who: personal, start: public") +
test("a Spanish eviction query is rewritten (labeler)", 'web_search(q: "me van a desahuciar qué hago")', "brave speculative confidence 0.6", "rewrite", None, "scrub"))

P["shadow"] = contract("""// std::policies::shadow — Shadow: a speculative or prefetched call to an
// external destination runs against a trusted local substitute (observed by
// the runtime log only) instead of the provider; the provider never sees the
// ghost call. Committed calls dispatch as planned (the committed plan is
// O_i(C), not marginal exposure), so Shadow's residual leakage is No-Spec's
// (0.42 vs 0.44 static-plan; 0.00 on the paired replay). A speculative call
// with no substitute waits for commit. The substitutes re-issue against the
// real provider on promotion (`on promote reissue`) except where the std
// tool declares `reuse`.
//
// No argument cut is declared: Shadow's guarantee is about speculative
// events only, which a `forbid` cannot yet say (see README, "mode-scoped cuts").
""", "shadow", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        ghost: shadow when not committed and destination external and substitute available;
        no_substitute: defer when not committed and destination external;
        allow;
    }
""", lease_tests({"e1":"allow","e2":"shadow","e3":"shadow","e4":"shadow"}, {"e2":"ghost","e3":"ghost","e4":"ghost"}, "Shadow keeps the ghost calls off the search and loan providers.") +
test("a speculative write has no substitute and waits", 'email_send(recipient: "landlord@example.com", subject: "Notice", body: "hello")', "gmail speculative confidence 0.5", "defer", None, "no_substitute") +
test("a prefetched oncology retrieval is shadowed", 'doc_retrieval(query: "staging", top_k: 3)', "docs_oncology prefetch confidence 0.8", "shadow", None, "ghost") +
test("a speculative local read stays local", 'notes_lookup(query: "moving checklist")', "local_store speculative confidence 0.3", "allow"))

P["gate"] = contract("""// std::policies::gate — Gate: a speculative or prefetched call whose branch
// confidence is below tau is DEFERred until branch selection; above tau it
// dispatches. tau is the contract's parameter (`contract gate(tau = 0.7)`):
// the paper's privacy/utility lever (tau = 0.3: 0.12 leakage at 5.4
// calls/task; tau = 0.9: 0.06 at 0.96; tau = 0.7: 0.04 with task success
// 0.79). Gate fails open when the calibrator over-estimates a ghost call's
// commit probability: a confident ghost call dispatches unchanged.
""", "gate", "tau = 0.7", COMMON_SCOPE + """    threshold speculative tau;
    threshold prefetch tau;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        gate: defer when mode in {speculative, prefetch} and confidence < threshold;
        allow;
    }
""", lease_tests({"e1":"allow","e2":"defer","e3":"defer","e4":"defer"}, {"e2":"gate","e3":"gate","e4":"gate"}, "All three ghost calls sit below tau = 0.7 and are deferred.") +
test("a confident speculative call dispatches", 'web_search(q: "tenant rights lease termination penalty")', "brave speculative confidence 0.85", "allow") +
test("a prefetch just below tau waits", 'calendar_lookup(who: "alex@example.com", start: "2024-05-03")', "google_calendar prefetch confidence 0.69", "defer", None, "gate") +
test("confidence equal to tau dispatches", 'web_search(q: "eviction law")', "brave speculative confidence 0.7", "allow"))

P["taint"] = contract("""// std::policies::taint — Taint (Denning 1976; Myers 1999, adapted): block a
// call whose arguments match a curated taint source. The taint sources are
// the std topic and intent lexicons and patterns, applied to every argument
// leaf; a call is tainted when the join over its arguments reaches
// `sensitive`. Blocking is mode-blind (committed calls too) and inherits the
// labeler's fragility: a paraphrase outside the vocabulary passes.
//
// The paper's Taint matches substrings of the flattened argument string; the
// std labeler matches whole words per leaf (see README, "flattened labeling").
""", "taint", None, COMMON_SCOPE + """    forbid args >= sensitive at provider, network, co_tenant;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        tainted: block when args >= sensitive;
        allow;
    }
""", lease_tests({"e1":"block","e2":"block","e3":"block","e4":"block"}, {"e1":"tainted","e2":"tainted","e3":"tainted","e4":"tainted"}, "Every call matches a taint source and is blocked.") +
test("an untainted query passes", 'web_search(q: "weather in Lisbon")', "brave speculative confidence 0.3", "allow") +
test("a paraphrase outside the vocabulary passes", 'web_search(q: "what does leaving a flat before the contract ends cost")', "brave speculative confidence 0.3", "allow") +
test("a hard negative is not taint", 'web_search(q: "redis cache eviction policy")', "brave speculative confidence 0.3", "allow"))

P["taint_f"] = contract("""// std::policies::taint_f — Taint-F: taint tracked at field granularity. The
// free-text fields a planner fills from the conversation (`q`, `query`,
// `subject`, `body`, `title`, `filters`) are the tracked sinks; a call is
// blocked when one of them is tainted. Structured fields (`who`, `sender`,
// `customer`, times, enums) are not taint-tracked, and the field-level check
// still trusts the labeler on each field. No cut is declared: untracked
// fields may carry a sensitive value (the paper: Taint-F 0.071 vs Taint 0.078).
""", "taint_f", None, COMMON_SCOPE + """    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        tainted_q: block when args.q >= sensitive;
        tainted_query: block when args.query >= sensitive;
        tainted_message: block when args.subject >= sensitive or args.body >= sensitive or args.title >= sensitive;
        tainted_filters: block when args.filters >= sensitive;
        allow;
    }
""", lease_tests({"e1":"block","e2":"block","e3":"block","e4":"block"}, {"e1":"tainted_q","e2":"tainted_q","e3":"tainted_q","e4":"tainted_q"}, "Every call's query field is tainted and the call is blocked.") +
test("a tainted retrieval query is blocked", 'doc_retrieval(query: "chemotherapy side effects", top_k: 5)', "docs_oncology speculative confidence 0.4", "block", "query: sensitive, top_k: public", "tainted_query") +
test("an untracked structured field passes", 'crm_lookup(customer: "debt collection case 4411", query: "open tickets")', "salesforce speculative confidence 0.4", "allow", "customer: sensitive, query: public") +
test("a tainted e-mail subject is blocked", 'email_send(recipient: "hr@example.com", subject: "my maternity leave", body: "see attached")', "ms_graph committed", "block", "recipient: personal, subject: intent_revealing, body: public", "tainted_message"))

P["drop"] = contract("""// std::policies::drop — Drop, the refusal baseline: reject any call tagged
// sensitive, by its arguments or by its destination, in every mode. It
// over-refuses on every labeler false positive (utility), and a sensitive
// committed call is refused too; the paper reports 0.067 topic recovery on
// the paired replay.
""", "drop", None, COMMON_SCOPE + """    forbid args >= sensitive at provider, network, co_tenant;
    forbid destination >= sensitive at provider, network, co_tenant;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        sensitive_args: block when args >= sensitive;
        sensitive_destination: block when destination >= sensitive;
        allow;
    }
""", lease_tests({"e1":"block","e2":"block","e3":"block","e4":"block"}, {"e1":"sensitive_args","e2":"sensitive_args","e3":"sensitive_args","e4":"sensitive_args"}, "Drop blocks the sensitive calls, the committed one included.") +
test("an empty query to a topical collection is dropped", 'doc_retrieval(query: "", top_k: 5)', "docs_oncology speculative confidence 0.4", "block", "query: public, top_k: public", "sensitive_destination") +
test("a public query passes", 'web_search(q: "weather in Lisbon")', "brave speculative confidence 0.3", "allow") +
test("a labeler false positive is refused (hard negatives prevent this one)", 'web_search(q: "legal tender laws of Ecuador")', "brave committed", "allow"))

P["fides_ifc"] = contract("""// std::policies::fides_ifc — a FIDES-style information-flow baseline (Costa
// et al., 2025; paper Appendix B.15): typed sources (the std labeler's
// argument labels), a sink table with per-destination accept-sets, and
// field-level taint, with no notion of speculation. Each sink accepts flows
// up to its own sensitivity:
//
//   sink label        accepts args up to
//   public            personal
//   tenant_internal   personal
//   sensitive         sensitive         (a topical endpoint accepts its topic)
//   regulated         sensitive
//   forbidden         nothing
//
// Intent-revealing fields are accepted nowhere external. Topical flow to an
// accept-set-compatible endpoint passes, which is why the paper finds this
// policy indistinguishable from Naive (0.131 vs 0.104) and worse than Taint.
""", "fides_ifc", None, COMMON_SCOPE + """    forbid args >= intent_revealing at provider, network, co_tenant;
    forbid destination >= forbidden at provider, network, co_tenant;
    audit to runtime_log without raw args;

    decide {
""" + FAILCLOSED + """        forbidden_sink: block when destination >= forbidden;
        intent_flow: block when args >= intent_revealing and destination external;
        low_sink: block when args >= sensitive and destination < sensitive;
        allow;
    }
""", lease_tests({"e1":"block","e2":"block","e3":"block","e4":"allow"}, {"e1":"intent_flow","e2":"low_sink","e3":"low_sink"}, "The search engine accepts no topical flow; the loan-rates API accepts financial topics, so that ghost call passes.") +
test("a topical retrieval to its own collection passes", 'doc_retrieval(query: "chemotherapy side effects", top_k: 5)', "docs_oncology speculative confidence 0.3", "allow", "query: sensitive, top_k: public") +
test("a personal lookup to an internal CRM passes", 'crm_lookup(customer: "Maria Lopez", query: "open tickets")', "salesforce speculative confidence 0.5", "allow", "customer: personal, query: public") +
test("an intent-revealing query to a topical collection is blocked", 'doc_retrieval(query: "can I get out of my lease", top_k: 5)', "docs_legal committed", "block", "query: intent_revealing, top_k: public", "intent_flow"))

import os
os.makedirs('/work/main/stdlib-contracts/policies', exist_ok=True)
total = 0
for k, v in P.items():
    open(f'/work/main/stdlib-contracts/policies/{k}.stpc', 'w').write(v)
    total += v.count('\n    test "')
print(total)
