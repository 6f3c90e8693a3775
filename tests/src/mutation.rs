//! Hostile input for every entry point: the parser, the checker (with
//! lowering and verification), the formatter, the table loader and the
//! monitor's `decide`/`submit`. Each entry point takes arbitrary bytes and
//! must answer (a diagnostic, an error, a decision), never panic, never
//! overflow its stack, and stay fast.
//!
//! The same entry points serve two drivers:
//!
//! - the stable **mutation driver** ([`run`]) below, which the test suite
//!   runs with a bounded budget (`tests/tests/properties/mutation.rs`) and
//!   the release check runs with a million inputs per entry point;
//! - the `cargo fuzz` targets in `fuzz/` (nightly toolchains), seeded with
//!   the same fixtures.
//!
//! The mutator is deliberately small and deterministic (a seeded SplitMix64,
//! so a failing run is reproduced by its seed): byte flips, insertions from
//! a dictionary of the language's tokens (keywords, delimiters, deep
//! nesting, long `and` chains, odd Unicode), deletions, duplicated and
//! spliced slices, truncation.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use stpc_compiler::{Diagnostics, NoFiles, SourceMap};
use stpc_runtime::audit::MemorySink;
use stpc_runtime::{Engine, Monitor};

/// The parser alone, with both renderers over what it reports.
pub fn parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut map = SourceMap::new();
    let id = map.add("fuzz.stpc", text);
    let mut d = Diagnostics::new();
    let _ = stpc_compiler::syntax::parse(id, text, &mut d);
    let sorted = d.sorted();
    let _ = stpc_compiler::diagnostics::render::human_string(&map, &sorted);
    let _ = stpc_compiler::diagnostics::render::json_lines(&map, &sorted);
}

/// Parse, resolve (std embedded, no other files), check, then lowering and
/// verification when the checker is satisfied.
pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut map = SourceMap::new();
    let id = map.add("fuzz.stpc", text);
    let mut d = Diagnostics::new();
    let program = stpc_compiler::check(&mut map, &[id], &mut NoFiles, &mut d);
    stpc_compiler::verify_contracts(&program, &[id], &mut d);
    let _ = stpc_compiler::diagnostics::render::human_string(&map, &d.sorted());
}

/// The formatter; what it formats must format to itself.
pub fn format(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut d = Diagnostics::new();
    if let Some(once) = stpc_compiler::format(stpc_compiler::FileId(0), text, &mut d) {
        let mut d2 = Diagnostics::new();
        let twice = stpc_compiler::format(stpc_compiler::FileId(0), &once, &mut d2);
        assert_eq!(
            twice.as_deref(),
            Some(once.as_str()),
            "formatting is not idempotent"
        );
    }
}

/// The table loader, then the engine.
pub fn load_table(data: &[u8]) {
    if let Ok(t) = stpc_runtime::table::Table::from_json(data) {
        let _ = Engine::new(Arc::new(t));
    }
}

/// The paper's table, compiled once.
fn paper_engine() -> Option<&'static Arc<Engine>> {
    static ENGINE: OnceLock<Option<Arc<Engine>>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let c = crate::lowering::compile_file(
                "examples/paper_web_search.stpc",
                &stpc_compiler::CompileOptions::default(),
            );
            let table = c.table?;
            Engine::new(Arc::new(table)).ok().map(Arc::new)
        })
        .as_ref()
}

/// Whether the `decide` entry point has its table (else it tests nothing).
#[must_use]
pub fn decide_ready() -> bool {
    paper_engine().is_some()
}

/// One event as `stpc decide` reads it, submitted to a monitor of the
/// paper's table.
pub fn decide(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(ev) = stpc_tables::event::EventInput::parse(text) else {
        return;
    };
    let Some(engine) = paper_engine() else {
        return;
    };
    let mut m = Monitor::with_engine(Arc::clone(engine), Box::new(MemorySink::new()));
    if m.begin_task("fuzz").is_ok() {
        if let Ok(d) = m.submit(ev.proposed()) {
            if let stpc_runtime::Outcome::Dispatch(t) = d.into_outcome() {
                let sent = t.dispatch();
                let _ = m.complete(sent);
            }
        }
        let _ = m.promote(&ev.branch);
        let _ = m.end_task();
    }
}

/// An entry point by name.
pub type Entry = fn(&[u8]);

/// Every entry point, with its name.
pub const ENTRIES: &[(&str, Entry)] = &[
    ("parse", parse),
    ("check", check),
    ("format", format),
    ("load_table", load_table),
    ("decide", decide),
];

/// A seeded SplitMix64.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }
}

