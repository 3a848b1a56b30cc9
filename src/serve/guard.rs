//! What keeps the workbench answering and private: the heavy work (building and rendering a
//! scenario) on a bounded pool of blocking threads, each request within a time limit and a memory
//! budget (both asked at the work's checkpoints, [`checkpoint`]); the `Host`
//! header checked against the address the server is bound to (a page of another site that has
//! its name point at 127.0.0.1, DNS rebinding, is refused); and headers that forbid sniffing,
//! framing and any script or style from elsewhere on every answer.

use std::cell::Cell;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::error::ServeError;
use crate::meter::{self, Meter};

/// How long one request may take, waiting for a thread included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The most memory one request's work may hold at once: bytes asked of the allocator by the
/// threads working for it, counted by [`crate::meter`] (see it for why the allocator counts, not
/// the process's resident size, which every request shares). Past it the request is answered 413
/// at its next checkpoint and its memory freed.
///
/// Measured (docs/speed.md, "the workbench's memory per request"): the largest requests the page
/// can make hold at most 6.4 MiB (20 maps at level 30 with a court of 12, every file in a zip and
/// 280 renames of 200 characters, the most a permalink's 64 KiB carries; 1,000 rerolls of the same
/// 6.0 MiB; a 40-area fortress 1.3 MiB). 64 MiB is ten times that, and with one request per core
/// at once the pool stays under the 1 GiB issue 37 allows any accepted file up to 16 cores.
pub const REQUEST_MEMORY: usize = 64 << 20;

/// The page's own scripts and styles only (the booklet and the served SVG carry inline styles),
/// pictures as data URLs, never inside another site's frame.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
                   font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The most heavy requests waiting for a thread at once; one more is answered 503 at once (so
/// waiting requests, which keep their connections, cannot take every place).
pub const QUEUE: usize = 64;

/// The threads heavy requests run on: as many as the cores, each at a lower priority (nice 10) so
/// the page, its assets and light requests, on the async workers, keep a lane of their own
/// whatever the heavy ones do.
pub struct Pool {
    permits: Semaphore,
    waiting: AtomicUsize,
    /// Each request's memory budget: [`REQUEST_MEMORY`], smaller in tests.
    budget: usize,
    /// The most memory any one request has held (what a test reads to see the meter counted).
    peak: Arc<AtomicUsize>,
}

impl Pool {
    pub fn new() -> Pool {
        Pool::metered(REQUEST_MEMORY, Arc::default())
    }

    /// A pool whose requests may each hold `budget` bytes, keeping in `peak` the most any held.
    pub fn metered(budget: usize, peak: Arc<AtomicUsize>) -> Pool {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Pool { permits: Semaphore::new(cores), waiting: AtomicUsize::new(0), budget, peak }
    }

    /// Runs `work` on a blocking thread once one of the pool's places is free; a request that is
    /// not done within `REQUEST_TIMEOUT` is answered 503 and its work stops at its next
    /// [`checkpoint`]; so is one that finds `QUEUE` requests waiting already. A request whose
    /// work held more than the pool's budget is answered 413 at its next checkpoint, or when its
    /// work is done (its answer is dropped then).
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ServeError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let busy = || ServeError::Busy(format!("the request took over {} s; try again", REQUEST_TIMEOUT.as_secs()));
        let waiting = Waiting::join(&self.waiting).ok_or_else(|| {
            ServeError::Busy(format!("{QUEUE} requests are waiting for the workbench already; try again"))
        })?;
        let deadline = Instant::now() + REQUEST_TIMEOUT;
        let (meter, peak) = (Meter::new(self.budget), self.peak.clone());
        let job = async {
            let _permit = self.permits.acquire().await.map_err(|_| busy())?;
            drop(waiting);
            tokio::task::spawn_blocking(move || {
                lower_priority();
                let answer = within(deadline, meter.clone(), || work().and_then(|v| checkpoint().map(|()| v)));
                peak.fetch_max(meter.peak(), Ordering::Relaxed);
                answer
            })
            .await
            .map_err(|_| {
                ServeError::Internal("the server failed on this request (a bug; see its log); it keeps running".into())
            })?
        };
        tokio::time::timeout(REQUEST_TIMEOUT, job).await.map_err(|_| busy())?
    }
}

