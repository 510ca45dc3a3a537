//go:build !js

package rendezvous

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"
	"golang.org/x/time/rate"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// echo is a host's handler that tells what it was asked.
func echo() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /signal", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "3")
		w.Header().Set("X-Secret", "not forwarded")
		w.WriteHeader(http.StatusAccepted)
		fmt.Fprintf(w, "%s %s?%s from %s auth %q other %q body %q", r.Method, r.URL.Path, r.URL.RawQuery, r.RemoteAddr,
			r.Header.Get("Authorization"), r.Header.Get("X-Other"), body)
	})
	mux.HandleFunc("GET /ice", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond) // a slow answer
		io.WriteString(w, `{"iceServers":[]}`)
	})
	mux.HandleFunc("GET /matches", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", MaxBodyBytes+1)) // too large to cross
	})
	return mux
}

// rig is a rendezvous on loopback and a host connected to it.
type rig struct {
	srv     *Server
	http    *httptest.Server
	invites chan Invite
	stop    context.CancelFunc
	done    chan error
}

func newRig(t *testing.T, cfg ServerConfig, handler http.Handler) *rig {
	t.Helper()
	return newRigHost(t, cfg, HostConfig{Handler: handler})
}

// newRigHost is newRig with a host of hc (its URL, backoff, logger and
// OnInvite set here).
func newRigHost(t *testing.T, cfg ServerConfig, hc HostConfig) *rig {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	srv := NewServer(cfg)
	hs := httptest.NewServer(srv)
	ctx, stop := context.WithCancel(context.Background())
	r := &rig{srv: srv, http: hs, invites: make(chan Invite, 8), stop: stop, done: make(chan error, 1)}
	go func() {
		hc.URL, hc.MinBackoff, hc.Logger = hs.URL, 20*time.Millisecond, quiet
		hc.OnInvite = func(inv Invite) { r.invites <- inv }
		r.done <- Host(ctx, hc)
	}()
	t.Cleanup(func() {
		stop()
		<-r.done
		srv.Close()
		hs.Close()
	})
	return r
}

func (r *rig) invite(t *testing.T) Invite {
	t.Helper()
	select {
	case inv := <-r.invites:
		return inv
	case <-time.After(2 * time.Minute):
		t.Fatal("no invite")
		return Invite{}
	}
}

func do(t *testing.T, method, url, auth, body string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("X-Other", "not forwarded")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func TestForwarding(t *testing.T) {
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, MaxBodyBytes: 1000}, echo())
	inv := r.invite(t)
	if !strings.HasPrefix(inv.URL, r.http.URL+"/i/") || len(inv.Code) != 26 || !validCode(inv.Code) {
		t.Fatalf("invite %+v", inv)
	}
	resp, body := do(t, "POST", inv.URL+"/signal?match=2", "Bearer tok", `{"type":"offer"}`)
	want := "POST /signal?match=2 from 127.0.0.1:"
	if resp.StatusCode != http.StatusAccepted || !strings.HasPrefix(body, want) || !strings.HasSuffix(body, `auth "Bearer tok" other "" body "{\"type\":\"offer\"}"`) {
		t.Fatalf("forwarded: %d %q", resp.StatusCode, body)
	}
	if resp.Header.Get("Retry-After") != "3" || resp.Header.Get("Content-Type") != "application/json" ||
		resp.Header.Get("X-Secret") != "" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("headers %v", resp.Header)
	}
	if resp, body := do(t, "GET", inv.URL+"/ice", "", ""); resp.StatusCode != 200 || body != `{"iceServers":[]}` {
		t.Errorf("GET /ice: %d %q", resp.StatusCode, body)
	}
	if resp, _ := do(t, "GET", inv.URL+"/matches", "", ""); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("an answer too large: %d, want 502", resp.StatusCode)
	}
	for _, tc := range []struct {
		method, url string
		want        int
	}{
		{"GET", inv.URL + "/signal", http.StatusMethodNotAllowed},
		{"GET", inv.URL + "/metrics", http.StatusNotFound},
		{"GET", r.http.URL + "/i/" + strings.Repeat("a", 26) + "/ice", http.StatusNotFound},
		{"GET", r.http.URL + "/i/short/ice", http.StatusNotFound},
		{"GET", r.http.URL + "/nothing", http.StatusNotFound},
		{"GET", r.http.URL + "/healthz", http.StatusOK},
	} {
		if resp, body := do(t, tc.method, tc.url, "", ""); resp.StatusCode != tc.want {
			t.Errorf("%s %s: %d %q, want %d", tc.method, tc.url, resp.StatusCode, body, tc.want)
		}
	}
	if resp, _ := do(t, "GET", inv.URL+"/signal", "", ""); resp.Header.Get("Allow") != "POST" {
		t.Errorf("405's Allow: %q, want POST", resp.Header.Get("Allow"))
	}
	if resp, _ := do(t, "POST", inv.URL+"/signal", "", strings.Repeat("x", 1001)); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over MaxBodyBytes: %d, want 413", resp.StatusCode)
	}
	if resp, body := do(t, "POST", inv.URL+"/signal", "", strings.Repeat("x", 1000)); resp.StatusCode != http.StatusAccepted || !strings.Contains(body, strings.Repeat("x", 1000)) {
		t.Errorf("a body of MaxBodyBytes: %d, want 202 with the body", resp.StatusCode)
	}
	st := r.srv.Stats()
	if st.Hosts != 1 || st.Forwarded != 4 || st.RefusedNoInvite != 2 {
		t.Errorf("stats %+v", st)
	}
}

