//! The on-disk compile cache: a `.wasm` is compiled by Cranelift once, and later starts load
//! the compiled code with `Component::deserialize` (a few milliseconds instead of about half a
//! second for the server on a 2-core machine; see the `## Performance` table in
//! `mcp-wasi/README.md`).
//!
//! - Directory: `--cache-dir`, else `$XDG_CACHE_HOME/momentum-plan`, else
//!   `$HOME/.cache/momentum-plan` ([`default_dir`]); none (or `--no-cache`) means "compile in
//!   memory every time".
//! - Key ([`key`]): SHA-256 over a format tag, this runner's version, the engine's
//!   precompile-compatibility hash (wasmtime's own version, target, Cranelift flags, enabled
//!   wasm features, tunables) and the SHA-256 of the `.wasm` bytes. A different `.wasm`, a
//!   different wasmtime or a different engine configuration never shares an entry: the stdio
//!   and the HTTP component, and the stdio and the `--http` engine (pooling, epochs, memory
//!   reservation: [`crate::http::pool::PoolSizing::http_engine_config`]), all have entries of
//!   their own in one directory.
//! - Entry: `momentum-plan-mcp-<key>.cwasm` = [`MAGIC`] (16 bytes), the key (32 bytes), the
//!   SHA-256 of the payload (32 bytes), then the payload from
//!   `Engine::precompile_component`. An entry is used only when magic, key and digest all
//!   match and wasmtime accepts it; anything else (truncated, corrupt, from another
//!   wasmtime) is compiled again and replaced, never fatal.
//! - Writing: compiled at most once per key: a miss takes an exclusive lock on
//!   `momentum-plan-mcp-<key>.lock` and looks again before compiling (a concurrent start
//!   waits, then hits); the entry is written to a temporary file in the same directory and
//!   renamed into place, so a reader never sees half an entry. Failing to write is only
//!   reported (with `--verbose`); the compiled component is still used.
//! - Pruning: when a new entry is written, other entries (and their lock files) last
//!   modified more than [`PRUNE_AFTER`] ago are deleted.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};
use wasmtime::Engine;
use wasmtime::component::Component;

/// First 16 bytes of every cache entry (format version 1).
pub const MAGIC: &[u8; 16] = b"MPSANDBOX-CWASM1";
/// Entry file names start with this and end with `.cwasm` (lock files: `.lock`).
pub const ENTRY_PREFIX: &str = "momentum-plan-mcp-";
/// Entries of other keys not modified for this long are deleted when a new entry is written.
pub const PRUNE_AFTER: Duration = Duration::from_hours(720);

const HEADER_LEN: usize = MAGIC.len() + 32 + 32;

/// The cache directory: `flag` if given, else `$XDG_CACHE_HOME/momentum-plan` (when set to
/// an absolute path, as the XDG spec requires), else `$HOME/.cache/momentum-plan`, else
/// `None` (no cache).
pub fn default_dir(flag: Option<&Path>, xdg_cache_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    if let Some(dir) = flag {
        return Some(dir.to_path_buf());
    }
    if let Some(xdg) = xdg_cache_home.map(PathBuf::from)
        && xdg.is_absolute()
    {
        return Some(xdg.join("momentum-plan"));
    }
    home.filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache").join("momentum-plan"))
}

/// A 32-byte cache key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// Lower-case hex, 64 characters.
    pub fn hex(&self) -> String {
        self.0.iter().fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    }
    /// `momentum-plan-mcp-<hex>.cwasm`
    pub fn entry_name(&self) -> String {
        format!("{ENTRY_PREFIX}{}.cwasm", self.hex())
    }
    /// `momentum-plan-mcp-<hex>.lock`
    pub fn lock_name(&self) -> String {
        format!("{ENTRY_PREFIX}{}.lock", self.hex())
    }
}

