package lan

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// AnnounceConfig sets up an announcer.
type AnnounceConfig struct {
	// Port is the UDP port beacons go to (default DefaultPort).
	Port int
	// Interval between beacons (default 1 s).
	Interval time.Duration
	// Beacon returns the beacon to send now (the player count changes).
	Beacon func() Beacon
	// Logger receives send failures (default: discard).
	Logger *slog.Logger
}

// Announce broadcasts the beacon on every IPv4 network of every interface
// that is up, every Interval, until ctx ends.
func Announce(ctx context.Context, cfg AnnounceConfig) error {
	if cfg.Port == 0 {
		cfg.Port = DefaultPort
	}
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = setBroadcast(fd) })
		if err != nil {
			return err
		}
		return serr
	}}
	pc, err := lc.ListenPacket(ctx, "udp4", ":0")
	if err != nil {
		return fmt.Errorf("lan: beacon socket: %w", err)
	}
	defer pc.Close()
	t := time.NewTicker(cfg.Interval)
	defer t.Stop()
	var buf []byte
	for {
		buf = AppendBeacon(buf[:0], cfg.Beacon())
		for _, dst := range BroadcastAddrs() {
			if _, err := pc.WriteTo(buf, net.UDPAddrFromAddrPort(netip.AddrPortFrom(dst, uint16(cfg.Port)))); err != nil {
				cfg.Logger.Debug("beacon not sent", "to", dst, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// BroadcastAddrs returns the broadcast address of every IPv4 network on an
// interface that is up and not loopback.
func BroadcastAddrs() []netip.Addr {
	var out []netip.Addr
	for _, p := range LANPrefixes() {
		a := p.Masked().Addr().As4()
		bits := p.Bits()
		for i := bits; i < 32; i++ {
			a[i/8] |= 1 << (7 - i%8)
		}
		out = append(out, netip.AddrFrom4(a))
	}
	return out
}

// LANPrefixes returns the IPv4 addresses (with their networks) of every
// interface that is up and not loopback: where others on the LAN reach us.
func LANPrefixes() []netip.Prefix {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []netip.Prefix
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			ipn, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			ip, ok := netip.AddrFromSlice(ipn.IP)
			if !ok || !ip.Unmap().Is4() {
				continue
			}
			ones, _ := ipn.Mask.Size()
			if ones >= 32 {
				continue
			}
			out = append(out, netip.PrefixFrom(ip.Unmap(), ones))
		}
	}
	return out
}

// JoinURLs returns the addresses others on the LAN open to join a match
// served on httpPort.
func JoinURLs(httpPort int) []string {
	var out []string
	for _, p := range LANPrefixes() {
		out = append(out, fmt.Sprintf("http://%s", netip.AddrPortFrom(p.Addr(), uint16(httpPort))))
	}
	return out
}
