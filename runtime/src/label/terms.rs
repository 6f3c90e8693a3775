//! Word-level matching of lexicon entries for `terms` and `parts` rules.
//!
//! Every entry of the lexicons the rules name is folded like the text (see
//! [`super::text`]) and put into **one** Aho-Corasick automaton per mode, so
//! a value is scanned once whatever the number of lexicons and entries. A
//! hit is then kept or dropped by where it starts and ends:
//!
//! - **`terms`**: an entry starts at a word start and ends at a word end,
//!   or where only an inflectional ending ([`SUFFIXES`]: `s`, `es`, `ed`,
//!   `ing`, `en`, `er`, `ung`, `a`, `os`, ...) is left of the word:
//!   `evict` matches `evicted` and `eviction`, `schulden` matches `Schulden`,
//!   `despido` matches `despidos`. An entry ending in a vowel also matches
//!   with that vowel replaced by an ending (`divorce` → `divorcing`,
//!   `allergy` → `allergies`). `*` at the end of an entry lets the word go
//!   on (`cardiolog*`: `cardiology`, `Kardiologin` after `k`), `*` at the
//!   start lets it begin earlier (`*schulden`: `Mietschulden`), which is how
//!   compounds are written (German, Dutch). A word of seven letters or more
//!   that no entry matched is compared with the single-word entries of that
//!   length or more, and one edit (insertion, deletion, substitution,
//!   transposition) after the first letter is tolerated: `diagnosys`,
//!   `chemotheraphy`. Entries whose last word is shorter than
//!   [`ENDINGS_MIN`] letters take no ending (`me` is not `men`).
//! - **`parts`**: an entry matches anywhere inside words, for names written
//!   without separators (`soberpath`, `pwnedpasswords`, `debtfree`).
//!
//! Matching is linear in the text: one automaton pass, then constant work
//! per hit and per long word. Why not Snowball stemming: stemming both the
//! lexicon and each text word needs the text's language, which a three-word
//! query does not reveal; stemming every word in all five languages costs
//! five stemmer passes per word and over-conflates across languages (an
//! English stem matching a German word); and a stemmed lexicon is no longer
//! the words its author wrote. A short list of endings, a vowel cut and
//! explicit `*` compounds keep the entries readable and the scan one pass
//! (see the book's labeling chapter).

use std::ops::Range;

use super::index::{Reader, Writer};
use super::text::Folded;
use super::trie::{Automaton, Board, Sorted};
use crate::error::LoadError;
use crate::table::Lexicon;

/// Endings a word may have beyond a `terms` entry (folded, so accents are
/// already gone): English, German, Dutch, Spanish and French inflection and
/// the commonest derivations.
pub const SUFFIXES: &[&str] = &[
    "s", "es", "ed", "d", "ing", "ings", "er", "ers", "ly", "ies", "ied", "ive", "ion", "ions",
    "ation", "al", "e", "en", "n", "ern", "em", "ung", "ungen", "a", "as", "o", "os", "ado", "ada",
    "ados", "adas", "ido", "ida", "x", "ee", "ees", "je", "jes", "te", "ten", "ig", "ische",
    "isch", "ic", "ist", "ists", "y", "t",
];

/// From this many entries on, a mode's index is built on two threads
/// (see [`TermIndex::new`]); below it the fork costs more than it saves.
const FORK_MIN: usize = if cfg!(test) { 4 } else { 4096 };

/// Words at least this long get one typo of tolerance.
pub const FUZZY_MIN: usize = 7;

/// Longest word the typo pass reads. Its neighbourhood is quadratic in the
/// word's length, and no word of any language the labeler reads is this
/// long; a run of text without spaces (a token, a blob) is matched exactly
/// only.
pub const FUZZY_MAX: usize = 64;

/// Entries whose last word is shorter than this match that word exactly:
/// no ending, so `me` does not match `men` nor `i` match `is`.
pub const ENDINGS_MIN: usize = 4;

/// How entries match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Words with endings (`terms`).
    Words,
    /// Anywhere inside words (`parts`).
    Parts,
}

