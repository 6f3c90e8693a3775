//! Statistics: a seeded generator, percentile bootstrap confidence intervals,
//! paired deltas and the exact two-sided sign test.
//!
//! **Random numbers.** [`Rng`] is SplitMix64 (Steele, Lea and Flood 2014),
//! written here rather than taken from `rand`: a report must be
//! byte-identical for a seed across library upgrades, and `rand` does not
//! promise value stability of its generators' algorithms or of
//! `gen_range`. Bounded integers use Lemire's multiply-shift (the bias, at
//! most `n / 2^64`, is far below anything a 10,000-resample interval shows).
//!
//! **Bootstrap.** Resample the per-task values with replacement `R` times
//! (default [`RESAMPLES`] = 10,000, seed [`SEED`] = 20260522, the paper's),
//! take the mean of each resample, and report the 2.5 % and 97.5 % order
//! statistics (percentile interval, index `floor(q * (R - 1))`). Paired
//! deltas resample task indices, so both arms move together.
//!
//! **Sign test.** Over the discordant pairs (ties dropped), with `k` in one
//! direction out of `n`, `p = min(1, 2 * P[X <= min(k, n - k)])` for `X ~
//! Binomial(n, 1/2)`, summed exactly in log space so `n` in the thousands
//! neither overflows nor underflows.

use fixedbitset::FixedBitSet;
use serde::{Deserialize, Serialize};

/// Bootstrap resamples.
pub const RESAMPLES: usize = 10_000;

/// The paper's bootstrap seed.
pub const SEED: u64 = 20_260_522;

