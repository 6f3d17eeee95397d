//! The clocks of `--http`: hyper's timer on tokio's ([`TokioTimer`], for `header_read_timeout`)
//! and the epoch ticker, the guests' clock ([`EPOCH_TICK`]: time slices and the deadline).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use wasmtime::Engine;

/// Period of the epoch ticker: the granularity of guest CPU time slices and of the deadline.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// hyper's timer (for `header_read_timeout`) on tokio's clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioTimer;

/// A tokio sleep boxed so that it is `Unpin` and can be reset in place.
struct TokioSleep(Pin<Box<tokio::time::Sleep>>);

impl Future for TokioSleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for TokioSleep {}

impl hyper::rt::Timer for TokioTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(TokioSleep(Box::pin(tokio::time::sleep(duration))))
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(TokioSleep(Box::pin(tokio::time::sleep_until(deadline.into()))))
    }

    fn reset(&self, sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, new_deadline: Instant) {
        match sleep.as_mut().downcast_mut_pin::<TokioSleep>() {
            Some(s) => s.get_mut().0.as_mut().reset(new_deadline.into()),
            None => *sleep = self.sleep_until(new_deadline),
        }
    }
}

/// Starts the one epoch ticker of the server: a thread that advances `engine`'s epoch every
/// [`EPOCH_TICK`] and ends with the last strong reference to the engine.
///
/// # Errors
/// The thread cannot be started.
pub(super) fn start_epoch_ticker(engine: &Engine) -> std::io::Result<()> {
    let ticker = engine.weak();
    std::thread::Builder::new().name("epoch-ticker".into()).spawn(move || {
        while let Some(engine) = ticker.upgrade() {
            engine.increment_epoch();
            drop(engine);
            std::thread::sleep(EPOCH_TICK);
        }
    })?;
    Ok(())
}
