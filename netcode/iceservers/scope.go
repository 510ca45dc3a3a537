package iceservers

import (
	"fmt"
	"net/netip"
	"strings"
)

// MaxPeers is the most addresses a credential's scope names.
const MaxPeers = 4

// scopeMark begins a username's scope: "EXPIRY:ID;to=IP,IP".
const scopeMark = ";to="

// appendScope appends the scope naming peers to a username.
func appendScope(user string, peers []netip.Addr) string {
	if len(peers) == 0 {
		return user
	}
	var b strings.Builder
	b.WriteString(user)
	b.WriteString(scopeMark)
	for i, p := range peers {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Unmap().WithZone("").String())
	}
	return b.String()
}

// Scope returns the peers a credential's allocations may relay to, as its
// username names them ("EXPIRY:ID;to=IP[,IP...]", at most MaxPeers): a
// relay refuses every other peer (and, beside them, relays only between
// allocations whose scopes share an address). A username without a scope
// returns none and no error: an unscoped credential, which a relay allows
// only the peers its operator lists. The scope is under the password's
// HMAC with the rest of the username, so a client cannot widen it.
func Scope(username string) ([]netip.Addr, error) {
	if len(username) > maxUsername {
		return nil, ErrMalformedUsername
	}
	_, list, ok := strings.Cut(username, scopeMark)
	if !ok {
		return nil, nil
	}
	parts := strings.Split(list, ",")
	if len(parts) > MaxPeers {
		return nil, fmt.Errorf("%w: %d peers in its scope, at most %d", ErrMalformedUsername, len(parts), MaxPeers)
	}
	peers := make([]netip.Addr, 0, len(parts))
	for _, p := range parts {
		a, err := netip.ParseAddr(p)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("%w: scope %q", ErrMalformedUsername, p)
		}
		peers = append(peers, a.Unmap())
	}
	return peers, nil
}
