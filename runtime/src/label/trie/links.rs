//! The link pass of the automaton's build: failure and output links,
//! layer by layer, in chunks that two threads share ([`Links`]), and the
//! [`Board`] on which the thread building the automaton posts the pass
//! for the labeler's second thread to help with.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::{Automaton, NONE};

/// A set of node indices, one bit each.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }

    pub(super) fn set(&mut self, i: usize) {
        if let Some(w) = self.0.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    #[inline]
    fn has(&self, i: usize) -> bool {
        self.0.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 != 0)
    }
}

/// The link pass: the trie (its goto structure built), the links found
/// so far, and the pass cut into chunks that two threads can share.
///
/// Layer by layer, since a node's links are found from shallower nodes'
/// only; each layer is cut into chunks of about [`CHUNK_NODES`] nodes
/// (whole parents), handed out in order, and a chunk starts once every
/// chunk of the layers above it is finished. The links are atomics so
/// that a thread can write its chunk's nodes while the other reads the
/// layers done (relaxed loads and stores, plain moves on the targets we
/// build for; the chunk count published with release and read with
/// acquire orders them).
///
/// The thread that builds the automaton posts the pass on a [`Board`];
/// the labeler's second thread, once its own start-up work is done, takes
/// chunks from it ([`Board::help`]). Forking each large layer instead
/// cost a thread start per layer (50 µs or more here) for a few hundred
/// microseconds of work, and the second core then sat idle through the
/// smaller layers: it gained nothing.
pub(super) struct Links {
    a: Automaton,
    /// The nodes with a dense row ([`Automaton::build_dense`]).
    dense: Bits,
    fail: Vec<AtomicU32>,
    dict: Vec<AtomicU32>,
    report: Vec<AtomicU32>,
    chunks: Vec<Chunk>,
    /// The next chunk to hand out.
    next: AtomicUsize,
    /// How many chunks are finished.
    finished: AtomicUsize,
    /// A chunk failed (an inconsistent trie, or a panic: a bug): every
    /// thread stops, and the build returns `None`.
    failed: AtomicBool,
}

/// Nodes of one layer whose links one thread finds at a time.
struct Chunk {
    /// Their parents (the nodes are all their children).
    parents: std::ops::Range<u32>,
    /// The chunks of the layers above, which must be finished first.
    after: usize,
}

/// Nodes per chunk of the link pass: small enough that a thread waiting
/// for the last chunk of a layer waits a few microseconds (a few, in unit
/// tests, so that their small tries have many chunks to share).
const CHUNK_NODES: usize = if cfg!(test) { 2 } else { 512 };

/// Where a link pass is posted while it runs ([`Links`]), for another
/// thread to help with.
#[derive(Default)]
pub(crate) struct Board {
    state: Mutex<Posting>,
    changed: Condvar,
}

/// What a [`Board`] holds.
#[derive(Default)]
enum Posting {
    /// The automaton is still being built: a helper waits.
    #[default]
    Coming,
    Posted(Arc<Links>),
    /// The pass is over (or the build failed before it).
    Closed,
}

/// Closes a [`Board`] when dropped: whoever builds the automaton holds
/// one from its start, so that a helper waiting for the pass is let go
/// whatever happens to the build (an error, or a panic).
pub(crate) struct Closing<'a>(&'a Board);

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        self.0.set(Posting::Closed);
    }
}

impl Board {
    /// The guard that closes this board ([`Closing`]).
    pub(crate) fn closing(&self) -> Closing<'_> {
        Closing(self)
    }

    /// Posts `to`. A poisoned lock is taken over (nothing panics while
    /// holding it, and a board that could not be closed would leave the
    /// builder waiting for the helper's hold on the pass).
    fn set(&self, to: Posting) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = to;
        self.changed.notify_all();
    }

    /// Waits for the pass to be posted, then finds links in chunks of it
    /// until none is left; returns how many chunks it did (none if the
    /// board is closed first). The thread that calls this must not be
    /// the one building the automaton before it is built, which would
    /// wait for itself: `fork::join` runs its second thread's work after
    /// this thread's when it has no second thread, so the board is
    /// closed by then.
    pub(crate) fn help(&self) -> usize {
        let job = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                match &*state {
                    Posting::Coming => {
                        state = self
                            .changed
                            .wait(state)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                    Posting::Posted(job) => break Arc::clone(job),
                    Posting::Closed => return 0,
                }
            }
        };
        job.work()
    }
}

