package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pion/turn/v5"

	"github.com/sightline-game/sightline/game/web"
	"github.com/sightline-game/sightline/netcode/iceservers"
	"github.com/sightline-game/sightline/netcode/relay"
	"github.com/sightline-game/sightline/netcode/rendezvous"
	"github.com/sightline-game/sightline/wasm/page"
)

func TestParseAllowPeers(t *testing.T) {
	tests := []struct {
		text string
		want []string
		bad  bool
	}{
		{text: "", want: nil},
		{text: "10.0.0.0/8", want: []string{"10.0.0.0/8"}},
		{text: " 10.0.0.0/8 , fd00::/8,", want: []string{"10.0.0.0/8", "fd00::/8"}},
		{text: "10.1.2.3", want: []string{"10.1.2.3/32"}},
		{text: "::ffff:10.1.2.3", want: []string{"10.1.2.3/32"}},
		{text: "fd00::1", want: []string{"fd00::1/128"}},
		{text: "10.1.2.3/8", bad: true},
		{text: "10.0.0.0/33", bad: true},
		{text: "ten", bad: true},
		{text: "10.0.0.0/8,nope", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := parseAllowPeers(tt.text)
			if tt.bad {
				if err == nil {
					t.Fatalf("parseAllowPeers = %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var gotText []string
			for _, p := range got {
				gotText = append(gotText, p.String())
			}
			if !reflect.DeepEqual(gotText, tt.want) {
				t.Errorf("parseAllowPeers = %v, want %v", gotText, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	good := options{addr: ":3478", secretFile: "s", publicIP: netip.MustParseAddr("203.0.113.1"), maxAllocations: 4, maxBytes: 1}
	tests := []struct {
		name string
		edit func(*options)
		want string // "" : valid
	}{
		{"good", func(*options) {}, ""},
		{"relay bind instead of public IP", func(o *options) { o.publicIP = netip.Addr{}; o.relayBind = netip.MustParseAddr("198.51.100.2") }, ""},
		{"TLS", func(o *options) { o.tlsAddr, o.tlsCert, o.tlsKey = ":5349", "c", "k" }, ""},
		{"no secret", func(o *options) { o.secretFile = "" }, "-secret"},
		{"no address", func(o *options) { o.addr = "" }, "-addr"},
		{"TLS without cert", func(o *options) { o.tlsAddr = ":5349" }, "-tls-cert"},
		{"cert without TLS", func(o *options) { o.tlsCert = "c" }, "-tls-addr"},
		{"no public IP", func(o *options) { o.publicIP = netip.Addr{} }, "-public-ip"},
		{"unspecified relay bind", func(o *options) { o.publicIP = netip.Addr{}; o.relayBind = netip.IPv4Unspecified() }, "-public-ip"},
		{"unspecified public IP", func(o *options) { o.publicIP = netip.IPv4Unspecified() }, "-public-ip"},
		{"zero allocations", func(o *options) { o.maxAllocations = 0 }, "-max-allocations"},
		{"zero bytes", func(o *options) { o.maxBytes = 0 }, "-max-bytes"},
		{"default caps", func(o *options) { o.caps = relay.Config{} }, ""},
		{"caps", func(o *options) {
			o.caps = relay.Config{MaxAllocations: 10, RateBytesPerSecond: 1 << 20, RateBurstBytes: 1 << 20}
		}, ""},
		{"negative rate", func(o *options) { o.caps.RateBytesPerSecond = -1 }, "-rate"},
		{"negative channels", func(o *options) { o.caps.MaxChannelsPerAllocation = -1 }, "-max-channels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := good
			tt.edit(&o)
			err := o.validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("validate: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("validate = %v, want an error naming %s", err, tt.want)
			}
		})
	}
}

func TestWriteNewSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "turn.secret")
	if err := writeNewSecret(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	s, err := iceservers.LoadSecret(path)
	if err != nil {
		t.Fatalf("the new secret does not load: %v", err)
	}
	if err := writeNewSecret(path); err == nil {
		t.Error("writeNewSecret overwrote an existing file")
	}
	again, err := iceservers.LoadSecret(path)
	if err != nil || again != s {
		t.Errorf("the secret changed: %v, %v", again, err)
	}
}

// TestRun runs the relay on loopback, allocates with a credential minted
// under its secret, and reads /healthz and /metrics.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	secretFile := filepath.Join(dir, "secret")
	if err := writeNewSecret(secretFile); err != nil {
		t.Fatal(err)
	}
	secret, err := iceservers.LoadSecret(secretFile)
	if err != nil {
		t.Fatal(err)
	}
	type started struct {
		srv           *relay.Server
		metrics, http net.Addr
	}
	ready := make(chan started, 1)
	webDir := filepath.Join(dir, "web")
	if err := os.MkdirAll(webDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{web.WasmFile: strings.Repeat("\x00asm game ", 20_000), web.ExecFile: "// wasm_exec"} {
		if err := os.WriteFile(filepath.Join(webDir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := options{
		webDir: webDir,
		addr:   "127.0.0.1:0", secretFile: secretFile,
		relayBind: netip.MustParseAddr("127.0.0.1"), publicIP: netip.MustParseAddr("127.0.0.1"), maxAllocations: 2, maxBytes: 1 << 20,
		metricsAddr: "127.0.0.1:0", httpAddr: "127.0.0.1:0", maxConnsPerAddr: 1,
		ready: func(s *relay.Server, m, h net.Addr) { ready <- started{s, m, h} },
	}
	if err := o.validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, o) }()
	var st started
	select {
	case st = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("run did not start")
	}

	conn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cred := iceservers.Mint(secret, "player-1", time.Now(), time.Minute)
	c, err := turn.NewClient(&turn.ClientConfig{
		STUNServerAddr: st.srv.Addr().String(), TURNServerAddr: st.srv.Addr().String(),
		Username: cred.Username, Password: cred.Password, Realm: relay.DefaultRealm, Conn: conn,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Listen(); err != nil {
		t.Fatal(err)
	}
	relayed, err := c.Allocate()
	if err != nil {
		t.Fatalf("Allocate: %v", err)
	}
	defer relayed.Close()
	if got := st.srv.Stats().Allocations; got != 1 {
		t.Errorf("Allocations = %d, want 1", got)
	}

	get := func(addr net.Addr, path string) string {
		t.Helper()
		u := "http://" + addr.String() + path
		if h, ok := addr.(hostAddr); ok {
			u = h.url + path
		}
		resp, err := http.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", path, resp.StatusCode, err)
		}
		return string(body)
	}
	if body := get(st.metrics, "/healthz"); body != "ok\n" {
		t.Errorf("/healthz = %q", body)
	}
	if body := get(st.http, "/healthz"); body != "ok\n" {
		t.Errorf("-http /healthz = %q", body)
	}
	// A host behind NAT gets an invite on -http, with this relay's TURN
	// URLs and a credential it accepts for its players; the link forwards
	// to the host.
	hctx, hcancel := context.WithCancel(ctx)
	invites := make(chan rendezvous.Invite, 1)
	hostDone := make(chan error, 1)
	hostMux := http.NewServeMux()
	hostMux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "host ok\n") })
	go func() {
		hostDone <- rendezvous.Host(hctx, rendezvous.HostConfig{URL: "http://" + st.http.String(), Handler: hostMux, UseRelay: true,
			OnInvite: func(inv rendezvous.Invite) { invites <- inv }})
	}()
	var inv rendezvous.Invite
	select {
	case inv = <-invites:
	case <-time.After(2 * time.Minute):
		t.Fatal("no invite from -http")
	}
	var servers []iceservers.Server
	if err := json.Unmarshal(inv.ICEServers, &servers); err != nil || len(servers) != 2 {
		t.Fatalf("the invite's ICE servers %s: %v", inv.ICEServers, err)
	}
	port := st.srv.Addr().(*net.UDPAddr).Port
	turnServer := servers[1]
	if want := fmt.Sprintf("turn:127.0.0.1:%d", port); turnServer.URLs[0] != want {
		t.Errorf("TURN URLs %v, want %s first", turnServer.URLs, want)
	}
	if pw, err := iceservers.Check(secret, turnServer.Username, time.Now(), relay.DefaultMaxTTL); err != nil || pw != turnServer.Credential {
		t.Errorf("the handed-out credential does not check: %v", err)
	}
	if body := get(hostAddr{inv.URL}, "/healthz"); body != "host ok\n" {
		t.Errorf("through the invite, /healthz = %q", body)
	}
	// The host's credential reaches only the host; its players each get
	// one of their own from the invite's /ice, scoped to the host, the
	// invite's code in neither.
	loop := netip.MustParseAddr("127.0.0.1")
	if scope, err := iceservers.Scope(turnServer.Username); err != nil || len(scope) != 1 || scope[0] != loop {
		t.Errorf("the host's credential %q: scope %v, %v; want 127.0.0.1", turnServer.Username, scope, err)
	}
	var player iceservers.List
	for deadline := time.Now().Add(2 * time.Minute); len(player.ICEServers) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the invite's /ice: %+v", player)
		}
		player, _ = iceservers.ParseList([]byte(get(hostAddr{inv.URL}, "/ice")))
	}
	pc := player.ICEServers[1]
	if pw, err := iceservers.Check(secret, pc.Username, time.Now(), relay.DefaultMaxTTL); err != nil || pw != pc.Credential || pc.Username == turnServer.Username {
		t.Errorf("a player's credential %q: %v (the host's %q)", pc.Username, err, turnServer.Username)
	}
	if scope, err := iceservers.Scope(pc.Username); err != nil || len(scope) != 1 || scope[0] != loop {
		t.Errorf("a player's credential %q: scope %v, %v; want 127.0.0.1", pc.Username, scope, err)
	}
	for _, u := range []string{pc.Username, turnServer.Username} {
		for i := 0; i+6 <= len(inv.Code); i++ {
			if strings.Contains(u, inv.Code[i:i+6]) {
				t.Errorf("username %q holds %q of the invite code", u, inv.Code[i:i+6])
			}
		}
	}
	// The browser build under the invite: compressed when the client
	// accepts it, under the page's strict policy.
	req, _ := http.NewRequest("GET", inv.URL+"/"+web.WasmFile, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	wire, _ := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || wire >= 240_000 {
		t.Errorf("GET LINK/game.wasm, gzip accepted: %d, %q, %d bytes on the wire", resp.StatusCode, resp.Header.Get("Content-Encoding"), wire)
	}
	if got := resp.Header.Get("Content-Security-Policy"); got != web.PagePolicy(page.Index) {
		t.Errorf("the build's policy %q, want the page's", got)
	}
	hcancel()
	<-hostDone

	// A refusal of each kind the test can cause: a credential under
	// another secret, and an unscoped credential's permission for a public
	// peer.
	forged := iceservers.Mint(iceservers.Secret{}, "forger", time.Now(), time.Minute)
	fconn, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer fconn.Close()
	fc, err := turn.NewClient(&turn.ClientConfig{
		STUNServerAddr: st.srv.Addr().String(), TURNServerAddr: st.srv.Addr().String(),
		Username: forged.Username, Password: forged.Password, Realm: relay.DefaultRealm, Conn: fconn,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer fc.Close()
	if err := fc.Listen(); err != nil {
		t.Fatal(err)
	}
	if a, err := fc.Allocate(); err == nil {
		a.Close()
		t.Error("a forged credential allocated")
	}
	if err := c.CreatePermission(&net.UDPAddr{IP: net.ParseIP("198.51.100.9"), Port: 9}); err == nil {
		t.Error("an unscoped credential made a permission for a public peer")
	}

	body := get(st.metrics, "/metrics")
	if !strings.Contains(body, "sightline_relay_allocations 1\n") {
		t.Errorf("/metrics lacks sightline_relay_allocations 1:\n%s", body)
	}
	// Every refusal reason is a series, those caused here counted.
	for _, reason := range []string{"auth", "expired", "scope", "own-address", "peer-denied", "permissions-cap", "channels-cap",
		"allocations-per-address", "allocations-total", "user-quota", "rate-dropped", "tcp"} {
		series := `sightline_relay_refused_total{reason="` + reason + `"} `
		if !strings.Contains(body, series) {
			t.Errorf("/metrics lacks %s", series)
		}
	}
	for _, counted := range []string{`sightline_relay_refused_total{reason="auth"} 1`, `sightline_relay_refused_total{reason="scope"} 1`} {
		if !strings.Contains(body, counted+"\n") {
			t.Errorf("/metrics lacks %s", counted)
		}
	}

	// -max-conns-per-addr 1: a second TCP connection from 127.0.0.1 is
	// closed, and /metrics counts it among the listeners' refusals.
	first, err := net.Dial("tcp", st.srv.TCPAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	deadline := time.Now().Add(2 * time.Minute)
	for st.srv.Stats().TCPConns != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if second, err := net.Dial("tcp", st.srv.TCPAddr().String()); err == nil {
		second.SetReadDeadline(time.Now().Add(2 * time.Minute)) // a hang guard: the close must come
		if _, err := second.Read(make([]byte, 1)); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Error("a second TCP connection from 127.0.0.1 stays open with -max-conns-per-addr 1")
		}
		second.Close()
	}
	body = get(st.metrics, "/metrics")
	for _, want := range []string{
		`sightline_relay_refused_total{reason="tcp-per-address"} 1` + "\n",
		`sightline_relay_refused_total{reason="tcp-total"} 0` + "\n",
		`sightline_relay_refused_total{reason="idle-timeout"} 0` + "\n",
		`sightline_relay_refused_total{reason="oversize-frame"} 0` + "\n",
		`sightline_relay_refused_total{reason="udp-unknown-rate"} 0` + "\n",
		"sightline_relay_tcp_connections 1\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("run did not stop")
	}
}

// hostAddr is an invite link where get takes an address.
type hostAddr struct{ url string }

func (hostAddr) Network() string  { return "http" }
func (h hostAddr) String() string { return h.url }
