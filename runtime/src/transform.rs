//! REWRITE transforms: the steps a cell's transforms apply to a field.
//!
//! Steps act on every string leaf of the field, in order:
//!
//! - `replace_lexicon`: each occurrence of a lexicon phrase (ASCII
//!   case-insensitive, at word boundaries, leftmost-longest, non-overlapping)
//!   becomes the entry's own replacement, else the step's `with` text, else
//!   [`DEFAULT_REPLACEMENT`];
//! - `redact_entity`: each entity of the kind becomes the `with` text, else
//!   `[kind]` (`[email]`, `[person_name]`, ...);
//! - `coarsen_time`: ISO dates and date-times, `M/D/YYYY` dates, written dates
//!   (`March 15, 2024`, `15 March 2024`) and times of day are rewritten to the
//!   granularity, in ISO form: hour `2024-03-15 14:00`, day `2024-03-15`, week
//!   `week of 2024-03-11` (its Monday), month `2024-03`, year `2024`; a time
//!   of day coarser than an hour becomes `[time]`, a date that cannot be
//!   placed (no year, invalid day) becomes `[date]` or its month;
//! - `constant`: the whole field becomes the string.
//!
//! The monitor re-labels the result and refuses to dispatch if a field is
//! still at or above the cut (assumption A3 checked at run time), so a
//! transform that misses a phrase shape fails closed rather than leaking.

use regex::{Captures, Regex};
use serde_json::Value;

use crate::label::Labeler;
use crate::table::{FieldType, Granularity, Step, Table, Transform};

/// Replacement for a lexicon phrase when neither the entry nor the step gives one.
pub const DEFAULT_REPLACEMENT: &str = "general information";

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Compiled date and time shapes for `coarsen_time`.
#[derive(Debug)]
pub struct Rewriter {
    iso: Regex,
    us: Regex,
    written_md: Regex,
    written_dm: Regex,
    time: Regex,
}

const MONTH_RE: &str = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

impl Rewriter {
    /// Compile the shapes; `None` only on a runtime bug (tests compile them).
    #[must_use]
    pub fn new() -> Option<Rewriter> {
        Some(Rewriter {
            iso: Regex::new(r"\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?:[T ](?P<h>\d{1,2}):(?P<mi>\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b").ok()?,
            us: Regex::new(r"\b(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})\b").ok()?,
            written_md: Regex::new(&format!(r"(?i)\b{MONTH_RE}\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y>\d{{4}}))?\b")).ok()?,
            written_dm: Regex::new(&format!(r"(?i)\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RE}\b(?:,?\s+(?P<y>\d{{4}})\b)?")).ok()?,
            time: Regex::new(r"(?i)\b(?P<h>[01]?\d|2[0-3]):(?P<mi>[0-5]\d)(?::[0-5]\d(?:\.\d+)?)?(?:\s?(?P<ap>[ap])\.?m\b\.?)?|\b(?P<h2>1[0-2]|0?[1-9])\s?(?P<ap2>[ap])\.?m\b\.?").ok()?,
        })
    }

    /// The shapes of this process, compiled on first use and shared by every
    /// engine (they do not depend on the table).
    #[must_use]
    pub fn shared() -> Option<std::sync::Arc<Rewriter>> {
        static SHARED: std::sync::OnceLock<Option<std::sync::Arc<Rewriter>>> =
            std::sync::OnceLock::new();
        SHARED
            .get_or_init(|| Rewriter::new().map(std::sync::Arc::new))
            .clone()
    }

