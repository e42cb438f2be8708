package challenges

import (
	"bytes"
	"maps"
	"slices"
)

// SkeletonMarker marks the file of a freshly scaffolded dossier (racecase new)
// where its author has yet to write the bug. While a repo/ file carries it, the
// buggy repository is still correct and passes every test, and Prove says so.
const SkeletonMarker = "racecase:skeleton-bug"

// SkeletonFiles returns, sorted, the paths of the files that carry SkeletonMarker.
func SkeletonFiles(files map[string][]byte) []string {
	var marked []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if bytes.Contains(files[name], []byte(SkeletonMarker)) {
			marked = append(marked, name)
		}
	}
	return marked
}
