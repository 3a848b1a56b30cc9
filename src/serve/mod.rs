//! `dungeonsmith serve`: the GM's workbench, a local web page over the library (a thin layer, like
//! the CLI). The page's assets are embedded; the URL's query is the whole state (seed, options,
//! edit history), so the server keeps none and a permalink rebuilds the same scenario anywhere.

mod edits;
mod error;
mod handlers;
mod hooks;
mod query;
mod scenario;
mod view;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::routing::get;

use crate::error::{Error, Result};
use crate::render::text::Templates;
use crate::tables::Tables;

pub use error::ServeError;

/// What every request reads: the tables and templates, loaded once.
pub struct AppState {
    pub tables: Tables,
    pub templates: Templates,
}

/// The workbench's routes.
pub fn router(tables: Tables) -> Result<Router> {
    let state = Arc::new(AppState { tables, templates: Templates::load(None)? });
    Ok(Router::new()
        .route("/", get(handlers::index))
        .route("/app.js", get(handlers::app_js))
        .route("/app.css", get(handlers::app_css))
        .route("/api/scenario", get(handlers::scenario))
        .route("/download/{file}", get(handlers::download))
        .route("/booklet", get(handlers::booklet))
        .fallback(handlers::not_found)
        .with_state(state))
}

/// Serves `router` on `listener` until the future `stop` completes.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    router: Router,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router).with_graceful_shutdown(stop).await
}

/// The address `--host` and `--port` ask for (`localhost` is 127.0.0.1).
pub fn address(host: &str, port: u16) -> Result<SocketAddr> {
    let ip: IpAddr = match host {
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        h => h.parse().map_err(|_| Error::Option {
            option: "--host",
            message: format!("`{h}` is not an IP address (e.g. 127.0.0.1, or 0.0.0.0 for every interface)"),
        })?,
    };
    Ok(SocketAddr::new(ip, port))
}

/// Runs the workbench until Ctrl-C: prints its address, opens a browser on it if asked (best
/// effort: a missing browser is not an error).
pub fn run(tables: Tables, host: &str, port: u16, open: bool, out: &mut dyn Write) -> Result<()> {
    let addr = address(host, port)?;
    let router = router(tables)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Write { file: "the server".into(), reason: e.to_string() })?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| Error::Option {
            option: "--port",
            message: format!("cannot listen on {addr}: {}", e.to_string().to_lowercase()),
        })?;
        let url = format!("http://{}/", listener.local_addr().unwrap_or(addr));
        let _ = writeln!(out, "dungeonsmith workbench at {url} (Ctrl-C stops it)");
        let _ = out.flush();
        if open {
            open_browser(&url);
        }
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        serve_on(listener, router, stop)
            .await
            .map_err(|e| Error::Write { file: "the server".into(), reason: e.to_string().to_lowercase() })
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
