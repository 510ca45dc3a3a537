//go:build !js

package webrtc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/transport"
)

func post(t *testing.T, ts *testServer, method, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := ts.http.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func offerJSON(typ, sdp string) string {
	b, _ := json.Marshal(sdpMessage{Type: typ, SDP: sdp, Version: testVersion})
	return string(b)
}

// rawPeer is a pion PeerConnection built by hand, to send the server what
// Dial never would.
type rawPeer struct {
	pc     *webrtc.PeerConnection
	closed chan struct{} // closed when pc reaches closed or failed
}

// newRawPeer creates a PeerConnection with the given channels and returns it
// with its gathered offer.
func newRawPeer(t *testing.T, channels map[string]*webrtc.DataChannelInit) (*rawPeer, string) {
	t.Helper()
	log, _ := newLog(t, "raw")
	se := webrtc.SettingEngine{LoggerFactory: pionLoggerFactory{log: log}}
	se.SetIncludeLoopbackCandidate(true)
	loopbackOnly(&se)
	pc, err := webrtc.NewAPI(webrtc.WithSettingEngine(se)).NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pc.GracefulClose() })
	rp := &rawPeer{pc: pc, closed: make(chan struct{})}
	var once sync.Once
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateClosed || s == webrtc.PeerConnectionStateFailed {
			once.Do(func() { close(rp.closed) })
		}
	})
	for label, init := range channels {
		if _, err := pc.CreateDataChannel(label, init); err != nil {
			t.Fatal(err)
		}
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		t.Fatal(err)
	}
	<-gathered
	return rp, pc.LocalDescription().SDP
}

// connect posts the raw peer's offer and applies the answer.
func (rp *rawPeer) connect(t *testing.T, ts *testServer, sdp string) {
	t.Helper()
	code, body := post(t, ts, http.MethodPost, "application/json", offerJSON("offer", sdp))
	if code != http.StatusOK {
		t.Fatalf("offer: %d %s", code, body)
	}
	var ans sdpMessage
	if err := json.Unmarshal([]byte(body), &ans); err != nil || ans.Type != "answer" {
		t.Fatalf("answer %q: %v", body, err)
	}
	if err := rp.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: ans.SDP}); err != nil {
		t.Fatal(err)
	}
}

func goodChannels() map[string]*webrtc.DataChannelInit {
	m := map[string]*webrtc.DataChannelInit{}
	for ch := range transport.Channel(transport.NumChannels) {
		m[ch.String()] = channelInit(ch)
	}
	return m
}

func TestSignallingErrors(t *testing.T) {
	ts := newTestServer(t, ServerConfig{MaxSessions: 2})
	_, validSDP := newRawPeer(t, goodChannels())

	cases := []struct {
		name, method, body string
		code               int
		text               string
	}{
		{"GET", http.MethodGet, "", http.StatusMethodNotAllowed, "method not allowed"},
		{"PUT", http.MethodPut, offerJSON("offer", validSDP), http.StatusMethodNotAllowed, "method not allowed"},
		{"huge body", http.MethodPost, offerJSON("offer", strings.Repeat("a", 100<<10)), http.StatusRequestEntityTooLarge, "offer too large"},
		{"garbage", http.MethodPost, "hello, server", http.StatusBadRequest, "not an offer"},
		{"empty", http.MethodPost, "", http.StatusBadRequest, "not an offer"},
		{"answer", http.MethodPost, offerJSON("answer", validSDP), http.StatusBadRequest, "not an offer"},
		{"malformed SDP", http.MethodPost, offerJSON("offer", "v=0\r\nthis is not sdp\r\n"), http.StatusBadRequest, "malformed SDP: "},
		{"empty SDP", http.MethodPost, offerJSON("offer", ""), http.StatusBadRequest, "malformed SDP: "},
		{"an older version", http.MethodPost, `{"type":"offer","sdp":"v=0","version":4}`, http.StatusBadRequest, "protocol version 4; this server speaks 5"},
		{"no version (1)", http.MethodPost, `{"type":"offer","sdp":"v=0"}`, http.StatusBadRequest, "protocol version 1; this server speaks 5"},
	}
	for _, tc := range cases {
		code, body := post(t, ts, tc.method, "application/json", tc.body)
		if code != tc.code || !strings.HasPrefix(body, tc.text) || len(body) > 200 {
			t.Errorf("%s: got %d %q, want %d %q", tc.name, code, body, tc.code, tc.text)
		}
	}
	if n := ts.Sessions(); n != 0 {
		t.Fatalf("Sessions = %d after rejected offers, want 0", n)
	}

	// Server full: two sessions fill it; the third is refused while the
	// first two keep working.
	c1 := ts.dial(t, "c1", ts.dialConfig(t, "c1"))
	s1 := ts.accept(t)
	c2 := ts.dial(t, "c2", ts.dialConfig(t, "c2"))
	s2 := ts.accept(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard: refused at once
	defer cancel()
	_, err := Dial(ctx, ts.url, ts.dialConfig(t, "c3"))
	if !errors.Is(err, ErrSignalling) || !strings.Contains(err.Error(), "503") || !strings.Contains(err.Error(), "server full") {
		t.Fatalf("third Dial: %v, want 503 server full", err)
	}
	if code, body := post(t, ts, http.MethodPost, "application/json", offerJSON("offer", validSDP)); code != http.StatusServiceUnavailable || body != "server full" {
		t.Fatalf("offer to a full server: %d %q", code, body)
	}
	for i, p := range [][2]transport.Conn{{c1, s1}, {c2, s2}} {
		if err := p[0].Send(transport.Events, message(7, uint32(i), 20)); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Minute)
		got := 0
		for got == 0 && time.Now().Before(deadline) {
			got = p[1].Receive(func(transport.Channel, []byte) {})
			time.Sleep(time.Millisecond)
		}
		if got != 1 {
			t.Errorf("session %d stopped working while the server was full", i)
		}
	}
	// A freed slot can be used again.
	c1.Close()
	waitDone(t, s1, 2*time.Minute)
	deadline := time.Now().Add(2 * time.Minute)
	for ts.Sessions() > 1 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	ts.dial(t, "c4", ts.dialConfig(t, "c4"))
	ts.accept(t)
}

