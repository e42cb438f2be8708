-- Hardening: the racecase processes that start containers, so that any
-- process can reap the containers of one that died.
-- Times are Unix milliseconds.

-- owners are the live (or once live) racecase processes that start
-- containers. Each labels its containers with its id and beats its heartbeat
-- while it lives; the containers of an owner whose heartbeat stopped are
-- reaped, and its row deleted.
CREATE TABLE owners (
    id           TEXT PRIMARY KEY,
    hostname     TEXT NOT NULL,
    pid          INTEGER NOT NULL,
    started_at   INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL
);

-- done_runs_by_age numbers each workspace's finished runs from the newest
-- (1) to the oldest, for retention.
CREATE VIEW done_runs_by_age AS
SELECT id, workspace_id,
       row_number() OVER (PARTITION BY workspace_id ORDER BY created_at DESC, id DESC) AS newer
FROM runs WHERE status = 'done';

-- file_history_by_age numbers each file's replaced versions from the newest
-- (1) to the oldest, with the bytes of that version and all newer ones, for
-- retention.
CREATE VIEW file_history_by_age AS
SELECT workspace_id, path, version,
       row_number() OVER (PARTITION BY workspace_id, path ORDER BY version DESC) AS newer,
       sum(length(CAST(content AS BLOB))) OVER (PARTITION BY workspace_id, path ORDER BY version DESC) AS kept_bytes
FROM file_history;
