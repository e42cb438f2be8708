-- The learner API on PostgreSQL: the tables of store/migrations/0001 with
-- the same columns in the same order, so that sqlc generates the same Go
-- types for both engines. Times are Unix milliseconds (BIGINT).

-- settings holds server-wide values generated once, e.g. the session key;
-- every process sharing the database shares them.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value BYTEA NOT NULL
);

-- learners are anonymous: a signed session cookie names one.
CREATE TABLE learners (
    id         TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL
);

-- workspaces are a learner's copy of one dossier's repository.
CREATE TABLE workspaces (
    id         TEXT PRIMARY KEY,
    learner_id TEXT NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    dossier    TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX workspaces_by_learner ON workspaces (learner_id, created_at);

-- workspace_files holds the current content of every file and its version,
-- which a save must name (optimistic concurrency).
CREATE TABLE workspace_files (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    content      TEXT NOT NULL,
    size         BIGINT NOT NULL,
    version      BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, path)
);

-- file_history keeps the content each save or reset replaced, newest
-- versions only (the service prunes older ones).
CREATE TABLE file_history (
    workspace_id TEXT NOT NULL,
    path         TEXT NOT NULL,
    version      BIGINT NOT NULL,
    content      TEXT NOT NULL,
    cause        TEXT NOT NULL CHECK (cause IN ('save', 'reset')),
    replaced_at  BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, path, version),
    FOREIGN KEY (workspace_id, path) REFERENCES workspace_files (workspace_id, path) ON DELETE CASCADE
);

-- runs are checks and submissions. files is the JSON snapshot of the
-- workspace taken when the run was requested; results is the runner's JSON.
CREATE TABLE runs (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('check', 'submit')),
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
    files        TEXT NOT NULL,
    verdict      TEXT,
    results      TEXT,
    executions   BIGINT NOT NULL DEFAULT 0,
    job_id       BIGINT,
    created_at   BIGINT NOT NULL,
    started_at   BIGINT,
    finished_at  BIGINT
);
-- At most one run in flight per workspace.
CREATE UNIQUE INDEX runs_one_in_flight ON runs (workspace_id) WHERE status != 'done';
CREATE INDEX runs_by_workspace ON runs (workspace_id, created_at);

-- run_events is each run's status history, one row per change; a run's
-- verdict is its one 'done' row.
CREATE TABLE run_events (
    id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done')),
    at     BIGINT NOT NULL
);
CREATE INDEX run_events_by_run ON run_events (run_id, id);

-- hint_reveals records when each hint was revealed; hints are revealed in order.
CREATE TABLE hint_reveals (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    hint         BIGINT NOT NULL,
    revealed_at  BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, hint)
);

-- progress_events records the first time a workspace reached each step.
CREATE TABLE progress_events (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    step         TEXT NOT NULL CHECK (step IN ('reproduced', 'edited', 'checks-passed', 'submitted')),
    at           BIGINT NOT NULL,
    run_id       TEXT,
    PRIMARY KEY (workspace_id, step)
);
