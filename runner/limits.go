package runner

import "time"

// Limits bounds what one run may use.
type Limits struct {
	// CPU is the CPU-time budget: all the container's processes together
	// may use this much processor time from the moment the payload arrives
	// (what they used booting and waiting for it does not count), and are
	// killed past it. It is what
	// decides a time-out: unlike the wall clock, CPU time does not grow when
	// the machine is busy with other work, so a busy machine cannot turn a
	// verdict into a time-out.
	CPU time.Duration
	// Wall is the wall-clock budget from the payload's arrival, the last
	// backstop: code that waits rather than computes is stopped sooner, once
	// it sits idle for 10 s. The container is killed when it runs out. Zero
	// means WallPerCPU times the CPU budget.
	Wall time.Duration
	// MemoryBytes caps memory; swap is not allowed (memory+swap = memory).
	MemoryBytes int64
	// Pids caps the number of processes and threads in the container.
	Pids int64
	// NanoCPUs caps how many CPUs the container's processes may use at once,
	// in billionths of a CPU (1e9 = one CPU); a machine with fewer gives all
	// it has.
	NanoCPUs int64
	// OutputBytes caps the console output; the container is killed past it.
	OutputBytes int64
	// TmpfsBytes sizes the writable tmpfs mounted at /work.
	TmpfsBytes int64
}

// WallPerCPU is the wall-clock budget of a run whose Limits leave Wall at
// zero, as a multiple of its CPU budget: room for a machine three times
// busier than a run that spends its whole CPU budget, and far more for a
// correct run, which uses a fraction of it (validate holds a reference fix
// to half). A run that waits instead of computing is stopped sooner, after
// 10 s idle (the watchdog), and one starved by a busy machine is not idle.
const WallPerCPU = 3

// DefaultLimits returns the limits used for a field a Job leaves at zero:
// 10 s of CPU time within 30 s of wall clock, 512 MiB of memory and no swap,
// 64 pids, two CPUs (the supervisor and the worker it talks to run side by
// side, as a worker boots beside them), 1 MiB of output and a 64 MiB /work.
func DefaultLimits() Limits {
	return Limits{
		CPU:         10 * time.Second,
		Wall:        WallPerCPU * 10 * time.Second,
		MemoryBytes: 512 << 20,
		Pids:        64,
		NanoCPUs:    2e9,
		OutputBytes: 1 << 20,
		TmpfsBytes:  64 << 20,
	}
}

// WithDefaults replaces every zero or negative field with its default; a
// missing Wall becomes WallPerCPU times the CPU budget.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.CPU <= 0 {
		l.CPU = d.CPU
	}
	if l.Wall <= 0 {
		l.Wall = WallPerCPU * l.CPU
	}
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	if l.Pids <= 0 {
		l.Pids = d.Pids
	}
	if l.NanoCPUs <= 0 {
		l.NanoCPUs = d.NanoCPUs
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = d.OutputBytes
	}
	if l.TmpfsBytes <= 0 {
		l.TmpfsBytes = d.TmpfsBytes
	}
	return l
}
