package postgres

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/postgres/pgdb"
)

//go:generate go run ./internal/adaptergen

// Migrations holds migrations/NNNN_name.sql, PostgreSQL's migrations,
// applied in file-name order.
//
//go:embed migrations/*.sql
var Migrations embed.FS

// DB is an open PostgreSQL database: a connection pool and the queries. It
// is a store.DB.
type DB struct {
	queries
	// Pool is the connection pool.
	Pool *pgxpool.Pool
}

var _ store.DB = (*DB)(nil)

// Open connects to the database at url (postgres://…), applies every
// pending migration and returns it.
func Open(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: connect to %s:%d/%s: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{queries: queries{pgdb.New(pool)}, Pool: pool}, nil
}

// Close closes the pool.
func (d *DB) Close() error {
	d.Pool.Close()
	return nil
}

// tx is a transaction: the queries bound to it, and the transaction itself
// for River.
type tx struct {
	queries
	tx pgx.Tx
}

// InTx runs fn in a transaction with queries bound to it, committing when fn
// returns nil and rolling back otherwise.
func (d *DB) InTx(ctx context.Context, fn func(store.Tx) error) error {
	t, err := d.Pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	if err := fn(tx{queries: queries{d.q.WithTx(t)}, tx: t}); err != nil {
		_ = t.Rollback(context.WithoutCancel(ctx))
		return err
	}
	if err := t.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.Pool.Ping(ctx) }

// Shared is true: any number of processes use the database at once.
func (d *DB) Shared() bool { return true }
