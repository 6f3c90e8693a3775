//! Unit tests of resolve + check through the public entry, with an
//! in-memory loader. Assertions name the code, the underlined text and a
//! prefix of the help, not a `Debug` dump.

use crate::diagnostics::{Code, Diagnostics};
use crate::hir::{self, Bound, CmpOp, Guard, Type};
use crate::source::SourceMap;
use std::collections::HashMap;

struct Run {
    map: SourceMap,
    diagnostics: Diagnostics,
    program: hir::Program,
}

fn run_files(root: &str, files: &[(&str, &str)]) -> Run {
    let mut map = SourceMap::new();
    let text = files
        .iter()
        .find(|(n, _)| *n == root)
        .map(|(_, t)| *t)
        .unwrap();
    let id = map.add(root, text);
    let mut loader: HashMap<String, String> = files
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    let mut diagnostics = Diagnostics::new();
    let program = crate::check(&mut map, &[id], &mut loader, &mut diagnostics);
    Run {
        map,
        diagnostics,
        program,
    }
}

fn run(text: &str) -> Run {
    run_files("main.stpc", &[("main.stpc", text)])
}

impl Run {
    fn codes(&self) -> Vec<Code> {
        self.diagnostics.codes()
    }

    /// Asserts the diagnostics with `code` underline exactly `snippets`.
    fn expect_all(&self, code: Code, snippets: &[&str]) {
        let found: Vec<&str> = self
            .diagnostics
            .iter()
            .filter(|d| d.code == code)
            .filter_map(|d| d.primary_span())
            .map(|s| self.map.slice(s))
            .collect();
        assert_eq!(found, snippets, "{code}");
    }

    /// Asserts exactly one diagnostic with `code`, underlining `snippet`,
    /// whose help starts with `help`.
    fn expect(&self, code: Code, snippet: &str, help: Option<&str>) {
        let found: Vec<_> = self.diagnostics.iter().filter(|d| d.code == code).collect();
        assert_eq!(
            found.len(),
            1,
            "expected one {code}, got {:?}",
            self.codes()
        );
        let d = found[0];
        let span = d.primary_span().unwrap();
        assert_eq!(
            self.map.slice(span),
            snippet,
            "{code} underlines the wrong text"
        );
        if let Some(h) = help {
            let actual = d.help.as_deref().unwrap_or("");
            assert!(
                actual.starts_with(h),
                "{code} help `{actual}` does not start with `{h}`"
            );
        }
    }
}

const PAPER: &str = r#"
use std::labels;
use std::observers;
use std::tools::{web_search, brave, duckduckgo};

lexicon intent { "break my lease" => "rental agreements" }
transform generic_query(text) -> public { replace lexicon intent; }

contract web(tau = 0.7) {
    tools web_search;
    destinations brave, duckduckgo;
    forbid args >= sensitive at provider, network;
    threshold speculative tau;
    budget b 5 per task counting args >= sensitive;
    audit to runtime_log without raw args;
    decide {
        block unless tool allowed;
        gate: defer when speculative and confidence < threshold;
        scrub: rewrite using generic_query when args.q >= sensitive;
        defer when budget b exhausted;
        allow;
    }
    test "gate" {
        call web_search(q: "x") to brave speculative confidence 0.5
        expect defer by gate;
    }
}
"#;

#[test]
fn the_paper_contract_checks_and_lowers_to_the_expected_hir() {
    let r = run(PAPER);
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    let p = &r.program;
    let args = p.args().unwrap();
    assert_eq!(args.name, "ArgLabel");
    assert!(args.total);
    let label = |n: &str| {
        args.labels
            .iter()
            .copied()
            .find(|l| p.label_name(*l) == n)
            .unwrap()
    };
    assert_eq!(p.leq(label("public"), label("sensitive")), Some(true));
    assert_eq!(
        args.join(label("personal"), label("sensitive")),
        Some(label("sensitive"))
    );
    assert_eq!(
        args.meet(label("personal"), label("sensitive")),
        Some(label("personal"))
    );
    assert_eq!(args.bottom, Some(label("public")));
    assert_eq!(args.top, Some(label("intent_revealing")));
    assert_eq!(args.at_or_above(label("sensitive")).len(), 2);
    assert!(p.committed.is_some());

    let c = p.contract("web").unwrap();
    let tool = p.tool(c.tools[0]).unwrap();
    assert_eq!(tool.name, "web_search");
    assert_eq!(tool.field("q").unwrap().ty, Type::Text);
    assert!(p.is_external(c.destinations[0]));
    assert_eq!(c.thresholds[0].value, 0.7);
    assert_eq!(c.thresholds[0].param, Some(hir::ParamId(0)));
    assert_eq!(c.rules.len(), 5);
    assert_eq!(c.rules[0].guard, Guard::Not(Box::new(Guard::ToolAllowed)));
    let speculative = hir::ModeId::from_index(
        p.modes
            .iter()
            .position(|m| m.name == "speculative")
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        c.rules[1].guard,
        Guard::And(vec![
            Guard::ModeIs(vec![speculative]),
            Guard::Confidence(CmpOp::Lt, Bound::ThresholdOfMode)
        ])
    );
    assert!(
        matches!(&c.rules[2].guard, Guard::ArgLabel { field: Some(f), op: CmpOp::Ge, .. } if f.name == "q")
    );
    assert_eq!(
        c.rules[3].guard,
        Guard::BudgetExhausted(Some(hir::BudgetId(0)))
    );
    assert!(c.rules[4].unguarded);
    assert_eq!(c.tests[0].expect_rule, Some(hir::RuleId(1)));
    assert_eq!(c.tests[0].confidence, Some(0.5));
}

#[test]
fn parameters_can_be_overridden() {
    let r = run(PAPER);
    let mut c = r.program.contract("web").unwrap().clone();
    assert_eq!(
        c.override_params(&[
            ("tau".into(), 0.3),
            ("nope".into(), 0.1),
            ("tau".into(), 2.0)
        ]),
        ["nope", "tau"]
    );
    assert_eq!(c.params[0].value, 0.3);
    assert_eq!(c.thresholds[0].value, 0.3);
}

#[test]
fn whole_module_and_item_imports_resolve_relative_to_the_importer() {
    let r = run_files(
        "dir/main.stpc",
        &[
            ("dir/main.stpc", "use lib::vocab;\nuse lib::more::extra;\ntransform t(text) -> public { replace lexicon words; replace lexicon extra; }\n"),
            ("dir/lib/vocab.stpc", "use std::labels;\nlexicon words { \"a\" }\n"),
            ("dir/lib/more.stpc", "lexicon extra { \"b\" }\nlexicon hidden { \"c\" }\n"),
        ],
    );
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(r.program.lexicons.len(), 3);
}

#[test]
fn an_item_import_does_not_bring_its_siblings() {
    let r = run_files(
        "main.stpc",
        &[
            ("main.stpc", "use std::labels;\nuse more::extra;\ntransform t(text) -> public { replace lexicon hidden; }\n"),
            ("more.stpc", "lexicon extra { \"b\" }\nlexicon hidden { \"c\" }\n"),
        ],
    );
    r.expect(Code::E0201, "hidden", None);
}

#[test]
fn a_named_import_wins_over_whole_module_imports() {
    let r = run_files(
        "main.stpc",
        &[
            ("main.stpc", "use std::labels;\nuse a;\nuse b;\nuse a::{health};\ntransform t(text) -> public { replace lexicon health; }\n"),
            ("a.stpc", "lexicon health { \"x\" }\n"),
            ("b.stpc", "lexicon health { \"y\" }\n"),
        ],
    );
    assert!(r.codes().is_empty(), "{:?}", r.codes());
}

#[test]
fn a_self_import_is_a_cycle() {
    let r = run("use main;\n");
    r.expect(Code::E0205, "use main;", Some("move the shared"));
}

