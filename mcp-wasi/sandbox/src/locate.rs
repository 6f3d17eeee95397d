//! Choosing the server component to run: the stdio server `momentum-plan-mcp.wasm`
//! ([`STDIO`]) or the Streamable HTTP server `momentum-plan-mcp-http.wasm` ([`HTTP`], for
//! `--http`).
//!
//! Both are built into the runner (`build.rs`: a release build embeds the components of the
//! same workspace), so the one binary starts anywhere, from any directory, with nothing beside
//! it (issue 15). Lookup order, for the component `W` wanted (its environment variable `W.env`);
//! the first rule that applies wins:
//! 1. `--wasm PATH`: used as given; if it is not a file, that is the error (no fallback);
//! 2. the environment variable `W.env` (`MOMENTUM_PLAN_MCP_WASM`, or
//!    `MOMENTUM_PLAN_MCP_HTTP_WASM` for `--http`) when set and not empty: the same;
//! 3. the embedded copy of `W` ([`Wanted::embedded`]).

use std::borrow::Cow;
use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;

/// Which component to look for: its file name, the environment variable that names one on
/// disk (rule 2) and the embedded copy (rule 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wanted {
    /// File name, e.g. `momentum-plan-mcp.wasm`.
    pub file: &'static str,
    /// Environment variable of rule 2, e.g. `MOMENTUM_PLAN_MCP_WASM`.
    pub env: &'static str,
    /// Cargo package that builds it for `wasm32-wasip2`, e.g. `momentum-plan-mcp`.
    pub package: &'static str,
    /// The component's bytes, built into this binary (`build.rs`).
    pub embedded: &'static [u8],
}

/// The stdio server component (a `wasi:cli` command), run without `--http`.
pub const STDIO: Wanted = Wanted {
    file: "momentum-plan-mcp.wasm",
    env: "MOMENTUM_PLAN_MCP_WASM",
    package: "momentum-plan-mcp",
    embedded: include_bytes!(env!("MOMENTUM_PLAN_SANDBOX_STDIO_WASM")),
};

/// The Streamable HTTP server component (exports `wasi:http/incoming-handler`), run with
/// `--http` (spec `mcp-server.md`, "Streamable HTTP").
pub const HTTP: Wanted = Wanted {
    file: "momentum-plan-mcp-http.wasm",
    env: "MOMENTUM_PLAN_MCP_HTTP_WASM",
    package: "momentum-plan-mcp-http",
    embedded: include_bytes!(env!("MOMENTUM_PLAN_SANDBOX_HTTP_WASM")),
};

/// Where the embedded components came from when this runner was built (`build.rs`: the
/// directory named by `MOMENTUM_PLAN_SANDBOX_WASM_DIR`, or "built by build.rs").
pub const EMBEDDED_FROM: &str = env!("MOMENTUM_PLAN_SANDBOX_WASM_FROM");

/// File name of the stdio server component (`STDIO.file`).
pub const WASM_FILE: &str = STDIO.file;
/// Environment variable naming the stdio server component (`STDIO.env`, rule 2).
pub const WASM_ENV: &str = STDIO.env;

/// A component to run: a file (rules 1 and 2) or a copy built into the runner (rule 3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wasm {
    /// A `.wasm` file on disk.
    File(PathBuf),
    /// The embedded copy: its file name and bytes.
    Embedded(&'static str, &'static [u8]),
}

impl Wasm {
    /// The component's bytes: read from the file, or borrowed from the binary.
    /// Errors: the file cannot be read.
    pub fn bytes(&self) -> std::io::Result<Cow<'static, [u8]>> {
        match self {
            Wasm::File(path) => std::fs::read(path).map(Cow::Owned),
            Wasm::Embedded(_, bytes) => Ok(Cow::Borrowed(bytes)),
        }
    }
}