/// Feeds `Hash` output into SHA-256 (deterministic for one build on one platform, which is
/// all a local cache needs).
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
    fn finish(&self) -> u64 {
        0 // never used: the digest is read with `finalize`.
    }
}

/// The cache key of `wasm` for `engine` (see the module docs for what goes in).
pub fn key(engine: &Engine, wasm: &[u8]) -> Key {
    let mut h = ShaHasher(Sha256::new());
    h.write(b"momentum-plan-sandbox compile cache, format 1\0");
    h.write(env!("CARGO_PKG_VERSION").as_bytes());
    h.write(b"\0");
    engine.precompile_compatibility_hash().hash(&mut h);
    h.write(&Sha256::digest(wasm));
    Key(h.0.finalize().into())
}

/// What the cache did on this start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No cache directory (or `--no-cache`): compiled in memory.
    Disabled,
    /// A valid entry was loaded; nothing was compiled.
    Hit(PathBuf),
    /// Compiled; `stored` says whether the new entry was written (`Err` = why not).
    /// `replaced` names the problem with an existing entry that was recompiled, if any.
    Compiled {
        /// `Ok(entry path)` or `Err(reason it could not be written)`.
        stored: Result<PathBuf, String>,
        /// Why an existing entry was not used (`None` when there was none).
        replaced: Option<String>,
    },
}

impl Outcome {
    /// The one-line report printed with `--verbose` (`cache: hit …`, `cache: miss, compiled; …`).
    pub fn describe(&self) -> String {
        match self {
            Outcome::Disabled => "cache: disabled, compiled in memory".to_string(),
            Outcome::Hit(p) => format!("cache: hit {}", p.display()),
            Outcome::Compiled { stored, replaced } => format!(
                "cache: miss, compiled{}; {}",
                replaced.as_deref().map(|r| format!(" (old entry unusable: {r})")).unwrap_or_default(),
                match stored {
                    Ok(p) => format!("stored {}", p.display()),
                    Err(e) => format!("not stored: {e}"),
                }
            ),
        }
    }
}

/// The `.wasm` could not be compiled (it is not a valid component for this engine).
#[derive(Debug)]
pub struct CompileError(pub wasmtime::Error);

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for CompileError {}

/// Returns the compiled component for `wasm`, from the cache in `dir` when possible.
/// Errors only when the `.wasm` itself does not compile; cache problems are never fatal.
pub fn load(engine: &Engine, wasm: &[u8], dir: Option<&Path>) -> Result<(Component, Outcome), CompileError> {
    let Some(dir) = dir else {
        let c = Component::new(engine, wasm).map_err(CompileError)?;
        return Ok((c, Outcome::Disabled));
    };
    let key = key(engine, wasm);
    let entry = dir.join(key.entry_name());

    // Fast path: no lock, no directory creation.
    let first = match try_entry(engine, &entry, &key) {
        Ok(c) => return Ok((c, Outcome::Hit(entry))),
        Err(problem) => problem,
    };

    if let Err(e) = fs::create_dir_all(dir) {
        let c = compile(engine, wasm)?.1;
        let stored = Err(format!("cannot create {}: {e}", dir.display()));
        return Ok((c, Outcome::Compiled { stored, replaced: first.into_reason() }));
    }
    // Serialise compilation per key across processes; a lock we cannot take only costs a
    // possible duplicate compile.
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(key.lock_name()))
        .ok()
        .filter(|f| f.lock().is_ok());
    // Another process may have written the entry while we waited for the lock.
    let replaced = match try_entry(engine, &entry, &key) {
        Ok(c) => return Ok((c, Outcome::Hit(entry))),
        Err(problem) => problem.into_reason(),
    };
    let (payload, component) = compile(engine, wasm)?;
    let stored = write_entry(dir, &entry, &key, &payload).map(|()| entry.clone());
    if stored.is_ok() {
        prune(dir, &key);
    }
    drop(lock);
    Ok((component, Outcome::Compiled { stored, replaced }))
}

