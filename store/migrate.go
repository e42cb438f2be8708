package store

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
)

// migrationName is the form of a migration file: a four-digit version, a name.
var migrationName = regexp.MustCompile(`^(\d{4})_[a-z0-9_]+\.sql$`)

// Migration is one plain-SQL migration file.
type Migration struct {
	// Version is the file's four-digit number.
	Version int
	// Name is the file's name.
	Name string
	// SQL is the file's content.
	SQL string
}

// ReadMigrations reads dir/*.sql in fsys sorted by version, rejecting badly
// named files and duplicate versions.
func ReadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("store: read migrations: %w", err)
	}
	var all []Migration
	for _, e := range entries {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("store: migration %s: want NNNN_name.sql", e.Name())
		}
		version, _ := strconv.Atoi(m[1])
		data, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("store: read migration %s: %w", e.Name(), err)
		}
		all = append(all, Migration{Version: version, Name: e.Name(), SQL: string(data)})
	}
	slices.SortFunc(all, func(a, b Migration) int { return a.Version - b.Version })
	for i := 1; i < len(all); i++ {
		if all[i].Version == all[i-1].Version {
			return nil, fmt.Errorf("store: migrations %s and %s share a version", all[i-1].Name, all[i].Name)
		}
	}
	return all, nil
}
