//! The lines loop both drivers share (`validate --lines`, `repair --lines`; the lines protocol of
//! `shared/tools/README.md`): UTF-8 JSON Lines on stdin, one compact answer line per input line
//! on stdout, in order. Blank lines are skipped; a line that is not a JSON object gets
//! `{"error": "<why>"}`; every object goes to `answer`.

use momentum_plan::Value;
use std::io::{BufRead, BufWriter, Write};

/// `{"error": why}` as one compact line.
pub(crate) fn error_line(why: &str) -> String {
    serde_json::json!({ "error": why }).to_string()
}

/// Runs the loop to the end of stdin, `answer` writing the line for each object.
///
/// # Errors
/// An I/O error reading stdin or writing stdout.
pub(crate) fn run(mut answer: impl FnMut(serde_json::Map<String, Value>) -> String) -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in stdin.split(b'\n') {
        let line = line?;
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = match momentum_plan::parse_json_bytes(line) {
            Ok(Value::Object(pair)) => answer(pair),
            Ok(_) => error_line("the line is not a JSON object"),
            Err(e) => error_line(&format!("the line is not JSON: {e}")),
        };
        out.write_all(text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
