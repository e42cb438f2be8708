package challenges

// Playbook is a dossier's on-call card: the incident's lesson in the shape an
// engineer keeps after solving it. Error and VariantPhrasings are public
// (the catalog searches them); FixTerms are never served; everything else is
// secret until the learner passes the hidden tests, because it gives the fix
// away. The schema marks each field with x-visibility.
type Playbook struct {
	// TLDR says what happened, why, and the fix, in a few sentences. Secret.
	TLDR string `json:"tldr" yaml:"tldr"`
	// Error is the error as an engineer sees it: a log line, alert or ticket. Public.
	Error string `json:"error" yaml:"error"`
	// Steps are what to do, in order, each with its expected outcome. Secret.
	Steps []PlaybookStep `json:"steps" yaml:"steps"`
	// UseWhen lists the situations the playbook applies to. Secret.
	UseWhen []string `json:"use_when" yaml:"use_when"`
	// NotFor lists the look-alikes and what each really is. Secret.
	NotFor []LookAlike `json:"not_for" yaml:"not_for"`
	// VariantPhrasings are how people describe the incident when they search. Public.
	VariantPhrasings []string `json:"variant_phrasings" yaml:"variant_phrasings"`
	// Why explains the mechanism. Secret.
	Why string `json:"why" yaml:"why"`
	// EdgeCases lists edge cases and tempting non-fixes. Secret.
	EdgeCases []string `json:"edge_cases" yaml:"edge_cases"`
	// Provenance lists the public sources the lesson rests on; optional. Secret.
	Provenance []Reference `json:"provenance,omitempty" yaml:"provenance"`
	// FixTerms are words that name the fix, which no public field may use.
	// Internal: lint reads them, nothing serves them.
	FixTerms []string `json:"fix_terms" yaml:"fix_terms"`
}

// PlaybookStep is one step of a playbook.
type PlaybookStep struct {
	// Action says what to do.
	Action string `json:"action" yaml:"action"`
	// Expected says what is seen once the step worked.
	Expected string `json:"expected" yaml:"expected"`
}

// LookAlike is an incident that resembles the dossier's but is something else.
type LookAlike struct {
	// When describes what the look-alike looks like.
	When string `json:"when" yaml:"when"`
	// Really says what it really is.
	Really string `json:"really" yaml:"really"`
	// Dossier is the slug of the catalog's dossier about it; empty when there is none.
	Dossier string `json:"dossier,omitempty" yaml:"dossier"`
}

// Reference is a public source.
type Reference struct {
	// Title says what the source is.
	Title string `json:"title" yaml:"title"`
	// URL is its absolute https address.
	URL string `json:"url" yaml:"url"`
}
