package store

import (
	"testing"
	"testing/fstest"
)

func TestReadMigrationsRejectsBadNames(t *testing.T) {
	for name, files := range map[string]fstest.MapFS{
		"bad name":  {"migrations/init.sql": {Data: []byte("SELECT 1;")}},
		"duplicate": {"migrations/0001_a.sql": {Data: []byte("SELECT 1;")}, "migrations/0001_b.sql": {Data: []byte("SELECT 1;")}},
	} {
		if _, err := ReadMigrations(files, "migrations"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	all, err := ReadMigrations(fstest.MapFS{
		"migrations/0002_b.sql": {Data: []byte("B")}, "migrations/0001_a.sql": {Data: []byte("A")},
	}, "migrations")
	if err != nil || len(all) != 2 || all[0].Version != 1 || all[1].SQL != "B" {
		t.Fatalf("sorted migrations: %+v, %v", all, err)
	}
}
