package tag

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/interest"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/serversession"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/view"
)

// ServerConfig sets up a server. Zero fields take the defaults noted.
type ServerConfig struct {
	// Seed places the players who join.
	Seed uint64
	// RoundTicks ends the tagging after that many ticks (0: never).
	RoundTicks uint32
	// Rate is each client's snapshot budget in bytes per second (default
	// 4000); at least view.MinRate.
	Rate float64
	// ViewRadius and ViewMargin (m): a client sees the players within
	// ViewRadius of its own, until they are ViewMargin further (default 24, 3).
	ViewRadius, ViewMargin float64
	// Timeout drops a client that sent nothing for this long (default 5 s).
	Timeout time.Duration
	// OnTag, if set, hears every tag as the server sends it.
	OnTag func(Tag)
}

// PeerStats count what the server sent one client.
type PeerStats struct {
	Slot               uint16
	Snapshots, Bytes   uint64 // snapshot datagrams sent, and their bytes
	Congested, Skipped uint64 // ticks without a snapshot, and why
}

// peer is one connected client as the server loop sees it.
type peer struct {
	conn      transport.Conn
	slot      uint16
	sess      *serversession.Session
	area      *interest.Area
	members   []int32
	cands     []view.Candidate
	out       *events.Outbox
	records   *replica.Sender
	lastHeard uint32 // tick
	broken    error
	st        PeerStats
}

// Server runs one match. Add may be called from any goroutine; Step belongs
// to one.
type Server struct {
	cfg     ServerConfig
	sess    session.Config
	world   *World
	ring    *view.WorldRing
	shared  *view.Shared
	grid    *interest.Grid
	ents    interest.Entities
	tick    uint32
	joins   chan transport.Conn
	peers   []*peer
	buf     []byte
	scratch []byte
}

// NewServer returns a server with an empty plane.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Rate <= 0 {
		cfg.Rate = 4000
	}
	if cfg.ViewRadius <= 0 {
		cfg.ViewRadius, cfg.ViewMargin = 24, 3
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	sc := Session()
	s := &Server{cfg: cfg, sess: sc, world: NewWorld(cfg.Seed, cfg.RoundTicks),
		ring:  view.NewWorldRing(sc.Schema, 2*(History+1)),
		grid:  interest.NewGrid(posQuant.Top()+1, units(cfg.ViewRadius/2)),
		joins: make(chan transport.Conn, MaxPlayers),
		buf:   make([]byte, 0, transport.MaxMessageSize), scratch: make([]byte, 0, DatagramLimit)}
	s.shared = view.NewShared(s.ring, sc.Format(sc.Schema))
	if err := s.viewConfig().Validate(sc.Schema); err != nil {
		return nil, fmt.Errorf("tag server: snapshot budget: %w", err)
	}
	return s, nil
}

// units converts metres to position units.
func units(m float64) uint32 { return uint32(m / posQuant.Precision()) }

// viewConfig is each client's view sender's: datagrams of at most
// DatagramLimit, the session's framing counted against the budget.
func (s *Server) viewConfig() view.Config {
	return view.Config{History: History, Rate: s.cfg.Rate, TickRate: TickRate,
		PacketCap: DatagramLimit - session.MaxHeaderSize, Overhead: session.MaxHeaderSize}
}

// Close ends every client's connection, and those waiting to join. Step
// must not run at the same time.
func (s *Server) Close() {
	for _, p := range s.peers {
		s.world.Remove(p.slot)
		p.conn.Close()
	}
	s.peers = s.peers[:0]
	for {
		select {
		case conn := <-s.joins:
			conn.Close()
		default:
			return
		}
	}
}

// Run steps the match at TickRate, in real time, until ctx ends; it leaves
// the connections open (see Close).
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(time.Second / TickRate)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Step()
		}
	}
}

// Serve adds every connection accept returns (webrtc.Server.Accept, say)
// until accept fails, which it does once ctx ends.
func (s *Server) Serve(ctx context.Context, accept func(context.Context) (transport.Conn, error)) error {
	for {
		conn, err := accept(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("tag server: accept: %w", err)
		}
		s.Add(conn)
	}
}

// Add hands the server a new connection; it joins at the next tick.
func (s *Server) Add(conn transport.Conn) {
	select {
	case s.joins <- conn:
	default:
		conn.Close() // the queue is full: so is the plane
	}
}

// Tick returns the newest tick stepped.
func (s *Server) Tick() uint32 { return s.tick }

// World returns the match's world, for reading between steps.
func (s *Server) World() *World { return s.world }

// Peers returns the counters of the clients connected now.
func (s *Server) Peers() []PeerStats {
	out := make([]PeerStats, len(s.peers))
	for i, p := range s.peers {
		out[i] = p.st
	}
	return out
}

// Step runs one tick: joins; each client's inputs, acks and record acks;
// the world steps and is quantized into the ring; tags and the "it" record
// go to everyone; each client gets its view under its budget.
func (s *Server) Step() {
	s.tick++
	s.admit()
	live := s.peers[:0]
	for _, p := range s.peers {
		p.conn.Receive(func(ch transport.Channel, b []byte) { s.receive(p, ch, b) })
		select {
		case <-p.conn.Done():
			p.broken = transport.ErrClosed
		default:
		}
		if time.Duration(s.tick-p.lastHeard)*time.Second/TickRate > s.cfg.Timeout {
			p.broken = errors.New("timed out")
		}
		if p.broken != nil {
			s.world.Remove(p.slot)
			p.conn.Close()
			continue
		}
		live = append(live, p)
	}
	clear(s.peers[len(live):])
	s.peers = live

	s.world.Step()
	snap := s.ring.Begin(s.tick)
	s.world.Fill(snap)
	s.ring.Commit(s.tick)
	s.ents.Load(snap, FieldX, FieldY)
	s.grid.Build(s.ents.Xs, s.ents.Ys)

	s.world.TakeTags(func(t Tag) {
		if s.cfg.OnTag != nil {
			s.cfg.OnTag(t)
		}
		s.broadcast(KindTagged, appendTag(s.scratch[:0], t))
	})
	if s.world.ItChanged() {
		for _, p := range s.peers {
			s.publishIt(p)
		}
	}
	for _, p := range s.peers {
		s.send(p)
	}
}

