// Package storetest opens databases of either engine for tests: SQLite in a
// temporary directory, and PostgreSQL as a fresh database on the server that
// RACECASE_TEST_POSTGRES names (.ci/postgres starts one and prints its URL),
// dropped when the test ends.
//
// Without RACECASE_TEST_POSTGRES the PostgreSQL tests are skipped, or fail
// when REQUIRE_POSTGRES=1. RACECASE_TEST_ENGINE=postgres makes the suites
// that use one engine (Engine) use PostgreSQL.
package storetest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/postgres"
	"github.com/racecase/racecase/store/sqlite"
)

// Engine names.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Engines returns the engines to test: SQLite always, PostgreSQL when a
// server is configured (REQUIRE_POSTGRES=1 makes its absence a failure).
func Engines(t testing.TB) []string {
	t.Helper()
	if postgresServer(t) == "" {
		return []string{SQLite}
	}
	return []string{SQLite, Postgres}
}

// Engine returns the engine of the suites that run on one:
// RACECASE_TEST_ENGINE, SQLite by default.
func Engine(t testing.TB) string {
	t.Helper()
	switch e := os.Getenv("RACECASE_TEST_ENGINE"); e {
	case "", SQLite:
		return SQLite
	case Postgres:
		if postgresServer(t) == "" {
			t.Fatal("RACECASE_TEST_ENGINE=postgres needs RACECASE_TEST_POSTGRES")
		}
		return Postgres
	default:
		t.Fatalf("RACECASE_TEST_ENGINE=%q: want sqlite or postgres", e)
		return ""
	}
}

// Open opens a fresh database of engine, closed when the test ends.
func Open(t testing.TB, engine string) store.DB {
	t.Helper()
	ctx := context.Background()
	var (
		d   store.DB
		err error
	)
	switch engine {
	case SQLite:
		d, err = sqlite.Open(ctx, t.TempDir())
	case Postgres:
		d, err = postgres.Open(ctx, FreshPostgres(t))
	default:
		t.Fatalf("no engine %q", engine)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// FreshPostgres creates an empty database on the configured server and
// returns its URL; the database is dropped when the test ends. The test is
// skipped (or fails, with REQUIRE_POSTGRES=1) when no server is configured.
func FreshPostgres(t testing.TB) string {
	t.Helper()
	server := postgresServer(t)
	if server == "" {
		t.Skip("no PostgreSQL server: set RACECASE_TEST_POSTGRES (see .ci/postgres)")
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatalf("connect to RACECASE_TEST_POSTGRES: %v", err)
	}
	defer admin.Close(ctx)
	name := "racecase_test_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(server)
	if err != nil {
		t.Fatalf("RACECASE_TEST_POSTGRES: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// postgresServer returns RACECASE_TEST_POSTGRES, failing the test when it is
// empty and REQUIRE_POSTGRES=1.
func postgresServer(t testing.TB) string {
	t.Helper()
	server := os.Getenv("RACECASE_TEST_POSTGRES")
	if server == "" && os.Getenv("REQUIRE_POSTGRES") == "1" {
		t.Fatal("REQUIRE_POSTGRES=1 but RACECASE_TEST_POSTGRES is empty: start a server with .ci/postgres")
	}
	return server
}