impl Links {
    /// The links of `a`, whose layer `d` ends at node `layer_end[d]`, on
    /// this thread and on any that helps through `board`.
    pub(super) fn find(
        a: Automaton,
        layer_end: &[u32],
        dense: Bits,
        board: Option<&Board>,
    ) -> Option<Automaton> {
        let job = Arc::new(Links::new(a, layer_end, dense)?);
        if let Some(board) = board {
            board.set(Posting::Posted(Arc::clone(&job)));
        }
        job.work();
        if let Some(board) = board {
            board.set(Posting::Closed);
        }
        // A helper finishes the chunks it took, then lets go of the pass.
        let done = job.wait_for(job.chunks.len());
        let mut job = job;
        let job = loop {
            match Arc::try_unwrap(job) {
                Ok(job) => break job,
                Err(shared) => {
                    job = shared;
                    std::thread::yield_now();
                }
            }
        };
        if !done || job.failed.into_inner() {
            return None;
        }
        let plain = |v: Vec<AtomicU32>| v.into_iter().map(AtomicU32::into_inner).collect();
        let mut a = job.a;
        (a.fail, a.dict, a.report) = (plain(job.fail), plain(job.dict), plain(job.report));
        Some(a)
    }

    fn new(a: Automaton, layer_end: &[u32], dense: Bits) -> Option<Links> {
        let n = a.byte.len();
        let filled = |v: u32| (0..n).map(|_| AtomicU32::new(v)).collect::<Vec<_>>();
        let mut chunks = Vec::new();
        let mut parents = 0..1u32;
        for &end in layer_end.get(1..)? {
            let after = chunks.len();
            let mut from = parents.start;
            let mut nodes = 0;
            for s in parents.clone() {
                nodes += a.children(s).len();
                if nodes >= CHUNK_NODES {
                    chunks.push(Chunk {
                        parents: from..s + 1,
                        after,
                    });
                    (from, nodes) = (s + 1, 0);
                }
            }
            if from < parents.end {
                chunks.push(Chunk {
                    parents: from..parents.end,
                    after,
                });
            }
            parents = parents.end..end;
        }
        Some(Links {
            fail: filled(0),
            dict: filled(NONE),
            report: filled(NONE),
            a,
            dense,
            chunks,
            next: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
        })
    }

