//go:build !js

package webrtc

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/transport/v5/vnet"
	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/netcode/transport"
)

// TestVNetLossAndDelay runs a server and a client in one process over a
// virtual network that loses 10% of the packets each way and delays each by
// 25-30 ms: the channels open, unreliable messages arrive in part, and every
// event arrives in order.
func TestVNetLossAndDelay(t *testing.T) {
	log, _ := newLog(t, "vnet")
	wan, err := vnet.NewRouter(&vnet.RouterConfig{
		CIDR:          "1.2.3.0/24",
		MinDelay:      25 * time.Millisecond,
		MaxJitter:     5 * time.Millisecond,
		LoggerFactory: pionLoggerFactory{log: log},
	})
	if err != nil {
		t.Fatal(err)
	}
	serverNet, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"1.2.3.4"}})
	if err != nil {
		t.Fatal(err)
	}
	clientNet, err := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"1.2.3.5"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range []*vnet.Net{serverNet, clientNet} {
		lossy, err := vnet.NewLossFilter(n, 10, vnet.WithLossSeed(int64(i+1)))
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
	t.Cleanup(func() { _ = wan.Stop() }) // runs after the server's and clients' cleanups

	pconn, err := serverNet.ListenPacket("udp4", "1.2.3.4:7000")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, ServerConfig{
		PacketConn:    pconn,
		SettingEngine: func(se *webrtc.SettingEngine) { se.SetNet(serverNet) },
	})
	clientLog, _ := newLog(t, "client")
	cfg := DialConfig{
		HTTPClient:    ts.http.Client(),
		Logger:        clientLog,
		SettingEngine: func(se *webrtc.SettingEngine) { se.SetNet(clientNet) },
	}
	start := time.Now()
	cc := ts.dial(t, "client", cfg)
	t.Logf("channels open after %v over 10%% loss and 25ms delay", time.Since(start))
	sc := ts.accept(t)
	if port := ts.LocalUDPPort(); port != 7000 {
		t.Errorf("LocalUDPPort = %d, want 7000", port)
	}

	const n, m = 400, 60
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	up := traffic{tag: 1, ch: transport.Inputs, n: n, m: m, size: 100, burst: 1}
	down := traffic{tag: 2, ch: transport.Snapshots, n: n, m: m, size: 600, burst: 1}
	done := make(chan result, 1)
	go func() { done <- pump(ctx, sc, down, up, time.Second) }()
	atClient := pump(ctx, cc, up, down, time.Second)
	atServer := <-done
	for _, x := range []struct {
		who string
		r   result
	}{{"client", atClient}, {"server", atServer}} {
		t.Logf("%s: %d/%d unreliable, %d/%d events", x.who, x.r.unreliable, n, len(x.r.events), m)
		if x.r.sendErr != nil {
			t.Errorf("%s: send: %v", x.who, x.r.sendErr)
		}
		if x.r.unreliable == 0 || x.r.unreliable >= n {
			t.Errorf("%s: %d of %d unreliable messages arrived over a lossy link", x.who, x.r.unreliable, n)
		}
		if x.r.dupes != 0 || x.r.corrupt != 0 {
			t.Errorf("%s: %d duplicates, %d corrupt", x.who, x.r.dupes, x.r.corrupt)
		}
		checkEvents(t, x.who, x.r.events, m)
	}
}

// TestVNetBlackout cuts a working virtual link: with short ICE timeouts both
// ends go "disconnected", and after DisconnectTimeout both connections end.
func TestVNetBlackout(t *testing.T) {
	log, _ := newLog(t, "vnet")
	wan, err := vnet.NewRouter(&vnet.RouterConfig{CIDR: "1.2.3.0/24", LoggerFactory: pionLoggerFactory{log: log}})
	if err != nil {
		t.Fatal(err)
	}
	var blackout atomic.Bool
	wan.AddChunkFilter(func(vnet.Chunk) bool { return !blackout.Load() })
	serverNet, _ := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"1.2.3.4"}})
	clientNet, _ := vnet.NewNet(&vnet.NetConfig{StaticIPs: []string{"1.2.3.5"}})
	for _, n := range []*vnet.Net{serverNet, clientNet} {
		if err := wan.AddNet(n); err != nil {
			t.Fatal(err)
		}
	}
	if err := wan.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = wan.Stop() })

	// ICE: disconnected after 500ms of silence, failed only after 10s more;
	// the connection must end earlier, by DisconnectTimeout.
	shortICE := func(n *vnet.Net) func(*webrtc.SettingEngine) {
		return func(se *webrtc.SettingEngine) {
			se.SetNet(n)
			se.SetICETimeouts(500*time.Millisecond, 10*time.Second, 100*time.Millisecond)
		}
	}
	connCfg := ConnConfig{DisconnectTimeout: 300 * time.Millisecond}
	pconn, err := serverNet.ListenPacket("udp4", "1.2.3.4:7000")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, ServerConfig{PacketConn: pconn, SettingEngine: shortICE(serverNet), ConnConfig: connCfg})
	clientLog, _ := newLog(t, "client")
	cc := ts.dial(t, "client", DialConfig{
		ConnConfig:    connCfg,
		HTTPClient:    ts.http.Client(),
		Logger:        clientLog,
		SettingEngine: shortICE(clientNet),
	})
	sc := ts.accept(t)
	time.Sleep(200 * time.Millisecond)
	select {
	case <-cc.Done():
		t.Fatal("client ended before the blackout")
	case <-sc.Done():
		t.Fatal("server conn ended before the blackout")
	default:
	}

	blackout.Store(true)
	start := time.Now()
	for who, c := range map[string]transport.Conn{"client": cc, "server": sc} {
		waitDone(t, c, 2*time.Minute)
		err := c.(*conn).Err()
		t.Logf("%s ended %v after the blackout: %v", who, time.Since(start).Round(time.Millisecond), err)
		if !errors.Is(err, ErrPeerGone) || !strings.Contains(err.Error(), "disconnected") {
			t.Errorf("%s: cause %v, want disconnected", who, err)
		}
	}
}
