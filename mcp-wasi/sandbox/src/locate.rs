//! Finding a server component: the stdio server `momentum-plan-mcp.wasm` ([`STDIO`]) or the
//! Streamable HTTP server `momentum-plan-mcp-http.wasm` ([`HTTP`], for `--http`).
//!
//! Lookup order (issue 3; the first rule that applies wins), for the component `W` wanted
//! (its file name `W.file`, its environment variable `W.env`):
//! 1. `--wasm PATH`: used as given; if it is not a file, that is the error (no fallback).
//! 2. the environment variable `W.env` (`MOMENTUM_PLAN_MCP_WASM`, or
//!    `MOMENTUM_PLAN_MCP_HTTP_WASM` for `--http`) when set and not empty: the same.
//! 3. `W.file` in the directory of the runner's own executable (an installed layout: copy the
//!    files side by side);
//! 4. the cargo target directory the runner was built into: the executable lives in
//!    `<target>/release/`, so `<target>/wasm32-wasip2/release/W.file`
//!    (this also covers a `CARGO_TARGET_DIR` outside the workspace);
//! 5. the workspace found by walking up from the executable's directory, then from the
//!    current directory: the first ancestor whose `Cargo.toml` declares `[workspace]`,
//!    then `<workspace>/target/wasm32-wasip2/release/W.file`.
//!
//! Rules 3–5 take the first candidate that is an existing file; when none is, the error
//! lists every path tried and the build command of the wanted component.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which component to look for: its file name, the environment variable that names it
/// (rule 2) and the cargo package that builds it (quoted in the "not found" error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    /// File name, e.g. `momentum-plan-mcp.wasm`.
    pub file: &'static str,
    /// Environment variable of rule 2, e.g. `MOMENTUM_PLAN_MCP_WASM`.
    pub env: &'static str,
    /// Cargo package that builds it for `wasm32-wasip2`, e.g. `momentum-plan-mcp`.
    pub package: &'static str,
}

/// The stdio server component (a `wasi:cli` command), run without `--http`.
pub const STDIO: Wanted =
    Wanted { file: "momentum-plan-mcp.wasm", env: "MOMENTUM_PLAN_MCP_WASM", package: "momentum-plan-mcp" };

/// The Streamable HTTP server component (exports `wasi:http/incoming-handler`), run with
/// `--http` (spec `mcp-server.md`, "Streamable HTTP").
pub const HTTP: Wanted = Wanted {
    file: "momentum-plan-mcp-http.wasm",
    env: "MOMENTUM_PLAN_MCP_HTTP_WASM",
    package: "momentum-plan-mcp-http",
};

/// File name of the stdio server component (`STDIO.file`).
pub const WASM_FILE: &str = STDIO.file;
/// Environment variable naming the stdio server component (`STDIO.env`, rule 2).
pub const WASM_ENV: &str = STDIO.env;

/// Where a `.wasm` path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Rule 1: `--wasm`.
    Flag,
    /// Rule 2: the environment variable named here (`MOMENTUM_PLAN_MCP_WASM` or
    /// `MOMENTUM_PLAN_MCP_HTTP_WASM`).
    Env(&'static str),
    /// Rule 3: beside the runner's executable.
    BesideExe,
    /// Rule 4: the cargo target directory holding the runner's executable.
    ExeTargetDir,
    /// Rule 5: a workspace's `target/wasm32-wasip2/release/`.
    Workspace,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Flag => "--wasm",
            Origin::Env(var) => var,
            Origin::BesideExe => "beside the runner",
            Origin::ExeTargetDir => "the runner's cargo target directory",
            Origin::Workspace => "the workspace's target directory",
        })
    }
}

/// The inputs of the lookup, gathered from the process (see [`Inputs::from_process`]) or
/// built by hand in tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inputs {
    /// The component looked for.
    pub wanted: Wanted,
    /// The `--wasm` argument, if any.
    pub flag: Option<PathBuf>,
    /// The value of `wanted.env`, if set (an empty value counts as unset).
    pub env: Option<OsString>,
    /// The runner's own executable (absolute), if known.
    pub exe: Option<PathBuf>,
    /// The current directory, if known.
    pub cwd: Option<PathBuf>,
}

