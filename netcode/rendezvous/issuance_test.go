//go:build !js

package rendezvous

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"
)

// minted records what a rendezvous asked its ICEServers to mint.
type minted struct {
	mu    sync.Mutex
	calls []mintCall
}

type mintCall struct {
	id    string
	peers []netip.Addr
}

func (m *minted) mint(id string, peers []netip.Addr) (json.RawMessage, time.Duration) {
	m.mu.Lock()
	m.calls = append(m.calls, mintCall{id, peers})
	m.mu.Unlock()
	body, _ := json.Marshal([]map[string]any{{"urls": []string{"turn:203.0.113.5:3478"}, "username": "1796000600:" + id, "credential": "c"}})
	return body, 10 * time.Minute
}

func (m *minted) all() []mintCall {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]mintCall(nil), m.calls...)
}

// iceList is the body of GET LINK/ice.
type iceList struct {
	ICEServers []struct {
		URLs     []string `json:"urls"`
		Username string   `json:"username"`
	} `json:"iceServers"`
	TTL int `json:"ttl"`
}

// getICE asks url for the ICE servers over a client of its own (a
// connection of its own, as one joining player).
func getICE(t *testing.T, client *http.Client, url string) (int, iceList) {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var l iceList
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &l); err != nil {
			t.Fatalf("GET %s: %v: %s", url, err, body)
		}
	}
	return resp.StatusCode, l
}

// A host without a relay of its own asks the rendezvous to answer its
// players' GET LINK/ice: each player's connection gets a credential of its
// own (the same when it asks again), scoped to the host's address and to
// the public address it reported within its block, never naming the
// invite; the host keeps one of its own, scoped to its address. Without
// the ask, GET LINK/ice reaches the host.
func TestRendezvousHandsEachPlayerACredential(t *testing.T) {
	var m minted
	var logs lockedLog
	r := newRigHost(t, ServerConfig{ClientRate: rate.Inf, ICEServers: m.mint, Logger: slog.New(slog.NewTextHandler(&logs, nil))},
		HostConfig{Handler: echo(), UseRelay: true, PublicIPs: []netip.Addr{
			netip.MustParseAddr("127.0.0.9"),    // the host's block: taken
			netip.MustParseAddr("198.51.100.9"), // another's: ignored
		}})
	inv := r.invite(t)
	loop := netip.MustParseAddr("127.0.0.1")
	calls := m.all()
	if len(calls) != 1 || len(calls[0].peers) != 1 || calls[0].peers[0] != loop {
		t.Fatalf("the host's own credential: %+v, want one scoped to 127.0.0.1", calls)
	}
	if got := string(inv.ICEServers); !strings.Contains(got, calls[0].id) {
		t.Errorf("the welcome's servers %s lack the host's credential %s", got, calls[0].id)
	}
	// The relay message crosses after the welcome: wait for it to count.
	p1 := &http.Client{Transport: &http.Transport{}}
	p2 := &http.Client{Transport: &http.Transport{}}
	defer p1.CloseIdleConnections()
	defer p2.CloseIdleConnections()
	var first iceList
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		code, l := getICE(t, p1, inv.URL+"/ice")
		if code == http.StatusOK && len(l.ICEServers) == 1 && l.ICEServers[0].Username != "" {
			first = l
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET LINK/ice never answered by the rendezvous: %d %+v", code, l)
		}
	}
	_, again := getICE(t, p1, inv.URL+"/ice")
	_, other := getICE(t, p2, inv.URL+"/ice")
	u1, u1again, u2 := first.ICEServers[0].Username, again.ICEServers[0].Username, other.ICEServers[0].Username
	if u1 != u1again || u1 == u2 || first.TTL != 600 {
		t.Errorf("one player twice: %q, %q; another: %q (ttl %d)", u1, u1again, u2, first.TTL)
	}
	want := []netip.Addr{loop, netip.MustParseAddr("127.0.0.9")}
	for _, c := range m.all()[1:] {
		if fmt.Sprint(c.peers) != fmt.Sprint(want) {
			t.Errorf("a player's credential %s scoped to %v, want %v", c.id, c.peers, want)
		}
	}
	for _, c := range m.all() {
		for i := 0; i+6 <= len(inv.Code); i++ {
			if strings.Contains(c.id, inv.Code[i:i+6]) {
				t.Errorf("credential id %q holds %q of the code %s", c.id, inv.Code[i:i+6], inv.Code)
			}
		}
	}
	if st := r.srv.Stats(); st.ICEServed < 3 {
		t.Errorf("stats %+v", st)
	}
	// The rendezvous logs no invite at INFO.
	if strings.Contains(logs.String(), inv.Code[:8]) {
		t.Errorf("the rendezvous logged the invite code:\n%s", logs.String())
	}

	// A host that does not ask: its players' GET LINK/ice is its own.
	plain := newRig(t, ServerConfig{ClientRate: rate.Inf, ICEServers: m.mint}, echo())
	if resp, body := do(t, "GET", plain.invite(t).URL+"/ice", "", ""); resp.StatusCode != 200 || body != `{"iceServers":[]}` {
		t.Errorf("GET LINK/ice of a host that did not ask: %d %q, want the host's answer", resp.StatusCode, body)
	}
}

