package workspace

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/runner"
)

// metrics are the run metrics the service exports.
type metrics struct {
	verdicts       *prometheus.CounterVec
	duration       *prometheus.HistogramVec
	containerStart prometheus.Histogram
	queueDepth     prometheus.GaugeFunc
	typicalMillis  atomic.Int64 // moving average of a runner call, for Retry-After
}

// newMetrics builds the collectors; queue depth is read from the database
// when scraped.
func newMetrics(s *Service) *metrics {
	m := &metrics{
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "racecase_runs_total",
			Help: "Runs that recorded a verdict, by kind (check or submit) and verdict.",
		}, []string{"kind", "verdict"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "racecase_run_duration_seconds",
			Help:    "Wall-clock time of the runner call for one run, container included, by kind.",
			Buckets: []float64{0.25, 0.5, 1, 2, 4, 8, 15, 30, 60},
		}, []string{"kind"}),
		containerStart: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "racecase_container_start_seconds",
			Help:    "Time a run spent on its container rather than its tests: the runner call minus the tests' own duration (create, start, remove).",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8},
		}),
	}
	m.queueDepth = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "racecase_run_queue_depth",
		Help: "Runs queued or running.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		n, err := s.store.CountRunsInFlight(ctx)
		if err != nil {
			return -1
		}
		return float64(n)
	})
	m.typicalMillis.Store(2000)
	return m
}

// register adds the collectors to r.
func (m *metrics) register(r prometheus.Registerer) error {
	var errs []error
	for _, c := range []prometheus.Collector{m.verdicts, m.duration, m.containerStart, m.queueDepth} {
		errs = append(errs, r.Register(c))
	}
	return errors.Join(errs...)
}

// observeRun records one runner call that returned results.
func (m *metrics) observeRun(kind string, res *runner.Results, took time.Duration) {
	m.duration.WithLabelValues(kind).Observe(took.Seconds())
	tests := time.Duration(res.DurationMS) * time.Millisecond
	m.containerStart.Observe(max(took-tests, 0).Seconds())
	old := m.typicalMillis.Load()
	m.typicalMillis.Store((old*7 + took.Milliseconds()) / 8)
}

// countVerdict counts a recorded verdict.
func (m *metrics) countVerdict(kind string, v runner.Verdict) {
	m.verdicts.WithLabelValues(kind, string(v)).Inc()
}

// retryAfter estimates when a full queue will have room for one more run:
// with workers runs executing at once, each taking the typical time, one of
// them ends every typical/workers on average. It is at least one second.
func (m *metrics) retryAfter(workers int) time.Duration {
	wait := time.Duration(m.typicalMillis.Load()/int64(max(workers, 1))) * time.Millisecond
	return max(wait.Round(time.Second), time.Second)
}
