package server_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/memory"
)

// The caps SECURITY.md states for what the server holds per connection.
const (
	// capHistoryBytes: the view history is History+1 views of at most
	// MaxEntities entries of 8 bytes, plus 32 bytes of bookkeeping each;
	// whatever a client does, it cannot hold more.
	capHistoryBytes = (protocol.History + 1) * (32 + 8*protocol.MaxEntities)
	// capHistoryCrowd: in a match of the default arena (300 creatures), a
	// view holds what is within the view radius: far less.
	capHistoryCrowd = 64 << 10
	// capEventsQueued: the outbox holds at most DefaultMaxQueued events; a
	// client whose queue fills is dropped.
	capEventsQueued = events.DefaultMaxQueued
	// capRecords: one score and one loadout record per player slot, the
	// pickups of every kind and the clock; never more than the world has.
	capRecords = 2*arena.DefaultMaxPlayers + arena.DefaultPickups + arena.DefaultSpreadGuns + arena.DefaultPowerUps + 1
	// capInFlight: the transport's own bound, per channel and direction
	// (memory: MaxInFlightBytes; webrtc: SendBufferLimit 256 KiB reliable,
	// UnreliableBufferLimit 8 KiB unreliable).
	capInFlightPerChannel = 256 << 10
)

// A client that connects and then neither reads nor sends (nor acks) costs
// the server a bounded amount of memory for as long as it is connected, and
// is dropped: after JoinGrace if it never spoke, after Timeout if it did.
func TestMemoryPerConnectionBounded(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 20 * time.Second // JoinGrace is 3x: a minute
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate, Timeout: timeout}, world), epoch: time.Unix(1_700_000_000, 0)}
	type end struct {
		c        *client.Client
		srv, cli *memory.Conn
	}
	var ends []end
	for i := range 3 {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Seed: uint64(i + 1), Now: m.now, MaxInFlightBytes: capInFlightPerChannel,
			ServerToClient: linksim.Config{Latency: 30 * time.Millisecond}, ClientToServer: linksim.Config{Latency: 30 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Add(srvEnd)
		c := client.New(cliEnd, client.Config{Verify: true, Name: fmt.Sprint("p", i)})
		ends = append(ends, end{c, srvEnd, cliEnd})
	}
	active, mute, spoke := ends[0], ends[1], ends[2] // mute never says a word
	b1 := brain.New(1)
	b2 := brain.New(2)
	spokeUntil := 2 * time.Second
	type peak struct {
		hist, events, pending, held, inflight int
		dropped                               time.Duration
	}
	peaks := map[*client.Client]*peak{mute.c: {}, spoke.c: {}}
	ids := map[*client.Client]server.PlayerID{active.c: 1, mute.c: 2, spoke.c: 3}
	for m.clock < 70*time.Second {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		active.c.Poll()
		active.c.SendInput(b1.Play(active.c))
		if m.clock <= spokeUntil {
			spoke.c.Poll()
			spoke.c.SendInput(b2.Play(spoke.c))
		}
		for _, e := range []end{mute, spoke} {
			p := peaks[e.c]
			mem := m.srv.MemoryOf(ids[e.c])
			if !mem.Found {
				if p.dropped == 0 {
					p.dropped = m.clock
				}
				continue
			}
			ss, cs := e.srv.Stats(), e.cli.Stats()
			p.hist = max(p.hist, mem.HistoryBytes)
			p.events = max(p.events, mem.EventsQueued)
			p.pending = max(p.pending, mem.RecordsPending)
			p.held = max(p.held, mem.RecordsHeld)
			p.inflight = max(p.inflight, int(ss.SentBytes-cs.ReceivedBytes))
		}
	}
	for name, e := range map[string]end{"mute": mute, "spoke": spoke} {
		p := peaks[e.c]
		t.Logf("%s: peak history %d B, events queued %d, records pending %d of %d held, in flight %d B; dropped at %v",
			name, p.hist, p.events, p.pending, p.held, p.inflight, p.dropped)
		if p.hist == 0 || p.held == 0 {
			t.Errorf("%s: nothing measured: %+v", name, p)
		}
		if p.hist > capHistoryCrowd || p.hist > capHistoryBytes {
			t.Errorf("%s: view history %d bytes, cap %d", name, p.hist, capHistoryCrowd)
		}
		if p.events > capEventsQueued || p.pending > capRecords || p.held > capRecords {
			t.Errorf("%s: %d events queued (cap %d), %d records pending, %d held (cap %d)", name, p.events, capEventsQueued, p.pending, p.held, capRecords)
		}
		if p.inflight > transport.NumChannels*capInFlightPerChannel {
			t.Errorf("%s: %d bytes in flight, cap %d", name, p.inflight, transport.NumChannels*capInFlightPerChannel)
		}
		select {
		case <-e.c.Done():
		default:
			t.Errorf("%s: connection still open after %v", name, m.clock)
		}
	}
	// The mute client never spoke: JoinGrace (3x Timeout) from its join.
	if d := peaks[mute.c].dropped; d < 3*timeout || d > 3*timeout+time.Second {
		t.Errorf("mute client dropped at %v, want just after the join grace %v", d, 3*timeout)
	}
	// The other spoke for two seconds: Timeout after its last datagram.
	if d := peaks[spoke.c].dropped; d < spokeUntil+timeout || d > spokeUntil+timeout+time.Second {
		t.Errorf("silent client dropped at %v, want just after %v", d, spokeUntil+timeout)
	}
	st := m.srv.Stats()
	if st.Clients != 1 || st.TimedOut != 2 {
		t.Errorf("server: %+v", st)
	}
	if cs := active.c.Stats(); cs.Mismatched != 0 || cs.Verified < 60*tickRate {
		t.Errorf("active client: %d mismatched of %d verified", cs.Mismatched, cs.Verified)
	}
}

