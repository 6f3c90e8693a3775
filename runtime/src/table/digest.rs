//! The table digest.
//!
//! Rule (reproducible from any language): take the table, set `digest` to the
//! empty string, serialize it as **compact** JSON with object keys in the
//! declaration order of the Rust structs (the order the schema and every
//! written table show; `params` is a map with keys in ascending byte order),
//! no whitespace, non-ASCII characters written as UTF-8 (not escaped), and
//! floats in shortest round-trip form; the digest is the lowercase hex SHA-256
//! of those bytes. In Python, for a table already loaded with `json.load`,
//! this is `hashlib.sha256(json.dumps(t | {"digest": ""},
//! separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()` as long
//! as floats avoid exponent notation (serde_json writes `1e-7` where Python
//! writes `1e-07`; confidence cuts and thresholds in `[0, 1]` with a few
//! decimals never need an exponent).

use sha2::{Digest, Sha256};

use super::Table;

/// The canonical bytes the digest is computed over.
///
/// # Errors
///
/// Only if serialization fails (a non-finite float).
pub fn canonical_bytes(table: &Table) -> Result<Vec<u8>, serde_json::Error> {
    // Not through `serde_json::Value`: its map sorts keys, and the rule is
    // declaration order.
    let mut unsealed = table.clone();
    unsealed.digest = String::new();
    serde_json::to_vec(&unsealed)
}

/// Lowercase hex SHA-256 of [`canonical_bytes`].
///
/// # Errors
///
/// Only if serialization fails (a non-finite float).
pub fn compute_digest(table: &Table) -> Result<String, serde_json::Error> {
    let mut unsealed = table.clone();
    digest_unsealed(&mut unsealed)
}

fn digest_unsealed(table: &mut Table) -> Result<String, serde_json::Error> {
    table.digest.clear();
    let mut hasher = Sha256::new();
    serde_json::to_writer(&mut hasher, &*table)?;
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex SHA-256 of `bytes`.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(hash: &[u8]) -> String {
    let mut out = String::with_capacity(64);
    for byte in hash {
        out.push(hex_digit(byte >> 4));
        out.push(hex_digit(byte & 0x0f));
    }
    out
}

fn hex_digit(n: u8) -> char {
    char::from_digit(u32::from(n), 16).unwrap_or('0')
}
