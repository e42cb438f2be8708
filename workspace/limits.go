package workspace

import (
	"fmt"
	"strconv"
	"time"

	"github.com/racecase/racecase/challenges"
)

// Size caps for a workspace, the same as for a repository the runner accepts.
const (
	// MaxFileBytes caps one file.
	MaxFileBytes = challenges.MaxFileBytes
	// MaxWorkspaceBytes caps all of a workspace's files together.
	MaxWorkspaceBytes = challenges.MaxWorkspaceBytes
)

// Defaults of the quotas and retention a Config leaves at zero.
const (
	// DefaultMaxWorkspaces is how many workspaces one learner may have.
	DefaultMaxWorkspaces = 50
	// DefaultHistoryVersions is how many replaced versions of a file are kept.
	DefaultHistoryVersions = 20
	// DefaultHistoryBytes is how many bytes of replaced versions of a file
	// are kept, newest first.
	DefaultHistoryBytes = 1 << 20
	// DefaultRunsKept is how many finished runs of a workspace are kept,
	// with their snapshots and events.
	DefaultRunsKept = 20
	// DefaultPruneEvery is how often older runs are pruned.
	DefaultPruneEvery = time.Minute
)

// recentRuns is how many runs a workspace view lists.
const recentRuns = 10

// FormatSize prints a byte count for a learner: "256 KiB" when it is a whole
// number of KiB or MiB, the exact count of bytes otherwise, so that a size
// just past a cap never reads like the cap itself.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// quote quotes a path for a message.
func quote(p string) string { return strconv.Quote(p) }
