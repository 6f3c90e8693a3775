//! Statistics against known values.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code"
)]

use proptest::prelude::*;
use stpc_eval::stats::{
    bootstrap_mean, median_usize, paired, sign_test, Outcomes, Rng, RESAMPLES, SEED,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn sign_test_matches_exact_binomial_values() {
    // 2 * (C(10,0) + C(10,1)) / 2^10
    assert!(close(sign_test(1, 10), 22.0 / 1024.0, 1e-12));
    assert!(close(sign_test(9, 10), 22.0 / 1024.0, 1e-12));
    // 2 * P[X <= 5], X ~ Bin(20, 1/2) = 2 * 21700 / 2^20
    assert!(close(sign_test(5, 20), 2.0 * 21700.0 / 1_048_576.0, 1e-12));
    // Symmetric middle: p = 1.
    assert_eq!(sign_test(5, 10), 1.0);
    assert_eq!(sign_test(0, 0), 1.0);
    // All 12 in one direction: 2 / 4096.
    assert!(close(sign_test(0, 12), 2.0 / 4096.0, 1e-15));
    // Large n stays finite and tiny: 0 of 1000.
    let p = sign_test(0, 1000);
    assert!(p > 0.0 && p < 1e-290, "{p}");
    // n = 100, k = 40: scipy.stats.binomtest(40, 100).pvalue = 0.056887933640...
    assert!(
        close(sign_test(40, 100), 0.056_887_933_640_370_9, 1e-9),
        "{}",
        sign_test(40, 100)
    );
}

#[test]
fn bootstrap_ci_on_known_data() {
    // Constant data: the interval collapses onto the mean.
    let e = bootstrap_mean(&[0.5; 40], RESAMPLES, SEED);
    assert_eq!((e.mean, e.lo, e.hi), (0.5, 0.5, 0.5));
    // 0/1 data with p = 0.3, n = 400: the percentile interval is close to
    // the normal approximation 0.3 ± 1.96 * sqrt(0.3 * 0.7 / 400) = ± 0.0449.
    let xs: Vec<f64> = (0..400)
        .map(|i| if i % 10 < 3 { 1.0 } else { 0.0 })
        .collect();
    let e = bootstrap_mean(&xs, RESAMPLES, SEED);
    assert!(close(e.mean, 0.3, 1e-12));
    assert!(close(e.lo, 0.3 - 0.0449, 0.006), "{e:?}");
    assert!(close(e.hi, 0.3 + 0.0449, 0.006), "{e:?}");
    // Deterministic for a seed.
    assert_eq!(bootstrap_mean(&xs, 2000, 7), bootstrap_mean(&xs, 2000, 7));
}

#[test]
fn paired_deltas_count_directions() {
    let a = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0];
    let b = [0.0, 1.0, 0.0, 0.0, 1.0, 0.0];
    let p = paired(&a, &b, 1000, SEED);
    assert_eq!((p.higher, p.lower, p.ties), (3, 1, 2));
    assert!(close(p.delta.mean, 2.0 / 6.0, 1e-12));
    assert!(close(p.p, sign_test(1, 4), 1e-12));
    assert!(p.delta.lo <= p.delta.mean && p.delta.mean <= p.delta.hi);
}

#[test]
fn rng_is_stable_and_uniform_enough() {
    let mut r = Rng::new(1);
    let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
    // SplitMix64 reference values for seed 1.
    assert_eq!(
        first,
        [
            0x910a_2dec_8902_5cc1,
            0xbeeb_8da1_658e_ec67,
            0xf893_a2ee_fb32_555e
        ]
    );
    let mut counts = [0usize; 10];
    let mut r = Rng::new(42);
    for _ in 0..100_000 {
        counts[r.below(10)] += 1;
    }
    assert!(
        counts.iter().all(|c| (9_500..10_500).contains(c)),
        "{counts:?}"
    );
    assert_eq!(median_usize(&[1, 2, 3, 4]), 2.5);
    assert_eq!(median_usize(&[1, 8, 19]), 8.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Outcomes kept as bits bootstrap exactly as the same 0/1 values kept
    /// as reals, alone and paired, so a report does not depend on which.
    #[test]
    fn outcomes_as_bits_estimate_as_reals(
        a in proptest::collection::vec(any::<bool>(), 0..300),
        b in proptest::collection::vec(any::<bool>(), 0..300),
        seed in any::<u64>(),
    ) {
        let real = |v: &[bool]| -> Vec<f64> { v.iter().map(|&x| f64::from(u8::from(x))).collect() };
        let (ra, rb) = (real(&a), real(&b));
        let (oa, ob): (Outcomes, Outcomes) = (a.iter().copied().collect(), b.iter().copied().collect());
        prop_assert_eq!(oa.len(), a.len());
        prop_assert_eq!(oa.hits(), a.iter().filter(|x| **x).count());
        prop_assert_eq!(oa.get(a.len()), None);
        prop_assert_eq!(bootstrap_mean(&oa, 200, seed), bootstrap_mean(&ra, 200, seed));
        prop_assert_eq!(paired(&oa, &ob, 200, seed), paired(&ra, &rb, 200, seed));
    }
}
