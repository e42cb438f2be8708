package postgres

import (
	"context"
	"time"
)

// channel is the LISTEN/NOTIFY channel of racecase's change signals.
const channel = "racecase_changes"

// relisten bounds how long Listen waits before connecting again after
// losing its connection.
const relisten = time.Second

// Notify tells every listening process that id may have changed.
func (d *DB) Notify(ctx context.Context, id string) error {
	_, err := d.Pool.Exec(ctx, `SELECT pg_notify($1, $2)`, channel, id)
	return err
}

// Listen holds a connection of its own listening on the channel and calls
// signal with each id notified, until ctx ends. It calls listening once the
// LISTEN took effect; when the connection breaks it connects again and
// calls listening again, since notifications sent in between never arrive.
func (d *DB) Listen(ctx context.Context, signal func(id string), listening func()) error {
	for {
		_ = d.listen(ctx, signal, listening) // it returns when the connection breaks
		if ctx.Err() != nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(relisten):
		}
	}
}

// listen listens on one connection until it breaks or ctx ends; listening
// is called once the LISTEN took effect.
func (d *DB) listen(ctx context.Context, signal func(id string), listening func()) error {
	pooled, err := d.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection carries a LISTEN: it never goes back to the pool.
	conn := pooled.Hijack()
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		signal(n.Payload)
	}
}
