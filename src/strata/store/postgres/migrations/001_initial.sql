-- Strata's schema, version 1: one table of every layer's rows (the seed's `rag_chunks`),
-- the index's metadata, and the indexes its searches and filters use.
CREATE TABLE rag_chunks (
    repo_id       text    NOT NULL DEFAULT '',
    id            text    NOT NULL,
    session_id    text    NOT NULL DEFAULT '',
    commit_sha    text,
    path          text    NOT NULL,
    layer         text    NOT NULL,
    title         text    NOT NULL DEFAULT '',
    content       text    NOT NULL DEFAULT '',
    lang          text    NOT NULL DEFAULT '',
    span_start    integer,
    span_end      integer,
    kind          text    NOT NULL DEFAULT '',
    is_test       boolean NOT NULL DEFAULT false,
    metadata      jsonb   NOT NULL DEFAULT '{}',
    file_hash     text    NOT NULL DEFAULT '',
    content_hash  text    NOT NULL DEFAULT '',
    embed_text    text    NOT NULL DEFAULT '',
    file_size     bigint  NOT NULL DEFAULT 0,
    file_mtime_ns bigint  NOT NULL DEFAULT 0,
    -- Strata's code-aware tokens (strata.tokens), English-stemmed, with positions; built
    -- by the client, so the server's parser never re-splits `parse_header`.
    lex_tsv       tsvector NOT NULL DEFAULT '',
    lex_len       integer  NOT NULL DEFAULT 0,
    -- Its width is set when the store is created (vector(n)); NULL = not embedded yet.
    embedding     vector,
    PRIMARY KEY (repo_id, id)
);
CREATE INDEX rag_chunks_path ON rag_chunks (repo_id, path);
CREATE INDEX rag_chunks_layer ON rag_chunks (layer, lang);
CREATE INDEX rag_chunks_session ON rag_chunks (session_id);
CREATE INDEX rag_chunks_lex ON rag_chunks USING gin (lex_tsv);
CREATE INDEX rag_chunks_unembedded ON rag_chunks (layer) WHERE embedding IS NULL;

CREATE TABLE strata_meta (
    key   text PRIMARY KEY,
    value jsonb NOT NULL
);
