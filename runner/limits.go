package runner

import "time"

// Limits bounds what one run may use.
type Limits struct {
	// Wall is the wall-clock budget from container start; the container is
	// killed when it runs out.
	Wall time.Duration
	// MemoryBytes caps memory; swap is not allowed (memory+swap = memory).
	MemoryBytes int64
	// Pids caps the number of processes and threads in the container.
	Pids int64
	// NanoCPUs caps CPU time in billionths of a CPU (1e9 = one CPU).
	NanoCPUs int64
	// OutputBytes caps the console output; the container is killed past it.
	OutputBytes int64
	// TmpfsBytes sizes the writable tmpfs mounted at /work.
	TmpfsBytes int64
}

// DefaultLimits returns the limits used for a field a Job leaves at zero:
// 10 s wall clock, 512 MiB of memory and no swap, 64 pids, one CPU, 1 MiB of
// output and a 64 MiB /work.
func DefaultLimits() Limits {
	return Limits{
		Wall:        10 * time.Second,
		MemoryBytes: 512 << 20,
		Pids:        64,
		NanoCPUs:    1e9,
		OutputBytes: 1 << 20,
		TmpfsBytes:  64 << 20,
	}
}

// withDefaults replaces every zero or negative field with its default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.Wall <= 0 {
		l.Wall = d.Wall
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
