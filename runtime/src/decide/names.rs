//! Name → id lookups of the decision path ([`NameIndex`]); the design is
//! in the [`super`] module documentation.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hasher for short, trusted keys (see the module docs).
#[derive(Default, Clone, Copy)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            for (d, s) in w.iter_mut().zip(rest) {
                *d = *s;
            }
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `BuildHasher` for [`FxHasher`].
pub type FxBuildHasher = BuildHasherDefault<FxHasher>;

/// Name → value id map used by [`NameIndex`] for large name sets.
pub type NameMap = HashMap<Box<str>, u32, FxBuildHasher>;

/// Up to this many names, [`NameIndex`] scans instead of hashing.
pub const SMALL_INDEX: usize = 24;

/// Name → value id lookup used for every string lookup on the decision path.
#[derive(Debug, Clone)]
pub enum NameIndex {
    /// A short list, bucketed by length (for a name given twice, the later
    /// id wins, as in the map).
    Small(SmallNames),
    /// A hash map for many names.
    Large(NameMap),
}

impl NameIndex {
    /// Build from `(name, id)` pairs; a later pair with an equal name wins.
    #[must_use]
    pub fn new(pairs: Vec<(Box<str>, u32)>) -> NameIndex {
        let mut map = NameMap::default();
        for (k, v) in &pairs {
            map.insert(k.clone(), *v);
        }
        if map.len() <= SMALL_INDEX {
            // Deduplicate keeping the last value, as the map did.
            let mut small: Vec<(Box<str>, u32)> = Vec::with_capacity(map.len());
            for (k, _) in &pairs {
                if !small.iter().any(|(s, _)| s == k) {
                    if let Some(v) = map.get(k) {
                        small.push((k.clone(), *v));
                    }
                }
            }
            NameIndex::Small(SmallNames::new(small))
        } else {
            NameIndex::Large(map)
        }
    }

    /// The id of `name`.
    #[inline]
    #[must_use]
    pub fn get(&self, name: &str) -> Option<u32> {
        match self {
            NameIndex::Small(v) => v.get(name),
            NameIndex::Large(m) => m.get(name).copied(),
        }
    }
}

/// A few names bucketed by byte length: a lookup reads the bucket of its
/// length (most hold one name or none) and compares at most the names of
/// that length. Written here because the decision path looks up three
/// names per event and, on a mix of names, a scan's exit branch and a
/// hash map's hashing both cost more than this.
#[derive(Debug, Clone, Default)]
pub struct SmallNames {
    /// Names sorted by length (stable: among equal lengths, insertion
    /// order).
    names: Vec<(Box<str>, u32)>,
    /// Per length `l`, the range of `names` of length `l`.
    by_len: Vec<(u32, u32)>,
}

impl SmallNames {
    fn new(mut names: Vec<(Box<str>, u32)>) -> SmallNames {
        names.sort_by_key(|(n, _)| n.len());
        let longest = names.last().map_or(0, |(n, _)| n.len());
        let mut by_len = vec![(0u32, 0u32); longest + 1];
        for (i, (n, _)) in (0u32..).zip(&names) {
            if let Some(slot) = by_len.get_mut(n.len()) {
                if slot.0 == slot.1 {
                    *slot = (i, i);
                }
                slot.1 = i + 1;
            }
        }
        SmallNames { names, by_len }
    }

    #[inline]
    fn get(&self, name: &str) -> Option<u32> {
        let &(a, b) = self.by_len.get(name.len())?;
        self.names
            .get(a as usize..b as usize)?
            .iter()
            .find(|(k, _)| same(k.as_bytes(), name.as_bytes()))
            .map(|(_, id)| *id)
    }
}

/// `a == b` for names of equal length, inline instead of a call to
/// `memcmp` (which, on a mix of short names, cost more than the rest of a
/// lookup): a name of 8 bytes or more is compared as 8-byte words, the last
/// one overlapping; 4 to 7 bytes as two overlapping 4-byte words; 1 to 3 as
/// its first, middle and last bytes, which cover it.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if b.len() != n {
        return false;
    }
    let word = |s: &[u8], at: usize| {
        s.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_le_bytes)
    };
    let half = |s: &[u8], at: usize| {
        s.get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map(u32::from_le_bytes)
    };
    match n {
        0 => true,
        1..=3 => a.first() == b.first() && a.get(n / 2) == b.get(n / 2) && a.last() == b.last(),
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => {
            let mut at = 0;
            while at + 8 < n {
                if word(a, at) != word(b, at) {
                    return false;
                }
                at += 8;
            }
            word(a, n - 8) == word(b, n - 8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NameIndex;
    use proptest::prelude::*;

    fn index(names: &[String]) -> (NameIndex, std::collections::HashMap<String, u32>) {
        let pairs: Vec<(Box<str>, u32)> = (0u32..)
            .zip(names)
            .map(|(i, n)| (n.as_str().into(), i))
            .collect();
        // A later pair with an equal name wins, as in a map.
        let mut want = std::collections::HashMap::new();
        for (n, i) in &pairs {
            want.insert(n.to_string(), *i);
        }
        (NameIndex::new(pairs), want)
    }

    proptest! {
        /// The small index (length buckets, word compares) and the large
        /// one (a hash map) answer as a map does, for names that share
        /// lengths, prefixes and suffixes, on either side of 4, 8, 16 and 24
        /// bytes.
        #[test]
        fn a_name_index_answers_as_a_map(
            names in prop::collection::vec("[ab.]{0,40}", 0..40),
            probes in prop::collection::vec("[ab.]{0,40}", 0..40),
        ) {
            let (idx, want) = index(&names);
            prop_assert_eq!(
                matches!(idx, NameIndex::Small(_)),
                want.len() <= super::SMALL_INDEX
            );
            for p in names.iter().chain(&probes) {
                prop_assert_eq!(idx.get(p), want.get(p).copied(), "{:?}", p);
            }
        }
    }
}