/// A path as given (`/x/momentum-plan-mcp.wasm`), or `the embedded momentum-plan-mcp.wasm`.
impl fmt::Display for Wasm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Wasm::File(path) => write!(f, "{}", path.display()),
            Wasm::Embedded(name, _) => write!(f, "the embedded {name}"),
        }
    }
}

impl From<PathBuf> for Wasm {
    fn from(path: PathBuf) -> Self {
        Wasm::File(path)
    }
}

impl From<&str> for Wasm {
    fn from(path: &str) -> Self {
        Wasm::File(path.into())
    }
}

/// Where the component came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Rule 1: `--wasm`.
    Flag,
    /// Rule 2: the environment variable named here (`MOMENTUM_PLAN_MCP_WASM` or
    /// `MOMENTUM_PLAN_MCP_HTTP_WASM`).
    Env(&'static str),
    /// Rule 3: built into the runner.
    Embedded,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Flag => "--wasm",
            Origin::Env(var) => var,
            Origin::Embedded => "built into the runner",
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
}

impl Default for Inputs {
    /// Nothing given, looking for [`STDIO`].
    fn default() -> Self {
        Inputs { wanted: STDIO, flag: None, env: None }
    }
}

impl Inputs {
    /// Reads the environment variable `wanted.env`; `flag` is the `--wasm` argument.
    pub fn from_process(wanted: Wanted, flag: Option<PathBuf>) -> Self {
        Inputs { wanted, flag, env: std::env::var_os(wanted.env) }
    }
}

/// The component chosen, and the rule that chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The component.
    pub wasm: Wasm,
    /// The rule that produced it.
    pub origin: Origin,
}

/// A path given by `--wasm` or the environment variable is not a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotFound {
    /// The component looked for.
    pub wanted: Wanted,
    /// `Flag` or `Env`: the rule that gave the path.
    pub explicit: Origin,
    /// The path given.
    pub path: PathBuf,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the server component given by {} is not a file: {} (without --wasm and {}, the runner uses \
             its embedded {})",
            self.explicit,
            self.path.display(),
            self.wanted.env,
            self.wanted.file
        )
    }
}

impl std::error::Error for NotFound {}