/// One automaton pattern.
#[derive(Clone, Copy, Debug)]
struct Pat {
    lexicon: u32,
    entry: u32,
    /// May start inside a word (`*x`, or `parts`).
    open_start: bool,
    /// May end inside a word (`x*`, or `parts`).
    open_end: bool,
    /// The entry's last vowel was dropped: an ending must follow.
    cut: bool,
    /// The last word is short: no ending may follow.
    exact: bool,
}

/// Buffers of the typo pass, reused from scan to scan.
#[derive(Debug, Default)]
pub(crate) struct TypoScratch {
    chars: Vec<char>,
    keys: Vec<u64>,
    /// The exact hits' spans, then merged into disjoint intervals.
    covered: Vec<(usize, usize)>,
    merged: Vec<(usize, usize)>,
}

/// A kept hit: which entry, and where in the folded text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Lexicon index.
    pub lexicon: u32,
    /// Entry index in the lexicon.
    pub entry: u32,
    /// Bytes of the folded text.
    pub range: Range<usize>,
    /// Matched with one typo.
    pub fuzzy: bool,
}

/// A long single-word entry of the typo pass.
#[derive(Clone, Copy, Debug)]
struct Long {
    lexicon: u32,
    entry: u32,
    /// Its folded characters in [`TermIndex::long_chars`].
    chars: (u32, u32),
}

/// The compiled entries of every lexicon, for one mode.
#[derive(Debug, Default)]
pub(crate) struct TermIndex {
    automaton: Automaton,
    pats: Vec<Pat>,
    /// Typo neighbourhood, sorted: the hash of each long single-word entry
    /// and of each of its one-letter deletions (after the first letter),
    /// beside the index of the entry in `long`. A hash, not the string: no
    /// allocation per key at start-up, and a collision only adds a
    /// candidate that the exact edit check then refuses.
    /// Looked up by binary search: no hash map to build at start-up, and
    /// the typo pass only runs on long words no exact hit touched.
    near: Vec<(u64, u32)>,
    /// One bit per `near` key (see [`NearFilter`]): most words of a text
    /// are within one edit of no entry, and the filter answers that in one
    /// probe instead of a binary search of `near` per deletion.
    near_filter: NearFilter,
    long: Vec<Long>,
    long_chars: Vec<char>,
}

/// A one-probe membership filter over the typo keys: bit `slot(h)` is set
/// for every key `h` of `near`, with 16 bits per key (about 6 % false
/// positives, which only cost the binary search the filter skips). Derived
/// from `near` when an index is built or loaded, so it is not in the
/// index file.
#[derive(Debug, Default)]
struct NearFilter {
    bits: Vec<u64>,
    mask: u64,
}

impl NearFilter {
    fn new(near: &[(u64, u32)]) -> NearFilter {
        if near.is_empty() {
            return NearFilter::default();
        }
        let bits = (near.len().saturating_mul(16)).next_power_of_two().max(64);
        let mut f = NearFilter {
            bits: vec![0; bits / 64],
            mask: (bits as u64) - 1,
        };
        for &(h, _) in near {
            let slot = f.slot(h);
            if let Some(w) = f.bits.get_mut((slot / 64) as usize) {
                *w |= 1 << (slot % 64);
            }
        }
        f
    }

    /// The bit of key `h`, its bits mixed (a polynomial hash's low bits
    /// depend on the characters' low bits only).
    #[inline]
    fn slot(&self, h: u64) -> u64 {
        let x = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (x ^ (x >> 29)) & self.mask
    }

    /// Whether `h` may be a key (`false`: it is certainly not).
    #[inline]
    fn may_hold(&self, h: u64) -> bool {
        let slot = self.slot(h);
        self.bits
            .get((slot / 64) as usize)
            .is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }
}

/// The base of the typo keys' polynomial hash (odd, so no power of it is
/// zero modulo 2^64).
const KEY_BASE: u64 = 0x0100_0000_01b3;