func TestRejectsBadPeers(t *testing.T) {
	ordered, unordered := true, false
	zero, three := uint16(0), uint16(3)
	cases := []struct {
		name   string
		change func(map[string]*webrtc.DataChannelInit)
		reason string
	}{
		{"reliable snapshots", func(m map[string]*webrtc.DataChannelInit) {
			m["snapshots"] = nil // pion's default: reliable and ordered
		}, "snapshots must be unordered with MaxRetransmits 0"},
		{"inputs with retransmits", func(m map[string]*webrtc.DataChannelInit) {
			m["inputs"] = &webrtc.DataChannelInit{Ordered: &unordered, MaxRetransmits: &three}
		}, "inputs must be unordered with MaxRetransmits 0"},
		{"ordered replicas", func(m map[string]*webrtc.DataChannelInit) {
			m["replicas"] = &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &zero}
		}, "replicas must be unordered with MaxRetransmits 0"},
		{"unreliable events", func(m map[string]*webrtc.DataChannelInit) {
			m["events"] = &webrtc.DataChannelInit{Ordered: &ordered, MaxRetransmits: &zero}
		}, "events must be reliable and ordered"},
		{"unknown channel", func(m map[string]*webrtc.DataChannelInit) {
			m["chat"] = nil
		}, `unknown label \"chat\"`},
		{"missing channel", func(m map[string]*webrtc.DataChannelInit) {
			delete(m, "replicas")
		}, "did not open its channels in time"},
	}
	ts := newTestServer(t, ServerConfig{ConnectTimeout: time.Second})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chans := goodChannels()
			tc.change(chans)
			rp, sdp := newRawPeer(t, chans)
			start := time.Now()
			rp.connect(t, ts, sdp)
			select {
			case <-rp.closed:
				t.Logf("server closed the peer after %v", time.Since(start))
			case <-time.After(2 * time.Minute):
				t.Fatal("server did not close the bad peer")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			if c, err := ts.Accept(ctx); err == nil {
				c.Close()
				t.Fatal("Accept returned the bad peer")
			}
			if !strings.Contains(ts.logs.String(), tc.reason) {
				t.Errorf("server log does not say %q", tc.reason)
			}
			deadline := time.Now().Add(2 * time.Minute)
			for ts.Sessions() != 0 && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if n := ts.Sessions(); n != 0 {
				t.Errorf("Sessions = %d after rejection", n)
			}
		})
	}

	// A good peer after all that is still accepted.
	rp, sdp := newRawPeer(t, goodChannels())
	rp.connect(t, ts, sdp)
	c := ts.accept(t)
	select {
	case <-c.Done():
		t.Fatal("good peer's connection ended")
	default:
	}
}

