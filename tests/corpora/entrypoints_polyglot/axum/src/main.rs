//! Written for Strata's tests after axum's `todos` and `routes-and-handlers` examples
//! (axum is MIT-licensed; no Debian package ships it).
use axum::{routing::get, Router};

mod api;

#[tokio::main]
async fn main() {
    let app = Router::new()
        .route("/", get(root))
        .route("/todos", get(todos_index).post(todos_create))
        .route("/todos/:id", axum::routing::patch(todos_update).delete(todos_delete))
        .nest("/api", api::routes())
        .merge(health());
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

fn health() -> Router {
    Router::new().route("/healthz", get(|| async { "ok" }))
}

async fn root() -> &'static str { "Hello, World!" }
async fn todos_index() {}
async fn todos_create() {}
async fn todos_update() {}
async fn todos_delete() {}
