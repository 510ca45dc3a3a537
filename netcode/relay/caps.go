package relay

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// Defaults of the caps' Config fields left zero. A game client needs a
// handful of permissions and channels (its game's peers, candidates
// retried), and relays about 9 kB/s; a host whose players all come
// through its one allocation, some 9 kB/s each: the rate leaves room for
// a full match, and is a game's, not a link's (2 Mbit/s).
const (
	DefaultMaxPermissionsPerAllocation = 32
	DefaultMaxChannelsPerAllocation    = 32
	DefaultMaxAllocationsPerAddress    = 16
	DefaultMaxAllocations              = 4096
	DefaultRateBytesPerSecond          = 256 << 10
	DefaultRateBurstBytes              = 512 << 10
)

// capDefaults fills the caps left zero in cfg.
func capDefaults(cfg *Config) {
	if cfg.MaxPermissionsPerAllocation <= 0 {
		cfg.MaxPermissionsPerAllocation = DefaultMaxPermissionsPerAllocation
	}
	if cfg.MaxChannelsPerAllocation <= 0 {
		cfg.MaxChannelsPerAllocation = DefaultMaxChannelsPerAllocation
	}
	if cfg.MaxAllocationsPerAddress <= 0 {
		cfg.MaxAllocationsPerAddress = DefaultMaxAllocationsPerAddress
	}
	if cfg.MaxAllocations <= 0 {
		cfg.MaxAllocations = DefaultMaxAllocations
	}
	if cfg.RateBytesPerSecond <= 0 {
		cfg.RateBytesPerSecond = DefaultRateBytesPerSecond
	}
	if cfg.RateBurstBytes <= 0 {
		cfg.RateBurstBytes = DefaultRateBurstBytes
	}
}

// clientPrefix is the network a client's address counts against for
// MaxAllocationsPerAddress: its IPv4 address, or its IPv6 /64 (what one
// subscriber usually gets).
func clientPrefix(addr net.Addr) netip.Prefix {
	var ip netip.Addr
	switch a := addr.(type) {
	case *net.UDPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	case *net.TCPAddr:
		ip, _ = netip.AddrFromSlice(a.IP)
	default:
		if ap, err := netip.ParseAddrPort(addr.String()); err == nil {
			ip = ap.Addr()
		}
	}
	ip = ip.Unmap().WithZone("")
	if !ip.IsValid() {
		return netip.Prefix{}
	}
	bits := 32
	if ip.Is6() {
		bits = 64
	}
	p, _ := ip.Prefix(bits)
	return p
}

// rateBucket is a token bucket of bytes: it holds at most burst, and refills
// at rate a second.
type rateBucket struct {
	mu     sync.Mutex
	rate   float64
	burst  float64
	tokens float64
	last   time.Time
}

func newRateBucket(rate, burst int64, now time.Time) *rateBucket {
	return &rateBucket{rate: float64(rate), burst: float64(burst), tokens: float64(burst), last: now}
}

// take spends n bytes at now, if the bucket holds them.
func (b *rateBucket) take(n int, now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if dt := now.Sub(b.last); dt > 0 {
		b.tokens = min(b.burst, b.tokens+dt.Seconds()*b.rate)
		b.last = now
	}
	if b.tokens < float64(n) {
		return false
	}
	b.tokens -= float64(n)
	return true
}
