//! Written for Strata's tests after axum 0.7.9's `key-value-store`, `dependency-injection`,
//! `static-file-server` and `routes-and-handlers-close-together` examples (Debian 13's
//! librust-axum-dev ships them; axum is MIT-licensed).
use axum::{
    handler::Handler,
    routing::{get, MethodRouter},
    Router,
};
use tower_http::{compression::CompressionLayer, services::ServeFile};

#[tokio::main]
async fn main() {
    let app = Router::new()
        .route(
            "/items/:id",
            // compress what `show_item` answers, not what `save_item` takes
            get(show_item.layer(CompressionLayer::new()))
                .post_service(save_item.with_state(Store::default())),
        )
        .route("/generic/:id", get(show_generic::<Memory>))
        .route_service("/index.html", ServeFile::new("assets/index.html"))
        .nest("/v1", ping());
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

fn ping() -> Router {
    async fn handler() -> &'static str {
        "pong"
    }

    route("/ping", get(handler))
}

fn route(path: &str, method_router: MethodRouter<()>) -> Router {
    Router::new().route(path, method_router)
}

async fn show_item() {}
async fn save_item() {}
async fn show_generic<T>() {}
