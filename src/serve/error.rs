//! Every way a workbench request can fail, and the one place each becomes an HTTP answer: a status
//! and one plain-text line the page shows as it is.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A query the server cannot read: bad seed, option out of range, unknown field or part.
    #[error("{0}")]
    BadRequest(String),
    /// A page, asset or download that does not exist.
    #[error("{0}")]
    NotFound(String),
    /// A well-formed edit the scenario refuses: a locked part rerolled, a lock that makes
    /// regenerating impossible, no legal result.
    #[error("{0}")]
    Refused(String),
    /// A request for another site's name (the `Host` check).
    #[error("{0}")]
    Forbidden(String),
    /// A request not done in time (the server keeps running).
    #[error("{0}")]
    Busy(String),
    /// A request whose work held more memory than its budget (`guard::REQUEST_MEMORY`): the
    /// same permalink would again, so 413 rather than 503 (see `guard::checkpoint`).
    #[error("{0}")]
    TooLarge(String),
    /// Our fault (a render that failed or panicked): said in one line, the server keeps running.
    #[error("{0}")]
    Internal(String),
}

impl IntoResponse for ServeError {
    fn into_response(self) -> Response {
        let status = match self {
            ServeError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ServeError::NotFound(_) => StatusCode::NOT_FOUND,
            ServeError::Refused(_) => StatusCode::CONFLICT,
            ServeError::Forbidden(_) => StatusCode::FORBIDDEN,
            ServeError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ServeError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ServeError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (
            status,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("{}\n", crate::error::cut_quotes(&self.to_string())),
        )
            .into_response()
    }
}

impl From<crate::Error> for ServeError {
    /// Library errors reached while building or rendering: the options were validated before, so
    /// what is left is the library's own failure.
    fn from(e: crate::Error) -> Self {
        ServeError::Internal(e.to_string())
    }
}
