//! The corpus generator is deterministic and shaped like the paper's frontiers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use stpc_eval::corpus::{generate, Kind, Spec};
use stpc_eval::Frontier;

fn corpus(kind: Kind) -> Frontier {
    generate(&Spec {
        tasks: 150,
        seeds: vec![1, 2, 3],
        kind,
    })
}

#[test]
fn corpus_matches_the_papers_frontier_statistics() {
    for kind in [Kind::StaticPlan, Kind::PairedReplay] {
        let f = corpus(kind);
        let s = f.stats();
        eprintln!("{kind:?}: {s:?}");
        assert_eq!(s.tasks, 450);
        assert!((7.0..=9.0).contains(&s.median_candidates), "{s:?}");
        assert!(s.min_candidates >= 1 && s.max_candidates <= 19, "{s:?}");
        assert!((0.82..=0.89).contains(&s.abandoned_rate), "{s:?}");
        assert!((0.35..=0.39).contains(&s.mean_confidence), "{s:?}");
        let retrieval = s.tool_share["doc_retrieval"];
        assert!((0.35..=0.45).contains(&retrieval), "{s:?}");
        for tool in [
            "web_search",
            "calendar_lookup",
            "crm_lookup",
            "email_search",
        ] {
            assert!(s.tool_share[tool] > 0.05, "{tool}: {s:?}");
        }
    }
}

#[test]
fn corpus_is_deterministic_and_round_trips() {
    let a = corpus(Kind::PairedReplay);
    let b = corpus(Kind::PairedReplay);
    assert_eq!(a, b);
    let text = a.to_jsonl().unwrap();
    let back = Frontier::from_jsonl(&text).unwrap();
    assert_eq!(back, a);
}

#[test]
fn static_plan_keeps_the_committed_plan_across_seeds() {
    let f = corpus(Kind::StaticPlan);
    let plan = |t: &stpc_eval::Task| -> Vec<serde_json::Value> {
        t.candidates
            .iter()
            .filter(|c| c.branch == "plan")
            .map(|c| c.args.clone())
            .collect()
    };
    assert_eq!(plan(&f.tasks[0]), plan(&f.tasks[150]));
    assert_eq!(f.tasks[0].group, f.tasks[150].group);
    assert_ne!(f.tasks[0].candidates, f.tasks[150].candidates);
}
