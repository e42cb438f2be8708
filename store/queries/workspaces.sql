-- name: CreateWorkspace :exec
INSERT INTO workspaces (id, learner_id, dossier, created_at)
VALUES (sqlc.arg(id), sqlc.arg(learner_id), sqlc.arg(dossier), sqlc.arg(created_at));

-- name: GetWorkspace :one
SELECT * FROM workspaces WHERE id = sqlc.arg(id) AND learner_id = sqlc.arg(learner_id);

-- name: ListWorkspaces :many
SELECT * FROM workspaces WHERE learner_id = sqlc.arg(learner_id) ORDER BY created_at DESC, id;

-- name: CountLearnerWorkspaces :one
SELECT count(*) FROM workspaces WHERE learner_id = sqlc.arg(learner_id);
