package main

import (
	"log/slog"
	"net/netip"
	"strings"
)

// joinLine is one line of the log saying where players join.
type joinLine struct {
	msg   string
	attrs []any
}

// outsideSources are the ways the server learnt the public addresses
// players outside its LAN reach it at.
type outsideSources struct {
	// scheme is the players' URL scheme: http, or https with -tls-cert.
	scheme string
	// httpPort is the port of the HTTP listener players join on.
	httpPort int
	// publicIPs are the addresses -public-ip named.
	publicIPs []string
	// agonesIPs are the addresses the Agones GameServer named.
	agonesIPs []string
	// stunServer is -stun (or the one -invite implied); stunAddr the
	// address it saw the UDP socket at, invalid when it did not answer.
	stunServer string
	stunAddr   netip.AddrPort
}

// outsideJoins returns one log line per public address and the way it was
// learnt: "players outside join at URL" with via=-public-ip, -stun or
// agones. The invite link of -invite is logged when the rendezvous gives
// it (see inviteLine).
func outsideJoins(s outsideSources) []joinLine {
	var lines []joinLine
	add := func(ip, via string, extra ...any) {
		a, err := netip.ParseAddr(strings.TrimSpace(ip))
		if err != nil {
			return
		}
		u := s.scheme + "://" + netip.AddrPortFrom(a.Unmap(), uint16(s.httpPort)).String()
		attrs := append([]any{"via", via}, extra...)
		attrs = append(attrs, "browser", u+"/", "desktop", "go run ./cmd/game -join "+u)
		lines = append(lines, joinLine{msg: "players outside join at " + u, attrs: attrs})
	}
	for _, ip := range s.publicIPs {
		add(ip, "-public-ip")
	}
	for _, ip := range s.agonesIPs {
		add(ip, "agones")
	}
	if s.stunAddr.IsValid() {
		add(s.stunAddr.Addr().String(), "-stun", "stun", s.stunServer, "udp_seen_at", s.stunAddr.String())
	}
	return lines
}

// inviteLine is the log line of the invite link a rendezvous gave.
func inviteLine(url string) joinLine {
	return joinLine{msg: "invite link: " + url, attrs: []any{"url", url, "desktop", "go run ./cmd/game -join " + url, "browser", url + "/"}}
}

// logJoins logs lines at Info.
func logJoins(log *slog.Logger, lines ...joinLine) {
	for _, l := range lines {
		log.Info(l.msg, l.attrs...)
	}
}
