package server

import (
	"errors"
	"fmt"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/transport"
)

// EventSource is a World that reports happenings (hits, kills, round over):
// one-shot events broadcast on every client's reliable event stream, never
// folded into snapshot state.
type EventSource interface {
	TakeEvents(fn func(kind events.Kind, body []byte))
}

// RecordSource is a World with state that must arrive exactly (names and
// scores, pickups, the match clock): acknowledged replica records, resent to
// each client until acknowledged, on a channel of their own.
type RecordSource interface {
	// ChangedRecords reports the records changed since the last call.
	ChangedRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool))
	// AllRecords reports every live record, for a player who just joined.
	AllRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool))
}

// Namer is a World that shows players' names.
type Namer interface {
	SetName(id PlayerID, name string)
}

// MapSeeder is a World whose map a client builds from a seed.
type MapSeeder interface {
	MapSeed() uint64
}

// streams are one client's event and record streams.
type streams struct {
	out     *events.Outbox
	in      *events.Inbox
	records *replica.Sender
	named   bool
	onEvent func(events.Event)
	scratch []byte
}

// newStreams returns a client's streams. A record unacknowledged for three
// times the client timeout, though resent all the while, means its stream is
// broken: a client that has gone quiet is dropped sooner by the timeout, and
// one that still talks but stalls now and then (a browser tab compiling its
// shaders for seconds) keeps its place.
func newStreams(timeout time.Duration) *streams {
	return &streams{
		out: events.NewOutbox(events.OutboxConfig{Validate: protocol.ValidateEventBody}),
		in:  events.NewInbox(events.InboxConfig{Validate: protocol.ValidateEventBody}),
		records: replica.NewSender(replica.SenderConfig{
			GiveUpAfter: 3 * timeout,
		}),
		scratch: make([]byte, 0, 256),
	}
}

// errStreamBroken is why a client whose event stream cannot go on is dropped.
var errStreamBroken = errors.New("event stream broken")

// push queues an event for the client; a client whose queue is full has
// stopped reading and is dropped.
func (c *client) push(tick uint32, kind events.Kind, body []byte) {
	if c.broken != nil {
		return
	}
	if err := c.st.out.Push(events.Event{Kind: kind, Tick: tick, Body: body}); err != nil {
		c.broken = fmt.Errorf("%w: %w", errStreamBroken, err)
	}
}

// flush sends what the client's event and record streams have due.
func (c *client) flush(s *Server) {
	for c.broken == nil && c.st.out.Len() > 0 {
		var n int
		c.st.scratch, n = c.st.out.AppendNext(c.st.scratch[:0], protocol.DatagramLimit)
		if n == 0 {
			break
		}
		if err := c.conn.Send(transport.Events, c.st.scratch); err != nil {
			// A framed event that did not go leaves a gap in the stream.
			c.broken = fmt.Errorf("%w: %w", errStreamBroken, err)
		}
	}
	for c.broken == nil && c.spoken {
		var n int
		c.st.scratch, n = c.st.records.AppendDue(c.st.scratch[:0], s.elapsed, protocol.DatagramLimit)
		if n == 0 {
			break
		}
		if err := c.conn.Send(transport.Replicas, c.st.scratch); errors.Is(err, transport.ErrCongested) {
			break // the records resend on their own timer
		}
	}
	if c.broken == nil && c.st.records.Failing() {
		c.broken = fmt.Errorf("%w: records never acknowledged", errStreamBroken)
	}
}

// broadcast queues an event for every client.
func (s *Server) broadcast(kind events.Kind, body []byte) {
	for _, c := range s.clients {
		c.push(s.tick, kind, body)
	}
	s.castEvent(kind, body)
}

// welcome tells a new client who it is and hands it every record.
func (s *Server) welcome(c *client) {
	w := protocol.Welcome{Player: c.id}
	if c.watch != nil {
		w.Player = 0 // a spectator: no player, no entity of its own
	} else if o := s.world.Observe(c.id); o.HasSelf {
		w.Slot = o.Self
	}
	if m, ok := s.world.(MapSeeder); ok {
		w.MapSeed = m.MapSeed()
	}
	c.push(s.tick, protocol.KindWelcome, protocol.AppendWelcome(s.body[:0], w))
	if rs, ok := s.world.(RecordSource); ok {
		rs.AllRecords(func(id uint32, gen uint16, payload []byte, deleted bool) {
			publish(c, id, gen, payload, deleted)
		})
	}
}

func publish(c *client, id uint32, gen uint16, payload []byte, deleted bool) {
	if deleted {
		c.st.records.Delete(id, gen)
	} else {
		c.st.records.Publish(id, gen, payload)
	}
}

// relay moves the world's happenings and changed records to every client.
func (s *Server) relay() {
	if es, ok := s.world.(EventSource); ok {
		es.TakeEvents(s.broadcast)
	}
	if rs, ok := s.world.(RecordSource); ok {
		rs.ChangedRecords(func(id uint32, gen uint16, payload []byte, deleted bool) {
			for _, c := range s.clients {
				publish(c, id, gen, payload, deleted)
			}
			if s.cast != nil {
				s.cast.Record(id, gen, payload, deleted)
			}
		})
	}
}

// fromClient handles an event the client sent: a player's name once, then
// chat; a spectator's camera (a spectator's join and chat are not heard).
func (s *Server) fromClient(c *client, e events.Event) {
	if c.watch != nil {
		if e.Kind == protocol.KindWatch {
			if w, err := protocol.ParseWatch(e.Body); err == nil {
				s.watchAsked(c, w)
			}
		}
		return
	}
	switch e.Kind {
	case protocol.KindJoin:
		j, err := protocol.ParseJoin(e.Body)
		if err != nil || c.st.named {
			return
		}
		c.st.named = true
		asked := j.Name
		if a, ok := Admission(c.conn); ok {
			asked = a.Name // a join token names the player
		}
		name := arena.CutName(protocol.CleanChat(asked)) // at a character boundary
		if name == "" {
			name = fmt.Sprintf("player %d", c.id)
		}
		if n, ok := s.world.(Namer); ok {
			n.SetName(c.id, name)
		}
		s.broadcast(protocol.KindJoin, protocol.AppendJoin(s.body[:0], protocol.Join{Player: uint32(c.id), Name: name}))
	case protocol.KindChat:
		m, err := protocol.ParseChat(e.Body)
		if err != nil {
			return
		}
		text := protocol.CleanChat(m.Text)
		if text == "" {
			return
		}
		s.broadcast(protocol.KindChat, protocol.AppendChat(s.body[:0], protocol.Chat{From: uint32(c.id), Text: text}))
	}
}
