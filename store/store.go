// Package store holds racecase's database schema and queries: plain-SQL
// migrations in migrations/ (applied in order at start, see store/sqlite) and
// the queries in queries/, from which sqlc generates store/sqlite/db.
//
// Regenerate after changing a migration or a query; `make lint` fails when the
// committed code differs from what sqlc would generate.
package store

import "embed"

//go:generate go tool sqlc generate -f sqlc.yaml

// Migrations holds migrations/NNNN_name.sql, applied in file-name order.
//
//go:embed migrations/*.sql
var Migrations embed.FS
