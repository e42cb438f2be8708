// Package sqlite opens racecase's SQLite database: one file in the data
// directory, used by one process at a time (a lock file next to it enforces
// that), with WAL, a busy timeout and foreign keys, a single connection as
// River advises, and every migration applied (racecase's own and River's).
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// FileName is the database file's name inside the data directory.
const FileName = "racecase.db"

// DB is an open database: the pool (one connection) and the generated
// queries. It is a store.DB.
type DB struct {
	// Pool is the connection pool; it holds a single connection, so a
	// transaction holds the whole database until it ends.
	Pool *sql.DB
	// Queries are the generated queries bound to Pool; use WithTx inside a
	// transaction.
	*db.Queries

	lock *os.File
}

// Open creates dir if needed, locks it for this process, opens the database
// file inside and applies every pending migration.
func Open(ctx context.Context, dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: create data directory: %w", err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, FileName)
	dsn := "file:" + path +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	pool, err := sql.Open("sqlite", dsn)
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	pool.SetMaxOpenConns(1)
	pool.SetMaxIdleConns(1)
	pool.SetConnMaxLifetime(0)
	pool.SetConnMaxIdleTime(0)
	d := &DB{Pool: pool, Queries: db.New(pool), lock: lock}
	if err := pool.PingContext(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := migrate(ctx, pool); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// Close closes the database and releases the data directory.
func (d *DB) Close() error {
	err := d.Pool.Close()
	if d.lock != nil {
		err = errors.Join(err, d.lock.Close())
	}
	return err
}

// tx is a transaction: the queries bound to it, and the transaction itself
// for River.
type tx struct {
	*db.Queries
	tx *sql.Tx
}

// InTx runs fn in a transaction with queries bound to it, committing when fn
// returns nil and rolling back otherwise.
func (d *DB) InTx(ctx context.Context, fn func(store.Tx) error) error {
	t, err := d.Pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlite: begin: %w", err)
	}
	if err := fn(tx{Queries: d.Queries.WithTx(t), tx: t}); err != nil {
		_ = t.Rollback()
		return err
	}
	if err := t.Commit(); err != nil {
		return fmt.Errorf("sqlite: commit: %w", err)
	}
	return nil
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.Pool.PingContext(ctx) }

// Shared is false: the data directory's lock keeps every other process out.
func (d *DB) Shared() bool { return false }

// Notify does nothing: no other process uses the database.
func (d *DB) Notify(context.Context, string) error { return nil }

// Listen returns at once: no other process uses the database.
func (d *DB) Listen(context.Context, func(string), func()) error { return nil }

// lockDir takes an exclusive lock on dir's lock file so that no second
// process opens the same database; the kernel drops it when the process dies.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, "racecase.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("sqlite: %s is in use by another racecase process", dir)
		}
		return nil, fmt.Errorf("sqlite: lock %s: %w", path, err)
	}
	return f, nil
}

var _ store.DB = (*DB)(nil)