// lockedLog is a buffer a logger writes while the test reads it.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// GET LINK/ice answered by the rendezvous is rate-limited per client
// address.
func TestRendezvousICERateLimited(t *testing.T) {
	var m minted
	r := newRigHost(t, ServerConfig{ClientRate: rate.Inf, ICEServers: m.mint}, HostConfig{Handler: echo(), UseRelay: true})
	inv := r.invite(t)
	for deadline := time.Now().Add(2 * time.Minute); r.srv.Stats().ICEServed == 0; time.Sleep(20 * time.Millisecond) {
		if code, _ := getICE(t, http.DefaultClient, inv.URL+"/ice"); code != http.StatusOK || time.Now().After(deadline) {
			t.Fatalf("GET LINK/ice: %d", code)
		}
	}
	codes := map[int]int{}
	for range 100 {
		code, _ := getICE(t, http.DefaultClient, inv.URL+"/ice")
		codes[code]++
	}
	if codes[http.StatusTooManyRequests] < 90 {
		t.Errorf("100 requests from one address: %v, want at least 90 refused", codes)
	}
}

// dialHost opens a host's WebSocket as the address fake (the ClientKey
// the test's rendezvous reads from X-Fake) and reads its welcome.
func dialHost(t *testing.T, base, fake string) (*websocket.Conn, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/host",
		&websocket.DialOptions{HTTPHeader: http.Header{"X-Fake": {fake}}})
	if err != nil {
		return nil, err
	}
	if _, data, err := ws.Read(ctx); err != nil {
		ws.CloseNow()
		return nil, err
	} else if m, err := ParseMessage(data); err != nil || m.Type != TypeWelcome {
		ws.CloseNow()
		return nil, fmt.Errorf("first message %s: %v", data, err)
	}
	return ws, nil
}

// The addresses of one customer (an IPv6 /56, an IPv4 /24) hold at most
// MaxHostsPerBlock hosts however many addresses they take; a host from
// elsewhere still connects.
func TestHostsPerBlock(t *testing.T) {
	for _, tc := range []struct {
		name string
		addr func(i int) string
	}{
		{"256 /64s of one IPv6 /56", func(i int) string { return fmt.Sprintf("2001:db8:0:%x::1", i) }},
		{"256 addresses of one IPv4 /24", func(i int) string { return fmt.Sprintf("198.51.100.%d", i) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewServer(ServerConfig{Logger: slog.New(slog.DiscardHandler), HostRate: rate.Inf,
				ClientKey: func(r *http.Request) string {
					return fmt.Sprint(blockKeyOf(r.Header.Get("X-Fake")))
				}})
			hs := newTestHTTP(t, srv)
			var held []*websocket.Conn
			defer func() {
				for _, ws := range held {
					ws.CloseNow()
				}
			}()
			for i := range 256 {
				if ws, err := dialHost(t, hs, tc.addr(i)); err == nil {
					held = append(held, ws)
				}
			}
			t.Logf("%d of 256 addresses of one block hold a host", len(held))
			if len(held) > DefaultMaxHostsPerBlock {
				t.Errorf("one block holds %d hosts, want at most %d", len(held), DefaultMaxHostsPerBlock)
			}
			ws, err := dialHost(t, hs, "203.0.113.77")
			if err != nil {
				t.Fatalf("a host of another block: %v", err)
			}
			ws.CloseNow()
		})
	}
}

// blockKeyOf is the default ClientKey of an address written out.
func blockKeyOf(addr string) string {
	return NewServer(ServerConfig{}).cfg.ClientKey(&http.Request{RemoteAddr: netip.AddrPortFrom(netip.MustParseAddr(addr), 1).String()})
}

func newTestHTTP(t *testing.T, srv *Server) string {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
	})
	return hs.URL
}

