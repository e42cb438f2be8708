// Package authoring is the instructor's tooling for dossiers kept on disk:
// it scaffolds a new dossier (New), takes a dossier's repository from git
// (Import) and checks a dossier beyond what loading it checks (Lint).
//
// It works on a dossier repository laid out like racecase's own: a challenges
// folder with one folder per dossier, and a hidden tests folder with one
// <slug>/suite.mjs per dossier.
package authoring

import "path/filepath"

// Dirs are the two folders of a dossier repository on disk.
type Dirs struct {
	// Challenges holds one folder per dossier (dossier.yaml, evidence/, repo/, solution/, decoys/).
	Challenges string
	// HiddenTests holds the hidden suites, one <slug>/suite.mjs per dossier.
	HiddenTests string
}

// HiddenTestsBeside returns the hidden_tests folder next to the challenges
// folder dir, the layout racecase itself uses.
func HiddenTestsBeside(dir string) string {
	clean := filepath.Clean(dir)
	if base := filepath.Base(clean); base == "." || base == ".." {
		if abs, err := filepath.Abs(clean); err == nil {
			clean = abs
		}
	}
	return filepath.Join(filepath.Dir(clean), "hidden_tests")
}