// admit takes the connections waiting to join: each gets a player, a view
// sender and its streams, a welcome and the "it" record.
func (s *Server) admit() {
	for {
		var conn transport.Conn
		select {
		case conn = <-s.joins:
		default:
			return
		}
		slot, ok := s.world.Add()
		vs, err := view.NewSender(s.shared, s.viewConfig())
		if !ok || err != nil {
			conn.Close()
			continue
		}
		p := &peer{conn: conn, slot: slot, sess: serversession.NewView(s.sess, vs),
			area:      interest.NewArea(units(s.cfg.ViewRadius), units(s.cfg.ViewMargin), MaxPlayers),
			out:       events.NewOutbox(events.OutboxConfig{Validate: validEvent}),
			records:   replica.NewSender(replica.SenderConfig{GiveUpAfter: 3 * s.cfg.Timeout}),
			lastHeard: s.tick, st: PeerStats{Slot: slot}}
		p.sess.AlwaysVerify() // every view carries its hash, asked or not
		s.peers = append(s.peers, p)
		s.push(p, KindWelcome, binary.AppendUvarint(s.scratch[:0], uint64(slot)))
		s.publishIt(p)
	}
}

// receive handles one message from a client.
func (s *Server) receive(p *peer, ch transport.Channel, b []byte) {
	switch ch {
	case transport.Inputs:
		err := p.sess.HandleInput(b, func(_ uint32, in []byte) { s.world.SetInput(p.slot, parseInput(in)) })
		if err == nil {
			p.lastHeard = s.tick
		}
	case transport.Replicas:
		p.records.HandleAck(b) // a malformed ack is counted and dropped
	}
}

// push queues an event for one client; a client whose queue is full has
// stopped reading and is dropped.
func (s *Server) push(p *peer, kind events.Kind, body []byte) {
	if err := p.out.Push(events.Event{Kind: kind, Tick: s.tick, Body: body}); err != nil && p.broken == nil {
		p.broken = fmt.Errorf("event stream: %w", err)
	}
}

func (s *Server) broadcast(kind events.Kind, body []byte) {
	for _, p := range s.peers {
		s.push(p, kind, body)
	}
}

func (s *Server) publishIt(p *peer) {
	if it, ok := s.world.It(); ok {
		p.records.Publish(RecordIt, 0, appendIt(s.scratch[:0], it))
	}
}

// send gives one client this tick's view, its events and its due records.
func (s *Server) send(p *peer) {
	p.sess.SetAppliedInput(p.sess.LastInputSeq())
	pkt, rep := p.sess.AppendView(s.buf[:0], s.tick, s.candidates(p))
	if rep.Skipped {
		p.st.Skipped++ // a full view too soon after the last: the client acks nothing
	} else if err := p.conn.Send(transport.Snapshots, pkt); err == nil {
		p.st.Snapshots++
		p.st.Bytes += uint64(len(pkt))
	} else if errors.Is(err, transport.ErrCongested) {
		p.st.Congested++ // the next delta covers the gap
	}
	for p.broken == nil && p.out.Len() > 0 {
		var n int
		if s.buf, n = p.out.AppendNext(s.buf[:0], DatagramLimit); n == 0 {
			break
		}
		if err := p.conn.Send(transport.Events, s.buf); err != nil {
			p.broken = fmt.Errorf("event stream: %w", err) // a gap in a reliable stream
		}
	}
	now := time.Duration(s.tick) * time.Second / TickRate
	for p.broken == nil {
		var n int
		if s.buf, n = p.records.AppendDue(s.buf[:0], now, DatagramLimit); n == 0 {
			break
		}
		if err := p.conn.Send(transport.Replicas, s.buf); err != nil {
			break // records resend on their own timer
		}
	}
	if p.records.Failing() && p.broken == nil {
		p.broken = errors.New("records never acknowledged")
	}
}

// candidates lists the players in p's area, nearer first, "it" doubly
// urgent and p's own player always sent.
func (s *Server) candidates(p *peer) []view.Candidate {
	p.cands = p.cands[:0]
	self, ok := s.ringRow(p.slot)
	if !ok {
		return p.cands
	}
	x, y := s.ents.Xs[self], s.ents.Ys[self]
	it, _ := s.world.It()
	p.members = p.area.Query(p.members[:0], s.grid, &s.ents, x, y)
	reach := float32(p.area.Reach())
	for _, r := range p.members {
		d := float32(interest.Dist2(x, y, s.ents.Xs[r], s.ents.Ys[r]))
		prio := 1 - d/(reach*reach)
		if s.ents.Slots[r] == it.Slot {
			prio *= 2
		}
		p.cands = append(p.cands, view.Candidate{Row: r, Priority: prio, Must: r == self})
	}
	return p.cands
}

// ringRow returns the row of slot in this tick's world.
func (s *Server) ringRow(slot uint16) (int32, bool) {
	r := s.ring.Row(s.tick, slot)
	return r, r >= 0
}
