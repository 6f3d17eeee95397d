//! The guest's stdin, read on the calling thread.
//!
//! wasmtime-wasi's inherited stdin hands every read to a helper thread and wakes the guest's
//! thread when the bytes arrive: two cross-thread wake-ups per request line, about 10 µs of each
//! MCP round trip on our machine. The runner has exactly one guest and nothing else reading
//! stdin, so it can simply block its own thread in `read(2)`: [`DirectStdin`] does that. The
//! bytes and the order are the same; EOF ends the stream (`StreamError::Closed`), a read error
//! is reported to the guest as a failed operation once, then the stream is closed.

use std::io::Read;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::{Bytes, BytesMut};
use wasmtime_wasi::cli::{IsTerminal, StdinStream};
use wasmtime_wasi::p2::{InputStream, Pollable, StreamError, StreamResult};

/// Largest single read from the host's stdin, in bytes.
const CHUNK: usize = 64 * 1024;

/// Bytes read from the host but not yet taken by the guest, and how the stream ended.
struct State<R> {
    source: R,
    scratch: Vec<u8>,
    pending: BytesMut,
    closed: bool,
    error: Option<std::io::Error>,
}

/// A WASI stdin that reads the host's stdin (or any `Read`, for tests) directly on the
/// guest's thread. Clones share one position, as WASI requires of stdin handles.
pub struct DirectStdin<R = std::io::Stdin> {
    state: Arc<Mutex<State<R>>>,
}

impl<R> Clone for DirectStdin<R> {
    fn clone(&self) -> Self {
        DirectStdin { state: Arc::clone(&self.state) }
    }
}

impl DirectStdin<std::io::Stdin> {
    /// The host process's stdin.
    pub fn host() -> Self {
        Self::from_reader(std::io::stdin())
    }
}

impl<R: Read + Send + 'static> DirectStdin<R> {
    /// A stdin that reads from `source`.
    pub fn from_reader(source: R) -> Self {
        DirectStdin {
            state: Arc::new(Mutex::new(State {
                source,
                scratch: vec![0; CHUNK],
                pending: BytesMut::new(),
                closed: false,
                error: None,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<R>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Blocks until at least one byte is pending or the source has ended.
    fn fill(&self) {
        let mut s = self.lock();
        let s = &mut *s;
        while s.pending.is_empty() && !s.closed {
            match s.source.read(&mut s.scratch) {
                Ok(0) => s.closed = true,
                Ok(n) => s.pending.extend_from_slice(&s.scratch[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    s.closed = true;
                    s.error = Some(e);
                }
            }
        }
    }

    /// Takes up to `size` pending bytes without blocking (empty = nothing pending yet).
    fn take(&self, size: usize) -> StreamResult<Bytes> {
        let mut s = self.lock();
        if !s.pending.is_empty() {
            let n = size.min(s.pending.len());
            return Ok(s.pending.split_to(n).freeze());
        }
        if let Some(e) = s.error.take() {
            return Err(StreamError::LastOperationFailed(wasmtime::Error::new(e)));
        }
        if s.closed {
            return Err(StreamError::Closed);
        }
        Ok(Bytes::new())
    }
}

impl<R> IsTerminal for DirectStdin<R> {
    fn is_terminal(&self) -> bool {
        std::io::IsTerminal::is_terminal(&std::io::stdin())
    }
}

impl StdinStream for DirectStdin<std::io::Stdin> {
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        // Only used by WASIp3 guests, which this runner does not link: wasmtime's own stdin.
        wasmtime_wasi::cli::stdin().async_stream()
    }

    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }
}

#[wasmtime_wasi::async_trait]
impl<R: Read + Send + 'static> Pollable for DirectStdin<R> {
    async fn ready(&mut self) {
        self.fill();
    }
}

#[wasmtime_wasi::async_trait]
impl<R: Read + Send + 'static> InputStream for DirectStdin<R> {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        if size == 0 {
            return Ok(Bytes::new());
        }
        self.take(size)
    }

    async fn blocking_read(&mut self, size: usize) -> StreamResult<Bytes> {
        if size == 0 {
            return Ok(Bytes::new());
        }
        self.fill();
        self.take(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out its chunks one `read` at a time, then EOF or an error.
    struct Chunks(Vec<std::io::Result<Vec<u8>>>);

    impl Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            let chunk = self.0.remove(0)?;
            buf[..chunk.len()].copy_from_slice(&chunk);
            Ok(chunk.len())
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        // The futures here never wait (they block the thread instead), so one poll is enough.
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        let mut f = std::pin::pin!(f);
        match f.as_mut().poll(&mut cx) {
            std::task::Poll::Ready(v) => v,
            std::task::Poll::Pending => panic!("DirectStdin future did not complete at once"),
        }
    }

    #[test]
    fn reads_in_order_across_clones_then_closes() {
        let src =
            Chunks(vec![Ok(b"hello\n".to_vec()), Err(std::io::ErrorKind::Interrupted.into()), Ok(b"world\n".to_vec())]);
        let mut a = DirectStdin::from_reader(src);
        let mut b = a.clone();
        assert_eq!(a.read(10).unwrap(), Bytes::new(), "nothing read before a wait");
        assert_eq!(block_on(a.blocking_read(3)).unwrap(), &b"hel"[..]);
        assert_eq!(block_on(b.blocking_read(100)).unwrap(), &b"lo\n"[..]);
        block_on(b.ready());
        assert_eq!(a.read(100).unwrap(), &b"world\n"[..]);
        assert_eq!(block_on(a.blocking_read(0)).unwrap(), Bytes::new());
        assert!(matches!(block_on(b.blocking_read(1)), Err(StreamError::Closed)));
        assert!(matches!(a.read(1), Err(StreamError::Closed)));
    }

    #[test]
    fn a_read_error_is_reported_once_then_closed() {
        let src = Chunks(vec![Ok(b"x".to_vec()), Err(std::io::ErrorKind::BrokenPipe.into())]);
        let mut s = DirectStdin::from_reader(src);
        assert_eq!(block_on(s.blocking_read(8)).unwrap(), &b"x"[..]);
        assert!(matches!(block_on(s.blocking_read(8)), Err(StreamError::LastOperationFailed(_))));
        assert!(matches!(s.read(8), Err(StreamError::Closed)));
    }
}
