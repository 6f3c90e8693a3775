//! A compact Aho-Corasick automaton over byte strings, built in one pass
//! from the sorted patterns, for the `terms` and `parts` entries of every
//! lexicon.
//!
//! Written here rather than taken from the `aho-corasick` crate (which the
//! labeler still uses for verbatim `lexicon` phrases): the std tables carry
//! about 40,000 entries, and building that crate's automaton took about
//! 55 ms and freeing it 15 ms, paid by every agent process at start-up
//! (issue 15). Sorted input lets the trie be built without hashing or a
//! per-node allocation: each pattern adds the nodes past its common prefix
//! with the one before, in preorder, and a counting sort by depth then
//! numbers them **breadth-first with every node's children contiguous and
//! in byte order**: a node is its index, its children are the range
//! `first_child[s]..first_child[s + 1]`, and the byte on the edge into a node
//! is `byte[node]`. Failure and output links are then found layer by
//! layer (a node's failure is shallower, so has a smaller index), in
//! chunks that the labeler's second thread shares once its own start-up
//! work is done ([`links`]). The whole build is linear in the
//! total pattern length after the sort (which the labeler does in two
//! halves on two threads, merged: [`Sorted`]), and the automaton is seven
//! flat arrays (about 26 bytes per node) and dense rows for the busiest
//! nodes.
//!
//! Search reports every occurrence of every pattern (overlapping), in order
//! of end position, in time linear in the text plus the number of matches:
//! the root's and every busy node's transitions are a dense row, other
//! nodes' a short sorted run, and output links skip to the next shorter
//! pattern that ends at the same place.

mod links;

pub(crate) use links::Board;
use links::{Bits, Links};

/// No node (the end of an output-link chain).
const NONE: u32 = u32::MAX;

/// Nodes with more children than this get a dense transition row.
const DENSE_MIN: u32 = 6;

/// The automaton.
#[derive(Debug, Default)]
pub(crate) struct Automaton {
    /// Dense transition rows (256 entries each, 0: none) of the root and of
    /// every node with more than [`DENSE_MIN`] children: the nodes every
    /// word start passes through (the root, ` `, ` a`, ...).
    dense: Vec<u32>,
    /// Per node, its row in `dense` plus one, or 0 for a sparse node.
    dense_row: Vec<u32>,
    /// Per node, the index of its first child; one more entry at the end.
    first_child: Vec<u32>,
    /// Per node, the byte on the edge into it.
    byte: Vec<u8>,
    /// Per node, the longest proper suffix that is a node.
    fail: Vec<u32>,
    /// Per node, the longest proper suffix that ends a pattern, or [`NONE`].
    dict: Vec<u32>,
    /// Per node, the first node of its output chain: itself if a pattern
    /// ends there, else `dict` (one load per byte of text for the common
    /// node that reports nothing).
    report: Vec<u32>,
    /// Per node, where its patterns start in `out`; one more at the end.
    out_start: Vec<u32>,
    /// Pattern ids, grouped by the node they end at.
    out: Vec<u32>,
    /// Per pattern id, its length in bytes.
    len: Vec<u32>,
}

impl Automaton {
    /// Builds the automaton of `patterns`; pattern `i` is reported as `i`.
    /// Empty patterns never match. (The labeler sorts its patterns on the
    /// threads that fold them, and calls [`Automaton::from_sorted`].)
    #[cfg(test)]
    pub(crate) fn new<P: AsRef<[u8]>>(patterns: &[P]) -> Option<Automaton> {
        let n = u32::try_from(patterns.len()).ok()?;
        let pat = |i: u32| patterns.get(i as usize).map_or(&[][..], AsRef::as_ref);
        let order = Sorted::new(n, pat).into_order();
        Automaton::from_sorted(n, pat, &order, None)
    }

