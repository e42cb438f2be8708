-- name: InsertValidation :exec
INSERT INTO validations (id, dossier, dossier_version, requested_by, owner_id, state, proofs, started_at)
VALUES (sqlc.arg(id), sqlc.arg(dossier), sqlc.arg(dossier_version), sqlc.arg(requested_by), sqlc.arg(owner_id),
        'running', '[]', sqlc.arg(started_at));

-- name: SetValidationProgress :exec
UPDATE validations SET runs_done = sqlc.arg(runs_done), runs_total = sqlc.arg(runs_total)
WHERE id = sqlc.arg(id) AND state = 'running';

-- name: FinishValidation :exec
UPDATE validations
SET state = sqlc.arg(state), ok = sqlc.arg(ok), proofs = sqlc.arg(proofs), error = sqlc.arg(error),
    runs_done = sqlc.arg(runs_done), finished_at = sqlc.arg(finished_at)
WHERE id = sqlc.arg(id);

-- name: AbandonValidations :execrows
-- AbandonValidations marks failed the running validations whose owner has
-- not beaten its heartbeat since live_since (or was forgotten as dead): the
-- process proving them stopped before they finished.
UPDATE validations SET state = 'failed', error = sqlc.arg(error), finished_at = sqlc.arg(finished_at)
WHERE state = 'running'
  AND NOT EXISTS (SELECT 1 FROM owners o WHERE o.id = validations.owner_id AND o.heartbeat_at >= sqlc.arg(live_since));

-- name: ListValidations :many
-- ListValidations lists a dossier's validations, newest first.
SELECT * FROM validations WHERE dossier = sqlc.arg(dossier)
ORDER BY started_at DESC, id DESC LIMIT CAST(sqlc.arg(max_rows) AS BIGINT);

-- name: ListLatestValidations :many
-- ListLatestValidations gives each dossier's newest validation.
SELECT v.* FROM validations v
WHERE NOT EXISTS (SELECT 1 FROM validations n WHERE n.dossier = v.dossier
                  AND (n.started_at > v.started_at OR (n.started_at = v.started_at AND n.id > v.id)));
