//! What keeps the workbench answering and private: the heavy work (building and rendering a
//! scenario) on a bounded pool of blocking threads, each request within a time limit; the `Host`
//! header checked against the address the server is bound to (a page of another site that has
//! its name point at 127.0.0.1, DNS rebinding, is refused); and headers that forbid sniffing,
//! framing and any script or style from elsewhere on every answer.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
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

/// The threads heavy requests run on: one fewer than the cores (at least one), so a core is left
/// for the page, its assets and light requests whatever the heavy ones do.
pub struct Pool {
    permits: Semaphore,
}

impl Pool {
    pub fn new() -> Pool {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Pool { permits: Semaphore::new(cores.saturating_sub(1).max(1)) }
    }

    /// Runs `work` on a blocking thread once one of the pool's places is free; a request that is
    /// not done within `REQUEST_TIMEOUT` is answered 503 (its work runs out on its thread).
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ServeError> + Send + 'static,
    ) -> Result<T, ServeError> {
        let busy = || ServeError::Busy(format!("the request took over {} s; try again", REQUEST_TIMEOUT.as_secs()));
        let job = async {
            let _permit = self.permits.acquire().await.map_err(|_| busy())?;
            tokio::task::spawn_blocking(work).await.map_err(|_| {
                ServeError::Internal("the server failed on this request (a bug; see its log); it keeps running".into())
            })?
        };
        tokio::time::timeout(REQUEST_TIMEOUT, job).await.map_err(|_| busy())?
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

/// Refuses a request whose `Host` is not this server's address (403), before any work.
pub async fn check_host(State(bound): State<Bound>, req: Request, next: Next) -> Response {
    // HTTP/1.1 clients always send Host; a request without one (HTTP/1.0) names no other site.
    if let Some(host) = req.headers().get(header::HOST) {
        let text = host.to_str().unwrap_or("");
        if !host_allowed(text, bound.0) {
            let shown = crate::error::cut(text);
            return ServeError::Forbidden(format!(
                "host `{shown}` is not this workbench's address; open http://{}/ instead",
                bound.0
            ))
            .into_response();
        }
    }
    next.run(req).await
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
