package runner

import (
	"fmt"
	"strings"
	"time"
)

// outcome is what the runner observed about a finished container.
type outcome struct {
	limits         Limits
	timedOut       bool          // the wall clock ran out and the runner killed it
	cpuExhausted   bool          // the CPU-time budget ran out and the runner killed it
	raw            time.Duration // the most CPU time the container was seen to use, from its start
	cpu            time.Duration // the CPU time the run used: raw less what the container used before its payload
	outputExceeded bool          // the console cap was passed and the runner killed it
	oomKilled      bool          // the engine reports an out-of-memory kill
	exitCode       int64         // the container's exit code
	record         []byte        // base64 payload of the last record with the run's nonce
	hasRecord      bool
	output         string // console output, capped, without the record
	stderrTail     string // the end of stderr, for error messages
	duration       time.Duration
}

// The container's exit codes when its watchdog (watchdog.mjs) ended it
// before the runner did: at the wall-clock deadline, past the CPU budget
// (128 + SIGXCPU), or after it sat idle for watchdogIdleWindow (128 +
// SIGALRM): its threads neither ran nor waited for a CPU, and together used
// less than 5% of one.
const (
	watchdogTimedOut    = 124
	watchdogCPUExceeded = 152
	watchdogIdle        = 142
	watchdogIdleWindow  = 10 * time.Second
)

// decide turns an outcome into Results. The runner's own observations
// (output cap, wall clock, memory) come first; a record counts only when the
// container exited 0, and its verdict is its status unless it names one.
func decide(o outcome) *Results {
	r := &Results{
		Version:    ResultsVersion,
		Tests:      []TestResult{},
		Output:     o.output,
		DurationMS: o.duration.Milliseconds(),
		CPUMS:      o.cpu.Milliseconds(),
	}
	switch {
	case o.outputExceeded:
		r.Output += fmt.Sprintf("\n[output truncated: more than %s]\n", formatBytes(o.limits.OutputBytes))
		return withError(r, VerdictOutputLimit,
			fmt.Sprintf("the run printed more than %s of output and was stopped", formatBytes(o.limits.OutputBytes)))
	case o.cpuExhausted, !o.hasRecord && o.exitCode == watchdogCPUExceeded:
		return withError(r, VerdictTimeout,
			fmt.Sprintf("the run used %s of CPU time, its limit, without finishing and was stopped", o.limits.CPU))
	case !o.hasRecord && o.exitCode == watchdogIdle:
		return withError(r, VerdictTimeout,
			fmt.Sprintf("the run sat idle for %s without finishing and was stopped: it was waiting, on a timer, a lock or a promise that never ends", watchdogIdleWindow))
	case o.timedOut, !o.hasRecord && o.exitCode == watchdogTimedOut:
		return withError(r, VerdictTimeout,
			fmt.Sprintf("the run did not finish within %s and was stopped (it used %s of its %s of CPU time)",
				o.limits.Wall, o.cpu.Round(100*time.Millisecond), o.limits.CPU))
	case o.oomKilled:
		return withError(r, VerdictMemory,
			fmt.Sprintf("the run used more than %s of memory and was killed", formatBytes(o.limits.MemoryBytes)))
	case !o.hasRecord || o.exitCode != 0:
		r.Diagnostics = strings.TrimSpace(o.stderrTail)
		return withError(r, VerdictError,
			fmt.Sprintf("the test harness stopped without reporting a result (exit code %d); this is not a verdict on your code, please run it again", o.exitCode))
	}
	rec, err := decodeRecord(o.record)
	if err != nil {
		r.Diagnostics = strings.TrimSpace(fmt.Sprintf("%v\n%s", err, o.stderrTail))
		return withError(r, VerdictError, "the test harness reported a result the runner could not read; this is not a verdict on your code, please run it again")
	}
	if rec.Verdict == "" {
		rec.Verdict = Verdict(rec.Status)
	}
	rec.Output = r.Output
	rec.DurationMS = r.DurationMS
	rec.CPUMS = r.CPUMS
	return rec
}

// withError marks r as an error with the given verdict and message.
func withError(r *Results, v Verdict, msg string) *Results {
	r.Status = StatusError
	r.Verdict = v
	r.Message = msg
	return r
}

// formatBytes prints n in the largest binary unit that divides it.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
