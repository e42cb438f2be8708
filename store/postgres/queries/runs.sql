-- name: CountRunsInFlight :one
SELECT count(*) FROM runs WHERE status != 'done';

-- name: RunInFlight :one
SELECT id, kind, job_id FROM runs WHERE workspace_id = sqlc.arg(workspace_id) AND status != 'done';

-- name: InsertRun :exec
INSERT INTO runs (id, workspace_id, kind, status, files, created_at)
VALUES (sqlc.arg(id), sqlc.arg(workspace_id), sqlc.arg(kind), 'queued', sqlc.arg(files), sqlc.arg(created_at));

-- name: SetRunJob :exec
UPDATE runs SET job_id = sqlc.arg(job_id) WHERE id = sqlc.arg(id);

-- name: InsertRunEvent :exec
INSERT INTO run_events (run_id, status, at) VALUES (sqlc.arg(run_id), sqlc.arg(status), sqlc.arg(at));

-- name: StartRun :one
-- StartRun claims a run that has no verdict yet for one execution by owner
-- owner_id, through its queue job job_id: a job the run was taken from
-- (RescueRun) claims nothing.
UPDATE runs SET status = 'running', executions = executions + 1, started_at = sqlc.arg(started_at), owner_id = sqlc.arg(owner_id)
WHERE id = sqlc.arg(id) AND status != 'done' AND (job_id IS NULL OR job_id = sqlc.arg(job_id))
RETURNING id, workspace_id, kind, files, executions;

-- name: RequeueRun :execrows
-- RequeueRun puts back in the queue a run that owner owner_id is executing;
-- it changes nothing once the run is done or another owner has it, so that
-- of two owners only one requeues it.
UPDATE runs SET status = 'queued', owner_id = NULL
WHERE id = sqlc.arg(id) AND status = 'running' AND owner_id = sqlc.arg(owner_id);

-- name: FinishRun :execrows
-- FinishRun records the verdict; it changes nothing when the run already has one.
UPDATE runs
SET status = 'done', verdict = sqlc.arg(verdict), results = sqlc.arg(results), finished_at = sqlc.arg(finished_at)
WHERE id = sqlc.arg(id) AND status != 'done';

-- name: GetRunDossier :one
SELECT w.dossier FROM runs r JOIN workspaces w ON w.id = r.workspace_id WHERE r.id = sqlc.arg(id);

-- name: GetLearnerRun :one
SELECT r.id, r.workspace_id, r.kind, r.status, r.verdict, r.results, r.executions,
       r.created_at, r.started_at, r.finished_at
FROM runs r JOIN workspaces w ON w.id = r.workspace_id
WHERE r.id = sqlc.arg(id) AND w.learner_id = sqlc.arg(learner_id);

-- name: ListRecentRuns :many
SELECT id, workspace_id, kind, status, verdict, results, executions, created_at, started_at, finished_at
FROM runs WHERE workspace_id = sqlc.arg(workspace_id)
ORDER BY created_at DESC, id DESC LIMIT CAST(sqlc.arg(max_runs) AS BIGINT);

-- name: ListRunEvents :many
SELECT id, status, at FROM run_events WHERE run_id = sqlc.arg(run_id) AND id > sqlc.arg(after_id) ORDER BY id;

-- name: ListWorkspacesOverRuns :many
-- ListWorkspacesOverRuns lists, in order, up to batch workspaces after the
-- id after that hold more than keep finished runs.
SELECT workspace_id FROM runs
WHERE status = 'done' AND workspace_id > sqlc.arg(after)
GROUP BY workspace_id HAVING count(*) > CAST(sqlc.arg(keep) AS BIGINT)
ORDER BY workspace_id LIMIT CAST(sqlc.arg(batch) AS BIGINT);

-- name: PruneWorkspaceRuns :execrows
-- PruneWorkspaceRuns deletes a workspace's finished runs beyond its newest
-- keep, with their snapshots and events.
DELETE FROM runs
WHERE runs.workspace_id = sqlc.arg(workspace_id) AND runs.status = 'done' AND runs.id NOT IN (
    SELECT k.id FROM runs k
    WHERE k.workspace_id = sqlc.arg(workspace_id) AND k.status = 'done'
    ORDER BY k.created_at DESC, k.id DESC LIMIT CAST(sqlc.arg(keep) AS BIGINT)
);
