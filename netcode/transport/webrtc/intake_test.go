//go:build !js

package webrtc

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/pion/stun/v4"
)

// bindingRequest is an ICE check as a peer sends it.
func bindingRequest(t testing.TB) []byte {
	t.Helper()
	m, err := stun.Build(stun.TransactionID, stun.BindingRequest, stun.NewUsername("server:client"),
		stun.NewShortTermIntegrity("password"), stun.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	return m.Raw
}

func newTestIntake() (*intake, *knownPeers, *intakeCounters) {
	peers, count := newKnownPeers(), new(intakeCounters)
	return newIntake(peers, count), peers, count
}

// The intake keeps STUN from anyone, DTLS from the addresses the server
// wrote to, and nothing else.
func TestIntakeKeepsWhatCanBeAPeers(t *testing.T) {
	known := netip.MustParseAddrPort("198.51.100.7:5000")
	stranger := netip.MustParseAddrPort("203.0.113.9:6000")
	check := bindingRequest(t)
	record := peerDatagram([]byte("application data"))
	garbage := make([]byte, 100)
	rand.NewChaCha8([32]byte{1}).Read(garbage)
	garbage[0] = 0x80 // not STUN, not DTLS: an RTP packet's first byte
	for _, tc := range []struct {
		name string
		b    []byte
		from netip.AddrPort
		kept bool
	}{
		{"a check from a stranger", check, stranger, true},
		{"a check from a peer", check, known, true},
		{"a record from a peer", record, known, true},
		{"a record from the peer's IPv4-mapped address", record, netip.AddrPortFrom(netip.AddrFrom16(known.Addr().As16()), known.Port()), true},
		{"a record from a stranger", record, stranger, false},
		{"a record from the peer's address, another port", record, netip.AddrPortFrom(known.Addr(), 5001), false},
		{"garbage from a peer", garbage, known, false},
		{"empty", nil, known, false},
		{"a check without its cookie", bytes.Replace(check, []byte{0x21, 0x12, 0xA4, 0x42}, []byte{1, 2, 3, 4}, 1), stranger, false},
		{"a check cut short", check[:len(check)-4], stranger, false},
		{"a check with bytes after it", append(bytes.Clone(check), 0, 0, 0, 0), stranger, false},
		{"a STUN header alone", check[:stunHeader-1], stranger, false},
		{"a record of another version", append([]byte{23, 3, 3}, record[3:]...), known, false},
		{"a record longer than the datagram", record[:len(record)-1], known, false},
		{"a record of content type 19", append([]byte{19}, record[1:]...), known, false},
		{"a record header alone", record[:dtlsHeader-1], known, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, peers, count := newTestIntake()
			peers.wrote(known)
			q.add(tc.b, tc.from)
			first, n := q.take(batchSlots)
			if kept := n == 1; kept != tc.kept {
				t.Fatalf("kept %v, want %v (%+v)", kept, tc.kept, count.stats())
			}
			st := count.stats()
			if st.Taken != 1 || tc.kept && st.NotPeer != 0 || !tc.kept && st.NotPeer != 1 {
				t.Fatalf("counted %+v", st)
			}
			if tc.kept && (!bytes.Equal(q.data(first), tc.b) || q.from(first) != tc.from) {
				t.Fatalf("kept %x from %v, want %x from %v", q.data(first), q.from(first), tc.b, tc.from)
			}
		})
	}
}

