//! What an adversary reads, kept out of memory: observer documents as token
//! ids of one shared [`Vocab`], spilled to an anonymous temporary file
//! ([`DocWriter`], then [`Docs`]).
//!
//! The adversaries need every document of a view twice: TF-IDF weighs a
//! document by frequencies over all of them, and the baseline's naive Bayes
//! is trained on the documents it then predicts (leaving out each task's
//! group). Held as strings, the documents of one policy were most of an
//! evaluation's memory and grew with the number of tasks; here what stays
//! in memory per task is one file offset per view, and the vocabulary,
//! which grows with the words seen, not the tasks. The file is unnamed and
//! removed by the operating system when the store is dropped, whatever
//! ends the evaluation.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::sync::Mutex;

/// Documents read from a store at once by [`Docs::batches`]: enough to keep
/// every core busy predicting, a few hundred kilobytes whatever the number
/// of tasks.
pub const BATCH: usize = 1024;

/// Token strings and their ids, one id per distinct string.
#[derive(Debug, Default)]
pub struct Vocab {
    ids: HashMap<String, u32>,
    words: Vec<String>,
}

impl Vocab {
    /// An empty vocabulary.
    #[must_use]
    pub fn new() -> Vocab {
        Vocab::default()
    }

    /// The id of `word`, added if new.
    pub fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.ids.get(word) {
            return *id;
        }
        // More than 4 billion distinct words would not fit in memory first.
        let id = u32::try_from(self.words.len()).unwrap_or(u32::MAX);
        self.ids.insert(word.to_owned(), id);
        self.words.push(word.to_owned());
        id
    }

    /// The ids of `words`, each added if new.
    pub fn intern_all(&mut self, words: &[String]) -> Vec<u32> {
        words.iter().map(|w| self.intern(w)).collect()
    }

    /// The id of `word`, if it was ever interned.
    #[must_use]
    pub fn get(&self, word: &str) -> Option<u32> {
        self.ids.get(word).copied()
    }

    /// The string of an id (empty for an id this vocabulary never gave).
    #[must_use]
    pub fn word(&self, id: u32) -> &str {
        self.words.get(id as usize).map_or("", String::as_str)
    }

    /// How many distinct words.
    #[must_use]
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether no word was interned.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// Documents being written, one per task in task order.
#[derive(Debug)]
pub struct DocWriter {
    out: BufWriter<File>,
    /// Where each document starts, in bytes; one more entry, the end.
    offsets: Vec<u64>,
}

impl DocWriter {
    /// A store in a new anonymous temporary file.
    ///
    /// # Errors
    ///
    /// The temporary file cannot be created.
    pub fn new() -> io::Result<DocWriter> {
        Ok(DocWriter {
            out: BufWriter::new(tempfile::tempfile()?),
            offsets: vec![0],
        })
    }

    /// Append the next document.
    ///
    /// # Errors
    ///
    /// The write failed (a full disk).
    pub fn push(&mut self, doc: &[u32]) -> io::Result<()> {
        for id in doc {
            self.out.write_all(&id.to_le_bytes())?;
        }
        let end = self.offsets.last().copied().unwrap_or(0) + 4 * doc.len() as u64;
        self.offsets.push(end);
        Ok(())
    }

    /// The documents written, ready to read.
    ///
    /// # Errors
    ///
    /// The last write failed.
    pub fn finish(self) -> io::Result<Docs> {
        let file = self
            .out
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        Ok(Docs {
            file: Mutex::new(file),
            offsets: self.offsets,
        })
    }
}

/// Documents written by a [`DocWriter`], read back by position.
#[derive(Debug)]
pub struct Docs {
    /// Every read seeks first, under the lock: readers on several threads
    /// never see each other's position.
    file: Mutex<File>,
    offsets: Vec<u64>,
}

impl Docs {
    /// How many documents.
    #[must_use]
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Documents `range` (clamped to the store), in order.
    ///
    /// # Errors
    ///
    /// The read failed.
    pub fn read(&self, range: Range<usize>) -> io::Result<Vec<Vec<u32>>> {
        let end = range.end.min(self.len());
        let start = range.start.min(end);
        let at = |i: usize| self.offsets.get(i).copied().unwrap_or(0);
        let (from, to) = (at(start), at(end));
        let mut bytes = vec![0u8; usize::try_from(to - from).map_err(io::Error::other)?];
        {
            let mut f = self
                .file
                .lock()
                .map_err(|_| io::Error::other("document store lock poisoned"))?;
            f.seek(SeekFrom::Start(from))?;
            f.read_exact(&mut bytes)?;
        }
        let word = |c: &[u8]| u32::from_le_bytes(c.try_into().unwrap_or([0; 4]));
        Ok((start..end)
            .map(|i| {
                let lo = usize::try_from(at(i) - from).unwrap_or(0);
                let hi = usize::try_from(at(i + 1) - from).unwrap_or(lo);
                bytes
                    .get(lo..hi)
                    .unwrap_or(&[])
                    .chunks_exact(4)
                    .map(word)
                    .collect()
            })
            .collect())
    }

    /// One document (empty past the end).
    ///
    /// # Errors
    ///
    /// The read failed.
    pub fn get(&self, i: usize) -> io::Result<Vec<u32>> {
        Ok(self.read(i..i + 1)?.pop().unwrap_or_default())
    }

    /// Calls `f(first, batch)` for every [`BATCH`] documents in order, with
    /// the index of the batch's first document.
    ///
    /// # Errors
    ///
    /// A read failed, or the first error of `f`.
    pub fn batches<E: From<io::Error>>(
        &self,
        mut f: impl FnMut(usize, Vec<Vec<u32>>) -> Result<(), E>,
    ) -> Result<(), E> {
        for first in (0..self.len()).step_by(BATCH) {
            f(first, self.read(first..first + BATCH)?)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]

    use super::{DocWriter, Vocab, BATCH};

    #[test]
    fn documents_read_back_as_written_in_any_range_and_in_batches() {
        let mut vocab = Vocab::new();
        let docs: Vec<Vec<u32>> = (0..BATCH * 2 + 7)
            .map(|i| {
                let words: Vec<String> = (0..i % 5).map(|j| format!("w{}", (i * j) % 13)).collect();
                vocab.intern_all(&words)
            })
            .collect();
        let mut w = DocWriter::new().unwrap();
        for d in &docs {
            w.push(d).unwrap();
        }
        let store = w.finish().unwrap();
        assert_eq!(store.len(), docs.len());
        assert_eq!(store.read(3..9).unwrap(), docs[3..9].to_vec());
        assert_eq!(store.get(docs.len() - 1).unwrap(), docs[docs.len() - 1]);
        assert!(store.get(docs.len()).unwrap().is_empty());
        assert!(store
            .read(docs.len() + 3..docs.len() + 9)
            .unwrap()
            .is_empty());
        let mut back = Vec::new();
        store
            .batches(|first, batch| {
                assert_eq!(first, back.len());
                back.extend(batch);
                Ok::<(), std::io::Error>(())
            })
            .unwrap();
        assert_eq!(back, docs);
    }

    #[test]
    fn a_word_keeps_its_id_and_its_string() {
        let mut v = Vocab::new();
        let a = v.intern("alpha");
        let b = v.intern("beta");
        assert_ne!(a, b);
        assert_eq!(v.intern("alpha"), a);
        assert_eq!(v.get("beta"), Some(b));
        assert_eq!(v.get("gamma"), None);
        assert_eq!(v.word(b), "beta");
        assert_eq!(v.word(99), "");
        assert_eq!(v.len(), 2);
    }
}
