//! What keeps the workbench answering and private: the heavy work (building and rendering a
//! scenario) on a bounded pool of blocking threads, each request within a time limit; the `Host`
//! header checked against the address the server is bound to (a page of another site that has
//! its name point at 127.0.0.1, DNS rebinding, is refused); and headers that forbid sniffing,
//! framing and any script or style from elsewhere on every answer.

use std::cell::Cell;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::sync::Semaphore;

use super::error::ServeError;

/// How long one request may take, waiting for a thread included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

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
}

impl Pool {
    pub fn new() -> Pool {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Pool { permits: Semaphore::new(cores), waiting: AtomicUsize::new(0) }
    }

    /// Runs `work` on a blocking thread once one of the pool's places is free; a request that is
    /// not done within `REQUEST_TIMEOUT` is answered 503 and its work stops at its next
    /// [`past_deadline`] check; so is one that finds `QUEUE` requests waiting already.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ServeError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let busy = || ServeError::Busy(format!("the request took over {} s; try again", REQUEST_TIMEOUT.as_secs()));
        let waiting = Waiting::join(&self.waiting).ok_or_else(|| {
            ServeError::Busy(format!("{QUEUE} requests are waiting for the workbench already; try again"))
        })?;
        let deadline = Instant::now() + REQUEST_TIMEOUT;
        let job = async {
            let _permit = self.permits.acquire().await.map_err(|_| busy())?;
            drop(waiting);
            tokio::task::spawn_blocking(move || {
                lower_priority();
                with_deadline(deadline, work)
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
    /// [`past_deadline`] check rather than running on for nobody (and holding its memory).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Stops a request's work once its time is up: called at coarse points (between the edits a
/// permalink replays, before rendering). Outside the pool (the CLI, tests) there is no deadline.
pub fn past_deadline() -> Result<(), ServeError> {
    match DEADLINE.get() {
        Some(deadline) if Instant::now() >= deadline => Err(ServeError::Busy(format!(
            "the request took over {} s and was stopped; try a shorter permalink",
            REQUEST_TIMEOUT.as_secs()
        ))),
        _ => Ok(()),
    }
}

/// Runs `work` under `deadline` on this thread; the deadline is cleared after it, even when it
/// panics (the pool's threads are reused: a stale deadline would stop the next request).
pub fn with_deadline<T>(deadline: Instant, work: impl FnOnce() -> T) -> T {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            DEADLINE.set(None);
        }
    }
    DEADLINE.set(Some(deadline));
    let _clear = Clear;
    work()
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
