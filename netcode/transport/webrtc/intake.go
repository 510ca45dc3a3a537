//go:build !js

package webrtc

import (
	"encoding/binary"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/netcode/ratelimit"
)

// The intake: what a round socket takes off the kernel's queue and keeps
// for pion until the next round.
//
// Between rounds datagrams wait in the kernel's receive buffer, which a
// stock Linux host keeps to 416 KiB: some 500 datagrams of 100 bytes, or 5
// ms of a 100,000 a second flood. Whatever comes beyond is dropped by the
// kernel, players' datagrams and the flood's alike. So the socket is also
// drained between rounds as often as its traffic needs (pacing), into an
// intake of its own, and only what can be a peer's gets in:
//
//   - STUN and DTLS, by their first bytes and headers (RFC 7983's
//     demultiplexing, with the fields each header must have): anything
//     else is dropped, which takes nearly all garbage;
//   - from an address the server has written to lately (a known peer:
//     the server answers ICE checks only with the credentials of a
//     session it admitted), STUN or DTLS; from any other, only a STUN
//     Binding request, which is how every peer begins, and at a bounded
//     rate: unknownRate a second from one subscriber (an IPv4 address or
//     an IPv6 /64) and unknownAllRate from all of them together, each
//     with a burst. A flood of well-formed Binding requests would
//     otherwise cost the WebRTC stack a lookup (and, with a session's
//     name in it, an HMAC) apiece, and hold up the players' datagrams
//     behind it; an honest peer's ICE checks, a few tens a second while
//     it connects, stay far below;
//   - each sender at most a share of the intake: a known peer
//     intakeBytes/intakeShare, an unknown subscriber (an IPv4 address or
//     an IPv6 /64) unknownShareBytes, and the unknown ones together
//     intakeBytes/unknownShare. One sender's flood of well-formed
//     datagrams crowds out only itself.

// intakeBytes is the room the intake holds datagrams in; intakeSlots
// the most datagrams it holds.
const (
	intakeBytes = 1 << 20
	intakeSlots = 8192
)

// The shares of the intake (see above).
const (
	intakeShare       = 8
	unknownShare      = 4
	unknownShareBytes = 4 << 10
)

// The rates of unknown senders' datagrams (see above), in datagrams a
// second, and the subscribers whose rate is tracked at once (beyond, a
// new subscriber shares the rate of all).
const (
	unknownRate      = 200
	unknownBurst     = 200
	unknownAllRate   = 2000
	unknownAllBurst  = 1000
	maxUnknownTracks = 4096
)

// knownPeerLife is how long an address stays known after the server last
// wrote to it, in knownPeers epochs.
const (
	knownPeerEpochs = 4
	maxKnownPeers   = 1 << 16
)

// Why a datagram was dropped before pion saw it.
type dropReason int

const (
	dropNotPeer   dropReason = iota // neither STUN nor DTLS, or DTLS from an unknown address
	dropCrowded                     // its sender had its share of the intake, or the intake was full
	dropTruncated                   // longer than a slot (the network would drop it)
	dropLimited                     // an unknown sender over its rate, or all of them over theirs
	dropReasons
)

// IntakeStats counts the datagrams the shared UDP socket took and what it
// dropped itself (the kernel's own drops are in SocketInfo).
type IntakeStats struct {
	Taken     uint64 // datagrams read off the socket, kept or not
	NotPeer   uint64 // dropped: neither STUN nor DTLS, or DTLS from an address not a peer's
	Crowded   uint64 // dropped: the sender had its share of the intake, or it was full
	Truncated uint64 // dropped: longer than the largest datagram kept
	Limited   uint64 // dropped: an unknown sender over its rate, or the unknown ones together over theirs
}

// intakeCounters are the IntakeStats, counted by the reader and read by
// Stats.
type intakeCounters struct {
	taken atomic.Uint64
	drops [dropReasons]atomic.Uint64
}

func (c *intakeCounters) stats() IntakeStats {
	return IntakeStats{
		Taken:     c.taken.Load(),
		NotPeer:   c.drops[dropNotPeer].Load(),
		Crowded:   c.drops[dropCrowded].Load(),
		Truncated: c.drops[dropTruncated].Load(),
		Limited:   c.drops[dropLimited].Load(),
	}
}

// The first bytes of the datagrams a peer sends (RFC 7983): STUN's first
// byte is 0 to 3, a DTLS record's 20 to 63.
const (
	stunHeader       = 20
	stunMagicCookie  = 0x2112A442
	dtlsHeader       = 13
	dtlsFirstContent = 20 // change_cipher_spec
	dtlsLastContent  = 26 // ack (DTLS 1.3); 25 is tls12_cid
)

