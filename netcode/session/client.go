package session

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// ClientStats counts one session on the client.
type ClientStats struct {
	snapstream.ReceiverStats
	Datagrams, Bytes uint64 // snapshot datagrams and bytes taken
	BadFraming       uint64 // datagrams whose framing was broken
	Verified         uint64 // decoded ticks that carried the server's hash
	Matched          uint64 // of those, how many hashed alike
	Mismatched       uint64 // and how many did not: a desync
	// Late counts snapshots that said none of this client's inputs was
	// there for their tick's step (SnapshotHeader.Spare -1).
	Late uint64
}

// ClientSession is the client's end of a session: not safe for concurrent use.
type ClientSession struct {
	cfg      Config
	receiver *snapstream.Receiver
	verify   bool
	seq      uint32 // sequence number of the newest input
	recent   []byte // the newest inputs, newest first
	stats    ClientStats
	mismatch func(tick uint32)
	applied  []appliedInput // by tick, as many as the receiver keeps
	// The spare-input reports of the snapshots decoded since the last
	// TakeSpare: their sum and count.
	spareSum, spareN int
}

type appliedInput struct {
	tick uint32
	seq  uint32
	ok   bool
}

// NewClientSession returns the client's end of a new session. With verify
// it asks the server for view hashes and checks every decoded tick.
func NewClientSession(cfg Config, verify bool) *ClientSession {
	if cfg.Redundancy <= 0 {
		cfg.Redundancy = 4
	}
	cfg.Redundancy = min(cfg.Redundancy, MaxRedundancy)
	return &ClientSession{
		cfg:      cfg,
		receiver: snapstream.NewReceiver(cfg.Format(cfg.Schema), cfg.Schema, cfg.History),
		verify:   verify,
		recent:   make([]byte, 0, cfg.Redundancy*cfg.InputSize),
		applied:  make([]appliedInput, max(cfg.History, snapstream.DefaultHistory)+1),
	}
}

// Reserve gives every snapshot the session keeps room for entities
// entities up front (see snapstream.Receiver.Reserve).
func (c *ClientSession) Reserve(entities int) { c.receiver.Reserve(entities) }

// OnMismatch sets a function called with the tick of every decoded snapshot
// whose hash differs from the server's.
func (c *ClientSession) OnMismatch(f func(tick uint32)) { c.mismatch = f }

// HandleSnapshot takes a snapshot datagram. It returns the packet's header
// and nil when the packet was decoded; on error nothing changed (see
// snapstream.Receiver.Receive for the reasons).
func (c *ClientSession) HandleSnapshot(p []byte) (snapstream.Header, error) {
	c.stats.Datagrams++
	c.stats.Bytes += uint64(len(p))
	sh, packet, err := ParseSnapshotHeader(p)
	if err != nil {
		c.stats.BadFraming++
		return snapstream.Header{}, err
	}
	h, err := c.receiver.Receive(packet)
	if err != nil {
		return h, err
	}
	c.applied[h.Tick%uint32(len(c.applied))] = appliedInput{tick: h.Tick, seq: sh.InputSeq, ok: sh.HasInput}
	if sh.HasSpare {
		c.spareSum += int(sh.Spare)
		c.spareN++
		if sh.Spare < 0 {
			c.stats.Late++
		}
	}
	if sh.HasHash {
		c.stats.Verified++
		if c.receiver.Snapshot(h.Tick).Hash() == sh.Hash {
			c.stats.Matched++
		} else {
			c.stats.Mismatched++
			if c.mismatch != nil {
				c.mismatch(h.Tick)
			}
			return h, fmt.Errorf("%w: tick %d", ErrDesync, h.Tick)
		}
	}
	return h, nil
}

// AppendInput records input (InputSize bytes) as the next one and appends an
// input datagram carrying it, the few before it, and the newest decoded tick.
func (c *ClientSession) AppendInput(dst []byte, input []byte) []byte {
	size := c.cfg.InputSize
	c.seq++
	keep := min(len(c.recent)/max(size, 1), c.cfg.Redundancy-1)
	// Shift the kept inputs back one slot and put the new one first.
	c.recent = c.recent[:(keep+1)*size]
	copy(c.recent[size:], c.recent[:keep*size])
	copy(c.recent[:size], input)
	return AppendInputPacket(dst, c.verify, c.receiver.Newest(), c.seq, size, c.recent)
}

// AppendAck appends an input datagram that carries the ack and the recent
// inputs again but no new input.
func (c *ClientSession) AppendAck(dst []byte) []byte {
	return AppendInputPacket(dst, c.verify, c.receiver.Newest(), c.seq, c.cfg.InputSize, c.recent)
}

// Newest returns the newest decoded tick and its state (nil before the first).
func (c *ClientSession) Newest() (uint32, *snapshot.Snapshot) {
	t := c.receiver.Newest()
	return t, c.receiver.Snapshot(t)
}

// AppliedInput returns the newest of this client's inputs the server had
// applied at tick, if the server said and the tick is still held.
func (c *ClientSession) AppliedInput(tick uint32) (uint32, bool) {
	a := c.applied[tick%uint32(len(c.applied))]
	return a.seq, a.ok && a.tick == tick
}

// TakeSpare returns the sum and the number of the spare-input reports
// (SnapshotHeader.Spare) of the snapshots decoded since the last call.
func (c *ClientSession) TakeSpare() (sum, n int) {
	sum, n = c.spareSum, c.spareN
	c.spareSum, c.spareN = 0, 0
	return sum, n
}

// InputSeq returns the sequence number of the newest input sent.
func (c *ClientSession) InputSeq() uint32 { return c.seq }

// Snapshot returns the decoded state of tick, if still held.
func (c *ClientSession) Snapshot(tick uint32) *snapshot.Snapshot { return c.receiver.Snapshot(tick) }

// Stats returns the session's counters.
func (c *ClientSession) Stats() ClientStats {
	st := c.stats
	st.ReceiverStats = c.receiver.Stats()
	return st
}
