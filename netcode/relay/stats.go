package relay

import "github.com/prometheus/client_golang/prometheus"

// Stats is what a relay has done since it started.
type Stats struct {
	Allocations      int64 // live allocations
	AllocationsTotal int64 // allocations made
	Users            int64 // usernames tracked (live allocations or unexpired)
	RefusedAuth      int64 // requests with a missing, malformed, expired, too long or forged credential
	RefusedPeer      int64 // permissions refused for a denied peer
	RefusedQuota     int64 // allocations refused over a username's quota
	RefusedTCP       int64 // TCP allocations and connections refused
	BytesRelayed     int64 // bytes relayed, both directions
	BytesOverQuota   int64 // bytes dropped over a username's byte quota
	BytesUnpermitted int64 // bytes sent to an allocation by peers it holds no permission for, dropped uncounted
}

// Stats returns the relay's counts now.
func (s *Server) Stats() Stats {
	return Stats{
		Allocations:      s.allocations.Load(),
		AllocationsTotal: s.allocationsTotal.Load(),
		Users:            int64(s.users.len()),
		RefusedAuth:      s.refusedAuth.Load(),
		RefusedPeer:      s.refusedPeer.Load(),
		RefusedQuota:     s.refusedQuota.Load(),
		RefusedTCP:       s.refusedTCP.Load(),
		BytesRelayed:     s.bytesRelayed.Load(),
		BytesOverQuota:   s.bytesOverQuota.Load(),
		BytesUnpermitted: s.bytesUnpermitted.Load(),
	}
}

// Collector returns a Prometheus collector of the relay's Stats, as the
// sightline_relay_* series.
func (s *Server) Collector() prometheus.Collector {
	return &collector{srv: s}
}

var (
	descAllocations      = prometheus.NewDesc("sightline_relay_allocations", "Live TURN allocations.", nil, nil)
	descAllocationsTotal = prometheus.NewDesc("sightline_relay_allocations_total", "TURN allocations made.", nil, nil)
	descUsers            = prometheus.NewDesc("sightline_relay_users", "TURN usernames tracked for quotas.", nil, nil)
	descRefused          = prometheus.NewDesc("sightline_relay_refused_total", "Requests refused, by reason (auth, peer, quota, tcp).", []string{"reason"}, nil)
	descBytesRelayed     = prometheus.NewDesc("sightline_relay_relayed_bytes_total", "Bytes relayed between clients and peers, both directions.", nil, nil)
	descBytesOverQuota   = prometheus.NewDesc("sightline_relay_over_quota_bytes_total", "Bytes dropped because their username was over its byte quota.", nil, nil)
	descBytesUnpermitted = prometheus.NewDesc("sightline_relay_unpermitted_bytes_total", "Bytes sent to an allocation by peers it held no permission for, dropped.", nil, nil)
)

type collector struct {
	srv *Server
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAllocations, descAllocationsTotal, descUsers, descRefused, descBytesRelayed, descBytesOverQuota, descBytesUnpermitted} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.srv.Stats()
	ch <- prometheus.MustNewConstMetric(descAllocations, prometheus.GaugeValue, float64(st.Allocations))
	ch <- prometheus.MustNewConstMetric(descAllocationsTotal, prometheus.CounterValue, float64(st.AllocationsTotal))
	ch <- prometheus.MustNewConstMetric(descUsers, prometheus.GaugeValue, float64(st.Users))
	for _, r := range []struct {
		reason string
		n      int64
	}{{"auth", st.RefusedAuth}, {"peer", st.RefusedPeer}, {"quota", st.RefusedQuota}, {"tcp", st.RefusedTCP}} {
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(r.n), r.reason)
	}
	ch <- prometheus.MustNewConstMetric(descBytesRelayed, prometheus.CounterValue, float64(st.BytesRelayed))
	ch <- prometheus.MustNewConstMetric(descBytesOverQuota, prometheus.CounterValue, float64(st.BytesOverQuota))
	ch <- prometheus.MustNewConstMetric(descBytesUnpermitted, prometheus.CounterValue, float64(st.BytesUnpermitted))
}