#[test]
fn unknown_names_suggest_a_close_one() {
    let r = run("use std::tools::{web_search, brave};\ncontract c { tools web_serch; destinations brave; decide { block; } }\n");
    r.expect(Code::E0201, "web_serch", Some("did you mean `web_search`?"));
}

#[test]
fn labels_are_typed_against_their_lattice() {
    let r = run("use std::labels;\ntransform t(text) -> regulated { constant \"x\"; }\n");
    r.expect(Code::E0401, "regulated", None);
    let r = run("use std::labels;\ntransform t(text) -> publik { constant \"x\"; }\n");
    r.expect(Code::E0402, "publik", Some("did you mean `public`?"));
}

#[test]
fn a_diamond_is_a_partial_lattice() {
    let r = run("lattice D for args { bottom < left < top, bottom < right < top }\n");
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    let l = r.program.args().unwrap();
    assert!(!l.total);
    let id = |n: &str| {
        l.labels
            .iter()
            .copied()
            .find(|x| r.program.label_name(*x) == n)
            .unwrap()
    };
    assert_eq!(l.join(id("left"), id("right")), Some(id("top")));
    assert_eq!(l.meet(id("left"), id("right")), Some(id("bottom")));
    assert_eq!(l.leq(id("left"), id("right")), Some(false));
}

#[test]
fn a_cycle_names_its_labels() {
    let r = run("lattice L { a < b < c, c < a }\n");
    r.expect(Code::E0301, "L", None);
    let msg = &r.diagnostics.iter().next().unwrap().message;
    assert!(msg.contains("a < b < c < a"), "{msg}");
}

#[test]
fn rewrite_must_stay_below_every_cut() {
    let src = PAPER.replace("-> public", "-> personal").replace(
        "at provider, network;",
        "at provider, network;\n    forbid args >= personal at network;",
    );
    let r = run(&src);
    r.expect(
        Code::E0413,
        "scrub: rewrite using generic_query when args.q >= sensitive;",
        Some("use a transform"),
    );
}

#[test]
fn one_run_reports_independent_mistakes() {
    let src = PAPER
        .replace("threshold speculative tau;", "threshold speculative 3;")
        .replace("tools web_search;", "tools web_serch;")
        .replace("allow;\n    }", "allow when true;\n    }");
    let r = run(&src);
    assert_eq!(r.codes(), [Code::E0201, Code::E0403, Code::E0406]);
}

/// The names of the tools and destinations contract `c` allows.
fn allowed(r: &Run, c: &str) -> (Vec<String>, Vec<String>) {
    let c = r.program.contracts.iter().find(|x| x.name == c).unwrap();
    let tools = c
        .tools
        .iter()
        .map(|t| r.program.tools[t.0 as usize].name.clone())
        .collect();
    let dests = c
        .destinations
        .iter()
        .map(|d| r.program.destinations[d.0 as usize].name.clone())
        .collect();
    (tools, dests)
}

#[test]
fn sets_expand_in_their_own_scope_in_member_order_each_member_once() {
    // `lib` names std's `brave`; the root declares nothing of that name,
    // and reaches `brave` twice (directly and through `engines`).
    let r = run_files(
        "main.stpc",
        &[
            (
                "main.stpc",
                "use std::labels;\nuse std::observers;\nuse std::tools::{web_search, brave};\nuse lib::{engines, more};\n\
                 destination mine { host \"search.example\"; label public; observed by provider; }\n\
                 contract c { tools web_search; destinations mine, engines, brave, more; decide { allow; } }\n",
            ),
            (
                "lib.stpc",
                "use std::tools::{brave, duckduckgo, bing};\nset engines { brave, duckduckgo }\nset more { engines, bing }\n",
            ),
        ],
    );
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    let (tools, dests) = allowed(&r, "c");
    assert_eq!(tools, ["web_search"]);
    assert_eq!(dests, ["mine", "brave", "duckduckgo", "bing"]);
    // The program keeps each set's expansion, for tools that show it.
    let more = r.program.sets.iter().find(|s| s.name == "more").unwrap();
    let names: Vec<&str> = more
        .destinations
        .iter()
        .map(|d| r.program.destinations[d.0 as usize].name.as_str())
        .collect();
    assert_eq!(names, ["brave", "duckduckgo", "bing"]);
    assert!(more.tools.is_empty());
}

