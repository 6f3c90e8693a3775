//! Destination addresses: how agents write them, parsed strictly, and glob
//! matching; shared by destination lookup (`decide`) and the destination
//! labeler (`label`).
//!
//! Agents write destinations as a full URL (`https://api.search.example/v2/
//! query?q=...`), a host with a path and no scheme (`api.search.example/v2/
//! query`), an internal path (`retrieval.internal/v1/collections/x`), a bare
//! host or a collection name (`oncology`). [`parse`] reads all of them into
//! a host (lowercase), a path and a query, and **refuses** what HTTP clients
//! read differently from each other: a backslash, whitespace or a control
//! character anywhere, and userinfo (`user@`) in the authority
//! (`https://evil.example\@api.brave.com/` is `api.brave.com` to a naive
//! parser and `evil.example` to a WHATWG one). A refused address is unknown
//! to the table, which every verified table blocks. Hand-written rather than
//! a WHATWG crate: the runtime needs only the host and the path, and a
//! refusal is safer than agreeing with one parser among several.

use std::borrow::Cow;

/// A destination as written, split into its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The scheme, without `://`.
    pub scheme: Option<&'a str>,
    /// The host, lowercase (borrowed when it was written lowercase);
    /// `None` for a bare name without a dot (a collection) unless a scheme
    /// or a path names it a host.
    pub host: Option<Cow<'a, str>>,
    /// The port, if written.
    pub port: Option<&'a str>,
    /// The path, from its `/` (empty when there is none).
    pub path: &'a str,
    /// The query, after `?` (never recorded).
    pub query: &'a str,
}

/// Why an address was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A backslash, whitespace or control character.
    Ambiguous,
    /// `user@` before the host.
    Userinfo,
    /// An empty host where one is needed.
    NoHost,
}

/// Parses a destination (see the module documentation).
///
/// # Errors
///
/// [`Refused`] for an address HTTP clients could read differently.
pub fn parse(s: &str) -> Result<Parsed<'_>, Refused> {
    if s.chars()
        .any(|c| c == '\\' || c.is_whitespace() || c.is_control())
    {
        return Err(Refused::Ambiguous);
    }
    let (scheme, rest) = match s.split_once("://") {
        Some((scheme, rest)) if is_scheme(scheme) => (Some(scheme), rest),
        _ => (None, s),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    if authority.contains('@') {
        return Err(Refused::Userinfo);
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => (h, Some(p)),
        _ => (authority, None),
    };
    let tail = tail.split('#').next().unwrap_or("");
    let (path, query) = tail.split_once('?').unwrap_or((tail, ""));
    let named_host = scheme.is_some() || port.is_some() || host.contains('.') || !tail.is_empty();
    if named_host && host.is_empty() {
        return Err(Refused::NoHost);
    }
    Ok(Parsed {
        scheme,
        host: named_host.then(|| lowercase(host)),
        port,
        path,
        query,
    })
}

fn is_scheme(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// `s` in ASCII lowercase, allocating only when it has an uppercase letter
/// (destination lookup parses every address it does not know by name).
fn lowercase(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// The host of a destination written as a URL, a host with a path, or a
/// dotted host (lowercase); `None` for a bare name or a refused address.
#[must_use]
pub fn host_of(s: &str) -> Option<String> {
    parse(s).ok()?.host.map(Cow::into_owned)
}

/// The destination without its query and fragment, the form an audit
/// record may carry: `scheme://host[:port]/path` as written (host
/// lowercased), or the bare name. `None` for a refused address.
#[must_use]
pub fn without_query(s: &str) -> Option<String> {
    let p = parse(s).ok()?;
    let Some(host) = p.host else {
        return Some(s.split(['?', '#']).next().unwrap_or("").to_owned());
    };
    let mut out = String::new();
    if let Some(scheme) = p.scheme {
        out.push_str(scheme);
        out.push_str("://");
    }
    out.push_str(&host);
    if let Some(port) = p.port {
        out.push(':');
        out.push_str(port);
    }
    out.push_str(p.path);
    Some(out)
}

/// Match `text` against `glob`, ASCII case-insensitively: `*` matches any
/// sequence of characters, `?` exactly one. Hand-written because two
/// metacharacters do not justify a glob crate; linear-time backtracking on
/// the last `*` only, over bytes when both sides are ASCII (no allocation:
/// the destination labeler matches every address rule's glob per call).
#[must_use]
pub fn glob_match(glob: &str, text: &str) -> bool {
    if glob.is_ascii() && text.is_ascii() {
        return glob_units(glob.as_bytes(), text.as_bytes(), u8::eq_ignore_ascii_case);
    }
    let g: Vec<char> = glob.chars().collect();
    let t: Vec<char> = text.chars().collect();
    glob_units(&g, &t, char::eq_ignore_ascii_case)
}

/// The matcher of [`glob_match`] over bytes or characters.
fn glob_units<T: Copy + PartialEq + From<u8>>(
    g: &[T],
    t: &[T],
    eq: impl Fn(&T, &T) -> bool,
) -> bool {
    let (star_unit, any_unit) = (T::from(b'*'), T::from(b'?'));
    let (mut gi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match (g.get(gi), t.get(ti)) {
            (Some(gc), _) if *gc == star_unit => {
                star = Some((gi, ti));
                gi += 1;
            }
            (Some(gc), Some(tc)) if *gc == any_unit || eq(gc, tc) => {
                gi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sg, st)) => {
                    gi = sg + 1;
                    ti = st + 1;
                    star = Some((sg, st + 1));
                }
                None => return false,
            },
        }
    }
    g.get(gi..)
        .is_some_and(|rest| rest.iter().all(|c| *c == star_unit))
}
