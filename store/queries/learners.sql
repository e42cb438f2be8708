-- name: CreateLearner :exec
INSERT INTO learners (id, created_at) VALUES (sqlc.arg(id), sqlc.arg(created_at));
