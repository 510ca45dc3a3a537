package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// signalling collects the WebRTC server's counters at each scrape.
type signalling struct {
	stats func() webrtc.ServerStats
}

var (
	offers        = prometheus.NewDesc("sightline_offers_total", "WebRTC offers posted to /signal.", nil, nil)
	answered      = prometheus.NewDesc("sightline_offers_answered_total", "Offers answered: sessions started.", nil, nil)
	offersRefused = prometheus.NewDesc("sightline_offers_refused_total", "Offers refused, by reason: rate (429), connecting and full (503), malformed (400), too_large (413), no_route (404), admission (401, 403: no valid join token; by the token's fault in sightline_tokens_refused_total), other.", []string{"reason"}, nil)
	sessions      = prometheus.NewDesc("sightline_sessions", "Live WebRTC sessions, by state: connecting or open.", []string{"state"}, nil)
	connectFailed = prometheus.NewDesc("sightline_sessions_timed_out_total", "Sessions closed because the peer did not open its channels in time.", nil, nil)
	udpBuffer     = prometheus.NewDesc("sightline_udp_receive_buffer_bytes", "The room the kernel holds for datagrams waiting on the shared UDP socket, as it counts them (twice what it granted; net.core.rmem_max bounds that).", nil, nil)
	udpDropped    = prometheus.NewDesc("sightline_udp_receive_dropped_total", "Datagrams the kernel dropped on the shared UDP socket for want of room in its receive buffer.", nil, nil)
	udpTaken      = prometheus.NewDesc("sightline_udp_intake_datagrams_total", "Datagrams the server read off the shared UDP socket (in rounds), kept for the peers or dropped.", nil, nil)
	udpScreened   = prometheus.NewDesc("sightline_udp_intake_dropped_total", "Datagrams the server dropped off the shared UDP socket before its WebRTC stack saw them, by reason: not_peer (neither STUN nor DTLS, or DTLS from an address not a peer's), crowded (the sender had its share of the intake), limited (a sender no session expects over its rate, or all of them over theirs), truncated (too long).", []string{"reason"}, nil)
	connectedPath = prometheus.NewDesc("sightline_sessions_connected_total", "Sessions whose channels opened, by the network path ICE selected as the server sees it: host, prflx (the peer's NAT), srflx, relay (through the peer's TURN relay).", []string{"path"}, nil)
)

func (c *signalling) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{offers, answered, offersRefused, sessions, connectFailed, connectedPath, udpBuffer, udpDropped, udpTaken, udpScreened} {
		ch <- d
	}
}

func (c *signalling) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	counter(offers, st.Offers)
	counter(answered, st.Answered)
	for _, r := range []struct {
		reason string
		n      uint64
	}{
		{"rate", st.RejectedRate}, {"connecting", st.RejectedConnecting}, {"full", st.RejectedFull},
		{"malformed", st.RejectedMalformed}, {"too_large", st.RejectedTooLarge}, {"no_route", st.RejectedNoRoute},
		{"admission", st.RejectedAdmission}, {"other", st.RejectedOther},
	} {
		counter(offersRefused, r.n, r.reason)
	}
	ch <- prometheus.MustNewConstMetric(sessions, prometheus.GaugeValue, float64(st.Connecting), "connecting")
	ch <- prometheus.MustNewConstMetric(sessions, prometheus.GaugeValue, float64(st.Active), "open")
	counter(connectFailed, st.TimedOut)
	for _, path := range datachan.Paths() {
		if path == datachan.PathRelayUDP || path == datachan.PathRelayTCP || path == datachan.PathRelayTLS {
			continue // a relay's own transport is the client's to know
		}
		counter(connectedPath, st.Paths[path], path)
	}
	if n := st.Paths["unknown"]; n > 0 {
		counter(connectedPath, n, "unknown")
	}
	if st.SocketKnown {
		ch <- prometheus.MustNewConstMetric(udpBuffer, prometheus.GaugeValue, float64(st.Socket.ReceiveBuffer))
		counter(udpDropped, st.Socket.Dropped)
	}
	if in := st.Intake; in.Taken > 0 {
		counter(udpTaken, in.Taken)
		counter(udpScreened, in.NotPeer, "not_peer")
		counter(udpScreened, in.Crowded, "crowded")
		counter(udpScreened, in.Limited, "limited")
		counter(udpScreened, in.Truncated, "truncated")
	}
}
