package lan

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// Match is a match heard on the LAN.
type Match struct {
	Beacon
	// From is the address the beacon came from.
	From netip.Addr
	// URL is where to join: the sender's address and the beacon's port.
	URL string
	// Seen is when the newest beacon arrived.
	Seen time.Time
}

// Browser listens for beacons and keeps the matches heard in the last
// Expiry. It holds at most MaxMatches; more senders are ignored.
type Browser struct {
	pc      net.PacketConn
	mu      sync.Mutex
	matches map[netip.AddrPort]Match // by sender address and HTTP port
	bad     uint64
}

// Expiry is how long a match stays listed after its last beacon.
const Expiry = 3 * time.Second

// MaxMatches bounds the matches a Browser lists.
const MaxMatches = 64

// Listen starts listening for beacons on port (0: DefaultPort) until ctx ends.
func Listen(ctx context.Context, port int) (*Browser, error) {
	if port == 0 {
		port = DefaultPort
	}
	var lc net.ListenConfig
	pc, err := lc.ListenPacket(ctx, "udp4", fmt.Sprintf(":%d", port))
	if err != nil {
		return nil, fmt.Errorf("lan: listen for beacons: %w", err)
	}
	b := &Browser{pc: pc, matches: make(map[netip.AddrPort]Match)}
	go func() {
		<-ctx.Done()
		pc.Close()
	}()
	go b.read()
	return b, nil
}

func (b *Browser) read() {
	buf := make([]byte, 512)
	for {
		n, from, err := b.pc.ReadFrom(buf)
		if err != nil {
			return
		}
		ua, ok := from.(*net.UDPAddr)
		if !ok {
			continue
		}
		b.take(buf[:n], ua.AddrPort().Addr().Unmap(), time.Now())
	}
}

// take records one datagram from addr.
func (b *Browser) take(p []byte, addr netip.Addr, now time.Time) {
	bc, err := ParseBeacon(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		b.bad++
		return
	}
	key := netip.AddrPortFrom(addr, bc.HTTPPort)
	if _, known := b.matches[key]; !known && len(b.matches) >= MaxMatches {
		b.expire(now)
		if len(b.matches) >= MaxMatches {
			b.bad++
			return
		}
	}
	b.matches[key] = Match{Beacon: bc, From: addr, URL: "http://" + key.String(), Seen: now}
}

func (b *Browser) expire(now time.Time) {
	for k, m := range b.matches {
		if now.Sub(m.Seen) > Expiry {
			delete(b.matches, k)
		}
	}
}

// Matches returns the matches heard in the last Expiry, by name then address.
func (b *Browser) Matches() []Match {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.expire(time.Now())
	out := make([]Match, 0, len(b.matches))
	for _, m := range b.matches {
		out = append(out, m)
	}
	slices.SortFunc(out, func(x, y Match) int {
		if x.Name != y.Name {
			if x.Name < y.Name {
				return -1
			}
			return 1
		}
		return x.From.Compare(y.From)
	})
	return out
}

// Rejected counts datagrams that were not beacons, or came from too many senders.
func (b *Browser) Rejected() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.bad
}