// deafConn is a client's end of a connection that drops every records
// datagram it receives while deaf says so: the client goes on playing and
// acknowledging snapshots but never acknowledges those records.
type deafConn struct {
	transport.Conn
	deaf func() bool
}

func (c *deafConn) Receive(fn func(transport.Channel, []byte)) int {
	return c.Conn.Receive(func(ch transport.Channel, p []byte) {
		if ch == transport.Replicas && c.deaf() {
			return
		}
		fn(ch, p)
	})
}

// A client that plays but never acknowledges its records is dropped once a
// record has gone unacknowledged three times the timeout, resent with its
// timeout backing off all the while; a client that ignores its records for
// twice the timeout (a browser tab that stalls on and off while it starts)
// keeps its place and gets every record once it listens.
func TestRecordsGivenUpOnlyAfterThreeTimeouts(t *testing.T) {
	world, err := newArena(arena.Config{Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	const timeout = 5 * time.Second
	m := &match{t: t, srv: newServer(t, server.Config{TickRate: tickRate, Timeout: timeout}, world), epoch: time.Unix(1_700_000_000, 0)}
	deafUntil := map[string]time.Duration{"deaf": time.Hour, "stalled": 2 * timeout}
	type player struct {
		name    string
		id      server.PlayerID
		c       *client.Client
		brain   *brain.Brain
		dropped time.Duration
	}
	var players []*player
	for i, name := range []string{"deaf", "stalled"} {
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Seed: uint64(i + 7), Now: m.now,
			ServerToClient: linksim.Config{Latency: 20 * time.Millisecond}, ClientToServer: linksim.Config{Latency: 20 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		m.srv.Add(srvEnd)
		until := deafUntil[name]
		conn := &deafConn{Conn: cliEnd, deaf: func() bool { return m.clock < until }}
		players = append(players, &player{name: name, id: server.PlayerID(i + 1),
			c: client.New(conn, client.Config{Verify: true, Name: name}), brain: brain.New(uint64(i + 1))})
	}
	var pendingAtListen int
	for m.clock < 30*time.Second {
		m.clock += time.Second / tickRate
		m.srv.Step(m.epoch.Add(m.clock))
		for _, p := range players {
			if p.dropped != 0 {
				continue
			}
			if !m.srv.MemoryOf(p.id).Found {
				p.dropped = m.clock
				continue
			}
			p.c.Poll()
			p.c.SendInput(p.brain.Play(p.c))
		}
		if m.clock < deafUntil["stalled"] {
			pendingAtListen = m.srv.MemoryOf(2).RecordsPending
		}
	}
	deaf, stalled := players[0], players[1]
	t.Logf("deaf client dropped at %v; stalled client: %d records pending when it started listening, %d at the end",
		deaf.dropped, pendingAtListen, m.srv.MemoryOf(stalled.id).RecordsPending)
	// Records go out from the client's first word (a tick or two after it
	// joins); the give-up is noticed when the record is next due, at most
	// MaxResendAfter (1 s) later.
	if d := deaf.dropped; d < 3*timeout || d > 3*timeout+1500*time.Millisecond {
		t.Errorf("deaf client dropped at %v, want just after %v", d, 3*timeout)
	}
	select {
	case <-deaf.c.Done():
	default:
		t.Error("deaf client's connection still open")
	}
	if stalled.dropped != 0 {
		t.Errorf("stalled client dropped at %v", stalled.dropped)
	}
	mem := m.srv.MemoryOf(stalled.id)
	if pendingAtListen == 0 || mem.RecordsPending != 0 || mem.RecordsHeld == 0 {
		t.Errorf("stalled client: %d records pending when it listened (want some), %d at the end of %d held (want 0 of some)",
			pendingAtListen, mem.RecordsPending, mem.RecordsHeld)
	}
	if cs := stalled.c.Stats(); cs.Mismatched != 0 || cs.Verified < 25*tickRate {
		t.Errorf("stalled client: %d mismatched of %d verified", cs.Mismatched, cs.Verified)
	}
}