/// The typo keys of a word: the hash of the whole word, then of the word
/// without its character at 1, 2, ... (the first letter is never the typo,
/// see `within_one_edit`).
///
/// The hash is polynomial, `h(s) = Σ (c_i + 1)·B^(n-1-i)` (wrapping), so
/// `h(a ++ b) = h(a)·B^|b| + h(b)`: each deletion's key is a prefix hash
/// and a suffix hash combined in O(1), and a word's `n` keys cost O(n), not
/// the O(n²) of hashing every variant from scratch. Collisions only cost a
/// `within_one_edit` check: a key is never taken as a match by itself.
fn typo_keys(chars: &[char], keys: &mut Vec<u64>) {
    let v = |c: &char| u64::from(u32::from(*c)) + 1;
    keys.clear();
    // keys[i] holds the prefix hash h(chars[..i]) until it is replaced.
    let mut h = 0u64;
    keys.push(0);
    for c in chars {
        h = h.wrapping_mul(KEY_BASE).wrapping_add(v(c));
        keys.push(h);
    }
    let whole = h;
    // From the end: `suffix` = h(chars[skip + 1..]), `pow` = B^(n-1-skip).
    let (mut suffix, mut pow) = (0u64, 1u64);
    for skip in (1..chars.len()).rev() {
        if let Some(k) = keys.get_mut(skip) {
            *k = k.wrapping_mul(pow).wrapping_add(suffix);
        }
        if let Some(c) = chars.get(skip) {
            suffix = v(c).wrapping_mul(pow).wrapping_add(suffix);
        }
        pow = pow.wrapping_mul(KEY_BASE);
    }
    if let Some(k) = keys.first_mut() {
        *k = whole;
    }
    keys.truncate(chars.len().max(1));
}

/// The typo table of the long entries: the keys of each ([`typo_keys`]:
/// one per character), beside its index, sorted; and its filter.
fn typo_table(long: &[Long], long_chars: &[char]) -> (Vec<(u64, u32)>, NearFilter) {
    let mut near = Vec::with_capacity(long_chars.len());
    let mut keys = Vec::new();
    for (id, l) in (0u32..).zip(long) {
        let chars = long_chars
            .get(l.chars.0 as usize..l.chars.1 as usize)
            .unwrap_or(&[]);
        typo_keys(chars, &mut keys);
        near.extend(keys.iter().map(|&k| (k, id)));
    }
    near.sort_unstable();
    let filter = NearFilter::new(&near);
    (near, filter)
}

/// What [`TermIndex::fold`] gives: the patterns and long words (the
/// automaton and typo table not built yet), the patterns' folded bytes and
/// each one's span of them.
type Fold = (TermIndex, String, Vec<Range<usize>>);

/// What a failed fork of the build is reported as.
fn build_bug() -> LoadError {
    LoadError::invalid("lexicons", "compiling them failed (a runtime bug)")
}

/// Pattern `i` of a fold's output: its span of the folded bytes.
fn pattern<'a>(buffer: &'a str, spans: &[Range<usize>], i: u32) -> &'a [u8] {
    spans
        .get(i as usize)
        .and_then(|r| buffer.as_bytes().get(r.clone()))
        .unwrap_or(&[])
}

/// The automaton's order of the patterns, as sorted by one thread or two.
enum Halves {
    One(Sorted),
    Two(Sorted, Sorted),
}

/// How much a [`TermIndex::fold`] sizes its buffers for.
#[derive(Clone, Copy, Debug)]
struct Room {
    entries: usize,
    /// The entries' bytes, one more each.
    bytes: usize,
}

impl TermIndex {
    /// Compiles the entries of the lexicons marked in `used`.
    ///
    /// On two threads when there are many (the std tables' `terms` have
    /// about 39,000): each folds half of the entries, then one builds the
    /// automaton while the other builds the typo table. The result is the
    /// same as on one thread, byte for byte in an index.
    pub(crate) fn new(lexicons: &[Lexicon], used: &[bool], mode: Mode) -> Result<Self, LoadError> {
        let fork = TermIndex::many(lexicons, used);
        TermIndex::build(lexicons, used, mode, (fork, fork), || ()).0
    }

