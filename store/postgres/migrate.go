package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/racecase/racecase/store"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// migrationLock is the advisory lock key held while migrating, so that
// processes starting at the same time migrate one after another.
const migrationLock = 0x72616365 // "race"

// migrate applies River's migrations, then each of racecase's migrations not
// yet recorded in schema_migrations, all under the advisory lock and each in
// its own transaction.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return fmt.Errorf("postgres: take the migration lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrationLock)

	river, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return fmt.Errorf("postgres: river migrator: %w", err)
	}
	if _, err := river.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("postgres: river migrations: %w", err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    BIGINT PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at BIGINT NOT NULL
	)`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", err)
	}
	all, err := store.ReadMigrations(Migrations, "migrations")
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
func apply(ctx context.Context, pool *pgxpool.Pool, m store.Migration) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) // a no-op after Commit
	var done int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM schema_migrations WHERE version = $1`, m.Version).Scan(&done); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
		m.Version, m.Name, time.Now().UnixMilli()); err != nil {
		return fmt.Errorf("postgres: record migration %s: %w", m.Name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: migration %s: %w", m.Name, err)
	}
	return nil
}