// A host busy answering keeps its invite: the rendezvous's pings are
// answered behind the host's answers, and reading those never waits on a
// ping in flight (it did: a ping sent as an answer came in waited for a
// pong that nothing read, and dropped the host when it timed out).
func TestBusyHostAnswersPings(t *testing.T) {
	// Pings every 20 ms while four clients keep the host answering. A
	// pong stuck behind an answer nothing reads never arrives: the pongs
	// stop, and 5 s later the host is dropped. A late pong (a loaded
	// machine) is no fault, so the host has 5 s to answer each, and the
	// test lasts until 50 pings are answered, not for a set time.
	const want = 50
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, PingInterval: 20 * time.Millisecond, PongTimeout: 5 * time.Second}, echo())
	inv := r.invite(t)
	stop := time.Now().Add(2 * time.Minute) // a hang guard: the test ends at 50 pongs
	var wg sync.WaitGroup
	var answered, failed atomic.Int64
	for range 4 {
		wg.Go(func() {
			for time.Now().Before(stop) && r.srv.Stats().Pongs < want && failed.Load() == 0 {
				resp, _ := do(t, "POST", inv.URL+"/signal", "", "x")
				if resp.StatusCode == http.StatusAccepted {
					answered.Add(1)
				} else {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	st := r.srv.Stats()
	if failed.Load() != 0 || st.HostsTotal != 1 || st.Hosts != 1 || st.NoPong != 0 || st.Pongs < want {
		t.Fatalf("%d requests answered, %d not; %d hosts connected of %d welcomed, %d pings answered, %d hosts dropped unanswering; want the one host kept and %d pings answered",
			answered.Load(), failed.Load(), st.Hosts, st.HostsTotal, st.Pongs, st.NoPong, want)
	}
	t.Logf("%d requests answered while %d pings were", answered.Load(), st.Pongs)
}

func TestInviteDiesWithHost(t *testing.T) {
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, RequestTimeout: 100 * time.Millisecond}, echo())
	inv := r.invite(t)
	// A host slower than RequestTimeout: 504.
	if resp, _ := do(t, "GET", inv.URL+"/ice", "", ""); resp.StatusCode != http.StatusGatewayTimeout {
		t.Errorf("a slow host: %d, want 504", resp.StatusCode)
	}
	// The rendezvous drops the host (as when its connection breaks): the
	// host reconnects with a new code, and the old one is dead.
	r.srv.mu.Lock()
	for _, h := range r.srv.hosts {
		h.ws.CloseNow()
	}
	r.srv.mu.Unlock()
	again := r.invite(t)
	if again.Code == inv.Code {
		t.Fatal("the new connection kept the old code")
	}
	if resp, _ := do(t, "POST", inv.URL+"/signal", "", "x"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the dead code: %d, want 404", resp.StatusCode)
	}
	if resp, _ := do(t, "POST", again.URL+"/signal", "", "x"); resp.StatusCode != http.StatusAccepted {
		t.Errorf("the new code: %d, want 202", resp.StatusCode)
	}
	// The host leaves while a request waits: 502, and the code is dead.
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	r2 := newRig(t, ServerConfig{ClientRate: rate.Inf}, slow)
	inv2 := r2.invite(t)
	go func() { time.Sleep(200 * time.Millisecond); r2.stop() }()
	if resp, _ := do(t, "POST", inv2.URL+"/signal", "", "x"); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("host gone mid-request: %d, want 502", resp.StatusCode)
	}
	for deadline := time.Now().Add(2 * time.Minute); r2.srv.Stats().Hosts != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the rendezvous still holds the host that left")
		}
	}
	if resp, _ := do(t, "POST", inv2.URL+"/signal", "", "x"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("after the host left: %d, want 404", resp.StatusCode)
	}
}

