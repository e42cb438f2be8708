-- name: InsertFile :exec
INSERT INTO workspace_files (workspace_id, path, content, size, version, updated_at)
VALUES (sqlc.arg(workspace_id), sqlc.arg(path), sqlc.arg(content), sqlc.arg(size), 1, sqlc.arg(updated_at));

-- name: ListFileContents :many
SELECT path, content, version, updated_at FROM workspace_files
WHERE workspace_id = sqlc.arg(workspace_id) ORDER BY path;

-- name: GetFile :one
SELECT path, content, size, version, updated_at FROM workspace_files
WHERE workspace_id = sqlc.arg(workspace_id) AND path = sqlc.arg(path);

-- name: WorkspaceSizeWithout :one
SELECT CAST(coalesce(sum(size), 0) AS INTEGER) FROM workspace_files
WHERE workspace_id = sqlc.arg(workspace_id) AND path != sqlc.arg(path);

-- name: WriteFileIfVersion :one
UPDATE workspace_files
SET content = sqlc.arg(content), size = sqlc.arg(size), version = version + 1, updated_at = sqlc.arg(updated_at)
WHERE workspace_id = sqlc.arg(workspace_id) AND path = sqlc.arg(path) AND version = sqlc.arg(version)
RETURNING version;

-- name: InsertFileHistory :exec
INSERT INTO file_history (workspace_id, path, version, content, cause, replaced_at)
VALUES (sqlc.arg(workspace_id), sqlc.arg(path), sqlc.arg(version), sqlc.arg(content), sqlc.arg(cause), sqlc.arg(replaced_at));

-- name: PruneFileHistory :exec
DELETE FROM file_history
WHERE workspace_id = sqlc.arg(workspace_id) AND path = sqlc.arg(path) AND version <= sqlc.arg(up_to_version);
