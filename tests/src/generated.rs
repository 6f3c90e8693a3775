//! A generated contract over `n` tools, each with its own destination, for
//! the scaling test and the compile benchmark.
//!
//! The pipeline is the paper's shape plus per-tool rules: unknown tools and
//! destinations blocked, missing labels blocked, speculative calls below the
//! threshold deferred, every tenth tool deferred when its arguments are
//! personal or above, shadowing where a substitute exists, the budget, the
//! rewrite, and the default.

/// The source text of the generated contract with `n` tools.
pub fn source(n: usize) -> String {
    let mut s = String::from("use std::labels;\nuse std::modes;\nuse std::observers;\nuse std::labelers;\nuse std::transforms::generic_query;\n\n");
    for i in 0..n {
        let label = match i % 3 {
            0 => "public",
            1 => "tenant_internal",
            _ => "sensitive",
        };
        s.push_str(&format!(
            "destination d{i} {{ host \"api{i}.example\"; label {label}; observed by provider, network; }}\n"
        ));
        let sub = if i % 4 == 0 {
            format!(" substitute s{i};")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "tool t{i} {{ effect external_read; args {{ q: text, n: number }} destinations d{i};{sub} }}\n"
        ));
        if i % 4 == 0 {
            s.push_str(&format!(
                "substitute s{i} for t{i} {{ observed by runtime_log; on promote reissue; }}\n"
            ));
        }
    }
    let tools: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
    let dests: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    let careful: Vec<String> = (0..n).step_by(10).map(|i| format!("t{i}")).collect();
    s.push_str(&format!(
        "\ncontract generated {{\n    tools {};\n    destinations {};\n    forbid args >= sensitive at provider, network;\n    \
         threshold speculative 0.7;\n    budget sensitive_dispatches 5 per task counting args >= sensitive;\n    \
         audit to runtime_log without raw args;\n\n    decide {{\n        block unless tool allowed;\n        \
         block unless destination allowed;\n        block when labels missing;\n        \
         defer when speculative and confidence < threshold;\n        \
         careful: defer when tool in {{{}}} and args >= personal;\n        \
         ghost: shadow when prefetch and substitute available;\n        \
         over_budget: defer when budget sensitive_dispatches exhausted and args >= sensitive;\n        \
         scrub: rewrite using generic_query when args >= sensitive;\n        allow;\n    }}\n}}\n",
        tools.join(", "),
        dests.join(", "),
        careful.join(", ")
    ));
    s
}