func TestLimits(t *testing.T) {
	r := newRig(t, ServerConfig{ClientRate: 1, ClientBurst: 3, MaxHostsPerIP: 1}, echo())
	inv := r.invite(t)
	codes := map[int]int{}
	var retry string
	for range 5 {
		resp, _ := do(t, "POST", inv.URL+"/signal", "", "x")
		codes[resp.StatusCode]++
		if resp.StatusCode == http.StatusTooManyRequests {
			retry = resp.Header.Get("Retry-After")
		}
	}
	if codes[http.StatusAccepted] != 3 || codes[http.StatusTooManyRequests] != 2 || retry != "1" {
		t.Errorf("5 requests at burst 3: %v, Retry-After %q", codes, retry)
	}
	// A second host from the same address: refused.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := Host(ctx, HostConfig{URL: r.http.URL, Handler: echo(), MinBackoff: 50 * time.Millisecond, Logger: slog.New(slog.DiscardHandler),
		OnInvite: func(Invite) { t.Error("a second host of one address got an invite") }})
	if err != context.DeadlineExceeded {
		t.Errorf("second host: %v", err)
	}
	if st := r.srv.Stats(); st.RefusedHosts == 0 {
		t.Errorf("no host refused: %+v", st)
	}
}

func TestStaticAndICE(t *testing.T) {
	static := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "static "+r.URL.Path)
	})
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, Static: static, ICEServers: func(id string, peers []netip.Addr) (json.RawMessage, time.Duration) {
		return json.RawMessage(`[{"urls":["stun:203.0.113.5:3478"]}]`), 10 * time.Minute
	}}, echo())
	inv := r.invite(t)
	if string(inv.ICEServers) != `[{"urls":["stun:203.0.113.5:3478"]}]` || inv.TTL != 10*time.Minute {
		t.Errorf("invite's ICE servers: %s, %v", inv.ICEServers, inv.TTL)
	}
	for path, want := range map[string]string{
		"/": "static /", "/game.wasm": "static /game.wasm", "/assets/": "static /assets/",
		"/x/%2e%2e/game.wasm": "static /game.wasm", "/%2e%2e/%2e%2e/host": "static /host", // dot segments stay inside
	} {
		if resp, body := do(t, "GET", inv.URL+path, "", ""); resp.StatusCode != 200 || body != want {
			t.Errorf("GET %s: %d %q", path, resp.StatusCode, body)
		}
	}
	// /i/CODE redirects to /i/CODE/, for the page's relative links.
	resp, _ := do(t, "GET", inv.URL, "", "")
	if resp.Request.URL.Path != "/i/"+inv.Code+"/" {
		t.Errorf("GET %s ended at %s", inv.URL, resp.Request.URL)
	}
	if resp, _ := do(t, "GET", r.http.URL+"/i/"+newCode()+"/", "", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("static of no invite: %d", resp.StatusCode)
	}
}

func TestCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		c := newCode()
		if !validCode(c) || seen[c] {
			t.Fatalf("code %q (seen %v)", c, seen[c])
		}
		seen[c] = true
	}
	if _, err := hostURL("ftp://x"); err == nil {
		t.Error("hostURL took ftp")
	}
	if u, err := hostURL("https://r.example:8090/base/"); err != nil || u != "wss://r.example:8090/base/host" {
		t.Errorf("hostURL: %q, %v", u, err)
	}
}

func TestParseMessage(t *testing.T) {
	good := []string{
		`{"type":"welcome","code":"` + strings.Repeat("a", 26) + `","url":"http://r/i/x"}`,
		`{"type":"request","id":1,"method":"POST","path":"/signal","query":"match=1","remote":"1.2.3.4:5","header":{"Authorization":["Bearer x"]},"body":"eA=="}`,
		`{"type":"response","id":1,"status":503,"header":{"Retry-After":["1"]}}`,
		`{"type":"ice","iceServers":[],"ttl":600}`,
	}
	for _, g := range good {
		if _, err := ParseMessage([]byte(g)); err != nil {
			t.Errorf("ParseMessage(%s): %v", g, err)
		}
	}
	bad := []string{
		`{}`, `[]`, `{"type":"hello"}`,
		`{"type":"welcome","code":"short","url":"x"}`,
		`{"type":"request","method":"DELETE","path":"/x"}`,
		`{"type":"request","method":"GET","path":"x"}`,
		`{"type":"request","method":"GET PUT","path":"/x"}`,
		`{"type":"response","status":99}`,
		`{"type":"ice"}`,
		`{"type":"response","status":200,"ttl":-1}`,
		`{"type":"response","status":200,"header":{"":["x"]}}`,
	}
	for _, b := range bad {
		if _, err := ParseMessage([]byte(b)); err == nil {
			t.Errorf("ParseMessage(%s) accepted", b)
		}
	}
}

