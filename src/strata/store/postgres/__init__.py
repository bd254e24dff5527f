"""The PostgreSQL + pgvector store (`postgresql://...`): see `store.PgStore`.

Installed with the extra `strata-index[postgres]` (psycopg 3, psycopg_pool, pgvector,
snowballstemmer); imported only when a store URI names PostgreSQL.
"""
