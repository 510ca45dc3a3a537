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

	// What the listeners refused or dropped before the TURN library saw it.
	RefusedTCPPerAddr int64 // TCP/TLS connections closed at once: their client held MaxConnsPerAddr
	RefusedTCPTotal   int64 // TCP/TLS connections closed at once: the relay held MaxConns
	ClosedIdle        int64 // TCP/TLS connections closed by IdleTimeout or FirstMessageTimeout
	ClosedOversize    int64 // TCP/TLS connections closed announcing a frame over MaxFrame
	ClosedBadFrame    int64 // TCP/TLS connections closed sending neither STUN nor ChannelData
	AcceptErrors      int64 // failed Accepts (EMFILE, ENFILE, ...) the listeners retried
	DroppedUDPUnknown int64 // UDP datagrams from unknown sources over UnknownRate or UnknownRatePerAddr
	DroppedUDPQueue   int64 // UDP datagrams dropped while the TURN library lagged behind the socket
	TCPConns          int64 // live TCP/TLS connections
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

		RefusedTCPPerAddr: s.refused.perAddr.Load(),
		RefusedTCPTotal:   s.refused.total.Load(),
		ClosedIdle:        s.refused.idle.Load(),
		ClosedOversize:    s.refused.oversize.Load(),
		ClosedBadFrame:    s.refused.badFrame.Load(),
		AcceptErrors:      s.refused.accept.Load(),
		DroppedUDPUnknown: s.dropped.unknownRate.Load(),
		DroppedUDPQueue:   s.dropped.queueFull.Load(),
		TCPConns:          int64(s.gate.open()),
	}
}

// listenerRefusals are the Stats of what the listeners refused, by their
// reason label in sightline_relay_refused_total.
func (st Stats) listenerRefusals() []refusal {
	return []refusal{
		{"tcp-per-address", st.RefusedTCPPerAddr},
		{"tcp-total", st.RefusedTCPTotal},
		{"idle-timeout", st.ClosedIdle},
		{"oversize-frame", st.ClosedOversize},
		{"bad-frame", st.ClosedBadFrame},
		{"udp-unknown-rate", st.DroppedUDPUnknown},
		{"udp-queue-full", st.DroppedUDPQueue},
	}
}

// refusal is a count of sightline_relay_refused_total and its reason.
type refusal struct {
	reason string
	n      int64
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
	descRefused          = prometheus.NewDesc("sightline_relay_refused_total", "Requests refused, connections closed and datagrams dropped, by reason (auth, peer, quota, tcp; tcp-per-address, tcp-total, idle-timeout, oversize-frame, bad-frame, udp-unknown-rate, udp-queue-full).", []string{"reason"}, nil)
	descBytesRelayed     = prometheus.NewDesc("sightline_relay_relayed_bytes_total", "Bytes relayed between clients and peers, both directions.", nil, nil)
	descBytesOverQuota   = prometheus.NewDesc("sightline_relay_over_quota_bytes_total", "Bytes dropped because their username was over its byte quota.", nil, nil)
	descAcceptErrors     = prometheus.NewDesc("sightline_relay_accept_errors_total", "Failed accepts of TCP and TLS connections (EMFILE, ENFILE, ...), retried with backoff.", nil, nil)
	descTCPConns         = prometheus.NewDesc("sightline_relay_tcp_connections", "Live TCP and TLS client connections.", nil, nil)
	descBytesUnpermitted = prometheus.NewDesc("sightline_relay_unpermitted_bytes_total", "Bytes sent to an allocation by peers it held no permission for, dropped.", nil, nil)
)

type collector struct {
	srv *Server
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAllocations, descAllocationsTotal, descUsers, descRefused, descBytesRelayed, descBytesOverQuota, descBytesUnpermitted, descAcceptErrors, descTCPConns} {
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
	for _, r := range st.listenerRefusals() {
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(r.n), r.reason)
	}
	ch <- prometheus.MustNewConstMetric(descAcceptErrors, prometheus.CounterValue, float64(st.AcceptErrors))
	ch <- prometheus.MustNewConstMetric(descTCPConns, prometheus.GaugeValue, float64(st.TCPConns))
	ch <- prometheus.MustNewConstMetric(descBytesRelayed, prometheus.CounterValue, float64(st.BytesRelayed))
	ch <- prometheus.MustNewConstMetric(descBytesOverQuota, prometheus.CounterValue, float64(st.BytesOverQuota))
	ch <- prometheus.MustNewConstMetric(descBytesUnpermitted, prometheus.CounterValue, float64(st.BytesUnpermitted))
}
