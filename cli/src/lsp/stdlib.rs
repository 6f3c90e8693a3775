//! The embedded standard library as files an editor can open.
//!
//! Go to definition into `std` needs a location every editor can show, and a
//! private URI scheme needs an extension per editor. So each std module is
//! written once, read-only, under the system's temporary directory, in a
//! folder named after this build's std (version and a hash of every std
//! text), and definitions point there. Files are written to a temporary
//! name and renamed, so two servers never see half a file.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The folder of this build's std files.
fn folder() -> &'static Path {
    static FOLDER: OnceLock<PathBuf> = OnceLock::new();
    FOLDER.get_or_init(|| {
        // SipHash with fixed keys: the same std gives the same folder in
        // every process of this build.
        let mut h = std::hash::DefaultHasher::new();
        for (name, text) in stpc_compiler::resolve::std_files() {
            name.hash(&mut h);
            text.hash(&mut h);
        }
        std::env::temp_dir().join(format!(
            "stpc-std-{}-{:016x}",
            env!("CARGO_PKG_VERSION"),
            h.finish()
        ))
    })
}

/// The path of std module `rel` (`policies/paper.stpc`) with `text`,
/// written if it is not there yet; `None` if it cannot be written.
pub fn materialize(rel: &str, text: &str) -> Option<PathBuf> {
    if rel.split('/').any(|p| p == ".." || p.is_empty()) {
        return None;
    }
    let path = folder().join(rel);
    if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        return Some(path);
    }
    let dir = path.parent()?;
    std::fs::create_dir_all(dir).ok()?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()?.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&tmp, text).ok()?;
    let mut permissions = std::fs::metadata(&tmp).ok()?.permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&tmp, permissions).ok()?;
    if std::fs::rename(&tmp, &path).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return std::fs::read_to_string(&path)
            .is_ok_and(|t| t == text)
            .then_some(path);
    }
    Some(path)
}