// isSTUN reports whether b is a STUN message: its type's two top bits
// zero, the magic cookie, and a length that is b's rest, a multiple of 4.
func isSTUN(b []byte) bool {
	if len(b) < stunHeader || b[0]&0xC0 != 0 {
		return false
	}
	n := int(binary.BigEndian.Uint16(b[2:4]))
	return binary.BigEndian.Uint32(b[4:8]) == stunMagicCookie && n%4 == 0 && stunHeader+n == len(b)
}

// isBindingRequest reports whether the STUN message b is a Binding
// request (method 1, class request), what an ICE agent's checks are.
func isBindingRequest(b []byte) bool { return b[0] == 0 && b[1] == 1 }

// isDTLS reports whether b begins with a DTLS record header: a content
// type, version 1.0 or 1.2 (0xFEFF, 0xFEFD), and a length within b.
func isDTLS(b []byte) bool {
	if len(b) < dtlsHeader || b[0] < dtlsFirstContent || b[0] > dtlsLastContent {
		return false
	}
	if b[1] != 0xFE || (b[2] != 0xFF && b[2] != 0xFD) {
		return false
	}
	return dtlsHeader+int(binary.BigEndian.Uint16(b[11:13])) <= len(b)
}

// knownPeers are the addresses the server wrote to lately: written by
// every goroutine that sends, read by the socket's reader. An address
// stays known knownPeerEpochs epochs after its last write (the reader
// starts an epoch every few seconds and forgets what is older).
type knownPeers struct {
	epoch atomic.Uint32
	mu    sync.RWMutex
	last  map[netip.AddrPort]*atomic.Uint32 // epoch of the last write
}

func newKnownPeers() *knownPeers {
	return &knownPeers{last: make(map[netip.AddrPort]*atomic.Uint32)}
}

// peerKey is the address a as knownPeers keeps it: an IPv4 one unmapped,
// with no zone, whichever way the socket or pion wrote it.
func peerKey(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap().WithZone(""), a.Port())
}

// wrote records a write to a.
func (k *knownPeers) wrote(a netip.AddrPort) {
	a = peerKey(a)
	epoch := k.epoch.Load()
	k.mu.RLock()
	at := k.last[a]
	k.mu.RUnlock()
	if at != nil {
		if at.Load() != epoch {
			at.Store(epoch)
		}
		return
	}
	k.mu.Lock()
	if k.last[a] == nil && len(k.last) < maxKnownPeers {
		at = new(atomic.Uint32)
		at.Store(epoch)
		k.last[a] = at
	}
	k.mu.Unlock()
}

// known reports whether the server wrote to a lately.
func (k *knownPeers) known(a netip.AddrPort) bool {
	a = peerKey(a)
	k.mu.RLock()
	at := k.last[a]
	k.mu.RUnlock()
	return at != nil
}

// nextEpoch starts an epoch, forgetting the addresses not written to in
// the last knownPeerEpochs.
func (k *knownPeers) nextEpoch() {
	epoch := k.epoch.Add(1)
	k.mu.Lock()
	for a, at := range k.last {
		if epoch-at.Load() >= knownPeerEpochs {
			delete(k.last, a)
		}
	}
	k.mu.Unlock()
}

// intakeEntry is one datagram in the intake.
type intakeEntry struct {
	from   netip.AddrPort
	sender netip.AddrPort // whose share it counts in
	off    int32
	n      int32
}

// intake is the datagrams kept for pion, in the order they came: data in
// one arena, appended to until the intake empties. Used only by the
// socket's reading goroutine.
type intake struct {
	arena   []byte
	used    int
	entries []intakeEntry
	first   int // entries[:first] are taken
	unknown int // bytes of unknown senders held
	held    map[netip.AddrPort]int
	peers   *knownPeers
	count   *intakeCounters

	// now is the time add counts rates at (monotonic nanoseconds), set
	// by the reader before each batch: setNow.
	now int64
	// unknownAll and unknownBy are the token buckets of the unknown
	// senders, all together and by subscriber.
	unknownAll tokenBucket
	unknownBy  map[netip.Addr]*tokenBucket
	base       time.Time
}

// tokenBucket holds tokens, refilled at a rate up to a burst.
type tokenBucket struct {
	tokens float64
	at     int64 // when tokens was counted, in nanoseconds
}

