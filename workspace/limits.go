package workspace

import (
	"fmt"
	"strconv"

	"github.com/racecase/racecase/challenges"
)

// Size caps for a workspace, the same as for a repository the runner accepts.
const (
	// MaxFileBytes caps one file.
	MaxFileBytes = challenges.MaxFileBytes
	// MaxWorkspaceBytes caps all of a workspace's files together.
	MaxWorkspaceBytes = challenges.MaxWorkspaceBytes
)

// historyDepth is how many replaced versions of each file are kept.
const historyDepth = 50

// recentRuns is how many runs a workspace view lists.
const recentRuns = 10

// formatSize prints a byte count for a learner: "256 KiB" when it is a whole
// number of KiB or MiB, the exact count of bytes otherwise, so that a size
// just past a cap never reads like the cap itself.
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// quote quotes a path for a message.
func quote(p string) string { return strconv.Quote(p) }
