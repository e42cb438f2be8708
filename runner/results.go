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
	// VerdictTimeout means the run outlived Limits.Wall and was killed.
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
	Step      int    `json:"step"`
	At        int64  `json:"at"` // virtual milliseconds
	Worker    string `json:"worker"`
	Operation string `json:"operation"`
	Key       string `json:"key"`
	Result    string `json:"result"`
	Highlight bool   `json:"highlight,omitempty"` // the step breaks the property
}

// TestResult is the outcome of one test.
type TestResult struct {
	Name      string      `json:"name"`
	Status    string      `json:"status"`
	Message   string      `json:"message"`
	Output    string      `json:"output"` // at most MaxTestOutput characters
	Schedules int         `json:"schedules,omitempty"`
	Trace     []TraceStep `json:"trace,omitempty"`
}

// Results is the outcome of a run, shaped like Exercism's test-runner results
// v3 and extended with a Verdict, console output and duration.
type Results struct {
	Version    int          `json:"version"`
	Status     string       `json:"status"`
	Verdict    Verdict      `json:"verdict"`
	Message    string       `json:"message,omitempty"`
	Tests      []TestResult `json:"tests"`
	Output     string       `json:"output"` // console output without the result record, capped
	DurationMS int64        `json:"duration_ms"`
}