    /// [`TermIndex::new`], running `side` on a second thread once the
    /// entries are folded (beside the typo table, while this thread builds
    /// the automaton), however few the entries. A caller with work of its
    /// own for a second core (the labeler's regular expressions) gives it
    /// here rather than to a third thread, which would compete with the
    /// fold's two for two cores. `side`'s result is `None` if the build
    /// failed before running it.
    pub(crate) fn new_beside<R: Send>(
        lexicons: &[Lexicon],
        used: &[bool],
        mode: Mode,
        side: impl FnOnce() -> R + Send,
    ) -> (Result<Self, LoadError>, Option<R>) {
        let fork = TermIndex::many(lexicons, used);
        TermIndex::build(lexicons, used, mode, (fork, true), side)
    }

    /// Whether the lexicons marked in `used` have enough entries for the
    /// build to fold them on two threads ([`FORK_MIN`]).
    fn many(lexicons: &[Lexicon], used: &[bool]) -> bool {
        let count = lexicons
            .iter()
            .zip(used)
            .filter(|(_, u)| **u)
            .map(|(l, _)| l.entries.len())
            .sum::<usize>();
        count >= FORK_MIN
    }

    /// [`TermIndex::new_beside`]: the entries folded on two threads when
    /// `fold_fork`, the automaton and the typo table (and `side`) built on
    /// two when `rest_fork`.
    fn build<R: Send>(
        lexicons: &[Lexicon],
        used: &[bool],
        mode: Mode,
        (fold_fork, rest_fork): (bool, bool),
        side: impl FnOnce() -> R + Send,
    ) -> (Result<Self, LoadError>, Option<R>) {
        let folded = TermIndex::fold_all(lexicons, used, mode, fold_fork);
        let ((index, buffer, spans), sorted) = match folded {
            Ok(folded) => folded,
            Err(e) => return (Err(e), None),
        };
        let Ok(n) = u32::try_from(spans.len()) else {
            return (Err(build_bug()), None);
        };
        let pat = |i: u32| pattern(&buffer, &spans, i);
        let (long, long_chars) = (&index.long, &index.long_chars);
        // The second thread, its own work done, helps with the
        // automaton's last step (`Board`), waiting for it if need be.
        let board = Board::default();
        let helping = &board;
        let typos = move || {
            let typos = typo_table(long, long_chars);
            let side = side();
            helping.help();
            (typos, side)
        };
        let automaton = || {
            let _closing = board.closing();
            let order = match sorted {
                Halves::One(sorted) => sorted.into_order(),
                Halves::Two(first, second) => first.merge(second, pat),
            };
            Automaton::from_sorted(n, pat, &order, Some(&board))
                .ok_or(LoadError::BadLexicon { lexicon: 0 })
        };
        let (typos, automaton) = if rest_fork {
            super::fork::join(typos, automaton)
        } else {
            let automaton = automaton();
            (Some(typos()), automaton)
        };
        let Some(((near, near_filter), side)) = typos else {
            return (Err(build_bug()), None);
        };
        let built = automaton.map(|automaton| {
            // Sized for every entry while folding; kept at what they hold.
            let mut index = index;
            index.pats.shrink_to_fit();
            index.long_chars.shrink_to_fit();
            TermIndex {
                automaton,
                near,
                near_filter,
                ..index
            }
        });
        (built, Some(side))
    }

