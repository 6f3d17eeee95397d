//! The checks of the command-line values that clap does not know (its `value_parser`s in
//! [`crate::cli::Args`], and `main`'s for `--http`): the listen address, the loopback rule, the
//! bearer token, `--allow-host` and `--allow-origin` (spec `mcp-server.md`, "Streamable HTTP").

use std::ffi::OsString;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::Path;

/// Environment variable of the runner that may hold the bearer token (when
/// `--bearer-token-file` is not given; an empty value counts as unset).
pub const TOKEN_ENV: &str = "MOMENTUM_PLAN_BEARER_TOKEN";

/// Parses the `--http` address. Accepted: `IP:PORT` (`127.0.0.1:8765`, `0.0.0.0:80`),
/// `[IPv6]:PORT` (`[::1]:8765`), `localhost:PORT` (any `*.localhost` name too, case-insensitive,
/// mapped to `127.0.0.1` without a DNS lookup) and a bare `PORT` (on `127.0.0.1`). Port 0 asks
/// the system for a free port. Other host names are refused: a name could resolve to anything.
///
/// `Err` is the message clap prints (exit [`crate::exit::USAGE`]).
pub fn parse_listen_addr(text: &str) -> Result<SocketAddr, String> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return text
            .parse::<u16>()
            .map(|port| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .map_err(|_| format!("port {text} is out of range (0-65535)"));
    }
    if let Some((host, port)) = text.rsplit_once(':')
        && is_localhost_name(host)
    {
        return port
            .parse::<u16>()
            .map(|port| SocketAddr::from((Ipv4Addr::LOCALHOST, port)))
            .map_err(|_| format!("{port:?} is not a port (0-65535)"));
    }
    Err(format!("{text:?} is not IP:PORT, [IPv6]:PORT, localhost:PORT or PORT"))
}

/// `localhost`, `localhost.` and any `*.localhost` name (RFC 6761: always loopback), any case.
pub fn is_localhost_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// Whether `addr` is reachable from this machine only: `127.0.0.0/8`, `::1`, or an IPv4-mapped
/// `::ffff:127.x.y.z`. The unspecified addresses `0.0.0.0` and `::` (every interface) are not.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    match addr.ip() {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
    }
}

/// The refusal of spec "Streamable HTTP": a non-loopback `addr` needs a bearer token.
/// `Err` is the one-line message (exit [`crate::exit::USAGE`]).
pub fn check_bind(addr: SocketAddr, has_token: bool) -> Result<(), String> {
    if has_token || is_loopback(&addr) {
        return Ok(());
    }
    Err(format!(
        "refusing to listen on {addr} without a bearer token: it is not a loopback address; \
         pass --bearer-token-file FILE (or set {TOKEN_ENV}), or bind 127.0.0.1"
    ))
}

/// The bearer token: the content of `file` (`--bearer-token-file`) with surrounding white
/// space trimmed, else `env` (the value of [`TOKEN_ENV`], trimmed; empty = unset), else `None`.
///
/// Errors (exit [`crate::exit::USAGE`]): the file cannot be read or is not UTF-8, the file holds only
/// white space, the value is not UTF-8, or the token has a character outside visible ASCII
/// (`!`..`~`: no inner spaces or control characters, which could never match an
/// `Authorization` header).
pub fn read_bearer_token(file: Option<&Path>, env: Option<OsString>) -> Result<Option<String>, String> {
    let token = if let Some(path) = file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--bearer-token-file {}: cannot read it: {e}", path.display()))?;
        let token = text.trim();
        if token.is_empty() {
            return Err(format!("--bearer-token-file {}: the file is empty", path.display()));
        }
        token.to_string()
    } else {
        let Some(value) = env else { return Ok(None) };
        let value = value.into_string().map_err(|_| format!("{TOKEN_ENV} is not valid UTF-8"))?;
        let token = value.trim();
        if token.is_empty() {
            return Ok(None);
        }
        token.to_string()
    };
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        let from = file.map_or_else(|| TOKEN_ENV.to_string(), |p| format!("--bearer-token-file {}", p.display()));
        return Err(format!("{from}: the token must be one word of visible ASCII (no spaces or control characters)"));
    }
    Ok(Some(token))
}

