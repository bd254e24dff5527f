-- Version 4: a row is keyed by the branches holding it as well. Rows of one file version
-- are shared by every branch whose checkout holds it, but the cross-file pass may resolve
-- a row of that version otherwise on one branch (a caller only that branch has): the
-- branch then keeps a row of its own beside the others' one, with the same id and file
-- hash (strata.store.branches.merged). Rows that say the same stay one row.
ALTER TABLE rag_chunks DROP CONSTRAINT rag_chunks_pkey;
ALTER TABLE rag_chunks ADD PRIMARY KEY (repo_id, id, file_hash, branches);
