//! The labeler index: the `terms` and `parts` automata of a table, built
//! once by the compiler and loaded by every process instead of rebuilt
//! from the lexicons (issue 15: building them is about two thirds of
//! `Engine::new` on a std table).
//!
//! **Binding.** A table names its index by SHA-256 ([`crate::table::IndexRef`]),
//! inside the content its digest (and so its signature) covers, so an index
//! that was edited, truncated or written for another table is refused by
//! [`Index::bind`]: a process either labels with exactly what the compiler built or
//! builds it from the lexicons itself, never with something else.
//!
//! **Hostile bytes.** Even an index whose hash matches is decoded with
//! every length and index checked ([`Reader`], `Automaton::read`,
//! `TermIndex::read`): no input can make a load or a later scan panic or
//! loop, whatever it makes match.
//!
//! **Format** (all integers little-endian): the magic `STPCIDX1`, a `u32`
//! format version ([`VERSION`]), then the `terms` index and the `parts`
//! index. Each array is a `u32` element count followed by its elements
//! (`u32` each, or bytes for the automaton's edge bytes). The encoding is
//! a deterministic function of the table, so the same contract compiles
//! to the same index on every machine.
//!
//! Written by hand rather than with a serialisation crate: it is a dozen
//! flat arrays, and the point is loading them with one bounds-checked copy
//! each, then checking the invariants the scans rely on.

use super::terms::TermIndex;
use crate::error::LoadError;
use crate::table::Table;

/// The first eight bytes of every index.
pub const MAGIC: &[u8; 8] = b"STPCIDX1";

/// Version of the index encoding this runtime reads and writes.
/// Version 2 no longer stores the automata's dense rows (derived on load);
/// version 3 keys the typo entries with a polynomial hash (`terms.rs`,
/// `typo_keys`) instead of FNV-1a, and no longer stores the automata's
/// output links (`dict`, `report`; derived on load from the failure links).
pub const VERSION: u32 = 3;

/// Appends arrays in the index encoding.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub(crate) out: Vec<u8>,
}

impl Writer {
    fn len(&mut self, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        self.out.extend_from_slice(&n.to_le_bytes());
    }

    pub(crate) fn u32s(&mut self, xs: &[u32]) {
        self.len(xs.len());
        self.out.reserve(xs.len() * 4);
        for x in xs {
            self.out.extend_from_slice(&x.to_le_bytes());
        }
    }

    pub(crate) fn bytes(&mut self, xs: &[u8]) {
        self.len(xs.len());
        self.out.extend_from_slice(xs);
    }
}

/// Reads arrays in the index encoding; `None` at the first length that
/// runs past the end.
#[derive(Debug)]
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    fn count(&mut self) -> Option<usize> {
        let b: [u8; 4] = self.take(4)?.try_into().ok()?;
        usize::try_from(u32::from_le_bytes(b)).ok()
    }

    pub(crate) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.count()?;
        let raw = self.take(n.checked_mul(4)?)?;
        Some(
            raw.chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
                .collect(),
        )
    }

    pub(crate) fn bytes(&mut self) -> Option<Vec<u8>> {
        let n = self.count()?;
        Some(self.take(n)?.to_vec())
    }
}

/// Lowercase hex SHA-256 of `bytes`, as [`crate::table::IndexRef::sha256`]
/// holds it.
#[must_use]
pub fn sha256_hex(bytes: &[u8]) -> String {
    crate::table::digest::sha256_hex(bytes)
}

/// The index of `table`'s labeler: what `stpc compile` writes beside a
/// table, and what the table then names in its `index` field.
///
/// # Errors
///
/// A lexicon the runtime cannot compile (as [`super::Labeler::new`]).
pub fn build(table: &Table) -> Result<Vec<u8>, LoadError> {
    let labeler = super::Labeler::new(table)?;
    Ok(encode(&labeler.terms, &labeler.parts))
}

/// `table` naming its index ([`build`]), resealed, and the index's bytes:
/// what `stpc compile -o` writes, the table and the file beside it.
///
/// # Errors
///
/// As [`build`]; [`LoadError::Encode`] if the table does not serialise.
pub fn attach(mut table: Table) -> Result<(Table, Vec<u8>), LoadError> {
    let bytes = build(&table)?;
    table.index = Some(crate::table::IndexRef {
        sha256: sha256_hex(&bytes),
        bytes: u64::try_from(bytes.len()).unwrap_or(u64::MAX),
    });
    let table = table.seal().map_err(|_| LoadError::Encode)?;
    Ok((table, bytes))
}

