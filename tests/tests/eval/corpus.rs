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

#[test]
fn a_corpus_drawn_in_chunks_is_the_generated_frontier() {
    use stpc_eval::corpus::Corpus;
    use stpc_eval::Tasks;
    for kind in [Kind::StaticPlan, Kind::PairedReplay] {
        let spec = Spec {
            tasks: 37,
            seeds: vec![4, 9],
            kind,
        };
        let whole = generate(&spec);
        let lazy = Corpus::new(spec);
        assert_eq!(lazy.len(), whole.tasks.len());
        assert_eq!(lazy.len(), 74);
        // Any range, in any order, draws the same tasks.
        for (a, b) in [(70, 74), (0, 5), (36, 39), (10, 10)] {
            assert_eq!(lazy.chunk(a..b).as_ref(), &whole.tasks[a..b]);
            assert_eq!(whole.chunk(a..b).as_ref(), &whole.tasks[a..b]);
        }
        // Past the end is clamped, not a panic.
        assert_eq!(lazy.chunk(72..200).len(), 2);
        assert!(whole.chunk(80..90).is_empty());
        assert!(lazy.task(74).is_none());
        assert_eq!(stpc_eval::frontier::FrontierStats::of(&lazy), whole.stats());
    }
}