/// Tokens the mutator inserts.
const DICTIONARY: &[&str] = &[
    "contract",
    "decide",
    "allow",
    "block",
    "defer",
    "rewrite",
    "shadow",
    "when",
    "unless",
    "and",
    "or",
    "not",
    "tools",
    "destinations",
    "forbid",
    "args",
    ">=",
    "<",
    "==",
    "!=",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ":",
    "::",
    "\"",
    "r#\"",
    "\"#",
    "/*",
    "*/",
    "//",
    "\n",
    "use std::",
    "labels missing",
    "confidence",
    "0.7",
    "-1",
    "1e309",
    "99999999999999999999",
    "\\u{10ffff}",
    "\\",
    "é",
    "😀",
    "\u{202e}",
    "\u{0}",
    "((((((((((((((((((((((((((((((((",
    "}}}}}}}}}}}}}}}}",
    "speculative and speculative and speculative and speculative and ",
    "\"mode\"",
    "\"args\"",
    "{\"q\":",
    "[[[[[[[[[[[[[[[[",
    "null",
    "true",
    "\"cells\"",
    "\"digest\"",
    "\"<missing>\"",
];

/// One mutation of `input` (with `other`, another seed, for splicing).
pub fn mutate(rng: &mut Rng, input: &[u8], other: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(8) {
            0 if !out.is_empty() => {
                let i = rng.below(out.len());
                if let Some(b) = out.get_mut(i) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 | 2 => {
                let word = DICTIONARY
                    .get(rng.below(DICTIONARY.len()))
                    .copied()
                    .unwrap_or("");
                let times = if rng.below(16) == 0 {
                    1 + rng.below(2000)
                } else {
                    1
                };
                let insert = word.repeat(times);
                out.splice(at..at, insert.bytes());
            }
            3 => {
                let end = (at + 1 + rng.below(64)).min(out.len());
                if at < end {
                    out.drain(at..end);
                }
            }
            4 => {
                let end = (at + 1 + rng.below(256)).min(out.len());
                let slice: Vec<u8> = out.get(at..end).unwrap_or(&[]).to_vec();
                out.splice(at..at, slice);
            }
            5 => out.truncate(at),
            6 => {
                let from = rng.below(other.len() + 1);
                let end = (from + rng.below(512)).min(other.len());
                let slice = other.get(from..end).unwrap_or(&[]).to_vec();
                out.splice(at..at, slice);
            }
            _ => {
                let i = rng.below(out.len() + 1);
                let punct = b"{}()[];,\"\\\n";
                let b = punct.get(rng.below(punct.len())).copied().unwrap_or(b';');
                out.insert(i.min(out.len()), b);
            }
        }
    }
    out
}

/// What a run found.
#[derive(Debug, Default)]
pub struct Report {
    /// Inputs run.
    pub inputs: usize,
    /// The slowest input, by the CPU time its thread spent on it (user and
    /// system), and that time. CPU time, not the wall clock: the release
    /// check runs at low priority beside other work, where a wall clock
    /// times the machine's load (the same input read 20 ms alone and
    /// 250 ms beside a build).
    pub slowest: Option<(Duration, Vec<u8>)>,
    /// The longest wall-clock time any input took (for the record).
    pub longest_wall: Duration,
    /// Inputs that panicked, with the panic's message.
    pub panics: Vec<(String, Vec<u8>)>,
}

/// Runs `inputs` mutations of `seeds` through `entry`, deterministically
/// from `seed`. Each input is written to `current` first (when given), so
/// a stack overflow, which no test can catch, leaves its reproducer there.
pub fn run(
    entry: Entry,
    seeds: &[Vec<u8>],
    inputs: usize,
    seed: u64,
    current: Option<&std::path::Path>,
) -> Report {
    let mut rng = Rng::new(seed);
    let mut report = Report::default();
    let empty = Vec::new();
    for _ in 0..inputs {
        let base = seeds.get(rng.below(seeds.len())).unwrap_or(&empty);
        let other = seeds.get(rng.below(seeds.len())).unwrap_or(&empty);
        let input = mutate(&mut rng, base, other);
        if let Some(p) = current {
            let _ = std::fs::write(p, &input);
        }
        let started = Instant::now();
        let cpu = cpu_time::ThreadTime::try_now().ok();
        let outcome = std::panic::catch_unwind(|| entry(&input));
        let wall = started.elapsed();
        // Where the thread's clock is not available, the wall clock.
        let took = cpu.map_or(wall, |c| c.elapsed());
        report.longest_wall = report.longest_wall.max(wall);
        report.inputs += 1;
        if let Err(p) = outcome {
            let message = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default();
            report.panics.push((message, input.clone()));
        }
        if report.slowest.as_ref().is_none_or(|(t, _)| took > *t) {
            report.slowest = Some((took, input));
        }
    }
    report
}
