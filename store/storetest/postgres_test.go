package storetest_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/racecase/racecase/store/postgres"
	"github.com/racecase/racecase/store/storetest"
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

func TestPostgresMigratesOnceWhenProcessesStartTogether(t *testing.T) {
	url := storetest.FreshPostgres(t)
	errs := make(chan error, 3)
	for range 3 {
		go func() {
			d, err := postgres.Open(context.Background(), url)
			if err == nil {
				d.Close()
			}
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	d := openPostgres(t, url)
	var applied, riverTables int
	ctx := context.Background()
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if err := d.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 'river_job'`).Scan(&riverTables); err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(postgres.Migrations, "migrations/*.sql")
	if err != nil || applied != len(files) || riverTables != 1 {
		t.Fatalf("migrations %d of %d (%v), river_job tables %d", applied, len(files), err, riverTables)
	}
}