    /// The entries of the lexicons marked in `used` folded (on two
    /// threads, a half each, when `fork`), with the patterns' bytes,
    /// their spans and their order.
    fn fold_all(
        lexicons: &[Lexicon],
        used: &[bool],
        mode: Mode,
        fork: bool,
    ) -> Result<(Fold, Halves), LoadError> {
        let entries = || {
            (0u32..)
                .zip(lexicons)
                .zip(used)
                .filter(|(_, u)| **u)
                .flat_map(|((li, lex), _)| {
                    (0u32..)
                        .zip(&lex.entries)
                        .map(move |(ei, e)| (li, ei, e.phrase.as_str()))
                })
        };
        let (count, bytes) = entries().fold((0, 0), |(n, b), (_, _, p)| (n + 1, b + p.len() + 1));
        let whole = Room {
            entries: count,
            bytes,
        };
        if !fork {
            let (folded, sorted) = TermIndex::fold(entries(), mode, whole);
            return Ok((folded, Halves::One(sorted)));
        }
        // The first half is sized for both, so the second is appended
        // without moving it.
        let mid = count / 2;
        let (second, first) = super::fork::join(
            || TermIndex::fold(entries().skip(mid), mode, whole),
            || TermIndex::fold(entries().take(mid), mode, whole),
        );
        let (first, first_sorted) = first;
        let (second, second_sorted) = second.ok_or_else(build_bug)?;
        let before = u32::try_from(first.2.len()).map_err(|_| build_bug())?;
        let sorted = Halves::Two(first_sorted, second_sorted.shifted(before));
        Ok((TermIndex::append(first, second), sorted))
    }

    /// The patterns and long words of `entries` (the automaton and the
    /// typo table not built yet), with the patterns' bytes, their spans in
    /// those bytes and their order for the automaton.
    fn fold<'a>(
        entries: impl Iterator<Item = (u32, u32, &'a str)>,
        mode: Mode,
        room: Room,
    ) -> (Fold, Sorted) {
        // Sized up front for `room` (an entry folds to about its length,
        // plus a word start, and at most two patterns): growing them by
        // doubling cost a copy of everything folded so far, several times
        // over, and pages touched only to be freed. Capacity never used is
        // never touched.
        let mut index = TermIndex {
            pats: Vec::with_capacity(room.entries * 3 / 2),
            long_chars: Vec::with_capacity(room.bytes),
            ..TermIndex::default()
        };
        let mut buffer = String::with_capacity(room.bytes * 3 / 2);
        let mut spans: Vec<Range<usize>> = Vec::with_capacity(room.entries * 3 / 2);
        let mut folded = Folded::default();
        for (li, ei, phrase) in entries {
            index.add(li, ei, phrase, mode, &mut folded, &mut buffer, &mut spans);
        }
        let n = u32::try_from(spans.len()).unwrap_or(u32::MAX);
        let sorted = Sorted::new(n, |i| pattern(&buffer, &spans, i));
        ((index, buffer, spans), sorted)
    }

    /// What [`TermIndex::fold`] gives for the entries of `first`, then
    /// those of `second`, from what it gave for each.
    fn append(first: Fold, second: Fold) -> Fold {
        let (mut index, mut buffer, mut spans) = first;
        let (more, more_buffer, more_spans) = second;
        let shift = buffer.len();
        buffer.push_str(&more_buffer);
        spans.extend(
            more_spans
                .into_iter()
                .map(|r| r.start + shift..r.end + shift),
        );
        index.pats.extend(more.pats);
        let chars_shift = u32::try_from(index.long_chars.len()).unwrap_or(u32::MAX);
        index.long_chars.extend(more.long_chars);
        index.long.extend(more.long.into_iter().map(|l| Long {
            chars: (
                l.chars.0.saturating_add(chars_shift),
                l.chars.1.saturating_add(chars_shift),
            ),
            ..l
        }));
        (index, buffer, spans)
    }

    /// Appends the index in the index encoding ([`super::index`]).
    pub(crate) fn write(&self, w: &mut Writer) {
        self.automaton.write(w);
        let pats: Vec<u32> = self
            .pats
            .iter()
            .flat_map(|p| {
                let flags = u32::from(p.open_start)
                    | u32::from(p.open_end) << 1
                    | u32::from(p.cut) << 2
                    | u32::from(p.exact) << 3;
                [p.lexicon, p.entry, flags]
            })
            .collect();
        w.u32s(&pats);
        let near: Vec<u32> = self
            .near
            .iter()
            .flat_map(|&(h, id)| {
                let [lo, hi] = [h as u32, (h >> 32) as u32];
                [lo, hi, id]
            })
            .collect();
        w.u32s(&near);
        let long: Vec<u32> = self
            .long
            .iter()
            .flat_map(|l| [l.lexicon, l.entry, l.chars.0, l.chars.1])
            .collect();
        w.u32s(&long);
        let chars: Vec<u32> = self.long_chars.iter().map(|&c| u32::from(c)).collect();
        w.u32s(&chars);
    }