    /// Coarsen every date and time in `text`.
    #[must_use]
    pub fn coarsen(&self, text: &str, to: Granularity) -> String {
        let num =
            |c: &Captures<'_>, n: &str| c.name(n).and_then(|m| m.as_str().parse::<i64>().ok());
        let s = self.iso.replace_all(text, |c: &Captures<'_>| {
            date_out(
                num(c, "y"),
                num(c, "m").unwrap_or(0),
                num(c, "d").unwrap_or(0),
                num(c, "h"),
                to,
            )
        });
        let s = self.us.replace_all(&s, |c: &Captures<'_>| {
            date_out(
                num(c, "y"),
                num(c, "m").unwrap_or(0),
                num(c, "d").unwrap_or(0),
                None,
                to,
            )
        });
        let month = |c: &Captures<'_>| c.name("mon").map_or(0, |m| month_number(m.as_str()));
        let s = self.written_md.replace_all(&s, |c: &Captures<'_>| {
            date_out(num(c, "y"), month(c), num(c, "d").unwrap_or(0), None, to)
        });
        let s = self.written_dm.replace_all(&s, |c: &Captures<'_>| {
            date_out(num(c, "y"), month(c), num(c, "d").unwrap_or(0), None, to)
        });
        let s = self.time.replace_all(&s, |c: &Captures<'_>| {
            let h = num(c, "h").or_else(|| num(c, "h2")).unwrap_or(0);
            let pm = c
                .name("ap")
                .or_else(|| c.name("ap2"))
                .map(|m| m.as_str().eq_ignore_ascii_case("p"));
            let h = match pm {
                Some(true) if h < 12 => h + 12,
                Some(false) if h == 12 => 0,
                _ => h,
            };
            match to {
                Granularity::Hour => format!("{h:02}:00"),
                _ => "[time]".to_owned(),
            }
        });
        s.into_owned()
    }
}

