package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

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
	all, err := store.ReadMigrations(store.Migrations, "migrations")
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

// apply runs one migration and records it, unless it is recorded already.
func apply(ctx context.Context, pool *sql.DB, m store.Migration) error {
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	defer tx.Rollback() // a no-op after Commit
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.Version).Scan(&done); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.Version, m.Name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("sqlite: record migration %s: %w", m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlite: migration %s: %w", m.Name, err)
	}
	return nil
}