    /// The automaton of `patterns` (pattern `i` reported as `i`, empty
    /// patterns never matching), from the non-empty patterns' ids in the
    /// build's order ([`Sorted`]): as one sort gives them, or two halves
    /// sorted on two threads and merged.
    ///
    /// # Errors
    ///
    /// `None` if the patterns have more than `u32::MAX` nodes in total (or
    /// a second thread panicked, a bug).
    pub(crate) fn from_sorted<'p>(
        n_pat: u32,
        pat: impl Fn(u32) -> &'p [u8] + Copy,
        order: &[u32],
        board: Option<&Board>,
    ) -> Option<Automaton> {
        // Whatever the caller holds, a helper waiting on `board` is let go
        // when this returns, early or not (closing twice does no harm).
        let _closing = board.map(Board::closing);
        let len: Vec<u32> = (0..n_pat)
            .map(|i| u32::try_from(pat(i).len()).unwrap_or(u32::MAX))
            .collect();
        let total: usize = len.iter().map(|&l| l as usize).sum();

        // The trie in preorder: each sorted pattern shares its longest
        // common prefix with the one before, so it adds a node per byte
        // past that prefix, under the node the previous pattern reached at
        // that depth (`path`). Linear in the total pattern length.
        let mut parent: Vec<u32> = Vec::with_capacity(total / 2);
        let mut byte: Vec<u8> = Vec::with_capacity(total / 2);
        let mut depth: Vec<u32> = Vec::with_capacity(total / 2);
        parent.push(0);
        byte.push(0);
        depth.push(0);
        // Nodes per depth (the root at 0), counted as they are made.
        let mut per_depth: Vec<u32> = vec![1];
        let mut path: Vec<u32> = vec![0];
        // (node in preorder, pattern) for every pattern end.
        let mut ends: Vec<(u32, u32)> = Vec::with_capacity(order.len());
        let mut prev: &[u8] = &[];
        for &p in order {
            let this = pat(p);
            let common = prev.iter().zip(this).take_while(|(a, b)| a == b).count();
            path.truncate(common + 1);
            if per_depth.len() <= this.len() {
                per_depth.resize(this.len() + 1, 0);
            }
            for (&b, d) in this.get(common..)?.iter().zip(common + 1..) {
                let node = u32::try_from(byte.len()).ok()?;
                parent.push(*path.last()?);
                byte.push(b);
                depth.push(u32::try_from(d).ok()?);
                *per_depth.get_mut(d)? += 1;
                path.push(node);
            }
            ends.push((*path.get(this.len())?, p));
            prev = this;
        }
        let n = u32::try_from(byte.len()).ok()?;

        // Breadth-first numbering: the preorder nodes sorted by depth,
        // stably (a counting sort). Within a depth, preorder is the order
        // of the prefixes the nodes spell, so each node's children come
        // out contiguous, in byte order, after those of every node before
        // it: the layout the search and the index rely on.
        // `next[d]`: the nodes shallower than `d`, where depth `d` starts.
        let mut next = Vec::with_capacity(per_depth.len() + 1);
        let mut shallower = 0u32;
        for &count in &per_depth {
            next.push(shallower);
            shallower += count;
        }
        next.push(shallower);
        // Each node's depth is replaced by its breadth-first number.
        let mut rank = depth;
        for r in &mut rank {
            let slot = next.get_mut(*r as usize)?;
            *r = *slot;
            *slot += 1;
        }
        let mut a = Automaton {
            len,
            byte: vec![0; n as usize],
            ..Automaton::default()
        };
        // Children per node, then their prefix sums: the first child.
        let mut first_child = vec![0u32; n as usize + 1];
        for v in 1..n as usize {
            let r = *rank.get(v)? as usize;
            *a.byte.get_mut(r)? = *byte.get(v)?;
            let up = *rank.get(*parent.get(v)? as usize)? as usize;
            *first_child.get_mut(up)? += 1;
        }
        drop((parent, byte));
        let mut before = 1u32;
        for c in &mut first_child {
            let kids = *c;
            *c = before;
            before += kids;
        }
        a.first_child = first_child;

        // Outputs grouped by node, by a counting sort: `out_start[v]` is
        // first the number of patterns ending at or before `v`, and each
        // pattern, taken from the last, goes just below its node's count,
        // so one node's patterns keep the sorted order (by id).
        let mut out_start = vec![0u32; n as usize + 1];
        for (node, _) in &mut ends {
            *node = *rank.get(*node as usize)?;
            *out_start.get_mut(*node as usize)? += 1;
        }
        drop(rank);
        let mut ending = 0u32;
        for c in &mut out_start {
            ending += *c;
            *c = ending;
        }
        a.out = vec![0; ends.len()];
        for &(node, p) in ends.iter().rev() {
            let slot = out_start.get_mut(node as usize)?;
            *slot -= 1;
            *a.out.get_mut(*slot as usize)? = p;
        }
        a.out_start = out_start;

        let dense = a.build_dense()?;
        Links::find(a, &next, dense, board)
    }

    /// The output links, from the failure links and the patterns' nodes,
    /// for an index load ([`Automaton::from_sorted`] finds them with the failure
    /// links): one pass in index order, since a node's failure is a
    /// smaller index. Derived rather than stored in an index (they were
    /// two of its seven per-node arrays). `None` for a failure link past
    /// the nodes.
    fn build_outputs(&mut self) -> Option<()> {
        let n = self.byte.len();
        let (mut dict, mut report) = (vec![NONE; n], vec![NONE; n]);
        for c in 1..n {
            let f = *self.fail.get(c)?;
            let (d, r) =
                self.output_links(u32::try_from(c).ok()?, f, |f| report.get(f).copied())?;
            (*dict.get_mut(c)?, *report.get_mut(c)?) = (d, r);
        }
        (self.dict, self.report) = (dict, report);
        Some(())
    }

    /// The output links of node `c` whose failure is `f`, `report`
    /// holding those of the nodes before `c`: its dictionary link is the
    /// first node of `f`'s output chain (`f` when a pattern ends there,
    /// else `f`'s own dictionary link; none at the root), and the first
    /// node of its own chain is `c` itself when a pattern ends there, else
    /// its dictionary link. One load of `f`'s entry, not of its outputs'
    /// bounds and then its dictionary link: `f` is anywhere shallower, so
    /// each is a cache miss in a large automaton.
    #[inline]
    fn output_links(
        &self,
        c: u32,
        f: u32,
        report: impl FnOnce(usize) -> Option<u32>,
    ) -> Option<(u32, u32)> {
        let d = if f == 0 { NONE } else { report(f as usize)? };
        Some((d, if self.has_output(c) { c } else { d }))
    }

    /// Appends the automaton in the index encoding ([`super::index`]).
    /// The dense rows: the root's and every node's with more than
    /// [`DENSE_MIN`] children. Derived from the children, so an index does
    /// not store them (they were a sixth of its bytes). Linear in the
    /// nodes when `first_child` is monotone, which [`Automaton::read`]
    /// checks before calling this. Returns which nodes have a row, as a
    /// bit set the link pass reads instead of `dense_row` (a few
    /// kilobytes that stay cached, where most entries of `dense_row` are
    /// a cache miss and zero).
    fn build_dense(&mut self) -> Option<Bits> {
        let n = u32::try_from(self.byte.len()).ok()?;
        self.dense.clear();
        self.dense_row = vec![0; n as usize];
        let mut rows = Bits::new(n as usize);
        for s in 0..n {
            let kids = self.children(s);
            if s != 0 && kids.len() <= DENSE_MIN as usize {
                continue;
            }
            rows.set(s as usize);
            let row = u32::try_from(self.dense.len() / 256).ok()?;
            self.dense.resize(self.dense.len() + 256, 0);
            for c in kids {
                let b = usize::from(*self.byte.get(c as usize)?);
                *self.dense.get_mut(row as usize * 256 + b)? = c;
            }
            *self.dense_row.get_mut(s as usize)? = row + 1;
        }
        Some(rows)
    }

    pub(crate) fn write(&self, w: &mut super::index::Writer) {
        w.u32s(&self.first_child);
        w.bytes(&self.byte);
        w.u32s(&self.fail);
        w.u32s(&self.out_start);
        w.u32s(&self.out);
        w.u32s(&self.len);
    }

    /// Reads an automaton [`Automaton::write`] wrote, or `None` if the
    /// arrays break an invariant the search relies on to stay in bounds
    /// and to terminate.
    pub(crate) fn read(r: &mut super::index::Reader<'_>) -> Option<Automaton> {
        let first_child = r.u32s()?;
        let byte = r.bytes()?;
        // Every node sparse until the structure is checked; the dense rows
        // are then derived (see `build_dense`).
        let mut a = Automaton {
            dense: Vec::new(),
            dense_row: vec![0; byte.len()],
            first_child,
            byte,
            fail: r.u32s()?,
            dict: Vec::new(),
            report: Vec::new(),
            out_start: r.u32s()?,
            out: r.u32s()?,
            len: r.u32s()?,
        };
        // Derived before the check, which then covers them too: a failure
        // link that does not go up is refused there, and until then every
        // read of the derivation is bounds-checked.
        a.build_outputs()?;
        if !a.consistent() {
            return None;
        }
        // Derived from checked links, so in bounds by construction; the
        // rows alone are checked again rather than every array.
        a.build_dense()?;
        a.dense_consistent().then_some(a)
    }

    /// The invariants [`Automaton::from_sorted`] establishes: every array has one
    /// entry per node (two with one more), transitions and child ranges
    /// stay inside the nodes, failure and output links go to a smaller
    /// node (so every chain ends), and outputs name patterns that exist.
    fn consistent(&self) -> bool {
        let n = self.byte.len();
        if n == 0 {
            return self.dense.is_empty()
                && self.dense_row.is_empty()
                && self.first_child.is_empty()
                && self.fail.is_empty()
                && self.dict.is_empty()
                && self.report.is_empty()
                && self.out_start.is_empty()
                && self.out.is_empty();
        }
        if u32::try_from(n).is_err() {
            return false;
        }
        let per_node = [&self.dense_row, &self.fail, &self.dict, &self.report];
        if per_node.iter().any(|v| v.len() != n)
            || self.first_child.len() != n + 1
            || self.out_start.len() != n + 1
            || self.dense.len() % 256 != 0
        {
            return false;
        }
        let monotone = |v: &[u32], last: usize| {
            v.windows(2).all(|w| w.first() <= w.get(1))
                && v.last().is_some_and(|&x| x as usize <= last)
        };
        let below = |v: &[u32], strict: bool| {
            (0u32..)
                .zip(v)
                .all(|(s, &x)| x == NONE || if strict { x < s } else { x <= s })
        };
        // The root fails to itself (the search stops there); every other
        // node to a shallower one.
        let fails_up =
            self.fail.first() == Some(&0) && (0u32..).zip(&self.fail).skip(1).all(|(s, &f)| f < s);
        self.dense_consistent()
            && monotone(&self.first_child, n)
            && monotone(&self.out_start, self.out.len())
            && self
                .out_start
                .last()
                .is_some_and(|&x| x as usize == self.out.len())
            && fails_up
            && below(&self.dict, true)
            && below(&self.report, false)
            && self.out.iter().all(|&p| (p as usize) < self.len.len())
    }

    /// The part of [`Automaton::consistent`] about the dense rows: every
    /// transition names a node, every row reference a row.
    fn dense_consistent(&self) -> bool {
        let n = self.byte.len();
        let rows = self.dense.len() / 256;
        self.dense.len() % 256 == 0
            && self.dense_row.len() == n
            && self.dense.iter().all(|&c| (c as usize) < n)
            && self.dense_row.iter().all(|&r| (r as usize) <= rows)
    }

    /// Whether the automaton reports pattern ids below `n` exactly (one
    /// length per pattern).
    pub(crate) fn pattern_count_is(&self, n: usize) -> bool {
        self.len.len() == n
    }

    /// Whether the automaton has no pattern.
    pub(crate) fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    fn children(&self, s: u32) -> std::ops::Range<u32> {
        let lo = self.first_child.get(s as usize).copied().unwrap_or(0);
        let hi = self.first_child.get(s as usize + 1).copied().unwrap_or(lo);
        lo..hi
    }

    fn has_output(&self, s: u32) -> bool {
        let lo = self.out_start.get(s as usize).copied().unwrap_or(0);
        let hi = self.out_start.get(s as usize + 1).copied().unwrap_or(lo);
        hi > lo
    }

    #[inline]
    fn child(&self, s: u32, b: u8) -> Option<u32> {
        let row = self.dense_row.get(s as usize).copied().unwrap_or(0);
        if row != 0 {
            let at = (row as usize - 1) * 256 + usize::from(b);
            return self.dense.get(at).copied().filter(|&c| c != 0);
        }
        self.sparse_child(s, b)
    }

    /// The child of a node without a dense row: a scan of its at most
    /// [`DENSE_MIN`] children.
    #[inline]
    fn sparse_child(&self, s: u32, b: u8) -> Option<u32> {
        let r = self.children(s);
        let bytes = self.byte.get(r.start as usize..r.end as usize)?;
        let i = bytes.iter().position(|&x| x == b)?;
        Some(r.start + u32::try_from(i).ok()?)
    }

    /// Calls `f(pattern, start, end)` for every occurrence of every pattern
    /// in `text`, in order of `end`.
    pub(crate) fn for_each_match(&self, text: &[u8], mut f: impl FnMut(u32, usize, usize)) {
        if self.is_empty() {
            return;
        }
        let mut s = 0u32;
        for (i, &b) in text.iter().enumerate() {
            loop {
                if let Some(x) = self.child(s, b) {
                    s = x;
                    break;
                }
                if s == 0 {
                    break;
                }
                s = self.fail.get(s as usize).copied().unwrap_or(0);
            }
            let mut o = self.report.get(s as usize).copied().unwrap_or(NONE);
            while o != NONE {
                let lo = self.out_start.get(o as usize).copied().unwrap_or(0);
                let hi = self.out_start.get(o as usize + 1).copied().unwrap_or(lo);
                for &p in self.out.get(lo as usize..hi as usize).unwrap_or(&[]) {
                    let len = self.len.get(p as usize).copied().unwrap_or(0) as usize;
                    f(p, i + 1 - len.min(i + 1), i + 1);
                }
                o = self.dict.get(o as usize).copied().unwrap_or(NONE);
            }
        }
    }
}

