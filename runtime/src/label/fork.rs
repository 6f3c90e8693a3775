//! Two pieces of start-up work at once, on a second thread.
//!
//! Building a labeler from a table's lexicons is CPU-bound work that splits
//! into independent halves (folding two halves of the entries, sorting two
//! halves of the patterns, the typo table beside the automaton), and an
//! agent process starts on a machine with more than one core. Written here
//! rather than taken from `rayon`: `rayon::join` runs on a global pool that
//! would outlive the start-up in every process embedding the runtime, for a
//! handful of forks that each take milliseconds, where a scoped thread's
//! few tens of microseconds do not show.

/// Runs `a` on a second thread while `b` runs on this one, and returns
/// both results. Without a thread to spare (the spawn fails), one after
/// the other, here: `b`, then `a`, an order callers rely on (the
/// labeler's second thread waits on a board the automaton's build closes,
/// `trie::Board::help`). `None` for `a` if it panicked: a runtime bug, which
/// the caller reports as a load error rather than a panic of its own.
pub(crate) fn join<A, B>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (Option<A>, B)
where
    A: Send,
{
    // Whoever takes the job first runs it: the helper, or this thread
    // when there is no helper.
    let job = std::sync::Mutex::new(Some(a));
    let run = || {
        let a = job.lock().ok()?.take()?;
        Some(a())
    };
    std::thread::scope(|s| {
        let helper = std::thread::Builder::new().spawn_scoped(s, run);
        let b = b();
        let a = helper.ok().and_then(|h| h.join().ok().flatten());
        (a.or_else(run), b)
    })
}

#[cfg(test)]
mod tests {
    use super::join;

    #[test]
    fn both_run_and_a_panic_is_none() {
        let (a, b) = join(|| 2 + 2, || "here");
        assert_eq!((a, b), (Some(4), "here"));
        let (a, b) = join(|| -> u8 { panic!("helper") }, || 7);
        assert_eq!((a, b), (None, 7));
    }
}
