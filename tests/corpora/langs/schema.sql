-- Accounts and their orders.
CREATE TABLE accounts (
    id BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE orders (
    id BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    total_cents INTEGER NOT NULL CHECK (total_cents >= 0),
    status TEXT NOT NULL DEFAULT 'open'
);

-- Orders are looked up by account, newest first.
CREATE INDEX orders_by_account ON orders (account_id, id DESC);

CREATE VIEW open_orders AS
SELECT o.id, a.email, o.total_cents
FROM orders o
JOIN accounts a ON a.id = o.account_id
WHERE o.status = 'open';

-- The total of an account's paid orders.
CREATE FUNCTION account_total(account BIGINT) RETURNS BIGINT AS $$
    SELECT coalesce(sum(total_cents), 0)
    FROM orders
    WHERE account_id = account AND status = 'paid';
$$ LANGUAGE SQL STABLE;

INSERT INTO accounts (email) VALUES ('a@example.org'), ('b@example.org');
