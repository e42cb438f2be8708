package main

import (
	"context"
	"strings"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/postgres"
	"github.com/racecase/racecase/store/sqlite"
)

// databaseEnv is the environment variable naming the PostgreSQL database
// when --database is not given.
const databaseEnv = "RACECASE_DATABASE_URL"

// databaseURL returns the database URL: the flag's, else the environment's;
// "" means the SQLite database in the data directory.
func databaseURL(flag string, getenv func(string) string) string {
	if flag != "" {
		return flag
	}
	return getenv(databaseEnv)
}

// isPostgres reports whether url names a PostgreSQL database.
func isPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// openDatabase opens the PostgreSQL database at url, or, with url empty, the
// SQLite database in the data directory data.
func openDatabase(ctx context.Context, url, data string) (store.DB, error) {
	if url == "" {
		return sqlite.Open(ctx, data)
	}
	return postgres.Open(ctx, url)
}
