package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"net/url"
	"time"

	"github.com/pion/stun/v4"
	"golang.org/x/net/ipv4"
)

// floodOptions is a flood on the server's UDP port while the clients
// play, as an attacker who read the port off an answer sends it: Rate
// datagrams a second of Kind, from From (unset: any of the machine's
// addresses) to To, beginning After the load test does (AfterJoined: After
// every client connected or gave up, however long that took).
type floodOptions struct {
	Rate        int
	Kind        floodKind
	To          netip.AddrPort
	From        netip.Addr
	After       time.Duration
	AfterJoined bool
}

// floodKind is what a flood's datagrams are.
type floodKind string

const (
	// floodGarbage: floodBytes random bytes, never STUN or DTLS.
	floodGarbage floodKind = "garbage"
	// floodBinding: well-formed STUN Binding requests, as an ICE check
	// with a random username and no session behind it.
	floodBinding floodKind = "binding"
	// floodAllocate: TURN Allocate requests without a credential, the
	// smallest a relay answers (allocateRequest), which it answers with a
	// 401 larger than the request: what an attacker sends a relay to
	// reflect a flood off it (-flood-to RELAY:3478).
	floodAllocate floodKind = "allocate"
)

// parseFloodKind reads -flood-kind.
func parseFloodKind(s string) (floodKind, error) {
	switch k := floodKind(s); k {
	case floodGarbage, floodBinding, floodAllocate:
		return k, nil
	}
	return "", fmt.Errorf("-flood-kind %q: garbage, binding or allocate", s)
}

// floodDatagram returns the i-th distinct datagram of a flood of kind.
func floodDatagram(kind floodKind, rng *rand.ChaCha8) []byte {
	switch kind {
	case floodAllocate:
		return allocateRequest(rng)
	case floodBinding:
		var id [stun.TransactionIDSize]byte
		rng.Read(id[:])
		var user [8]byte
		rng.Read(user[:])
		m, err := stun.Build(stun.NewTransactionIDSetter(id), stun.BindingRequest,
			stun.NewUsername(fmt.Sprintf("%x:%x", user[:4], user[4:])), stun.Fingerprint)
		if err == nil {
			return m.Raw
		}
	}
	b := make([]byte, floodBytes)
	rng.Read(b)
	b[0] = 0x80 | b[0]&0x3F // 128-191: RTP's range, nothing a data channel peer sends
	return b
}

// floodBytes is the size of a flood's datagrams; floodBatch how many go
// in one sendmmsg.
const (
	floodBytes = 100
	floodBatch = 64
)

// flood sends o's garbage until ctx ends and returns how many datagrams
// it sent.
func flood(ctx context.Context, o floodOptions) (uint64, error) {
	laddr := &net.UDPAddr{}
	if o.From.IsValid() {
		laddr.IP = o.From.AsSlice()
	}
	network := "udp4"
	if !o.To.Addr().Unmap().Is4() {
		network = "udp6"
	}
	c, err := net.ListenUDP(network, laddr)
	if err != nil {
		return 0, fmt.Errorf("flood: %w", err)
	}
	defer c.Close()
	// Writes that find the socket's buffer full are dropped, as an
	// attacker's would be: the rate is what was handed to the kernel.
	to := net.UDPAddrFromAddrPort(netip.AddrPortFrom(o.To.Addr().Unmap(), o.To.Port()))
	rng := rand.NewChaCha8([32]byte{'f', 'l', 'o', 'o', 'd'})
	msgs := make([]ipv4.Message, floodBatch)
	for i := range msgs {
		msgs[i] = ipv4.Message{Buffers: [][]byte{floodDatagram(o.Kind, rng)}, Addr: to}
	}
	batch := func(n int) (int, error) {
		if network == "udp4" {
			return ipv4.NewPacketConn(c).WriteBatch(msgs[:n], 0)
		}
		for i := range n {
			if _, err := c.WriteTo(msgs[i].Buffers[0], to); err != nil {
				return i, err
			}
		}
		return n, nil
	}
	start := time.Now()
	var sent, tried uint64
	for ctx.Err() == nil {
		due := uint64(time.Since(start).Seconds() * float64(o.Rate))
		for tried < due && ctx.Err() == nil {
			n, err := batch(int(min(due-tried, floodBatch)))
			sent += uint64(n)
			if err != nil {
				// A full socket buffer: the rest of this millisecond's
				// datagrams are lost, as on a wire.
				tried = due
				break
			}
			tried += uint64(n)
		}
		time.Sleep(time.Millisecond)
	}
	return sent, nil
}

// allocateRequest is a STUN Allocate request (RFC 8656) for a UDP
// allocation, without a credential, with a random transaction ID: a
// 20-byte header and its REQUESTED-TRANSPORT attribute, 28 bytes.
func allocateRequest(rng *rand.ChaCha8) []byte {
	b := make([]byte, 28)
	binary.BigEndian.PutUint16(b[0:2], 0x0003) // Allocate request
	binary.BigEndian.PutUint16(b[2:4], 8)
	binary.BigEndian.PutUint32(b[4:8], 0x2112A442) // the magic cookie
	rng.Read(b[8:20])
	binary.BigEndian.PutUint16(b[20:22], 0x0019) // REQUESTED-TRANSPORT
	binary.BigEndian.PutUint16(b[22:24], 4)
	b[24] = 17 // UDP
	return b
}

// floodAddrs parses -flood-to and -flood-from; an empty -flood-to is
// serverURL's host at the server's default UDP port.
func floodAddrs(serverURL, to, from string) (netip.AddrPort, netip.Addr, error) {
	var o floodOptions
	if to == "" {
		u, err := url.Parse(serverURL)
		if err != nil {
			return o.To, o.From, fmt.Errorf("-flood-to from -url: %w", err)
		}
		to = net.JoinHostPort(u.Hostname(), "8443")
	}
	ua, err := net.ResolveUDPAddr("udp", to)
	if err != nil {
		return o.To, o.From, fmt.Errorf("-flood-to: %w", err)
	}
	o.To = ua.AddrPort()
	if from != "" {
		if o.From, err = netip.ParseAddr(from); err != nil {
			return o.To, o.From, fmt.Errorf("-flood-from: %w", err)
		}
	}
	return o.To, o.From, nil
}
