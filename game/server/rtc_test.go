package server_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/logging"
	"github.com/pion/transport/v5/vnet"
	pion "github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// rtcMatch is a match server behind real WebRTC, in real time.
type rtcMatch struct {
	url    string
	http   *http.Client
	match  *server.Server
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func startRTCMatch(t *testing.T, rtcCfg webrtc.ServerConfig, cfg server.Config) *rtcMatch {
	t.Helper()
	return startWrappedRTCMatch(t, rtcCfg, cfg, nil)
}

// startWrappedRTCMatch is startRTCMatch with every accepted connection
// passed through wrap (if not nil) before the match adds it.
func startWrappedRTCMatch(t *testing.T, rtcCfg webrtc.ServerConfig, cfg server.Config, wrap func(transport.Conn) transport.Conn) *rtcMatch {
	t.Helper()
	if rtcCfg.Version == 0 {
		rtcCfg.Version = protocol.Version
	}
	rtc, err := webrtc.NewServer(rtcCfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST "+client.SignalPath, rtc)
	hs := httptest.NewServer(mux)
	w, err := newWalkers(200, 0.3, protocol.DefaultTickRate, 1, 64)
	if err != nil {
		t.Fatal(err)
	}
	m := &rtcMatch{url: hs.URL, http: hs.Client(), match: newServer(t, cfg, w)}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	m.wg.Add(2)
	go func() { defer m.wg.Done(); m.match.Run(ctx) }()
	accept := rtc.Accept
	if wrap != nil {
		accept = func(ctx context.Context) (transport.Conn, error) {
			c, err := rtc.Accept(ctx)
			if err != nil {
				return nil, err
			}
			return wrap(c), nil
		}
	}
	go func() { defer m.wg.Done(); m.match.Serve(ctx, accept) }()
	t.Cleanup(func() {
		cancel()
		m.wg.Wait()
		hs.Close()
		rtc.Close()
	})
	return m
}

// player is a headless client playing in its own goroutine.
type player struct {
	c    *client.Client
	stop context.CancelFunc
	done chan struct{}
}

func (m *rtcMatch) play(t *testing.T, dial webrtc.DialConfig, seed uint64) *player {
	t.Helper()
	if dial.HTTPClient == nil {
		dial.HTTPClient = m.http
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	c, err := client.Dial(ctx, m.url, client.Config{Verify: true}, dial)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(context.Background())
	p := &player{c: c, stop: stop, done: make(chan struct{})}
	w := brain.NewWanderer(seed)
	go func() {
		defer close(p.done)
		c.Run(runCtx, protocol.DefaultTickRate, func(uint32) arena.Input { return w.Next() })
	}()
	t.Cleanup(func() { p.halt(); c.Close() })
	return p
}

// halt stops the player's loop (without closing its connection) and waits.
func (p *player) halt() {
	p.stop()
	<-p.done
}

func loopback(se *pion.SettingEngine) {
	se.SetNetworkTypes([]pion.NetworkType{pion.NetworkTypeUDP4})
	se.SetIPFilter(func(ip net.IP) bool { return ip.IsLoopback() })
}

// Several headless clients over real WebRTC on loopback: every client
// decodes ticks and every tick it decodes hashes like the server's view.
func TestRealWebRTCLoopback(t *testing.T) {
	m := startRTCMatch(t, webrtc.ServerConfig{UDPHost: "127.0.0.1", IncludeLoopback: true}, server.Config{})
	var players []*player
	for i := range 4 {
		players = append(players, m.play(t, webrtc.DialConfig{IncludeLoopback: true, SettingEngine: loopback}, uint64(i)))
	}
	// Until the server has applied 90 inputs of each player: as long as a
	// busy machine takes (on a quiet one, about 3 s).
	waitApplied(t, m, 4, 90)
	for i, p := range players {
		p.halt()
		st := p.c.Stats()
		t.Logf("client %d: decoded %d, verified %d, matched %d, no baseline %d, %d bytes", i, st.Decoded, st.Verified, st.Matched, st.NoBaseline, st.Bytes)
		if st.Mismatched != 0 || st.Matched != st.Verified || st.Verified < 60 {
			t.Errorf("client %d: %d of %d verified ticks matched (%d mismatched); want at least 60, all matching", i, st.Matched, st.Verified, st.Mismatched)
		}
	}
	for _, ps := range m.match.Stats().Players {
		if ps.InputsApplied < 60 {
			t.Errorf("player %d: %d inputs applied", ps.ID, ps.InputsApplied)
		}
	}
}

// waitApplied waits until the server sees players clients and has applied
// at least n inputs of each, for a minute at most.
func waitApplied(t *testing.T, m *rtcMatch, players int, n uint64) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		st := m.match.Stats()
		least := uint64(0)
		for i, ps := range st.Players {
			if i == 0 || ps.InputsApplied < least {
				least = ps.InputsApplied
			}
		}
		if st.Clients == players && len(st.Players) == players && least >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a minute the server sees %d clients, the least applied %d inputs (want %d clients, %d inputs)", st.Clients, least, players, n)
		}
	}
}