/// Non-empty patterns in the order the build adds them: by their bytes,
/// then by id. Each is kept beside a key of its first sixteen bytes
/// (big-endian, zero-padded), compared first: the key's order agrees with
/// the bytes' wherever keys differ (a shorter pattern padded with zeros
/// differs from a longer one only where the longer has a non-zero byte,
/// and then it is its prefix), and comparing two integers instead of
/// following two slices into the lexicons is most of the sort (issue 15).
/// Sixteen bytes, not eight: a `terms` pattern spends its first on the
/// word start, and entries sharing seven letters (`cardiolog...`) are
/// common.
#[derive(Debug, Default)]
pub(crate) struct Sorted(Vec<(u128, u32)>);

impl Sorted {
    /// The order of the `n` patterns `pat(0)`, `pat(1)`, ...
    pub(crate) fn new<'p>(n: u32, pat: impl Fn(u32) -> &'p [u8] + Copy) -> Sorted {
        let key = |p: &[u8]| {
            let mut k = [0u8; 16];
            for (slot, b) in k.iter_mut().zip(p) {
                *slot = *b;
            }
            u128::from_be_bytes(k)
        };
        let mut keyed: Vec<(u128, u32)> = (0..n)
            .filter(|&i| !pat(i).is_empty())
            .map(|i| (key(pat(i)), i))
            .collect();
        keyed.sort_unstable_by(|a, b| Sorted::compare(pat, a, b));
        Sorted(keyed)
    }

    /// The same order with every id `by` more: the patterns were sorted
    /// apart as the second part of a longer list.
    pub(crate) fn shifted(mut self, by: u32) -> Sorted {
        for (_, i) in &mut self.0 {
            *i = i.saturating_add(by);
        }
        self
    }

    fn compare<'p>(
        pat: impl Fn(u32) -> &'p [u8],
        &(ka, a): &(u128, u32),
        &(kb, b): &(u128, u32),
    ) -> std::cmp::Ordering {
        ka.cmp(&kb).then_with(|| pat(a).cmp(pat(b))).then(a.cmp(&b))
    }

    /// The ids in order.
    pub(crate) fn into_order(self) -> Vec<u32> {
        self.0.into_iter().map(|(_, i)| i).collect()
    }

    /// The order of both halves' patterns together, `pat` giving the
    /// patterns of the whole list the ids of both index: one merge.
    pub(crate) fn merge<'p>(self, other: Sorted, pat: impl Fn(u32) -> &'p [u8] + Copy) -> Vec<u32> {
        let (mut low, mut high) = (&self.0[..], &other.0[..]);
        let mut out = Vec::with_capacity(low.len() + high.len());
        while let (Some((x, lows)), Some((y, highs))) = (low.split_first(), high.split_first()) {
            if Sorted::compare(pat, y, x).is_lt() {
                out.push(y.1);
                high = highs;
            } else {
                out.push(x.1);
                low = lows;
            }
        }
        out.extend(low.iter().chain(high).map(|&(_, i)| i));
        out
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test code")]

    use super::{Automaton, Sorted};
    use proptest::prelude::*;

    fn pat(list: &[String], i: u32) -> &[u8] {
        list.get(i as usize).map_or(&[][..], |p| p.as_bytes())
    }

    /// Every occurrence, by brute force, in the automaton's order.
    fn naive(patterns: &[String], text: &str) -> Vec<(u32, usize, usize)> {
        let mut out = Vec::new();
        for end in 1..=text.len() {
            let mut here: Vec<(u32, usize, usize)> = Vec::new();
            for (i, p) in (0u32..).zip(patterns) {
                if !p.is_empty()
                    && end >= p.len()
                    && text.as_bytes()[end - p.len()..end] == *p.as_bytes()
                {
                    here.push((i, end - p.len(), end));
                }
            }
            // The automaton reports longer patterns first at one end, and
            // patterns of one node in id order.
            here.sort_by_key(|&(i, s, _)| (s, i));
            out.extend(here);
        }
        out
    }

    fn found(patterns: &[String], text: &str) -> Vec<(u32, usize, usize)> {
        let a = Automaton::new(patterns).unwrap();
        let mut out = Vec::new();
        a.for_each_match(text.as_bytes(), |p, s, e| out.push((p, s, e)));
        out
    }

    #[test]
    fn overlapping_and_nested() {
        let pats: Vec<String> = ["he", "she", "his", "hers", " she", "e", "he"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(found(&pats, "ushers she"), naive(&pats, "ushers she"));
        assert!(found(&pats, "ushers").contains(&(3, 2, 6)));
        assert!(found(&[String::new()], "abc").is_empty());
    }

    /// The links found by the link pass are the ones an index load
    /// derives from the failures alone.
    fn outputs_rederived(patterns: &[String]) -> bool {
        let a = Automaton::new(patterns).unwrap();
        let mut b = Automaton {
            dense: a.dense.clone(),
            dense_row: a.dense_row.clone(),
            first_child: a.first_child.clone(),
            byte: a.byte.clone(),
            fail: a.fail.clone(),
            dict: Vec::new(),
            report: Vec::new(),
            out_start: a.out_start.clone(),
            out: a.out.clone(),
            len: a.len.clone(),
        };
        b.build_outputs().unwrap();
        a.consistent() && a.dict == b.dict && a.report == b.report
    }

    proptest! {
        /// Two halves sorted apart and merged are in the one sort's order.
        #[test]
        fn merged_halves_are_sorted_as_one(
            patterns in proptest::collection::vec("(abababababababab)?[ab\\x00]{0,4}", 0..30),
            cut in 0usize..30,
        ) {
            let cut = cut.min(patterns.len());
            let n = |list: &[String]| u32::try_from(list.len()).unwrap();
            let (first, second) = patterns.split_at(cut);
            let merged = Sorted::new(n(first), |i| pat(first, i)).merge(
                Sorted::new(n(second), |i| pat(second, i)).shifted(n(first)),
                |i| pat(&patterns, i),
            );
            let whole = Sorted::new(n(&patterns), |i| pat(&patterns, i)).into_order();
            prop_assert_eq!(merged, whole);
        }

        /// Nodes with every count of children, sparse (a scan) and dense
        /// (a row).
        #[test]
        fn agrees_over_a_wide_alphabet(
            patterns in proptest::collection::vec("[a-l]{0,3}", 0..60),
            text in "[a-m]{0,40}",
        ) {
            prop_assert_eq!(found(&patterns, &text), naive(&patterns, &text));
        }

        #[test]
        fn links_agree_with_the_index_derivation(
            patterns in proptest::collection::vec("[ab ]{0,6}", 0..40),
        ) {
            prop_assert!(outputs_rederived(&patterns));
        }

        #[test]
        fn agrees_with_brute_force(
            patterns in proptest::collection::vec("[ab ]{0,5}", 0..12),
            text in "[abc ]{0,40}",
        ) {
            prop_assert_eq!(found(&patterns, &text), naive(&patterns, &text));
        }

        /// Patterns longer than the sort key's sixteen bytes, sharing long
        /// prefixes, and with NUL bytes (which the key pads with): the
        /// build's sort must still order them as bytes.
        #[test]
        fn agrees_past_the_sort_key(
            patterns in proptest::collection::vec("(abababababababab|a\\x00)?[ab\\x00]{0,6}", 0..12),
            text in "[ab\\x00]{0,80}",
        ) {
            prop_assert_eq!(found(&patterns, &text), naive(&patterns, &text));
        }
    }
}
