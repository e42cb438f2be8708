-- name: InsertSettingIfAbsent :exec
INSERT INTO settings (name, value) VALUES (sqlc.arg(name), sqlc.arg(value))
ON CONFLICT (name) DO NOTHING;

-- name: GetSetting :one
SELECT value FROM settings WHERE name = sqlc.arg(name);
