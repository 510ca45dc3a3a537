package datachan

// The names of the network paths a connection can take (transport.Stats.Path),
// from the end that reports them.
const (
	PathHost     = "host"      // straight to an address on the peer's own interface
	PathPeerRefl = "prflx"     // to an address learned from the peer's own checks (its NAT's)
	PathSrvRefl  = "srflx"     // to an address the peer learned from a STUN server (its NAT's)
	PathRelayUDP = "relay-udp" // through a TURN relay this end reaches over UDP
	PathRelayTCP = "relay-tcp" // ... over TCP
	PathRelayTLS = "relay-tls" // ... over TLS
	PathRelay    = "relay"     // through a relay the peer uses; how the peer reaches it is its own
)

// PathName names the path of a selected ICE candidate pair by its
// farther-reaching candidate: a relay on this end (named with the protocol
// this end speaks to it: "udp", "tcp" or "tls"), else a relay on the far
// end, else a server-reflexive, else a peer-reflexive candidate on either
// end, else host. Types are ICE's candidate type names ("host", "srflx",
// "prflx", "relay"); unknown ones count as host.
func PathName(localType, localRelayProtocol, remoteType string) string {
	switch {
	case localType == "relay":
		switch localRelayProtocol {
		case "udp":
			return PathRelayUDP
		case "tcp":
			return PathRelayTCP
		case "tls":
			return PathRelayTLS
		}
		return PathRelay
	case remoteType == "relay":
		return PathRelay
	case localType == "srflx" || remoteType == "srflx":
		return PathSrvRefl
	case localType == "prflx" || remoteType == "prflx":
		return PathPeerRefl
	}
	return PathHost
}

// Paths lists every name PathName returns, for counters keyed by path.
func Paths() []string {
	return []string{PathHost, PathPeerRefl, PathSrvRefl, PathRelayUDP, PathRelayTCP, PathRelayTLS, PathRelay}
}