func TestServerClose(t *testing.T) {
	log, _ := newLog(t, "server")
	s, err := NewServer(ServerConfig{Version: testVersion, UDPHost: "127.0.0.1", IncludeLoopback: true, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan error, 1)
	go func() {
		_, err := s.Accept(context.Background())
		accepted <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-accepted:
		if !errors.Is(err, ErrServerClosed) {
			t.Fatalf("Accept after Close = %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Accept did not return after Close")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := NewServer(ServerConfig{Version: testVersion, UDPHost: "not-an-ip"}); err == nil {
		t.Fatal("NewServer accepted a bad UDPHost")
	}
	if _, err := NewServer(ServerConfig{UDPHost: "127.0.0.1"}); !errors.Is(err, ErrNoVersion) {
		t.Fatalf("NewServer without a Version: %v", err)
	}
}

func TestPublicIPs(t *testing.T) {
	ts := newTestServer(t, ServerConfig{PublicIPs: []string{"203.0.113.7"}})
	_, sdp := newRawPeer(t, goodChannels())
	code, body := post(t, ts, http.MethodPost, "application/json", offerJSON("offer", sdp))
	if code != http.StatusOK {
		t.Fatalf("offer: %d %s", code, body)
	}
	var ans sdpMessage
	_ = json.Unmarshal([]byte(body), &ans)
	// The public address is offered beside the interface's, never instead.
	for _, ip := range []string{"203.0.113.7", "127.0.0.1"} {
		want := ip + " " + strconv.Itoa(ts.LocalUDPPort()) + " typ host"
		if !strings.Contains(ans.SDP, want) {
			t.Errorf("answer has no %q candidate:\n%s", want, ans.SDP)
		}
	}
	if _, err := NewServer(ServerConfig{Version: testVersion, UDPHost: "127.0.0.1", PublicIPs: []string{"example.com"}}); err == nil {
		t.Error("NewServer accepted a public IP that is no IP address")
	}
}

// A server behind a NAT learns its public address from a STUN server
// through its shared socket and offers it beside its interface's; a STUN
// server that does not answer leaves it with the interface's alone.
func TestSTUNServer(t *testing.T) {
	addr, requests := testnet.STUNResponder(t, netip.MustParseAddrPort("198.51.100.9:40000"))
	ts := newTestServer(t, ServerConfig{STUNServer: addr})
	if requests.Load() == 0 {
		t.Fatal("the server asked the STUN server nothing")
	}
	if got := ts.PublicIPs(); !slices.Equal(got, []string{"198.51.100.9"}) {
		t.Fatalf("PublicIPs() = %v, want [198.51.100.9]", got)
	}
	if got, ok := ts.STUNAddr(); !ok || got != netip.MustParseAddrPort("198.51.100.9:40000") {
		t.Errorf("STUNAddr() = %v, %v; want 198.51.100.9:40000, true", got, ok)
	}
	// The NAT mapped the port to another: the server says so.
	if !strings.Contains(ts.logs.String(), "maps the UDP port to another") {
		t.Errorf("no warning of the remapped port in the log:\n%s", ts.logs.String())
	}
	_, sdp := newRawPeer(t, goodChannels())
	code, body := post(t, ts, http.MethodPost, "application/json", offerJSON("offer", sdp))
	if code != http.StatusOK {
		t.Fatalf("offer: %d %s", code, body)
	}
	var ans sdpMessage
	_ = json.Unmarshal([]byte(body), &ans)
	for _, ip := range []string{"198.51.100.9", "127.0.0.1"} {
		want := ip + " " + strconv.Itoa(ts.LocalUDPPort()) + " typ host"
		if !strings.Contains(ans.SDP, want) {
			t.Errorf("answer has no %q candidate:\n%s", want, ans.SDP)
		}
	}

	// A STUN server that never answers: a warning, no public address, and
	// the server still serves. NewServer waits for it stunTimeout (4 s); a
	// NewServer that hung would meet the test's own timeout.
	silent, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	quiet := newTestServer(t, ServerConfig{STUNServer: silent.LocalAddr().String()})
	if got := quiet.PublicIPs(); len(got) != 0 {
		t.Errorf("PublicIPs() = %v with a silent STUN server", got)
	}
	if got, ok := quiet.STUNAddr(); ok {
		t.Errorf("STUNAddr() = %v, true with a silent STUN server", got)
	}
	if !strings.Contains(quiet.logs.String(), "no public address from STUN") {
		t.Errorf("no warning of the silent STUN server:\n%s", quiet.logs.String())
	}
	c := quiet.dial(t, "client", quiet.dialConfig(t, "client"))
	c.Close()
}
