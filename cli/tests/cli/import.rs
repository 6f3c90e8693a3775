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
    assert!(chat.contains("contract server_policy {"), "{chat}");
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