    /// Takes chunks in order and finds their links until none is left or
    /// one fails; returns how many it did.
    fn work(&self) -> usize {
        // Marks the pass failed unless disarmed: a panic in a chunk (a
        // bug) must not leave the other thread waiting for it.
        struct Failing<'a>(&'a AtomicBool);
        impl Drop for Failing<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Release);
            }
        }
        let failing = Failing(&self.failed);
        let mut done = 0;
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(chunk) = self.chunks.get(k) else {
                break;
            };
            if !self.wait_for(chunk.after) || self.fill(chunk.parents.clone()).is_none() {
                return done;
            }
            self.finished.fetch_add(1, Ordering::Release);
            done += 1;
        }
        std::mem::forget(failing);
        done
    }

    /// Waits until `n` chunks are finished; `false` if the pass failed.
    /// Spins a little, then yields: the other thread is finishing a
    /// chunk of a few microseconds.
    fn wait_for(&self, n: usize) -> bool {
        let mut spins = 0u32;
        while self.finished.load(Ordering::Acquire) < n {
            if self.failed.load(Ordering::Acquire) {
                return false;
            }
            if spins < 1000 {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        true
    }

    /// The links of the children of `parents`: a node's failure is found
    /// from its parent's along the shallower failures, its output links
    /// from its failure's ([`Automaton::output_links`]).
    fn fill(&self, parents: std::ops::Range<u32>) -> Option<()> {
        let (a, load) = (&self.a, |v: &[AtomicU32], i: u32| {
            v.get(i as usize).map(|x| x.load(Ordering::Relaxed))
        });
        for s in parents {
            let first = if s == 0 { 0 } else { load(&self.fail, s)? };
            for c in a.children(s) {
                let b = *a.byte.get(c as usize)?;
                let f = if s == 0 {
                    0
                } else {
                    let mut f = first;
                    loop {
                        let x = if self.dense.has(f as usize) {
                            a.child(f, b)
                        } else {
                            a.sparse_child(f, b)
                        };
                        if let Some(x) = x {
                            break x;
                        }
                        if f == 0 {
                            break 0;
                        }
                        f = load(&self.fail, f)?;
                    }
                };
                let (d, r) = a.output_links(c, f, |f| {
                    self.report.get(f).map(|x| x.load(Ordering::Relaxed))
                })?;
                self.fail.get(c as usize)?.store(f, Ordering::Relaxed);
                self.dict.get(c as usize)?.store(d, Ordering::Relaxed);
                self.report.get(c as usize)?.store(r, Ordering::Relaxed);
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]

    use super::Board;
    use crate::label::trie::{Automaton, Sorted};
    use proptest::prelude::*;

    /// The automaton of `patterns` built while a second thread helps with
    /// the link pass from its start, and how many chunks it did.
    fn helped(patterns: &[String]) -> (Automaton, usize) {
        let n = u32::try_from(patterns.len()).unwrap();
        let pat = |i: u32| patterns.get(i as usize).map_or(&[][..], |p| p.as_bytes());
        let order = Sorted::new(n, pat).into_order();
        let board = Board::default();
        std::thread::scope(|s| {
            let helper = s.spawn(|| board.help());
            let a = {
                let _closing = board.closing();
                Automaton::from_sorted(n, pat, &order, Some(&board)).unwrap()
            };
            (a, helper.join().unwrap())
        })
    }

    /// Every array of two automata.
    fn same(a: &Automaton, b: &Automaton) -> bool {
        (
            &a.dense,
            &a.dense_row,
            &a.first_child,
            &a.fail,
            &a.dict,
            &a.report,
        ) == (
            &b.dense,
            &b.dense_row,
            &b.first_child,
            &b.fail,
            &b.dict,
            &b.report,
        ) && (&a.byte, &a.out_start, &a.out, &a.len) == (&b.byte, &b.out_start, &b.out, &b.len)
    }

    /// A lexicon-sized set of patterns (words of a few letters, some with
    /// a word start), shared by the link pass's two threads: the links
    /// are the ones one thread finds, and the helper did take chunks.
    #[test]
    fn two_threads_link_as_one() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        let patterns: Vec<String> = (0..3000)
            .map(|_| {
                let len = 1 + next() % 9;
                let mut p = if next() % 2 == 0 {
                    " ".to_owned()
                } else {
                    String::new()
                };
                p.extend((0..len).map(|_| char::from(b'a' + (next() % 12) as u8)));
                p
            })
            .collect();
        let one = Automaton::new(&patterns).unwrap();
        // Tries for a while: beside other tests on two cores, the helper
        // may not be scheduled while a pass runs.
        let mut helped_at_all = false;
        let start = std::time::Instant::now();
        while start.elapsed() < std::time::Duration::from_secs(10) {
            let (two, chunks) = helped(&patterns);
            assert!(same(&one, &two));
            helped_at_all |= chunks > 0;
            if helped_at_all {
                break;
            }
        }
        assert!(helped_at_all, "the helper never took a chunk");
    }

    /// A helper waiting for a pass that never comes (the build failed,
    /// or panicked, before it) is let go when the builder's guard drops.
    #[test]
    fn a_closed_board_lets_the_helper_go() {
        let board = Board::default();
        std::thread::scope(|s| {
            let helper = s.spawn(|| board.help());
            let built = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let _closing = board.closing();
                std::thread::sleep(std::time::Duration::from_millis(20));
                panic!("the build failed");
            }));
            assert!(built.is_err());
            assert_eq!(helper.join().unwrap(), 0);
        });
        // Closed, a late helper returns at once.
        assert_eq!(board.help(), 0);
    }

    proptest! {
        /// A helper from the start of the link pass changes nothing.
        #[test]
        fn helped_links_are_the_same(
            patterns in proptest::collection::vec("[ab ]{0,6}", 0..40),
        ) {
            let (two, _) = helped(&patterns);
            prop_assert!(same(&Automaton::new(&patterns).unwrap(), &two));
        }

    }
}
