-- Instructors see their class: cohorts that learners join with a display
-- name, what every finished run found (kept after old runs are pruned), the
-- hypothesis each workspace marked, throwaway preview learners, and every
-- validation of a dossier. Times are Unix milliseconds.

-- cohorts are classes an instructor opens; learners join with join_code.
-- opens_at and closes_at, when set, bound when joining is allowed.
CREATE TABLE cohorts (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    join_code  TEXT NOT NULL UNIQUE,
    opens_at   INTEGER,
    closes_at  INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

-- cohort_dossiers are the dossiers a cohort works on, in the order given.
CREATE TABLE cohort_dossiers (
    cohort_id TEXT NOT NULL REFERENCES cohorts (id) ON DELETE CASCADE,
    dossier   TEXT NOT NULL,
    position  INTEGER NOT NULL,
    PRIMARY KEY (cohort_id, dossier)
);

-- cohort_members are the learners who joined a cohort, under the name they gave.
CREATE TABLE cohort_members (
    cohort_id    TEXT NOT NULL REFERENCES cohorts (id) ON DELETE CASCADE,
    learner_id   TEXT NOT NULL REFERENCES learners (id) ON DELETE CASCADE,
    display_name TEXT NOT NULL,
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (cohort_id, learner_id)
);
CREATE INDEX cohort_members_by_learner ON cohort_members (learner_id);

-- run_outcomes keeps what every finished run found: its verdict and the
-- names of the tests that failed and passed (JSON arrays). Unlike runs, it
-- is never pruned, so counts and insights stay whole.
CREATE TABLE run_outcomes (
    run_id       TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('check', 'submit')),
    verdict      TEXT NOT NULL,
    failed_tests TEXT NOT NULL,
    passed_tests TEXT NOT NULL,
    finished_at  INTEGER NOT NULL
);
CREATE INDEX run_outcomes_by_workspace ON run_outcomes (workspace_id, finished_at);
INSERT INTO run_outcomes (run_id, workspace_id, kind, verdict, failed_tests, passed_tests, finished_at)
SELECT id, workspace_id, kind, verdict, '[]', '[]', finished_at FROM runs
WHERE status = 'done' AND verdict IS NOT NULL AND finished_at IS NOT NULL;

-- hypothesis_picks is the hypothesis each workspace last marked as the one
-- its learner believes.
CREATE TABLE hypothesis_picks (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    hypothesis   TEXT NOT NULL,
    picked_at    INTEGER NOT NULL
);

-- preview_learners are throwaway learners an instructor previews dossiers
-- as; they count in no cohort and no insight.
CREATE TABLE preview_learners (
    learner_id TEXT PRIMARY KEY REFERENCES learners (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);

-- validations are every proof of a dossier an instructor asked for: who,
-- when, which version of its files, how many of its container runs are
-- done, and its proofs (JSON). owner_id is the owner (see owners) of the
-- process that proves it: a running validation whose owner's heartbeat
-- stopped will never finish.
CREATE TABLE validations (
    id              TEXT PRIMARY KEY,
    dossier         TEXT NOT NULL,
    dossier_version TEXT NOT NULL,
    requested_by    TEXT NOT NULL,
    owner_id        TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('running', 'done', 'failed')),
    ok              INTEGER NOT NULL DEFAULT 0,
    runs_done       INTEGER NOT NULL DEFAULT 0,
    runs_total      INTEGER NOT NULL DEFAULT 0,
    proofs          TEXT NOT NULL,
    error           TEXT NOT NULL DEFAULT '',
    started_at      INTEGER NOT NULL,
    finished_at     INTEGER
);
CREATE INDEX validations_by_dossier ON validations (dossier, started_at);
