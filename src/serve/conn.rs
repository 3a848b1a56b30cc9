//! The connection layer: each connection's bytes watched, so a client that takes nothing of its
//! answer (or sends nothing) loses its place. The headers' own timeout (hyper's) covers a request
//! half sent; this covers everything after: a connection that moves no byte for `SEND_TIMEOUT`
//! outside a request's handling is closed, and when every place is taken, one that has moved
//! none for `STALL_UNDER_PRESSURE` gives its place to a waiting client. The kernel holds at most
//! `SEND_BUFFER` bytes of an answer a reader leaves untaken (the per-connection byte budget), so
//! such a reader stalls, and is closed, after that much.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Notify;

/// How long a connection may move no byte outside a request's handling (a reader that takes
/// nothing of its answer, a kept connection that sends no next request): then it is closed.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// When every place is taken: how long a connection may move no byte outside a request's
/// handling before its place goes to a client waiting for one.
pub const STALL_UNDER_PRESSURE: Duration = Duration::from_secs(1);
/// The most bytes of an answer the kernel holds for a connection whose reader takes none.
pub const SEND_BUFFER: usize = 256 << 10;

/// One connection as the server watches it.
pub struct Conn {
    start: Instant,
    /// Requests of this connection being handled (their answer not yet made).
    busy: AtomicUsize,
    /// When a byte last moved, or a handling ended (milliseconds from `start`).
    last: AtomicU64,
    /// Told to close the connection.
    pub close: Notify,
}

impl Conn {
    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn moved(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    /// How long no byte has moved while no request is being handled (`None` while one is).
    pub fn stalled_for(&self) -> Option<Duration> {
        (self.busy.load(Ordering::Relaxed) == 0)
            .then(|| Duration::from_millis(self.now().saturating_sub(self.last.load(Ordering::Relaxed))))
    }

    /// Resolves when the connection has moved no byte for `SEND_TIMEOUT` outside a handling.
    pub async fn timed_out(&self) {
        let mut tick = tokio::time::interval(Duration::from_millis(500));
        loop {
            tick.tick().await;
            if self.stalled_for().is_some_and(|d| d >= SEND_TIMEOUT) {
                return;
            }
        }
    }
}

/// Every open connection, to find the stalled ones when places run out.
#[derive(Default)]
pub struct Conns {
    all: Mutex<Vec<Weak<Conn>>>,
}

impl Conns {
    /// A new connection, watched from now.
    pub fn open(&self) -> Arc<Conn> {
        let start = Instant::now();
        let conn = Arc::new(Conn { start, busy: AtomicUsize::new(0), last: AtomicU64::new(0), close: Notify::new() });
        let mut all = self.all.lock().unwrap_or_else(|e| e.into_inner());
        all.retain(|c| c.strong_count() > 0);
        all.push(Arc::downgrade(&conn));
        conn
    }

    /// Closes every connection that has moved no byte for `idle` outside a handling; how many.
    pub fn evict(&self, idle: Duration) -> usize {
        let all = self.all.lock().unwrap_or_else(|e| e.into_inner());
        let stalled: Vec<Arc<Conn>> =
            all.iter().filter_map(Weak::upgrade).filter(|c| c.stalled_for().is_some_and(|d| d >= idle)).collect();
        stalled.iter().for_each(|c| c.close.notify_one());
        stalled.len()
    }
}

/// A socket whose every byte read or written counts as the connection moving.
pub struct Watched {
    stream: TcpStream,
    conn: Arc<Conn>,
}

impl Watched {
    /// `stream` watched as `conn`, its kernel send buffer set to `SEND_BUFFER` (best effort).
    pub fn new(stream: TcpStream, conn: Arc<Conn>) -> Watched {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            let size = SEND_BUFFER as libc::c_int;
            // SAFETY: the descriptor is open (owned by `stream`) and `size` outlives the call.
            unsafe {
                libc::setsockopt(
                    stream.as_raw_fd(),
                    libc::SOL_SOCKET,
                    libc::SO_SNDBUF,
                    (&size as *const libc::c_int).cast(),
                    std::mem::size_of::<libc::c_int>() as libc::socklen_t,
                );
            }
        }
        Watched { stream, conn }
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.conn.moved();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.conn.moved();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A service that marks its connection busy while a request is handled (a request waiting for
/// its scenario is not a stalled client).
pub struct Handling<S> {
    pub inner: S,
    pub conn: Arc<Conn>,
}

/// Marks a handling; its end counts as the connection moving (the answer's bytes start then).
struct Busy(Arc<Conn>);

impl Busy {
    fn new(conn: Arc<Conn>) -> Busy {
        conn.busy.fetch_add(1, Ordering::Relaxed);
        Busy(conn)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.moved();
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

type Boxed<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S, R> hyper::service::Service<R> for Handling<S>
where
    S: hyper::service::Service<R>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Boxed<Result<S::Response, S::Error>>;

    fn call(&self, req: R) -> Self::Future {
        let busy = Busy::new(self.conn.clone());
        let answer = self.inner.call(req);
        Box::pin(async move {
            let r = answer.await;
            drop(busy);
            r
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_being_handled_is_never_stalled_and_one_idle_is_evicted() {
        let conns = Conns::default();
        let idle = conns.open();
        let handled = conns.open();
        let _busy = Busy::new(handled.clone());
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(handled.stalled_for(), None);
        assert!(idle.stalled_for().is_some_and(|d| d >= Duration::from_millis(30)));
        assert_eq!(conns.evict(Duration::from_millis(20)), 1, "only the idle one");
        assert_eq!(conns.evict(Duration::from_secs(60)), 0);
    }
}
