//! `stpc serve --table T [--listen ADDR]`: the MCP gateway's decisions as a
//! local HTTP sidecar, for agents that do not speak MCP (see
//! `stpc_proxy::serve` and `proxy/serve.openapi.json`). The table file is
//! watched and reloaded atomically when it changes.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use stpc_proxy::gateway::Gateway;
use stpc_proxy::serve::{Loader, Sidecar};

use crate::{output, Global, Outcome};

/// Arguments of `stpc serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The compiled table; reloaded when the file (or its signature)
    /// changes.
    #[arg(long, value_name = "TABLE")]
    pub table: String,
    /// Address to listen on (port 0: any free port, printed on start).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,
    /// Append the runtime's audit records here (JSON lines).
    #[arg(long, value_name = "FILE")]
    pub audit: Option<String>,
    /// The implementation of a substitute the table names: a command that
    /// reads the call (`{"tool", "destination", "args"}`) on standard input
    /// and writes the result (JSON) on standard output, or (`NAME=mcp:COMMAND`)
    /// a local MCP server given the call as a `tools/call`; its result is
    /// the `answer` of a SHADOWed call. Repeat for several.
    #[arg(long = "substitute", value_name = "NAME=COMMAND")]
    pub substitutes: Vec<String>,
    /// Verify the table on load and on every reload (as `stpc verify`),
    /// refusing it on any error.
    #[arg(long)]
    pub verify_on_load: bool,
    /// Signature requirements (checked on every reload too).
    #[command(flatten)]
    pub trust: crate::sign::TrustArgs,
    /// Accept requests with this `Host` besides the loopback names (repeat
    /// for several). Without it, a request naming another host is refused,
    /// so a web page cannot reach the sidecar by DNS rebinding.
    #[arg(long = "allow-host", value_name = "HOST")]
    pub allow_hosts: Vec<String>,
    /// How often the table file is checked for a change, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub reload_interval_ms: u64,
}

/// Runs `stpc serve`.
pub fn run(global: &Global, args: ServeArgs) -> Outcome {
    let engine = match crate::mcp_proxy::load_engine(&args.table, &args.trust, args.verify_on_load)
    {
        Ok(e) => e,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let (sink, substitutes) = match crate::mcp_proxy::parts(
        args.audit.as_deref(),
        &args.substitutes,
        &std::collections::HashMap::new(),
    ) {
        Ok(p) => p,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    // Every call names its destination; the gateway's own is never used.
    let gateway = Arc::new(Gateway::new(engine, "", sink, substitutes));
    let sidecar = Sidecar::new(gateway, args.allow_hosts.clone());
    let mut watched = vec![PathBuf::from(&args.table)];
    if !args.trust.trusted_keys.is_empty() {
        watched.push(
            args.trust
                .signature
                .clone()
                .unwrap_or_else(|| PathBuf::from(format!("{}.sig", args.table))),
        );
    }
    let (path, trust, verify) = (args.table.clone(), args.trust.clone(), args.verify_on_load);
    let loader: Arc<Loader> =
        Arc::new(move || crate::mcp_proxy::load_engine(&path, &trust, verify));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            output::fail(global, &format!("cannot start the sidecar's runtime: {e}"));
            return Outcome::Failure;
        }
    };
    let every = Duration::from_millis(args.reload_interval_ms.max(10));
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
        if !addr.ip().is_loopback() {
            eprintln!(
                "stpc serve: warning: listening on {addr}, which is not a loopback address; \
                 anyone who can reach it can ask for decisions and settle branches"
            );
        }
        // The line tests and supervisors wait for (the port, when 0 was
        // asked for).
        eprintln!("stpc serve: listening on http://{addr}");
        tokio::spawn(stpc_proxy::serve::watch(
            Arc::clone(&sidecar),
            watched,
            every,
            loader,
        ));
        stpc_proxy::serve::serve(listener, &sidecar)
            .await
            .map_err(|e| format!("the sidecar stopped: {e}"))
    });
    match served {
        Ok(()) => Outcome::Success,
        Err(message) => {
            output::fail(global, &message);
            Outcome::Failure
        }
    }
}
