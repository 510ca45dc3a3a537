package testnet

import (
	"net"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/pion/stun/v4"
)

// STUNResponder answers every STUN binding request on a loopback socket
// with the mapped address mapped (as a NAT's STUN server would), until the
// test ends; it returns the socket's address and the count of requests
// answered.
func STUNResponder(t testing.TB, mapped netip.AddrPort) (addr string, requests *atomic.Int32) {
	t.Helper()
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	requests = new(atomic.Int32)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			req := &stun.Message{Raw: append([]byte(nil), buf[:n]...)}
			if req.Decode() != nil || req.Type != stun.BindingRequest {
				continue
			}
			requests.Add(1)
			resp, err := stun.Build(req, stun.BindingSuccess,
				&stun.XORMappedAddress{IP: mapped.Addr().AsSlice(), Port: int(mapped.Port())}, stun.Fingerprint)
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = pc.WriteTo(resp.Raw, from)
		}
	}()
	return pc.LocalAddr().String(), requests
}