#[test]
fn a_set_member_must_name_a_tool_destination_or_set() {
    let r = run("use std::tools::{web_search};\nuse std::observers;\nset s { web_search, provider, nowhere }\n");
    r.expect(Code::E0203, "provider", None);
    r.expect(Code::E0201, "nowhere", None);
}

#[test]
fn set_errors_are_reported_once_where_the_set_is_declared() {
    // A cycle of three sets is one E0207 (at the first), however many
    // contracts list them; a contract listing a broken set adds nothing.
    let r = run("use std::tools::{web_search, brave};\n\
         set a { brave, b }\nset b { c }\nset c { a }\n\
         contract x { tools web_search; destinations a; decide { block; } }\n\
         contract y { tools web_search; destinations b, c; decide { block; } }\n");
    assert_eq!(r.codes(), [Code::E0207]);
    r.expect(Code::E0207, "a", None);
    assert!(allowed(&r, "x").1.is_empty());
}

#[test]
fn a_set_of_one_kind_is_refused_in_the_other_list() {
    let r = run(
        "use std::tools::{web_search, brave};\nset engines { brave }\nset search { web_search }\n\
         contract x { tools engines; destinations search; decide { block; } }\n",
    );
    assert_eq!(r.codes(), [Code::E0203, Code::E0203]);
}

#[test]
fn an_unused_set_is_a_warning() {
    let r = run(
        "use std::tools::{web_search, brave};\nset engines { brave }\n\
         contract x { tools web_search; destinations brave; decide { block; } }\n",
    );
    assert_eq!(r.codes(), [Code::W0001], "{:?}", r.codes());
}

fn contract<'a>(r: &'a Run, name: &str) -> &'a hir::Contract {
    r.program.contracts.iter().find(|x| x.name == name).unwrap()
}

fn rule_names(r: &Run, name: &str) -> Vec<String> {
    contract(r, name)
        .rules
        .iter()
        .map(|x| x.name.clone().unwrap_or_else(|| "_".into()))
        .collect()
}

/// A base with two tools, a cut, a threshold, a budget and a prelude.
const BASE: &str = "use std::labels;\nuse std::modes;\nuse std::observers;\n\
    use std::tools::{web_search, calendar_lookup, brave, google_calendar};\n\
    use std::labelers::{std_args, std_destinations};\n\
    contract base(tau = 0.7) {\n\
        tools web_search;\n destinations brave;\n labelers std_args, std_destinations;\n\
        forbid args >= intent_revealing at provider;\n threshold speculative tau;\n\
        audit to runtime_log without raw args;\n\
        decide {\n unknown: block unless tool allowed;\n gate: defer when confidence < threshold;\n allow;\n }\n\
    }\n";

#[test]
fn an_extension_inherits_everything_and_adds_to_its_lists() {
    let src = format!(
        "{BASE}contract mine(tau = 0.4) extends base {{\n\
            tools += calendar_lookup, web_search;\n destinations += google_calendar;\n\
            forbid args >= sensitive at provider;\n\
            decide {{ scrub: block when args >= sensitive; }}\n\
         }}\n"
    );
    let r = run(&src);
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    let (tools, dests) = allowed(&r, "mine");
    assert_eq!(tools, ["web_search", "calendar_lookup"]);
    assert_eq!(dests, ["brave", "google_calendar"]);
    let (m, b) = (contract(&r, "mine"), contract(&r, "base"));
    // Inherited labelers and audit; cuts added after the parent's.
    assert_eq!(m.labelers, b.labelers);
    assert_eq!(m.audit, b.audit);
    assert_eq!(m.forbids.len(), 2);
    assert_eq!(m.forbids[0], b.forbids[0]);
    // The parameter keeps its place and takes the new default, and the
    // threshold that reads it follows.
    assert_eq!(m.params.len(), 1);
    assert_eq!(m.params[0].value, 0.4);
    assert_eq!(m.thresholds.len(), 1);
    assert_eq!(m.thresholds[0].value, 0.4);
    assert_eq!(b.thresholds[0].value, 0.7);
    // The extension's rules run after the parent's and before its default.
    assert_eq!(rule_names(&r, "mine"), ["unknown", "gate", "scrub", "_"]);
    assert!(m.rules.last().unwrap().unguarded);
    // Tests are not inherited; the parent is unchanged.
    assert_eq!(rule_names(&r, "base"), ["unknown", "gate", "_"]);
}

