package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// A server run with -token-key over HTTPS (-tls-cert, HTTP/2) admits only
// a valid token: none is 401; one of another key, expired, for another
// server or another match, or used before is 403, each with its reason
// and before any WebRTC work; a valid one joins the match it names under
// the name it gives. /metrics counts the refusals by reason.
func TestJoinTokensOverHTTPS(t *testing.T) {
	cert := testnet.SelfSigned(t)
	dir := t.TempDir()
	keyFile, otherKeyFile := filepath.Join(dir, "key"), filepath.Join(dir, "other")
	key, other := mustKey(t), mustKey(t)
	for f, k := range map[string]jointoken.Key{keyFile: key, otherKeyFile: other} {
		if err := os.WriteFile(f, []byte(k.String()+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	secret, err := iceservers.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	secretFile := filepath.Join(dir, "relay.secret")
	if err := os.WriteFile(secretFile, []byte(secret.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	addr := fmt.Sprintf("127.0.0.1:%d", httpPort)
	base := "https://" + addr
	counters := "http://" + fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t, "tcp"))
	ctx, log := runServer(t, options{
		addr: addr, udpPort: udpPort, tick: 30, bots: 1, matches: 2, seed: 1, creatures: 10,
		maxClients: 4, timeout: 5 * time.Second, loopback: true, rate: 4000, radius: 400, web: t.TempDir(),
		name: "test", offerRate: 100, offerBurst: 100, metricsAddr: strings.TrimPrefix(counters, "http://"),
		tokenKey: keyFile, tokenServer: addr, tlsCert: cert.CertFile, tlsKey: cert.KeyFile,
		relay: "turn:203.0.113.5:3478,turn:203.0.113.5:3478?transport=tcp", relaySecret: secretFile,
	})
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: cert.Pool}, ForceAttemptHTTP2: true}}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := hc.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.ProtoMajor != 2 {
				t.Errorf("/healthz over %s, want HTTP/2", resp.Proto)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not up over HTTPS: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mint := func(k jointoken.Key, c jointoken.Claims) string {
		t.Helper()
		if c.Expires.IsZero() {
			c.Expires = time.Now().Add(30 * time.Second)
		}
		tok, err := jointoken.Mint(k, c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	dial := func(match, token string) (*client.Client, error) {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
		defer cancel()
		return client.Dial(dctx, base, client.Config{Match: match, Name: "mallory", Logger: log, Verify: true},
			webrtc.DialConfig{HTTPClient: hc, Token: token, Logger: log})
	}
	good := mint(key, jointoken.Claims{Match: "2", Name: "ada", Server: addr})
	for _, tc := range []struct {
		name, match, token, want string
	}{
		{"no token", "", "", "401 Unauthorized: join token required"},
		{"another key", "", mint(other, jointoken.Claims{Name: "x"}), "403 Forbidden: join token does not open"},
		{"expired", "", mint(key, jointoken.Claims{Name: "x", Expires: time.Now().Add(-2 * time.Second)}), "403 Forbidden: join token expired"},
		{"another server", "", mint(key, jointoken.Claims{Name: "x", Server: "127.0.0.1:1"}), "403 Forbidden: join token is for another server"},
		{"another match", "1", mint(key, jointoken.Claims{Name: "x", Match: "2"}), "403 Forbidden: join token is for another match"},
		{"not a token", "", "zz", "403 Forbidden: join token malformed"},
	} {
		if c, err := dial(tc.match, tc.token); err == nil || !strings.Contains(err.Error(), tc.want) {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// GET /ice hands the relay's credentials only to a token the offer
	// would admit, and does not spend it.
	getICE := func(token string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, client.ICEServersURL(base), nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	if code, body := getICE(""); code != http.StatusUnauthorized {
		t.Errorf("GET /ice without a token: %d %s, want 401", code, body)
	}
	if code, body := getICE(mint(other, jointoken.Claims{Name: "x"})); code != http.StatusForbidden {
		t.Errorf("GET /ice with another key's token: %d %s, want 403", code, body)
	}
	// One token, one credential however often it asks; it lives the
	// TTL (iceservers.DefaultTTL) and at most a window (5 minutes) more.
	var users []string
	for range 2 {
		code, body := getICE(good)
		list, err := iceservers.ParseList(body)
		if code != http.StatusOK || err != nil || len(list.ICEServers) != 2 || list.TTL < int(iceservers.DefaultTTL/time.Second) || list.TTL > int((iceservers.DefaultTTL+5*time.Minute)/time.Second) {
			t.Fatalf("GET /ice with a valid token: %d %s (%v)", code, body, err)
		}
		turn := list.ICEServers[1]
		pw, err := iceservers.Check(secret, turn.Username, time.Now(), 24*time.Hour)
		if err != nil || pw != turn.Credential || len(turn.URLs) != 2 || list.ICEServers[0].URLs[0] != "stun:203.0.113.5:3478" {
			t.Errorf("the handout %+v does not hold the relay's credential (%v)", list, err)
		}
		users = append(users, turn.Username)
	}
	if users[0] != users[1] {
		t.Errorf("one token asking twice got %q, then %q", users[0], users[1])
	}
	c, err := dial("", good) // the token names match 2
	if err != nil {
		t.Fatalf("a valid token: %v", err)
	}
	defer c.Close()
	names := make(chan string, 16)
	c.OnEvent(func(e events.Event) {
		if e.Kind == protocol.KindJoin {
			if j, err := protocol.ParseJoin(e.Body); err == nil {
				select {
				case names <- j.Name:
				default:
				}
			}
		}
	})
	go c.Run(ctx, 30, nil)
	if _, err := dial("", good); err == nil || !strings.Contains(err.Error(), "403 Forbidden: join token already used") {
		t.Errorf("the token again: %v, want 403 already used", err)
	}
	// The player is in match 2, named ada (its client asked for mallory);
	// the match's bot may be announced first.
	waitJoin := time.After(2 * time.Minute) // a hang guard
	for joined := false; !joined; {
		select {
		case name := <-names:
			switch {
			case name == "ada":
				joined = true
			case strings.HasPrefix(name, "bot "):
			default:
				t.Fatalf("the admitted player joined as %q, want ada (the token's name)", name)
			}
		case <-waitJoin:
			t.Fatal("no join event for the admitted player")
		}
	}
	lctx, lcancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
	ms, err := client.ListMatchesWith(lctx, hc, base)
	lcancel()
	if err != nil || len(ms) != 2 || ms[0].Players != 1 || ms[1].Players != 2 {
		t.Errorf("matches %+v (%v): want the player in match 2 with its bot", ms, err)
	}
	// The counters are on -metrics-addr (plain HTTP on loopback), not on
	// the public HTTPS address.
	resp, err := hc.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the public address: %s, want 404", resp.Status)
	}
	body := []byte(get(t, counters+"/metrics"))
	for reason, n := range map[string]int{"missing": 1, "forged": 1, "expired": 1, "wrong_server": 1, "wrong_match": 1, "malformed": 1, "replayed": 1} {
		re := regexp.MustCompile(fmt.Sprintf(`(?m)^sightline_tokens_refused_total\{reason="%s"\} %d$`, reason, n))
		if !re.Match(body) {
			t.Errorf("/metrics: no sightline_tokens_refused_total{reason=%q} %d", reason, n)
		}
	}
}

func mustKey(t *testing.T) jointoken.Key {
	t.Helper()
	k, err := jointoken.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A token refused after its check (its match is full) is not spent: once
// a seat frees, the same token joins, and no replay is counted. A token
// whose offer is broken after the check is not spent either.
func TestTokenRefusedForAFullMatchJoinsLater(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	key := mustKey(t)
	if err := os.WriteFile(keyFile, []byte(key.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	addr := fmt.Sprintf("127.0.0.1:%d", httpPort)
	base := "http://" + addr
	counters := fmt.Sprintf("127.0.0.1:%d", testnet.FreePort(t, "tcp"))
	ctx, log := runServer(t, options{
		addr: addr, udpPort: udpPort, tick: 30, matches: 2, seed: 1, creatures: 10,
		maxClients: 1, timeout: 5 * time.Second, loopback: true, rate: 4000, radius: 400, web: t.TempDir(),
		name: "test", offerRate: 100, offerBurst: 100, tokenKey: keyFile, tokenServer: addr, metricsAddr: counters,
	})
	waitHealthy(t, base)
	mint := func(name string) string {
		tok, err := jointoken.Mint(key, jointoken.Claims{Match: "2", Name: name, Server: addr, Expires: time.Now().Add(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	dial := func(token string) (*client.Client, error) {
		dctx, cancel := context.WithTimeout(ctx, 2*time.Minute) // a hang guard
		defer cancel()
		// Without ?match=: the page's way with only ?token=.
		return client.Dial(dctx, base, client.Config{Logger: log, Verify: true},
			webrtc.DialConfig{Token: token, Logger: log, OnRetryLater: func(time.Duration, error) { cancel() }})
	}
	first, err := dial(mint("first"))
	if err != nil {
		t.Fatal(err)
	}
	late := mint("late")
	if c, err := dial(late); err == nil || !strings.Contains(err.Error(), "server full") {
		if c != nil {
			c.Close()
		}
		t.Fatalf("a token for the full match 2: %v, want 503 server full", err)
	}
	first.Close()
	var joined *client.Client
	for deadline := time.Now().Add(2 * time.Minute); joined == nil; time.Sleep(100 * time.Millisecond) {
		if joined, err = dial(late); err != nil && time.Now().After(deadline) {
			t.Fatalf("the refused token once the seat freed: %v", err)
		}
	}
	joined.Close()
	body := get(t, "http://"+counters+"/metrics")
	if strings.Contains(body, `sightline_tokens_refused_total{reason="replayed"} 1`) {
		t.Error("/metrics counted the retry of a refused token as a replay")
	}
}

// waitHealthy waits until the server at base answers /healthz.
func waitHealthy(t *testing.T, base string) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not up: %v", err)
		}
	}
}

// get returns the body at url.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// A server with tokens on names itself by default: its first public
// address with its HTTP port, or -addr when that names a host.
func TestOwnName(t *testing.T) {
	for _, tc := range []struct {
		o    options
		want string
	}{
		{options{addr: ":8080", publicIPs: []string{"203.0.113.10", "198.51.100.1"}}, "203.0.113.10:8080"},
		{options{addr: "play.example.org:443"}, "play.example.org:443"},
		{options{addr: "10.0.0.7:8080"}, "10.0.0.7:8080"},
		{options{addr: ":8080"}, ""},
		{options{addr: "0.0.0.0:8080"}, ""},
		{options{addr: "[::]:8080"}, ""},
	} {
		if got := ownName(tc.o); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.o, got, tc.want)
		}
	}
}
