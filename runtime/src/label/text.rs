//! Word-level text for `terms` and `parts` rules: case and accents folded,
//! split into words.
//!
//! **Folding.** Each character is lowercased and decomposed (Unicode NFD);
//! combining marks are dropped, so `Räumung`, `räumung` and `raumung` fold
//! alike, as do `desahució` and `desahucio`. Letters NFD does not decompose
//! are mapped by hand (`ß` → `ss`, `æ` → `ae`, `œ` → `oe`, `ø` → `o`,
//! `ł` → `l`, `đ` → `d`, `ı` → `i`, `þ` → `th`), which covers the languages
//! the standard library labels (English, German, Dutch, Spanish, French) and
//! their neighbours. Other scripts are lowercased and kept.
//!
//! **Words.** A word is a maximal run of letters and digits, split further
//! where a lowercase letter is followed by an uppercase one that begins a
//! capitalised word (`sickDaysYtd`, but not `GmbH`) and where letters meet
//! digits (`payroll2024`), so identifiers, host
//! labels and paths split into the words a reader sees. Everything else
//! (spaces, punctuation, `_`, `-`, `/`, `.`, `@`, apostrophes) separates
//! words.
//!
//! The folded form is the words joined by single spaces with one space at
//! each end (` sick days ytd `), so a phrase matches at word starts by
//! searching for ` word` and a word ends where a space follows. Each word
//! remembers its byte range in the original text, for explanations and for
//! rewriting.

use std::ops::Range;

use unicode_normalization::char::decompose_canonical;
use unicode_normalization::char::is_combining_mark;

/// A text folded for word-level matching.
#[derive(Clone, Debug, Default)]
pub struct Folded {
    /// ` word word ... ` (empty when the text has no word).
    pub text: String,
    /// Per word: its range in `text` (without the surrounding spaces) and
    /// its range in the original text.
    pub words: Vec<(Range<usize>, Range<usize>)>,
}

impl Folded {
    /// Folds `original` into `self`, reusing its buffers.
    pub fn fold(&mut self, original: &str) {
        self.text.clear();
        self.words.clear();
        let mut word_start: Option<(usize, usize)> = None;
        let mut prev: Option<char> = None;
        let mut chars = original.char_indices().peekable();
        while let Some((at, c)) = chars.next() {
            let alnum = if c.is_ascii() {
                c.is_ascii_alphanumeric()
            } else {
                c.is_alphanumeric()
            };
            let boundary = match (prev, alnum) {
                (_, false) => true,
                (None, true) => false,
                (Some(p), true) => {
                    // The look-ahead only when a case change asks for it.
                    (p.is_lowercase()
                        && c.is_uppercase()
                        && chars.peek().is_some_and(|(_, n)| n.is_lowercase()))
                        || (p.is_alphabetic() && c.is_numeric())
                        || (p.is_numeric() && c.is_alphabetic())
                }
            };
            if boundary {
                if let Some(start) = word_start.take() {
                    self.close(start, at);
                }
            }
            if alnum {
                if word_start.is_none() {
                    self.text.push(' ');
                    word_start = Some((self.text.len(), at));
                }
                push_folded(&mut self.text, c);
                prev = Some(c);
            } else {
                prev = None;
            }
        }
        if let Some(start) = word_start.take() {
            self.close(start, original.len());
        }
        if !self.text.is_empty() {
            self.text.push(' ');
        }
    }

    fn close(&mut self, (folded_start, original_start): (usize, usize), original_end: usize) {
        self.words
            .push((folded_start..self.text.len(), original_start..original_end));
    }

    /// The index of the word whose folded range contains byte `at`.
    #[must_use]
    pub fn word_at(&self, at: usize) -> Option<usize> {
        let i = self.words.partition_point(|(r, _)| r.end < at);
        self.words
            .get(i)
            .filter(|(r, _)| r.start <= at && at <= r.end)
            .map(|_| i)
    }

    /// The original byte range covered by folded bytes `range`.
    #[must_use]
    pub fn original(&self, range: Range<usize>) -> Option<Range<usize>> {
        let first = self.word_at(range.start)?;
        let last = self.word_at(range.end.saturating_sub(1).max(range.start))?;
        let start = self.words.get(first)?.1.start;
        let end = self.words.get(last)?.1.end;
        Some(start..end)
    }
}

/// The folded form of a whole string (its words joined by single spaces,
/// without the outer spaces).
#[must_use]
pub fn fold(s: &str) -> String {
    let mut f = Folded::default();
    f.fold(s);
    f.text.trim().to_owned()
}

/// Pushes the folded form of one letter or digit.
fn push_folded(out: &mut String, c: char) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    for lower in c.to_lowercase() {
        match lower {
            'ß' => out.push_str("ss"),
            'æ' => out.push_str("ae"),
            'œ' => out.push_str("oe"),
            'ø' => out.push('o'),
            'ł' => out.push('l'),
            'đ' | 'ð' => out.push('d'),
            'ı' => out.push('i'),
            'þ' => out.push_str("th"),
            _ if lower.is_ascii() => out.push(lower),
            _ => decompose_canonical(lower, |d| {
                if !is_combining_mark(d) {
                    out.push(d);
                }
            }),
        }
    }
}
