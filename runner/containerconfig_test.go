package runner

import (
	"reflect"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
)

func TestContainerConfigMapsJob(t *testing.T) {
	job := Job{
		Image:     "racecase-runner-node:abc",
		Suite:     SuiteHidden,
		Limits:    Limits{CPU: 2 * time.Second, Wall: 3 * time.Second, MemoryBytes: 128 << 20, Pids: 32, NanoCPUs: 5e8, OutputBytes: 4096, TmpfsBytes: 8 << 20},
		Labels:    map[string]string{"racecase.owner": "o_1", LabelManaged: "false", LabelRun: "forged"},
		RunLabels: map[string]string{"racecase.dossier": "job-lock", "racecase.owner": "forged", LabelRun: "forged too"},
	}
	cfg, host := containerConfig(job, "run-1")

	checks := []struct {
		name      string
		got, want any
	}{
		{"image", cfg.Image, "racecase-runner-node:abc"},
		{"the watchdog is the entrypoint", []string(cfg.Entrypoint), []string{"/usr/local/bin/node", "--v8-pool-size=1", "/opt/racecase/watchdog.mjs"}},
		{"cmd is the deadline (wall + grace), the CPU budget (CPU + grace) and the suite the container is for (the payload says it again)", []string(cfg.Cmd), []string{"5000", "4000", string(job.Suite)}},
		{"user", cfg.User, "1000:1000"},
		{"labels: the runner's own win, then the job's, then the run's", cfg.Labels, map[string]string{"racecase.owner": "o_1", "racecase.dossier": "job-lock", LabelManaged: "true", LabelRun: "run-1"}},
		{"stdin", []bool{cfg.AttachStdin, cfg.OpenStdin, cfg.StdinOnce}, []bool{true, true, true}},
		{"stdout, stderr, no tty", []bool{cfg.AttachStdout, cfg.AttachStderr, cfg.Tty}, []bool{true, true, false}},
		{"no env", cfg.Env, []string(nil)},
		{"network", []any{host.NetworkMode, cfg.NetworkDisabled}, []any{container.NetworkMode("none"), true}},
		{"capabilities", []string(host.CapDrop), []string{"ALL"}},
		{"cap add", []string(host.CapAdd), []string(nil)},
		{"not privileged", host.Privileged, false},
		{"security opts", host.SecurityOpt, []string{"no-new-privileges"}},
		{"read-only root", host.ReadonlyRootfs, true},
		{"no docker-init: the watchdog is pid 1", *host.Init, false},
		{"not auto-removed", host.AutoRemove, false},
		{"ipc", host.IpcMode, container.IpcMode("private")},
		{"no logs kept", host.LogConfig.Type, "none"},
		{"tmpfs", host.Tmpfs, map[string]string{
			"/work": "rw,noexec,nosuid,nodev,size=8388608,mode=1777",
			"/tmp":  "rw,noexec,nosuid,nodev,size=16777216,mode=1777",
		}},
		{"memory, the watchdog's added", host.Memory, int64(144 << 20)},
		{"memory+swap = memory", host.MemorySwap, int64(144 << 20)},
		{"pids, the watchdog's added", *host.PidsLimit, int64(40)},
		{"cpus", host.NanoCPUs, int64(5e8)},
		{"ulimits", host.Ulimits, []*container.Ulimit{
			{Name: "nofile", Soft: 1024, Hard: 1024},
			{Name: "fsize", Soft: 8 << 20, Hard: 8 << 20},
			{Name: "core", Soft: 0, Hard: 0},
		}},
		{"no mounts", host.Mounts, []mount.Mount(nil)},
		{"no binds", host.Binds, []string(nil)},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, c.got, c.want)
		}
	}
	if job.Labels[LabelManaged] != "false" {
		t.Error("containerConfig changed the job's labels")
	}
}

func TestWithDefaultsFillsOnlyUnsetLimits(t *testing.T) {
	d := DefaultLimits()
	want := Limits{CPU: 10 * time.Second, Wall: 30 * time.Second, MemoryBytes: 512 << 20, Pids: 64, NanoCPUs: 2e9, OutputBytes: 1 << 20, TmpfsBytes: 64 << 20}
	if d != want {
		t.Fatalf("DefaultLimits() = %+v, want %+v", d, want)
	}
	if got := (Limits{}).WithDefaults(); got != d {
		t.Errorf("zero limits: got %+v", got)
	}
	custom := Limits{CPU: 2 * time.Second, Wall: time.Second, MemoryBytes: 1, Pids: 2, NanoCPUs: 3, OutputBytes: 4, TmpfsBytes: 5}
	if got := custom.WithDefaults(); got != custom {
		t.Errorf("custom limits changed: %+v", got)
	}
	if got := (Limits{Wall: -1, Pids: 7}).WithDefaults(); got.Wall != d.Wall || got.CPU != d.CPU || got.Pids != 7 {
		t.Errorf("partial limits: %+v", got)
	}
	if got := (Limits{CPU: 3 * time.Second}).WithDefaults(); got.Wall != WallPerCPU*3*time.Second {
		t.Errorf("a CPU budget alone: wall %s, want %d times it", got.Wall, WallPerCPU)
	}
}

func TestJobValidate(t *testing.T) {
	ok := Job{Image: "img", Suite: SuiteVisible, Files: map[string][]byte{"src/a.js": nil, "package.json": nil}}
	if err := ok.validate(); err != nil {
		t.Fatalf("valid job: %v", err)
	}
	bad := map[string]Job{
		"no image":      {Suite: SuiteVisible},
		"unknown suite": {Image: "img", Suite: "all"},
		"files larger than /work": {Image: "img", Suite: SuiteHidden, Limits: Limits{TmpfsBytes: 10},
			Files: map[string][]byte{"a.js": make([]byte, 6)}, Secret: map[string][]byte{"suite.mjs": make([]byte, 5)}},
	}
	for _, name := range []string{"", ".", "..", "/etc/passwd", "../x", "a/../../x", "a//b", "a/./b", "a/", `a\b`, "a\x00b"} {
		bad["file "+name] = Job{Image: "img", Suite: SuiteVisible, Files: map[string][]byte{name: nil}}
		bad["secret "+name] = Job{Image: "img", Suite: SuiteHidden, Secret: map[string][]byte{name: nil}}
	}
	for name, job := range bad {
		if err := job.validate(); err == nil {
			t.Errorf("%s: validate accepted it", name)
		}
	}
}

func TestFitCPUsNeverAsksMoreThanTheMachineHas(t *testing.T) {
	for _, c := range []struct {
		nano int64
		cpus int
		want int64
	}{
		{2e9, 2, 2e9},
		{2e9, 1, 1e9},
		{5e8, 1, 5e8},
		{2e9, 0, 2e9}, // unknown: asked as is
	} {
		if got := fitCPUs(c.nano, c.cpus); got != c.want {
			t.Errorf("fitCPUs(%d, %d) = %d, want %d", c.nano, c.cpus, got, c.want)
		}
	}
}
