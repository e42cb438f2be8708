package challenges

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// wantProblem is a problem a broken dossier must report. Line -1 means "the
// line of the fixture's dossier.yaml containing lineText"; empty Fix is not checked.
type wantProblem struct {
	file     string // relative to the dossier folder
	field    string
	line     int
	lineText string
	message  string // substring
	fix      string // substring
}

func loadProblems(t *testing.T, m fstest.MapFS) Problems {
	t.Helper()
	d, err := Load(m, fixture)
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("Load = %v, %v; want Problems", d, err)
	}
	if d != nil {
		t.Error("Load returned a dossier along with problems")
	}
	return ps
}

func TestBrokenDossiers(t *testing.T) {
	y := fixtureYAML(t)
	tests := []struct {
		name   string
		break_ func(t *testing.T, m fstest.MapFS)
		want   []wantProblem
	}{{
		name: "missing top-level field",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "focus_question: Is the lock claimed before or after the first await?\n", "")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "focus_question", message: "missing required field", fix: "add `focus_question`"}},
	}, {
		name: "missing nested field",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "    text: HINT-TEXT-THREE the check and the set are separate.\n", "")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "hints[2].text", lineText: "title: Check then set", message: "missing required field"}},
	}, {
		name:   "unknown field",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "focus_question:", "focus_questoin:") },
		want: []wantProblem{
			{file: "dossier.yaml", field: "focus_questoin", lineText: "focus_questoin:", message: `unknown field "focus_questoin"`, fix: `did you mean "focus_question"?`},
			{file: "dossier.yaml", field: "focus_question", message: "missing required field"},
		},
	}, {
		name: "unknown nested field",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "{id: worker, label: Worker", "{id: worker, lable: Worker")
		},
		want: []wantProblem{
			{file: "dossier.yaml", field: "architecture.nodes[1].lable", lineText: "{id: worker, lable", message: `unknown field "lable"`, fix: `did you mean "label"?`},
			{file: "dossier.yaml", field: "architecture.nodes[1].label", lineText: "{id: worker, lable", message: "missing required field"},
		},
	}, {
		name:   "bad enum",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "difficulty: easy", "difficulty: extreme") },
		want:   []wantProblem{{file: "dossier.yaml", field: "difficulty", lineText: "difficulty:", message: `"extreme" is not allowed`, fix: "easy, medium, hard"}},
	}, {
		name: "unknown failure class",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "failure_class: check-then-set", "failure_class: race")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "failure_class", lineText: "failure_class:", message: `"race" is not allowed`, fix: "check-then-set, lost-update"}},
	}, {
		name:   "wrong type",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "estimate_minutes: 10", "estimate_minutes: soon") },
		want:   []wantProblem{{file: "dossier.yaml", field: "estimate_minutes", lineText: "estimate_minutes:", message: "want integer"}},
	}, {
		name: "too few hints",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "  - title: One operation\n    text: HINT-TEXT-FOUR make the store do both at once.\n", "")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "hints", lineText: "hints:", message: "minItems"}},
	}, {
		name: "edge to unknown node",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "{from: worker, to: store,", "{from: worker, to: stor,")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "architecture.edges[1].to", lineText: "{from: worker, to: stor,",
			message: `unknown node "stor" (known: queue, worker, store)`, fix: `did you mean "store"?`}},
	}, {
		name:   "duplicate node id",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "{id: store, label", "{id: worker, label") },
		want: []wantProblem{
			{file: "dossier.yaml", field: "architecture.nodes[2].id", lineText: "label: Lock store", message: `duplicate node id "worker"`},
			{file: "dossier.yaml", field: "architecture.edges[1].to", lineText: "to: store", message: `unknown node "store" (known: queue, worker)`},
		},
	}, {
		name:   "missing log file",
		break_: func(t *testing.T, m fstest.MapFS) { delete(m, fixture+"/evidence/worker.log") },
		want:   []wantProblem{{file: "dossier.yaml", field: "logs[0].file", lineText: "file: evidence/worker.log", message: `"evidence/worker.log" does not exist`}},
	}, {
		name: "log key no line contains",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "file: evidence/worker.log", "file: evidence/worker.log\n    key: job=job-99")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "logs[0].key", lineText: "key: job=job-99", message: `no line of evidence/worker.log contains "job=job-99"`}},
	}, {
		name: "evidence path escapes",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "file: evidence/worker.log", "file: evidence/../dossier.yaml")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "logs[0].file", lineText: "file: evidence/../dossier.yaml", message: "not a clean relative path"}},
	}, {
		name: "bad metric line",
		break_: func(t *testing.T, m fstest.MapFS) {
			m[fixture+"/evidence/queue.metrics"].Data = []byte("# c\njob ids = 1\nruns = two\n")
		},
		want: []wantProblem{{file: "evidence/queue.metrics", field: "metrics[0].file", line: 3, message: `metric "runs" has value "two"`}},
	}, {
		name: "start file not in repo",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "start_files: [README.md, src/lock.js]", "start_files: [README.md, src/lok.js]")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "start_files[1]", lineText: "start_files:", message: `"src/lok.js" is not a file in repo/`, fix: `did you mean "src/lock.js"?`}},
	}, {
		name: "likely area escapes repo",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "likely_area: [src/lock.js]", "likely_area: [src/../../dossier.yaml]")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "likely_area[0]", lineText: "likely_area:", message: "not a clean relative path"}},
	}, {
		name: "wrong turn of an unknown decoy",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "decoys: [sleep-recheck]", "decoys: [sleep-reckeck]")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "wrong_turns[0].decoys[0]", lineText: "decoys: [sleep-reckeck]",
			message: `unknown decoy "sleep-reckeck" (known: sleep-recheck)`, fix: `did you mean "sleep-recheck"?`}},
	}, {
		name:   "wrong turn without tests",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "    tests: [exactly once]\n", "") },
		want:   []wantProblem{{file: "dossier.yaml", field: "wrong_turns[0].tests", lineText: "looks_like: WRONG-TURN", message: "missing required field"}},
	}, {
		name: "wrong turn whose test both fails and passes",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "    decoys: [sleep-recheck]\n", "    passes: [exactly once]\n    decoys: [sleep-recheck]\n")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "wrong_turns[0].passes[0]", lineText: "passes: [exactly once]",
			message: `"exactly once" is also in tests`, fix: "in passes if it passes it"}},
	}, {
		name:   "decoy without why.md",
		break_: func(t *testing.T, m fstest.MapFS) { delete(m, fixture+"/decoys/sleep-recheck/why.md") },
		want:   []wantProblem{{file: "decoys/sleep-recheck/why.md", message: "decoy has no why.md"}},
	}, {
		name: "decoy with only why.md",
		break_: func(t *testing.T, m fstest.MapFS) {
			delete(m, fixture+"/decoys/sleep-recheck/src/lock.js")
		},
		want: []wantProblem{{file: "decoys/sleep-recheck", message: "no files to overlay"}},
	}, {
		name:   "no solution",
		break_: func(t *testing.T, m fstest.MapFS) { delete(m, fixture+"/solution/src/lock.js") },
		want:   []wantProblem{{file: "solution", message: "missing solution/ folder"}},
	}, {
		name: "solution changes a read-only file",
		break_: func(t *testing.T, m fstest.MapFS) {
			m[fixture+"/solution/package.json"] = &fstest.MapFile{Data: []byte("{}")}
		},
		want: []wantProblem{{file: "solution/package.json", message: "readonly_files forbids"}},
	}, {
		name: "overlay file replaces a folder",
		break_: func(t *testing.T, m fstest.MapFS) {
			m[fixture+"/decoys/sleep-recheck/test"] = &fstest.MapFile{Data: []byte("x")}
		},
		want: []wantProblem{{file: "decoys/sleep-recheck/test", message: "replaces the folder repo/test"}},
	}, {
		name: "decoy changes nothing",
		break_: func(t *testing.T, m fstest.MapFS) {
			m[fixture+"/decoys/sleep-recheck/src/lock.js"].Data = m[fixture+"/repo/src/lock.js"].Data
		},
		want: []wantProblem{{file: "decoys/sleep-recheck", message: "changes nothing"}},
	}, {
		name: "stray file in decoys",
		break_: func(t *testing.T, m fstest.MapFS) {
			m[fixture+"/decoys/notes.md"] = &fstest.MapFile{Data: []byte("x")}
		},
		want: []wantProblem{{file: "decoys/notes.md", message: "decoys/ may hold only folders"}},
	}, {
		name:   "repo without package.json",
		break_: func(t *testing.T, m fstest.MapFS) { delete(m, fixture+"/repo/package.json") },
		want: []wantProblem{
			{file: "repo/package.json", message: "missing from the learner's repository"},
			{file: "dossier.yaml", field: "readonly_files[0]", lineText: "readonly_files:", message: `"package.json" is not a file in repo/`},
		},
	}, {
		name: "yaml syntax error",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "topic: Queues & Concurrency", "topic: [Queues, Concurrency")
		},
		want: []wantProblem{{file: "dossier.yaml", lineText: "topic: [Queues", message: "YAML syntax error"}},
	}, {
		name: "duplicate key",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "topic: Queues & Concurrency\n", "topic: Queues & Concurrency\ntopic: Again\n")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "topic", line: lineOf(t, y, "topic:") + 1, message: "duplicate field"}},
	}, {
		name:   "wrong slug",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "slug: tiny-lock", "slug: tiny-lok") },
		want:   []wantProblem{{file: "dossier.yaml", field: "slug", lineText: "slug:", message: `slug "tiny-lok" does not match the folder name "tiny-lock"`}},
	}, {
		name: "unknown correct hypothesis",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "correct_hypothesis: lock-claim", "correct_hypothesis: lock-clam")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "secret.correct_hypothesis", lineText: "correct_hypothesis:",
			message: `unknown hypothesis "lock-clam" (known: redelivery, lock-claim)`}},
	}, {
		name: "whitespace-only hint text",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "text: HINT-TEXT-TWO another worker runs there.", `text: "  "`)
		},
		want: []wantProblem{{file: "dossier.yaml", field: "hints[1].text", lineText: `text: "  "`, message: "must not be blank", fix: "Hint text"}},
	}, {
		name:   "no playbook",
		break_: func(t *testing.T, m fstest.MapFS) { editYAML(t, m, "playbook:", "playbok:") },
		want: []wantProblem{
			{file: "dossier.yaml", field: "playbok", lineText: "playbok:", message: `unknown field "playbok"`, fix: `did you mean "playbook"?`},
			{file: "dossier.yaml", field: "playbook", message: "missing required field", fix: "on-call card"},
		},
	}, {
		name: "look-alike linking the dossier itself",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "      really: PLAYBOOK-REALLY a double publish.\n", "      really: PLAYBOOK-REALLY a double publish.\n      dossier: tiny-lock\n")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "playbook.not_for[0].dossier", lineText: "dossier: tiny-lock",
			message: "links to this dossier itself", fix: "name the other dossier"}},
	}, {
		name: "variant phrasing said twice",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "    - two workers claimed the same job\n", "    - two workers claimed the same job\n    - Two workers  claimed the same JOB\n")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "playbook.variant_phrasings[3]", lineText: "Two workers  claimed",
			message: "repeats variant_phrasings[2]"}},
	}, {
		name: "provenance that is not https",
		break_: func(t *testing.T, m fstest.MapFS) {
			editYAML(t, m, "url: https://example.com/", "url: http://example.com/")
		},
		want: []wantProblem{{file: "dossier.yaml", field: "playbook.provenance[0].url", lineText: "url: http://",
			message: "not in the expected form", fix: "https://"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fixtureFS(t)
			tt.break_(t, m)
			ps := loadProblems(t, m)
			text := string(m[fixture+"/dossier.yaml"].Data)
			for _, w := range tt.want {
				line := w.line
				if w.lineText != "" {
					line = lineOf(t, text, w.lineText)
				}
				if !hasProblem(ps, fixture+"/"+w.file, w.field, line, w.message, w.fix) {
					t.Errorf("missing problem %s:%d %s: %s (fix %q); got:\n%s", w.file, line, w.field, w.message, w.fix, ps.Detailed())
				}
			}
			if len(ps) != len(tt.want) {
				t.Errorf("got %d problems, want %d:\n%s", len(ps), len(tt.want), ps.Detailed())
			}
		})
	}
}

