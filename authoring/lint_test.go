package authoring

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// TestBuiltInDossiersLint is the content gate for racecase's own dossiers.
func TestBuiltInDossiersLint(t *testing.T) {
	report, err := Lint(Dirs{Challenges: "../challenges", HiddenTests: "../hidden_tests"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Problems) > 0 {
		t.Fatalf("built-in dossiers have lint problems:\n%s", report.Problems.Detailed())
	}
	if len(report.Dossiers) < 5 || len(report.Skeletons) > 0 {
		t.Errorf("checked %v, skeletons %v", report.Dossiers, report.Skeletons)
	}
}

// wantLint is a problem Lint must report: its file (relative to the dossier
// repository), field, and substrings of its message and fix.
type wantLint struct {
	file, field, message, fix string
}

func TestLintFindsEveryKindOfProblem(t *testing.T) {
	const slug = "receipt-twice"
	tests := []struct {
		name   string
		break_ func(t *testing.T, dossier, hidden string)
		want   []wantLint
	}{{
		name: "schema error",
		break_: func(t *testing.T, dossier, _ string) {
			edit(t, filepath.Join(dossier, "dossier.yaml"), "difficulty: easy", "difficulty: extreme")
		},
		want: []wantLint{{"challenges/receipt-twice/dossier.yaml", "difficulty", `"extreme" is not allowed`, "use one of: easy, medium, hard"}},
	}, {
		name: "missing evidence",
		break_: func(t *testing.T, dossier, _ string) {
			remove(t, filepath.Join(dossier, "evidence", "worker.log"))
		},
		want: []wantLint{{"challenges/receipt-twice/dossier.yaml", "logs[0].file", `"evidence/worker.log" does not exist`, "create"}},
	}, {
		name: "wrong turn never shown, or giving the answer away",
		break_: func(t *testing.T, dossier, _ string) {
			yaml := filepath.Join(dossier, "dossier.yaml")
			edit(t, filepath.Join(dossier, "repo", "src", "claims.js"), "const token = `${owner}:${jobId}:${clock.now()}:${acquisitions}`;", "const token = owner;")
			edit(t, yaml, "looks_like: Wait a little after finding the job free, then read the claim again",
				"looks_like: Claiming a job is not atomic, so wait and read the claim again")
			edit(t, yaml, "Two workers that find the claim free at the same moment",
				"The claim reads the key and writes it in two store calls, and two workers")
			edit(t, yaml, "In the trace, find both workers' second reads of the claim.",
				"Write const token = `${owner}:${jobId}:${clock.now()}:${acquisitions}`; instead.")
			edit(t, yaml, "tests: [exactly one receipt per job in every schedule]", "tests: [exactly one receipt per job]")
		},
		want: []wantLint{
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].looks_like", `names the correct hypothesis, "Claiming a job is not atomic"`, "without the fix"},
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].why_it_fails", "from secret.explanation", "in your own words"},
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].look_at", "quotes the reference fix", "in your own words"},
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].tests[0]", `no test named "exactly one receipt per job"`, "hidden_tests/receipt-twice/suite.mjs"},
		},
	}, {
		name: "wrong turn naming the fix's identifier, a decoy's why.md or the answer's id",
		break_: func(t *testing.T, dossier, _ string) {
			yaml := filepath.Join(dossier, "dossier.yaml")
			edit(t, filepath.Join(dossier, "solution", "src", "claims.js"), "let acquisitions = 0;", "let acquisitions = 0;\nconst claimToken = 1;")
			edit(t, yaml, "looks_like: Wait a little after finding the job free, then read the claim again",
				"looks_like: A fix for claim-not-atomic that waits and reads again")
			edit(t, yaml, "Two workers that find the claim free at the same moment",
				"Both workers can read the claim as free, both sleep, and")
			edit(t, yaml, "In the trace, find both workers' second reads of the claim.", "Where is claimToken set?")
		},
		want: []wantLint{
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].looks_like", `names the correct hypothesis's id, "claim-not-atomic"`, "without the fix"},
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].why_it_fails", "from decoys/sleep-recheck/why.md", "in your own words"},
			{"challenges/receipt-twice/dossier.yaml", "wrong_turns[0].look_at", "names claimToken, which only the reference fix has (solution/src/claims.js)", "in your own words"},
		},
	}, {
		name: "public fields giving the answer away",
		break_: func(t *testing.T, dossier, _ string) {
			yaml := filepath.Join(dossier, "dossier.yaml")
			fix := filepath.Join(dossier, "solution", "src", "claims.js")
			data, err := os.ReadFile(fix)
			if err != nil {
				t.Fatal(err)
			}
			fixed := "\nexport function claimOnce(store, key, token) {\n  return store.setIfAbsent(key, token, { ttlMs: 30000 });\n}\n"
			if err := writeFile(fix, append(data, fixed...)); err != nil {
				t.Fatal(err)
			}
			edit(t, yaml, "The store has an operation that checks and writes in one step.",
				"Write return store.setIfAbsent(key, token, { ttlMs 30000 }) there.")
			edit(t, yaml, "focus_question: Between a worker reading the claim and writing it, what can the other worker do?",
				"focus_question: Where should the worker call claimOnce?")
			edit(t, yaml, "  - Find where a worker decides that the job is its own.\n",
				"  - Find how a second worker whose read arrives in between also sees the job free.\n")
			edit(t, yaml, "  - Follow blue and green through src/claims.js, one store call at a time.\n",
				"  - Watch how both workers can read the claim as free, both sleep, both read it as free again.\n")
			edit(t, yaml, "fix_scope: One atomic-claim fix", "fix_scope: Claiming a job is not atomic")
			// Not giveaways: the evidence may say what the explanation says, a
			// hypothesis names itself, and a check may carry a hypothesis's id.
			edit(t, yaml, "and both worker processes logged a successful send.",
				"and both worker processes logged a successful send. The claim reads the key and writes it in two store calls.")
			edit(t, yaml, "rationale: Both workers logged claim=won for the same job.",
				"rationale: Claiming a job is not atomic when both workers logged claim=won for the same job.")
			edit(t, yaml, "name: the worker test", "name: the claim-not-atomic test")
		},
		want: []wantLint{
			{"challenges/receipt-twice/dossier.yaml", "hints[3].text", `quotes the reference fix: "return store.setIfAbsent(key, token, { ttlMs: 30000 });"`, "in your own words"},
			{"challenges/receipt-twice/dossier.yaml", "focus_question", "names claimOnce, which only the reference fix has (solution/src/claims.js)", "x-visibility"},
			{"challenges/receipt-twice/dossier.yaml", "investigation[1]", `repeats "a second worker whose read arrives in between also sees" from secret.explanation`, "without the fix"},
			{"challenges/receipt-twice/dossier.yaml", "reproduction[1]", "from decoys/sleep-recheck/why.md", "in your own words"},
			{"challenges/receipt-twice/dossier.yaml", "repo_scale.fix_scope", `names the correct hypothesis, "Claiming a job is not atomic"`, "in your own words"},
		},
	}, {
		name: "no hidden suite",
		break_: func(t *testing.T, _, hidden string) {
			remove(t, filepath.Join(hidden, "suite.mjs"))
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "", "no hidden suite", "SUITES.md"}},
	}, {
		name: "suite without a default export",
		break_: func(t *testing.T, _, hidden string) {
			edit(t, filepath.Join(hidden, "suite.mjs"), "export default {", "const suite = {")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "", "no default export", "export default"}},
	}, {
		name: "suite with a syntax error",
		break_: func(t *testing.T, _, hidden string) {
			edit(t, filepath.Join(hidden, "suite.mjs"), "claimKeys: '^claim:',", "claimKeys: '^claim:',,")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "", "SyntaxError: Unexpected token ','", "fix the syntax"}},
	}, {
		name: "suite file that nothing imports",
		break_: func(t *testing.T, _, hidden string) {
			write(t, filepath.Join(hidden, "old-helpers.mjs"), "export const retries = 3;\n")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "", "old-helpers.mjs is not imported by suite.mjs", "'./name.mjs'"}},
	}, {
		name: "suite file it imports with a syntax error",
		break_: func(t *testing.T, _, hidden string) {
			write(t, filepath.Join(hidden, "helpers.mjs"), "export const retries = 3;;\nexport const limit = ;\n")
			edit(t, filepath.Join(hidden, "suite.mjs"), "export default {", "import { retries } from './helpers.mjs';\nexport default {")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/helpers.mjs", "", "SyntaxError: Unexpected token ';'", "fix the syntax"}},
	}, {
		name: "suite naming an unknown property and limit",
		break_: func(t *testing.T, _, hidden string) {
			edit(t, filepath.Join(hidden, "suite.mjs"), "property: 'claimsReleased'", "property: 'claimReleased'")
			edit(t, filepath.Join(hidden, "suite.mjs"), "limits: { maxLatencyMs: 1000,", "limits: { maxLatencyMS: 1000,")
		},
		want: []wantLint{
			{"hidden_tests/receipt-twice/suite.mjs", "scenarios[0].tests[2].property", `unknown property "claimReleased"`, `did you mean "claimsReleased"?`},
			{"hidden_tests/receipt-twice/suite.mjs", "limits.maxLatencyMS", `unknown field "maxLatencyMS"`, `did you mean "maxLatencyMs"?`},
		},
	}, {
		name: "suite whose subject module is missing",
		break_: func(t *testing.T, _, hidden string) {
			edit(t, filepath.Join(hidden, "suite.mjs"), "module: 'src/worker.js',", "module: 'src/workers.js',")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "subject.module", "repo/src/workers.js does not exist", "name the module"}},
	}, {
		name: "suite whose factory is not exported",
		break_: func(t *testing.T, _, hidden string) {
			edit(t, filepath.Join(hidden, "suite.mjs"), "factory: 'createWorker',", "factory: 'makeWorker',")
		},
		want: []wantLint{{"hidden_tests/receipt-twice/suite.mjs", "subject.factory", "does not export a function named makeWorker", "exports: createWorker"}},
	}, {
		name: "secrets inside repo",
		break_: func(t *testing.T, dossier, hidden string) {
			copyFile(t, filepath.Join(dossier, "decoys", "sleep-recheck", "why.md"), filepath.Join(dossier, "repo", "why.md"))
			copyFile(t, filepath.Join(hidden, "suite.mjs"), filepath.Join(dossier, "repo", "test", "suite.mjs"))
			copyFile(t, filepath.Join(dossier, "solution", "src", "claims.js"), filepath.Join(dossier, "repo", "solution", "claims.js"))
			copyFile(t, filepath.Join(dossier, "solution", "src", "claims.js"), filepath.Join(dossier, "repo", "src", "claims.fixed.js"))
			if err := writeFile(filepath.Join(dossier, "repo", ".git", "HEAD"), []byte("ref: refs/heads/main\n")); err != nil {
				t.Fatal(err)
			}
		},
		want: []wantLint{
			{"challenges/receipt-twice/repo/why.md", "", "a decoy's explanation", "move it out of repo/"},
			{"challenges/receipt-twice/repo/test/suite.mjs", "", "a hidden suite", "move it out of repo/"},
			{"challenges/receipt-twice/repo/solution", "", "a reference fix", "remove the folder"},
			{"challenges/receipt-twice/repo/src/claims.fixed.js", "", "a copy of the reference fix's src/claims.js", "remove it"},
			{"challenges/receipt-twice/repo/.git", "", "git history", "remove the folder"},
		},
	}, {
		name: "npm test does not run node --test",
		break_: func(t *testing.T, dossier, _ string) {
			pkg := filepath.Join(dossier, "repo", "package.json")
			edit(t, pkg, `"test": "node --test test/"`, `"test": "jest"`)
			edit(t, pkg, `"type": "module",`, `"dependencies": {"jest": "^29"},`)
		},
		want: []wantLint{
			{"challenges/receipt-twice/repo/package.json", "scripts.test", `npm test runs "jest"`, "node --test test/"},
			{"challenges/receipt-twice/repo/package.json", "type", "ES modules", `"type": "module"`},
			{"challenges/receipt-twice/repo/package.json", "dependencies", "installs nothing", "Node.js alone"},
		},
	}, {
		name: "no test script, no test file, another command",
		break_: func(t *testing.T, dossier, _ string) {
			edit(t, filepath.Join(dossier, "repo", "package.json"), `"test": "node --test test/"`, `"start": "node src/worker.js"`)
			remove(t, filepath.Join(dossier, "repo", "test", "worker.test.js"))
			edit(t, filepath.Join(dossier, "dossier.yaml"), "command: npm test", "command: make check")
		},
		want: []wantLint{
			{"challenges/receipt-twice/repo/package.json", "scripts.test", "no test script", `"test": "node --test test/"`},
			{"challenges/receipt-twice/repo/test", "", "no test file", "repo/test/<name>.test.js"},
			{"challenges/receipt-twice/dossier.yaml", "checks.visible.command", `not "make check"`, "command: npm test"},
		},
	}, {
		name: "package.json is not JSON",
		break_: func(t *testing.T, dossier, _ string) {
			edit(t, filepath.Join(dossier, "repo", "package.json"), `"private": true,`, `"private": true,,`)
		},
		want: []wantLint{{"challenges/receipt-twice/repo/package.json", "", "not valid JSON", "fix the JSON syntax"}},
	}, {
		name: "playbook link to nowhere, and public text that gives the fix away",
		break_: func(t *testing.T, dossier, _ string) {
			yaml := filepath.Join(dossier, "dossier.yaml")
			edit(t, yaml, "      really: A double publish; deduplicate at the producer.\n",
				"      really: A double publish; deduplicate at the producer.\n      dossier: no-such-dossier\n")
			edit(t, yaml, "    - customer got the same receipt twice\n", "    - customer got the same receipt twice until we used Set-If-Absent\n")
			edit(t, yaml, "  signal: One order, two receipts\n", "  signal: Line up both workers' claim calls in order\n")
			edit(t, yaml, "    One order, two receipts: worker=blue", "    Fixed by claimOnceAtomically: worker=blue")
			fix := filepath.Join(dossier, "solution", "src", "claims.js")
			data, err := os.ReadFile(fix)
			if err != nil {
				t.Fatal(err)
			}
			if err := writeFile(fix, append(data, "\nexport const claimOnceAtomically = true;\n"...)); err != nil {
				t.Fatal(err)
			}
		},
		want: []wantLint{
			{"challenges/receipt-twice/dossier.yaml", "playbook.not_for[0].dossier", `no dossier "no-such-dossier"`, "name an existing dossier"},
			{"challenges/receipt-twice/dossier.yaml", "playbook.variant_phrasings[0]", `uses "set-if-absent", one of playbook.fix_terms`, "describe what engineers see"},
			{"challenges/receipt-twice/dossier.yaml", "playbook.error", "names claimOnceAtomically, which the reference fix brings into the code", "not what fixes it"},
			{"challenges/receipt-twice/dossier.yaml", "incident.signal", `"line up both workers claim calls" is copied from playbook.steps[1]`, "searched before"},
		},
	}, {
		name: "binary file in repo",
		break_: func(t *testing.T, dossier, _ string) {
			if err := writeFile(filepath.Join(dossier, "repo", "logo.png"), []byte{0x89, 'P', 'N', 'G', 0xff, 0xfe}); err != nil {
				t.Fatal(err)
			}
		},
		want: []wantLint{{"challenges/receipt-twice/repo/logo.png", "", "not UTF-8 text", "leave binary files out"}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dirs := scaffold(t, slug)
			tc.break_(t, filepath.Join(dirs.Challenges, slug), filepath.Join(dirs.HiddenTests, slug))
			report, err := Lint(dirs, []string{slug})
			if err != nil {
				t.Fatal(err)
			}
			root := filepath.ToSlash(filepath.Dir(dirs.Challenges)) + "/"
			for _, w := range tc.want {
				if !hasProblem(report.Problems, root+w.file, w) {
					t.Errorf("no problem %+v in:\n%s", w, report.Problems.Detailed())
				}
			}
			if len(report.Problems) != len(tc.want) && tc.name != "schema error" {
				t.Errorf("%d problems, want %d:\n%s", len(report.Problems), len(tc.want), report.Problems.Detailed())
			}
		})
	}
}

