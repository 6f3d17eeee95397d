//! The plan store (mcp-server.md "Sandbox and store", `save_plan`, resources): safe plan ids,
//! and the filesystem behind a small trait so tests can use any directory.
//!
//! A saved plan is the file `<planId>.json` directly in the store. Only names that are a safe
//! id plus `.json` are plans; anything else in the directory (temporary files of a save in
//! progress, stray files) is never listed or served.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Longest plan id, in bytes (ASCII characters).
pub const MAX_ID_LEN: usize = 128;

/// Environment variable naming the store directory.
pub const PLAN_STORE_ENV: &str = "PLAN_STORE";

/// The store directory when [`PLAN_STORE_ENV`] is not set (the guest path a runner grants).
pub const DEFAULT_PLAN_STORE: &str = "/plans";

/// Whether `id` can be a file name: it matches `[A-Za-z0-9][A-Za-z0-9._-]{0,127}` (so it is
/// never empty, `.` or `..`, and holds no `/`, `\`, `:` or NUL).
#[must_use]
pub fn is_safe_id(id: &str) -> bool {
    let b = id.as_bytes();
    match b.first() {
        Some(first) if first.is_ascii_alphanumeric() => {
            b.len() <= MAX_ID_LEN && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'-'))
        }
        _ => false,
    }
}

/// The file name of plan `id`: `<id>.json`. Call only with a safe id.
#[must_use]
pub fn file_name(id: &str) -> String {
    format!("{id}.json")
}

/// The plan id of a store file name, when the name is `<safe id>.json`.
#[must_use]
pub fn id_of_file_name(name: &str) -> Option<&str> {
    name.strip_suffix(".json").filter(|id| is_safe_id(id))
}

/// Filesystem access of the server: one flat directory of files. Every `name` the server passes
/// is `<safe id>.json`, never a path.
pub trait Store {
    /// Names of the regular files directly in the store (any order; names that are not UTF-8
    /// are left out).
    ///
    /// # Errors
    /// The directory cannot be read.
    fn file_names(&self) -> io::Result<Vec<String>>;

    /// The bytes of file `name`, or `None` when there is no such file.
    ///
    /// # Errors
    /// The file exists but cannot be read.
    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>>;

    /// Whether an entry called `name` exists.
    ///
    /// # Errors
    /// The store cannot be inspected.
    fn exists(&self, name: &str) -> io::Result<bool>;

    /// Writes `bytes` to `name` atomically: to a temporary file in the store (a name that is not
    /// `<safe id>.json`, so never listed), then renamed over `name`. A crash leaves either the
    /// old file or the new one, never a half-written plan.
    ///
    /// # Errors
    /// The file cannot be written or renamed; the temporary file is removed.
    fn write_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()>;
}

/// The store as a directory of the (guest) filesystem.
#[derive(Debug)]
pub struct DirStore {
    dir: PathBuf,
}

impl DirStore {
    /// The store at `dir`, or `None` when `dir` is not an existing directory (read-only mode).
    #[must_use]
    pub fn open(dir: impl Into<PathBuf>) -> Option<DirStore> {
        let dir = dir.into();
        std::fs::metadata(&dir).ok().filter(std::fs::Metadata::is_dir).map(|_| DirStore { dir })
    }

    /// The store named by `PLAN_STORE` (default `/plans`), when that is a directory; the path is
    /// returned either way, for the log.
    #[must_use]
    pub fn from_env() -> (PathBuf, Option<DirStore>) {
        let dir = std::env::var_os(PLAN_STORE_ENV)
            .filter(|v| !v.is_empty())
            .map_or_else(|| PathBuf::from(DEFAULT_PLAN_STORE), PathBuf::from);
        let store = DirStore::open(dir.clone());
        (dir, store)
    }

    /// The store's directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Store for DirStore {
    fn file_names(&self) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&self.dir)? {
            let entry = entry?;
            if !entry.file_type()?.is_file() {
                continue;
            }
            if let Ok(name) = entry.file_name().into_string() {
                names.push(name);
            }
        }
        Ok(names)
    }

    fn read(&self, name: &str) -> io::Result<Option<Vec<u8>>> {
        let path = self.dir.join(name);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => std::fs::read(&path).map(Some),
            // A directory or another kind of entry is not a plan.
            Ok(_) => Ok(None),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn exists(&self, name: &str) -> io::Result<bool> {
        match std::fs::symlink_metadata(self.dir.join(name)) {
            Ok(_) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn write_atomic(&mut self, name: &str, bytes: &[u8]) -> io::Result<()> {
        // Temporary names start with '.' and end in ".tmp": never "<safe id>.json". The middle
        // is random, so instances sharing one store (processes, HTTP instances, hosts on one
        // volume) do not pick the same name; `create_new` still guards against a collision.
        let mut attempts = 0u32;
        let (tmp, mut file) = loop {
            attempts += 1;
            let tmp = self.dir.join(format!(".{name}.{:016x}.tmp", random_u64()));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => break (tmp, f),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 64 => {}
                Err(e) => return Err(e),
            }
        };
        let written = file.write_all(bytes).map(|()| {
            // Best effort: some hosts cannot sync; the rename below is what makes it atomic.
            let _ = file.sync_all();
        });
        drop(file);
        let result = written.and_then(|()| std::fs::rename(&tmp, self.dir.join(name)));
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

/// 64 random bits, without a dependency: std's `RandomState` keys come from the system's
/// random source (`wasi:random` in the guest) once per thread and differ for every
/// `RandomState`; hashing the time with them gives a value no other process can predict.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.finish()
}

/// Encodes a list cursor: the hex of the last id of the page (opaque to clients).
#[must_use]
pub(crate) fn encode_cursor(last_id: &str) -> String {
    last_id.bytes().fold(String::with_capacity(last_id.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Decodes a cursor made by [`encode_cursor`]; `None` for anything else.
#[must_use]
pub(crate) fn decode_cursor(cursor: &str) -> Option<String> {
    let b = cursor.as_bytes();
    if !b.len().is_multiple_of(2) {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 2);
    for pair in b.chunks(2) {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        out.push(u8::try_from(hi * 16 + lo).ok()?);
    }
    String::from_utf8(out).ok().filter(|id| is_safe_id(id))
}
