package protocol_test

import (
	"bytes"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/broadcast/origin"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// PROTOCOL.md §12 is what the code serves and writes: the paths' cache
// headers as the origin sends them, the chunk's and the replay file's
// first bytes and fields as the code lays them out, and the seat record's
// id.
func TestSpecBroadcast(t *testing.T) {
	sch := protocol.Schema()
	o := origin.New(origin.Config{TickRate: 30, FragmentTicks: 2})
	w := broadcast.NewWriter(broadcast.WriterConfig{Format: protocol.Session().Format(sch), Schema: sch, FragmentTicks: 2,
		Preamble: protocol.AppendWelcome(nil, protocol.Welcome{MapSeed: 7}), Sinks: []broadcast.Sink{o}})
	world := snapshot.New(sch) // an empty world: these checks are of the framing
	for tick := uint32(1); tick <= 3; tick++ {
		w.Tick(tick, world)
	}
	srv := httptest.NewServer(o)
	defer srv.Close()
	served := map[string]string{}
	for _, p := range []string{"index.json", "0/key", "0/delta", "00/key"} {
		resp, err := http.Get(srv.URL + "/" + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		served[p] = resp.Header.Get("Cache-Control")
	}
	rows := protocol.SpecRows(t, "path", "body", "Cache-Control")
	want := map[string]string{}
	for _, r := range rows {
		want[r[0]] = strings.Trim(r[2], "`")
	}
	for path, doc := range map[string]string{"index.json": "`index.json`", "0/key": "`N/key`", "0/delta": "`N/delta`", "00/key": "anything else, or a chunk not published yet or forgotten"} {
		if served[path] != want[doc] {
			t.Errorf("GET %s: Cache-Control %q, PROTOCOL.md says %q", path, served[path], want[doc])
		}
	}

	// The chunk: "SLB", format 1, kind 1 or 2, then N, first tick, frames.
	var key []byte
	w2 := broadcast.NewWriter(broadcast.WriterConfig{Format: protocol.Session().Format(sch), Schema: sch, FragmentTicks: 2,
		Sinks: []broadcast.Sink{sinkFunc(func(h broadcast.Header, b []byte) {
			if key == nil {
				key = b
			}
		})}})
	w2.Tick(5, world)
	if !bytes.HasPrefix(key, []byte{'S', 'L', 'B', 1, 1, 0, 5, 1}) || broadcast.Version != 1 ||
		broadcast.KindKeyframe != 1 || broadcast.KindDeltas != 2 {
		t.Errorf("a keyframe of tick 5 starts % x", key[:min(8, len(key))])
	}
	// The replay file: "SLREPLAY", version 1, protocol, tick rate in
	// thousandths of a hertz, fragment ticks.
	hdr := broadcast.AppendReplayHeader(nil, broadcast.ReplayHeader{Protocol: uint32(protocol.Version), TickRate: 30, FragmentTicks: 90})
	wantHdr := append([]byte("SLREPLAY\x01"), byte(protocol.Version))
	wantHdr = binary.AppendUvarint(wantHdr, 30000)
	wantHdr = append(wantHdr, 90)
	if !bytes.Equal(hdr, wantHdr) || broadcast.ReplayVersion != 1 {
		t.Errorf("replay header % x, want % x", hdr, wantHdr)
	}
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"\"SLREPLAY\" | version (1 byte: 1)", "(thousandths of\n        a hertz: 30000)",
		"chunk   = \"SLB\" | format (1 byte: 1) | kind (1 byte: 1 keyframe, 2 deltas)", "| seat: `0x50000000` + player id |"} {
		if !bytes.Contains(doc, []byte(s)) {
			t.Errorf("PROTOCOL.md does not say %q", s)
		}
	}
	if protocol.RecordSeat != 0x50000000 {
		t.Errorf("seat records are %#x", protocol.RecordSeat)
	}
}

type sinkFunc func(broadcast.Header, []byte)

func (f sinkFunc) Chunk(h broadcast.Header, b []byte) { f(h, b) }
