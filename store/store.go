// Package store holds racecase's database schema and queries, and the
// interface through which the rest of racecase uses a database of either
// engine: SQLite (store/sqlite, the embedded default: one file, one process)
// or PostgreSQL (store/postgres: shared by any number of API servers and
// workers).
//
// The SQLite migrations are in migrations/ and the queries in queries/, from
// which sqlc generates store/sqlite/db; the PostgreSQL migrations and the
// queries whose SQL differs are in postgres/. Regenerate after changing a
// migration or a query (`make generate`); `make lint` fails when the
// committed code differs from what would be generated.
package store

import (
	"context"
	"embed"
	"errors"

	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

//go:generate go tool sqlc generate -f sqlc.yaml

// Migrations holds migrations/NNNN_name.sql, SQLite's migrations, applied in
// file-name order.
//
//go:embed migrations/*.sql
var Migrations embed.FS

// Queries are every query of the schema. The row and parameter types are
// sqlc's (store/sqlite/db); both engines return them. A query that finds no
// row returns sql.ErrNoRows on either engine.
type Queries = db.Querier

// DB is an open database of either engine.
type DB interface {
	Queries
	// InTx runs fn in a transaction, committing when fn returns nil and
	// rolling back otherwise.
	InTx(ctx context.Context, fn func(tx Tx) error) error
	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Shared reports whether other racecase processes may use the database
	// at the same time (PostgreSQL), rather than this process alone (SQLite,
	// whose data directory is locked).
	Shared() bool
	// NewQueue builds a River client over the database with cfg. Every job
	// it inserts inside a transaction of InTx commits or rolls back with it.
	NewQueue(cfg *river.Config) (Queue, error)
	// Notify tells every process listening on the database (Listen) that
	// the thing with the given id may have changed. On an unshared database
	// it does nothing: the process itself is the only one to tell.
	Notify(ctx context.Context, id string) error
	// Listen calls signal with each id that any process passes to Notify,
	// until ctx ends. It calls listening each time it starts listening: at
	// first, and again after reconnecting (notifications sent meanwhile are
	// lost). On an unshared database it returns at once.
	Listen(ctx context.Context, signal func(id string), listening func()) error
	// Close closes the database.
	Close() error
}

// Tx is a transaction: the queries, bound to it.
type Tx interface {
	Queries
}

// Queue is a River client over a DB.
type Queue interface {
	// Start starts working jobs, when the client has queues.
	Start(ctx context.Context) error
	// Stop waits, until ctx ends, for the jobs being worked to finish.
	Stop(ctx context.Context) error
	// StopAndCancel cancels the jobs being worked and waits for them.
	StopAndCancel(ctx context.Context) error
	// InsertTx inserts a job inside tx and returns its id.
	InsertTx(ctx context.Context, tx Tx, args river.JobArgs) (int64, error)
	// JobGetTx reads a job inside tx; rivertype.ErrNotFound when there is none.
	JobGetTx(ctx context.Context, tx Tx, id int64) (*rivertype.JobRow, error)
	// CompleteTx marks job, which the caller is working (ctx is its work
	// context), completed inside tx; rivertype.ErrNotFound when it is not
	// running any more (it was rescued and rescheduled).
	CompleteTx(ctx context.Context, tx Tx, job *rivertype.JobRow) error
}

// ErrWrongTx is returned by a Queue given a transaction of another database.
var ErrWrongTx = errors.New("store: the transaction belongs to another database")

// AnyArgs stands for any job's arguments where only the job row matters
// (completing a job); it decodes any arguments.
type AnyArgs struct{}

// Kind is never used to look a worker up.
func (AnyArgs) Kind() string { return "any" }
