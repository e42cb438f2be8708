package challenges

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
)

// TestWarmContainersGiveTheVerdictsOfColdOnes runs every claim of the
// flagship (buggy repo, reference fix, each decoy) in a container started
// for it and in a container a pool warmed ahead, with the real harness, and
// wants the same results from both, traces included. Decoys run as validate
// runs them, on the tests their wrong turns name: fewer tests than the whole
// suite, each of those among them.
func TestWarmContainersGiveTheVerdictsOfColdOnes(t *testing.T) {
	d := runnertest.Engine(t)
	image := runnertest.Image(t, d)
	label := "racecase.test=warm-vs-cold-" + time.Now().Format("150405.000000000")
	runnertest.ExpectNoLeftovers(t, d, label)
	// Checks and submissions have different limits, so different shapes: a
	// pool of one for each, so that every run finds its shape warm.
	pools := map[runner.Suite]*runner.Pool{}
	for _, suite := range []runner.Suite{runner.SuiteVisible, runner.SuiteHidden} {
		pool := runner.NewPool(d, runner.PoolConfig{Size: 1})
		t.Cleanup(func() { pool.Close(context.Background()) })
		pools[suite] = pool
	}

	dossier, err := Load(FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	hidden, err := hiddentests.Suite(dossier.Slug)
	if err != nil {
		t.Fatal(err)
	}
	claims, err := dossier.claims(FS, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	wholeSuite, fewest := 0, 0
	for _, c := range claims {
		job := c.job(dossier, image, hidden)
		key, value, _ := strings.Cut(label, "=")
		job.Labels[key] = value
		cold, err := d.Run(ctx, job)
		if err != nil {
			t.Fatalf("%s (%s), cold: %v", c.subject, c.suite, err)
		}
		pools[c.suite].Warm(job)
		warm, err := pools[c.suite].Run(ctx, job)
		if err != nil {
			t.Fatalf("%s (%s), warm: %v", c.subject, c.suite, err)
		}
		if warm.Verdict != c.want || resultsFingerprint(warm) != resultsFingerprint(cold) {
			t.Errorf("%s (%s): want %s; warm %s, cold %s\nwarm: %s\ncold: %s", c.subject, c.suite, c.want,
				warm.Verdict, cold.Verdict, resultsFingerprint(warm), resultsFingerprint(cold))
		}
		switch {
		case c.suite == runner.SuiteHidden && c.only == nil:
			wholeSuite = len(warm.Tests)
		case c.only != nil:
			// A decoy runs the scenarios of its wrong turns' tests: it gives each of them.
			for _, name := range c.only {
				if !slices.ContainsFunc(warm.Tests, func(r runner.TestResult) bool { return r.Name == name }) {
					t.Errorf("%s: no result for %q, one of the tests it was run on", c.subject, name)
				}
			}
			fewest = min(cmp.Or(fewest, len(warm.Tests)), len(warm.Tests))
		}
	}
	if fewest == 0 || fewest >= wholeSuite {
		t.Errorf("the decoys ran at least %d tests, the whole suite has %d: a container ignores %s", fewest, wholeSuite, OnlyTestsFile)
	}
	if v, h := pools[runner.SuiteVisible].Stats(), pools[runner.SuiteHidden].Stats(); v.Warm+h.Warm != int64(len(claims)) {
		t.Errorf("pool stats %+v and %+v: want every one of the %d warm runs served warm", v, h, len(claims))
	}
}
