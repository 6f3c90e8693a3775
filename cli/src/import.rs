//! `stpc import`: a tool list as `.stpc` declarations and a contract to
//! start from.
//!
//! It reads what agents already have: an MCP `tools/list` result (the
//! JSON-RPC response, its `result`, or the `tools` array), OpenAI tool
//! definitions (Chat Completions' `{"type": "function", "function": …}` or
//! the Responses API's flat `{"type": "function", "name": …}`) and
//! Anthropic tool definitions (`input_schema`). The format is recognised
//! from each tool's shape, or named with `--from`.
//!
//! What it writes, for each tool:
//!
//! - its arguments, typed from the JSON Schema (`string` → `text`, a
//!   date or time format → `time`, an e-mail address → `entity`, a string
//!   enum of identifiers → `enum(…)`, `number`/`integer` → `number`,
//!   `array` → `list(…)`; an object or a schema without a type → `text`,
//!   whose every string the labeler reads);
//! - its effect class, from the MCP annotations where the server gives
//!   them (`readOnlyHint`, `openWorldHint`, `destructiveHint`,
//!   `idempotentHint`, with the defaults the MCP specification gives
//!   absent hints), and `irreversible`, the most cautious class, where
//!   nothing says otherwise;
//! - its destination: one per server, with a label slot.
//!
//! The label slots (the destination's label, an effect no annotation
//! gave) are marked `slot:` in comments and filled with the cautious
//! value, so the output checks and compiles as it is and nothing is more
//! permissive than the user chose. The contract at the end extends
//! `std::base::fail_closed` (the fail-closed prelude every std policy
//! shares, the std labelers and audit) with the server's tools and
//! destination in place of std's, a cut at `sensitive` for the provider, a
//! confidence gate, and speculative writes deferred to their branch.
//!
//! Names that are not `.stpc` identifiers (MCP's `get-sum`) are rewritten
//! (`get_sum`) with a comment giving the proxy's `--tool-alias`; argument
//! names that are not identifiers are left out with a comment (the runtime
//! labels such keys, and records them as `<undeclared>`). Descriptions
//! become one-line comments.
//!
//! The output is built as text and then put through the formatter, so it
//! is in the canonical layout (`stpc fmt --check` passes on it).

use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::{output, Global, Outcome};

/// Arguments of `stpc import`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The tool list (JSON); `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub input: String,
    /// The format of the tool list [default: recognised from its shape].
    #[arg(long, value_enum)]
    pub from: Option<From>,
    /// The server's name: it names the destination and the contract
    /// [default: the input file's stem, or `server`].
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Where to write the contract (atomically) [default: standard output].
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Tool-list formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    /// An MCP `tools/list` result (tools with `inputSchema`).
    Mcp,
    /// OpenAI function tools (`parameters`).
    Openai,
    /// Anthropic tools (`input_schema`).
    Anthropic,
}

impl From {
    fn describe(self) -> &'static str {
        match self {
            From::Mcp => "an MCP `tools/list` result",
            From::Openai => "OpenAI tool definitions",
            From::Anthropic => "Anthropic tool definitions",
        }
    }
}

/// One tool as the three formats describe it.
#[derive(Debug)]
struct Tool<'a> {
    name: &'a str,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
    annotations: Option<&'a Map<String, Value>>,
}

/// Runs `stpc import`.
pub fn run(global: &Global, args: ImportArgs) -> Outcome {
    let text = match crate::inputs::read_text(&args.input) {
        Ok(t) => t,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let name = args.name.clone().unwrap_or_else(|| {
        std::path::Path::new(&args.input)
            .file_stem()
            .filter(|_| args.input != "-")
            .map_or_else(|| "server".to_owned(), |s| s.to_string_lossy().into_owned())
    });
    let contract = match import(&text, args.from, &name) {
        Ok(c) => c,
        Err(message) => {
            output::fail(global, &format!("`{}`: {message}", args.input));
            return Outcome::Failure;
        }
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = output::write_atomic(path, contract.as_bytes()) {
                output::fail(global, &format!("cannot write `{}`: {e}", path.display()));
                return Outcome::Failure;
            }
        }
        None => crate::out!("{contract}"),
    }
    Outcome::Success
}

