// Package challenges loads and checks incident dossiers: the content of each
// challenge (challenges/<slug>/dossier.yaml with its evidence/, repo/, solution/
// and decoys/ folders) and the learner-safe view of it.
package challenges

// FormatVersion is the dossier format this package reads (the `format` field).
const FormatVersion = 1

// Dossier is one challenge as authored in <slug>/dossier.yaml, with its evidence
// files parsed and the repository measured. It holds the secret answer, the
// hint texts and the playbook: serve Public() to learners, never the Dossier itself.
type Dossier struct {
	// Format is the version of the dossier format (FormatVersion).
	Format int `json:"format" yaml:"format"`
	// Slug identifies the dossier; it equals its folder name.
	Slug string `json:"slug" yaml:"slug"`
	// Title is the headline of the incident.
	Title string `json:"title" yaml:"title"`
	// Summary is the card text.
	Summary string `json:"summary" yaml:"summary"`
	// Kind is the kind of challenge, e.g. "codebase-incident".
	Kind string `json:"kind" yaml:"kind"`
	// Topic is the topic tag, e.g. "Queues & Concurrency".
	Topic string `json:"topic" yaml:"topic"`
	// FailureClass is the id of the kind of concurrency failure (FailureClasses).
	FailureClass string `json:"failure_class" yaml:"failure_class"`
	// Difficulty is "easy", "medium" or "hard".
	Difficulty string `json:"difficulty" yaml:"difficulty"`
	// EstimateMinutes is the estimated time to solve.
	EstimateMinutes int `json:"estimate_minutes" yaml:"estimate_minutes"`
	// Incident is the incident story and what fails.
	Incident Incident `json:"incident" yaml:"incident"`
	// Architecture is the component graph.
	Architecture Architecture `json:"architecture" yaml:"architecture"`
	// Logs are the log panels, with their lines loaded.
	Logs []LogPanel `json:"logs" yaml:"logs"`
	// Metrics are the metric panels, with their values parsed.
	Metrics []MetricPanel `json:"metrics" yaml:"metrics"`
	// Changes are the recent changes.
	Changes []Change `json:"changes" yaml:"changes"`
	// Hypotheses are the plausible explanations offered to the learner.
	Hypotheses []Hypothesis `json:"hypotheses" yaml:"hypotheses"`
	// Reproduction lists the reproduction steps in order.
	Reproduction []string `json:"reproduction" yaml:"reproduction"`
	// FocusQuestion is the question the learner should keep asking.
	FocusQuestion string `json:"focus_question" yaml:"focus_question"`
	// StartFiles are the files to open first (paths inside repo/).
	StartFiles []string `json:"start_files" yaml:"start_files"`
	// LikelyArea lists where the bug probably lives (paths inside repo/).
	LikelyArea []string `json:"likely_area" yaml:"likely_area"`
	// Investigation is the ordered investigation path.
	Investigation []string `json:"investigation" yaml:"investigation"`
	// RepoScale describes the size of the repository and of the fix.
	RepoScale RepoScale `json:"repo_scale" yaml:"repo_scale"`
	// Hints are the progressive hints, broad to narrow. Secret until revealed.
	Hints []Hint `json:"hints" yaml:"hints"`
	// WrongTurns are common wrong fixes, each explained after a failed
	// submission that matches it (see WrongTurn); optional.
	WrongTurns []WrongTurn `json:"wrong_turns,omitempty" yaml:"wrong_turns"`
	// Checks are the checks the learner can run.
	Checks Checks `json:"checks" yaml:"checks"`
	// ReadonlyFiles are the repo/ paths the learner may not change.
	ReadonlyFiles []string `json:"readonly_files,omitempty" yaml:"readonly_files"`
	// Limits are the resource limits for one run; zero means the runner default.
	Limits Limits `json:"limits" yaml:"limits"`
	// FaultModel is what the code has to cope with in production; public,
	// and handed to the hidden suite.
	FaultModel FaultModel `json:"fault_model" yaml:"fault_model"`
	// Secret is the answer; never served to learners.
	Secret Secret `json:"secret" yaml:"secret"`
	// Playbook is the on-call card: public search phrases, and the lesson
	// that is served only after a passing submission.
	Playbook Playbook `json:"playbook" yaml:"playbook"`
	// Source says where repo/ was imported from; nil when it was written by
	// hand. Never served to learners.
	Source *Source `json:"source,omitempty" yaml:"source"`
	// Mutants are the author's notes on the generated wrong fixes (see
	// Mutant); nil when there are none. Never served to learners.
	Mutants *MutantNotes `json:"mutants,omitempty" yaml:"mutants"`
}

