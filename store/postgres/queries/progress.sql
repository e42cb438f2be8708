-- name: RecordProgress :exec
-- RecordProgress keeps the first time a workspace reached a step.
INSERT INTO progress_events (workspace_id, step, at, run_id)
VALUES (sqlc.arg(workspace_id), sqlc.arg(step), sqlc.arg(at), sqlc.narg(run_id))
ON CONFLICT (workspace_id, step) DO NOTHING;

-- name: ListProgress :many
SELECT step, at, run_id FROM progress_events WHERE workspace_id = sqlc.arg(workspace_id);

-- name: ListLearnerProgress :many
SELECT p.workspace_id, p.step, p.at FROM progress_events p
JOIN workspaces w ON w.id = p.workspace_id
WHERE w.learner_id = sqlc.arg(learner_id);

-- name: ListSolvedDossiers :many
-- ListSolvedDossiers gives each dossier a learner solved (a submission of
-- one of their workspaces for it passed) and when they first did, newest first.
SELECT w.dossier, CAST(MIN(p.at) AS BIGINT) AS solved_at FROM progress_events p
JOIN workspaces w ON w.id = p.workspace_id
WHERE w.learner_id = sqlc.arg(learner_id) AND p.step = 'submitted'
GROUP BY w.dossier
ORDER BY solved_at DESC, w.dossier;
