package simrun

import (
	"fmt"
	"math"
	"time"

	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// World is the state being replicated: it advances a tick at a time and
// writes its quantized state into a snapshot.
type World interface {
	Step()
	Fill(dst *snapshot.Snapshot)
}

// Stream is one wire format under test.
type Stream struct {
	// Name labels the stream's result.
	Name string
	// Format encodes and decodes the packets.
	Format snapstream.Format
	// LastSent, when true, runs the classic mistake instead of acknowledged
	// baselines: every delta is against the last packet sent and the client
	// applies it to its newest state. It exists to be shown wrong.
	LastSent bool
}

// Blackout is a span of ticks during which both directions lose everything.
type Blackout struct{ From, To uint32 }

// Config describes a run.
type Config struct {
	// Schema of the world's snapshots.
	Schema *snapshot.Schema
	// TickRate is the server's snapshot rate in Hz.
	TickRate float64
	// Ticks is the number of server ticks to run.
	Ticks int
	// RTT is the round trip: each direction gets half as latency.
	RTT time.Duration
	// Down and Up are the links server->client and client->server; their
	// Latency is added to RTT/2.
	Down, Up linksim.Config
	// History is how many ticks a delta may reach back (A).
	History int
	// Seed makes the links' randomness repeatable.
	Seed uint64
	// Blackouts are spans of total loss both ways, on top of Down and Up.
	Blackouts []Blackout
	// OnPacket, if set, is called for every packet a stream sends.
	OnPacket func(stream int, tick uint32, size int, why snapstream.Why, age uint32)
}

// Result is what one stream did over a run.
type Result struct {
	Name          string
	Ticks         int    // server ticks sent
	Bytes         uint64 // bytes sent server->client
	Decoded       int    // ticks the client decoded
	Mismatched    int    // decoded ticks whose state differs from the server's
	WrongEntities int    // over mismatched ticks, entities that differ
	Sender        snapstream.SenderStats
	Receiver      snapstream.ReceiverStats
	DownLink      linksim.Stats
	Seconds       float64 // simulated time
	BytesPerSec   float64
	MeanAge       float64 // mean baseline age of deltas, in ticks
}

// Run steps w for cfg.Ticks ticks and runs every stream; results are in the
// order of streams.
func Run(cfg Config, w World, streams ...Stream) ([]Result, error) {
	if cfg.TickRate <= 0 || cfg.Ticks <= 0 || cfg.Schema == nil {
		return nil, fmt.Errorf("simrun: need a schema, a tick rate and ticks")
	}
	down, up := cfg.Down, cfg.Up
	down.Latency += cfg.RTT / 2
	up.Latency += cfg.RTT / 2

	// The server's true state, by tick, for checking.
	truth := make([]*snapshot.Snapshot, 1024)
	for i := range truth {
		truth[i] = snapshot.New(cfg.Schema)
	}
	truthTick := make([]uint32, len(truth))

	runs := make([]*streamRun, len(streams))
	for i, s := range streams {
		r, err := newStreamRun(cfg, s, down, up)
		if err != nil {
			return nil, err
		}
		runs[i] = r
	}
	cur := snapshot.New(cfg.Schema)
	var packet []byte
	for t := 1; t <= cfg.Ticks; t++ {
		tick := uint32(t)
		// Rounded from the start, not t times a rounded period: at 30 Hz a
		// latency of exactly three ticks arrives on its tick, not one later.
		now := time.Duration(math.Round(float64(t) * float64(time.Second) / cfg.TickRate))
		blackout := false
		for _, b := range cfg.Blackouts {
			blackout = blackout || (tick >= b.From && tick <= b.To)
		}
		w.Step()
		w.Fill(cur)
		slot := tick % uint32(len(truth))
		truth[slot].CopyFrom(cur)
		truthTick[slot] = tick
		for i, r := range runs {
			r.blackout(blackout, down, up)
			// Server: take the acks that arrived, then send this tick.
			r.up.Deliver(now, r.onAck)
			var why snapstream.Why
			var age uint32
			if r.stream.LastSent {
				packet, why, age = r.naiveSend(packet[:0], tick, cur)
			} else {
				packet, why = r.sender.Append(packet[:0], tick, cur)
				if why == snapstream.SentDelta {
					age = tick - r.sender.AckedTick()
				}
			}
			r.down.Send(now, packet)
			if cfg.OnPacket != nil {
				cfg.OnPacket(i, tick, len(packet), why, age)
			}
			// Client: decode what arrived, check it, acknowledge the newest.
			r.down.Deliver(now, func(p []byte) {
				got, t := r.receive(p)
				if got == nil {
					return
				}
				r.res.Decoded++
				want := truth[t%uint32(len(truth))]
				if truthTick[t%uint32(len(truth))] != t {
					return // older than the check window; cannot happen with sane latencies
				}
				if !got.Equal(want) {
					r.res.Mismatched++
					r.res.WrongEntities += got.Diff(want)
				}
			})
			ack := r.newest()
			if ack != 0 {
				var b [4]byte
				b[0], b[1], b[2], b[3] = byte(ack), byte(ack>>8), byte(ack>>16), byte(ack>>24)
				r.up.Send(now, b[:])
			}
		}
	}
	out := make([]Result, len(runs))
	for i, r := range runs {
		res := r.res
		res.Name = r.stream.Name
		res.Ticks = cfg.Ticks
		res.Seconds = float64(cfg.Ticks) / cfg.TickRate
		if !r.stream.LastSent {
			res.Sender = r.sender.Stats()
			res.Receiver = r.receiver.Stats()
		}
		res.Bytes = r.bytes + res.Sender.Bytes
		res.DownLink = r.down.Stats()
		res.BytesPerSec = float64(res.Bytes) / res.Seconds
		if res.Sender.Deltas > 0 {
			res.MeanAge = float64(res.Sender.BaselineAge) / float64(res.Sender.Deltas)
		}
		out[i] = res
	}
	return out, nil
}

type streamRun struct {
	stream   Stream
	sender   *snapstream.Sender
	receiver *snapstream.Receiver
	down, up *linksim.Link
	dark     bool
	res      Result
	onAck    func([]byte)

	// The classic mistake's state.
	bytes      uint64
	lastSent   *snapshot.Snapshot
	lastTick   uint32
	naiveState *snapshot.Snapshot
	naiveNext  *snapshot.Snapshot
	naiveTick  uint32
}

func newStreamRun(cfg Config, s Stream, down, up linksim.Config) (*streamRun, error) {
	d, err := linksim.New(down, cfg.Seed)
	if err != nil {
		return nil, fmt.Errorf("simrun: downlink: %w", err)
	}
	u, err := linksim.New(up, cfg.Seed^0x5bd1e995)
	if err != nil {
		return nil, fmt.Errorf("simrun: uplink: %w", err)
	}
	r := &streamRun{
		stream:     s,
		sender:     snapstream.NewSender(s.Format, cfg.Schema, cfg.History),
		receiver:   snapstream.NewReceiver(s.Format, cfg.Schema, cfg.History),
		down:       d,
		up:         u,
		lastSent:   snapshot.New(cfg.Schema),
		naiveState: snapshot.New(cfg.Schema),
		naiveNext:  snapshot.New(cfg.Schema),
	}
	r.onAck = func(p []byte) {
		if len(p) == 4 {
			r.sender.Ack(uint32(p[0]) | uint32(p[1])<<8 | uint32(p[2])<<16 | uint32(p[3])<<24)
		}
	}
	return r, nil
}

// blackout switches both links to total loss and back.
func (r *streamRun) blackout(on bool, down, up linksim.Config) {
	if on == r.dark {
		return
	}
	r.dark = on
	if on {
		down.Loss, up.Loss = 1, 1
	}
	// Errors are impossible: the configs were validated by New.
	_ = r.down.SetConfig(down)
	_ = r.up.SetConfig(up)
}

// naiveSend diffs against the last packet sent, acknowledged or not.
func (r *streamRun) naiveSend(dst []byte, tick uint32, cur *snapshot.Snapshot) ([]byte, snapstream.Why, uint32) {
	var why snapstream.Why
	var age uint32
	if r.lastTick == 0 {
		dst, why = r.stream.Format.AppendFull(dst, tick, cur), snapstream.FullNoAck
	} else {
		dst, age = r.stream.Format.AppendDelta(dst, tick, r.lastTick, r.lastSent, cur), tick-r.lastTick
	}
	r.lastSent.CopyFrom(cur)
	r.lastTick = tick
	r.bytes += uint64(len(dst))
	return dst, why, age
}

// receive decodes p and returns the decoded snapshot and its tick, or nil.
func (r *streamRun) receive(p []byte) (*snapshot.Snapshot, uint32) {
	if !r.stream.LastSent {
		h, err := r.receiver.Receive(p)
		if err != nil {
			return nil, 0
		}
		return r.receiver.Snapshot(h.Tick), h.Tick
	}
	// The mistake: whatever baseline the packet names, apply it to the newest state.
	h, err := r.stream.Format.ReadHeader(p, r.naiveTick)
	if err != nil || h.Tick <= r.naiveTick {
		return nil, 0
	}
	var base *snapshot.Snapshot
	if !h.Full() {
		if r.naiveTick == 0 {
			return nil, 0
		}
		base = r.naiveState
	}
	if err := r.stream.Format.Decode(p, h, base, r.naiveNext); err != nil {
		return nil, 0
	}
	r.naiveState, r.naiveNext = r.naiveNext, r.naiveState
	r.naiveTick = h.Tick
	return r.naiveState, h.Tick
}

func (r *streamRun) newest() uint32 {
	if r.stream.LastSent {
		return r.naiveTick
	}
	return r.receiver.Newest()
}
