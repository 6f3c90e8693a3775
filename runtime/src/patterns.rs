//! Which of many regular expressions occur in a string, in one pass: the
//! engine behind labeler `pattern` rules and the entity detecting set.
//!
//! Written on `regex-automata` rather than with `regex::RegexSet` because a
//! set only ever answers "which patterns match somewhere", and the general
//! set pays, at start-up, for what that question never uses: capture
//! groups in its NFA and a second, reverse NFA for finding where a match
//! starts. Compiling one forward NFA without captures halves the set's
//! build (the std argument patterns and the entity set: 11.7 ms to 6 ms of
//! an `stpc decide` process, issue 15), with the same syntax and the same
//! answers.
//!
//! **Search.** A lazy DFA (`hybrid`), all matches (`MatchKind::All`),
//! unanchored, overlapping: every pattern that matches anywhere is reported,
//! one forward scan of the input. Its cache is sized by the caller and the
//! DFA never gives up on cache clears, so long values stay on the DFA. A
//! pattern the lazy DFA cannot search (a Unicode word boundary on non-ASCII
//! text) makes the search fall back to the PikeVM over the same NFA, which
//! answers the same question more slowly.
//!
//! Caches live in a pool, one per thread that searches, reused from call
//! to call: a search allocates nothing once its cache has grown.

use regex_automata::hybrid::dfa::{Cache as DfaCache, OverlappingState, DFA};
use regex_automata::nfa::thompson::pikevm::{Cache as VmCache, PikeVM};
use regex_automata::nfa::thompson::{self, WhichCaptures, NFA};
use regex_automata::util::pool::Pool;
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternSet as Found};

/// Sizes a set is built within.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most bytes of heap the compiled NFA of the whole set may take.
    pub nfa: usize,
    /// Bytes of the lazy DFA's cache, per searching thread.
    pub cache: usize,
}

/// What one search needs and reuses: the DFA's and the PikeVM's caches and
/// the set of patterns found.
type Scratch = (DfaCache, VmCache, Found);

type Caches = Box<dyn Fn() -> Scratch + Send + Sync + std::panic::RefUnwindSafe>;

/// Many patterns, searched together.
pub struct PatternSet {
    dfa: DFA,
    vm: PikeVM,
    caches: Pool<Scratch, Caches>,
}

impl std::fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternSet")
            .field("patterns", &self.len())
            .finish_non_exhaustive()
    }
}

/// Why a set did not compile (the pattern is not named: a caller that needs
/// to name it compiles each alone).
#[derive(Debug)]
pub struct BuildError;

impl PatternSet {
    /// Compile `patterns` (the `regex` crate's syntax) into one set.
    ///
    /// # Errors
    ///
    /// A pattern that does not parse, or a set over `limits.nfa`.
    pub fn new<P: AsRef<str>>(patterns: &[P], limits: Limits) -> Result<PatternSet, BuildError> {
        let nfa: NFA = thompson::Compiler::new()
            .syntax(syntax::Config::new())
            .configure(
                thompson::Config::new()
                    .which_captures(WhichCaptures::None)
                    .nfa_size_limit(Some(limits.nfa)),
            )
            .build_many(patterns)
            .map_err(|_| BuildError)?;
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .cache_capacity(limits.cache)
                    .skip_cache_capacity_check(true)
                    .minimum_cache_clear_count(None)
                    .unicode_word_boundary(true),
            )
            .build_from_nfa(nfa.clone())
            .map_err(|_| BuildError)?;
        let vm = PikeVM::builder()
            .configure(PikeVM::config().match_kind(MatchKind::All))
            .build_from_nfa(nfa)
            .map_err(|_| BuildError)?;
        let (d, v) = (dfa.clone(), vm.clone());
        let make: Caches = Box::new(move || {
            let found = Found::new(d.pattern_len());
            (d.create_cache(), v.create_cache(), found)
        });
        Ok(PatternSet {
            dfa,
            vm,
            caches: Pool::new(make),
        })
    }

    /// How many patterns the set holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.dfa.pattern_len()
    }

    /// Whether the set holds no pattern.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `hit` with the index of every pattern that matches somewhere
    /// in `text`, each once, in increasing order.
    pub fn matches(&self, text: &str, mut hit: impl FnMut(usize)) {
        let mut caches = self.caches.get();
        let (dfa_cache, vm_cache, found) = &mut *caches;
        found.clear();
        if self.search_dfa(dfa_cache, text, found).is_err() {
            found.clear();
            let input = Input::new(text);
            self.vm.which_overlapping_matches(vm_cache, &input, found);
        }
        for p in found.iter() {
            hit(p.as_usize());
        }
    }

    fn search_dfa(
        &self,
        cache: &mut DfaCache,
        text: &str,
        found: &mut Found,
    ) -> Result<(), regex_automata::MatchError> {
        let input = Input::new(text);
        let mut state = OverlappingState::start();
        loop {
            self.dfa
                .try_search_overlapping_fwd(cache, &input, &mut state)?;
            match state.get_match() {
                Some(m) => {
                    // Every pattern is already known to match: the rest of
                    // the input cannot add one.
                    if found.insert(m.pattern()) && found.is_full() {
                        return Ok(());
                    }
                }
                None => return Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]

    use super::{Limits, PatternSet};
    use proptest::prelude::*;

    const LIMITS: Limits = Limits {
        nfa: 1 << 22,
        cache: 1 << 20,
    };

    fn found(set: &PatternSet, text: &str) -> Vec<usize> {
        let mut out = Vec::new();
        set.matches(text, |i| out.push(i));
        out
    }

    #[test]
    fn reports_every_pattern_that_matches_anywhere() {
        let set = PatternSet::new(&[r"\d{3}", "ab", "b+c", "^x", r"z$"], LIMITS).unwrap();
        assert_eq!(found(&set, "abc 123"), vec![0, 1, 2]);
        assert_eq!(found(&set, "xyz"), vec![3, 4]);
        assert_eq!(found(&set, "nothing"), Vec::<usize>::new());
    }

    #[test]
    fn unicode_word_boundaries_fall_back_on_non_ascii_text() {
        let set = PatternSet::new(&[r"\bcafé\b", r"(?-u:\b)bar(?-u:\b)"], LIMITS).unwrap();
        assert_eq!(found(&set, "un café noir"), vec![0]);
        assert_eq!(found(&set, "a bar"), vec![1]);
        assert_eq!(found(&set, "cafés"), Vec::<usize>::new());
    }

    #[test]
    fn a_pattern_that_does_not_parse_is_refused() {
        assert!(PatternSet::new(&["(unclosed"], LIMITS).is_err());
        let tiny = Limits {
            nfa: 64,
            cache: 1 << 20,
        };
        assert!(PatternSet::new(&[r"\w{50}"], tiny).is_err());
    }

    proptest! {
        /// The set answers what `regex::RegexSet` answers, on the same
        /// patterns, for any text (ASCII and not, with small caches that
        /// are cleared during the search).
        #[test]
        fn agrees_with_regex_set(text in "[a-c1-3 é_\\-]{0,40}") {
            let pats = [r"a+b", r"\bb", r"(?-u:\b)c\d", r"^\w", r"3$", r"é\s", r"[^a]{3}"];
            let ours = PatternSet::new(&pats, Limits { nfa: 1 << 22, cache: 0 }).unwrap();
            let theirs = regex::RegexSet::new(pats).unwrap();
            let expected: Vec<usize> = theirs.matches(&text).iter().collect();
            prop_assert_eq!(found(&ours, &text), expected);
        }
    }
}
