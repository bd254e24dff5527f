-- The shop's schema (PostgreSQL).

-- People who can log in.
CREATE TABLE users (
    id SERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    seen TIMESTAMP
);

CREATE INDEX users_seen_idx ON users (seen);

INSERT INTO version (table_name, table_version) VALUES ('users', '3');

CREATE TABLE IF NOT EXISTS shop."orders" (
    id SERIAL PRIMARY KEY,
    user_id INTEGER REFERENCES users (id)
);

CREATE VIEW active_users AS
    SELECT * FROM users WHERE seen > now() - interval '30 days';

CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');

CREATE OR REPLACE FUNCTION touch_user(uid INTEGER) RETURNS void AS $$
BEGIN
    UPDATE users SET seen = now() WHERE id = uid;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER orders_touch AFTER INSERT ON orders
    FOR EACH ROW EXECUTE FUNCTION touch_user();
