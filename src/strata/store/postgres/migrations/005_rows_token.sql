-- Version 5: the rows' version token (`PgStore.version`), which every write transaction
-- replaces with a new random value: readers key what they build from the rows (the symbol
-- index, the call graph) by it. A store written before has one from here on.
INSERT INTO strata_meta (key, value) VALUES ('rows', to_jsonb(gen_random_uuid()::text))
ON CONFLICT (key) DO NOTHING;
