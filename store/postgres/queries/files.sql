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
SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM workspace_files
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
-- PruneFileHistory keeps, of the versions a file's saves and resets
-- replaced, the newest max_versions whose contents add up to at most
-- max_bytes, and deletes the rest.
DELETE FROM file_history
WHERE file_history.workspace_id = sqlc.arg(workspace_id) AND file_history.path = sqlc.arg(path) AND (
    file_history.version NOT IN (
        SELECT k.version FROM file_history k
        WHERE k.workspace_id = sqlc.arg(workspace_id) AND k.path = sqlc.arg(path)
        ORDER BY k.version DESC LIMIT CAST(sqlc.arg(max_versions) AS BIGINT)
    )
    OR (
        SELECT sum(octet_length(n.content)) FROM file_history n
        WHERE n.workspace_id = file_history.workspace_id AND n.path = file_history.path AND n.version >= file_history.version
    ) > CAST(sqlc.arg(max_bytes) AS BIGINT)
);

-- name: CountFileHistory :one
SELECT count(*), CAST(coalesce(sum(octet_length(content)), 0) AS BIGINT) AS bytes FROM file_history
WHERE workspace_id = sqlc.arg(workspace_id) AND path = sqlc.arg(path);
