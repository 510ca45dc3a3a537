package serversession

import (
	"encoding/binary"

	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/view"
)

// Stats counts one session on the server.
type Stats struct {
	snapstream.SenderStats
	InputPackets    uint64 // input datagrams taken
	Inputs          uint64 // distinct inputs applied
	BadInputPackets uint64 // input datagrams dropped as malformed
}

// Session is the server's end of one client: one per client, not safe for
// concurrent use.
type Session struct {
	cfg     session.Config
	sender  *snapstream.Sender // whole snapshots, or
	views   *view.Sender       // per-client views under a budget
	verify  bool
	always  bool // hash every tick whatever the client asks
	lastSeq uint32
	newest  uint32 // the newest input of the datagram HandleInput is taking
	applied uint32 // newest input the world applied; 0: not reported
	spare   int8   // the client's spare inputs (SetInputSpare)
	pace    bool   // spare is reported
	stats   Stats
}

// New returns the server's end of a new session.
func New(cfg session.Config) *Session {
	return &Session{cfg: cfg, sender: snapstream.NewSender(cfg.Format(cfg.Schema), cfg.Schema, cfg.History)}
}

// NewView returns the server's end of a session whose snapshots are
// per-client views built by vs (interest, priorities, byte budget).
func NewView(cfg session.Config, vs *view.Sender) *Session {
	return &Session{cfg: cfg, views: vs}
}

// Views returns the session's view sender, or nil.
func (s *Session) Views() *view.Sender { return s.views }

func (s *Session) ack(tick uint32) {
	if s.views != nil {
		s.views.Ack(tick)
	} else {
		s.sender.Ack(tick)
	}
}

// HandleInput takes an input datagram: it records the ack and the client's
// wish for hashes, and calls apply once per input not seen before, oldest
// first. A malformed datagram is dropped whole and changes nothing.
func (s *Session) HandleInput(p []byte, apply func(seq uint32, input []byte)) error {
	in, err := session.ParseInputPacket(p, s.cfg.InputSize)
	if err != nil {
		s.stats.BadInputPackets++
		return err
	}
	s.stats.InputPackets++
	s.ack(in.Ack)
	s.verify = in.Verify || s.always
	s.newest = in.NewestSeq
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
func (s *Session) AppendSnapshot(dst []byte, tick uint32, view *snapshot.Snapshot) ([]byte, snapstream.Why) {
	h := s.header()
	if s.verify {
		h.Hash = view.Hash()
	}
	dst = session.AppendSnapshotHeader(dst, h)
	return s.sender.Append(dst, tick, view)
}

// AlwaysVerify makes the session hash every tick, asked or not.
func (s *Session) AlwaysVerify() { s.always, s.verify = true, true }

// AppendView builds this client's view of tick from its candidates and
// appends the snapshot datagram; with a Skipped report nothing is appended.
// The session must have been made by NewView.
func (s *Session) AppendView(dst []byte, tick uint32, cands []view.Candidate) ([]byte, view.Report) {
	start := len(dst)
	dst = session.AppendSnapshotHeader(dst, s.header())
	dst, rep := s.views.Append(dst, tick, cands)
	if rep.Skipped {
		return dst[:start], rep
	}
	if s.verify {
		binary.LittleEndian.PutUint32(dst[start+1:], s.views.LastView().Hash())
	}
	return dst, rep
}

// header returns the framing of the next snapshot datagram (its hash, if
// any, to be filled in).
func (s *Session) header() session.SnapshotHeader {
	return session.SnapshotHeader{HasHash: s.verify, HasInput: s.applied != 0, InputSeq: s.applied, HasSpare: s.pace, Spare: s.spare}
}

// SetInputSpare tells the client, in the next snapshots, how many of its
// inputs waited in the server's queue beyond the one just applied (-1: none
// came in time), for its input clock (session.SnapshotHeader.Spare).
// Values beyond an int8 are clamped.
func (s *Session) SetInputSpare(n int) {
	s.spare, s.pace = int8(min(max(n, -128), 127)), true
}

// SetAppliedInput tells the client, in the next snapshots, the newest of its
// inputs the world has applied (for prediction and reconciliation).
func (s *Session) SetAppliedInput(seq uint32) { s.applied = seq }

// AckedTick returns the newest tick the client acknowledged.
func (s *Session) AckedTick() uint32 {
	if s.views != nil {
		return s.views.AckedTick()
	}
	return s.sender.AckedTick()
}

// InputAck returns, while HandleInput calls apply for input seq, the
// newest tick the client had acknowledged when it made that input, as far
// as the server can tell: the datagram's ack less one for each newer input
// the datagram carries (a client sends a datagram a tick); 0 if unknown.
func (s *Session) InputAck(seq uint32) uint32 {
	ack, back := s.AckedTick(), s.newest-seq
	if ack <= back {
		return 0
	}
	return ack - back
}

// LastInputSeq returns the sequence number of the newest input applied.
func (s *Session) LastInputSeq() uint32 { return s.lastSeq }

// Verify reports whether the client asked for view hashes.
func (s *Session) Verify() bool { return s.verify }

// Stats returns the session's counters.
func (s *Session) Stats() Stats {
	st := s.stats
	if s.views != nil {
		st.SenderStats = s.views.Stats().SenderStats
	} else {
		st.SenderStats = s.sender.Stats()
	}
	return st
}