func hasProblem(ps challenges.Problems, file string, w wantLint) bool {
	for _, p := range ps {
		if p.File == file && p.Field == w.field && strings.Contains(p.Message, w.message) && strings.Contains(p.Fix, w.fix) {
			return true
		}
	}
	return false
}

func TestLintSchemaProblemHasItsLine(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	yaml := filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml")
	edit(t, yaml, "estimate_minutes: 20", "estimate_minutes: twenty")
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(yaml)
	line := 1 + strings.Count(string(data[:strings.Index(string(data), "estimate_minutes: twenty")]), "\n")
	if len(report.Problems) != 1 || report.Problems[0].Field != "estimate_minutes" || report.Problems[0].Line != line {
		t.Fatalf("want one problem at estimate_minutes, line %d:\n%s", line, report.Problems.Detailed())
	}
}

func TestLintUnknownSlug(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	if _, err := Lint(dirs, []string{"no-such-dossier"}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Lint(unknown) = %v, want fs.ErrNotExist", err)
	}
	if _, err := Lint(dirs, []string{"../receipt-twice"}); !errors.Is(err, ErrInvalidSlug) {
		t.Errorf("Lint(../receipt-twice) = %v, want ErrInvalidSlug", err)
	}
	if _, err := Lint(Dirs{Challenges: filepath.Join(dirs.Challenges, "missing"), HiddenTests: dirs.HiddenTests}, nil); err == nil {
		t.Error("Lint of a missing folder succeeded")
	}
}

