package challenges

import (
	"embed"
	"io/fs"
)

// content is this whole folder, dot files included: every dossier folder with
// its dossier.yaml, evidence/, repo/, solution/ and decoys/, and also schema/,
// testdata/ and the package's Go files, which LoadAll skips (a few dozen KiB).
//
// The broad pattern is deliberate. go:embed fails the build when a pattern
// matches nothing or names a directory without files; "all:*" always matches
// (this file) and tolerates empty folders inside a dossier while it is being
// written. Only a top-level folder with no file at all breaks the build.
//
//go:embed all:*
var content embed.FS

// FS is the dossier content built into the binary, rooted at challenges/: pass
// it to Load and LoadAll.
var FS fs.FS = content
