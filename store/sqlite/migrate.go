package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

// migrationName is the form of a migration file: a four-digit version, a name.
var migrationName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// migration is one plain-SQL migration file.
type migration struct {
	version int
	name    string
	sql     string
}

// migrate applies River's migrations, then each of racecase's migrations not
// yet recorded in schema_migrations, each in its own transaction.
func migrate(ctx context.Context, pool *sql.DB) error {
	river, err := rivermigrate.New(riversqlite.New(pool), nil)
	if err != nil {
		return fmt.Errorf("sqlite: river migrator: %w", err)
	}
	if _, err := river.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("sqlite: river migrations: %w", err)
	}
	if _, err := pool.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at INTEGER NOT NULL
	)`); err != nil {
		return fmt.Errorf("sqlite: create schema_migrations: %w", err)
	}
	all, err := readMigrations(store.Migrations)
	if err != nil {
		return err
	}
	for _, m := range all {
		if err := apply(ctx, pool, m); err != nil {
			return err
		}
	}
	return nil
}

// readMigrations reads migrations/*.sql sorted by version, rejecting badly
// named files and duplicate versions.
func readMigrations(fsys fs.FS) ([]migration, error) {
	entries, err := fs.ReadDir(fsys, "migrations")
	if err != nil {
		return nil, fmt.Errorf("sqlite: read migrations: %w", err)
	}
	var all []migration
	for _, e := range entries {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("sqlite: migration %s: want NNNN_name.sql", e.Name())
		}
		version, _ := strconv.Atoi(m[1])
		data, err := fs.ReadFile(fsys, "migrations/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("sqlite: read migration %s: %w", e.Name(), err)
		}
		all = append(all, migration{version: version, name: e.Name(), sql: string(data)})
	}
	slices.SortFunc(all, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(all); i++ {
		if all[i].version == all[i-1].version {
			return nil, fmt.Errorf("sqlite: migrations %s and %s share a version", all[i-1].name, all[i].name)
		}
	}
	return all, nil
}

// apply runs one migration and records it, unless it is recorded already.
func apply(ctx context.Context, pool *sql.DB, m migration) error {
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	defer tx.Rollback() // a no-op after Commit
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&done); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("sqlite: record migration %s: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.name, err)
	}
	return nil
}
