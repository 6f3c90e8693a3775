//! `stpc lsp` end to end: a client talks LSP to the real binary over stdio
//! (see `lsp_client.rs`): diagnostics appear and clear, quick fixes repair,
//! hover and definition answer on the paper's contract (into `std` too),
//! formatting round-trips, completion offers keywords and names, and hostile
//! input never takes the server down.

#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "test code: a failure fails the test"
)]

use serde_json::{json, Value};

use crate::lsp_client::{uri, Client};

const PAPER: &str = include_str!("../../../examples/paper_web_search.stpc");

/// The paper's contract in a temporary directory, as the editor opens it.
fn paper() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("paper_web_search.stpc");
    std::fs::write(&path, PAPER).unwrap();
    let u = uri(&path);
    (dir, u)
}

/// The (line, character) of the first occurrence of `needle` after `after`,
/// plus `into` characters (ASCII text).
fn position(text: &str, after: &str, needle: &str, into: usize) -> Value {
    let base = text.find(after).unwrap();
    let at = base + text[base..].find(needle).unwrap() + into;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

fn at(u: &str, pos: Value) -> Value {
    json!({"textDocument": {"uri": u}, "position": pos})
}

/// Applies LSP text edits (UTF-16 positions, ASCII text here) to a text.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let ch = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + ch
    };
    let mut edits: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (s, e, t) in edits {
        out.replace_range(s..e, &t);
    }
    out
}

