package server

import (
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// Match is an arena world as the match server drives it, the World (and
// EventSource, RecordSource, Namer, MapSeeder) a Server runs: everything
// the arena's World does, plus its state quantized into snapshots, its
// events and records encoded for the wire (game/protocol), and where each
// player sees from. One
// goroutine calls it (the server's tick loop). Its per-tick methods
// allocate nothing in steady state.
type Match struct {
	*arena.World

	ents []arena.Entity
	buf  []byte // scratch for event bodies and record payloads

	// The callbacks of the TakeEvents or ChangedRecords call under way,
	// and the arena callbacks that forward to them, made once.
	onEvent  func(kind events.Kind, body []byte)
	onRecord func(id uint32, gen uint16, payload []byte, deleted bool)
	eventFn  func(arena.Event)
	recordFn func(arena.Record)
}

// NewMatch returns the match of world w.
func NewMatch(w *arena.World) *Match {
	m := &Match{World: w, ents: make([]arena.Entity, 0, 1024), buf: make([]byte, 0, 64)}
	m.eventFn, m.recordFn = m.forwardEvent, m.forwardRecord
	return m
}

// Fill writes the world's quantized state into dst, a snapshot of
// protocol.Schema().
func (m *Match) Fill(dst *snapshot.Snapshot) {
	m.ents = m.World.AppendEntities(m.ents[:0])
	protocol.Fill(dst, m.ents)
}

// Observe returns where player id sees from (see the function Observe).
func (m *Match) Observe(id arena.PlayerID) Observer { return Observe(m.World, id) }

// Score returns player id's score in the round (Scorer), if it plays.
func (m *Match) Score(id arena.PlayerID) (uint32, bool) {
	p, ok := m.World.Player(id)
	return p.Score, ok
}

// TakeEvents calls fn, in order, with the kind and body of every
// happening since the previous call (see protocol.AppendEvent). body is valid only
// during fn.
func (m *Match) TakeEvents(fn func(kind events.Kind, body []byte)) {
	m.onEvent = fn
	m.World.TakeEvents(m.eventFn)
	m.onEvent = nil
}

func (m *Match) forwardEvent(e arena.Event) {
	body, kind, ok := protocol.AppendEvent(m.buf[:0], e)
	m.buf = body
	if ok {
		m.onEvent(kind, body)
	}
}

// ChangedRecords calls fn for every record changed since the previous
// call, as it travels: id, generation, payload (valid only during fn) and
// whether it is a deletion.
func (m *Match) ChangedRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool)) {
	m.onRecord = fn
	m.World.ChangedRecords(m.recordFn)
	m.onRecord = nil
}

// AllRecords calls fn for every live record, for a player who just joined.
func (m *Match) AllRecords(fn func(id uint32, gen uint16, payload []byte, deleted bool)) {
	m.onRecord = fn
	m.World.AllRecords(m.recordFn)
	m.onRecord = nil
}

func (m *Match) forwardRecord(r arena.Record) {
	m.buf = protocol.AppendRecordPayload(m.buf[:0], r)
	m.onRecord(protocol.RecordID(r), r.Generation, m.buf, r.Deleted)
}