fn month_number(name: &str) -> i64 {
    let lower = name.to_ascii_lowercase();
    MONTHS
        .iter()
        .position(|m| lower.get(..3).is_some_and(|p| m.starts_with(p)))
        .map_or(0, |i| i64::try_from(i).unwrap_or(0) + 1)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Inverse of [`days_from_civil`].
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn date_out(y: Option<i64>, m: i64, d: i64, hour: Option<i64>, to: Granularity) -> String {
    if !(1..=12).contains(&m) {
        return "[date]".to_owned();
    }
    let Some(y) = y else {
        // No year: the day cannot be placed in a week or year.
        let name = MONTHS
            .get(usize::try_from(m - 1).unwrap_or(0))
            .copied()
            .unwrap_or("[date]");
        return match to {
            Granularity::Hour | Granularity::Day => format!("{name} {d}"),
            Granularity::Week | Granularity::Month => name.to_owned(),
            Granularity::Year => "[date]".to_owned(),
        };
    };
    if d < 1 || d > days_in_month(y, m) {
        return "[date]".to_owned();
    }
    match to {
        Granularity::Hour => match hour {
            Some(h) if (0..24).contains(&h) => format!("{y:04}-{m:02}-{d:02} {h:02}:00"),
            _ => format!("{y:04}-{m:02}-{d:02}"),
        },
        Granularity::Day => format!("{y:04}-{m:02}-{d:02}"),
        Granularity::Week => {
            let days = days_from_civil(y, m, d);
            // 1970-01-01 was a Thursday; Monday is weekday 0.
            let weekday = (days + 3).rem_euclid(7);
            let (wy, wm, wd) = civil_from_days(days - weekday);
            format!("week of {wy:04}-{wm:02}-{wd:02}")
        }
        Granularity::Month => format!("{y:04}-{m:02}"),
        Granularity::Year => format!("{y:04}"),
    }
}

/// Whether a transform declared for `applies_to` fits a field of type `ty`.
/// A list fits when the list type or its element type is listed.
#[must_use]
pub fn fits(applies_to: &[FieldType], ty: &FieldType) -> bool {
    applies_to.contains(ty) || matches!(ty, FieldType::List { item } if fits(applies_to, item))
}

/// Replace non-overlapping ranges in `text` (leftmost first, longest at a tie).
fn splice(text: &str, mut ranges: Vec<(std::ops::Range<usize>, String)>) -> String {
    ranges.sort_by(|a, b| a.0.start.cmp(&b.0.start).then(b.0.end.cmp(&a.0.end)));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0usize;
    for (r, with) in ranges {
        if r.start < pos {
            continue;
        }
        out.push_str(text.get(pos..r.start).unwrap_or(""));
        out.push_str(&with);
        pos = r.end;
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    out
}

/// The replacements of one `replace lexicon` step, from the matches of
/// every lexicon in the text.
fn replace_lexicon(
    table: &Table,
    matches: &[(u32, u32, std::ops::Range<usize>)],
    lexicon: u32,
    with: Option<&String>,
    text: &str,
) -> String {
    let entries = table
        .lexicons
        .get(lexicon as usize)
        .map(|l| l.entries.as_slice())
        .unwrap_or(&[]);
    let ranges = matches
        .iter()
        .filter(|(l, _, _)| *l == lexicon)
        .map(|(_, e, r)| {
            let rep = entries
                .get(*e as usize)
                .and_then(|en| en.replacement.clone())
                .or_else(|| with.cloned())
                .unwrap_or_else(|| DEFAULT_REPLACEMENT.to_owned());
            (r.clone(), rep)
        })
        .collect();
    splice(text, ranges)
}

/// Apply a run of steps (none of them `constant`) to one string. The
/// lexicon matches are computed once and reused by every `replace lexicon`
/// step until a step changes the text: a std transform has one such step
/// per sensitive lexicon, and each used to scan the whole text again.
fn apply_steps(
    table: &Table,
    labeler: &Labeler,
    rw: &Rewriter,
    steps: &[&Step],
    text: &str,
) -> String {
    let mut text = text.to_owned();
    let mut matches: Option<Vec<(u32, u32, std::ops::Range<usize>)>> = None;
    for step in steps {
        let next = match step {
            Step::ReplaceLexicon { lexicon, with } => {
                let m = matches.get_or_insert_with(|| labeler.lexicon_matches(&text));
                replace_lexicon(table, m, *lexicon, with.as_ref(), &text)
            }
            other => apply_step(labeler, rw, other, &text),
        };
        if next != text {
            text = next;
            matches = None;
        }
    }
    text
}

/// Apply one step other than `replace lexicon` to one string.
fn apply_step(labeler: &Labeler, rw: &Rewriter, step: &Step, text: &str) -> String {
    match step {
        Step::ReplaceLexicon { .. } => text.to_owned(),
        Step::RedactEntity { kind, with } => {
            let rep = with
                .clone()
                .unwrap_or_else(|| format!("[{}]", kind.as_str()));
            let ranges = labeler
                .entities
                .find(*kind, text)
                .into_iter()
                .map(|r| (r, rep.clone()))
                .collect();
            splice(text, ranges)
        }
        Step::CoarsenTime { to } => rw.coarsen(text, *to),
        Step::Constant { value } => value.clone(),
    }
}

fn map_strings(v: &mut Value, f: &mut dyn FnMut(&str) -> String) {
    match v {
        Value::String(s) => *s = f(s),
        Value::Array(items) => items.iter_mut().for_each(|i| map_strings(i, f)),
        Value::Object(map) => map.values_mut().for_each(|i| map_strings(i, f)),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Apply a transform to one field value in place. Steps apply to each
/// string in order; a `constant` step replaces the whole value, and the
/// steps after it apply to the constant. A list (a `list(…)` field) is
/// transformed element by element, so it stays a list: a constant replaces
/// each element, not the list.
pub fn apply(table: &Table, labeler: &Labeler, rw: &Rewriter, tr: &Transform, v: &mut Value) {
    if let Value::Array(items) = v {
        for item in items {
            apply(table, labeler, rw, tr, item);
        }
        return;
    }
    let mut run: Vec<&Step> = Vec::new();
    for step in &tr.steps {
        if let Step::Constant { value } = step {
            // What the run would have done is replaced anyway.
            run.clear();
            *v = Value::String(value.clone());
        } else {
            run.push(step);
        }
    }
    if !run.is_empty() {
        map_strings(v, &mut |s| apply_steps(table, labeler, rw, &run, s));
    }
}
