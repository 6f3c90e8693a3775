//! `stpc diff OLD NEW`: which regions of the decision domain change action
//! between two contracts (or two compiled tables), with every change that
//! discloses more flagged as a weakening.
//!
//! Exit code: 0 whether or not anything changed, unless
//! `--fail-on-weakening` is given and some change is a weakening (then 1);
//! 1 also when a contract does not compile; 2 on an I/O failure or a table
//! the runtime refuses. The algorithm is in `stpc_tables::diff`.

use serde_json::json;
use stpc_tables::diff::{diff_with_probes, Diff, Direction};
use stpc_tables::findings::Classification;

use crate::{decide, output, Format, Global, Outcome};

/// Arguments of `stpc diff`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The old contract (`.stpc`) or table (`.json`).
    #[arg(value_name = "OLD")]
    pub old: String,
    /// The new contract (`.stpc`) or table (`.json`).
    #[arg(value_name = "NEW")]
    pub new: String,
    /// The contract to compile when a contract file declares several.
    #[arg(long, value_name = "NAME")]
    pub contract: Option<String>,
    /// Exit with 1 when any change is a weakening.
    #[arg(long)]
    pub fail_on_weakening: bool,
    /// Events (JSON lines with `args`, such as a labeling dev set or logged
    /// calls) whose argument values also probe the labelers: a value that
    /// no longer reaches a forbidden cut is a weakening.
    #[arg(long, value_name = "FILE")]
    pub probe: Vec<String>,
}

fn marker(d: Direction) -> &'static str {
    match d {
        Direction::Weakening => "! weakening   ",
        Direction::Strengthening => "  strengthening",
        Direction::Lateral => "  lateral      ",
    }
}

fn human(d: &Diff, old: &str, new: &str) -> String {
    let mut s = format!(
        "--- OLD {old} (contract `{}`)\n+++ NEW {new} (contract `{}`)\n",
        d.old_contract, d.new_contract
    );
    if d.changes.is_empty() {
        s.push_str("no point of the decision domain changes action\n");
    } else {
        let points: u128 = d
            .changes
            .iter()
            .map(|c| c.points)
            .fold(0, u128::saturating_add);
        s.push_str(&format!(
            "{} region(s) change action ({points} point(s) of the domain), {} weakening(s)\n",
            d.changes.len(),
            d.weakenings()
        ));
        for c in &d.changes {
            s.push_str(&format!("{} {}\n", marker(c.direction), c.description));
        }
    }
    for f in &d.findings {
        let mark = match f.classification {
            Classification::Weakening => "! weakening   ",
            Classification::Strengthening => "  strengthening",
            Classification::Neutral => "  neutral      ",
        };
        s.push_str(&format!("{mark} {}: {}\n", f.subject, f.description));
    }
    s
}

/// Runs `stpc diff`.
pub fn run(global: &Global, args: DiffArgs) -> Outcome {
    let old = match decide::table_or_contract(global, &args.old, args.contract.as_deref()) {
        Ok(t) => t,
        Err(o) => return o,
    };
    let new = match decide::table_or_contract(global, &args.new, args.contract.as_deref()) {
        Ok(t) => t,
        Err(o) => return o,
    };
    let mut probes = Vec::new();
    for path in &args.probe {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                for line in text.lines() {
                    let Ok(serde_json::Value::Object(ev)) = serde_json::from_str(line) else {
                        continue;
                    };
                    if let Some(serde_json::Value::Object(a)) = ev.get("args") {
                        probes.extend(a.iter().map(|(k, v)| (k.clone(), v.clone())));
                    }
                }
            }
            Err(e) => {
                output::fail(global, &format!("cannot read `{path}`: {e}"));
                return Outcome::Failure;
            }
        }
    }
    let d = match diff_with_probes(&old, &new, &probes) {
        Ok(d) => d,
        Err(e) => {
            output::fail(global, &e.to_string());
            return Outcome::Failure;
        }
    };
    match global.format {
        Format::Human | Format::Junit => crate::out!("{}", human(&d, &args.old, &args.new)),
        _ => crate::outln!(
            "{}",
            json!({
                "old": {"path": args.old, "contract": d.old_contract, "digest": old.digest},
                "new": {"path": args.new, "contract": d.new_contract, "digest": new.digest},
                "weakenings": d.weakenings() + d.weakening_findings(),
                "changes": d.changes,
                "dimensions": d.dimensions,
                "findings": d.findings,
            })
        ),
    }
    if args.fail_on_weakening && d.weakenings() + d.weakening_findings() > 0 {
        Outcome::Problems
    } else {
        Outcome::Success
    }
}
