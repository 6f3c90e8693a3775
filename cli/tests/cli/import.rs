//! `stpc import`: tool lists in the shapes MCP, OpenAI and Anthropic
//! document become contracts that check (warnings denied), compile, and are
//! in the canonical layout; bad input fails with a message and writes
//! nothing. (The proxy suite imports the `tools/list` of real MCP servers.)

#![expect(clippy::unwrap_used, reason = "a failed step fails the test")]

use crate::support::stpc;

const FIXTURES: [&str; 4] = [
    "mcp_response.json",
    "openai_chat.json",
    "openai_responses.json",
    "anthropic.json",
];

fn fixture(name: &str) -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cli/import")
            .join(name),
    )
    .unwrap()
}

#[test]
fn every_format_imports_to_a_contract_that_checks_compiles_and_is_formatted() {
    let dir = tempfile::tempdir().unwrap();
    for name in FIXTURES {
        std::fs::write(dir.path().join(name), fixture(name)).unwrap();
        let out = name.replace(".json", ".stpc");
        let run = stpc(dir.path(), &["import", name, "-o", &out], "");
        assert_eq!(run.code, 0, "{name}: {}", run.transcript());
        for args in [
            vec!["check", "--deny", "warnings", out.as_str()],
            vec!["compile", out.as_str(), "-o", "t.json"],
            vec!["fmt", "--check", out.as_str()],
        ] {
            let run = stpc(dir.path(), &args, "");
            assert_eq!(run.code, 0, "{name}: {args:?}: {}", run.transcript());
        }
    }
}

#[test]
fn an_mcp_tool_list_keeps_its_types_effects_and_names() {
    let dir = tempfile::tempdir().unwrap();
    let run = stpc(
        dir.path(),
        &["import", "--name", "notes", "-"],
        &fixture("mcp_response.json"),
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    insta::assert_snapshot!(run.stdout);
}

#[test]
fn openai_and_anthropic_types_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let chat = stpc(dir.path(), &["import", "-"], &fixture("openai_chat.json")).stdout;
    assert!(
        chat.contains("args { location: text, units: enum(celsius, fahrenheit) }"),
        "{chat}"
    );
    assert!(
        chat.contains("args { body: text, subject: text, to: entity }"),
        "{chat}"
    );
    // Nothing says what an OpenAI tool does: the cautious effect, a slot.
    assert_eq!(
        chat.matches("effect irreversible; // slot:").count(),
        2,
        "{chat}"
    );
    // Standard input has no file name: the server is `server`.
    assert!(
        chat.contains("contract server_policy extends std::base::fail_closed {"),
        "{chat}"
    );
    let anthropic = stpc(dir.path(), &["import", "-"], &fixture("anthropic.json")).stdout;
    assert!(
        anthropic.contains("args { as_of: time, exchanges: list(text), ticker: text }"),
        "{anthropic}"
    );
    // Only the description's first line, as a comment.
    assert!(anthropic.contains(
        "// Retrieves the current stock price for a given ticker symbol.\ntool get_stock_price {"
    ));
}

#[test]
fn a_named_format_overrides_recognition() {
    let dir = tempfile::tempdir().unwrap();
    // Read as Anthropic definitions, an MCP list has no `input_schema`: no
    // arguments.
    let run = stpc(
        dir.path(),
        &["import", "--from", "anthropic", "-"],
        &fixture("mcp_response.json"),
    );
    assert_eq!(run.code, 0, "{}", run.transcript());
    assert!(run.stdout.contains("tool append_note {"), "{}", run.stdout);
    assert!(!run.stdout.contains("note_id: text"), "{}", run.stdout);
}

#[test]
fn bad_input_fails_with_a_message_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (input, message) in [
        ("not json", "not JSON"),
        ("{\"x\": 1}", "no tool list found"),
        ("[{\"title\": \"x\"}]", "name it with `--from`"),
        (
            "[{\"inputSchema\": {}}]",
            "tool 1 is not an MCP `tools/list` result",
        ),
        ("[]", "empty"),
    ] {
        let run = stpc(dir.path(), &["import", "-", "-o", "out.stpc"], input);
        assert_eq!(run.code, 2, "{input}: {}", run.transcript());
        assert!(run.stderr.contains(message), "{input}: {}", run.stderr);
        assert!(!dir.path().join("out.stpc").exists(), "{input}");
    }
    let run = stpc(dir.path(), &["import", "missing.json"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read `missing.json`"),
        "{}",
        run.stderr
    );
}

/// The quickstart's MCP chapter (`book/src/quickstart-mcp.md`) stays true:
/// `examples/mcp_time/tools.json` is the reference time server's
/// `tools/list` answer; its import declares exactly the tools
/// `examples/mcp_time/time.stpc` declares; the extension of `std::policies::gate`
/// passes its tests; and the replay of the logged session defers the ghost
/// lookup and sends the committed one.
#[test]
fn the_mcp_quickstart_runs_as_the_book_says() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/mcp_time");
    let read = |n: &str| std::fs::read_to_string(root.join(n)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    for n in ["tools.json", "time.stpc", "session.jsonl"] {
        std::fs::write(dir.path().join(n), read(n)).unwrap();
    }
    let imported = stpc(dir.path(), &["import", "--name", "time", "tools.json"], "");
    assert_eq!(imported.code, 0, "{}", imported.transcript());
    let tools = |text: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut block: Option<String> = None;
        for line in text.lines() {
            if line.starts_with("tool ") {
                block = Some(String::new());
            }
            if let Some(b) = block.as_mut() {
                b.push_str(line);
                b.push('\n');
                if line == "}" {
                    out.extend(block.take());
                }
            }
        }
        out
    };
    assert_eq!(tools(&imported.stdout), tools(&read("time.stpc")));
    assert_eq!(tools(&imported.stdout).len(), 2);
    let test = stpc(dir.path(), &["test", "time.stpc"], "");
    assert_eq!(test.code, 0, "{}", test.transcript());
    assert!(
        test.stdout.contains("2 passed; 0 failed"),
        "{}",
        test.stdout
    );
    let replay = stpc(
        dir.path(),
        &[
            "replay",
            "--policy",
            "time.stpc",
            "--per-call",
            "session.jsonl",
        ],
        "",
    );
    assert_eq!(replay.code, 0, "{}", replay.transcript());
    let row = |call: &str| {
        replay
            .stdout
            .lines()
            .find(|l| l.starts_with(&format!("| trip | {call} |")))
            .unwrap_or_else(|| panic!("no row for call {call}:\n{}", replay.stdout))
            .to_owned()
    };
    assert!(row("3").contains("| defer | gate |"), "{}", row("3"));
    assert!(row("3").contains("| withheld |"), "{}", row("3"));
    assert!(row("4").contains("| allow |"), "{}", row("4"));
    assert!(row("4").contains("| sent |"), "{}", row("4"));
    // `stpc eval` takes the tool's one destination from the policies too.
    let eval = stpc(
        dir.path(),
        &[
            "eval",
            "session.jsonl",
            "--policy",
            "naive=time.stpc",
            "--policy",
            "time=time.stpc",
        ],
        "",
    );
    assert_eq!(eval.code, 0, "{}", eval.transcript());
    assert!(
        eval.stdout.contains("## Privacy and utility"),
        "{}",
        eval.stdout
    );
}
