-- name: InsertValidation :exec
INSERT INTO validations (id, dossier, dossier_version, requested_by, state, proofs, started_at)
VALUES (sqlc.arg(id), sqlc.arg(dossier), sqlc.arg(dossier_version), sqlc.arg(requested_by), 'running', '[]', sqlc.arg(started_at));

-- name: SetValidationProgress :exec
UPDATE validations SET runs_done = sqlc.arg(runs_done), runs_total = sqlc.arg(runs_total)
WHERE id = sqlc.arg(id) AND state = 'running';

-- name: FinishValidation :exec
UPDATE validations
SET state = sqlc.arg(state), ok = sqlc.arg(ok), proofs = sqlc.arg(proofs), error = sqlc.arg(error),
    runs_done = sqlc.arg(runs_done), finished_at = sqlc.arg(finished_at)
WHERE id = sqlc.arg(id);

-- name: AbandonValidations :execrows
-- AbandonValidations marks failed the validations a stopped racecase left running.
UPDATE validations SET state = 'failed', error = sqlc.arg(error), finished_at = sqlc.arg(finished_at)
WHERE state = 'running';

-- name: ListValidations :many
-- ListValidations lists a dossier's validations, newest first.
SELECT * FROM validations WHERE dossier = sqlc.arg(dossier)
ORDER BY started_at DESC, id DESC LIMIT CAST(sqlc.arg(max_rows) AS BIGINT);

-- name: ListLatestValidations :many
-- ListLatestValidations gives each dossier's newest validation.
SELECT v.* FROM validations v
WHERE NOT EXISTS (SELECT 1 FROM validations n WHERE n.dossier = v.dossier
                  AND (n.started_at > v.started_at OR (n.started_at = v.started_at AND n.id > v.id)));
