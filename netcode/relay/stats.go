package relay

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// reason is why the relay refused a request or dropped a datagram.
type reason int

// The reasons, as sightline_relay_refused_total labels them.
const (
	reasonAuth                  reason = iota // a missing, malformed, too long or forged credential
	reasonExpired                             // a credential past its expiry
	reasonScope                               // a peer outside the credential's scope (unscoped: outside AllowPeers)
	reasonOwnAddress                          // a peer at one of the relay's own addresses
	reasonPeerDenied                          // a peer DeniedPeer refuses and AllowPeers does not list
	reasonPermissionsCap                      // a permission over MaxPermissionsPerAllocation
	reasonChannelsCap                         // a channel over MaxChannelsPerAllocation
	reasonAllocationsPerAddress               // an allocation over MaxAllocationsPerAddress
	reasonAllocationsTotal                    // an allocation over MaxAllocations
	reasonUserQuota                           // an allocation over a username's MaxAllocationsPerUser or byte quota
	reasonRateDropped                         // a datagram over its allocation's RateBytesPerSecond
	reasonTCP                                 // a TCP allocation or connection (RFC 6062)
	numReasons

	reasonNone reason = -1 // not refused
)

var reasonNames = [numReasons]string{
	reasonAuth:                  "auth",
	reasonExpired:               "expired",
	reasonScope:                 "scope",
	reasonOwnAddress:            "own-address",
	reasonPeerDenied:            "peer-denied",
	reasonPermissionsCap:        "permissions-cap",
	reasonChannelsCap:           "channels-cap",
	reasonAllocationsPerAddress: "allocations-per-address",
	reasonAllocationsTotal:      "allocations-total",
	reasonUserQuota:             "user-quota",
	reasonRateDropped:           "rate-dropped",
	reasonTCP:                   "tcp",
}

func (r reason) String() string { return reasonNames[r] }

// refusals counts the relay's refusals by reason.
type refusals [numReasons]atomic.Int64