impl Default for Inputs {
    /// Nothing known, looking for [`STDIO`].
    fn default() -> Self {
        Inputs { wanted: STDIO, flag: None, env: None, exe: None, cwd: None }
    }
}

impl Inputs {
    /// Reads the environment variable `wanted.env`, `std::env::current_exe()` (symlinks
    /// resolved) and `std::env::current_dir()`; `flag` is the `--wasm` argument.
    pub fn from_process(wanted: Wanted, flag: Option<PathBuf>) -> Self {
        Inputs {
            wanted,
            flag,
            env: std::env::var_os(wanted.env),
            exe: std::env::current_exe().ok().map(|p| std::fs::canonicalize(&p).unwrap_or(p)),
            cwd: std::env::current_dir().ok(),
        }
    }
}

/// A `.wasm` that exists, and the rule that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Path of the component file.
    pub path: PathBuf,
    /// The rule that produced it.
    pub origin: Origin,
}

/// No `.wasm` was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// The component looked for.
    pub wanted: Wanted,
    /// `Some(Flag | Env)` when an explicit path did not name a file; `None` when the
    /// automatic search (rules 3–5) found nothing.
    pub explicit: Option<Origin>,
    /// Every path looked at, in order.
    pub tried: Vec<PathBuf>,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.explicit, self.tried.first()) {
            (Some(origin), Some(path)) => {
                write!(f, "the server component given by {origin} is not a file: {}", path.display())
            }
            _ => {
                let Wanted { file, env, package } = self.wanted;
                write!(
                    f,
                    "cannot find {file}; build it with `cargo build --release --target \
                     wasm32-wasip2 -p {package}`, or pass --wasm PATH or set {env}; \
                     looked at:"
                )?;
                for p in &self.tried {
                    write!(f, " {}", p.display())?;
                }
                if self.tried.is_empty() {
                    write!(f, " (nothing: executable and current directory unknown)")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for NotFound {}

/// The automatic candidates (rules 3–5), in order, without duplicates. Reads the file
/// system only to find `Cargo.toml` files that declare a workspace.
pub fn automatic_candidates(inputs: &Inputs) -> Vec<(PathBuf, Origin)> {
    let mut out: Vec<(PathBuf, Origin)> = Vec::new();
    let mut push = |p: PathBuf, o: Origin| {
        if !out.iter().any(|(q, _)| *q == p) {
            out.push((p, o));
        }
    };
    let file = inputs.wanted.file;
    let exe_dir = inputs.exe.as_deref().and_then(Path::parent);
    if let Some(dir) = exe_dir {
        push(dir.join(file), Origin::BesideExe);
        if let Some(target) = dir.parent() {
            push(wasm_in_target(target, file), Origin::ExeTargetDir);
        }
    }
    for start in [exe_dir, inputs.cwd.as_deref()].into_iter().flatten() {
        if let Some(ws) = find_workspace(start) {
            push(wasm_in_target(&ws.join("target"), file), Origin::Workspace);
        }
    }
    out
}

/// Applies the lookup order to `inputs`, checking which candidates are files.
pub fn locate(inputs: &Inputs) -> Result<Found, NotFound> {
    let explicit = match (&inputs.flag, &inputs.env) {
        (Some(p), _) => Some((p.clone(), Origin::Flag)),
        (None, Some(v)) if !v.is_empty() => Some((PathBuf::from(v), Origin::Env(inputs.wanted.env))),
        _ => None,
    };
    if let Some((path, origin)) = explicit {
        return if path.is_file() {
            Ok(Found { path, origin })
        } else {
            Err(NotFound { wanted: inputs.wanted, explicit: Some(origin), tried: vec![path] })
        };
    }
    let candidates = automatic_candidates(inputs);
    match candidates.iter().find(|(p, _)| p.is_file()) {
        Some((path, origin)) => Ok(Found { path: path.clone(), origin: *origin }),
        None => Err(NotFound {
            wanted: inputs.wanted,
            explicit: None,
            tried: candidates.into_iter().map(|(p, _)| p).collect(),
        }),
    }
}

/// `<target>/wasm32-wasip2/release/<file>`.
fn wasm_in_target(target: &Path, file: &str) -> PathBuf {
    target.join("wasm32-wasip2").join("release").join(file)
}

/// The nearest ancestor of `start` (itself included) whose `Cargo.toml` has a
/// `[workspace]` table.
pub fn find_workspace(start: &Path) -> Option<PathBuf> {
    start.ancestors().find_map(|dir| {
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).ok()?;
        manifest.lines().any(|l| l.trim() == "[workspace]").then(|| dir.to_path_buf())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fake tree: `<t>/ws` is a workspace with a member, `<t>/tgt` an outside target dir.
    fn tree() -> crate::testdir::TempDir {
        let t = crate::testdir::tempdir();
        let ws = t.path().join("ws");
        fs::create_dir_all(ws.join("member/src")).unwrap();
        fs::write(ws.join("Cargo.toml"), "[workspace]\nmembers = [\"member\"]\n").unwrap();
        fs::write(ws.join("member/Cargo.toml"), "[package]\nname = \"m\"\n").unwrap();
        fs::create_dir_all(ws.join("target/release")).unwrap();
        fs::create_dir_all(ws.join("target/wasm32-wasip2/release")).unwrap();
        fs::create_dir_all(t.path().join("tgt/release")).unwrap();
        fs::create_dir_all(t.path().join("tgt/wasm32-wasip2/release")).unwrap();
        t
    }

    fn touch(p: &Path) -> PathBuf {
        fs::write(p, b"\0asm").unwrap();
        p.to_path_buf()
    }

    #[test]
    fn flag_wins_over_everything() {
        let t = tree();
        let flag = touch(&t.path().join("mine.wasm"));
        let env = touch(&t.path().join("env.wasm"));
        let exe = t.path().join("ws/target/release/momentum-plan-sandbox");
        touch(&exe.with_file_name(WASM_FILE));
        let inputs = Inputs { flag: Some(flag.clone()), env: Some(env.into()), exe: Some(exe), ..Inputs::default() };
        assert_eq!(locate(&inputs), Ok(Found { path: flag, origin: Origin::Flag }));
    }

    #[test]
    fn missing_flag_is_an_error_without_fallback() {
        let t = tree();
        let exe = t.path().join("ws/target/release/momentum-plan-sandbox");
        touch(&exe.with_file_name(WASM_FILE));
        let missing = t.path().join("nope.wasm");
        let err = locate(&Inputs { flag: Some(missing.clone()), exe: Some(exe), ..Inputs::default() }).unwrap_err();
        assert_eq!(err.explicit, Some(Origin::Flag));
        assert_eq!(err.tried, vec![missing.clone()]);
        assert!(err.to_string().contains("--wasm"));
        assert!(err.to_string().contains(&missing.display().to_string()));
        // A directory is not a file either.
        let err = locate(&Inputs { flag: Some(t.path().to_path_buf()), ..Inputs::default() }).unwrap_err();
        assert_eq!(err.explicit, Some(Origin::Flag));
    }

    #[test]
    fn env_is_second_and_empty_env_counts_as_unset() {
        let t = tree();
        let env = touch(&t.path().join("env.wasm"));
        let exe = t.path().join("ws/target/release/momentum-plan-sandbox");
        let beside = touch(&exe.with_file_name(WASM_FILE));
        let mut inputs = Inputs { env: Some(env.clone().into()), exe: Some(exe), ..Inputs::default() };
        assert_eq!(locate(&inputs).unwrap().path, env);
        assert_eq!(locate(&inputs).unwrap().origin, Origin::Env(WASM_ENV));
        inputs.env = Some(OsString::new());
        assert_eq!(locate(&inputs).unwrap().path, beside);
        inputs.env = Some(t.path().join("gone.wasm").into());
        assert_eq!(locate(&inputs).unwrap_err().explicit, Some(Origin::Env(WASM_ENV)));
    }

    #[test]
    fn automatic_order_beside_then_target_then_workspace() {
        let t = tree();
        let ws = t.path().join("ws");
        // Runner built into an outside CARGO_TARGET_DIR, run from inside the workspace.
        let exe = t.path().join("tgt/release/momentum-plan-sandbox");
        let inputs = Inputs { exe: Some(exe.clone()), cwd: Some(ws.join("member/src")), ..Inputs::default() };
        let beside = t.path().join("tgt/release").join(WASM_FILE);
        let in_target = t.path().join("tgt/wasm32-wasip2/release").join(WASM_FILE);
        let in_ws = ws.join("target/wasm32-wasip2/release").join(WASM_FILE);
        assert_eq!(
            automatic_candidates(&inputs),
            vec![
                (beside.clone(), Origin::BesideExe),
                (in_target.clone(), Origin::ExeTargetDir),
                (in_ws.clone(), Origin::Workspace),
            ]
        );
        let err = locate(&inputs).unwrap_err();
        assert_eq!(err.explicit, None);
        assert_eq!(err.tried.len(), 3);
        assert!(err.to_string().contains("cargo build --release --target wasm32-wasip2"));

        touch(&in_ws);
        assert_eq!(locate(&inputs).unwrap().origin, Origin::Workspace);
        touch(&in_target);
        assert_eq!(locate(&inputs).unwrap().origin, Origin::ExeTargetDir);
        touch(&beside);
        assert_eq!(locate(&inputs).unwrap().origin, Origin::BesideExe);
    }

    #[test]
    fn workspace_found_from_the_executable_too() {
        let t = tree();
        let ws = t.path().join("ws");
        // The runner inside the workspace's own target dir: rule 4 and rule 5 coincide,
        // so the candidate appears once.
        let exe = ws.join("target/release/momentum-plan-sandbox");
        let inputs = Inputs { exe: Some(exe), cwd: Some(t.path().to_path_buf()), ..Inputs::default() };
        let c = automatic_candidates(&inputs);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].1, Origin::ExeTargetDir);
        assert_eq!(c[1].0, ws.join("target/wasm32-wasip2/release").join(WASM_FILE));
    }

    #[test]
    fn find_workspace_skips_member_manifests() {
        let t = tree();
        let ws = t.path().join("ws");
        assert_eq!(find_workspace(&ws.join("member/src")), Some(ws.clone()));
        assert_eq!(find_workspace(&ws), Some(ws));
        assert_eq!(find_workspace(&t.path().join("tgt")), None);
    }

    #[test]
    fn the_http_component_has_its_own_file_env_and_hint() {
        let t = tree();
        let ws = t.path().join("ws");
        let exe = ws.join("target/release/momentum-plan-sandbox");
        // The stdio component beside the runner is not the HTTP one.
        touch(&exe.with_file_name(WASM_FILE));
        let mut inputs = Inputs { wanted: HTTP, exe: Some(exe.clone()), ..Inputs::default() };
        let c = automatic_candidates(&inputs);
        assert_eq!(c[0].0, exe.with_file_name("momentum-plan-mcp-http.wasm"));
        assert_eq!(c[1].0, ws.join("target/wasm32-wasip2/release/momentum-plan-mcp-http.wasm"));
        let err = locate(&inputs).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("cannot find momentum-plan-mcp-http.wasm;"), "{text}");
        assert!(text.contains("-p momentum-plan-mcp-http`") && text.contains("MOMENTUM_PLAN_MCP_HTTP_WASM"), "{text}");

        let built = touch(&ws.join("target/wasm32-wasip2/release/momentum-plan-mcp-http.wasm"));
        assert_eq!(locate(&inputs), Ok(Found { path: built, origin: Origin::ExeTargetDir }));
        let env = touch(&t.path().join("h.wasm"));
        inputs.env = Some(env.clone().into());
        let found = locate(&inputs).unwrap();
        assert_eq!(found, Found { path: env, origin: Origin::Env("MOMENTUM_PLAN_MCP_HTTP_WASM") });
        assert_eq!(found.origin.to_string(), "MOMENTUM_PLAN_MCP_HTTP_WASM");
        inputs.env = Some(t.path().join("gone.wasm").into());
        let err = locate(&inputs).unwrap_err();
        assert!(err.to_string().contains("given by MOMENTUM_PLAN_MCP_HTTP_WASM"), "{err}");
    }

    #[test]
    fn nothing_known_nothing_found() {
        let err = locate(&Inputs::default()).unwrap_err();
        assert!(err.tried.is_empty());
        assert!(err.to_string().contains("nothing"));
    }
}
