-- name: ListHintReveals :many
SELECT hint, revealed_at FROM hint_reveals WHERE workspace_id = sqlc.arg(workspace_id) ORDER BY hint;

-- name: InsertHintReveal :exec
INSERT INTO hint_reveals (workspace_id, hint, revealed_at)
VALUES (sqlc.arg(workspace_id), sqlc.arg(hint), sqlc.arg(revealed_at));
