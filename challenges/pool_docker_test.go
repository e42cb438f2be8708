package challenges

import (
	"context"
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
// wants the same results from both, traces included.
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
	for _, c := range claims {
		job := dossier.NewJob(image, c.suite, c.files, hidden)
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
	}
	if v, h := pools[runner.SuiteVisible].Stats(), pools[runner.SuiteHidden].Stats(); v.Warm+h.Warm != int64(len(claims)) {
		t.Errorf("pool stats %+v and %+v: want every one of the %d warm runs served warm", v, h, len(claims))
	}
}
