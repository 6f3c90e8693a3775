//! Destination addresses: the host of a URL and glob matching, shared by
//! destination lookup (`decide`) and the destination labeler (`label`).

/// The host of a URL (`scheme://[user@]host[:port]/...`), lowercase not applied.
#[must_use]
pub fn host_of(s: &str) -> Option<&str> {
    let (_, rest) = s.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split(':').next().unwrap_or(host);
    (!host.is_empty()).then_some(host)
}

/// Match `text` against `glob`, ASCII case-insensitively: `*` matches any
/// sequence of characters, `?` exactly one. Hand-written because two
/// metacharacters do not justify a glob crate; linear-time backtracking on
/// the last `*` only.
#[must_use]
pub fn glob_match(glob: &str, text: &str) -> bool {
    let g: Vec<char> = glob.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut gi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match (g.get(gi), t.get(ti)) {
            (Some('*'), _) => {
                star = Some((gi, ti));
                gi += 1;
            }
            (Some(gc), Some(tc)) if *gc == '?' || gc.eq_ignore_ascii_case(tc) => {
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
        .is_some_and(|rest| rest.iter().all(|c| *c == '*'))
}
