package challenges

import "slices"

// PublicDossier is everything a learner may see of a dossier: no secret, no
// hint text (only how many hints there are), nothing about solution/ or decoys/.
type PublicDossier struct {
	// Format is the version of the dossier format.
	Format int `json:"format"`
	// Slug identifies the dossier.
	Slug string `json:"slug"`
	// Title is the headline of the incident.
	Title string `json:"title"`
	// Summary is the card text.
	Summary string `json:"summary"`
	// Kind is the kind of challenge.
	Kind string `json:"kind"`
	// Topic is the topic tag.
	Topic string `json:"topic"`
	// FailureClass is the kind of concurrency failure the incident is.
	FailureClass FailureClass `json:"failure_class"`
	// Difficulty is "easy", "medium" or "hard".
	Difficulty string `json:"difficulty"`
	// EstimateMinutes is the estimated time to solve.
	EstimateMinutes int `json:"estimate_minutes"`
	// Incident is the incident story and what fails.
	Incident Incident `json:"incident"`
	// Architecture is the component graph.
	Architecture Architecture `json:"architecture"`
	// Logs are the log panels with their lines.
	Logs []LogPanel `json:"logs"`
	// Metrics are the metric panels with their values.
	Metrics []MetricPanel `json:"metrics"`
	// Changes are the recent changes.
	Changes []Change `json:"changes"`
	// Hypotheses are the plausible explanations, none marked correct.
	Hypotheses []Hypothesis `json:"hypotheses"`
	// Reproduction lists the reproduction steps in order.
	Reproduction []string `json:"reproduction"`
	// FocusQuestion is the question the learner should keep asking.
	FocusQuestion string `json:"focus_question"`
	// StartFiles are the files to open first.
	StartFiles []string `json:"start_files"`
	// LikelyArea lists where the bug probably lives.
	LikelyArea []string `json:"likely_area"`
	// Investigation is the ordered investigation path.
	Investigation []string `json:"investigation"`
	// RepoScale describes the size of the repository and of the fix.
	RepoScale RepoScale `json:"repo_scale"`
	// HintCount is how many hints can be revealed.
	HintCount int `json:"hint_count"`
	// Checks are the checks the learner can run.
	Checks Checks `json:"checks"`
	// ReadonlyFiles are the repo paths the learner may not change.
	ReadonlyFiles []string `json:"readonly_files"`
	// Limits are the resource limits for one run; zero means the runner default.
	Limits Limits `json:"limits"`
	// FaultModel is what the code has to cope with in production: part of
	// the problem statement.
	FaultModel FaultModel `json:"fault_model"`
}

// Public returns the learner's view of the dossier. Its slices are copies;
// their elements share strings with d.
func (d *Dossier) Public() PublicDossier {
	logs := slices.Clone(d.Logs)
	for i := range logs {
		logs[i].Lines = slices.Clone(logs[i].Lines)
	}
	metrics := slices.Clone(d.Metrics)
	for i := range metrics {
		metrics[i].Values = slices.Clone(metrics[i].Values)
	}
	changes := slices.Clone(d.Changes)
	for i := range changes {
		changes[i].Files = slices.Clone(changes[i].Files)
	}
	return PublicDossier{
		Format:          d.Format,
		Slug:            d.Slug,
		Title:           d.Title,
		Summary:         d.Summary,
		Kind:            d.Kind,
		Topic:           d.Topic,
		FailureClass:    d.Class(),
		Difficulty:      d.Difficulty,
		EstimateMinutes: d.EstimateMinutes,
		Incident:        d.Incident,
		Architecture: Architecture{
			Nodes: slices.Clone(d.Architecture.Nodes),
			Edges: slices.Clone(d.Architecture.Edges),
		},
		Logs:          logs,
		Metrics:       metrics,
		Changes:       changes,
		Hypotheses:    slices.Clone(d.Hypotheses),
		Reproduction:  slices.Clone(d.Reproduction),
		FocusQuestion: d.FocusQuestion,
		StartFiles:    slices.Clone(d.StartFiles),
		LikelyArea:    slices.Clone(d.LikelyArea),
		Investigation: slices.Clone(d.Investigation),
		RepoScale:     d.RepoScale,
		HintCount:     len(d.Hints),
		Checks:        d.Checks,
		ReadonlyFiles: nonNil(slices.Clone(d.ReadonlyFiles)),
		Limits:        d.Limits,
		FaultModel:    d.FaultModel.clone(),
	}
}

// Hint returns hint i (0-based, broad to narrow); ok is false when there is none.
func (d *Dossier) Hint(i int) (h Hint, ok bool) {
	if i < 0 || i >= len(d.Hints) {
		return Hint{}, false
	}
	return d.Hints[i], true
}

// nonNil makes an absent list marshal as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
