package runner

import (
	"testing"
	"time"
)

func TestShapeKeyLeavesOutCPUAndWall(t *testing.T) {
	a := Job{Image: "img", Suite: SuiteHidden, Limits: Limits{CPU: 82 * time.Second, Wall: 246 * time.Second, MemoryBytes: 512 << 20}}
	b := a
	b.Limits.CPU, b.Limits.Wall = 192*time.Second, 576*time.Second
	c := a
	c.Limits.MemoryBytes = 256 << 20
	d := a
	d.Suite = SuiteVisible
	_, ka := shapeOf(a)
	_, kb := shapeOf(b)
	_, kc := shapeOf(c)
	_, kd := shapeOf(d)
	if ka != kb {
		t.Error("jobs that differ only in CPU time and wall clock get different keys")
	}
	if ka == kc {
		t.Error("jobs with different memory share a key")
	}
	if ka == kd {
		t.Error("a check run and a hidden run share a key: a check's container would get the hidden suite's budgets")
	}
}

func TestTakeServesAJobOnlyWithBudgetsAtLeastItsOwn(t *testing.T) {
	small := Job{Image: "img", Limits: Limits{CPU: 82 * time.Second, Wall: 246 * time.Second}}
	shape, key := shapeOf(small)
	p := &Pool{budgets: map[string]Limits{}}
	p.entries = []*poolEntry{{key: key, shape: shape, ready: make(chan struct{}), taken: make(chan struct{})}}
	big := small.Limits
	big.CPU, big.Wall = 192*time.Second, 576*time.Second
	if e := p.take(key, big); e != nil {
		t.Fatal("a container warmed for 82 s of CPU was given a job of 192 s")
	}
	if e := p.take(key, small.Limits); e == nil {
		t.Fatal("the container was not given the job it was warmed for")
	}
}