/// Why a cache entry was not used.
enum Problem {
    Absent,
    Bad(String),
}

impl Problem {
    fn into_reason(self) -> Option<String> {
        match self {
            Problem::Absent => None,
            Problem::Bad(r) => Some(r),
        }
    }
}

/// Reads and checks one entry, then deserializes it.
fn try_entry(engine: &Engine, entry: &Path, key: &Key) -> Result<Component, Problem> {
    let bytes = match fs::read(entry) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Problem::Absent),
        Err(e) => return Err(Problem::Bad(format!("unreadable: {e}"))),
    };
    let payload = check_entry(&bytes, key).map_err(|r| Problem::Bad(r.to_string()))?;
    deserialize(engine, payload).map_err(|e| Problem::Bad(format!("rejected by wasmtime: {e}")))
}

/// Checks magic, key and digest of an entry's bytes; returns the payload.
pub fn check_entry<'a>(bytes: &'a [u8], key: &Key) -> Result<&'a [u8], &'static str> {
    if bytes.len() < HEADER_LEN {
        return Err("truncated");
    }
    let (magic, rest) = bytes.split_at(MAGIC.len());
    let (stored_key, rest) = rest.split_at(32);
    let (digest, payload) = rest.split_at(32);
    if magic != MAGIC {
        return Err("not a cache entry of this format");
    }
    if stored_key != key.0 {
        return Err("key mismatch");
    }
    if digest != Sha256::digest(payload).as_slice() {
        return Err("checksum mismatch (corrupt)");
    }
    Ok(payload)
}

/// The bytes of an entry for `payload`.
pub fn encode_entry(key: &Key, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(payload);
    out
}

/// Loads a payload made by `Engine::precompile_component`.
#[allow(unsafe_code)]
fn deserialize(engine: &Engine, payload: &[u8]) -> wasmtime::Result<Component> {
    // SAFETY: `Component::deserialize` trusts its input to be wasmtime's own output. The
    // payload was produced by `Engine::precompile_component` of an engine with the same
    // compatibility hash (it is part of the key checked in `check_entry`), in the user's own
    // cache directory, and its SHA-256 was verified just before this call, so truncation or
    // corruption is caught before wasmtime sees the bytes; wasmtime itself still checks the
    // header (its version and engine configuration) and refuses a mismatch with an error.
    unsafe { Component::deserialize(engine, payload) }
}

/// Compiles once: the precompiled bytes (to store) and the component loaded from them.
fn compile(engine: &Engine, wasm: &[u8]) -> Result<(Vec<u8>, Component), CompileError> {
    let payload = engine.precompile_component(wasm).map_err(CompileError)?;
    let component = deserialize(engine, &payload).map_err(CompileError)?;
    Ok((payload, component))
}

/// Writes `entry` atomically: temporary file in `dir`, then rename.
fn write_entry(dir: &Path, entry: &Path, key: &Key, payload: &[u8]) -> Result<(), String> {
    let nanos = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let tmp = dir.join(format!(".{}.{}-{nanos}.tmp", key.entry_name(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&encode_entry(key, payload))?;
        f.sync_all()?;
        fs::rename(&tmp, entry)
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        format!("cannot write {}: {e}", entry.display())
    })
}