func hasProblem(ps Problems, file, field string, line int, message, fix string) bool {
	for _, p := range ps {
		if p.File == file && p.Field == field && p.Line == line &&
			strings.Contains(p.Message, message) && strings.Contains(p.Fix, fix) {
			return true
		}
	}
	return false
}

func TestEveryProblemReported(t *testing.T) {
	m := fixtureFS(t)
	editYAML(t, m, "difficulty: easy", "difficulty: extreme")
	editYAML(t, m, "{from: worker, to: store,", "{from: wrker, to: store,")
	editYAML(t, m, "slug: tiny-lock", "slug: tiny-lok")
	editYAML(t, m, "  fix_scope: One atomic-claim fix\n", "  fix_scope: One atomic-claim fix\n  fix_scoop: typo\n")
	delete(m, fixture+"/evidence/queue.metrics")
	delete(m, fixture+"/decoys/sleep-recheck/why.md")
	ps := loadProblems(t, m)
	want := []string{"difficulty", "architecture.edges[1].from", "slug", "repo_scale.fix_scoop", "metrics[0].file", ""}
	if len(ps) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(ps), len(want), ps.Detailed())
	}
	for _, field := range want {
		found := false
		for _, p := range ps {
			found = found || p.Field == field
		}
		if !found {
			t.Errorf("no problem for field %q in:\n%s", field, ps)
		}
	}
	// One line per problem, in file then line order.
	lines := strings.Split(ps.Error(), "\n")
	if len(lines) != len(ps) {
		t.Errorf("Error() has %d lines for %d problems", len(lines), len(ps))
	}
}

