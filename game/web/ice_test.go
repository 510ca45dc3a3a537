package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"golang.org/x/time/rate"
)

func TestHandoutFlags(t *testing.T) {
	dir := t.TempDir()
	secret, _ := iceservers.NewSecret()
	good := filepath.Join(dir, "secret")
	if err := os.WriteFile(good, []byte(secret.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("not hex"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		relay, secret, stun string
		err                 string // "" : fine
	}{
		{"none", "", "", "", ""},
		{"turn with a secret", "turn:203.0.113.5:3478", good, "", ""},
		{"stun alone", "stun:203.0.113.5:3478", "", "", ""},
		{"-stun alone", "", "", "203.0.113.5:3478", ""},
		{"turn without a secret", "turn:203.0.113.5:3478", "", "", "-relay-secret is needed"},
		{"a secret without turn", "stun:203.0.113.5:3478", good, "", "without a turn"},
		{"a bad secret", "turn:203.0.113.5:3478", bad, "", "-relay-secret"},
		{"a bad URL", "http://203.0.113.5", good, "", "-relay"},
	} {
		h, err := Handout(tc.relay, tc.secret, tc.stun)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		case tc.name == "-stun alone" && (len(h.URLs) != 1 || h.URLs[0] != "stun:203.0.113.5:3478"):
			t.Errorf("%s: %+v", tc.name, h)
		}
	}
}

func TestSTUNFromRelay(t *testing.T) {
	for relay, want := range map[string]string{
		"turn:203.0.113.5:3478,turn:203.0.113.5:3478?transport=tcp":  "203.0.113.5:3478",
		"turn:203.0.113.5:3478?transport=tcp,turn:198.51.100.2:3479": "198.51.100.2:3479",
		"turn:relay.example":                  "relay.example:3478",
		"turns:relay.example:5349":            "",
		"turn:203.0.113.5:3478?transport=tcp": "",
		"":                                    "",
	} {
		if got := STUNFromRelay(relay); got != want {
			t.Errorf("STUNFromRelay(%q) = %q, want %q", relay, got, want)
		}
	}
}

func TestSTUNFor(t *testing.T) {
	for _, tc := range []struct{ relay, invite, want string }{
		{"turn:203.0.113.5:3478", "http://203.0.113.9:8090", "203.0.113.5:3478"},
		{"", "http://203.0.113.9:8090", "203.0.113.9:3478"},
		{"", "https://relay.example", "relay.example:3478"},
		{"", "", ""},
	} {
		if got := STUNFor(tc.relay, tc.invite); got != tc.want {
			t.Errorf("STUNFor(%q, %q) = %q, want %q", tc.relay, tc.invite, got, tc.want)
		}
	}
}

// A server without a relay of its own hands out, beside its STUN server,
// the relay a rendezvous gave it; one with its own relay ignores it.
func TestICEServersFromTheRendezvous(t *testing.T) {
	relayed := json.RawMessage(`[{"urls":["turn:203.0.113.5:3478"],"username":"1:x","credential":"c"}]`)
	serve := func(h *iceservers.Handout) iceservers.List {
		t.Helper()
		rec := httptest.NewRecorder()
		ICEServers(ICEConfig{Logger: slog.New(slog.DiscardHandler), Handout: h, Relayed: func() *json.RawMessage { return &relayed }}).ServeHTTP(rec, httptest.NewRequest("GET", "/ice", nil))
		l, err := iceservers.ParseList(rec.Body.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := serve(&iceservers.Handout{URLs: []string{"stun:203.0.113.5:3478"}})
	if len(l.ICEServers) != 2 || l.ICEServers[0].URLs[0] != "stun:203.0.113.5:3478" || l.ICEServers[1].Username != "1:x" {
		t.Errorf("STUN only, with the rendezvous's relay: %+v", l)
	}
	secret, _ := iceservers.NewSecret()
	l = serve(&iceservers.Handout{URLs: []string{"turn:198.51.100.1:3478"}, Secret: secret})
	for _, s := range l.ICEServers {
		if s.Username == "1:x" {
			t.Errorf("a server with its own relay handed out the rendezvous's: %+v", l)
		}
	}
}

// askICE asks h for the ICE servers from the address remote, with a join
// token if token is set, and returns the status and the list.
func askICE(t *testing.T, h http.Handler, remote, token string) (int, http.Header, iceservers.List) {
	t.Helper()
	req := httptest.NewRequest("GET", "/ice", nil)
	req.RemoteAddr = remote
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return rec.Code, rec.Header(), iceservers.List{}
	}
	l, err := iceservers.ParseList(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return rec.Code, rec.Header(), l
}

// turnUser is the username of the list's TURN server.
func turnUser(t *testing.T, l iceservers.List) string {
	t.Helper()
	for _, s := range l.ICEServers {
		if s.Username != "" {
			return s.Username
		}
	}
	t.Fatalf("no TURN credential in %+v", l)
	return ""
}

// One address asking a hundred times within a second is refused nearly
// every time; another address is not held up by it, and an IPv6 client
// counts by its /64.
func TestICEServersRateLimited(t *testing.T) {
	secret, _ := iceservers.NewSecret()
	h := ICEServers(ICEConfig{Logger: slog.New(slog.DiscardHandler), Handout: &iceservers.Handout{URLs: []string{"turn:203.0.113.5:3478"}, Secret: secret}})
	codes := map[int]int{}
	var retry string
	began := time.Now()
	for i := range 100 {
		code, hd, _ := askICE(t, h, fmt.Sprintf("198.51.100.7:%d", 40000+i), "")
		codes[code]++
		if code == http.StatusTooManyRequests {
			retry = hd.Get("Retry-After")
		}
	}
	if d := time.Since(began); d > time.Second {
		t.Logf("the hundred requests took %v", d)
	}
	if codes[http.StatusTooManyRequests] < 90 || retry == "" {
		t.Errorf("100 requests from one address: %v, Retry-After %q; want at least 90 refused", codes, retry)
	}
	if code, _, _ := askICE(t, h, "198.51.100.8:1", ""); code != http.StatusOK {
		t.Errorf("another address: %d", code)
	}
	refused := 0
	for i := range 20 {
		if code, _, _ := askICE(t, h, fmt.Sprintf("[2001:db8:1:2::%x]:1", i+1), ""); code == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused < 20-DefaultICEBurst {
		t.Errorf("20 addresses of one /64: %d refused, want at least %d", refused, 20-DefaultICEBurst)
	}
}

// A joiner asking again is handed the credential it holds: by its join
// token with tokens on (whatever its address), by its connection without;
// another joiner gets another. The username tells nothing of the token.
func TestICEServersOneCredentialPerJoin(t *testing.T) {
	secret, _ := iceservers.NewSecret()
	handout := &iceservers.Handout{URLs: []string{"turn:203.0.113.5:3478"}, Secret: secret}
	h := ICEServers(ICEConfig{Logger: slog.New(slog.DiscardHandler), Handout: handout, Rate: rate.Inf})
	_, _, a1 := askICE(t, h, "198.51.100.7:40000", "")
	_, _, a2 := askICE(t, h, "198.51.100.7:40000", "")
	_, _, b := askICE(t, h, "198.51.100.7:40001", "")
	if turnUser(t, a1) != turnUser(t, a2) || a1.ICEServers[1].Credential != a2.ICEServers[1].Credential {
		t.Errorf("one joiner asking twice: %q, then %q", turnUser(t, a1), turnUser(t, a2))
	}
	if turnUser(t, b) == turnUser(t, a1) {
		t.Errorf("two joiners share %q", turnUser(t, b))
	}
	if a1.TTL < int(iceservers.DefaultTTL/time.Second) {
		t.Errorf("the credential has %d s left, want at least the TTL", a1.TTL)
	}

	key, _ := jointoken.NewKey()
	ck := jointoken.NewChecker(jointoken.CheckerConfig{Key: key})
	ht := ICEServers(ICEConfig{Logger: slog.New(slog.DiscardHandler), Handout: handout, Tokens: ck, Rate: rate.Inf})
	tok1, _ := jointoken.Mint(key, jointoken.Claims{Name: "a"})
	tok2, _ := jointoken.Mint(key, jointoken.Claims{Name: "b"})
	_, _, t1 := askICE(t, ht, "198.51.100.7:40000", tok1)
	_, _, t1again := askICE(t, ht, "198.51.100.9:50000", tok1)
	_, _, t2 := askICE(t, ht, "198.51.100.7:40000", tok2)
	if turnUser(t, t1) != turnUser(t, t1again) {
		t.Errorf("one token, two requests: %q, then %q", turnUser(t, t1), turnUser(t, t1again))
	}
	if turnUser(t, t2) == turnUser(t, t1) {
		t.Errorf("two tokens share %q", turnUser(t, t2))
	}
	if strings.Contains(turnUser(t, t1), tok1[:8]) {
		t.Errorf("the username %q carries the token", turnUser(t, t1))
	}
	if code, _, _ := askICE(t, ht, "198.51.100.7:40000", ""); code != http.StatusUnauthorized {
		t.Errorf("without a token: %d, want 401", code)
	}
}

// The credentials name the server's public addresses; a server that knows
// none mints unscoped ones and says what that costs.
func TestICEServersScoped(t *testing.T) {
	secret, _ := iceservers.NewSecret()
	peers := PublicAddrs("203.0.113.10", "not an ip", "::ffff:203.0.113.10", "2001:db8::10")
	if len(peers) != 2 {
		t.Fatalf("PublicAddrs: %v", peers)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	h := ICEServers(ICEConfig{Logger: log, Handout: &iceservers.Handout{URLs: []string{"turn:203.0.113.5:3478"}, Secret: secret, Peers: peers}})
	_, _, l := askICE(t, h, "198.51.100.7:1", "")
	scope, err := iceservers.Scope(turnUser(t, l))
	if err != nil || len(scope) != 2 || scope[0] != peers[0] || scope[1] != peers[1] {
		t.Errorf("scope of %q: %v, %v; want %v", turnUser(t, l), scope, err, peers)
	}
	if logs.Len() != 0 {
		t.Errorf("a scoped handout logged: %s", logs.String())
	}
	h = ICEServers(ICEConfig{Logger: log, Handout: &iceservers.Handout{URLs: []string{"turn:203.0.113.5:3478"}, Secret: secret}})
	_, _, l = askICE(t, h, "198.51.100.7:1", "")
	if scope, err := iceservers.Scope(turnUser(t, l)); err != nil || scope != nil {
		t.Errorf("no public address: scope %v, %v", scope, err)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "relayed players will only reach it where the relay allows") {
		t.Errorf("no warning of unscoped credentials: %s", logs.String())
	}
}
