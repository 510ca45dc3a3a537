package lan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"unicode/utf8"
)

// DefaultPort is the UDP port beacons are sent to.
const DefaultPort = 47800

// MaxName is the longest match name a beacon carries, in bytes.
const MaxName = 48

// MaxInvite is the longest invite link a beacon carries, in bytes.
const MaxInvite = 200

// magic starts every beacon: "SLB" and the format version.
var magic = [4]byte{'S', 'L', 'B', 1}

// ErrBeacon is returned for a datagram that is not a well-formed beacon.
var ErrBeacon = errors.New("lan: not a beacon")

// Beacon is what a host says about its match.
//
// On the wire: "SLB" 1, the HTTP port, the players and the most players
// (big-endian uint16 each), the name's length (a byte) and the name; then,
// if the host has an invite link, its length (a byte) and the link.
type Beacon struct {
	Name       string // the match's name, at most MaxName bytes of UTF-8
	Players    int    // players in the match now
	MaxPlayers int
	HTTPPort   uint16 // where the match's page and signalling are, on the sender's address
	// Invite is the invite link of a host reachable through a rendezvous
	// (cmd/game -host -invite), for players beyond the LAN: an http or
	// https URL of at most MaxInvite bytes of printable ASCII; "" for none.
	// It is shown, never joined by: the LAN joins at the sender's address.
	Invite string
}

// AppendBeacon appends the beacon's datagram. A name longer than MaxName
// is cut; an invite link that is not one, or longer than MaxInvite, is
// left out (a cut link would lead nowhere).
func AppendBeacon(dst []byte, b Beacon) []byte {
	name := b.Name
	for len(name) > MaxName || !utf8.ValidString(name) {
		name = name[:len(name)-1]
	}
	dst = append(dst, magic[:]...)
	dst = binary.BigEndian.AppendUint16(dst, b.HTTPPort)
	dst = binary.BigEndian.AppendUint16(dst, uint16(min(max(b.Players, 0), 0xffff)))
	dst = binary.BigEndian.AppendUint16(dst, uint16(min(max(b.MaxPlayers, 0), 0xffff)))
	dst = append(dst, byte(len(name)))
	dst = append(dst, name...)
	if validInvite(b.Invite) != nil {
		return dst
	}
	dst = append(dst, byte(len(b.Invite)))
	return append(dst, b.Invite...)
}

// validInvite checks an invite link: 1 to MaxInvite bytes of printable
// ASCII (no space) making an http or https URL with a host and no user.
func validInvite(s string) error {
	if s == "" || len(s) > MaxInvite {
		return fmt.Errorf("%w: invite link of %d bytes", ErrBeacon, len(s))
	}
	for i := range len(s) {
		if s[i] <= 0x20 || s[i] >= 0x7f {
			return fmt.Errorf("%w: invite link has a byte %#x", ErrBeacon, s[i])
		}
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Opaque != "" {
		return fmt.Errorf("%w: invite link %q is no http(s) URL", ErrBeacon, s)
	}
	return nil
}

// ParseBeacon reads a beacon's datagram.
func ParseBeacon(p []byte) (Beacon, error) {
	const head = 4 + 2 + 2 + 2 + 1
	if len(p) < head || [4]byte(p[:4]) != magic {
		return Beacon{}, fmt.Errorf("%w: no beacon header", ErrBeacon)
	}
	b := Beacon{
		HTTPPort:   binary.BigEndian.Uint16(p[4:]),
		Players:    int(binary.BigEndian.Uint16(p[6:])),
		MaxPlayers: int(binary.BigEndian.Uint16(p[8:])),
	}
	n := int(p[10])
	if n > MaxName || len(p) < head+n {
		return Beacon{}, fmt.Errorf("%w: name of %d bytes in %d", ErrBeacon, n, len(p)-head)
	}
	name, rest := p[head:head+n], p[head+n:]
	if len(rest) > 0 {
		// The invite link: its length, then exactly that many bytes.
		if m := int(rest[0]); m == 0 || len(rest) != 1+m {
			return Beacon{}, fmt.Errorf("%w: invite link of %d bytes in %d", ErrBeacon, m, len(rest)-1)
		}
		b.Invite = string(rest[1:])
		if err := validInvite(b.Invite); err != nil {
			return Beacon{}, err
		}
	}
	if !utf8.Valid(name) {
		return Beacon{}, fmt.Errorf("%w: name is not UTF-8", ErrBeacon)
	}
	for _, r := range string(name) {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return Beacon{}, fmt.Errorf("%w: control character in the name", ErrBeacon)
		}
	}
	if b.HTTPPort == 0 || b.Players > b.MaxPlayers {
		return Beacon{}, fmt.Errorf("%w: port %d, %d of %d players", ErrBeacon, b.HTTPPort, b.Players, b.MaxPlayers)
	}
	b.Name = string(name)
	return b, nil
}