    /// Reads an index [`TermIndex::write`] wrote, or `None` if any part is
    /// inconsistent: a pattern id without a pattern, an unsorted typo
    /// table, a character range outside the characters. Whether the
    /// entries it names exist is a question for the table's lexicons
    /// ([`TermIndex::fits`]), asked once the table is loaded.
    /// Whether every entry this index reports (pattern and typo entries)
    /// exists in `lexicons`.
    pub(crate) fn fits(&self, lexicons: &[Lexicon]) -> bool {
        let entry_ok = |lexicon: u32, entry: u32| {
            lexicons
                .get(lexicon as usize)
                .is_some_and(|l| (entry as usize) < l.entries.len())
        };
        self.pats.iter().all(|p| entry_ok(p.lexicon, p.entry))
            && self.long.iter().all(|l| entry_ok(l.lexicon, l.entry))
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Option<TermIndex> {
        let automaton = Automaton::read(r)?;
        let raw = r.u32s()?;
        let mut pats = Vec::with_capacity(raw.len() / 3);
        for p in raw.chunks(3) {
            let &[lexicon, entry, flags] = p else {
                return None;
            };
            if flags >> 4 != 0 {
                return None;
            }
            pats.push(Pat {
                lexicon,
                entry,
                open_start: flags & 1 != 0,
                open_end: flags & 2 != 0,
                cut: flags & 4 != 0,
                exact: flags & 8 != 0,
            });
        }
        if !automaton.pattern_count_is(pats.len()) {
            return None;
        }
        let raw = r.u32s()?;
        let mut near = Vec::with_capacity(raw.len() / 3);
        for n in raw.chunks(3) {
            let &[lo, hi, id] = n else {
                return None;
            };
            near.push((u64::from(hi) << 32 | u64::from(lo), id));
        }
        let raw = r.u32s()?;
        let mut long = Vec::with_capacity(raw.len() / 4);
        for l in raw.chunks(4) {
            let &[lexicon, entry, start, end] = l else {
                return None;
            };
            long.push(Long {
                lexicon,
                entry,
                chars: (start, end),
            });
        }
        let long_chars: Vec<char> = r
            .u32s()?
            .into_iter()
            .map(char::from_u32)
            .collect::<Option<_>>()?;
        let sorted = near.windows(2).all(|w| w.first() <= w.get(1));
        let ids_ok = near.iter().all(|&(_, id)| (id as usize) < long.len());
        let ranges_ok = long
            .iter()
            .all(|l| l.chars.0 <= l.chars.1 && (l.chars.1 as usize) <= long_chars.len());
        (sorted && ids_ok && ranges_ok).then_some(TermIndex {
            automaton,
            pats,
            near_filter: NearFilter::new(&near),
            near,
            long,
            long_chars,
        })
    }

    #[allow(clippy::too_many_arguments, reason = "the reused buffers of `new`")]
    fn add(
        &mut self,
        lexicon: u32,
        entry: u32,
        phrase: &str,
        mode: Mode,
        folded: &mut Folded,
        buffer: &mut String,
        spans: &mut Vec<Range<usize>>,
    ) {
        let phrase = phrase.trim();
        let open_start = mode == Mode::Parts || phrase.starts_with('*');
        let open_end = mode == Mode::Parts || phrase.ends_with('*');
        folded.fold(phrase.trim_matches('*'));
        let body = folded.text.trim();
        if body.is_empty() {
            return;
        }
        let lead = if open_start { "" } else { " " };
        let last_word = body.rsplit(' ').next().unwrap_or(body);
        let pat = Pat {
            lexicon,
            entry,
            open_start,
            open_end,
            cut: false,
            exact: last_word.chars().count() < ENDINGS_MIN,
        };
        let mut push = |text: &str| {
            let start = buffer.len();
            buffer.push_str(lead);
            buffer.push_str(text);
            spans.push(start..buffer.len());
        };
        push(body);
        self.pats.push(pat);
        if !open_end && mode == Mode::Words {
            if let Some(stem) = body.strip_suffix(['a', 'e', 'i', 'o', 'u', 'y']) {
                if last_word.chars().count() >= 5 {
                    push(stem);
                    self.pats.push(Pat { cut: true, ..pat });
                }
            }
            let single = !body.contains(' ') && !open_start;
            if single && body.chars().count() >= FUZZY_MIN && body.chars().all(char::is_alphabetic)
            {
                let start = u32::try_from(self.long_chars.len()).unwrap_or(u32::MAX);
                self.long_chars.extend(body.chars());
                let end = u32::try_from(self.long_chars.len()).unwrap_or(u32::MAX);
                self.long.push(Long {
                    lexicon,
                    entry,
                    chars: (start, end),
                });
            }
        }
    }

    /// Scans a folded text, appending every kept hit to `hits`.
    pub(crate) fn scan(&self, folded: &Folded, hits: &mut Vec<Hit>, typo: &mut TypoScratch) {
        if self.automaton.is_empty() {
            return;
        }
        let text = folded.text.as_str();
        let first = hits.len();
        self.automaton
            .for_each_match(text.as_bytes(), |id, m_start, m_end| {
                let Some(p) = self.pats.get(id as usize) else {
                    return;
                };
                let start = if p.open_start { m_start } else { m_start + 1 };
                if ends_well(text, m_end, p) {
                    hits.push(Hit {
                        lexicon: p.lexicon,
                        entry: p.entry,
                        range: start..m_end,
                        fuzzy: false,
                    });
                }
            });
        if self.near.is_empty() {
            return;
        }
        // Long words no exact hit touched: one typo of tolerance. The exact
        // hits are merged into sorted disjoint intervals and walked beside
        // the words (both in text order), so this stays linear in the text.
        let TypoScratch {
            chars,
            keys,
            covered,
            merged,
        } = typo;
        covered.clear();
        covered.extend(
            hits.get(first..)
                .unwrap_or(&[])
                .iter()
                .map(|h| (h.range.start, h.range.end)),
        );
        covered.sort_unstable();
        merged.clear();
        for &(s, e) in covered.iter() {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        let mut next = 0;
        for (range, _) in &folded.words {
            let Some(word) = text.get(range.clone()) else {
                continue;
            };
            while merged.get(next).is_some_and(|&(_, e)| e <= range.start) {
                next += 1;
            }
            let touched = merged
                .get(next)
                .is_some_and(|&(s, e)| s < range.end && range.start < e);
            let n = word.chars().count();
            if !(FUZZY_MIN..=FUZZY_MAX).contains(&n) || touched {
                continue;
            }
            if let Some((lexicon, entry)) = self.near_entry(word, chars, keys) {
                hits.push(Hit {
                    lexicon,
                    entry,
                    range: range.clone(),
                    fuzzy: true,
                });
            }
        }
    }

    /// An entry within one edit of `word`.
    fn near_entry(
        &self,
        word: &str,
        chars: &mut Vec<char>,
        keys: &mut Vec<u64>,
    ) -> Option<(u32, u32)> {
        chars.clear();
        chars.extend(word.chars());
        let chars: &[char] = chars;
        typo_keys(chars, keys);
        let check = |key: u64| -> Option<(u32, u32)> {
            if !self.near_filter.may_hold(key) {
                return None;
            }
            let from = self.near.partition_point(|&(h, _)| h < key);
            self.near
                .get(from..)?
                .iter()
                .take_while(|&&(h, _)| h == key)
                .filter_map(|&(_, id)| self.long.get(id as usize))
                .find(|l| {
                    self.long_chars
                        .get(l.chars.0 as usize..l.chars.1 as usize)
                        .is_some_and(|entry| within_one_edit(chars, entry))
                })
                .map(|l| (l.lexicon, l.entry))
        };
        keys.iter().find_map(|k| check(*k))
    }
}

/// Whether a hit ending at folded byte `end` ends where its pattern allows.
fn ends_well(text: &str, end: usize, p: &Pat) -> bool {
    if p.open_end {
        return true;
    }
    let rest = text.get(end..).unwrap_or("");
    let word_rest = rest.split(' ').next().unwrap_or("");
    if word_rest.is_empty() {
        return !p.cut;
    }
    !p.exact && SUFFIXES.contains(&word_rest)
}

/// Damerau–Levenshtein distance at most one (adjacent transposition
/// counts as one edit).
fn within_one_edit(a: &[char], b: &[char]) -> bool {
    let (la, lb) = (a.len(), b.len());
    // Typos rarely hit the first letter, and a different first letter is
    // usually a different word (`muestra`, `nuestra`).
    if la.abs_diff(lb) > 1 || a.first() != b.first() {
        return false;
    }
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if prefix == la && prefix == lb {
        return true;
    }
    let (ra, rb) = (
        a.get(prefix..).unwrap_or(&[]),
        b.get(prefix..).unwrap_or(&[]),
    );
    let tail = |x: &[char], y: &[char]| x == y;
    match la.cmp(&lb) {
        std::cmp::Ordering::Equal => {
            tail(ra.get(1..).unwrap_or(&[]), rb.get(1..).unwrap_or(&[]))
                || (ra.len() >= 2
                    && rb.len() >= 2
                    && ra.first() == rb.get(1)
                    && ra.get(1) == rb.first()
                    && tail(ra.get(2..).unwrap_or(&[]), rb.get(2..).unwrap_or(&[])))
        }
        std::cmp::Ordering::Greater => tail(ra.get(1..).unwrap_or(&[]), rb),
        std::cmp::Ordering::Less => tail(ra, rb.get(1..).unwrap_or(&[])),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]

    use super::{within_one_edit, Mode, TermIndex, Writer};
    use crate::table::{Lexicon, LexiconEntry};
    use proptest::prelude::*;

    proptest! {
        /// Two threads build what one does, byte for byte in an index:
        /// the halves' folds appended, their sorts merged, the links found
        /// layer by layer.
        #[test]
        fn two_threads_build_what_one_does(
            lexicons in proptest::collection::vec(
                proptest::collection::vec("\\*?[a-zäöß]{1,9}( [a-z]{1,6})?\\*?", 0..12),
                1..5,
            ),
            parts in any::<bool>(),
        ) {
            let lexicons: Vec<Lexicon> = lexicons
                .into_iter()
                .enumerate()
                .map(|(i, phrases)| Lexicon {
                    name: format!("l{i}"),
                    entries: phrases
                        .into_iter()
                        .map(|phrase| LexiconEntry { phrase, replacement: None })
                        .collect(),
                })
                .collect();
            let used = vec![true; lexicons.len()];
            let mode = if parts { Mode::Parts } else { Mode::Words };
            let bytes = |fork| {
                let mut w = Writer::default();
                TermIndex::build(&lexicons, &used, mode, (fork, fork), || ()).0.unwrap().write(&mut w);
                w.out
            };
            prop_assert_eq!(bytes(true), bytes(false));
        }
    }

    #[test]
    fn one_edit() {
        let w = |s: &str| s.chars().collect::<Vec<_>>();
        assert!(within_one_edit(&w("diagnosys"), &w("diagnosis")));
        assert!(within_one_edit(&w("chemotheraphy"), &w("chemotherapy")));
        assert!(within_one_edit(&w("chemotherpay"), &w("chemotherapy")));
        assert!(within_one_edit(&w("chemotherapy"), &w("chemotherapy")));
        assert!(!within_one_edit(&w("chemoterpay"), &w("chemotherapy")));
        assert!(within_one_edit(&w("evictoin"), &w("eviction")));
        assert!(!within_one_edit(&w("muestra"), &w("nuestra")));
    }
}
