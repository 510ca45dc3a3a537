package broadcast_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/delta"
)

// FuzzParseChunk: whatever bytes arrive, ParseChunk never panics, and what
// it takes it writes back byte for byte (a chunk has one encoding).
func FuzzParseChunk(f *testing.F) {
	var c chunks
	recordParts(f, 70, 20, 6, &c) // keyframes, deltas and parts
	for _, b := range c.bytes {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		var c broadcast.Chunk
		if err := broadcast.ParseChunk(p, &c); err != nil {
			return
		}
		if again := broadcast.AppendChunk(nil, &c); !bytes.Equal(again, p) {
			t.Fatalf("parsed %d bytes, wrote back %d unlike them", len(p), len(again))
		}
	})
}

// FuzzPlaybackAdd: a chunk of any bytes handed to a playback in the middle
// of a stream never panics, and one refused as malformed or out of order
// leaves the playback where it was.
func FuzzPlaybackAdd(f *testing.F) {
	var c chunks
	record(f, 70, 20, &c)
	for _, b := range c.bytes[2:] {
		f.Add(b)
	}
	var p chunks
	recordParts(f, 70, 20, 6, &p)
	for _, b := range p.bytes {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		pb := broadcast.NewPlayback(delta.MustCodec(schema), schema)
		for _, b := range c.bytes[:2] {
			if err := pb.Add(b, nil); err != nil {
				t.Fatal(err)
			}
		}
		before := pb.World().Hash()
		var parsed broadcast.Chunk
		if broadcast.ParseChunk(p, &parsed) != nil {
			if err := pb.Add(p, nil); err == nil || pb.Tick() != 21 || pb.World().Hash() != before {
				t.Fatalf("a chunk that does not parse was taken (%v) or moved the playback", err)
			}
			return
		}
		_ = pb.Add(p, nil)
	})
}

// FuzzOpenReplay: any file opens or is refused without a panic, and every
// chunk of one that opens has a header that reads.
func FuzzOpenReplay(f *testing.F) {
	var file bytes.Buffer
	record(f, 70, 20, broadcast.NewRecorder(&file, broadcast.ReplayHeader{Protocol: 6, TickRate: 30, FragmentTicks: 20}))
	f.Add(file.Bytes())
	f.Add(file.Bytes()[:100])
	f.Fuzz(func(t *testing.T, b []byte) {
		rp, err := broadcast.OpenReplay(b)
		if err != nil {
			return
		}
		for i := range rp.Chunks() {
			h, c := rp.Chunk(i)
			if got, err := broadcast.ReadHeader(c); err != nil || got != h {
				t.Fatalf("chunk %d: %v, %+v want %+v", i, err, got, h)
			}
		}
		_ = rp.Seek(rp.LastTick())
	})
}

// FuzzIndex: an index of any bytes is refused or read without a panic.
func FuzzIndex(f *testing.F) {
	b, _ := json.Marshal(broadcast.Index{Format: broadcast.Version, Ready: true, Newest: 3, TickRate: 30})
	f.Add(b)
	b, _ = json.Marshal(broadcast.Index{Format: broadcast.Version, NextMillis: 1733, MadeUnixMillis: time.Now().UnixMilli() - 900})
	f.Add(b)
	b, _ = json.Marshal(broadcast.Index{Format: broadcast.Version, Ready: true, PartTicks: 15, Parts: 2, NextPartMillis: 233, FragmentTicks: 90})
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		var ix broadcast.Index
		if json.Unmarshal(b, &ix) != nil {
			return
		}
		// Whatever time it says it was made, the viewer's idea of its age
		// stays within what a cache or MaxMadeAge allow.
		if age := ix.Age(time.Now(), time.Second); age < time.Second || age > broadcast.MaxMadeAge {
			t.Fatalf("made %d: age %v", ix.MadeUnixMillis, age)
		}
		if n := ix.PartsPerFragment(); n < 0 || (n > 0 && n > ix.FragmentTicks) {
			t.Fatalf("%d parts of %d ticks in a fragment of %d", n, ix.PartTicks, ix.FragmentTicks)
		}
	})
}
