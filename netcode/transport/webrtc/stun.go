//go:build !js

package webrtc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/pion/stun/v4"
)

// stunAttempts and stunFirstWait: a binding request is sent up to
// stunAttempts times, waiting stunFirstWait for its answer and twice as
// long after each loss (0.5 + 1 + 2 s).
const (
	stunAttempts  = 3
	stunFirstWait = 500 * time.Millisecond
)

// errNoMappedAddress is a STUN answer without a (XOR-)MAPPED-ADDRESS.
var errNoMappedAddress = errors.New("STUN answer names no mapped address")

// discoverPublicAddr asks the STUN server server (host:port) from pconn,
// the server's shared UDP socket, which address the other side of the
// server's NAT gives that socket: the address peers on the internet reach
// it at. It is called before the socket carries any peer's traffic;
// whatever else arrives meanwhile is dropped. It leaves pconn's read
// deadline cleared.
func discoverPublicAddr(ctx context.Context, pconn net.PacketConn, server string) (netip.AddrPort, error) {
	network := "udp4"
	if la, ok := pconn.LocalAddr().(*net.UDPAddr); ok && la.IP.To4() == nil && !la.IP.IsUnspecified() {
		network = "udp6"
	}
	raddr, err := net.ResolveUDPAddr(network, server)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("STUN server %q: %w", server, err)
	}
	defer pconn.SetReadDeadline(time.Time{})
	buf := make([]byte, 1500)
	wait := stunFirstWait
	for range stunAttempts {
		req, err := stun.Build(stun.TransactionID, stun.BindingRequest, stun.Fingerprint)
		if err != nil {
			return netip.AddrPort{}, err
		}
		if _, err := pconn.WriteTo(req.Raw, raddr); err != nil {
			return netip.AddrPort{}, fmt.Errorf("STUN request to %s: %w", raddr, err)
		}
		deadline := time.Now().Add(wait)
		if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		if err := pconn.SetReadDeadline(deadline); err != nil {
			return netip.AddrPort{}, err
		}
		for {
			n, from, err := pconn.ReadFrom(buf)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					break // lost: ask again
				}
				return netip.AddrPort{}, fmt.Errorf("STUN answer from %s: %w", raddr, err)
			}
			if addr, ok := mappedAddress(buf[:n], req.TransactionID); ok && sameUDPAddr(from, raddr) {
				return addr, nil
			}
		}
		if ctx.Err() != nil {
			return netip.AddrPort{}, ctx.Err()
		}
		wait *= 2
	}
	return netip.AddrPort{}, fmt.Errorf("STUN server %s: no answer to %d requests", raddr, stunAttempts)
}

// mappedAddress reads the mapped address of a STUN binding success
// response to transaction id, preferring XOR-MAPPED-ADDRESS.
func mappedAddress(p []byte, id [stun.TransactionIDSize]byte) (netip.AddrPort, bool) {
	if !stun.IsMessage(p) {
		return netip.AddrPort{}, false
	}
	m := &stun.Message{Raw: append([]byte(nil), p...)}
	if err := m.Decode(); err != nil || m.Type != stun.BindingSuccess || m.TransactionID != id {
		return netip.AddrPort{}, false
	}
	var xor stun.XORMappedAddress
	if err := xor.GetFrom(m); err == nil {
		return toAddrPort(xor.IP, xor.Port)
	}
	var plain stun.MappedAddress
	if err := plain.GetFrom(m); err == nil {
		return toAddrPort(plain.IP, plain.Port)
	}
	return netip.AddrPort{}, false
}

func toAddrPort(ip net.IP, port int) (netip.AddrPort, bool) {
	a, ok := netip.AddrFromSlice(ip)
	if !ok || port <= 0 || port > 65535 {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(a.Unmap(), uint16(port)), true
}

// sameUDPAddr reports whether a is the UDP address b.
func sameUDPAddr(a net.Addr, b *net.UDPAddr) bool {
	ua, ok := a.(*net.UDPAddr)
	return ok && ua.Port == b.Port && ua.IP.Equal(b.IP)
}
