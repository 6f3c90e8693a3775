//! `stpc mcp-proxy --table T [--audit FILE] --destination D -- SERVER…`: an
//! MCP gateway on stdio. The MCP client starts this command instead of the
//! server; it starts the real server and passes every message through, and
//! decides every `tools/call` at issue time with the table (see
//! `stpc_proxy`). Standard output is the protocol channel: everything this
//! command says goes to standard error.

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::sync::Arc;

use serde_json::{json, Value};
use stpc_proxy::gateway::{Gateway, Substitute};
use stpc_proxy::mcp::{Options, Proxy, Upstream};
use stpc_runtime::audit::AuditSink;
use stpc_runtime::Engine;

use crate::{output, Global, Outcome};

/// Arguments of `stpc mcp-proxy`.
#[derive(clap::Args, Debug)]
pub struct McpProxyArgs {
    /// The compiled table every `tools/call` is decided with.
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// Where the upstream server sends what it is given: a destination the
    /// table declares (name, host or URL). A server the table does not know
    /// gets every call BLOCKed as to an unknown destination.
    #[arg(long, value_name = "DESTINATION")]
    pub destination: String,
    /// Append the runtime's audit records here (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub audit: Option<String>,
    /// The implementation of a substitute the table names: a command that
    /// reads the call (`{"tool", "destination", "args"}`) on standard input
    /// and writes the result (JSON) on standard output; or, as
    /// `NAME=mcp:COMMAND`, a local MCP server (started once) that gets the
    /// call as a `tools/call` of the same tool. It runs locally; its result
    /// answers a SHADOWed call. Repeat for several.
    #[arg(long = "substitute", value_name = "NAME=COMMAND")]
    pub substitutes: Vec<String>,
    /// The contract's name of one of the server's tools, for names that are
    /// not identifiers (`--tool-alias get-sum=get_sum`): the call is decided
    /// as the contract's tool and forwarded under the server's name. Repeat
    /// for several.
    #[arg(long = "tool-alias", value_name = "SERVER_NAME=TOOL")]
    pub tool_aliases: Vec<String>,
    /// Hide from `tools/list` the tools the table does not declare (it
    /// blocks them all).
    #[arg(long)]
    pub hide_undeclared: bool,
    /// Verify the table on load (as `stpc verify`) and refuse it on any
    /// error.
    #[arg(long)]
    pub verify_on_load: bool,
    /// Signature requirements.
    #[command(flatten)]
    pub trust: crate::sign::TrustArgs,
    /// The upstream server's streamable-HTTP endpoint (`http://host/mcp`),
    /// instead of a command to start.
    #[arg(long, value_name = "URL", conflicts_with = "server")]
    pub upstream: Option<String>,
    /// Serve MCP clients over streamable HTTP at `http://ADDR/mcp` instead
    /// of on standard input and output: one upstream connection and one
    /// set of tasks per session (port 0: any free port, printed on start).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<std::net::SocketAddr>,
    /// With `--listen`: accept requests with this `Host` besides the
    /// loopback names (repeat for several); others are refused, so a web
    /// page cannot reach the proxy by DNS rebinding.
    #[arg(long = "allow-host", value_name = "HOST", requires = "listen")]
    pub allow_hosts: Vec<String>,
    /// The upstream server's command and arguments (after `--`).
    #[arg(
        last = true,
        required_unless_present = "upstream",
        value_name = "SERVER"
    )]
    pub server: Vec<String>,
}

/// A substitute backed by a command (run with `sh -c`).
fn command_substitute(command: String) -> Substitute {
    Arc::new(move |call: &stpc_runtime::ToolCall| {
        let input = json!({
            "tool": call.tool(),
            "destination": call.declared_destination().unwrap_or(call.destination()),
            "args": call.args(),
        });
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        // The input is written and the output read on threads of their own,
        // so a command that reads or writes more than a pipe holds cannot
        // block the decision past its deadline. A command need not read its
        // input (`echo …` exits at once): a write to a closed pipe is not
        // its failure, its exit status is.
        if let Some(mut stdin) = child.stdin.take() {
            let text = input.to_string();
            std::thread::spawn(move || {
                let _ = stdin.write_all(text.as_bytes());
            });
        }
        let mut stdout = child.stdout.take()?;
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
            out
        });
        let deadline = std::time::Instant::now() + SUBSTITUTE_DEADLINE;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
                _ => {
                    // Too slow, or gone wrong: killed, and the SHADOW fails
                    // closed.
                    let _ = child.kill();
                    let _ = child.wait();
                    return None;
                }
            }
        };
        let out = reader.join().ok()?;
        if !status.success() {
            return None;
        }
        serde_json::from_slice::<Value>(&out).ok()
    })
}

