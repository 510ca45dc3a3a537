package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Config says what a process's metrics read. Nil fields export nothing of
// theirs.
type Config struct {
	// Host is the process's matches.
	Host *server.Host
}

// Metrics is a process's registry of metrics.
type Metrics struct {
	reg    *prometheus.Registry
	tokens *prometheus.CounterVec
}

// New returns the metrics of cfg, with the process and Go collectors.
func New(cfg Config) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sightline_tokens_refused_total",
			Help: "Offers refused for their join token, by reason (missing, expired, replayed, ...).",
		}, []string{"reason"}),
	}
	reg.MustRegister(
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewGoCollector(),
		m.tokens,
	)
	for _, r := range jointoken.Reasons() {
		m.tokens.WithLabelValues(r) // every reason shows, at 0 until it happens
	}
	if cfg.Host != nil {
		reg.MustRegister(&matches{host: cfg.Host})
	}
	return m
}

// WatchSignalling exports the counters of the process's WebRTC server
// (webrtc.Server.Stats), which is made after the metrics since its Admit
// counts refused tokens here. Call it once.
func (m *Metrics) WatchSignalling(stats func() webrtc.ServerStats) {
	m.reg.MustRegister(&signalling{stats: stats})
}

// RefusedToken counts an offer refused for its join token, for reason
// (jointoken.Reason: one of a fixed set).
func (m *Metrics) RefusedToken(reason string) {
	m.tokens.WithLabelValues(reason).Inc()
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is the registry the metrics are in, for a program to add its own.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }
