package session

import (
	"encoding/binary"

	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/view"
)

// Config is what both ends of a session agree on.
type Config struct {
	// Schema of the snapshots.
	Schema *snapshot.Schema
	// Format is the wire format; each session gets its own (formats may keep
	// scratch space), so this makes one.
	Format func(*snapshot.Schema) snapstream.Format
	// History is how many ticks a delta may reach back (0 = snapstream.DefaultHistory).
	History int
	// InputSize is the size of one input in bytes.
	InputSize int
	// Redundancy is how many of the newest inputs each input datagram carries
	// (client side; 0 = 4, at most MaxRedundancy).
	Redundancy int
}

// ServerStats counts one session on the server.
type ServerStats struct {
	snapstream.SenderStats
	InputPackets    uint64 // input datagrams taken
	Inputs          uint64 // distinct inputs applied
	BadInputPackets uint64 // input datagrams dropped as malformed
}

// ServerSession is the server's end of one client: one per client, not safe
// for concurrent use.
type ServerSession struct {
	cfg     Config
	sender  *snapstream.Sender // whole snapshots, or
	views   *view.Sender       // per-client views under a budget
	verify  bool
	always  bool // hash every tick whatever the client asks
	lastSeq uint32
	applied uint32 // newest input the world applied; 0: not reported
	stats   ServerStats
}

// NewServerSession returns the server's end of a new session.
func NewServerSession(cfg Config) *ServerSession {
	return &ServerSession{cfg: cfg, sender: snapstream.NewSender(cfg.Format(cfg.Schema), cfg.Schema, cfg.History)}
}

// NewViewSession returns the server's end of a session whose snapshots are
// per-client views built by vs (interest, priorities, byte budget).
func NewViewSession(cfg Config, vs *view.Sender) *ServerSession {
	return &ServerSession{cfg: cfg, views: vs}
}

// Views returns the session's view sender, or nil.
func (s *ServerSession) Views() *view.Sender { return s.views }

func (s *ServerSession) ack(tick uint32) {
	if s.views != nil {
		s.views.Ack(tick)
	} else {
		s.sender.Ack(tick)
	}
}

// HandleInput takes an input datagram: it records the ack and the client's
// wish for hashes, and calls apply once per input not seen before, oldest
// first. A malformed datagram is dropped whole and changes nothing.
func (s *ServerSession) HandleInput(p []byte, apply func(seq uint32, input []byte)) error {
	in, err := ParseInputPacket(p, s.cfg.InputSize)
	if err != nil {
		s.stats.BadInputPackets++
		return err
	}
	s.stats.InputPackets++
	s.ack(in.Ack)
	s.verify = in.Verify || s.always
	for i := in.Count - 1; i >= 0; i-- {
		seq := in.NewestSeq - uint32(i)
		if seq <= s.lastSeq {
			continue
		}
		s.lastSeq = seq
		s.stats.Inputs++
		if apply != nil {
			apply(seq, in.Input(i))
		}
	}
	return nil
}

// AppendSnapshot appends the snapshot datagram of tick carrying view, the
// state this client is to hold after decoding, and records it as sent.
func (s *ServerSession) AppendSnapshot(dst []byte, tick uint32, view *snapshot.Snapshot) ([]byte, snapstream.Why) {
	h := SnapshotHeader{HasHash: s.verify, HasInput: s.applied != 0, InputSeq: s.applied}
	if s.verify {
		h.Hash = view.Hash()
	}
	dst = AppendSnapshotHeader(dst, h)
	return s.sender.Append(dst, tick, view)
}

// AlwaysVerify makes the session hash every tick, asked or not.
func (s *ServerSession) AlwaysVerify() { s.always, s.verify = true, true }

// AppendView builds this client's view of tick from its candidates and
// appends the snapshot datagram; with a Skipped report nothing is appended.
// The session must have been made by NewViewSession.
func (s *ServerSession) AppendView(dst []byte, tick uint32, cands []view.Candidate) ([]byte, view.Report) {
	start := len(dst)
	dst = AppendSnapshotHeader(dst, SnapshotHeader{HasHash: s.verify, HasInput: s.applied != 0, InputSeq: s.applied})
	dst, rep := s.views.Append(dst, tick, cands)
	if rep.Skipped {
		return dst[:start], rep
	}
	if s.verify {
		binary.LittleEndian.PutUint32(dst[start+1:], s.views.LastView().Hash())
	}
	return dst, rep
}

// SetAppliedInput tells the client, in the next snapshots, the newest of its
// inputs the world has applied (for prediction and reconciliation).
func (s *ServerSession) SetAppliedInput(seq uint32) { s.applied = seq }

// AckedTick returns the newest tick the client acknowledged.
func (s *ServerSession) AckedTick() uint32 {
	if s.views != nil {
		return s.views.AckedTick()
	}
	return s.sender.AckedTick()
}

// LastInputSeq returns the sequence number of the newest input applied.
func (s *ServerSession) LastInputSeq() uint32 { return s.lastSeq }

// Verify reports whether the client asked for view hashes.
func (s *ServerSession) Verify() bool { return s.verify }

// Stats returns the session's counters.
func (s *ServerSession) Stats() ServerStats {
	st := s.stats
	if s.views != nil {
		st.SenderStats = s.views.Stats().SenderStats
	} else {
		st.SenderStats = s.sender.Stats()
	}
	return st
}