pub(crate) fn encode(terms: &TermIndex, parts: &TermIndex) -> Vec<u8> {
    let mut w = Writer::default();
    w.out.extend_from_slice(MAGIC);
    w.out.extend_from_slice(&VERSION.to_le_bytes());
    terms.write(&mut w);
    parts.write(&mut w);
    w.out
}

/// A labeler index decoded from its bytes and hashed, not yet bound to a
/// table: what a loader can prepare on a spare thread while the table
/// itself is still being parsed and checked (the index does not depend on
/// it), then hand to [`crate::Engine::with_decoded_index`]. Nothing in it
/// is used unless [`Index::bind`] finds it is the index the table names.
#[derive(Debug)]
pub struct Index {
    sha256: String,
    bytes: u64,
    terms: TermIndex,
    parts: TermIndex,
}

impl Index {
    /// Decodes index bytes (as `stpc compile` writes them beside a table)
    /// and hashes them. Never panics or loops on any bytes.
    ///
    /// # Errors
    ///
    /// [`LoadError::Index`] when the bytes do not decode into indexes
    /// whose automata keep their invariants (see `Automaton::read`).
    pub fn decode(bytes: &[u8]) -> Result<Index, LoadError> {
        let (terms, parts) = decode(bytes).ok_or(LoadError::Index(
            "it does not decode into a labeler index of this runtime",
        ))?;
        Ok(Index {
            sha256: sha256_hex(bytes),
            bytes: u64::try_from(bytes.len()).unwrap_or(u64::MAX),
            terms,
            parts,
        })
    }

    /// The `terms` and `parts` indexes, if this is the index `table`
    /// names (same length and SHA-256) and every entry it reports exists
    /// in the table's lexicons.
    ///
    /// # Errors
    ///
    /// [`LoadError::Index`] when the table names no index or another one
    /// (it was written for another table, edited or truncated), or the
    /// index names entries the lexicons do not have.
    pub(crate) fn bind(self, table: &Table) -> Result<(TermIndex, TermIndex), LoadError> {
        let Some(named) = &table.index else {
            return Err(LoadError::Index("the table names no index"));
        };
        if named.bytes != self.bytes || named.sha256 != self.sha256 {
            return Err(LoadError::Index(
                "its SHA-256 is not the one the table names (it was written for another table, edited or truncated)",
            ));
        }
        if !(self.terms.fits(&table.lexicons) && self.parts.fits(&table.lexicons)) {
            return Err(LoadError::Index(
                "it names lexicon entries the table does not have",
            ));
        }
        Ok((self.terms, self.parts))
    }
}

fn decode(bytes: &[u8]) -> Option<(TermIndex, TermIndex)> {
    let body = bytes.strip_prefix(MAGIC)?;
    let mut r = Reader { rest: body };
    let version: [u8; 4] = r.take(4)?.try_into().ok()?;
    if u32::from_le_bytes(version) != VERSION {
        return None;
    }
    let terms = TermIndex::read(&mut r)?;
    let parts = TermIndex::read(&mut r)?;
    r.rest.is_empty().then_some((terms, parts))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "test code")]

    use super::{Reader, Writer};
    use proptest::prelude::*;

    #[test]
    fn arrays_round_trip_and_lengths_are_checked() {
        let mut w = Writer::default();
        w.u32s(&[1, 2, u32::MAX]);
        w.bytes(b"abc");
        let bytes = w.out;
        let mut r = Reader { rest: &bytes };
        assert_eq!(r.u32s(), Some(vec![1, 2, u32::MAX]));
        assert_eq!(r.bytes(), Some(b"abc".to_vec()));
        assert!(r.rest.is_empty());
        // A count past the end, in every truncation.
        for cut in 0..bytes.len() {
            let mut r = Reader {
                rest: &bytes[..cut],
            };
            let whole = r.u32s().is_some() && r.bytes().is_some();
            assert!(!whole, "truncated at {cut} still decoded");
        }
    }

    proptest! {
        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let mut r = Reader { rest: &bytes };
            while r.u32s().is_some() {}
        }
    }
}