// A host's answer crosses as signalling data only: JSON or plain text,
// anything else as plain text, never sniffed, sandboxed.
func TestAnswersAreData(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /signal", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("type"))
		io.WriteString(w, "<html><script>alert(1)</script></html>")
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	r := newRig(t, ServerConfig{ClientRate: rate.Inf}, mux)
	inv := r.invite(t)
	for sent, want := range map[string]string{
		"application/json":               "application/json",
		"text/plain; charset=utf-8":      "text/plain; charset=utf-8",
		"text/html":                      "text/plain; charset=utf-8",
		"application/javascript":         "text/plain; charset=utf-8",
		"image/svg+xml":                  "text/plain; charset=utf-8",
		"text/html; x=application/json":  "text/plain; charset=utf-8",
		"":                               "text/plain; charset=utf-8",
		"application/json; charset=utf8": "application/json; charset=utf8",
	} {
		resp, _ := do(t, "POST", inv.URL+"/signal?type="+strings.ReplaceAll(strings.ReplaceAll(sent, " ", "%20"), ";", "%3B"), "", "x")
		if got := resp.Header.Get("Content-Type"); got != want {
			t.Errorf("a host's %q: passed on as %q, want %q", sent, got, want)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Content-Security-Policy") != "default-src 'none'; sandbox" {
			t.Errorf("a host's %q: headers %v", sent, resp.Header)
		}
	}
	if resp, body := do(t, "GET", inv.URL+"/healthz", "", ""); resp.StatusCode != 200 || body != "ok\n" || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("GET LINK/healthz: %d %q %v", resp.StatusCode, body, resp.Header)
	}
}

// A response to no request ends the host's connection; a late answer to
// one the rendezvous stopped waiting for does not.
func TestUnsolicitedResponse(t *testing.T) {
	srv := NewServer(ServerConfig{Logger: slog.New(slog.DiscardHandler), RequestTimeout: 100 * time.Millisecond, ClientRate: rate.Inf})
	base := newTestHTTP(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	ws, _, err := websocket.Dial(ctx, strings.Replace(base, "http", "ws", 1)+"/host", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	_, data, err := ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	welcome, _ := ParseMessage(data)
	// A request the host answers too late: 504, then the late answer is
	// dropped and the host stays.
	got := make(chan int, 1)
	go func() {
		resp, err := http.Post(welcome.URL+"/signal", "application/json", strings.NewReader("{}"))
		if err != nil {
			got <- 0
			return
		}
		resp.Body.Close()
		got <- resp.StatusCode
	}()
	_, data, err = ws.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := ParseMessage(data)
	if code := <-got; code != http.StatusGatewayTimeout {
		t.Fatalf("a slow host: %d, want 504", code)
	}
	sendMsg(ctx, t, ws, Message{Type: TypeResponse, ID: req.ID, Status: 200})
	time.Sleep(100 * time.Millisecond)
	if st := srv.Stats(); st.Hosts != 1 || st.Unsolicited != 0 {
		t.Fatalf("after a late answer: %+v", st)
	}
	// An answer to a request never sent: the connection ends.
	sendMsg(ctx, t, ws, Message{Type: TypeResponse, ID: req.ID + 1000, Status: 200})
	if _, _, err := ws.Read(ctx); err == nil {
		t.Fatal("the host's connection outlived an unsolicited response")
	}
	for deadline := time.Now().Add(2 * time.Minute); srv.Stats().Hosts != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the rendezvous still holds the host: %+v", srv.Stats())
		}
	}
	if st := srv.Stats(); st.Unsolicited != 1 {
		t.Errorf("stats %+v", st)
	}
}

// The browser build under an invite carries a strict policy, and one
// address pulls it no faster than StaticRate beyond StaticBurst; another
// address is not held up.
func TestStaticPolicyAndPace(t *testing.T) {
	wasm := make([]byte, 100_000)
	rand.Read(wasm)
	static := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		w.Write(wasm)
	})
	var fake sync.Map // the address each client counts as, by its request's User-Agent
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, Static: static, StaticRate: 100_000, StaticBurst: 60_000,
		ClientKey: func(r *http.Request) string {
			if v, ok := fake.Load(r.Header.Get("User-Agent")); ok {
				return v.(string)
			}
			return "other"
		}}, echo())
	fake.Store("a", "198.51.100.7")
	fake.Store("b", "198.51.100.8")
	inv := r.invite(t)
	pull := func(agent string) (time.Duration, *http.Response) {
		req, _ := http.NewRequest("GET", inv.URL+"/game.wasm", nil)
		req.Header.Set("User-Agent", agent)
		req.Header.Set("Accept-Encoding", "identity")
		began := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if n != int64(len(wasm)) {
			t.Fatalf("pulled %d bytes of %d", n, len(wasm))
		}
		return time.Since(began), resp
	}
	d1, resp := pull("a")
	d2, _ := pull("a")
	// 140 kB beyond the burst at 100 kB/s: 1.4 s at the least, however
	// fast the machine; the second pull alone 1 s, where another address's
	// first, its burst whole, takes 0.4 s.
	if d1+d2 < 1400*time.Millisecond {
		t.Errorf("one address pulled 200 kB at 100 kB/s beyond a 60 kB burst in %v, want at least 1.4 s", d1+d2)
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != DefaultStaticPolicy || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the build's headers: %v", resp.Header)
	}
	if d, _ := pull("b"); d > d2 {
		t.Errorf("another address took %v, the busy one %v", d, d2)
	}
}
