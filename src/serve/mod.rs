//! `dungeonsmith serve`: the GM's workbench, a local web page over the library (a thin layer, like
//! the CLI). The page's assets are embedded; the URL's query is the whole state (seed, options,
//! edit history), so the server keeps none and a permalink rebuilds the same scenario anywhere.

mod conn;
mod error;
mod form;
mod guard;
mod handlers;
mod query;
mod scenario;
mod view;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::time::Duration;

use axum::Router;
use axum::routing::get;

use crate::error::{Error, Result, io_reason};
use crate::render::text::Templates;
use crate::tables::Tables;

pub use conn::{SEND_BUFFER, SEND_TIMEOUT, STALL_UNDER_PRESSURE};
pub use error::ServeError;
pub use guard::{QUEUE, REQUEST_MEMORY};

/// What every request reads: the tables and templates, loaded once, and the pool heavy work runs on.
pub struct AppState {
    pub tables: Tables,
    pub templates: Templates,
    pub pool: guard::Pool,
    /// How many requests began heavy work (a build): what a test watches to see that a
    /// request from another site did none.
    pub builds: Arc<AtomicU64>,
}

/// The most connections served at once; more wait in the listening socket's queue until one
/// closes (so a crowd of idle clients cannot take every file descriptor).
pub const MAX_CONNECTIONS: usize = 256;
/// How long a client may take to send a request's headers, and to start the next one on a kept
/// connection: a connection idle or half sent for longer is closed.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The workbench's routes, for a server on this machine's loopback address.
pub fn router(tables: Tables) -> Result<Router> {
    router_at(tables, SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0))
}

/// The workbench's routes for a server bound to `bound` (the `Host` check allows its address).
pub fn router_at(tables: Tables, bound: SocketAddr) -> Result<Router> {
    router_counting(tables, bound, Arc::default())
}

/// [`router_at`], counting in `builds` every request that began heavy work.
pub fn router_counting(tables: Tables, bound: SocketAddr, builds: Arc<AtomicU64>) -> Result<Router> {
    routes(AppState { tables, templates: Templates::load(None)?, pool: guard::Pool::new(), builds }, bound)
}

/// [`router_at`] with a memory budget of `budget` bytes per request in place of
/// [`REQUEST_MEMORY`], keeping in `peak` the most memory any one request held: how tests see a
/// request refused past its budget without allocating gigabytes, and what the largest requests
/// hold (docs/speed.md).
pub fn router_metered(tables: Tables, bound: SocketAddr, budget: usize, peak: Arc<AtomicUsize>) -> Result<Router> {
    let pool = guard::Pool::metered(budget, peak);
    routes(AppState { tables, templates: Templates::load(None)?, pool, builds: Arc::default() }, bound)
}

fn routes(state: AppState, bound: SocketAddr) -> Result<Router> {
    let state = Arc::new(state);
    Ok(Router::new()
        .route("/", get(handlers::index))
        .route("/app.js", get(handlers::app_js))
        .route("/app.css", get(handlers::app_css))
        .route("/api/scenario", get(handlers::scenario))
        .route("/download/{file}", get(handlers::download))
        .route("/booklet", get(handlers::booklet))
        .route("/reference", get(handlers::reference))
        .fallback(handlers::not_found)
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(guard::Bound(bound), guard::check_host))
        .layer(axum::middleware::from_fn(guard::security_headers)))
}

/// Serves `router` on `listener` until the future `stop` completes: at most `MAX_CONNECTIONS`
/// at once, each closed when a request's headers (or the next request) take longer than
/// `HEADER_TIMEOUT` or it moves no byte for `SEND_TIMEOUT` outside a request's handling. When
/// every place is taken, connections that have moved nothing for `STALL_UNDER_PRESSURE` (readers
/// that take nothing, idle kept connections) give their places to the clients waiting.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    router: Router,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let conns = Arc::new(conn::Conns::default());
    let mut stop = std::pin::pin!(stop);
    loop {
        // A place first, then the connection: the ones beyond the cap wait in the kernel's queue.
        let slot = loop {
            if let Ok(slot) = slots.clone().try_acquire_owned() {
                break slot;
            }
            conns.evict(STALL_UNDER_PRESSURE);
            tokio::select! {
                () = &mut stop => return Ok(()),
                slot = slots.clone().acquire_owned() => break slot.expect("the semaphore is never closed"),
                () = tokio::time::sleep(Duration::from_millis(100)) => {}
            }
        };
        let (stream, _) = tokio::select! {
            () = &mut stop => return Ok(()),
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                // Out of descriptors or a connection reset before it was taken: go on serving.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let conn = conns.open();
        let service =
            conn::Handling { inner: hyper_util::service::TowerToHyperService::new(router.clone()), conn: conn.clone() };
        tokio::spawn(async move {
            let serving = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(conn::Watched::new(stream, conn.clone())), service);
            // Dropping the connection closes it.
            tokio::select! {
                _ = serving => {}
                () = conn.timed_out() => {}
                () = conn.close.notified() => {}
            }
            drop(slot);
        });
    }
}

/// The address `--host` and `--port` ask for (`localhost` is 127.0.0.1).
pub fn address(host: &str, port: u16) -> Result<SocketAddr> {
    let ip: IpAddr = match host {
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        h => h.parse().map_err(|_| Error::Option {
            field: "host",
            message: format!("`{h}` is not an IP address (e.g. 127.0.0.1, or 0.0.0.0 for every interface)"),
        })?,
    };
    Ok(SocketAddr::new(ip, port))
}

/// Runs the workbench until Ctrl-C: prints its address, warns on `err` when it can be reached
/// from other machines, opens a browser on it if asked (best effort: a missing browser is not an
/// error).
pub fn run(tables: Tables, host: &str, port: u16, open: bool, out: &mut dyn Write, err: &mut dyn Write) -> Result<()> {
    let addr = address(host, port)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| Error::Serve {
        action: "start",
        reason: io_reason(&e),
        source: e,
    })?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| Error::Option {
            field: "port",
            message: format!("cannot listen on {addr}: {}", e.to_string().to_lowercase()),
        })?;
        let bound = listener.local_addr().unwrap_or(addr);
        let router = router_at(tables, bound)?;
        if let Some(warning) = exposure_warning(bound) {
            let _ = writeln!(err, "{warning}");
        }
        let url = format!("http://{bound}/");
        let _ = writeln!(out, "dungeonsmith workbench at {url} (Ctrl-C stops it)");
        let _ = out.flush();
        if open {
            open_browser(&url);
        }
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        serve_on(listener, router, stop).await.map_err(|e| Error::Serve {
            action: "serve",
            reason: io_reason(&e),
            source: e,
        })
    })
}

/// The warning a server bound to `bound` prints, when machines other than this one can reach it.
pub fn exposure_warning(bound: SocketAddr) -> Option<String> {
    (!bound.ip().is_loopback()).then(|| {
        format!(
            "warning: the workbench listens on {bound}, so other machines on the network can open it and read every \
             scenario it makes; `--host 127.0.0.1` keeps it to this machine"
        )
    })
}

/// Asks the desktop to open `url`; any failure is ignored (the address is printed anyway).
fn open_browser(url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    let _ = cmd
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}