thread_local! {
    /// When the request this pool thread works for is answered 503: its work stops at the next
    /// [`checkpoint`] rather than running on for nobody (and holding its memory).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Stops a request's work once its time is up (503) or once it has held more memory than its
/// budget (413): called at coarse points (between the edits a permalink replays, before
/// rendering, when the answer is made). Outside the pool (the CLI, tests) there is neither.
///
/// 413 and not 503: the meter counts this request's own memory, not the server's, so the same
/// permalink passes the budget again however idle the server is, and 503 says "try again later";
/// 413 says the request itself is too large, and a permalink (the query) is the whole request.
pub fn checkpoint() -> Result<(), ServeError> {
    if DEADLINE.get().is_some_and(|deadline| Instant::now() >= deadline) {
        return Err(ServeError::Busy(format!(
            "the request took over {} s and was stopped; try a shorter permalink",
            REQUEST_TIMEOUT.as_secs()
        )));
    }
    match meter::over() {
        Some((_, budget)) => Err(ServeError::TooLarge(format!(
            "the request needed over {} of memory and was stopped; ask for fewer maps or areas, or fewer edits",
            mib(budget)
        ))),
        None => Ok(()),
    }
}

/// A budget in MiB (every budget but a test's), or in KiB or bytes when it is not whole MiB.
fn mib(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b.is_multiple_of(1 << 20) => format!("{} MiB", b >> 20),
        b if b.is_multiple_of(1 << 10) => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Runs `work` under `deadline` and counting into `meter` on this thread; both are cleared after
/// it, even when it panics (the pool's threads are reused: a stale deadline or meter would stop,
/// or be charged by, the next request).
pub fn within<T>(deadline: Instant, meter: Arc<Meter>, work: impl FnOnce() -> T) -> T {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            DEADLINE.set(None);
        }
    }
    DEADLINE.set(Some(deadline));
    let _clear = Clear;
    meter::metered(meter, work)
}

/// A place in the pool's queue, left on drop.
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn join(count: &'a AtomicUsize) -> Option<Waiting<'a>> {
        let before = count.fetch_add(1, Ordering::Relaxed);
        let place = Waiting(count);
        (before < QUEUE).then_some(place)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Lowers this thread's priority to nice 10, once per thread (Linux: a thread's nice value is its
/// own). Best effort: elsewhere the heavy threads share the cores evenly.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        thread_local!(static LOWERED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
        if !LOWERED.replace(true) {
            // SAFETY: setpriority only reads its arguments; the id is this thread's own.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 10);
            }
        }
    }
}

impl Default for Pool {
    fn default() -> Self {
        Pool::new()
    }
}

/// The address the server is bound to, for the `Host` check.
#[derive(Clone, Copy)]
pub struct Bound(pub SocketAddr);

/// Whether a request naming `host` (the `Host` header's value) may be answered by a server bound
/// to `bound`: a localhost name or loopback address always; an IP address when it is the bound
/// one (any, when bound to every interface); no other name (what DNS rebinding would send).
pub fn host_allowed(host: &str, bound: SocketAddr) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => {
            host.rsplit_once(':').filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit())).map_or(host, |(h, _)| h)
        }
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    match name.parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback() || ip == bound.ip() || bound.ip().is_unspecified(),
        Err(_) => false,
    }
}

/// Refuses, before any work, a request whose `Host` is not this server's address (403), one
/// without a `Host` (400: HTTP/1.1 requires it, and without it the origin check below has
/// nothing to compare), and one another site's page sent (403, [`cross_site`]).
pub async fn check_host(State(bound): State<Bound>, req: Request, next: Next) -> Response {
    match refusal(req.headers(), bound.0) {
        Some(refused) => refused.into_response(),
        None => next.run(req).await,
    }
}

/// Why a request with `headers` is refused by a server bound to `bound`, if it is.
fn refusal(headers: &HeaderMap, bound: SocketAddr) -> Option<ServeError> {
    // Two Host headers are a malformed request (RFC 9112, 3.2): which one a proxy read is unknown.
    let mut hosts = headers.get_all(header::HOST).iter();
    let Some(host) = hosts.next() else {
        return Some(ServeError::BadRequest(format!(
            "the request has no `Host` header; send `Host: {bound}` (HTTP/1.1)"
        )));
    };
    if hosts.next().is_some() {
        return Some(ServeError::BadRequest("the request has two `Host` headers; send one".into()));
    }
    let text = host.to_str().unwrap_or("");
    if !host_allowed(text, bound) {
        let shown = crate::error::cut(text);
        return Some(ServeError::Forbidden(format!(
            "host `{shown}` is not this workbench's address; open http://{bound}/ instead"
        )));
    }
    cross_site(headers, text).map(ServeError::Forbidden)
}

