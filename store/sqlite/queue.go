package sqlite

import (
	"context"
	"database/sql"

	"github.com/racecase/racecase/store"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"
)

// queue is a River client on the database's single connection.
type queue struct {
	*river.Client[*sql.Tx]
}

// NewQueue builds a River client over the database with cfg.
func (d *DB) NewQueue(cfg *river.Config) (store.Queue, error) {
	c, err := river.NewClient(riversqlite.New(d.Pool), cfg)
	if err != nil {
		return nil, err
	}
	return queue{c}, nil
}

// rawTx returns the database/sql transaction of t.
func rawTx(t store.Tx) (*sql.Tx, error) {
	if t, ok := t.(tx); ok {
		return t.tx, nil
	}
	return nil, store.ErrWrongTx
}

// InsertTx inserts a job inside t and returns its id.
func (q queue) InsertTx(ctx context.Context, t store.Tx, args river.JobArgs) (int64, error) {
	raw, err := rawTx(t)
	if err != nil {
		return 0, err
	}
	res, err := q.Client.InsertTx(ctx, raw, args, nil)
	if err != nil {
		return 0, err
	}
	return res.Job.ID, nil
}

// JobGetTx reads a job inside t.
func (q queue) JobGetTx(ctx context.Context, t store.Tx, id int64) (*rivertype.JobRow, error) {
	raw, err := rawTx(t)
	if err != nil {
		return nil, err
	}
	return q.Client.JobGetTx(ctx, raw, id)
}

// CompleteTx marks job completed inside t.
func (q queue) CompleteTx(ctx context.Context, t store.Tx, job *rivertype.JobRow) error {
	raw, err := rawTx(t)
	if err != nil {
		return err
	}
	_, err = river.JobCompleteTx[*riversqlite.Driver](ctx, raw, &river.Job[store.AnyArgs]{JobRow: job})
	return err
}