#[test]
fn an_extension_replaces_what_it_restates() {
    let src = format!(
        "{BASE}contract mine extends base {{\n\
            tools calendar_lookup;\n destinations google_calendar;\n audit none;\n\
            threshold speculative 0.2;\n\
            decide {{ deny_all: block; }}\n\
         }}\n"
    );
    let r = run(&src);
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(
        allowed(&r, "mine"),
        (
            vec!["calendar_lookup".to_string()],
            vec!["google_calendar".to_string()]
        )
    );
    let m = contract(&r, "mine");
    assert!(m.audit.sinks.is_empty());
    assert_eq!(m.thresholds.len(), 1);
    assert_eq!(m.thresholds[0].value, 0.2);
    // A default of its own takes the place of the inherited one.
    assert_eq!(rule_names(&r, "mine"), ["unknown", "gate", "deny_all"]);
}

#[test]
fn an_extension_may_come_first_and_extend_an_extension() {
    let src = format!(
        "{BASE}contract top extends middle {{ destinations += google_calendar; }}\n\
         contract middle extends base {{ tools += calendar_lookup; }}\n"
    );
    let r = run(&src);
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(
        allowed(&r, "top"),
        (
            vec!["web_search".to_string(), "calendar_lookup".to_string()],
            vec!["brave".to_string(), "google_calendar".to_string()]
        )
    );
    // Declaration order is kept in the program.
    let names: Vec<&str> = r
        .program
        .contracts
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["base", "top", "middle"]);
}

#[test]
fn an_extension_may_not_reuse_an_inherited_rule_name() {
    let src = format!("{BASE}contract mine extends base {{ decide {{ gate: block; }} }}\n");
    let r = run(&src);
    r.expect(Code::E0202, "gate", None);
}

#[test]
fn extends_names_a_contract_in_scope_or_by_module_path() {
    let lib = (
        "policies/strict.stpc",
        "use std::tools::{web_search, brave};\nuse std::labelers::{std_args, std_destinations};\n\
         contract strict { tools web_search; destinations brave; labelers std_args, std_destinations; decide { block; } }\n",
    );
    // By path: the module is loaded, nothing is bound, so the extension
    // may take the name it extends.
    let r = run_files(
        "main.stpc",
        &[
            ("main.stpc", "contract strict extends policies::strict {}\n"),
            lib,
        ],
    );
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(r.program.contracts.len(), 2);
    // By path into std.
    let r = run("use std::tools::{web_search, bing};\n\
         contract mine extends std::policies::rewrite { tools += web_search; destinations += bing; }\n");
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(
        rule_names(&r, "mine"),
        rule_names(&r, "rewrite"),
        "the same pipeline"
    );
    // What is not a contract, or not there.
    let r = run("use std::tools::{web_search};\ncontract a extends web_search {}\n");
    r.expect(Code::E0203, "web_search", None);
    let r = run("contract a extends std::policies::rewrite::nothing {}\n");
    r.expect(Code::E0204, "std::policies::rewrite::nothing", None);
    let r = run("contract a extends std::policies::rewrit {}\n");
    r.expect(
        Code::E0204,
        "std::policies::rewrit",
        Some("did you mean `std::policies::rewrite`?"),
    );
}

