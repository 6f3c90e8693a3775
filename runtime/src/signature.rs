//! Signed tables: an Ed25519 signature over a table's digest, and the
//! check a runtime makes when it requires one.
//!
//! The digest detects accidents, not tampering: anyone can edit a cell and
//! recompute it. A signature binds the digest to a key the deployment
//! trusts, so a re-sealed table is refused wherever a signature is required.
//!
//! Formats (all text, so they diff and travel well):
//!
//! - a **public key** file: `stpc-ed25519-public:` and the key's 32 bytes in
//!   lowercase hex, on one line;
//! - a **secret key** file: `stpc-ed25519-secret:` and the 32-byte seed;
//! - a **signature** file (`TABLE.sig`, beside the table): one JSON object
//!   `{"algorithm": "ed25519", "key": "<public key hex>", "digest": "<the
//!   table's digest>", "signature": "<64 bytes hex>"}`.
//!
//! The signed message is the ASCII text `stpc-table-signature-v1\n` followed
//! by the digest (64 hex characters): the prefix keeps the signature from
//! meaning anything in another protocol. Other readers (the Python reader)
//! verify the same bytes.

use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};

use crate::error::LoadError;
use crate::table::Table;

/// Prefix of a public key file's line.
pub const PUBLIC_PREFIX: &str = "stpc-ed25519-public:";

/// Prefix of a secret key file's line.
pub const SECRET_PREFIX: &str = "stpc-ed25519-secret:";

/// Domain-separation prefix of the signed message.
pub const MESSAGE_PREFIX: &[u8] = b"stpc-table-signature-v1\n";

/// A signature file's content.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignatureFile {
    /// Always `ed25519`.
    pub algorithm: String,
    /// The signer's public key, hex.
    pub key: String,
    /// The digest signed.
    pub digest: String,
    /// The signature, hex.
    pub signature: String,
}

/// Public keys a deployment accepts signatures from.
#[derive(Clone, Debug, Default)]
pub struct TrustedKeys {
    keys: Vec<VerifyingKey>,
}

impl TrustedKeys {
    /// No keys (every signature is refused).
    #[must_use]
    pub fn new() -> TrustedKeys {
        TrustedKeys::default()
    }

    /// Adds a key from a public key file's text.
    ///
    /// # Errors
    ///
    /// The text is not a public key.
    pub fn add(&mut self, text: &str) -> Result<(), LoadError> {
        self.keys.push(parse_public(text)?);
        Ok(())
    }

    /// Number of keys.
    #[must_use]
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Checks a signature file's text against a loaded table: well formed,
    /// over this table's digest, made by one of these keys.
    ///
    /// # Errors
    ///
    /// [`LoadError::Signature`] saying which of those failed.
    pub fn check(&self, table: &Table, signature: &str) -> Result<(), LoadError> {
        let refuse = |why: &str| Err(LoadError::Signature(why.to_owned()));
        let Ok(file) = serde_json::from_str::<SignatureFile>(signature) else {
            return refuse("the signature file is not a signature");
        };
        if file.algorithm != "ed25519" {
            return refuse("the signature is not ed25519");
        }
        if file.digest != table.digest {
            return refuse("the signature is over another table's digest");
        }
        let Some(key) = hex32(&file.key).and_then(|b| VerifyingKey::from_bytes(&b).ok()) else {
            return refuse("the signature names a malformed key");
        };
        if !self.keys.contains(&key) {
            return refuse("the signing key is not trusted");
        }
        let Some(sig) = hex_bytes::<64>(&file.signature).map(|b| Signature::from_bytes(&b)) else {
            return refuse("the signature is malformed");
        };
        if key.verify_strict(&message(&table.digest), &sig).is_err() {
            return refuse("the signature does not match the table's digest");
        }
        Ok(())
    }
}

/// The bytes a signature is made over.
#[must_use]
pub fn message(digest: &str) -> Vec<u8> {
    let mut m = MESSAGE_PREFIX.to_vec();
    m.extend_from_slice(digest.as_bytes());
    m
}

/// A new key pair from a 32-byte random seed: (secret file text, public
/// file text).
#[must_use]
pub fn keypair(seed: [u8; 32]) -> (String, String) {
    let key = SigningKey::from_bytes(&seed);
    (
        format!("{SECRET_PREFIX}{}\n", hex(&seed)),
        format!("{PUBLIC_PREFIX}{}\n", hex(key.verifying_key().as_bytes())),
    )
}

/// Signs a table with a secret key file's text: the signature file's text.
///
/// # Errors
///
/// The text is not a secret key.
pub fn sign(table: &Table, secret: &str) -> Result<String, LoadError> {
    let seed = secret
        .trim()
        .strip_prefix(SECRET_PREFIX)
        .and_then(hex32)
        .ok_or_else(|| LoadError::Signature("the key file is not an stpc secret key".into()))?;
    let key = SigningKey::from_bytes(&seed);
    let sig = key.sign(&message(&table.digest));
    let file = SignatureFile {
        algorithm: "ed25519".into(),
        key: hex(key.verifying_key().as_bytes()),
        digest: table.digest.clone(),
        signature: hex(&sig.to_bytes()),
    };
    serde_json::to_string(&file)
        .map(|mut s| {
            s.push('\n');
            s
        })
        .map_err(|e| LoadError::Signature(e.to_string()))
}

fn parse_public(text: &str) -> Result<VerifyingKey, LoadError> {
    text.trim()
        .strip_prefix(PUBLIC_PREFIX)
        .and_then(hex32)
        .and_then(|b| VerifyingKey::from_bytes(&b).ok())
        .ok_or_else(|| LoadError::Signature("the key file is not an stpc public key".into()))
}

// Hex by hand: two dozen lines, not worth a dependency.
fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        for n in [b >> 4, b & 0x0f] {
            out.push(DIGITS.get(usize::from(n)).map_or('0', |d| char::from(*d)));
        }
    }
    out
}

fn hex32(text: &str) -> Option<[u8; 32]> {
    hex_bytes::<32>(text)
}

fn hex_bytes<const N: usize>(text: &str) -> Option<[u8; N]> {
    let text = text.as_bytes();
    if text.len() != N * 2 {
        return None;
    }
    let nibble = |c: u8| {
        char::from(c)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    };
    let mut out = [0_u8; N];
    for (i, slot) in out.iter_mut().enumerate() {
        let hi = nibble(*text.get(2 * i)?)?;
        let lo = nibble(*text.get(2 * i + 1)?)?;
        *slot = (hi << 4) | lo;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_bad_text() {
        let bytes = [0_u8, 1, 0xab, 0xff];
        assert_eq!(hex(&bytes), "0001abff");
        assert_eq!(hex_bytes::<4>("0001abff"), Some(bytes));
        assert_eq!(hex_bytes::<4>("0001abfg"), None);
        assert_eq!(hex_bytes::<4>("0001ab"), None);
        assert_eq!(hex_bytes::<1>("é"), None);
    }
}