// ParseMessage never panics, and what it accepts re-encodes to a message
// it reads back the same.
func FuzzParseMessage(f *testing.F) {
	f.Add([]byte(`{"type":"request","id":1,"method":"POST","path":"/signal","query":"match=1","remote":"1.2.3.4:5","header":{"Authorization":["Bearer x"]},"body":"eA=="}`))
	f.Add([]byte(`{"type":"welcome","code":"` + strings.Repeat("b", 26) + `","url":"http://r/i/x","iceServers":[{"urls":["stun:a"]}],"ttl":600}`))
	f.Add([]byte(`{"type":"response","id":9,"status":200,"body":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMessage(data)
		if err != nil {
			return
		}
		enc, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseMessage(enc)
		if err != nil {
			t.Fatalf("re-encoded %s: %v", enc, err)
		}
		enc2, _ := json.Marshal(m2)
		if string(enc) != string(enc2) {
			t.Fatalf("round trip:\n%s\n%s", enc, enc2)
		}
		// Field by field, the same message (an empty body or header and
		// the ICE list's spacing being all that encoding may drop).
		norm := func(m Message) Message {
			if len(m.Body) == 0 {
				m.Body = nil
			}
			if len(m.Header) == 0 {
				m.Header = nil
			}
			if len(m.ICEServers) > 0 {
				var b bytes.Buffer
				if err := json.Compact(&b, m.ICEServers); err != nil {
					t.Fatalf("ice servers %q: %v", m.ICEServers, err)
				}
				m.ICEServers = b.Bytes()
			}
			return m
		}
		if a, b := norm(m), norm(m2); !reflect.DeepEqual(a, b) {
			t.Fatalf("round trip changed the message:\n%+v\n%+v", a, b)
		}
	})
}

func TestHostConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  HostConfig
		want error
	}{
		{"no scheme", HostConfig{URL: "203.0.113.5:8090", Handler: echo()}, ErrBadURL},
		{"ftp", HostConfig{URL: "ftp://203.0.113.5", Handler: echo()}, ErrBadURL},
		{"no host", HostConfig{URL: "http://", Handler: echo()}, ErrBadURL},
		{"no handler", HostConfig{URL: "http://203.0.113.5:8090"}, ErrNoHandler},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Refused at once, not when the context ends (in 10
			// minutes, which no busy machine's delay reaches).
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			err := Host(ctx, tc.cfg)
			if !errors.Is(err, tc.want) {
				t.Errorf("Host: %v, want %v", err, tc.want)
			}
			if ctx.Err() != nil {
				t.Errorf("Host refused only once its context ended: %v", ctx.Err())
			}
		})
	}
}

func TestClientKey(t *testing.T) {
	key := NewServer(ServerConfig{}).cfg.ClientKey
	for _, tc := range []struct{ a, b string }{
		{"198.51.100.7:51000", "198.51.100.7:40000"},              // one IPv4 address, two ports
		{"[2001:db8:1:2::1]:5000", "[2001:db8:1:2:ffff::9]:6000"}, // one /64
		{"[::ffff:198.51.100.7]:1", "198.51.100.7:2"},             // IPv4-mapped
	} {
		ka, kb := key(&http.Request{RemoteAddr: tc.a}), key(&http.Request{RemoteAddr: tc.b})
		if ka != kb {
			t.Errorf("%s and %s: keys %q and %q, want one", tc.a, tc.b, ka, kb)
		}
	}
	for _, tc := range []struct{ a, b string }{
		{"198.51.100.7:1", "198.51.100.8:1"},
		{"[2001:db8:1:2::1]:1", "[2001:db8:1:3::1]:1"}, // neighbouring /64s
	} {
		if ka, kb := key(&http.Request{RemoteAddr: tc.a}), key(&http.Request{RemoteAddr: tc.b}); ka == kb {
			t.Errorf("%s and %s share key %q", tc.a, tc.b, ka)
		}
	}
	if got := key(&http.Request{RemoteAddr: "[2001:db8:1:2::1]:5000"}); got != "2001:db8:1:2::/64" {
		t.Errorf("IPv6 key %q, want 2001:db8:1:2::/64", got)
	}

	// A ClientKey of its own: each key its own bucket.
	r := newRig(t, ServerConfig{ClientRate: rate.Every(time.Hour), ClientBurst: 1,
		ClientKey: func(r *http.Request) string { return r.Header.Get("Authorization") }}, echo())
	inv := r.invite(t)
	for _, tc := range []struct {
		auth string
		want int
	}{{"a", http.StatusAccepted}, {"a", http.StatusTooManyRequests}, {"b", http.StatusAccepted}, {"b", http.StatusTooManyRequests}} {
		if resp, _ := do(t, "POST", inv.URL+"/signal", tc.auth, "x"); resp.StatusCode != tc.want {
			t.Errorf("key %q: %d, want %d", tc.auth, resp.StatusCode, tc.want)
		}
	}
}

// fakeRendezvous is a rendezvous that sends the host what a test says
// and hands back what the host answers.
func fakeRendezvous(t *testing.T, script func(ctx context.Context, ws *websocket.Conn)) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer ws.CloseNow()
		script(r.Context(), ws)
	}))
	t.Cleanup(hs.Close)
	return hs
}

func sendMsg(ctx context.Context, t *testing.T, ws *websocket.Conn, m Message) {
	data, _ := json.Marshal(m)
	if err := ws.Write(ctx, websocket.MessageText, data); err != nil {
		t.Error(err)
	}
}

func TestHostServesHostileRendezvous(t *testing.T) {
	release := make(chan struct{})
	seen := make(chan string, 1)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/block" {
			<-release
			return
		}
		seen <- fmt.Sprintf("%s %q %q %q %q", r.Host, r.URL.Path, r.URL.RawQuery, r.Header.Get("X-Forwarded-For"), r.Header.Get("Authorization"))
		w.Header().Set("Set-Cookie", "not forwarded")
		w.WriteHeader(http.StatusTeapot)
	})
	answers := make(chan Message, hostQueue+8)
	hs := fakeRendezvous(t, func(ctx context.Context, ws *websocket.Conn) {
		sendMsg(ctx, t, ws, Message{Type: TypeWelcome, Code: strings.Repeat("c", 26), URL: "http://r.example:8090/i/" + strings.Repeat("c", 26)})
		// A path that holds "?" stays a path; a header outside the
		// forwarded few does not reach the handler.
		sendMsg(ctx, t, ws, Message{Type: TypeRequest, ID: 1, Method: "GET", Path: "/a?b", Query: "q=1", Remote: "198.51.100.7:1",
			Header: map[string][]string{"X-Forwarded-For": {"10.0.0.1"}, "Authorization": {"Bearer x"}}})
		readOne := func() bool {
			_, data, err := ws.Read(ctx)
			if err != nil {
				return false
			}
			m, err := ParseMessage(data)
			if err != nil {
				t.Errorf("host sent %s: %v", data, err)
				return false
			}
			answers <- m
			return true
		}
		if !readOne() {
			return
		}
		// More requests than the host holds: the one beyond gets 503 at once.
		for id := uint64(2); id < 2+hostQueue+1; id++ {
			sendMsg(ctx, t, ws, Message{Type: TypeRequest, ID: id, Method: "GET", Path: "/block", Remote: "198.51.100.7:1"})
		}
		for readOne() {
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Host(ctx, HostConfig{URL: hs.URL, Handler: handler, Logger: slog.New(slog.DiscardHandler)})
	}()
	defer func() {
		cancel()
		<-done
	}()
	next := func() Message {
		select {
		case m := <-answers:
			return m
		case <-time.After(2 * time.Minute):
			t.Fatal("no answer")
			return Message{}
		}
	}
	got := map[uint64]Message{}
	for range 2 {
		m := next()
		got[m.ID] = m
	}
	if m := got[1]; m.Status != http.StatusTeapot || len(m.Header) != 0 {
		t.Errorf("request 1: %+v", m)
	}
	if want := `r.example:8090 "/a?b" "q=1" "" "Bearer x"`; len(seen) == 0 || <-seen != want {
		t.Errorf("the handler did not see %s", want)
	}
	busy := got[2+hostQueue]
	if busy.Status != http.StatusServiceUnavailable || busy.Header["Retry-After"][0] != "1" {
		t.Errorf("request beyond the queue: %+v, want 503 Retry-After 1", busy)
	}
	close(release)
	for range hostQueue {
		if m := next(); m.Status != http.StatusOK || m.ID < 2 || m.ID >= 2+hostQueue {
			t.Errorf("queued request answered %+v", m)
		}
	}
}

func TestBusyHost(t *testing.T) {
	entered := make(chan struct{}, 1)
	release := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
		io.WriteString(w, "done")
	})
	r := newRig(t, ServerConfig{ClientRate: rate.Inf, MaxInFlight: 1}, slow)
	inv := r.invite(t)
	first := make(chan string, 1)
	go func() {
		resp, err := http.Post(inv.URL+"/signal", "application/json", strings.NewReader("{}"))
		if err != nil {
			first <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		first <- fmt.Sprint(resp.StatusCode, " ", string(b))
	}()
	<-entered
	resp, _ := do(t, "POST", inv.URL+"/signal", "", "{}")
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("a request beyond MaxInFlight: %d Retry-After %q, want 503 and 1", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	close(release)
	if got := <-first; got != "200 done" {
		t.Errorf("the request in flight: %q", got)
	}
	if st := r.srv.Stats(); st.Busy != 1 || st.Forwarded != 1 {
		t.Errorf("stats %+v", st)
	}
}
