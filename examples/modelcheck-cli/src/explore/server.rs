//! The explorer's HTTP server: its routes, the page, and a runtime that serves until the stop
//! flag is set.

use crate::explore::api::{self, Shared, WALKS_AT_ONCE};
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::{get, post};
use axum::Router;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The page: HTML and CSS, then its script, embedded in the binary (no front-end build step).
const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");

/// The most blocking threads (walks and checks), beside the runtime's workers: twice the walks
/// at once, so that a turn handed on before its thread is idle again, and clients waiting for
/// a check, find one. More blocking tasks queue.
pub const MAX_BLOCKING_THREADS: usize = 2 * WALKS_AT_ONCE;

/// How often the server looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(100);

/// The routes: the page at `/`, its script, and the JSON API under `/api/`.
pub fn router(explorer: Shared) -> Router {
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/explorer.js", get(script))
        .route("/api/model", get(api::model))
        .route("/api/state", get(api::state_get).post(api::state_post))
        .route("/api/check", post(api::check))
        .fallback(api::not_found)
        .with_state(explorer)
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

/// Serves `explorer` on `addr` (port 0: a free one) until `stop` is set (never, if `None`):
/// prints `explorer: http://ADDR:PORT/` to `out` once it listens. Errors: the runtime or the
/// listener cannot start (the port is taken, the address is not this machine's), as a
/// message.
pub fn serve(
    explorer: Shared,
    addr: SocketAddr,
    out: &mut dyn Write,
    stop: Option<Arc<AtomicBool>>,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        // A closed stdout only loses the line; the server still serves.
        let _ = writeln!(out, "explorer: http://{local}/").and_then(|()| out.flush());
        axum::serve(listener, router(explorer))
            .with_graceful_shutdown(stopped(stop))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    });
    // A check still running sees the same stop flag and ends at its next safe point.
    runtime.shutdown_timeout(Duration::from_secs(5));
    served
}

/// Resolves once `stop` is set.
async fn stopped(stop: Option<Arc<AtomicBool>>) {
    let Some(stop) = stop else {
        return std::future::pending().await;
    };
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(STOP_POLL).await;
    }
}