// Incident is the incident story and the panels describing what fails.
type Incident struct {
	// Narrative is the incident as the on-call engineer met it.
	Narrative string `json:"narrative" yaml:"narrative"`
	// Signal is the initial failing signal, one short line.
	Signal string `json:"signal" yaml:"signal"`
	// Symptom is what customers or downstream systems observe.
	Symptom string `json:"symptom" yaml:"symptom"`
	// Expected is the behaviour of a correct system.
	Expected string `json:"expected" yaml:"expected"`
	// Actual is the behaviour of the buggy system.
	Actual string `json:"actual" yaml:"actual"`
}

// Architecture is the component graph shown as a diagram.
type Architecture struct {
	// Nodes are the components.
	Nodes []Node `json:"nodes" yaml:"nodes"`
	// Edges connect components by node id.
	Edges []Edge `json:"edges" yaml:"edges"`
}

// Node is one component of the architecture graph.
type Node struct {
	// ID is unique among the nodes and named by edges.
	ID string `json:"id" yaml:"id"`
	// Label is the name shown in the diagram.
	Label string `json:"label" yaml:"label"`
	// Kind is an optional shape: queue, service, store, config or external.
	Kind string `json:"kind,omitempty" yaml:"kind"`
}

// Edge is a connection between two nodes.
type Edge struct {
	// From is the id of the node the edge starts at.
	From string `json:"from" yaml:"from"`
	// To is the id of the node the edge ends at.
	To string `json:"to" yaml:"to"`
	// Label is an optional label on the edge.
	Label string `json:"label,omitempty" yaml:"label"`
}

// LogPanel is a log panel: a titled stream of log lines read from File.
type LogPanel struct {
	// Title is the panel title.
	Title string `json:"title" yaml:"title"`
	// Source is the log stream's name shown on the panel.
	Source string `json:"source" yaml:"source"`
	// File is the log file relative to the dossier folder.
	File string `json:"file" yaml:"file"`
	// Key, when set, marks the panel's key lines: those that contain it. The
	// panel opens on them, with the full log a click away.
	Key string `json:"key,omitempty" yaml:"key"`
	// Lines are the lines of File, without trailing blank lines.
	Lines []string `json:"lines" yaml:"-"`
}

// MetricPanel is a metric panel: a titled set of values read from File.
type MetricPanel struct {
	// Title is the panel title.
	Title string `json:"title" yaml:"title"`
	// Source is the metric source's name shown on the panel.
	Source string `json:"source" yaml:"source"`
	// File is the metric file relative to the dossier folder.
	File string `json:"file" yaml:"file"`
	// Values are the metrics parsed from File, in file order.
	Values []Metric `json:"values" yaml:"-"`
}

// Metric is one `name = value [unit]` line of a metric file.
type Metric struct {
	// Name is the metric's name, e.g. "notification writes".
	Name string `json:"name"`
	// Value is the metric's value.
	Value float64 `json:"value"`
	// Unit is the optional unit written after the value, e.g. "ms".
	Unit string `json:"unit,omitempty"`
}

// Change is one recent change.
type Change struct {
	// Summary says what changed.
	Summary string `json:"summary" yaml:"summary"`
	// When is the optional date of the change, YYYY-MM-DD.
	When string `json:"when,omitempty" yaml:"when"`
	// Files are the optional repo/ paths the change touched.
	Files []string `json:"files,omitempty" yaml:"files"`
}

// Hypothesis is one plausible explanation offered to the learner.
type Hypothesis struct {
	// ID is unique among the hypotheses and may be named by Secret.
	ID string `json:"id" yaml:"id"`
	// Title is the hypothesis in a few words.
	Title string `json:"title" yaml:"title"`
	// Rationale says why it is plausible.
	Rationale string `json:"rationale" yaml:"rationale"`
}

