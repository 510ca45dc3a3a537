package tag

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	pion "github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// Four bots over real WebRTC (pion on loopback), in real time: every
// decoded tick hashes like the server's view, every client hears the tags
// since it joined once and in order, and the "it" record converges.
func TestWebRTCLoopback(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	rtc, err := webrtc.NewServer(webrtc.ServerConfig{Version: Version, UDPHost: "127.0.0.1", IncludeLoopback: true, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer rtc.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /signal", rtc)
	hs := httptest.NewServer(mux)
	defer hs.Close()

	var sent []Tag // written by the server's goroutine, read once it ended
	srv, err := NewServer(ServerConfig{Seed: 23, RoundTicks: 5 * TickRate, OnTag: func(tg Tag) { sent = append(sent, tg) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var server sync.WaitGroup
	server.Add(2)
	go func() { defer server.Done(); srv.Run(ctx) }()
	go func() { defer server.Done(); srv.Serve(ctx, rtc.Accept) }()

	loopback := func(se *pion.SettingEngine) {
		se.SetNetworkTypes([]pion.NetworkType{pion.NetworkTypeUDP4})
		se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
	}
	const n = 4
	clients := make([]*Client, n)
	heard := make([][]Tag, n)
	cctx, halt := context.WithCancel(context.Background())
	var players sync.WaitGroup
	for i := range n {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
		conn, err := webrtc.Dial(dctx, hs.URL+"/signal", webrtc.DialConfig{Version: Version, HTTPClient: hs.Client(), IncludeLoopback: true,
			SettingEngine: loopback, Logger: quiet})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		clients[i] = NewClient(conn, func(tg Tag) { heard[i] = append(heard[i], tg) })
		defer clients[i].Close()
		players.Add(1)
		bot := NewBot(23<<8 + uint64(i)) // seeded as Simulate seeds them
		go func() {
			defer players.Done()
			if err := clients[i].Run(cctx, bot); err != nil {
				t.Errorf("client %d: %v", i, err)
			}
		}()
	}
	time.Sleep(6 * time.Second) // the round is 5 s: then everything settles
	stop()
	server.Wait()
	time.Sleep(200 * time.Millisecond) // the clients take what is on its way
	halt()
	players.Wait()
	defer srv.Close()

	want, _ := srv.World().It()
	for i, c := range clients {
		st := c.Stats()
		slot, joined, ok := c.Self()
		t.Logf("client %d (slot %d, joined on tick %d): %d decoded, %d verified, %d matched, %d mismatched, %d stale, %d bytes, %d tags heard",
			i, slot, joined, st.Decoded, st.Verified, st.Matched, st.Mismatched, st.Stale, st.Bytes, len(heard[i]))
		if !ok || st.Mismatched != 0 || st.Matched != st.Verified || st.Verified != st.Decoded || st.Verified < 60 {
			t.Errorf("client %d: %d of %d verified ticks matched (%d mismatched); want at least 60, all matching", i, st.Matched, st.Verified, st.Mismatched)
		}
		var since []Tag
		for _, tg := range sent {
			if tg.Tick >= joined {
				since = append(since, tg)
			}
		}
		if !slices.Equal(heard[i], since) {
			t.Errorf("client %d heard tags %v, the server sent %v since it joined", i, heard[i], since)
		}
		if got, ok := c.It(); !ok || got != want {
			t.Errorf("client %d holds it record %+v (%v), the server %+v", i, got, ok, want)
		}
	}
	t.Logf("%d tags in %d ticks", len(sent), srv.Tick())
}
