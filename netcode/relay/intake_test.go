package relay

import (
	"encoding/binary"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/stun/v4"

	"github.com/sightline-game/sightline/netcode/iceservers"
)

// allocateRequest is an Allocate request without a credential, which the
// relay answers with a 401.
func allocateRequest(t testing.TB) []byte {
	t.Helper()
	m, err := stun.Build(stun.TransactionID, stun.NewType(stun.MethodAllocate, stun.ClassRequest),
		stun.RawAttribute{Type: stun.AttrRequestedTransport, Value: []byte{17, 0, 0, 0}}, stun.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	return m.Raw
}

// flooder sends Allocate requests from several loopback addresses and
// counts the answers each gets.
type flooder struct {
	conns    []net.PacketConn
	answered []atomic.Int64
	answer   atomic.Int64 // size of an answer
	sent     atomic.Int64
	wg       sync.WaitGroup
}

func startFlooder(t *testing.T, sources int) *flooder {
	t.Helper()
	f := &flooder{answered: make([]atomic.Int64, sources)}
	for i := range sources {
		c, err := net.ListenPacket("udp4", fmt.Sprintf("127.0.0.%d:0", i+2))
		if err != nil {
			t.Fatal(err)
		}
		f.conns = append(f.conns, c)
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			buf := make([]byte, 2048)
			for {
				n, _, err := c.ReadFrom(buf)
				if err != nil {
					return
				}
				f.answer.Store(int64(n))
				f.answered[i].Add(1)
			}
		}()
	}
	t.Cleanup(func() {
		for _, c := range f.conns {
			c.Close()
		}
		f.wg.Wait()
	})
	return f
}

// flood sends rate requests a second to to, from each source in turn, for
// d; it returns when it sent its last.
func (f *flooder) flood(t *testing.T, to net.Addr, rate int, d time.Duration) {
	req := allocateRequest(t)
	const tick = time.Millisecond
	perTick := rate / int(time.Second/tick)
	start := time.Now()
	next := start
	for i := 0; time.Since(start) < d; {
		for range perTick {
			f.conns[i%len(f.conns)].WriteTo(req, to)
			f.sent.Add(1)
			i++
		}
		next = next.Add(tick)
		time.Sleep(time.Until(next))
	}
}

func (f *flooder) total() int64 {
	var n int64
	for i := range f.answered {
		n += f.answered[i].Load()
	}
	return n
}

