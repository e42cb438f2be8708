package postgres

import (
	"database/sql"
	"errors"

	"github.com/jackc/pgx/v5"
)

// noRows turns pgx's "no rows" into sql.ErrNoRows, which store.Queries
// return on either engine.
func noRows(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return sql.ErrNoRows
	}
	return err
}

// convertAll converts each element of in with f.
func convertAll[A, B any](in []A, f func(A) B) []B {
	out := make([]B, len(in))
	for i, a := range in {
		out[i] = f(a)
	}
	return out
}
