-- Version 2: rows name the branches whose checkout holds their file version (" main dev ";
-- '' = not tracked by branch), and two versions of one file (on two branches) live side by
-- side: a row is keyed by its file version too.
ALTER TABLE rag_chunks ADD COLUMN branches text NOT NULL DEFAULT '';
ALTER TABLE rag_chunks DROP CONSTRAINT rag_chunks_pkey;
ALTER TABLE rag_chunks ADD PRIMARY KEY (repo_id, id, file_hash);