// One sender's datagrams take at most its share of the intake; others
// still get in, and a take frees the share.
func TestIntakeSharesBetweenSenders(t *testing.T) {
	q, peers, count := newTestIntake()
	check := bindingRequest(t)
	record := peerDatagram(make([]byte, 1000))
	flooder := netip.MustParseAddrPort("198.51.100.7:5000")
	player := netip.MustParseAddrPort("198.51.100.8:5000")
	peers.wrote(flooder)
	peers.wrote(player)
	for range intakeSlots {
		q.add(record, flooder)
	}
	if got, want := q.pending(), intakeBytes/intakeShare/len(record); got != want {
		t.Fatalf("a known peer's flood kept %d datagrams, want its share, %d", got, want)
	}
	q.add(record, player)
	if q.pending() != intakeBytes/intakeShare/len(record)+1 {
		t.Fatal("another peer's datagram was not kept")
	}
	// Strangers' checks: each subscriber (an IPv4 address, an IPv6 /64)
	// its share, all of them together theirs.
	for port := range uint16(1000) {
		q.add(check, netip.AddrPortFrom(netip.MustParseAddr("203.0.113.9"), port))
		q.add(check, netip.AddrPortFrom(netip.MustParseAddr("2001:db8:1:2::1"), port))
		q.add(check, netip.AddrPortFrom(netip.MustParseAddr("2001:db8:1:2::2"), port))
	}
	perSubscriber := unknownShareBytes / len(check)
	if got, want := q.pending(), intakeBytes/intakeShare/len(record)+1+2*perSubscriber; got != want {
		t.Fatalf("%d kept after 3000 checks from an address and a /64, want %d", got, want)
	}
	for i := range intakeBytes / unknownShareBytes {
		q.add(check, netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), 1))
	}
	if q.unknown > intakeBytes/unknownShare {
		t.Fatalf("strangers hold %d bytes, more than their share %d", q.unknown, intakeBytes/unknownShare)
	}
	q.add(record, player)
	if st := count.stats(); st.Crowded == 0 || st.NotPeer != 0 {
		t.Fatalf("counted %+v", st)
	}
	// Taken, the flooder's datagrams free its share.
	before := q.pending()
	for q.pending() > 0 {
		q.take(batchSlots)
	}
	q.take(batchSlots) // let the last batch go
	q.add(record, flooder)
	if q.pending() != 1 {
		t.Fatalf("after %d taken, the flooder's next datagram was not kept", before)
	}
}

// Senders no session expects get in at a bounded rate: a subscriber's
// Binding requests beyond its rate are dropped, another subscriber's still
// get in, all of them together are held to their rate, a known peer is
// not limited, and STUN other than a Binding request from a stranger is
// not a peer's.
func TestIntakeLimitsStrangersRate(t *testing.T) {
	q, peers, count := newTestIntake()
	check := bindingRequest(t)
	t0 := time.Unix(1_796_000_000, 0)
	q.base = t0
	flooder := netip.MustParseAddr("203.0.113.9")
	kept := func() int {
		n := 0
		for q.pending() > 0 {
			_, k := q.take(batchSlots)
			n += k
		}
		return n
	}
	// One second of a 100,000 a second flood from one address, in 1 ms
	// steps: its burst and a second of its rate get in.
	for ms := range 1000 {
		q.setNow(t0.Add(time.Duration(ms) * time.Millisecond))
		for i := range 100 {
			q.add(check, netip.AddrPortFrom(flooder, uint16(1000+i)))
		}
		kept() // rounds take what was kept
	}
	st := count.stats()
	if in := st.Taken - st.Limited; in > unknownBurst+unknownRate || in < unknownRate {
		t.Fatalf("of 100,000 checks from one address in a second, %d got in, want %d to %d (%+v)", in, unknownRate, unknownBurst+unknownRate, st)
	}
	// Another address is not held to the flooder's rate.
	q.setNow(t0.Add(time.Second))
	q.add(check, netip.MustParseAddrPort("198.51.100.20:4000"))
	if kept() != 1 {
		t.Fatal("another address's check was dropped with the flooder's")
	}
	// A known peer is not limited at all.
	player := netip.MustParseAddrPort("198.51.100.8:5000")
	peers.wrote(player)
	for range 1000 {
		q.add(check, player)
	}
	if n := kept(); n < 1000 {
		t.Fatalf("a known peer's 1000 checks: %d kept", n)
	}
	// Many addresses together: their rate, not each one's.
	before := count.stats()
	for ms := range 1000 {
		q.setNow(t0.Add(2*time.Second + time.Duration(ms)*time.Millisecond))
		for i := range 100 {
			q.add(check, netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i), byte(ms)}), 1))
		}
		kept()
	}
	st = count.stats()
	in := (st.Taken - before.Taken) - (st.Limited - before.Limited)
	if in > unknownAllBurst+unknownAllRate+1 {
		t.Fatalf("100,000 checks from 25,600 addresses in a second: %d got in, want at most %d", in, unknownAllBurst+unknownAllRate)
	}
	// A stranger's STUN that is not a Binding request is not a peer's.
	alloc := bytes.Clone(check)
	alloc[1] = 3 // Allocate
	q.add(alloc, netip.MustParseAddrPort("198.51.100.30:4000"))
	if kept() != 0 || count.stats().NotPeer != 1 {
		t.Fatalf("a stranger's Allocate request: %+v", count.stats())
	}
}

