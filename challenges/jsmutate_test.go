package challenges

import (
	"slices"
	"strings"
	"testing"
)

func TestTokenizeJSKnowsStringsTemplatesRegexesAndComments(t *testing.T) {
	src := "const a = `x ${b + `y${'}'}`} z` / 2; // c\n" +
		"const r = /[/]+\\//g.test(s) ? 'a\\'b' : \"}\"; /* { */ x?.y ?? .5\n"
	toks, err := tokenizeJS(src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tok := range toks {
		got = append(got, tok.text)
	}
	want := []string{"const", "a", "=", "`x ${b + `y${'}'}`} z`", "/", "2", ";",
		"const", "r", "=", `/[/]+\//g`, ".", "test", "(", "s", ")", "?", `'a\'b'`, ":", `"}"`, ";", "x", "?.", "y", "??", ".5"}
	if !slices.Equal(got, want) {
		t.Fatalf("tokens\n got %q\nwant %q", got, want)
	}
	if toks[7].line != 2 || !toks[7].nl || toks[8].nl {
		t.Errorf("line bookkeeping: %+v %+v", toks[7], toks[8])
	}
	for _, bad := range []string{"'open", "`open ${", "/* open", "a = /open"} {
		if _, err := tokenizeJS(bad); err == nil {
			t.Errorf("tokenizeJS(%q) accepted an unterminated literal", bad)
		}
	}
}

// mutate returns the mutants of fix (a new file: every line is the fix's)
// made by op, as mutated sources.
func mutate(t *testing.T, fix, op string) []string {
	t.Helper()
	ms, err := GenerateMutants(nil, map[string][]byte{"src/a.js": []byte(fix)})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		if m.Operator == op {
			out = append(out, string(m.Source))
		}
	}
	return out
}

func TestMutationOperators(t *testing.T) {
	for _, tc := range []struct {
		op, fix string
		want    []string
	}{
		{OpDropAwait, "async function f() { const v = await store.get(k); log({ await: 'x' }); }",
			[]string{"async function f() { const v = store.get(k); log({ await: 'x' }); }"}},
		{OpSplitAtomic, "const won = await this.store.setIfAbsent(key(id), token, { ttlMs });",
			[]string{"const won = await (async (s, k, ...w) => (await s.get(k)) === null && (await s.set(k, ...w), true))(this.store, key(id), token, { ttlMs });"}},
		{OpSplitAtomic, "n = await store.incrBy(k, 2);",
			[]string{"n = await (async (s, k, d) => { const n = Number((await s.get(k)) ?? 0) + d; await s.set(k, String(n)); return n; })(store, k, 2);"}},
		{OpDropCheck, "await deps().store.compareAndDelete(k, token);",
			[]string{"await (async (s, k, v) => (await s.delete(k), true))(deps().store, k, token);"}},
		{OpDropCheck, "ok = store.compareAndExpire(k, t, ms);",
			[]string{"ok = (async (s, k, v, ms) => s.expire(k, ms))(store, k, t, ms);"}},
		{OpKeyPerWorker, "store.setIfAbsent(`lock:${id}`, v);",
			[]string{"store.setIfAbsent((`lock:${id}`) + ':' + process.pid, v);"}},
		{OpKeyPerAttempt, "store.expire(k, 5);",
			[]string{"store.expire((k) + ':' + process.pid + ':' + Math.random(), 5);"}},
		{OpRemoveStmt, "try { await pay(); } catch (e) { logger.warn(e); await undo(); }",
			[]string{"try { ; } catch (e) { logger.warn(e); await undo(); }", "try { await pay(); } catch (e) { logger.warn(e); ; }"}},
		{OpRemoveGuard, "for (const c of cs) { if (!(await holds())) return 'lost'; send(c); }",
			[]string{"for (const c of cs) { if (false) return 'lost'; send(c); }"}},
		{OpHoistGuard, "for (const c of cs) { if (!(await holds())) return 'lost'; send(c); }",
			[]string{"if (!(await holds())) return 'lost';\nfor (const c of cs) { ; send(c); }"}},
		{OpSwapStmts, "async function f() { await send(); await release(); log.info('done'); }",
			[]string{"async function f() { await release();\nawait send(); log.info('done'); }"}},
		{OpShrinkConstant, "const PENDING_MS = 5 * 60_000; const one = 1;",
			[]string{"const PENDING_MS = 1 * 60_000; const one = 1;", "const PENDING_MS = 5 * 1; const one = 1;"}},
		{OpDropCall, "const keys = [a, b].sort(byId).map(lockKey);",
			[]string{"const keys = [a, b].map(lockKey);"}},
	} {
		if got := mutate(t, tc.fix, tc.op); !slices.Equal(got, tc.want) {
			t.Errorf("%s of %q\n got %q\nwant %q", tc.op, tc.fix, got, tc.want)
		}
	}
}

func TestMutantsStayInsideWhatTheFixChanged(t *testing.T) {
	repo := "export async function claim(store, job) {\n  await store.get(job);\n  return false;\n}\n"
	fix := "export async function claim(store, job) {\n  await store.get(job);\n  return await store.setIfAbsent(job, 'me');\n}\n"
	ms, err := GenerateMutants(map[string][]byte{"src/claim.js": []byte(repo)},
		map[string][]byte{"src/claim.js": []byte(fix), "README.md": []byte("await store.setIfAbsent(k)"), "test/claim.test.js": []byte("await x;")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no mutants of the changed line")
	}
	for _, m := range ms {
		if m.File != "src/claim.js" || m.Line != 3 {
			t.Errorf("mutant %s outside the changed line 3 of src/claim.js", m)
		}
		if !strings.HasPrefix(m.ID, m.Operator+"-") || len(m.ID) != len(m.Operator)+9 {
			t.Errorf("id %q is not <operator>-<8 hex>", m.ID)
		}
	}
}

func TestMutantIDsSurviveUnrelatedEdits(t *testing.T) {
	fix := "async function f() {\n  await store.setIfAbsent(k, v);\n  await store.compareAndDelete(k, v);\n}\n"
	ids := func(src string) []string {
		ms, err := GenerateMutants(nil, map[string][]byte{"src/a.js": []byte(src)})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.ID)
		}
		slices.Sort(out)
		return out
	}
	first := ids(fix)
	if again := ids(fix); !slices.Equal(first, again) {
		t.Fatalf("ids changed between two generations: %q, %q", first, again)
	}
	if moved := ids("// a comment\n\n" + fix); !slices.Equal(first, moved) {
		t.Errorf("a comment above the code changed the ids: %q, %q", first, moved)
	}
	if len(slices.Compact(slices.Clone(first))) != len(first) {
		t.Errorf("two mutants share an id: %q", first)
	}
}

func TestChangedLines(t *testing.T) {
	got := changedLines("a\nb\nc\nd", "a\nx\nc\nd\ne")
	if len(got) != 2 || !got[2] || !got[5] {
		t.Errorf("changed lines %v, want 2 and 5", got)
	}
	if all := changedLines("", "a\nb"); len(all) != 2 {
		t.Errorf("a new file: changed lines %v, want both", all)
	}
}
