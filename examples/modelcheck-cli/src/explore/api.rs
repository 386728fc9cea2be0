//! The JSON API's handlers, and how an error becomes a response: `{"error": "..."}` with 400
//! for a malformed request, 404 for a state no path step leads to, 500 if a model panicked.

use crate::explore::explorer::Explorer;
use crate::explore::path::StatePath;
use crate::explore::view::{CheckView, ErrorView, ModelView};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The explorer every handler shares.
pub type Shared = Arc<dyn Explorer>;

/// An error answer: its status and message.
#[derive(Debug)]
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(ErrorView { error: self.1 })).into_response()
    }
}

/// `GET /api/model`.
pub async fn model(State(explorer): State<Shared>) -> Json<ModelView> {
    Json(explorer.model())
}

/// `GET /api/state`'s query: `?path=0/3/1` (absent: the empty path).
#[derive(Deserialize)]
pub struct PathQuery {
    path: Option<String>,
}

/// `GET /api/state?path=0/3/1`.
pub async fn state_get(
    State(explorer): State<Shared>,
    query: Result<Query<PathQuery>, QueryRejection>,
) -> Result<JsonBytes, ApiError> {
    let Query(query) = query.map_err(|e| bad_request(format!("malformed query: {e}")))?;
    state(explorer, query.path.as_deref().unwrap_or("")).await
}

/// `POST /api/state` with the path as the body (for paths too long for a URL).
pub async fn state_post(
    State(explorer): State<Shared>,
    body: Result<Bytes, BytesRejection>,
) -> Result<JsonBytes, ApiError> {
    let body = body.map_err(|e| ApiError(e.status(), e.body_text()))?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| bad_request("the path in the body is not UTF-8 text".into()))?;
    state(explorer, text.trim()).await
}

/// The most paths walked at once, each on a blocking thread; more requests wait their turn. It
/// bounds the threads, and so the memory, that many clients asking for long paths at once
/// take (an answer of 100,000 steps is a few MB while it is built).
pub const WALKS_AT_ONCE: usize = 8;
static WALKS: Semaphore = Semaphore::const_new(WALKS_AT_ONCE);

/// The state `text` leads to, walked on a blocking thread (a long path takes a while).
/// Serialised in the blocking task, under its turn: only the bytes outlive it.
async fn state(explorer: Shared, text: &str) -> Result<JsonBytes, ApiError> {
    let path = StatePath::parse(text).map_err(bad_request)?;
    // Never closed, so acquiring only waits.
    let _turn = WALKS
        .acquire()
        .await
        .map_err(|e| ApiError(StatusCode::SERVICE_UNAVAILABLE, e.to_string()))?;
    let walked = tokio::task::spawn_blocking(move || {
        explorer.state(&path).map(|view| serde_json::to_vec(&view))
    })
    .await;
    match walked {
        Ok(Ok(Ok(bytes))) => Ok(([(header::CONTENT_TYPE, "application/json")], bytes)),
        Ok(Ok(Err(e))) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write the state as JSON: {e}"),
        )),
        Ok(Err(message)) => Err(ApiError(StatusCode::NOT_FOUND, message)),
        Err(e) => Err(internal(&e)),
    }
}

/// A [`StateView`](crate::explore::StateView) already written as JSON.
pub type JsonBytes = ([(header::HeaderName, &'static str); 1], Vec<u8>);

/// `POST /api/check`: runs the check on a blocking thread (once; later calls get its result).
pub async fn check(State(explorer): State<Shared>) -> Result<Json<CheckView>, ApiError> {
    match tokio::task::spawn_blocking(move || explorer.check()).await {
        Ok(view) => Ok(Json(view)),
        Err(e) => Err(internal(&e)),
    }
}

/// Any other route.
pub async fn not_found() -> ApiError {
    ApiError(
        StatusCode::NOT_FOUND,
        "no such page; the API is GET /api/model, GET or POST /api/state, POST /api/check".into(),
    )
}

fn bad_request(message: String) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message)
}

fn internal(e: &tokio::task::JoinError) -> ApiError {
    ApiError(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the model failed while answering: {e}"),
    )
}
