//! "Did you mean" suggestions from one edit-distance helper.
//!
//! The metric is optimal string alignment distance (Levenshtein plus adjacent
//! transpositions, so `allwo` is one edit from `allow`), computed by hand
//! because it is twenty lines and a crate would add a dependency for that
//! alone. A candidate is suggested when its distance is at most a third of
//! the longer word's length (at least 1), rustc's rule of thumb: close enough
//! that the suggestion is usually right, far enough that `tool` is never
//! "corrected" to `tools` when neither was meant.

/// Optimal string alignment distance between two words, over characters.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    let at = |i: usize, j: usize| i * width + j;
    for i in 0..=a.len() {
        if let Some(cell) = d.get_mut(at(i, 0)) {
            *cell = i;
        }
    }
    for j in 0..=b.len() {
        if let Some(cell) = d.get_mut(at(0, j)) {
            *cell = j;
        }
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let (ai, bj) = (a.get(i - 1), b.get(j - 1));
            let cost = usize::from(ai != bj);
            let get = |i: usize, j: usize| d.get(at(i, j)).copied().unwrap_or(usize::MAX / 2);
            let mut best = (get(i - 1, j) + 1)
                .min(get(i, j - 1) + 1)
                .min(get(i - 1, j - 1) + cost);
            if i > 1 && j > 1 && ai == b.get(j - 2) && a.get(i - 2) == bj {
                best = best.min(get(i - 2, j - 2) + 1);
            }
            if let Some(cell) = d.get_mut(at(i, j)) {
                *cell = best;
            }
        }
    }
    d.get(at(a.len(), b.len())).copied().unwrap_or(usize::MAX)
}

/// The closest candidate within the threshold, ties broken by order given.
pub fn best_match<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let limit = (word.chars().count().max(candidate.chars().count()) / 3).max(1);
        let dist = distance(&word.to_lowercase(), &candidate.to_lowercase());
        if dist <= limit && best.is_none_or(|(d, _)| dist < d) {
            best = Some((dist, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// A ready help line: "did you mean `x`?".
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    best_match(word, candidates).map(|c| format!("did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpositions_cost_one() {
        assert_eq!(distance("allwo", "allow"), 1);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggests_only_close_words() {
        assert_eq!(
            best_match("contrat", ["contract", "tool"]),
            Some("contract")
        );
        assert_eq!(best_match("xyz", ["contract", "tool"]), None);
        assert_eq!(
            best_match("lattise", ["lattice", "labeler"]),
            Some("lattice")
        );
    }
}