// The intake hands out what it kept in order, whole, across takes that
// leave some behind (compact) and takes that empty it (reset).
func TestIntakeInOrder(t *testing.T) {
	q, peers, _ := newTestIntake()
	rng := rand.New(rand.NewPCG(3, 4))
	var want [][]byte
	var sent int
	add := func(n int) {
		for range n {
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(sent % 200)}), 1)
			peers.wrote(from)
			b := make([]byte, 8+rng.IntN(1200))
			binary.BigEndian.PutUint32(b, uint32(sent))
			d := peerDatagram(b)
			q.add(d, from)
			want = append(want, d)
			sent++
		}
	}
	var got int
	for round := range 200 {
		add(rng.IntN(60))
		for k := rng.IntN(4); k > 0 || round%7 == 0 && q.pending() > 0; k-- {
			first, n := q.take(batchSlots)
			for i := first; i < first+n; i++ {
				if !bytes.Equal(q.data(i), want[got]) {
					t.Fatalf("round %d: datagram %d handed out wrong", round, got)
				}
				got++
			}
		}
	}
	if got == 0 || got+q.pending() != sent {
		t.Fatalf("%d handed out, %d pending, of %d", got, q.pending(), sent)
	}
}

// An address is known from the server's write to it until
// knownPeerEpochs epochs pass without one.
func TestKnownPeersForget(t *testing.T) {
	k := newKnownPeers()
	a := netip.MustParseAddrPort("[::ffff:198.51.100.7]:5000")
	b := netip.MustParseAddrPort("198.51.100.8:5000")
	k.wrote(a)
	k.wrote(b)
	for e := range knownPeerEpochs - 1 {
		k.nextEpoch()
		k.wrote(b)
		if !k.known(netip.MustParseAddrPort("198.51.100.7:5000")) || !k.known(b) {
			t.Fatalf("epoch %d: forgotten too soon", e+1)
		}
	}
	k.nextEpoch()
	if k.known(a) || !k.known(b) {
		t.Fatalf("after %d epochs: a known %v (want false), b known %v (want true)", knownPeerEpochs, k.known(a), k.known(b))
	}
}

// Whatever comes off the network, the intake neither panics nor hands
// out anything but whole datagrams it kept, and its shares add up.
func FuzzIntake(f *testing.F) {
	f.Add(bindingRequest(f), uint8(0), uint16(1))
	f.Add(peerDatagram([]byte("x")), uint8(1), uint16(2))
	f.Add([]byte{0, 1, 0, 0, 0x21, 0x12, 0xA4, 0x42}, uint8(2), uint16(3))
	f.Fuzz(func(t *testing.T, b []byte, who uint8, ops uint16) {
		q, peers, count := newTestIntake()
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, who % 4}), uint16(who))
		if who&1 == 1 {
			peers.wrote(from)
		}
		var kept int
		for op := range ops % 512 {
			if op%5 == 4 {
				first, n := q.take(int(op % 40))
				for i := first; i < first+n; i++ {
					if !bytes.Equal(q.data(i), b) || q.from(i) != from {
						t.Fatal("handed out what was not added")
					}
				}
				continue
			}
			before := q.pending()
			q.add(b, from)
			kept += q.pending() - before
		}
		st := count.stats()
		if st.Taken != uint64(ops%512-ops%512/5) || st.Taken != uint64(kept)+st.NotPeer+st.Crowded {
			t.Fatalf("counted %+v, kept %d", st, kept)
		}
		held := 0
		for _, h := range q.held {
			held += h
		}
		pending := 0
		for i := q.first; i < len(q.entries); i++ {
			pending += int(q.entries[i].n)
		}
		if held != pending || q.used > len(q.arena) {
			t.Fatalf("shares hold %d bytes, pending %d", held, pending)
		}
	})
}

// Screening garbage costs tens of nanoseconds and allocates nothing.
func BenchmarkIntakeGarbage(b *testing.B) {
	q, _, _ := newTestIntake()
	garbage := make([]byte, 100)
	rand.NewChaCha8([32]byte{2}).Read(garbage)
	garbage[0] = 0x80
	from := netip.MustParseAddrPort("203.0.113.9:6000")
	b.ReportAllocs()
	for b.Loop() {
		q.add(garbage, from)
	}
}

// A known peer's datagram in and out of the intake allocates nothing.
func BenchmarkIntakePeer(b *testing.B) {
	q, peers, _ := newTestIntake()
	d := peerDatagram(make([]byte, 100))
	from := netip.MustParseAddrPort("198.51.100.7:5000")
	peers.wrote(from)
	b.ReportAllocs()
	for b.Loop() {
		for range 16 {
			q.add(d, from)
		}
		q.take(16)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(16*b.N), "ns/datagram")
}