// Over pion's virtual network with loss and delay both ways, then a blackout
// longer than the history: zero desyncs, and the client recovers.
func TestVNetLossDelayAndBlackout(t *testing.T) {
	wan, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "10.1.0.0/24", MinDelay: 25 * time.Millisecond, MaxJitter: 10 * time.Millisecond,
		LoggerFactory: logging.NewDefaultLoggerFactory()})
	if err != nil {
		t.Fatal(err)
	}
	var dark atomic.Bool
	wan.AddChunkFilter(func(vnet.Chunk) bool { return !dark.Load() })
	serverNet, _ := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"10.1.0.1"}})
	clientNet, _ := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"10.1.0.2"}})
	for i, n := range []*vnet.Net{serverNet, clientNet} {
		lossy, err := vnet.NewLossFilter(n, 10, vnet.WithLossSeed(int64(i+7)))
		if err != nil {
			t.Fatal(err)
		}
		if err := wan.AddNet(lossy); err != nil {
			t.Fatal(err)
		}
	}
	if err := wan.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wan.Stop() })
	pconn, err := serverNet.ListenPacket("udp4", "10.1.0.1:7000")
	if err != nil {
		t.Fatal(err)
	}
	m := startRTCMatch(t, webrtc.ServerConfig{PacketConn: pconn, SettingEngine: func(se *pion.SettingEngine) { se.SetNet(serverNet) }},
		server.Config{Timeout: 10 * time.Second})
	p := m.play(t, webrtc.DialConfig{SettingEngine: func(se *pion.SettingEngine) { se.SetNet(clientNet) }}, 1)

	time.Sleep(3 * time.Second)
	before := p.c.Stats()
	fullBefore := m.match.Stats().FullFallbacks
	dark.Store(true)
	time.Sleep(2 * protocol.History * time.Second / protocol.DefaultTickRate) // two histories: ~2.1 s
	dark.Store(false)
	during := p.c.Stats()
	// SCTP sends nothing new until its retransmission timer (capped at a
	// second, SCTPRTOMax) fires on what the blackout left in flight, and
	// with 10% loss each way that retransmission or its SACK is lost about
	// one time in five, costing another second. So recovery comes a whole
	// number of seconds after the light returns: wait for 45 ticks (1.5 s
	// of play) for up to 10 s, which a lost retransmission nine times in a
	// row would miss.
	start := time.Now()
	for time.Since(start) < 10*time.Second && p.c.Stats().Decoded-during.Decoded < 45 {
		time.Sleep(50 * time.Millisecond)
	}
	recovered := time.Since(start)
	p.halt()
	after := p.c.Stats()
	t.Logf("before: decoded %d; blackout: +%d; after: +%d in %v, verified %d, matched %d, no baseline %d, stale %d; server full fallbacks %d -> %d",
		before.Decoded, during.Decoded-before.Decoded, after.Decoded-during.Decoded, recovered.Round(time.Millisecond), after.Verified, after.Matched,
		after.NoBaseline, after.Stale, fullBefore, m.match.Stats().FullFallbacks)
	if after.Mismatched != 0 || after.Matched != after.Verified {
		t.Fatalf("%d desyncs (%d of %d verified matched)", after.Mismatched, after.Matched, after.Verified)
	}
	if before.Decoded < 45 {
		t.Fatalf("only %d ticks decoded in 3 s over 10%% loss", before.Decoded)
	}
	if during.Decoded-before.Decoded > 5 {
		t.Fatalf("decoded %d ticks during a total blackout", during.Decoded-before.Decoded)
	}
	if after.Decoded-during.Decoded < 45 {
		t.Fatalf("only %d ticks decoded in the 10 s after the blackout: no recovery", after.Decoded-during.Decoded)
	}
	if m.match.Stats().FullFallbacks <= fullBefore {
		t.Fatal("no full snapshot after a blackout longer than the history")
	}
}

// A client that vanishes without a goodbye is timed out and freed; one that
// reconnects is a new player in a new epoch and converges.
func TestVanishedClientTimesOutAndReconnects(t *testing.T) {
	m := startRTCMatch(t, webrtc.ServerConfig{UDPHost: "127.0.0.1", IncludeLoopback: true}, server.Config{Timeout: time.Second})
	dial := webrtc.DialConfig{IncludeLoopback: true, SettingEngine: loopback}
	gone := m.play(t, dial, 1)
	time.Sleep(time.Second)
	gone.halt() // silent from now on, connection left open
	// The count of timeouts can be read a moment before the player's
	// removal shows in Clients: wait for both.
	deadline := time.Now().Add(2 * time.Minute)
	for st := m.match.Stats(); (st.TimedOut == 0 || st.Clients != 0) && time.Now().Before(deadline); st = m.match.Stats() {
		time.Sleep(50 * time.Millisecond)
	}
	if st := m.match.Stats(); st.TimedOut != 1 || st.Clients != 0 {
		t.Fatalf("after 1 s of silence: %+v", st)
	}
	select {
	case <-gone.c.Done():
	case <-time.After(2 * time.Minute):
		t.Fatal("the server freed the player but the connection stayed open")
	}
	back := m.play(t, dial, 2)
	waitApplied(t, m, 1, 45)
	back.halt()
	st := back.c.Stats()
	if st.Mismatched != 0 || st.Verified < 30 || st.Matched != st.Verified {
		t.Fatalf("reconnected client: %+v", st.ClientStats)
	}
	if ps := m.match.Stats().Players; len(ps) != 1 || ps[0].ID != 2 {
		t.Fatalf("players %+v", ps)
	}
}
