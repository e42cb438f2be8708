-- name: GetGitWorkspace :one
-- GetGitWorkspace reads a workspace for a git request, which carries a token
-- instead of a learner's session.
SELECT id, learner_id, dossier, created_at, git_head, git_token_generation FROM workspaces
WHERE id = sqlc.arg(id);

-- name: SetGitHead :execrows
-- SetGitHead moves main from old to head; it changes nothing when main is no
-- longer at old.
UPDATE workspaces SET git_head = sqlc.arg(head)
WHERE id = sqlc.arg(id) AND git_head IS NOT DISTINCT FROM sqlc.narg(old);

-- name: RotateGitToken :one
UPDATE workspaces SET git_token_generation = git_token_generation + 1
WHERE id = sqlc.arg(id) AND learner_id = sqlc.arg(learner_id)
RETURNING git_token_generation;

-- name: HasGitObject :one
SELECT count(*) FROM git_objects WHERE workspace_id = sqlc.arg(workspace_id) AND hash = sqlc.arg(hash);

-- name: InsertGitObject :exec
INSERT INTO git_objects (workspace_id, hash, type, data)
VALUES (sqlc.arg(workspace_id), sqlc.arg(hash), sqlc.arg(type), sqlc.arg(data))
ON CONFLICT (workspace_id, hash) DO NOTHING;

-- name: ListGitObjects :many
SELECT hash, type, data FROM git_objects WHERE workspace_id = sqlc.arg(workspace_id);