func TestLintReportsFoldersWithoutDossier(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	if err := writeFile(filepath.Join(dirs.Challenges, "draft", "notes.md"), []byte("todo")); err != nil {
		t.Fatal(err)
	}
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Problems) != 1 || !strings.HasSuffix(report.Problems[0].File, "challenges/draft/dossier.yaml") {
		t.Fatalf("want the folder without dossier.yaml reported:\n%s", report.Problems.Detailed())
	}
}

// edit replaces old by new in file, exactly once.
func edit(t *testing.T, file, old, new string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), old) != 1 {
		t.Fatalf("%s holds %q %d times, want once", file, old, strings.Count(string(data), old))
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// write creates file with content.
func write(t *testing.T, file, content string) {
	t.Helper()
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func remove(t *testing.T, file string) {
	t.Helper()
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFile(to, data); err != nil {
		t.Fatal(err)
	}
}

// Suite problems carry the line of the suite they are on.
func TestLintSuiteProblemHasItsLine(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	suite := filepath.Join(dirs.HiddenTests, "receipt-twice", "suite.mjs")
	edit(t, suite, "property: 'claimsReleased'", "property: 'claimReleased'")
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(suite)
	line := 1 + strings.Count(string(data[:strings.Index(string(data), "'claimReleased'")]), "\n")
	if len(report.Problems) != 1 || report.Problems[0].Line != line {
		t.Fatalf("want one problem at line %d:\n%s", line, report.Problems.Detailed())
	}
}