/// SplitMix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    #[must_use]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for a sub-stream (`seed`, `stream`), independent in practice.
    #[must_use]
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n` (0 when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }

    /// A uniformly chosen element.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }

    /// Shuffle in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A mean with a percentile bootstrap interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Sample mean.
    pub mean: f64,
    /// Lower bound of the 95 % interval.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
    /// Sample size.
    pub n: usize,
}

/// Per-task values a bootstrap resamples: a slice of reals, or
/// [`Outcomes`].
pub trait Sample {
    /// How many values.
    fn count(&self) -> usize;
    /// Value `i` (0 past the end).
    fn value(&self, i: usize) -> f64;
    /// The sum of every value, in index order.
    fn total(&self) -> f64 {
        (0..self.count()).map(|i| self.value(i)).sum()
    }
}

impl Sample for [f64] {
    fn count(&self) -> usize {
        self.len()
    }
    fn value(&self, i: usize) -> f64 {
        self.get(i).copied().unwrap_or(0.0)
    }
    fn total(&self) -> f64 {
        self.iter().sum()
    }
}

impl<const N: usize> Sample for [f64; N] {
    fn count(&self) -> usize {
        N
    }
    fn value(&self, i: usize) -> f64 {
        self.as_slice().value(i)
    }
    fn total(&self) -> f64 {
        self.as_slice().total()
    }
}

impl Sample for Vec<f64> {
    fn count(&self) -> usize {
        self.len()
    }
    fn value(&self, i: usize) -> f64 {
        self.as_slice().value(i)
    }
    fn total(&self) -> f64 {
        self.as_slice().total()
    }
}

/// Per-task 0/1 outcomes (recovered or not), one bit each: an evaluation
/// keeps one per policy, observer and adversary until every row is
/// bootstrapped, so at 8 bytes a value they were most of what its memory
/// still grew by per task. Resampled exactly as the same values in a
/// `[f64]` (sums of 0.0 and 1.0 in the same order), so reports do not
/// change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes(FixedBitSet);

impl Outcomes {
    /// How many tasks.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// Whether task `i` was a hit (`None` past the end).
    #[must_use]
    pub fn get(&self, i: usize) -> Option<bool> {
        (i < self.0.len()).then(|| self.0.contains(i))
    }

    /// How many hits.
    #[must_use]
    pub fn hits(&self) -> usize {
        self.0.count_ones(..)
    }
}

impl FromIterator<bool> for Outcomes {
    fn from_iter<I: IntoIterator<Item = bool>>(iter: I) -> Outcomes {
        let mut bits = FixedBitSet::new();
        for (i, hit) in iter.into_iter().enumerate() {
            bits.grow(i + 1);
            bits.set(i, hit);
        }
        Outcomes(bits)
    }
}

impl Sample for Outcomes {
    fn count(&self) -> usize {
        self.len()
    }
    fn value(&self, i: usize) -> f64 {
        if self.0.contains(i) {
            1.0
        } else {
            0.0
        }
    }
}

/// Mean of a slice (0 for an empty one).
#[must_use]
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Median of sorted sizes.
#[must_use]
pub fn median_usize(sorted: &[usize]) -> f64 {
    let n = sorted.len();
    match (sorted.get(n.wrapping_sub(1) / 2), sorted.get(n / 2)) {
        (Some(a), Some(b)) => (*a as f64 + *b as f64) / 2.0,
        _ => 0.0,
    }
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let i = (q * (sorted.len().saturating_sub(1)) as f64).floor() as usize;
    sorted.get(i).copied().unwrap_or(0.0)
}

/// Percentile bootstrap of the mean of `f(i)` over `n` items.
fn bootstrap_by(n: usize, resamples: usize, seed: u64, f: impl Fn(usize) -> f64) -> (f64, f64) {
    if n == 0 || resamples == 0 {
        return (0.0, 0.0);
    }
    let values: Vec<f64> = (0..n).map(&f).collect();
    let mut rng = Rng::new(seed);
    let mut means = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let mut s = 0.0;
        for _ in 0..n {
            s += values.get(rng.below(n)).copied().unwrap_or(0.0);
        }
        means.push(s / n as f64);
    }
    means.sort_by(f64::total_cmp);
    (percentile(&means, 0.025), percentile(&means, 0.975))
}

/// Mean of `xs` with a 95 % percentile bootstrap interval.
#[must_use]
pub fn bootstrap_mean<S: Sample + ?Sized>(xs: &S, resamples: usize, seed: u64) -> Estimate {
    let n = xs.count();
    let (lo, hi) = bootstrap_by(n, resamples, seed, |i| xs.value(i));
    Estimate {
        mean: if n == 0 { 0.0 } else { xs.total() / n as f64 },
        lo,
        hi,
        n,
    }
}

/// Exact two-sided sign test: `k` successes out of `n` discordant pairs.
#[must_use]
pub fn sign_test(k: usize, n: usize) -> f64 {
    if n == 0 {
        return 1.0;
    }
    let m = k.min(n - k);
    let ln2n = n as f64 * std::f64::consts::LN_2;
    // log C(n, i) built incrementally; log-sum-exp over i = 0..=m.
    let mut lc = 0.0f64;
    let mut terms = Vec::with_capacity(m + 1);
    for i in 0..=m {
        if i > 0 {
            lc += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        terms.push(lc - ln2n);
    }
    let max = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - max).exp()).sum();
    (2.0 * (max + sum.ln()).exp()).min(1.0)
}

/// A paired comparison of a policy against a baseline over the same tasks.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    /// Mean of `policy - baseline` with its 95 % bootstrap interval.
    pub delta: Estimate,
    /// Pairs where the policy is higher.
    pub higher: usize,
    /// Pairs where the policy is lower.
    pub lower: usize,
    /// Ties.
    pub ties: usize,
    /// Two-sided exact sign test p-value.
    pub p: f64,
}

/// Paired delta and sign test; `policy` and `baseline` are aligned per task
/// (the shorter length is used).
#[must_use]
pub fn paired<S: Sample + ?Sized>(policy: &S, baseline: &S, resamples: usize, seed: u64) -> Paired {
    let diffs: Vec<f64> = (0..policy.count().min(baseline.count()))
        .map(|i| policy.value(i) - baseline.value(i))
        .collect();
    let higher = diffs.iter().filter(|d| **d > 0.0).count();
    let lower = diffs.iter().filter(|d| **d < 0.0).count();
    let ties = diffs.len() - higher - lower;
    Paired {
        delta: bootstrap_mean(&diffs, resamples, seed),
        higher,
        lower,
        ties,
        p: sign_test(higher, higher + lower),
    }
}
