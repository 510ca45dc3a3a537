package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// -broadcast serves each match's broadcast at /broadcast/ID/ and -record
// keeps each as a replay file, written to its end when the server stops:
// the file opens, plays back from its first tick to its last with every
// tick as its hash says, and holds the bots' joins.
func TestBroadcastAndRecord(t *testing.T) {
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	dir := t.TempDir()
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, log, options{
			addr: fmt.Sprintf("127.0.0.1:%d", httpPort), udpPort: udpPort, tick: 30, bots: 3, matches: 2, seed: 1, creatures: 20,
			maxClients: 4, timeout: 5 * time.Second, loopback: true, rate: 8000, radius: 720, web: t.TempDir(),
			name: "test", offerRate: 100, offerBurst: 100, metricsAddr: "127.0.0.1:0",
			broadcast: true, record: dir,
		})
	}()
	defer func() {
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	}()
	// The broadcast of match 2 publishes its first fragment (no delay).
	var ix broadcast.Index
	deadline := time.Now().Add(time.Minute)
	for !ix.Ready {
		if time.Now().After(deadline) {
			t.Fatalf("no fragment published: %+v", ix)
		}
		time.Sleep(100 * time.Millisecond)
		resp, err := http.Get(base + "/broadcast/2/index.json")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.Header.Get("Cache-Control") != "public, max-age=1" {
			t.Fatalf("index: %s, Cache-Control %q", resp.Status, resp.Header.Get("Cache-Control"))
		}
		if err := json.Unmarshal(b, &ix); err != nil {
			t.Fatal(err)
		}
	}
	if ix.Protocol != uint32(protocol.Version) || ix.TickRate != 30 || ix.FragmentTicks != broadcast.DefaultFragmentTicks {
		t.Fatalf("index %+v", ix)
	}
	resp, err := http.Get(base + "/broadcast/9/index.json")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a match that does not exist: %s", resp.Status)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	files, err := filepath.Glob(filepath.Join(dir, "match-*"+ReplayExt))
	if err != nil || len(files) != 2 {
		t.Fatalf("replay files %v (%v), want one a match", files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := broadcast.OpenReplay(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		pb := broadcast.NewPlayback(protocol.Session().Format(protocol.Schema()), protocol.Schema())
		joins := 0
		for i := range rp.Chunks() {
			_, c := rp.Chunk(i)
			if err := pb.Add(c, func(fr *broadcast.Frame, _ *snapshot.Snapshot) {
				for _, e := range fr.Events {
					if e.Kind == uint8(protocol.KindJoin) {
						joins++
					}
				}
			}); err != nil {
				t.Fatalf("%s, chunk %d: %v", f, i, err)
			}
		}
		st := pb.Stats()
		if st.Mismatched != 0 || st.Ticks != uint64(rp.LastTick()-rp.FirstTick()+1) || st.Ticks < 90 || joins != 3 {
			t.Fatalf("%s: played %+v of ticks %d-%d, %d joins (want 3)", f, st, rp.FirstTick(), rp.LastTick(), joins)
		}
		if !strings.Contains(logs.String(), "recorded the match") {
			t.Fatal("the log does not say the match was recorded")
		}
	}
}