/// Why a request looks sent by another site's page, if it does: an `Origin` other than the
/// workbench's own (`http://` and the `Host` it was asked for), or a `Sec-Fetch-Site` other than
/// `same-origin` or `none` (an address typed or pasted, a bookmark). A page anywhere on the web
/// can make the GM's browser send a GET or a form POST here (an image, a script, a link); the
/// browser says where the request comes from, and a request from elsewhere does no work. Clients
/// that send neither header (curl, scripts) are served.
pub fn cross_site(headers: &HeaderMap, host: &str) -> Option<String> {
    let advice = "the workbench answers only its own page; paste the link into the address bar to open it";
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = origin.strip_prefix("http://").is_some_and(|h| h.eq_ignore_ascii_case(host));
        if !own {
            let shown = crate::error::cut(origin);
            return Some(format!("a request from origin `{shown}`, another site: refused; {advice}"));
        }
    }
    match headers.get("sec-fetch-site").map(|v| v.to_str().unwrap_or("")) {
        None | Some("same-origin" | "none") => None,
        Some(site) => {
            let shown = crate::error::cut(site);
            Some(format!("a request another site's page sent (`Sec-Fetch-Site: {shown}`): refused; {advice}"))
        }
    }
}

/// Adds the security headers to every answer.
pub async fn security_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn later() -> Instant {
        Instant::now() + Duration::from_secs(3600)
    }

    #[test]
    fn work_past_its_memory_budget_is_refused_at_the_next_checkpoint_with_413_and_one_line() {
        let answer = within(later(), Meter::new(1 << 20), || {
            assert!(checkpoint().is_ok(), "within the budget");
            drop(std::hint::black_box(vec![0u8; 3 << 20]));
            checkpoint()
        });
        let refused = answer.expect_err("past its budget, though the memory is freed already");
        assert_eq!(
            refused.to_string(),
            "the request needed over 1 MiB of memory and was stopped; ask for fewer maps or areas, or fewer edits"
        );
        assert_eq!(refused.into_response().status(), axum::http::StatusCode::PAYLOAD_TOO_LARGE);
    }

    #[test]
    fn a_pool_thread_keeps_no_deadline_or_meter_after_a_request_even_one_that_panicked() {
        let spent = Meter::new(1);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            within(Instant::now(), spent.clone(), || {
                drop(std::hint::black_box(vec![0u8; 4096]));
                panic!("a render that failed")
            })
        }));
        assert!(caught.is_err());
        assert!(checkpoint().is_ok(), "neither the past deadline nor the spent meter stayed on the thread");
        let before = spent.held();
        drop(std::hint::black_box(vec![0u8; 1 << 20]));
        assert_eq!(spent.held(), before, "the spent meter is charged nothing more");
        // The next request on this reused thread starts from zero and ends at zero.
        let next = Meter::new(1 << 20);
        let answer = within(later(), next.clone(), || {
            drop(std::hint::black_box(vec![0u8; 4096]));
            checkpoint()
        });
        assert!(answer.is_ok());
        assert_eq!(next.held(), 0);
        assert!(next.peak() >= 4096);
    }

    #[test]
    fn localhost_names_and_the_bound_address_are_allowed_other_names_are_not() {
        let local: SocketAddr = "127.0.0.1:8470".parse().unwrap();
        for ok in ["localhost:8470", "127.0.0.1:8470", "[::1]:8470", "LOCALHOST", "app.localhost:1"] {
            assert!(host_allowed(ok, local), "{ok}");
        }
        for no in ["evil.example:8470", "evil.example", "192.168.1.5:8470", "127.0.0.1.evil.example"] {
            assert!(!host_allowed(no, local), "{no}");
        }
        let lan: SocketAddr = "192.168.1.5:8470".parse().unwrap();
        assert!(host_allowed("192.168.1.5:8470", lan));
        assert!(!host_allowed("workbench.example:8470", lan));
        let every: SocketAddr = "0.0.0.0:8470".parse().unwrap();
        assert!(host_allowed("10.0.0.7:8470", every));
        assert!(!host_allowed("rebind.example:8470", every));
    }
}
