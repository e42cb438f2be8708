package challenges

import (
	"fmt"
	"os"
	"path"
	"testing"
)

func TestScratchMutants(t *testing.T) {
	fsys := os.DirFS(".")
	for _, slug := range []string{"inventory-lost-update", "job-lock-double-send", "outreach-lease-expiry", "payments-double-capture", "transfers-deadlock"} {
		d, err := Load(fsys, slug)
		if err != nil {
			t.Fatal(err)
		}
		repo, _ := d.RepoFiles(fsys)
		fix, _ := readFiles(fsys, path.Join(slug, SolutionDir))
		ms, err := GenerateMutants(repo, fix)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("==", slug, len(ms))
		for _, m := range ms {
			fmt.Println(m.ID, m)
		}
	}
}