/// Applies the lookup order to `inputs`; only an explicit path that is not a file fails.
pub fn locate(inputs: &Inputs) -> Result<Found, NotFound> {
    let explicit = match (&inputs.flag, &inputs.env) {
        (Some(p), _) => Some((p.clone(), Origin::Flag)),
        (None, Some(v)) if !v.is_empty() => Some((PathBuf::from(v), Origin::Env(inputs.wanted.env))),
        _ => None,
    };
    match explicit {
        Some((path, origin)) if path.is_file() => Ok(Found { wasm: Wasm::File(path), origin }),
        Some((path, origin)) => Err(NotFound { wanted: inputs.wanted, explicit: origin, path }),
        None => {
            Ok(Found { wasm: Wasm::Embedded(inputs.wanted.file, inputs.wanted.embedded), origin: Origin::Embedded })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::Path;

    fn touch(p: &Path) -> PathBuf {
        fs::write(p, b"\0asm").unwrap();
        p.to_path_buf()
    }

    /// The embedded components are real components: the `\0asm` preamble with the component
    /// layer (version 0x0d, layer 1), and not the same bytes.
    #[test]
    fn both_components_are_embedded() {
        for w in [STDIO, HTTP] {
            assert!(w.embedded.len() > 10_000, "{} is {} bytes", w.file, w.embedded.len());
            assert_eq!(&w.embedded[..8], b"\0asm\x0d\x00\x01\x00", "{}", w.file);
        }
        assert_ne!(STDIO.embedded, HTTP.embedded);
        assert!(!EMBEDDED_FROM.is_empty());
    }

    #[test]
    fn flag_wins_over_everything() {
        let t = crate::testdir::tempdir();
        let flag = touch(&t.path().join("mine.wasm"));
        let env = touch(&t.path().join("env.wasm"));
        let inputs = Inputs { flag: Some(flag.clone()), env: Some(env.into()), ..Inputs::default() };
        assert_eq!(locate(&inputs), Ok(Found { wasm: Wasm::File(flag), origin: Origin::Flag }));
    }

    #[test]
    fn missing_flag_is_an_error_without_fallback() {
        let t = crate::testdir::tempdir();
        let missing = t.path().join("nope.wasm");
        let err = locate(&Inputs { flag: Some(missing.clone()), ..Inputs::default() }).unwrap_err();
        assert_eq!((err.explicit, &err.path), (Origin::Flag, &missing));
        let text = err.to_string();
        assert!(text.starts_with("the server component given by --wasm is not a file: "), "{text}");
        assert!(text.contains(&missing.display().to_string()), "{text}");
        // A directory is not a file either.
        let err = locate(&Inputs { flag: Some(t.path().to_path_buf()), ..Inputs::default() }).unwrap_err();
        assert_eq!(err.explicit, Origin::Flag);
    }

    #[test]
    fn env_is_second_and_empty_env_counts_as_unset() {
        let t = crate::testdir::tempdir();
        let env = touch(&t.path().join("env.wasm"));
        let mut inputs = Inputs { env: Some(env.clone().into()), ..Inputs::default() };
        assert_eq!(locate(&inputs), Ok(Found { wasm: Wasm::File(env), origin: Origin::Env(WASM_ENV) }));
        inputs.env = Some(OsString::new());
        assert_eq!(locate(&inputs).unwrap().origin, Origin::Embedded);
        inputs.env = Some(t.path().join("gone.wasm").into());
        assert_eq!(locate(&inputs).unwrap_err().explicit, Origin::Env(WASM_ENV));
    }

    #[test]
    fn nothing_given_is_the_embedded_component() {
        let found = locate(&Inputs::default()).unwrap();
        assert_eq!(found, Found { wasm: Wasm::Embedded(WASM_FILE, STDIO.embedded), origin: Origin::Embedded });
        assert_eq!(found.wasm.to_string(), "the embedded momentum-plan-mcp.wasm");
        assert_eq!(found.origin.to_string(), "built into the runner");
        assert!(matches!(found.wasm.bytes(), Ok(Cow::Borrowed(b)) if b == STDIO.embedded));
        let http = locate(&Inputs { wanted: HTTP, ..Inputs::default() }).unwrap();
        assert_eq!(http.wasm, Wasm::Embedded("momentum-plan-mcp-http.wasm", HTTP.embedded));
    }

    #[test]
    fn the_http_component_has_its_own_env() {
        let t = crate::testdir::tempdir();
        let env = touch(&t.path().join("h.wasm"));
        let mut inputs = Inputs { wanted: HTTP, env: Some(env.clone().into()), ..Inputs::default() };
        let found = locate(&inputs).unwrap();
        assert_eq!(found, Found { wasm: Wasm::File(env.clone()), origin: Origin::Env("MOMENTUM_PLAN_MCP_HTTP_WASM") });
        assert_eq!(found.origin.to_string(), "MOMENTUM_PLAN_MCP_HTTP_WASM");
        assert_eq!(found.wasm.bytes().unwrap().as_ref(), b"\0asm");
        assert_eq!(found.wasm.to_string(), env.display().to_string());
        inputs.env = Some(t.path().join("gone.wasm").into());
        let err = locate(&inputs).unwrap_err();
        assert!(err.to_string().contains("given by MOMENTUM_PLAN_MCP_HTTP_WASM"), "{err}");
        assert!(err.to_string().contains("its embedded momentum-plan-mcp-http.wasm"), "{err}");
    }

    #[test]
    fn an_unreadable_file_is_an_io_error() {
        let t = crate::testdir::tempdir();
        assert!(Wasm::File(t.path().join("gone.wasm")).bytes().is_err());
    }
}