/// The contract for the tool list `text`, in the canonical layout.
///
/// # Errors
///
/// The input is not JSON, holds no tool list of a known shape, or a tool
/// has no name.
pub fn import(text: &str, from: Option<From>, name: &str) -> Result<String, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let list = tool_list(&value).ok_or(
        "no tool list found: expected an MCP `tools/list` result, a `tools` array, \
         or an array of OpenAI or Anthropic tool definitions",
    )?;
    let format = match from {
        Some(f) => f,
        None => recognise(list)?,
    };
    let mut tools = Vec::with_capacity(list.len());
    for (i, t) in list.iter().enumerate() {
        tools.push(tool(t, format).ok_or_else(|| {
            format!(
                "tool {} is not {} (it needs a `name`)",
                i + 1,
                format.describe()
            )
        })?);
    }
    if tools.is_empty() {
        return Err("the tool list is empty".to_owned());
    }
    let text = render(&tools, format, &identifier(name, "server"));
    // The formatter gives the canonical layout; what it cannot read would
    // be a bug here, so the unformatted text is not silently returned.
    let mut map = stpc_compiler::SourceMap::new();
    let file = map.add("imported.stpc", text.clone());
    let mut diagnostics = stpc_compiler::Diagnostics::new();
    stpc_compiler::fmt::format(file, &text, &mut diagnostics)
        .filter(|_| !diagnostics.has_errors())
        .ok_or_else(|| "the imported contract does not parse (a bug in `stpc import`)".to_owned())
}

/// The array of tools in `value`, wherever the format puts it.
fn tool_list(value: &Value) -> Option<&Vec<Value>> {
    match value {
        Value::Array(a) => Some(a),
        Value::Object(o) => {
            if let Some(Value::Array(a)) = o.get("tools") {
                return Some(a);
            }
            // A JSON-RPC response: `{"jsonrpc": "2.0", "id": …, "result": {"tools": […]}}`.
            o.get("result").and_then(tool_list)
        }
        _ => None,
    }
}

/// The format of `list`, from its first tool's shape.
fn recognise(list: &[Value]) -> Result<From, String> {
    let Some(first) = list.first().and_then(Value::as_object) else {
        return Err("the tool list is empty or its first entry is not an object".to_owned());
    };
    if first.contains_key("inputSchema") {
        Ok(From::Mcp)
    } else if first.contains_key("input_schema") {
        Ok(From::Anthropic)
    } else if first.contains_key("function") || first.contains_key("parameters") {
        Ok(From::Openai)
    } else {
        Err(
            "cannot tell the format of the tool list (no `inputSchema`, `input_schema`, \
             `function` or `parameters`): name it with `--from`"
                .to_owned(),
        )
    }
}

fn tool(value: &Value, format: From) -> Option<Tool<'_>> {
    let o = value.as_object()?;
    // Chat Completions nests the definition under `function`.
    let def = match (format, o.get("function")) {
        (From::Openai, Some(Value::Object(f))) => f,
        _ => o,
    };
    let schema_key = match format {
        From::Mcp => "inputSchema",
        From::Openai => "parameters",
        From::Anthropic => "input_schema",
    };
    Some(Tool {
        name: def.get("name")?.as_str()?,
        description: def.get("description").and_then(Value::as_str),
        schema: def.get(schema_key),
        annotations: o.get("annotations").and_then(Value::as_object),
    })
}

