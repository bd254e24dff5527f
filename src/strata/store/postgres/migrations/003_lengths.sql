-- Version 3: a B-tree on the token count, so that BM25's first stage over a large table can
-- read a common word's matches by ranges of row length, shortest first (store/postgres/
-- shortlist.py): the planner ANDs its bitmap with the GIN index's, and fetches only the
-- rows of the range.
CREATE INDEX rag_chunks_len ON rag_chunks (lex_len);