/// How long a substitute command may run.
const SUBSTITUTE_DEADLINE: std::time::Duration = std::time::Duration::from_secs(30);

/// A table checked as `stpc decide` checks it (digest, signature,
/// verification on load), as an engine.
pub(crate) fn load_engine(
    path: &str,
    trust: &crate::sign::TrustArgs,
    verify_on_load: bool,
) -> Result<Arc<Engine>, String> {
    crate::decide::load_engine(path, trust, verify_on_load).map(Arc::new)
}

/// A gateway's substitutes, by name.
pub(crate) type Substitutes = Vec<(String, Substitute)>;

/// The audit sink and the substitutes of a gateway (`stpc mcp-proxy`,
/// `stpc serve`).
pub(crate) fn parts(
    audit: Option<&str>,
    substitutes: &[String],
    aliases: &std::collections::HashMap<String, String>,
) -> Result<(Box<dyn AuditSink + Send>, Substitutes), String> {
    let sink: Box<dyn AuditSink + Send> = match audit {
        None => crate::decide::discard(),
        Some(path) => Box::new(
            stpc_runtime::JsonLinesSink::open(path)
                .map_err(|e| format!("cannot open the audit file `{path}`: {e}"))?,
        ),
    };
    let mut out = Vec::new();
    for s in substitutes {
        let Some((name, command)) = s.split_once('=') else {
            return Err(format!("`--substitute {s}`: expected NAME=COMMAND"));
        };
        let substitute = match command.strip_prefix("mcp:") {
            Some(server) => stpc_proxy::mcp::mcp_substitute(server.to_owned(), aliases),
            None => command_substitute(command.to_owned()),
        };
        out.push((name.to_owned(), substitute));
    }
    Ok((sink, out))
}

/// Runs `stpc mcp-proxy`.
pub fn run(global: &Global, args: McpProxyArgs) -> Outcome {
    let engine = match load_engine(&args.table, &args.trust, args.verify_on_load) {
        Ok(e) => e,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let mut aliases = std::collections::HashMap::new();
    for a in &args.tool_aliases {
        let Some((server, tool)) = a.split_once('=') else {
            output::fail(
                global,
                &format!("`--tool-alias {a}`: expected SERVER_NAME=TOOL"),
            );
            return Outcome::Failure;
        };
        aliases.insert(server.to_owned(), tool.to_owned());
    }
    let (sink, substitutes) = match parts(args.audit.as_deref(), &args.substitutes, &aliases) {
        Ok(p) => p,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let gateway = Arc::new(Gateway::new(
        engine,
        args.destination.clone(),
        sink,
        substitutes,
    ));
    let upstream = match &args.upstream {
        Some(url) => Upstream::Http(url.clone()),
        None => Upstream::Command(args.server.clone()),
    };
    let options = Options {
        hide_undeclared: args.hide_undeclared,
        aliases,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            output::fail(global, &format!("cannot start the proxy's runtime: {e}"));
            return Outcome::Failure;
        }
    };
    let served = match args.listen {
        None => runtime.block_on(stpc_proxy::mcp::serve_stdio(Proxy::new(
            gateway, upstream, options,
        ))),
        Some(addr) => runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
            let local = listener
                .local_addr()
                .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
            eprintln!("stpc mcp-proxy: listening on http://{local}/mcp");
            let make = Arc::new(move |n: u64| {
                Proxy::new(Arc::clone(&gateway), upstream.clone(), options.clone())
                    .for_session(&format!("s{n}"))
            });
            stpc_proxy::http::serve(listener, make, &args.allow_hosts)
                .await
                .map_err(|e| format!("the proxy stopped: {e}"))
        }),
    };
    match served {
        Ok(()) => Outcome::Success,
        Err(message) => {
            output::fail(global, &message);
            Outcome::Failure
        }
    }
}