// TestFloodOfUnknownAllocates floods the relay's UDP socket with Allocate
// requests from unknown sources while a client relays through its
// allocation: the client's datagrams all arrive, and the relay answers
// the flood no more than its buckets allow.
func TestFloodOfUnknownAllocates(t *testing.T) {
	const (
		rate, burst               = 200, 20
		ratePerAddr, burstPerAddr = 100, 10
		sources                   = 8
		floodRate                 = 40000
		window                    = 3 * time.Second
		messages                  = 300
	)
	secret := newSecret(t)
	s := startRelay(t, secret, func(c *Config) {
		c.AllowPeers = loopbackOnly
		c.UDPReadBuffer = 212992 // a stock Linux host's net.core.rmem_max
		c.UnknownRate, c.UnknownBurst = rate, burst
		c.UnknownRatePerAddr, c.UnknownBurstPerAddr = ratePerAddr, burstPerAddr
	})
	peer := startEcho(t)
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	c := dialUDP(t, s, cred.Username, cred.Password)
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	defer relayed.Close()
	roundTrip(t, relayed, peer.conn.LocalAddr(), []byte("before the flood"))

	// The client's echoes, by message number.
	var got [messages]atomic.Bool
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		buf := make([]byte, 2048)
		for {
			n, _, err := relayed.ReadFrom(buf)
			if err != nil {
				return
			}
			if n == 8 {
				if i := binary.BigEndian.Uint64(buf[:8]); i < messages {
					got[i].Store(true)
				}
			}
		}
	}()

	f := startFlooder(t, sources)
	floodDone := make(chan time.Duration)
	go func() {
		start := time.Now()
		f.flood(t, s.Addr(), floodRate, window)
		floodDone <- time.Since(start)
	}()
	time.Sleep(100 * time.Millisecond)
	interval := (window - 400*time.Millisecond) / messages
	for i := range uint64(messages) {
		var msg [8]byte
		binary.BigEndian.PutUint64(msg[:], i)
		if _, err := relayed.WriteTo(msg[:], peer.conn.LocalAddr()); err != nil {
			t.Fatalf("WriteTo: %v", err)
		}
		time.Sleep(interval)
	}
	elapsed := <-floodDone
	time.Sleep(300 * time.Millisecond)
	relayed.SetReadDeadline(time.Now())
	<-readerDone

	arrived := 0
	for i := range got {
		if got[i].Load() {
			arrived++
		}
	}
	answered := f.total()
	// The answers the buckets allow over the flood (and the 300 ms after
	// it, for answers still on their way).
	secs := (elapsed + 300*time.Millisecond).Seconds()
	allowed := burst + rate*secs
	st := s.Stats()
	t.Logf("flood: %d Allocate requests (%d bytes each) from %d addresses in %v; %d answered (%d bytes each), %d dropped unread; the client's datagrams: %d of %d arrived",
		f.sent.Load(), len(allocateRequest(t)), sources, elapsed.Round(time.Millisecond), answered, f.answer.Load(), st.DroppedUDPUnknown, arrived, messages)
	// A margin a machine with both cores busy keeps: the datagrams cross
	// the relay twice each way, and a starved reader loses a few to the
	// kernel whatever the intake does (without it, the flood crowds them
	// out of the socket's buffer).
	if arrived < messages*90/100 {
		t.Errorf("%d of %d of the client's datagrams arrived during the flood, want >= 90%%", arrived, messages)
	}
	if float64(answered) > allowed {
		t.Errorf("the relay answered %d unknown requests in %.1f s, more than its buckets allow (%.0f)", answered, secs, allowed)
	}
	for i := range f.answered {
		if n := f.answered[i].Load(); float64(n) > burstPerAddr+ratePerAddr*secs {
			t.Errorf("the relay answered 127.0.0.%d %d times in %.1f s, more than its bucket allows (%.0f)", i+2, n, secs, burstPerAddr+ratePerAddr*secs)
		}
	}
	if st.DroppedUDPUnknown == 0 {
		t.Error("no datagram counted dropped")
	}
	if m := gather(t, s); m[`sightline_relay_refused_total{reason="udp-unknown-rate"}`] != float64(st.DroppedUDPUnknown) {
		t.Errorf("metrics = %v", m)
	}
}

func TestRelaysToClient(t *testing.T) {
	build := func(typ stun.MessageType) []byte {
		m, err := stun.Build(stun.TransactionID, typ)
		if err != nil {
			t.Fatal(err)
		}
		return m.Raw
	}
	for _, tt := range []struct {
		name string
		p    []byte
		want bool
	}{
		{"Allocate success", build(stun.NewType(stun.MethodAllocate, stun.ClassSuccessResponse)), true},
		{"Refresh success", build(stun.NewType(stun.MethodRefresh, stun.ClassSuccessResponse)), true},
		{"CreatePermission success", build(stun.NewType(stun.MethodCreatePermission, stun.ClassSuccessResponse)), true},
		{"ChannelBind success", build(stun.NewType(stun.MethodChannelBind, stun.ClassSuccessResponse)), true},
		{"Data indication", build(stun.NewType(stun.MethodData, stun.ClassIndication)), true},
		{"ChannelData", []byte{0x40, 0x00, 0x00, 0x04, 1, 2, 3, 4}, true},
		{"Allocate error (401)", build(stun.NewType(stun.MethodAllocate, stun.ClassErrorResponse)), false},
		{"Binding success", build(stun.BindingSuccess), false},
		{"short", []byte{0x01, 0x01}, false},
		{"STUN without its cookie", append([]byte{0x01, 0x03, 0, 0}, make([]byte, 16)...), false},
	} {
		if got := relaysToClient(tt.p); got != tt.want {
			t.Errorf("%s: relaysToClient = %v, want %v", tt.name, got, tt.want)
		}
	}
}
