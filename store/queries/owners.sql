-- name: RegisterOwner :exec
INSERT INTO owners (id, hostname, pid, started_at, heartbeat_at)
VALUES (sqlc.arg(id), sqlc.arg(hostname), sqlc.arg(pid), sqlc.arg(at), sqlc.arg(at))
ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at;

-- name: BeatOwner :execrows
UPDATE owners SET heartbeat_at = sqlc.arg(at) WHERE id = sqlc.arg(id);

-- name: ListOwners :many
-- ListOwners lists every registered owner with its last heartbeat.
SELECT id, heartbeat_at FROM owners ORDER BY id;

-- name: DeleteOwner :exec
DELETE FROM owners WHERE id = sqlc.arg(id);
