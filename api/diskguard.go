package api

import (
	"net/http"
	"syscall"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// DefaultMinFreeBytes is how much free space the data directory's disk
// keeps for what is already under way (verdicts of running runs) when
// Config leaves it unset: below it, learners' changes get 507.
const DefaultMinFreeBytes = 64 << 20

// refuseWhenDiskLow answers every request that would write (any unsafe
// method) with a 507 problem while the disk holding dir has less than
// minFree bytes free, before anything is written. An empty dir checks
// nothing.
func refuseWhenDiskLow(dir string, minFree int64) gin.HandlerFunc {
	return func(c *gin.Context) {
		if dir == "" || isSafeMethod(methodOf(c)) {
			c.Next()
			return
		}
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			logger(c).Warn("cannot read the data directory's free space", "error", err.Error())
		} else if free := int64(st.Bavail) * st.Bsize; free < minFree {
			logger(c).Warn("refusing a change: the data directory's disk is nearly full", "free_bytes", free)
			writeError(c, workspace.ErrDiskFull())
			return
		}
		c.Next()
	}
}

// isSafeMethod reports the methods that change nothing.
func isSafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}