// RepoScale describes the size of the repository and of the expected fix.
type RepoScale struct {
	// Areas lists the areas the repository covers, as a phrase.
	Areas string `json:"areas" yaml:"areas"`
	// FixScope is the size of the expected fix, as a phrase.
	FixScope string `json:"fix_scope" yaml:"fix_scope"`
	// MeaningfulFiles is the number of files in repo/, counted at load.
	MeaningfulFiles int `json:"meaningful_files" yaml:"-"`
}

// Hint is one progressive hint.
type Hint struct {
	// Title is shown before the hint is revealed.
	Title string `json:"title" yaml:"title"`
	// Text is the hint itself.
	Text string `json:"text" yaml:"text"`
}

// Checks are the checks the learner can run in the workspace.
type Checks struct {
	// Visible is the visible reproduction check.
	Visible Check `json:"visible" yaml:"visible"`
}

// Check is a named command run in the repository folder.
type Check struct {
	// Name is shown to the learner, e.g. "the concurrent worker test".
	Name string `json:"name" yaml:"name"`
	// Command is the command line, e.g. "npm test".
	Command string `json:"command" yaml:"command"`
}

// Limits are resource limits for one run; a zero field means the runner default.
type Limits struct {
	// CPUSeconds is the CPU-time limit of a hidden run (a submission), in
	// seconds: what decides its time-out. It must cover the hidden suite's
	// work budgets, which racecase lint checks.
	CPUSeconds int `json:"cpu_seconds,omitempty" yaml:"cpu_seconds"`
	// CheckCPUSeconds is the CPU-time limit of a check run (the repository's
	// own tests), in seconds.
	CheckCPUSeconds int `json:"check_cpu_seconds,omitempty" yaml:"check_cpu_seconds"`
	// WallSeconds is the wall-clock backstop in seconds, for code that waits
	// rather than computes; zero means runner.WallPerCPU times the run's CPU
	// limit.
	WallSeconds int `json:"wall_seconds,omitempty" yaml:"wall_seconds"`
	// MemoryMiB is the memory (plus swap) limit in MiB.
	MemoryMiB int `json:"memory_mib,omitempty" yaml:"memory_mib"`
	// PIDs is the process and thread limit.
	PIDs int `json:"pids,omitempty" yaml:"pids"`
	// OutputKiB caps captured stdout plus stderr, in KiB.
	OutputKiB int `json:"output_kib,omitempty" yaml:"output_kib"`
}

// Secret is the answer to the challenge; it is never served to learners.
type Secret struct {
	// CorrectHypothesis is the id of the right hypothesis.
	CorrectHypothesis string `json:"correct_hypothesis" yaml:"correct_hypothesis"`
	// Explanation says why the bug happens and what the fix does.
	Explanation string `json:"explanation" yaml:"explanation"`
}

// Source records where a dossier's repo/ was taken from (racecase import).
type Source struct {
	// URL is the git URL or local path the repository was read from.
	URL string `json:"url" yaml:"url"`
	// Ref is the branch, tag or commit asked for; empty for the default branch.
	Ref string `json:"ref,omitempty" yaml:"ref,omitempty"`
	// Commit is the full hash of the commit Ref resolved to.
	Commit string `json:"commit" yaml:"commit"`
	// Path is the folder inside the repository that became repo/; empty for its root.
	Path string `json:"path,omitempty" yaml:"path,omitempty"`
}

// MutantNotes are the author's notes on the mutants `racecase validate`
// derives from the reference fix.
type MutantNotes struct {
	// Equivalent lists the mutants that do not change behaviour within the
	// fault model the repository documents, each with the reason; validate
	// expects the hidden suite to pass them and leaves them out of the score.
	Equivalent []EquivalentMutant `json:"equivalent,omitempty" yaml:"equivalent"`
}

// EquivalentMutant marks one mutant as equivalent to the reference fix.
type EquivalentMutant struct {
	// ID is the mutant's id as validate prints it, e.g. "drop-await-19a2ea59".
	ID string `json:"id" yaml:"id"`
	// Reason says why no behaviour the fault model allows tells it apart
	// from the reference fix.
	Reason string `json:"reason" yaml:"reason"`
}

// equivalentReason returns the reason a mutant is marked equivalent, or "".
func (n *MutantNotes) equivalentReason(id string) string {
	if n == nil {
		return ""
	}
	for _, e := range n.Equivalent {
		if e.ID == id {
			return e.Reason
		}
	}
	return ""
}
