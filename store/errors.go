package store

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsUniqueViolation reports whether err is the database, of either engine,
// refusing a row that would break a UNIQUE or PRIMARY KEY constraint.
func IsUniqueViolation(err error) bool {
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return lite.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || lite.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "23505" // unique_violation
}

// IsFull reports whether err is the database, of either engine, failing to
// write because its disk is full; the statement's transaction has been
// rolled back.
func IsFull(err error) bool {
	var lite *sqlite.Error
	if errors.As(err, &lite) {
		return lite.Code()&0xff == sqlite3.SQLITE_FULL
	}
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "53100" // disk_full
}