/// Checks one `--allow-host` value: a host name or IP literal without port (`mcp.example.com`,
/// `10.0.0.5`, `[2001:db8::1]`), as the guest matches the request's `Host` without its port.
/// No commas, white space, `/` or `@`. Returns it unchanged.
pub fn parse_allowed_host(text: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("{text:?} is not a host name: {why}"));
    if text.is_empty() {
        return bad("empty");
    }
    if text.bytes().any(|b| !b.is_ascii_graphic() || matches!(b, b',' | b'/' | b'@' | b'?' | b'#')) {
        return bad("no commas, white space, '/', '@', '?' or '#'");
    }
    if let Some(inner) = text.strip_prefix('[') {
        return match inner.strip_suffix(']').map(str::parse::<Ipv6Addr>) {
            Some(Ok(_)) => Ok(text.to_string()),
            _ => bad("a bracketed name must be an IPv6 address, e.g. [2001:db8::1]"),
        };
    }
    if text.contains(':') {
        return bad("give it without a port (IPv6 in brackets)");
    }
    Ok(text.to_string())
}

/// Checks one `--allow-origin` value: `http://host[:port]` or `https://host[:port]` as a
/// browser sends it in `Origin` (no path, query, user info, commas or white space). Returns it
/// unchanged.
pub fn parse_allowed_origin(text: &str) -> Result<String, String> {
    let bad = |why: &str| Err(format!("{text:?} is not an origin (scheme://host[:port]): {why}"));
    let Some((scheme, authority)) = text.split_once("://") else {
        return bad("no scheme");
    };
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return bad("the scheme must be http or https");
    }
    if authority.is_empty() {
        return bad("no host");
    }
    if authority.bytes().any(|b| !b.is_ascii_graphic() || matches!(b, b',' | b'/' | b'@' | b'?' | b'#')) {
        return bad("no path, query, user info, commas or white space");
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        let ok = |s: &str| parse_listen_addr(s).unwrap();
        assert_eq!(ok("127.0.0.1:8765"), "127.0.0.1:8765".parse().unwrap());
        assert_eq!(ok(" 0.0.0.0:80 "), "0.0.0.0:80".parse().unwrap());
        assert_eq!(ok("[::1]:0"), "[::1]:0".parse().unwrap());
        assert_eq!(ok("localhost:9"), "127.0.0.1:9".parse().unwrap());
        assert_eq!(ok("LocalHost.:9"), "127.0.0.1:9".parse().unwrap());
        assert_eq!(ok("mcp.localhost:10"), "127.0.0.1:10".parse().unwrap());
        assert_eq!(ok("8080"), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(ok("0"), "127.0.0.1:0".parse().unwrap());
        for bad in ["", "example.com:80", "localhost", "localhost:", "localhost:70000", "127.0.0.1", "::1", "70000"] {
            assert!(parse_listen_addr(bad).is_err(), "{bad:?} accepted");
        }
        assert!(parse_listen_addr("70000").unwrap_err().contains("out of range"));
    }

    #[test]
    fn loopback_addresses() {
        for lo in ["127.0.0.1:1", "127.255.0.9:1", "[::1]:1", "[::ffff:127.0.0.1]:1"] {
            assert!(is_loopback(&lo.parse().unwrap()), "{lo}");
        }
        for not in ["0.0.0.0:1", "[::]:1", "10.0.0.1:1", "192.168.1.2:1", "[2001:db8::1]:1", "[::ffff:10.0.0.1]:1"] {
            assert!(!is_loopback(&not.parse().unwrap()), "{not}");
        }
        assert!(is_loopback(&parse_listen_addr("localhost:1").unwrap()));
        for name in ["localhost", "LOCALHOST", "localhost.", "a.localhost", "x.y.localhost."] {
            assert!(is_localhost_name(name), "{name}");
        }
        for name in ["localhost.com", "mylocalhost", "", "127.0.0.1"] {
            assert!(!is_localhost_name(name), "{name}");
        }
    }

    #[test]
    fn non_loopback_needs_a_token() {
        let any: SocketAddr = "0.0.0.0:8765".parse().unwrap();
        let lo: SocketAddr = "127.0.0.1:8765".parse().unwrap();
        assert_eq!(check_bind(lo, false), Ok(()));
        assert_eq!(check_bind(lo, true), Ok(()));
        assert_eq!(check_bind(any, true), Ok(()));
        let e = check_bind(any, false).unwrap_err();
        assert!(!e.contains('\n'), "one line: {e}");
        assert!(e.contains("0.0.0.0:8765") && e.contains("--bearer-token-file") && e.contains(TOKEN_ENV), "{e}");
        assert!(e.contains("bind 127.0.0.1"), "{e}");
    }

    #[test]
    fn bearer_token_sources() {
        let dir = crate::testdir::tempdir();
        let file = dir.path().join("token");
        std::fs::write(&file, "  s3cr3t-token_x\n\n").unwrap();
        assert_eq!(read_bearer_token(Some(&file), None), Ok(Some("s3cr3t-token_x".into())));
        // The file wins over the environment variable.
        assert_eq!(read_bearer_token(Some(&file), Some("other".into())), Ok(Some("s3cr3t-token_x".into())));
        assert_eq!(read_bearer_token(None, Some(" from-env \n".into())), Ok(Some("from-env".into())));
        assert_eq!(read_bearer_token(None, Some("".into())), Ok(None));
        assert_eq!(read_bearer_token(None, Some("  ".into())), Ok(None));
        assert_eq!(read_bearer_token(None, None), Ok(None));

        std::fs::write(&file, " \n\t").unwrap();
        let e = read_bearer_token(Some(&file), None).unwrap_err();
        assert!(e.contains("--bearer-token-file") && e.contains("empty"), "{e}");
        std::fs::write(&file, "two words").unwrap();
        assert!(read_bearer_token(Some(&file), None).unwrap_err().contains("visible ASCII"));
        std::fs::write(&file, "t\u{7f}").unwrap();
        assert!(read_bearer_token(Some(&file), None).is_err());
        assert!(read_bearer_token(None, Some("é".into())).unwrap_err().contains(TOKEN_ENV));
        let missing = dir.path().join("missing");
        let e = read_bearer_token(Some(&missing), None).unwrap_err();
        assert!(e.contains("cannot read") && e.contains(&missing.display().to_string()), "{e}");
        assert!(read_bearer_token(Some(dir.path()), None).is_err(), "a directory is no token file");
    }

    #[test]
    fn allowed_hosts_and_origins() {
        for ok in ["mcp.example.com", "10.0.0.5", "[2001:db8::1]", "Example.COM"] {
            assert_eq!(parse_allowed_host(ok), Ok(ok.to_string()));
        }
        for bad in ["", "a,b", "a b", "host:443", "http://a", "[::1", "[nope]", "a/b", "u@h", "::1"] {
            assert!(parse_allowed_host(bad).is_err(), "{bad:?}");
        }
        for ok in ["https://app.example.com", "http://localhost:3000", "HTTPS://A.example", "http://[::1]:8080"] {
            assert_eq!(parse_allowed_origin(ok), Ok(ok.to_string()));
        }
        for bad in [
            "",
            "app.example.com",
            "ftp://a",
            "https://",
            "https://a/",
            "https://a/p",
            "https://a,https://b",
            "https://u@a",
            "https://a b",
        ] {
            assert!(parse_allowed_origin(bad).is_err(), "{bad:?}");
        }
    }
}
