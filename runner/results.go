package runner

// Verdict is the one-word outcome of a run.
type Verdict string

const (
	// VerdictPass means the supervisor reported that every test passed.
	VerdictPass Verdict = "pass"
	// VerdictFail means the supervisor reported at least one failed test.
	VerdictFail Verdict = "fail"
	// VerdictError means the tests could not run or no trustworthy result came back.
	VerdictError Verdict = "error"
	// VerdictTimeout means the run used up Limits.CPU or outlived
	// Limits.Wall and was killed.
	VerdictTimeout Verdict = "timeout"
	// VerdictMemory means the container ran out of memory.
	VerdictMemory Verdict = "memory"
	// VerdictOutputLimit means the run printed more than Limits.OutputBytes and was killed.
	VerdictOutputLimit Verdict = "output-limit"
)

// Status values shared by Results and TestResult, as in Exercism's results v3.
const (
	// StatusPass marks a passed run or test.
	StatusPass = "pass"
	// StatusFail marks a failed run or test.
	StatusFail = "fail"
	// StatusError marks a run or test that could not be completed.
	StatusError = "error"
)

// ResultsVersion is the version of the results format the runner reads and writes.
const ResultsVersion = 3

// MaxTestOutput is the most characters kept in TestResult.Output.
const MaxTestOutput = 500

// TraceStep is one event of a failing interleaving, as the learner reads it.
type TraceStep struct {
	// Step numbers the events of the schedule from 1.
	Step int `json:"step"`
	// At is the virtual time of the event in milliseconds.
	At int64 `json:"at"`
	// Worker is the simulated process that acted, e.g. "blue".
	Worker string `json:"worker"`
	// Operation is what happened: a store call ("setIfAbsent"), a side effect
	// ("send"), a delivery ("receive"), a timer, a crash.
	Operation string `json:"operation"`
	// Key is the store key, job or effect key the event concerns.
	Key string `json:"key"`
	// Result is what the event returned or did, in words.
	Result string `json:"result"`
	// Service is the remote a call went to: "store", "locks", a service or an effect target.
	Service string `json:"service,omitempty"`
	// Request is the delivery whose handling made the call, e.g. "job-7 #2".
	Request string `json:"request,omitempty"`
	// Site is where in the learner's repository the call was made, e.g. "src/locks/job-lock.js:42:11".
	Site string `json:"site,omitempty"`
	// Issued is when the call was made, in virtual ms, when that was before At.
	Issued *int64 `json:"issued,omitempty"`
	// Detail is the whole value when Result had to cut it short.
	Detail string `json:"detail,omitempty"`
	// Highlight marks the steps that break the property.
	Highlight bool `json:"highlight,omitempty"`
}

// TestResult is the outcome of one test.
type TestResult struct {
	// Name is the test's name as the learner sees it.
	Name string `json:"name"`
	// Status is StatusPass, StatusFail or StatusError.
	Status string `json:"status"`
	// Message says what failed, in words; empty when the test passed.
	Message string `json:"message"`
	// Output is the learner's output for the failing case, at most
	// MaxTestOutput characters.
	Output string `json:"output"`
	// Schedules is how many schedules a concurrency test explored.
	Schedules int `json:"schedules,omitempty"`
	// Longest is the most steps one of those schedules took.
	Longest int `json:"longest,omitempty"`
	// Work is how many steps the exploration ran in all, replays and worker
	// restarts included: what bounds its CPU time.
	Work int `json:"work,omitempty"`
	// Budget is what the exploration could spend; a test whose exploration
	// ran out of it is an error, never a pass.
	Budget *Budget `json:"budget,omitempty"`
	// Trace is the interleaving that broke a failed concurrency test.
	Trace []TraceStep `json:"trace,omitempty"`
}

// Budget bounds the exploration of a concurrency test, in counts (never
// time), so that the same code gets the same verdict on any machine.
type Budget struct {
	// Schedules is the most schedules the test's scenario may explore.
	Schedules int `json:"schedules"`
	// Steps is the most steps one schedule may take.
	Steps int `json:"steps"`
	// Work is the most steps the whole exploration may run (Work above).
	Work int `json:"work"`
}

// Results is the outcome of a run, shaped like Exercism's test-runner results
// v3 and extended with a Verdict, console output and duration.
type Results struct {
	// Version is ResultsVersion.
	Version int `json:"version"`
	// Status is StatusPass, StatusFail or StatusError, as in results v3.
	Status string `json:"status"`
	// Verdict is the one-word outcome, including time-out, memory and output limit.
	Verdict Verdict `json:"verdict"`
	// Message says why the run as a whole failed or could not run.
	Message string `json:"message,omitempty"`
	// Tests holds one result per test, in the suite's order.
	Tests []TestResult `json:"tests"`
	// Output is the console output without the result record, capped.
	Output string `json:"output"`
	// DurationMS is how long the container ran, in milliseconds.
	DurationMS int64 `json:"duration_ms"`
	// CPUMS is the most CPU time the container was seen to use, in
	// milliseconds (read a few times a second, so a little under the total).
	CPUMS int64 `json:"cpu_ms,omitempty"`
	// Diagnostics is the end of the container's error output when no
	// trustworthy result came back, or the harness's own errors (with their
	// stacks) when it could not judge some tests because of a bug of its own or
	// of the suite. It is for operators (logs, the CLI) and never reaches a
	// learner: it can show the harness's paths and source.
	Diagnostics string `json:"-"`
}
