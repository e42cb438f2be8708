-- The racecase processes that start containers (store/migrations/0003 on
-- PostgreSQL), so that any process can reap the containers of one that died.
-- Times are Unix milliseconds.

-- owners are the live (or once live) racecase processes that start
-- containers: API servers with workers and `racecase worker` processes, on
-- any host. Each labels its containers with its id and beats its heartbeat
-- while it lives; the containers of an owner whose heartbeat stopped are
-- reaped, and its row deleted.
CREATE TABLE owners (
    id           TEXT PRIMARY KEY,
    hostname     TEXT NOT NULL,
    pid          BIGINT NOT NULL,
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL
);
