use axum::{routing::{get, post}, Router};

pub fn routes() -> Router {
    let users = Router::new()
        .route("/", get(list_users).post(create_user))
        .route("/:id", get(show_user));
    Router::new().nest("/users", users).route("/login", post(login))
}

async fn list_users() {}
async fn create_user() {}
async fn show_user() {}
async fn login() {}
