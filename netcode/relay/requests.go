package relay

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"

	"github.com/pion/stun/v4"
)

// The TURN library asks the relay's PermissionHandler about a peer IP for
// CreatePermission and ChannelBind alike, without the request. To cap
// channels and tell a new channel from a refreshed one, the relay reads
// each request as the library receives it: the library handles one
// client connection's requests one at a time, reading the next only when
// it is done with the last, on one goroutine, so what the relay read last
// on a connection is the request the PermissionHandler is asked about.

// request is what the relay read of a TURN request.
type request struct {
	method  stun.Method // zero for what is not a STUN request
	channel uint16      // ChannelBind's CHANNEL-NUMBER
	peer    netip.AddrPort
}

// readRequest reads the method of a STUN request in b and, for a
// ChannelBind, its channel number and peer.
func readRequest(b []byte) request {
	if !stun.IsMessage(b) {
		return request{}
	}
	var t stun.MessageType
	t.ReadValue(binary.BigEndian.Uint16(b[0:2]))
	if t.Class != stun.ClassRequest {
		return request{}
	}
	r := request{method: t.Method}
	if t.Method != stun.MethodChannelBind {
		return r
	}
	m := &stun.Message{Raw: append([]byte(nil), b...)}
	if err := m.Decode(); err != nil {
		return r
	}
	if v, err := m.Get(stun.AttrChannelNumber); err == nil && len(v) >= 2 {
		r.channel = binary.BigEndian.Uint16(v)
	}
	var peer stun.XORMappedAddress
	if err := peer.GetFromAs(m, stun.AttrXORPeerAddress); err == nil {
		if ip, ok := netip.AddrFromSlice(peer.IP); ok {
			r.peer = netip.AddrPortFrom(ip.Unmap(), uint16(peer.Port))
		}
	}
	return r
}

// connKey names a client's connection as the TURN library's 5-tuple does:
// the relay's address it reached and its own.
func connKey(local, remote net.Addr) string {
	return local.Network() + " " + local.String() + " " + remote.String()
}

// packetIntake is the relay's UDP socket as the TURN library reads it: it
// remembers the request read last.
type packetIntake struct {
	net.PacketConn
	last request // written and read on the library's read goroutine
}

func (p *packetIntake) ReadFrom(b []byte) (int, net.Addr, error) {
	n, addr, err := p.PacketConn.ReadFrom(b)
	if err == nil {
		p.last = readRequest(b[:n])
	}
	return n, addr, err
}

// current is the request being handled from client, and its connection's
// key.
func (p *packetIntake) current(client net.Addr) (request, string, bool) {
	return p.last, connKey(p.LocalAddr(), client), true
}

// streamIntake is a TCP or TLS listener as the TURN library reads it: each
// connection hands the library one frame a read, and remembers the
// request read last.
type streamIntake struct {
	net.Listener
	mu    sync.Mutex
	conns map[string][]*frameConn // by client address
}

func newStreamIntake(l net.Listener) *streamIntake {
	return &streamIntake{Listener: l, conns: make(map[string][]*frameConn)}
}

func (l *streamIntake) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	fc := &frameConn{Conn: c, listener: l}
	key := c.RemoteAddr().String()
	l.mu.Lock()
	l.conns[key] = append(l.conns[key], fc)
	l.mu.Unlock()
	return fc, nil
}

// current is the request being handled from client, and its connection's
// key; not ok when no connection, or more than one, is client's.
func (l *streamIntake) current(client net.Addr) (request, string, bool) {
	l.mu.Lock()
	conns := l.conns[client.String()]
	l.mu.Unlock()
	if len(conns) != 1 {
		return request{}, "", false
	}
	fc := conns[0]
	return fc.last, connKey(fc.LocalAddr(), client), true
}

func (l *streamIntake) forget(fc *frameConn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := fc.RemoteAddr().String()
	list := l.conns[key]
	for i, c := range list {
		if c == fc {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(l.conns, key)
	} else {
		l.conns[key] = list
	}
}

// tlsHandshakeTimeout bounds a TLS client's handshake, as the TURN library
// does for the *tls.Conn it no longer sees beneath frameConn.
const tlsHandshakeTimeout = 10 * time.Second

// errRequestFrame: a client sent what is not a TURN frame, or one larger than
// the library reads.
var errRequestFrame = errors.New("relay: bad TURN frame")

// frameConn is a client's TCP or TLS connection that returns one whole
// TURN frame (STUN message or ChannelData) a Read, so that the library
// never reads ahead of the request it handles.
type frameConn struct {
	net.Conn
	listener  *streamIntake
	buf       []byte
	shook     bool
	last      request // written and read on the library's read goroutine
	closeOnce sync.Once
}

// requestFrameSize is the size of the TURN frame b begins with (ChannelData
// padded to 4 bytes, as over TCP), or 0 when b does not hold its header
// yet, or -1 when b begins with no frame.
func requestFrameSize(b []byte) int {
	if len(b) < 4 {
		return 0
	}
	first := binary.BigEndian.Uint16(b[0:2])
	switch {
	case first&0xC000 == 0: // STUN
		if len(b) < 20 {
			return 0
		}
		if !stun.IsMessage(b) {
			return -1
		}
		return 20 + int(binary.BigEndian.Uint16(b[2:4]))
	case first >= 0x4000 && first <= 0x4FFF: // ChannelData
		return 4 + (int(binary.BigEndian.Uint16(b[2:4]))+3)&^3
	}
	return -1
}

func (c *frameConn) Read(p []byte) (int, error) {
	if !c.shook {
		c.shook = true
		if tc, ok := c.Conn.(*tls.Conn); ok {
			ctx, cancel := context.WithTimeout(context.Background(), tlsHandshakeTimeout)
			err := tc.HandshakeContext(ctx)
			cancel()
			if err != nil {
				return 0, fmt.Errorf("relay: TLS handshake: %w", err)
			}
		}
	}
	for {
		switch n := requestFrameSize(c.buf); {
		case n < 0 || n > len(p):
			return 0, errRequestFrame
		case n > 0 && len(c.buf) >= n:
			copy(p, c.buf[:n])
			c.last = readRequest(p[:n])
			if c.buf = c.buf[n:]; len(c.buf) == 0 {
				c.buf = nil // an idle connection holds no buffer
			}
			return n, nil
		}
		// Read into the library's buffer; a read of exactly one frame
		// (the usual) is handed on as it is, anything else kept until
		// whole.
		m, err := c.Conn.Read(p)
		if m == 0 {
			if err != nil {
				return 0, err
			}
			continue
		}
		if c.buf == nil && requestFrameSize(p[:m]) == m {
			c.last = readRequest(p[:m])
			return m, nil
		}
		c.buf = append(c.buf, p[:m]...)
	}
}

func (c *frameConn) Close() error {
	c.closeOnce.Do(func() { c.listener.forget(c) })
	return c.Conn.Close()
}
