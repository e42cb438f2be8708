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