#[test]
fn diagnostics_appear_with_codes_and_clear_after_the_quick_fix() {
    let (_dir, u) = paper();
    let mut c = Client::start(false);
    c.open(&u, PAPER);
    assert_eq!(
        c.diagnostics(&u, 1),
        Vec::<Value>::new(),
        "the paper's contract is clean"
    );

    // Drop the `;` after `threshold speculative 0.7`.
    let broken = PAPER.replacen("threshold speculative 0.7;", "threshold speculative 0.7", 1);
    c.replace(&u, 2, &broken);
    let diags = c.diagnostics(&u, 2);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], "E0102", "{d}");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["source"], "stpc");
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("help: end the statement with `;`"),
        "{d}"
    );
    assert_eq!(
        d["range"]["start"],
        position(&broken, "threshold", "0.7", 3)
    );

    // The quick fix the diagnostic carries repairs the file.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": u}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let action = &actions.as_array().unwrap()[0];
    assert_eq!(action["kind"], "quickfix");
    let edits = action["edit"]["changes"][&u].as_array().unwrap();
    let fixed = apply(&broken, edits);
    assert_eq!(fixed, PAPER);
    c.replace(&u, 3, &fixed);
    assert_eq!(c.diagnostics(&u, 3), Vec::<Value>::new());

    // Verification runs too: an unsound rule is reported with its code.
    let unsound = PAPER.replacen("scrub: rewrite using generic_query", "scrub: allow", 1);
    c.replace(&u, 4, &unsound);
    let diags = c.diagnostics(&u, 4);
    assert!(
        diags
            .iter()
            .any(|d| d["code"].as_str().unwrap().starts_with("E06")),
        "{diags:?}"
    );
    // A misspelt action gets a "did you mean" fix.
    let typo = PAPER.replacen("unlabeled: block when", "unlabeled: blok when", 1);
    c.replace(&u, 5, &typo);
    let diags = c.diagnostics(&u, 5);
    assert_eq!(diags[0]["code"], "E0115", "{diags:?}");
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": u}, "range": diags[0]["range"], "context": {"diagnostics": []}}),
    );
    let edits = actions[0]["edit"]["changes"][&u].as_array().unwrap();
    assert_eq!(apply(&typo, edits), PAPER);
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn hover_and_definition_answer_on_the_paper_contract_and_into_std() {
    let (_dir, u) = paper();
    let mut c = Client::start(false);
    c.open(&u, PAPER);
    c.diagnostics(&u, 1);

    // A label from std: its lattice and its place in it.
    let hover = c.request(
        "textDocument/hover",
        at(&u, position(PAPER, "forbid args >=", "sensitive", 2)),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**label** `sensitive`"), "{text}");
    assert!(text.contains("in lattice"), "{text}");
    assert!(text.contains("below it:"), "{text}");
    assert_eq!(
        hover["range"]["start"],
        position(PAPER, "forbid args >=", "sensitive", 0)
    );

    // A tool: its fields and destinations.
    let hover = c.request(
        "textDocument/hover",
        at(&u, position(PAPER, "contract web_default", "web_search", 1)),
    );
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**tool** `web_search`"), "{text}");
    assert!(
        text.contains("fields:") && text.contains("`q: text`"),
        "{text}"
    );
    assert!(text.contains("`brave`"), "{text}");

    // A lexicon behind a transform, a labeler, a budget of this file.
    for (after, word, kind) in [
        ("labelers std_args", "std_args", "**labeler** `std_args`"),
        (
            "budget sensitive_dispatches 5",
            "sensitive_dispatches",
            "**budget**",
        ),
        (
            "use std::transforms::",
            "generic_query",
            "**transform** `generic_query`",
        ),
    ] {
        let hover = c.request(
            "textDocument/hover",
            at(&u, position(PAPER, after, word, 1)),
        );
        let text = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(text.contains(kind), "{word}: {hover}");
    }

    // Definition of a std tool: a read-only file holding its declaration.
    let def = c.request(
        "textDocument/definition",
        at(&u, position(PAPER, "contract web_default", "web_search", 3)),
    );
    let loc = &def.as_array().unwrap()[0];
    let target = lsp_types::Url::parse(loc["uri"].as_str().unwrap())
        .unwrap()
        .to_file_path()
        .unwrap();
    let std_text = std::fs::read_to_string(&target).unwrap();
    assert!(std::fs::metadata(&target).unwrap().permissions().readonly());
    let line = loc["range"]["start"]["line"].as_u64().unwrap() as usize;
    let ch = loc["range"]["start"]["character"].as_u64().unwrap() as usize;
    let decl_line = std_text.lines().nth(line).unwrap();
    assert!(decl_line[ch..].starts_with("web_search"), "{decl_line}");
    assert!(decl_line.contains("tool"), "{decl_line}");

    // Definition of a rule name of this file stays in this file.
    let def = c.request(
        "textDocument/definition",
        at(&u, position(PAPER, "expect rewrite by", "scrub", 1)),
    );
    let loc = &def.as_array().unwrap()[0];
    assert_eq!(loc["uri"], u.as_str());
    assert_eq!(
        loc["range"]["start"],
        position(PAPER, "decide {", "scrub", 0)
    );

    // Nothing to say about whitespace.
    let none = c.request(
        "textDocument/hover",
        at(&u, json!({"line": 0, "character": 0})),
    );
    assert!(none.is_null() || none["contents"].is_object(), "{none}");
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn formatting_round_trips_through_stpc_fmt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("messy.stpc");
    let messy = PAPER
        .replace("    tools web_search;", "tools    web_search ;")
        .replace("        allow;\n", "            allow;\n");
    std::fs::write(&path, &messy).unwrap();
    let u = uri(&path);
    let mut c = Client::start(false);
    c.open(&u, &messy);
    let edits = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    let formatted = apply(&messy, edits.as_array().unwrap());
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(["fmt", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_ne!(
        cli.status.code(),
        Some(0),
        "the messy file is not formatted"
    );
    std::fs::write(&path, &formatted).unwrap();
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_stpc"))
        .args(["fmt", "--check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        cli.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&cli.stdout)
    );
    // Formatting a formatted document changes nothing.
    c.replace(&u, 2, &formatted);
    let again = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": u}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(again, json!([]));
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn completion_offers_keywords_and_declared_names() {
    let (_dir, u) = paper();
    let mut c = Client::start(true);
    c.open(&u, PAPER);
    c.diagnostics(&u, 1);
    let items = c.request(
        "textDocument/completion",
        at(&u, position(PAPER, "tools web_search;", ";", 0)),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for want in [
        "forbid",
        "rewrite",
        "web_search",
        "sensitive",
        "brave",
        "generic_query",
    ] {
        assert!(labels.contains(&want), "{want} missing from {labels:?}");
    }
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn hostile_edits_and_messages_never_crash_the_server() {
    let (_dir, u) = paper();
    let mut c = Client::start(false);
    c.open(&u, PAPER);
    c.diagnostics(&u, 1);
    // Half-typed files: every prefix of the contract at a coarse stride.
    let mut version = 1;
    for cut in (0..PAPER.len()).step_by(97) {
        version += 1;
        c.replace(&u, version, &PAPER[..cut]);
    }
    c.diagnostics(&u, version);
    // Ranges past the end, backwards, and inside a surrogate pair.
    version += 1;
    c.replace(&u, version, "// 😀 emoji\ncontract x {");
    for range in [
        json!({"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 4}}),
        json!({"start": {"line": 90, "character": 0}, "end": {"line": 91, "character": 3}}),
        json!({"start": {"line": 1, "character": 9}, "end": {"line": 0, "character": 2}}),
        json!({"start": {"line": 0, "character": 4000000000u64}, "end": {"line": 4000000000u64, "character": 0}}),
    ] {
        version += 1;
        c.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": u, "version": version},
                   "contentChanges": [{"range": range, "text": "é"}]}),
        );
    }
    // The last range replaced everything after the first line: a comment.
    assert_eq!(c.diagnostics(&u, version), Vec::<Value>::new());
    // Deep nesting and a long `and` chain answer with diagnostics.
    version += 1;
    c.replace(
        &u,
        version,
        &format!("contract x {{ decide {{ allow when {}", "(".repeat(5000)),
    );
    c.diagnostics(&u, version);
    // Malformed requests and notifications are errors, not crashes.
    let bad = c.request("textDocument/hover", json!({"nope": true}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let unknown = c.request("stpc/unknown", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    c.notify("textDocument/didChange", json!({"garbage": 1}));
    c.notify("textDocument/didOpen", json!([1, 2, 3]));
    // Requests about documents that are not open answer nothing.
    let none = c.request(
        "textDocument/hover",
        at("file:///nowhere.stpc", json!({"line": 0, "character": 0})),
    );
    assert!(none.is_null(), "{none}");
    // The server still works.
    version += 1;
    c.replace(&u, version, PAPER);
    assert_eq!(c.diagnostics(&u, version), Vec::<Value>::new());
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn every_keyword_of_the_grammar_is_highlighted_by_both_editor_grammars() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let textmate =
        std::fs::read_to_string(root.join("editors/vscode/syntaxes/stpc.tmLanguage.json")).unwrap();
    let hljs = std::fs::read_to_string(root.join("book/stpc-highlight.js")).unwrap();
    let words = |text: &str| -> std::collections::BTreeSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_owned)
            .collect()
    };
    // Only the keyword lists count: the TextMate `keywords` patterns and
    // highlight.js's `keywords` object.
    let textmate: Value = serde_json::from_str(&textmate).unwrap();
    let tm_lists: Vec<&str> = textmate["repository"]["keywords"]["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["match"].as_str().unwrap())
        .collect();
    let start = hljs.find("keywords: {").unwrap();
    let end = start + hljs[start..].find("},").unwrap();
    let (tm, hl) = (words(&tm_lists.join(" ")), words(&hljs[start..end]));
    let keywords = stpc_cli::lsp::keywords();
    assert!(keywords.len() > 80, "{keywords:?}");
    let missing: Vec<&&str> = keywords
        .iter()
        .filter(|k| !tm.contains(**k) || !hl.contains(**k))
        .collect();
    assert!(missing.is_empty(), "not highlighted: {missing:?}");
}

#[test]
fn the_server_ends_by_the_protocol_and_never_panics_on_broken_framing() {
    // `exit` without `shutdown`: status 1.
    let mut c = Client::start(false);
    c.notify("exit", Value::Null);
    assert_eq!(c.wait(), 1);
    // A frame that is not JSON: the transport fails, the server says so and
    // exits 2, without a panic.
    let mut c = Client::start(false);
    c.send_raw(b"Content-Length: 5\r\n\r\nnope!");
    assert_eq!(c.wait(), 2);
    std::thread::sleep(std::time::Duration::from_millis(100));
    let stderr = c.stderr.lock().unwrap().clone();
    assert!(stderr.contains("language server"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn hover_shows_a_sets_members_and_what_a_contract_extends() {
    const TEXT: &str = "use std::tools::{web_search, all_tools};\n\
        contract mine extends std::policies::rewrite {\n    tools all_tools;\n    \
        destinations += undeclared;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.stpc");
    std::fs::write(&path, TEXT).unwrap();
    let u = uri(&path);
    let mut c = Client::start(false);
    c.open(&u, TEXT);
    c.diagnostics(&u, 1);
    let hover = |c: &mut Client, after: &str, word: &str| {
        let h = c.request("textDocument/hover", at(&u, position(TEXT, after, word, 1)));
        h["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let set = hover(&mut c, "tools all_", "all_tools");
    assert!(set.contains("**set** `all_tools`"), "{set}");
    assert!(
        set.contains("tools: ") && set.contains("`web_search`"),
        "{set}"
    );
    let contract = hover(&mut c, "contract ", "mine");
    assert!(contract.contains("extends `rewrite`"), "{contract}");
    assert!(contract.contains("undeclared ones by label"), "{contract}");
    // The parent is a contract to go to.
    let parent = hover(&mut c, "std::policies::", "rewrite");
    assert!(parent.contains("**contract** `rewrite`"), "{parent}");
    assert_eq!(c.shutdown(), 0);
}