/// Deletes entries and lock files of other keys older than [`PRUNE_AFTER`].
fn prune(dir: &Path, keep: &Key) {
    let Ok(read) = fs::read_dir(dir) else { return };
    let now = SystemTime::now();
    let keep_hex = keep.hex();
    for item in read.flatten() {
        let name = item.file_name();
        let Some(name) = name.to_str() else { continue };
        let ours = name.starts_with(ENTRY_PREFIX)
            && (name.ends_with(".cwasm") || name.ends_with(".lock"))
            && !name.contains(&keep_hex);
        let old = item
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > PRUNE_AFTER);
        if ours && old {
            let _ = fs::remove_file(item.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The smallest valid component: magic, version 0x0d, layer 1, no sections.
    const EMPTY_COMPONENT: &[u8] = b"\0asm\x0d\x00\x01\x00";

    fn engine() -> Engine {
        Engine::new(&crate::guest::engine_config()).unwrap()
    }

    #[test]
    fn default_dir_order() {
        let flag = Path::new("/flag");
        let xdg = || Some(OsString::from("/xdg"));
        let home = || Some(OsString::from("/home/u"));
        assert_eq!(default_dir(Some(flag), xdg(), home()), Some(PathBuf::from("/flag")));
        assert_eq!(default_dir(None, xdg(), home()), Some(PathBuf::from("/xdg/momentum-plan")));
        assert_eq!(default_dir(None, None, home()), Some(PathBuf::from("/home/u/.cache/momentum-plan")));
        // A relative or empty XDG_CACHE_HOME is ignored, as the XDG spec says.
        assert_eq!(
            default_dir(None, Some(OsString::from("rel")), home()),
            Some(PathBuf::from("/home/u/.cache/momentum-plan"))
        );
        assert_eq!(default_dir(None, Some(OsString::new()), None), None);
        assert_eq!(default_dir(None, None, Some(OsString::new())), None);
    }

    #[test]
    fn key_depends_on_wasm_and_engine_config() {
        let e = engine();
        let k1 = key(&e, EMPTY_COMPONENT);
        assert_eq!(k1, key(&e, EMPTY_COMPONENT), "stable for the same inputs");
        assert_eq!(k1, key(&engine(), EMPTY_COMPONENT), "stable across engines of one config");
        assert_ne!(k1, key(&e, b"\0asm\x0d\x00\x01\x00\x00"), "different wasm");
        let mut other = crate::guest::engine_config();
        other.cranelift_opt_level(wasmtime::OptLevel::None);
        let e2 = Engine::new(&other).unwrap();
        assert_ne!(k1, key(&e2, EMPTY_COMPONENT), "different engine config");
        assert_eq!(k1.hex().len(), 64);
        assert!(k1.entry_name().starts_with(ENTRY_PREFIX) && k1.entry_name().ends_with(".cwasm"));
    }

    #[test]
    fn entry_encoding_round_trips_and_rejects_damage() {
        let k = Key([7; 32]);
        let payload = b"compiled code".as_slice();
        let bytes = encode_entry(&k, payload);
        assert_eq!(check_entry(&bytes, &k), Ok(payload));
        assert_eq!(check_entry(&bytes, &Key([8; 32])), Err("key mismatch"));
        assert_eq!(check_entry(&bytes[..HEADER_LEN - 1], &k), Err("truncated"));
        let mut flipped = bytes.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(check_entry(&flipped, &k), Err("checksum mismatch (corrupt)"));
        let mut truncated_payload = bytes.clone();
        truncated_payload.pop();
        assert!(check_entry(&truncated_payload, &k).is_err());
        let mut magic = bytes;
        magic[0] = b'X';
        assert_eq!(check_entry(&magic, &k), Err("not a cache entry of this format"));
    }

    #[test]
    fn miss_then_hit_then_repair() {
        let e = engine();
        let dir = crate::testdir::tempdir();
        let cache = dir.path().join("nested/cache");
        let (_, first) = load(&e, EMPTY_COMPONENT, Some(&cache)).unwrap();
        let entry = cache.join(key(&e, EMPTY_COMPONENT).entry_name());
        assert_eq!(first, Outcome::Compiled { stored: Ok(entry.clone()), replaced: None });
        let (_, second) = load(&e, EMPTY_COMPONENT, Some(&cache)).unwrap();
        assert_eq!(second, Outcome::Hit(entry.clone()));
        // No temporary files left behind.
        let names: Vec<String> =
            fs::read_dir(&cache).unwrap().map(|d| d.unwrap().file_name().into_string().unwrap()).collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");

        // Corrupt the payload: recompiled, replaced, then a hit again.
        let mut bytes = fs::read(&entry).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        fs::write(&entry, &bytes).unwrap();
        let (_, third) = load(&e, EMPTY_COMPONENT, Some(&cache)).unwrap();
        assert_eq!(
            third,
            Outcome::Compiled { stored: Ok(entry.clone()), replaced: Some("checksum mismatch (corrupt)".into()) }
        );
        assert_eq!(load(&e, EMPTY_COMPONENT, Some(&cache)).unwrap().1, Outcome::Hit(entry.clone()));

        // Garbage and an empty file: same repair.
        for junk in [b"garbage".as_slice(), b"".as_slice()] {
            fs::write(&entry, junk).unwrap();
            let (_, o) = load(&e, EMPTY_COMPONENT, Some(&cache)).unwrap();
            assert!(matches!(o, Outcome::Compiled { stored: Ok(_), replaced: Some(_) }), "{o:?}");
        }
    }

    #[test]
    fn entry_wasmtime_rejects_is_recompiled() {
        // A well-formed entry whose payload is not wasmtime's output (as if written by
        // another wasmtime build under a colliding key): wasmtime refuses it, we recompile.
        let e = engine();
        let dir = crate::testdir::tempdir();
        let k = key(&e, EMPTY_COMPONENT);
        fs::write(dir.path().join(k.entry_name()), encode_entry(&k, b"\x7fELF not really")).unwrap();
        let (_, o) = load(&e, EMPTY_COMPONENT, Some(dir.path())).unwrap();
        match o {
            Outcome::Compiled { stored: Ok(_), replaced: Some(r) } => {
                assert!(r.starts_with("rejected by wasmtime"), "{r}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unwritable_cache_is_not_fatal() {
        let e = engine();
        let dir = crate::testdir::tempdir();
        let file = dir.path().join("a-file");
        fs::write(&file, b"x").unwrap();
        // The "directory" is a file: cannot be created, the component still loads.
        let (_, o) = load(&e, EMPTY_COMPONENT, Some(&file.join("sub"))).unwrap();
        assert!(matches!(o, Outcome::Compiled { stored: Err(_), .. }), "{o:?}");
    }

    #[test]
    fn disabled_and_bad_wasm() {
        let e = engine();
        assert_eq!(load(&e, EMPTY_COMPONENT, None).unwrap().1, Outcome::Disabled);
        let dir = crate::testdir::tempdir();
        for bad in [b"".as_slice(), b"not wasm", b"\0asm\x01\x00\x00\x00"] {
            assert!(load(&e, bad, None).is_err());
            assert!(load(&e, bad, Some(dir.path())).is_err());
        }
        // Nothing was stored for the bad inputs.
        assert!(
            fs::read_dir(dir.path()).unwrap().flatten().all(|d| !d.file_name().to_string_lossy().ends_with(".cwasm"))
        );
    }

    #[test]
    fn prune_removes_only_old_foreign_entries() {
        let dir = crate::testdir::tempdir();
        let keep = Key([1; 32]);
        let other = Key([2; 32]);
        let old = SystemTime::now() - PRUNE_AFTER - Duration::from_mins(1);
        let mk = |name: String, t: SystemTime| {
            let p = dir.path().join(name);
            fs::write(&p, b"x").unwrap();
            File::options().write(true).open(&p).unwrap().set_modified(t).unwrap();
            p
        };
        let kept_old = mk(keep.entry_name(), old);
        let foreign_old = mk(other.entry_name(), old);
        let foreign_lock = mk(other.lock_name(), old);
        let foreign_new = mk(Key([3; 32]).entry_name(), SystemTime::now());
        let unrelated = mk("notes.txt".into(), old);
        prune(dir.path(), &keep);
        assert!(kept_old.exists() && foreign_new.exists() && unrelated.exists());
        assert!(!foreign_old.exists() && !foreign_lock.exists());
    }
}
