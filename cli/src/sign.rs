//! `stpc keygen` and `stpc sign`: Ed25519 keys and table signatures
//! (`stpc_runtime::signature` has the formats), and the `--trusted-key`
//! option of the commands that load tables.

use std::path::{Path, PathBuf};

use stpc_runtime::signature::{self, TrustedKeys};
use stpc_runtime::table::Table;

use crate::{output, Global, Outcome};

/// Arguments of `stpc keygen`.
#[derive(clap::Args, Debug)]
pub struct KeygenArgs {
    /// Where to write the secret key (readable by its owner only); the
    /// public key goes beside it with `.pub` appended.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// Arguments of `stpc sign`.
#[derive(clap::Args, Debug)]
pub struct SignArgs {
    /// The secret key (`stpc keygen`).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The table to sign (it is loaded and checked first).
    #[arg(value_name = "TABLE")]
    pub table: PathBuf,
    /// Where to write the signature [default: TABLE.sig].
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Options of commands that load a table: require its signature.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct TrustArgs {
    /// Require the table to be signed by this public key (repeat for
    /// several); the signature is read from `--signature` or TABLE.sig.
    /// Anything unsigned, signed by another key or re-sealed is refused.
    #[arg(long = "trusted-key", value_name = "FILE")]
    pub trusted_keys: Vec<PathBuf>,
    /// The table's signature file [default: TABLE.sig].
    #[arg(long, value_name = "FILE", requires = "trusted_keys")]
    pub signature: Option<PathBuf>,
}

impl TrustArgs {
    /// Checks `table` (read from `path`) when keys are given.
    ///
    /// # Errors
    ///
    /// A message saying why the table is refused.
    pub fn check(&self, path: &str, table: &Table) -> Result<(), String> {
        if self.trusted_keys.is_empty() {
            return Ok(());
        }
        let mut keys = TrustedKeys::new();
        for k in &self.trusted_keys {
            let text = std::fs::read_to_string(k)
                .map_err(|e| format!("cannot read `{}`: {e}", k.display()))?;
            keys.add(&text)
                .map_err(|e| format!("`{}`: {e}", k.display()))?;
        }
        let sig_path = self
            .signature
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("{path}.sig")));
        let sig = std::fs::read_to_string(&sig_path).map_err(|e| {
            format!(
                "a signature is required and `{}` cannot be read: {e}",
                sig_path.display()
            )
        })?;
        keys.check(table, &sig)
            .map_err(|e| format!("`{path}` is refused: {e}"))
    }
}

/// Runs `stpc keygen`.
pub fn keygen(global: &Global, args: KeygenArgs) -> Outcome {
    let mut seed = [0_u8; 32];
    if let Err(e) = getrandom::fill(&mut seed) {
        output::fail(global, &format!("no random source: {e}"));
        return Outcome::Failure;
    }
    let (secret, public) = signature::keypair(seed);
    let public_path = PathBuf::from(format!("{}.pub", args.out.display()));
    if args.out.exists() {
        output::fail(
            global,
            &format!(
                "`{}` exists; keygen never overwrites a key",
                args.out.display()
            ),
        );
        return Outcome::Failure;
    }
    if let Err(e) = write_secret(&args.out, secret.as_bytes()) {
        output::fail(
            global,
            &format!("cannot write `{}`: {e}", args.out.display()),
        );
        return Outcome::Failure;
    }
    if let Err(e) = output::write_atomic(&public_path, public.as_bytes()) {
        output::fail(
            global,
            &format!("cannot write `{}`: {e}", public_path.display()),
        );
        return Outcome::Failure;
    }
    crate::outln!(
        "wrote the secret key to {} and the public key to {}",
        args.out.display(),
        public_path.display()
    );
    Outcome::Success
}

/// A new file readable by its owner only, created exclusively.
fn write_secret(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Runs `stpc sign`.
pub fn sign(global: &Global, args: SignArgs) -> Outcome {
    let table_path = args.table.display().to_string();
    let table = match crate::decide::load_table(&table_path) {
        Ok(t) => t,
        Err(message) => {
            output::fail(global, &message);
            return Outcome::Failure;
        }
    };
    let secret = match std::fs::read_to_string(&args.key) {
        Ok(s) => s,
        Err(e) => {
            output::fail(
                global,
                &format!("cannot read `{}`: {e}", args.key.display()),
            );
            return Outcome::Failure;
        }
    };
    let sig = match signature::sign(&table, &secret) {
        Ok(s) => s,
        Err(e) => {
            output::fail(global, &format!("`{}`: {e}", args.key.display()));
            return Outcome::Failure;
        }
    };
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from(format!("{table_path}.sig")));
    if let Err(e) = output::write_atomic(&out, sig.as_bytes()) {
        output::fail(global, &format!("cannot write `{}`: {e}", out.display()));
        return Outcome::Failure;
    }
    crate::outln!("signed {table_path} into {}", out.display());
    Outcome::Success
}
