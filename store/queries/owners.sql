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

-- name: ListOrphanedRuns :many
-- ListOrphanedRuns lists the runs being executed by an owner other than
-- self_id whose heartbeat is older than live_since or that is forgotten.
SELECT r.id, r.owner_id, r.kind, r.job_id, r.executions FROM runs r
WHERE r.status = 'running' AND r.owner_id IS NOT NULL AND r.owner_id != sqlc.arg(self_id)
  AND NOT EXISTS (SELECT 1 FROM owners o WHERE o.id = r.owner_id AND o.heartbeat_at >= sqlc.arg(live_since))
ORDER BY r.id;
