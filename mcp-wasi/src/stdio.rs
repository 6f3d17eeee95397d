//! The stdio loop (mcp-server.md "JSON-RPC hygiene"): read bytes, split on `\n`, hand each line
//! to the [`Server`], write what it returns, one line each, and flush.
//!
//! Memory stays bounded: a line is kept only up to [`MAX_LINE_BYTES`] (plus one byte for a
//! `\r`); the rest of a longer line is read and dropped up to its `\n`, every byte of it passing
//! through an [`IdScan`] (which keeps at most the id), and the line is answered with
//! [`Server::oversized_line`]: with the request's id when the scan found one, so the client that
//! waits for that id gets its answer. End of input ends the loop (the program then exits 0).

use crate::rpc::IdScan;
use crate::{MAX_LINE_BYTES, Server};
use std::io::{self, BufRead, BufReader, Read, Write};

/// Size of the read buffer, in bytes.
pub const READ_BUFFER_BYTES: usize = 64 * 1024;

/// Serves `input` until end of input, writing every outgoing line (plus `\n`) to `output` and
/// flushing after each input line's answers.
///
/// # Errors
/// Reading `input` or writing `output` failed (`Interrupted` reads are retried). A line the
/// server cannot read is never an error: it is answered on `output`.
pub fn serve<R: Read, W: Write>(server: &mut Server, input: R, mut output: W) -> io::Result<()> {
    let mut reader = BufReader::with_capacity(READ_BUFFER_BYTES, input);
    let mut line: Vec<u8> = Vec::new();
    // `Some` while the current line is over the limit: its bytes go to the scan, not to `line`.
    let mut oversized: Option<IdScan> = None;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            // End of input: a last line without its `\n` is still served.
            if let Some(scan) = oversized {
                write_lines(&mut output, &server.oversized_line(&scan.finish()))?;
            } else if !line.is_empty() {
                write_lines(&mut output, &server.handle_line(&line))?;
            }
            return Ok(());
        }
        let (chunk, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let used = chunk.len() + usize::from(newline);
        if let Some(scan) = &mut oversized {
            scan.feed(chunk);
        } else if line.len() + chunk.len() > MAX_LINE_BYTES + 1 {
            // Over the limit: what was kept and the rest go through the scan, and are dropped.
            let mut scan = IdScan::default();
            scan.feed(&line);
            scan.feed(chunk);
            oversized = Some(scan);
            line = Vec::new();
        } else {
            line.extend_from_slice(chunk);
        }
        reader.consume(used);
        if newline {
            let answers = match oversized.take() {
                Some(scan) => server.oversized_line(&scan.finish()),
                None => server.handle_line(&line),
            };
            write_lines(&mut output, &answers)?;
            line.clear();
        }
    }
}

fn write_lines<W: Write>(output: &mut W, lines: &[String]) -> io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    for line in lines {
        output.write_all(line.as_bytes())?;
        output.write_all(b"\n")?;
    }
    output.flush()
}