/// `name` as a `.stpc` identifier: other characters become `_`, a leading
/// digit gets `_` before it, and a reserved word gets `_` after it.
fn identifier(name: &str, fallback: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.chars().all(|c| c == '_') {
        out = fallback.to_owned();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if RESERVED.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

fn is_identifier(name: &str) -> bool {
    identifier(name, "") == name && !name.is_empty()
}

/// Words the grammar never reads as an identifier.
const RESERVED: [&str; 7] = ["when", "unless", "and", "or", "not", "true", "false"];

/// One line of a description, safe in a `//` comment.
fn comment_line(text: &str) -> String {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut out: String = line.chars().filter(|c| !c.is_control()).take(100).collect();
    if line.chars().count() > 100 {
        out.push('…');
    }
    out
}

/// The `.stpc` type of a JSON Schema, and a note when the mapping lost
/// something.
fn field_type(schema: &Value) -> String {
    let Some(o) = schema.as_object() else {
        return "text".to_owned();
    };
    // `anyOf`/`oneOf` (optional values are often `[T, null]`): the first
    // alternative that is not `null`.
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = o.get(key) {
            if let Some(alt) = alts.iter().find(|a| type_name(a) != Some("null")) {
                return field_type(alt);
            }
        }
    }
    match type_name(schema) {
        Some("string") => {
            let format = o.get("format").and_then(Value::as_str).unwrap_or("");
            if matches!(format, "date" | "date-time" | "time") {
                return "time".to_owned();
            }
            if matches!(format, "email" | "idn-email") {
                return "entity".to_owned();
            }
            if let Some(Value::Array(values)) = o.get("enum") {
                let words: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                let mut seen = std::collections::BTreeSet::new();
                if !words.is_empty()
                    && words.len() == values.len()
                    && words.iter().all(|w| is_identifier(w) && seen.insert(*w))
                {
                    return format!("enum({})", words.join(", "));
                }
            }
            "text".to_owned()
        }
        // A boolean has no type of its own; its value labels as a number's.
        Some("number" | "integer" | "boolean") => "number".to_owned(),
        Some("array") => format!(
            "list({})",
            o.get("items").map_or_else(|| "text".to_owned(), field_type)
        ),
        _ => "text".to_owned(),
    }
}

/// A schema's `type`, the first that is not `null` where it is a list.
fn type_name(schema: &Value) -> Option<&str> {
    match schema.get("type")? {
        Value::String(s) => Some(s),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// The effect class of an MCP tool, from its annotations, and why.
///
/// The MCP specification's defaults apply to absent hints: a tool is not
/// read-only, is destructive, is not idempotent and reaches an open world
/// unless it says otherwise. Without annotations at all (and in the other
/// formats) nothing is said, and the effect is the most cautious class.
fn effect(annotations: Option<&Map<String, Value>>) -> (&'static str, String) {
    let Some(a) = annotations.filter(|a| {
        [
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        ]
        .iter()
        .any(|k| a.contains_key(*k))
    }) else {
        return (
            "irreversible",
            "slot: no annotation says what this tool does; `irreversible` until you say".to_owned(),
        );
    };
    let hint = |k: &str, default: bool| a.get(k).and_then(Value::as_bool).unwrap_or(default);
    let read_only = hint("readOnlyHint", false);
    let open_world = hint("openWorldHint", true);
    let destructive = hint("destructiveHint", true);
    let idempotent = hint("idempotentHint", false);
    if read_only {
        if open_world {
            ("external_read", "read-only, open world".to_owned())
        } else {
            ("local_read", "read-only, closed world".to_owned())
        }
    } else if destructive {
        ("irreversible", "not read-only, destructive".to_owned())
    } else if idempotent {
        (
            "external_write",
            "not read-only, not destructive, idempotent".to_owned(),
        )
    } else {
        (
            "semi_stateful",
            "not read-only, not destructive, not idempotent".to_owned(),
        )
    }
}

fn render(tools: &[Tool<'_>], format: From, server: &str) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Imported by `stpc import` from {}.",
        format.describe()
    );
    let _ = writeln!(
        s,
        "// In front of an MCP server: `stpc compile` this file, then\n\
         // `stpc mcp-proxy --table TABLE --destination {server} -- SERVER…`."
    );
    s.push_str(
        "//\n\
         // Label slots to fill before deploying are marked `slot:`; each holds the\n\
         // cautious value until then, so this file checks and compiles as it is.\n\
         use std::labels;\n\
         use std::modes;\n\
         use std::observers;\n\n",
    );
    let _ = writeln!(
        s,
        "// slot: what calling `{server}` reveals (`public` if naming it reveals nothing).\n\
         destination {server} {{\n    collection \"{server}\";\n    label sensitive;\n    \
         observed by provider;\n}}\n"
    );
    let mut names: Vec<String> = Vec::with_capacity(tools.len());
    // Whether any tool writes (else a rule for speculative writes would
    // decide nothing: W0602).
    let mut writes = false;
    // Whether any tool only reads (else the confidence gate would come
    // after the rule that defers every speculative call).
    let mut reads = false;
    for t in tools {
        let mut name = identifier(t.name, "tool");
        while names.contains(&name) || name == server || name == format!("{server}_policy") {
            name.push('_');
        }
        if let Some(d) = t.description.map(comment_line).filter(|d| !d.is_empty()) {
            let _ = writeln!(s, "// {d}");
        }
        if name != t.name {
            let _ = writeln!(
                s,
                "// The server calls it `{}`: `stpc mcp-proxy --tool-alias {}={name}`.",
                comment_line(t.name),
                comment_line(t.name)
            );
        }
        let (effect, why) = effect(t.annotations);
        let reads_only = matches!(effect, "pure_local" | "local_read" | "external_read");
        writes |= !reads_only;
        reads |= reads_only;
        let _ = writeln!(s, "tool {name} {{\n    effect {effect}; // {why}");
        let properties = t
            .schema
            .and_then(|v| v.get("properties"))
            .and_then(Value::as_object);
        let mut fields = Vec::new();
        let mut skipped = Vec::new();
        for (key, schema) in properties.into_iter().flatten() {
            if is_identifier(key) {
                fields.push(format!("{key}: {}", field_type(schema)));
            } else {
                skipped.push(comment_line(key));
            }
        }
        for k in &skipped {
            let _ = writeln!(
                s,
                "    // `{k}` is not an identifier: the runtime labels it as an undeclared key."
            );
        }
        let _ = writeln!(s, "    args {{ {} }}", fields.join(", "));
        let _ = writeln!(s, "    destinations {server};\n}}\n");
        names.push(name);
    }
    let _ = writeln!(
        s,
        "contract {server}_policy extends std::base::fail_closed {{\n    \
         tools {};\n    destinations {server};\n    \
         forbid args >= sensitive at provider;\n    \
         {threshold}\n    \
         decide {{\n        \
         sensitive: block when args >= sensitive;\n        \
         {writes}\
         {gate}\
         }}\n}}",
        names.join(", "),
        threshold = if reads {
            "threshold speculative 0.7;\n    "
        } else {
            ""
        },
        gate = if reads {
            "gate: defer when speculative and confidence < threshold;\n        "
        } else {
            ""
        },
        writes = if writes {
            "writes_wait: defer when not committed and effect in \
             {external_write, semi_stateful, irreversible};\n        "
        } else {
            ""
        }
    );
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests")]

    use super::*;

    #[test]
    fn schema_types_map_to_field_types() {
        let t = |v: Value| field_type(&v);
        assert_eq!(t(serde_json::json!({"type": "string"})), "text");
        assert_eq!(
            t(serde_json::json!({"type": "string", "format": "date-time"})),
            "time"
        );
        assert_eq!(
            t(serde_json::json!({"type": "string", "format": "email"})),
            "entity"
        );
        assert_eq!(
            t(serde_json::json!({"type": "string", "enum": ["asc", "desc"]})),
            "enum(asc, desc)"
        );
        // Not identifiers, or repeated: free text.
        assert_eq!(
            t(serde_json::json!({"type": "string", "enum": ["a b", "c"]})),
            "text"
        );
        assert_eq!(
            t(serde_json::json!({"type": "string", "enum": ["a", "a"]})),
            "text"
        );
        assert_eq!(t(serde_json::json!({"type": "integer"})), "number");
        assert_eq!(t(serde_json::json!({"type": "boolean"})), "number");
        assert_eq!(
            t(serde_json::json!({"type": "array", "items": {"type": "string"}})),
            "list(text)"
        );
        assert_eq!(t(serde_json::json!({"type": "array"})), "list(text)");
        assert_eq!(t(serde_json::json!({"type": ["null", "number"]})), "number");
        assert_eq!(
            t(
                serde_json::json!({"anyOf": [{"type": "null"}, {"type": "string", "format": "date"}]})
            ),
            "time"
        );
        assert_eq!(t(serde_json::json!({"type": "object"})), "text");
        assert_eq!(t(serde_json::json!({})), "text");
    }

    #[test]
    fn annotations_map_to_effect_classes() {
        let e = |v: Value| effect(v.as_object()).0;
        assert_eq!(
            e(serde_json::json!({"readOnlyHint": true, "openWorldHint": false})),
            "local_read"
        );
        assert_eq!(
            e(serde_json::json!({"readOnlyHint": true})),
            "external_read"
        );
        assert_eq!(
            e(serde_json::json!({"readOnlyHint": false})),
            "irreversible"
        );
        assert_eq!(
            e(serde_json::json!({"destructiveHint": false, "idempotentHint": true})),
            "external_write"
        );
        assert_eq!(
            e(serde_json::json!({"destructiveHint": false})),
            "semi_stateful"
        );
        // Only a title: nothing is said about the effect.
        assert_eq!(e(serde_json::json!({"title": "Echo"})), "irreversible");
        assert_eq!(effect(None).0, "irreversible");
    }

    #[test]
    fn names_become_identifiers() {
        assert_eq!(identifier("get-sum", "t"), "get_sum");
        assert_eq!(identifier("2fa", "t"), "_2fa");
        assert_eq!(identifier("when", "t"), "when_");
        assert_eq!(identifier("---", "t"), "t");
        assert!(is_identifier("repo_path") && !is_identifier("max-length") && !is_identifier(""));
    }

    #[test]
    fn each_format_is_recognised_and_unknown_shapes_are_refused() {
        let mcp = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}"#;
        let openai =
            r#"[{"type":"function","function":{"name":"a","parameters":{"type":"object"}}}]"#;
        let responses = r#"[{"type":"function","name":"a","parameters":{"type":"object"}}]"#;
        let anthropic = r#"{"tools":[{"name":"a","input_schema":{"type":"object"}}]}"#;
        for (text, format) in [
            (mcp, From::Mcp),
            (openai, From::Openai),
            (responses, From::Openai),
            (anthropic, From::Anthropic),
        ] {
            let v: Value = serde_json::from_str(text).unwrap();
            assert_eq!(recognise(tool_list(&v).unwrap()).unwrap(), format, "{text}");
        }
        assert!(import("[{\"title\": \"x\"}]", None, "s")
            .unwrap_err()
            .contains("--from"));
        assert!(import("{\"x\": 1}", None, "s")
            .unwrap_err()
            .contains("no tool list"));
        assert!(import("[]", None, "s").is_err());
        assert!(import("not json", None, "s")
            .unwrap_err()
            .contains("line 1"));
        assert!(import(r#"[{"inputSchema": {}}]"#, None, "s")
            .unwrap_err()
            .contains("tool 1"));
    }
}