// Stats is what a relay has done since it started.
type Stats struct {
	Allocations        int64 // live allocations
	AllocationsTotal   int64 // allocations made
	AllocationsExpired int64 // allocations closed because their credential expired
	Users              int64 // usernames tracked (live allocations or unexpired)

	RefusedAuth                  int64 // requests with a missing, malformed, too long or forged credential
	RefusedExpired               int64 // requests with an expired credential
	RefusedScope                 int64 // permissions and datagrams to peers outside the credential's scope (unscoped: outside AllowPeers)
	RefusedOwnAddress            int64 // permissions and datagrams to the relay's own addresses (not a same-scope allocation)
	RefusedPeer                  int64 // permissions refused for a denied peer (DeniedPeer, not in AllowPeers)
	RefusedPermissionsCap        int64 // permissions over MaxPermissionsPerAllocation
	RefusedChannelsCap           int64 // channel bindings over MaxChannelsPerAllocation
	RefusedAllocationsPerAddress int64 // allocations over MaxAllocationsPerAddress
	RefusedAllocationsTotal      int64 // allocations over MaxAllocations
	RefusedQuota                 int64 // allocations refused over a username's quota
	RefusedTCP                   int64 // TCP allocations and connections refused
	DroppedOverRate              int64 // datagrams dropped over their allocation's rate

	BytesRelayed     int64 // bytes relayed, both directions
	BytesOverQuota   int64 // bytes dropped over a username's byte quota
	BytesOverRate    int64 // bytes dropped over an allocation's rate
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

// Refused returns the refusals by reason, as sightline_relay_refused_total
// labels them ("rate-dropped" counts datagrams).
func (st Stats) Refused() map[string]int64 {
	return map[string]int64{
		reasonAuth.String():                  st.RefusedAuth,
		reasonExpired.String():               st.RefusedExpired,
		reasonScope.String():                 st.RefusedScope,
		reasonOwnAddress.String():            st.RefusedOwnAddress,
		reasonPeerDenied.String():            st.RefusedPeer,
		reasonPermissionsCap.String():        st.RefusedPermissionsCap,
		reasonChannelsCap.String():           st.RefusedChannelsCap,
		reasonAllocationsPerAddress.String(): st.RefusedAllocationsPerAddress,
		reasonAllocationsTotal.String():      st.RefusedAllocationsTotal,
		reasonUserQuota.String():             st.RefusedQuota,
		reasonRateDropped.String():           st.DroppedOverRate,
		reasonTCP.String():                   st.RefusedTCP,
	}
}

// Stats returns the relay's counts now.
func (s *Server) Stats() Stats {
	r := &s.reasons
	return Stats{
		Allocations:        s.allocations.Load(),
		AllocationsTotal:   s.allocationsTotal.Load(),
		AllocationsExpired: s.allocationsExpired.Load(),
		Users:              int64(s.users.len()),

		RefusedAuth:                  r[reasonAuth].Load(),
		RefusedExpired:               r[reasonExpired].Load(),
		RefusedScope:                 r[reasonScope].Load(),
		RefusedOwnAddress:            r[reasonOwnAddress].Load(),
		RefusedPeer:                  r[reasonPeerDenied].Load(),
		RefusedPermissionsCap:        r[reasonPermissionsCap].Load(),
		RefusedChannelsCap:           r[reasonChannelsCap].Load(),
		RefusedAllocationsPerAddress: r[reasonAllocationsPerAddress].Load(),
		RefusedAllocationsTotal:      r[reasonAllocationsTotal].Load(),
		RefusedQuota:                 r[reasonUserQuota].Load(),
		RefusedTCP:                   r[reasonTCP].Load(),
		DroppedOverRate:              r[reasonRateDropped].Load(),

		BytesRelayed:     s.bytesRelayed.Load(),
		BytesOverQuota:   s.bytesOverQuota.Load(),
		BytesOverRate:    s.bytesOverRate.Load(),
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
	descAllocations        = prometheus.NewDesc("sightline_relay_allocations", "Live TURN allocations.", nil, nil)
	descAllocationsTotal   = prometheus.NewDesc("sightline_relay_allocations_total", "TURN allocations made.", nil, nil)
	descAllocationsExpired = prometheus.NewDesc("sightline_relay_expired_allocations_total", "TURN allocations closed because their credential expired.", nil, nil)
	descUsers              = prometheus.NewDesc("sightline_relay_users", "TURN usernames tracked for quotas.", nil, nil)
	descRefused            = prometheus.NewDesc("sightline_relay_refused_total",
		"Requests refused, connections closed and datagrams dropped, by reason (auth, expired, scope, own-address, peer-denied, permissions-cap, channels-cap, allocations-per-address, allocations-total, user-quota, rate-dropped, tcp; tcp-per-address, tcp-total, idle-timeout, oversize-frame, bad-frame, udp-unknown-rate, udp-queue-full).",
		[]string{"reason"}, nil)
	descBytesRelayed     = prometheus.NewDesc("sightline_relay_relayed_bytes_total", "Bytes relayed between clients and peers, both directions.", nil, nil)
	descBytesOverQuota   = prometheus.NewDesc("sightline_relay_over_quota_bytes_total", "Bytes dropped because their username was over its byte quota.", nil, nil)
	descBytesOverRate    = prometheus.NewDesc("sightline_relay_over_rate_bytes_total", "Bytes dropped because their allocation was over its rate.", nil, nil)
	descAcceptErrors     = prometheus.NewDesc("sightline_relay_accept_errors_total", "Failed accepts of TCP and TLS connections (EMFILE, ENFILE, ...), retried with backoff.", nil, nil)
	descTCPConns         = prometheus.NewDesc("sightline_relay_tcp_connections", "Live TCP and TLS client connections.", nil, nil)
	descBytesUnpermitted = prometheus.NewDesc("sightline_relay_unpermitted_bytes_total", "Bytes sent to an allocation by peers it held no permission for, dropped.", nil, nil)
)

type collector struct {
	srv *Server
}

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descAllocations, descAllocationsTotal, descAllocationsExpired, descUsers, descRefused,
		descBytesRelayed, descBytesOverQuota, descBytesOverRate, descBytesUnpermitted, descAcceptErrors, descTCPConns} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st := c.srv.Stats()
	ch <- prometheus.MustNewConstMetric(descAllocations, prometheus.GaugeValue, float64(st.Allocations))
	ch <- prometheus.MustNewConstMetric(descAllocationsTotal, prometheus.CounterValue, float64(st.AllocationsTotal))
	ch <- prometheus.MustNewConstMetric(descAllocationsExpired, prometheus.CounterValue, float64(st.AllocationsExpired))
	ch <- prometheus.MustNewConstMetric(descUsers, prometheus.GaugeValue, float64(st.Users))
	refused := st.Refused()
	for _, name := range reasonNames {
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(refused[name]), name)
	}
	for _, r := range st.listenerRefusals() {
		ch <- prometheus.MustNewConstMetric(descRefused, prometheus.CounterValue, float64(r.n), r.reason)
	}
	ch <- prometheus.MustNewConstMetric(descAcceptErrors, prometheus.CounterValue, float64(st.AcceptErrors))
	ch <- prometheus.MustNewConstMetric(descTCPConns, prometheus.GaugeValue, float64(st.TCPConns))
	ch <- prometheus.MustNewConstMetric(descBytesRelayed, prometheus.CounterValue, float64(st.BytesRelayed))
	ch <- prometheus.MustNewConstMetric(descBytesOverQuota, prometheus.CounterValue, float64(st.BytesOverQuota))
	ch <- prometheus.MustNewConstMetric(descBytesOverRate, prometheus.CounterValue, float64(st.BytesOverRate))
	ch <- prometheus.MustNewConstMetric(descBytesUnpermitted, prometheus.CounterValue, float64(st.BytesUnpermitted))
}

// refuse counts a refusal for r.
func (s *Server) refuse(r reason) { s.reasons[r].Add(1) }