#[test]
fn a_cycle_of_extends_is_one_error_and_nothing_else() {
    let r = run(
        "contract a extends b {}\ncontract b extends c {}\ncontract c extends a {}\n\
         contract d extends d {}\n",
    );
    assert_eq!(r.codes(), [Code::E0209, Code::E0209], "{:?}", r.codes());
    let messages: Vec<String> = r.diagnostics.iter().map(|d| d.message.clone()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m == "contract `a` extends itself: a extends b extends c extends a"),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.ends_with("itself: d extends d")),
        "{messages:?}"
    );
    // Reported at the first contract of the cycle.
    r.expect_all(Code::E0209, &["b", "d"]);
}

#[test]
fn plus_equals_needs_something_to_extend() {
    let r = run("use std::tools::{web_search, brave};\nuse std::labelers::{std_args, std_destinations};\n\
         contract a { tools += web_search; destinations brave; labelers std_args, std_destinations; decide { allow; } }\n");
    r.expect(
        Code::E0426,
        "tools += web_search;",
        Some("write `tools a, b;`"),
    );
    // The names still count.
    assert_eq!(allowed(&r, "a").0, ["web_search"]);
}

#[test]
fn an_extensions_blocks_run_before_the_first_inherited_rule_that_dispatches() {
    let r = run("contract mine extends std::policies::rewrite {\n\
         decide { writes: block when effect in {external_write}; later: defer when confidence < 0.1; }\n}\n");
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert_eq!(
        rule_names(&r, "mine"),
        [
            "unknown_tool",
            "unknown_destination",
            "unlabeled",
            "undeclared_destination",
            "writes",
            "ghost_shadow",
            "ghost_destination",
            "ghost_scrub",
            "scrub",
            "later",
            "_"
        ]
    );
}

#[test]
fn undeclared_in_a_destinations_list_allows_undeclared_destinations() {
    let r = run("use std::tools::all_destinations;\n\
         contract open extends std::policies::naive { destinations += undeclared; }\n\
         contract closed extends open { destinations all_destinations; }\n");
    assert!(r.codes().is_empty(), "{:?}", r.codes());
    assert!(contract(&r, "open").undeclared_destinations);
    assert!(!contract(&r, "naive").undeclared_destinations);
    // A plain list replaces the inherited one, `undeclared` included.
    assert!(!contract(&r, "closed").undeclared_destinations);
    assert_eq!(
        contract(&r, "open").destinations,
        contract(&r, "naive").destinations
    );
}

#[test]
fn chains_of_sets_or_extends_past_the_limit_are_e0118_not_a_stack_overflow() {
    // 20,000 nested sets would exhaust the stack of a recursive walk.
    let mut sets = String::from("use std::tools::{brave};\n");
    for i in 0..20_000 {
        sets.push_str(&format!("set s{i} {{ s{} }}\n", i + 1));
    }
    sets.push_str("set s20000 { brave }\n");
    let r = run(&sets);
    assert!(r.codes().contains(&Code::E0118), "{:?}", r.codes());
    assert_eq!(r.codes().iter().filter(|c| **c == Code::E0118).count(), 1);
    // Contracts declared child first, so each extends one not yet checked.
    let mut chain = String::from(
        "use std::tools::{web_search, brave};\nuse std::labelers::{std_args, std_destinations};\n",
    );
    for i in (1..3_000).rev() {
        chain.push_str(&format!("contract c{i} extends c{} {{}}\n", i - 1));
    }
    chain.push_str("contract c0 { tools web_search; destinations brave; labelers std_args, std_destinations; decide { allow; } }\n");
    let r = run(&chain);
    assert!(r.codes().contains(&Code::E0118), "{:?}", r.codes());
    // A chain within the limit is fine.
    let short: String = chain
        .lines()
        .filter(|l| {
            l.strip_prefix("contract c")
                .and_then(|x| x.split(' ').next())
                .and_then(|n| n.parse::<u32>().ok())
                .is_none_or(|n| n < 100)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let r = run(&short);
    assert!(r.codes().is_empty(), "{:?}", r.codes());
}
