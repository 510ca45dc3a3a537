package protocol_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/broadcast/origin"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// PROTOCOL.md §12 is what the code serves and writes: the paths' cache
// headers as the origin sends them, the index's fields (its example has
// every field the origin sends, and the text names each), the chunk's and
// the replay file's first bytes and fields as the code lays them out, and
// the seat record's id.
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
	for _, p := range []string{"index.json", "0/key", "0/delta", "0/part/0", "00/key"} {
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
	for path, doc := range map[string]string{"index.json": "`index.json`", "0/key": "`N/key`", "0/delta": "`N/delta`", "0/part/0": "`N/part/P`", "00/key": "anything else, or a chunk not published yet or forgotten"} {
		if served[path] != want[doc] {
			t.Errorf("GET %s: Cache-Control %q, PROTOCOL.md says %q", path, served[path], want[doc])
		}
	}

	specIndex(t, srv.URL+"/index.json")

	// The chunk: "SLB", format 1, kind 1, 2 or 3, then N, first tick,
	// frames, and a part's P and last flag.
	var key, part []byte
	w2 := broadcast.NewWriter(broadcast.WriterConfig{Format: protocol.Session().Format(sch), Schema: sch, FragmentTicks: 4, PartTicks: 3,
		Sinks: []broadcast.Sink{sinkFunc(func(h broadcast.Header, b []byte) {
			switch {
			case key == nil:
				key = b
			case h.Kind == broadcast.KindPart && h.Part == 1:
				part = b
			}
		})}})
	for tick := uint32(5); tick <= 9; tick++ {
		w2.Tick(tick, world)
	}
	if !bytes.HasPrefix(key, []byte{'S', 'L', 'B', 1, 1, 0, 5, 1}) || broadcast.Version != 1 ||
		broadcast.KindKeyframe != 1 || broadcast.KindDeltas != 2 || broadcast.KindPart != 3 {
		t.Errorf("a keyframe of tick 5 starts % x", key[:min(8, len(key))])
	}
	// Fragment 0 is ticks 6-9: part 0 ticks 6-8, part 1 (the last) tick 9.
	if !bytes.HasPrefix(part, []byte{'S', 'L', 'B', 1, 3, 0, 9, 1, 1, 1}) {
		t.Errorf("the last part of fragment 0, tick 9, starts % x", part[:min(10, len(part))])
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
		"chunk   = \"SLB\" | format (1 byte: 1) | kind (1 byte: 1 keyframe, 2 deltas, 3 part)",
		"| part only: P varint | last (1 byte: 1 the fragment's last part, else 0)", "| seat: `0x50000000` + player id |"} {
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

// specIndex holds PROTOCOL.md §12.2 to the index the origin at url serves:
// the example's fields are the served ones, the text names each, the
// served made_unix_ms is the origin's clock when it was asked, and the
// bound on a believable age is the viewer's.
func specIndex(t *testing.T, url string) {
	t.Helper()
	before := time.Now().UnixMilli()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	after := time.Now().UnixMilli()
	var served map[string]json.RawMessage
	var ix broadcast.Index
	if err := json.Unmarshal(body, &served); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(body, &ix); err != nil {
		t.Fatal(err)
	}
	if ix.MadeUnixMillis < before || ix.MadeUnixMillis > after {
		t.Errorf("made_unix_ms %d, asked between %d and %d", ix.MadeUnixMillis, before, after)
	}
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, _ := strings.Cut(string(doc), "### 12.2 The index\n")
	sec, _, _ = strings.Cut(sec, "\n### ")
	_, example, _ := strings.Cut(sec, "```json\n")
	example, text, ok := strings.Cut(example, "```")
	if !ok {
		t.Fatal("PROTOCOL.md §12.2 has no JSON example of the index")
	}
	var documented map[string]json.RawMessage
	if err := json.Unmarshal([]byte(example), &documented); err != nil {
		t.Fatalf("PROTOCOL.md §12.2's example: %v", err)
	}
	for k := range served {
		if _, ok := documented[k]; !ok {
			t.Errorf("the origin serves the index's %q, PROTOCOL.md §12.2's example has it not", k)
		}
		if !strings.Contains(text, "`"+k+"`") {
			t.Errorf("PROTOCOL.md §12.2 does not say what %q is", k)
		}
	}
	for k := range documented {
		if _, ok := served[k]; !ok {
			t.Errorf("PROTOCOL.md §12.2's example has %q, the origin serves no such field", k)
		}
	}
	if broadcast.MaxMadeAge != 10*time.Second || !strings.Contains(text, "between 0 and 10 s") {
		t.Errorf("a viewer believes a made time up to %v old; PROTOCOL.md §12.2 says it should be between 0 and 10 s", broadcast.MaxMadeAge)
	}
}
