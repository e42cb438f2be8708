package workspace

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/racecase/racecase/store/postgres"
	"github.com/racecase/racecase/store/sqlite"
)

// openPostgres opens the PostgreSQL database at url, closed when the test ends.
func openPostgres(t *testing.T, url string) *postgres.DB {
	t.Helper()
	d, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// onEngine returns the statement for the service's engine: lite for SQLite,
// pg for PostgreSQL ("" means lite with its ? placeholders numbered).
func onEngine(svc *Service, lite, pg string) string {
	if _, ok := svc.store.(*postgres.DB); !ok {
		return lite
	}
	if pg != "" {
		return pg
	}
	var b strings.Builder
	n := 0
	for _, r := range lite {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rawExec runs a statement on the service's database directly.
func rawExec(t *testing.T, svc *Service, query string, args ...any) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch d := svc.store.(type) {
	case *sqlite.DB:
		_, err = d.Pool.ExecContext(ctx, query, args...)
	case *postgres.DB:
		_, err = d.Pool.Exec(ctx, query, args...)
	default:
		t.Fatalf("no raw access to %T", d)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// rawScan runs a query returning one row on the service's database directly
// and scans it into dest.
func rawScan(t *testing.T, svc *Service, query string, args []any, dest ...any) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch d := svc.store.(type) {
	case *sqlite.DB:
		err = d.Pool.QueryRowContext(ctx, query, args...).Scan(dest...)
	case *postgres.DB:
		err = d.Pool.QueryRow(ctx, query, args...).Scan(dest...)
	default:
		t.Fatalf("no raw access to %T", d)
	}
	if err != nil {
		t.Fatal(err)
	}
}