// allow takes a token if there is one at now.
func (b *tokenBucket) allow(now int64, rate, burst float64) bool {
	if b.at == 0 {
		b.tokens, b.at = burst, now
	}
	if now > b.at {
		b.tokens = min(burst, b.tokens+float64(now-b.at)*rate/1e9)
		b.at = now
	}
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// setNow sets the time the next datagrams are counted at.
func (q *intake) setNow(t time.Time) { q.now = int64(t.Sub(q.base)) + 1 }

// unknownAllowed takes a token from the buckets of sub and of all the
// unknown senders, if both have one.
func (q *intake) unknownAllowed(sub netip.Addr) bool {
	b := q.unknownBy[sub]
	if b == nil {
		if len(q.unknownBy) >= maxUnknownTracks {
			q.forgetFullBuckets()
		}
		if len(q.unknownBy) < maxUnknownTracks {
			b = new(tokenBucket)
			q.unknownBy[sub] = b
		}
	}
	if b != nil && !b.allow(q.now, unknownRate, unknownBurst) {
		return false
	}
	return q.unknownAll.allow(q.now, unknownAllRate, unknownAllBurst)
}

// forgetFullBuckets forgets the subscribers whose buckets would be full
// by now: quiet long enough that a new bucket is the same.
func (q *intake) forgetFullBuckets() {
	for sub, b := range q.unknownBy {
		if b.tokens+float64(q.now-b.at)*unknownRate/1e9 >= unknownBurst {
			delete(q.unknownBy, sub)
		}
	}
}

func newIntake(peers *knownPeers, count *intakeCounters) *intake {
	return &intake{
		arena:     make([]byte, intakeBytes),
		entries:   make([]intakeEntry, 0, intakeSlots),
		held:      make(map[netip.AddrPort]int),
		peers:     peers,
		count:     count,
		unknownBy: make(map[netip.Addr]*tokenBucket),
		base:      time.Now(),
	}
}

// add keeps b from from if it can be a peer's and its sender has room,
// and counts it either way.
func (q *intake) add(b []byte, from netip.AddrPort) {
	q.count.taken.Add(1)
	stun := isSTUN(b)
	if !stun && !isDTLS(b) {
		q.count.drops[dropNotPeer].Add(1)
		return
	}
	sender, share := from, intakeBytes/intakeShare
	known := q.peers.known(from)
	if !known {
		if !stun || !isBindingRequest(b) {
			q.count.drops[dropNotPeer].Add(1)
			return
		}
		sub := ratelimit.SubscriberAddr(from.Addr())
		if !q.unknownAllowed(sub) {
			q.count.drops[dropLimited].Add(1)
			return
		}
		sender, share = netip.AddrPortFrom(sub, 0), unknownShareBytes
		if q.unknown+len(b) > intakeBytes/unknownShare {
			q.count.drops[dropCrowded].Add(1)
			return
		}
	}
	held := q.held[sender]
	if held+len(b) > share || len(q.entries) == cap(q.entries) || q.used+len(b) > len(q.arena) {
		q.count.drops[dropCrowded].Add(1)
		return
	}
	q.held[sender] = held + len(b)
	if !known {
		q.unknown += len(b)
	}
	copy(q.arena[q.used:], b)
	q.entries = append(q.entries, intakeEntry{from: from, sender: sender, off: int32(q.used), n: int32(len(b))})
	q.used += len(b)
}

// pending is how many datagrams are kept and not yet taken.
func (q *intake) pending() int { return len(q.entries) - q.first }

// take takes up to max of the kept datagrams, returning the first and how
// many: entries[first:first+n], whose data stays as it is until the next
// take. What earlier takes took is let go of, and when nothing is left
// the intake starts again from empty.
func (q *intake) take(max int) (first, n int) {
	switch {
	case q.first == len(q.entries):
		q.reset()
	case q.first > 0 && q.used > len(q.arena)/2:
		q.compact()
	}
	n = min(max, q.pending())
	first = q.first
	for i := first; i < first+n; i++ {
		e := &q.entries[i]
		if e.sender.Port() == 0 {
			q.unknown -= int(e.n)
		}
		q.held[e.sender] -= int(e.n)
	}
	q.first += n
	return first, n
}

// reset empties the intake, whose entries are all taken.
func (q *intake) reset() {
	q.used, q.first, q.unknown = 0, 0, 0
	q.entries = q.entries[:0]
	clear(q.held)
}

// compact moves what is not yet taken to the front, for an intake that
// did not empty for a while.
func (q *intake) compact() {
	start := q.entries[q.first].off
	copy(q.arena, q.arena[start:q.used])
	q.used -= int(start)
	n := copy(q.entries, q.entries[q.first:])
	q.entries = q.entries[:n]
	for i := range q.entries {
		q.entries[i].off -= start
	}
	q.first = 0
}

// data is entry i's bytes; from its sender.
func (q *intake) data(i int) []byte {
	e := &q.entries[i]
	return q.arena[e.off : e.off+e.n]
}

func (q *intake) from(i int) netip.AddrPort { return q.entries[i].from }