func TestSyntaxErrorStillChecksFolders(t *testing.T) {
	m := fixtureFS(t)
	m[fixture+"/dossier.yaml"].Data = []byte("format: 1\nslug: [a\ntitle: x\n")
	delete(m, fixture+"/repo/README.md")
	ps := loadProblems(t, m)
	if len(ps) != 2 || !hasProblem(ps, fixture+"/repo/README.md", "", 0, "missing", "") ||
		!hasProblem(ps, fixture+"/dossier.yaml", "", 2, "YAML syntax error", "") {
		t.Errorf("problems:\n%s", ps.Detailed())
	}
}

// TestSyntaxErrorLines pins the line of yaml.v3 scanner and parser errors,
// which yaml.v3 counts differently.
func TestSyntaxErrorLines(t *testing.T) {
	tests := []struct {
		yaml string
		line int
	}{
		{"a: 1\nb: c: d\n", 2},           // scanner: mapping values are not allowed
		{"a: 1\nb: 'open\n", 2},          // scanner: unterminated quoted scalar
		{"a: 1\nb: \"x\\q\"\n", 2},       // scanner: unknown escape
		{"a: 1\nb: [x\nc: 2\n", 2},       // parser: did not find expected ',' or ']'
		{"a: 1\nb: {x: 1\nc: 2\n", 2},    // parser: did not find expected ',' or '}'
		{"a: 1\n b: 2\n", 2},             // parser: did not find expected key
		{"[a\n", 2},                      // parser: flow opened on line 1 is reported at the end
		{"a: 1\nb:\n  - x\n  y: 2\n", 3}, // parser: reported where the sequence starts
	}
	for _, tt := range tests {
		_, p := parseYAML("f.yaml", []byte(tt.yaml))
		if p == nil {
			t.Errorf("%q parsed", tt.yaml)
			continue
		}
		if p.Line != tt.line || !strings.HasPrefix(p.Message, "YAML syntax error: ") {
			t.Errorf("%q: got %s, want line %d", tt.yaml, p, tt.line)
		}
	}
}

// TestDossierShape covers files that parse but are not one dossier mapping.
func TestDossierShape(t *testing.T) {
	tests := []struct {
		yaml, message string
		line          int
	}{
		{"", "file is empty", 0},
		{"# only a comment\n", "file is empty", 0},
		{"- a\n- b\n", "got array, want object", 0},
		{"format: 1\n---\nx: 1\n", "a second YAML document", 2},
	}
	for _, tt := range tests {
		m := fixtureFS(t)
		m[fixture+"/dossier.yaml"].Data = []byte(tt.yaml)
		ps := loadProblems(t, m)
		if len(ps) != 1 || !hasProblem(ps, fixture+"/dossier.yaml", "", tt.line, tt.message, "") {
			t.Errorf("%q: got\n%s", tt.yaml, ps.Detailed())
		}
	}
}
