package main

import (
	"fmt"
	"os"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// An arena run also writes the match as a broadcast, the format of replay
// files (cmd/server -record): the whole world every tick, the records and
// events. replayResult is its size beside the bytes the players were sent.
type replayResult struct {
	// Bytes is the replay file's length; BytesPerMin a minute of it.
	Bytes       int64   `json:"bytes"`
	BytesPerMin float64 `json:"bytes_per_min"`
	// Keyframes and Fragments are the chunks written (a keyframe and a
	// fragment of deltas every FragmentTicks).
	Keyframes, Fragments uint64
	FragmentTicks        int `json:"fragment_ticks"`
	// Ticks and Mismatched are the ticks played back from the replay and
	// those that differed from their hash.
	Ticks      uint64 `json:"ticks"`
	Mismatched uint64 `json:"mismatched"`
	// PlayersPerMin is what all the players were sent a minute under the
	// game's budget (the default-budget lane), for comparison.
	PlayersPerMin float64 `json:"players_bytes_per_min"`
}

// replayCast is the run's broadcast: every chunk is played back as it
// comes (verifying each tick) and, with -record, written to a file.
type replayCast struct {
	w     *broadcast.Writer
	pb    *broadcast.Playback
	rec   *broadcast.Recorder
	file  *os.File
	bytes int64
	err   error
}

func newReplayCast(o options, m interface {
	MapSeed() uint64
}) (*replayCast, error) {
	c := &replayCast{pb: broadcast.NewPlayback(protocol.Session().Format(protocol.Schema()), protocol.Schema())}
	hdr := broadcast.ReplayHeader{Protocol: uint32(protocol.Version), TickRate: arena.TickRate, FragmentTicks: broadcast.DefaultFragmentTicks}
	c.bytes = int64(len(broadcast.AppendReplayHeader(nil, hdr)))
	sinks := []broadcast.Sink{c}
	if o.Record != "" {
		f, err := os.Create(o.Record)
		if err != nil {
			return nil, fmt.Errorf("-record: %w", err)
		}
		c.file, c.rec = f, broadcast.NewRecorder(f, hdr)
		sinks = append(sinks, c.rec)
	}
	// No parts: a replay file holds whole fragments (broadcast.Recorder).
	c.w = broadcast.NewWriter(broadcast.WriterConfig{
		Format: protocol.Session().Format(protocol.Schema()), Schema: protocol.Schema(),
		Preamble: protocol.AppendWelcome(nil, protocol.Welcome{MapSeed: m.MapSeed()}), Sinks: sinks,
		PartTicks: -1,
	})
	return c, nil
}

// Chunk plays a chunk back and counts its bytes as a replay file would
// hold them (Sink).
func (c *replayCast) Chunk(_ broadcast.Header, b []byte) {
	c.bytes += int64(len(b) + uvarintLen(uint64(len(b))))
	if err := c.pb.Add(b, nil); err != nil && c.err == nil {
		c.err = err
	}
}

func uvarintLen(v uint64) int {
	n := 1
	for ; v >= 0x80; v >>= 7 {
		n++
	}
	return n
}

// tick ends a tick of the broadcast.
func (c *replayCast) tick(tick uint32, world *snapshot.Snapshot) { c.w.Tick(tick, world) }

// end writes the last fragment and closes the file.
func (c *replayCast) end() error {
	c.w.Close()
	if c.file != nil {
		if err := c.rec.Err(); err != nil {
			return err
		}
		if err := c.file.Close(); err != nil {
			return err
		}
	}
	return c.err
}

func (c *replayCast) result(secs, playersBps float64) replayResult {
	st, ps := c.w.Stats(), c.pb.Stats()
	return replayResult{
		Bytes: c.bytes, BytesPerMin: float64(c.bytes) / secs * 60,
		Keyframes: st.Keyframes, Fragments: st.Fragments, FragmentTicks: broadcast.DefaultFragmentTicks,
		Ticks: ps.Ticks, Mismatched: ps.Mismatched, PlayersPerMin: playersBps * 60,
	}
}
