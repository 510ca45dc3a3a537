package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/rendezvous"
)

// A server told its public address by -public-ip, learning another from
// -stun and hosting through a rendezvous (-invite) logs, for each of the
// three ways, where players outside its LAN join: the two addresses with
// its HTTP port, and the invite link, which leads to it.
func TestServerLogsWherePlayersOutsideJoin(t *testing.T) {
	stunAddr, _ := testnet.STUNResponder(t, netip.MustParseAddrPort("198.51.100.9:40000"))
	rv := rendezvous.NewServer(rendezvous.ServerConfig{Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(func() { rv.Close() })
	public := httptest.NewServer(rv)
	t.Cleanup(public.Close)

	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, log, options{
			addr: fmt.Sprintf("127.0.0.1:%d", httpPort), udpPort: udpPort, tick: 30, matches: 1, seed: 1,
			maxClients: 2, timeout: 5 * time.Second, loopback: true, rate: 4000, radius: 400, web: t.TempDir(),
			name: "test", offerRate: 100, offerBurst: 100, metricsAddr: "127.0.0.1:0",
			publicIPs: []string{"203.0.113.10"}, stun: stunAddr, invite: public.URL,
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})

	wants := []*regexp.Regexp{
		regexp.MustCompile(fmt.Sprintf(`msg="players outside join at http://203\.0\.113\.10:%d" via=-public-ip browser=http://203\.0\.113\.10:%[1]d/ `, httpPort)),
		regexp.MustCompile(fmt.Sprintf(`msg="players outside join at http://198\.51\.100\.9:%d" via=-stun stun=%s udp_seen_at=198\.51\.100\.9:40000 `, httpPort, regexp.QuoteMeta(stunAddr))),
		regexp.MustCompile(`msg="invite link: (` + regexp.QuoteMeta(public.URL) + `/i/\S+)" url=(\S+) `),
	}
	var invite []string
	deadline := time.Now().Add(2 * time.Minute)
	for _, want := range wants {
		for {
			m := want.FindStringSubmatch(logs.String())
			if m != nil {
				invite = m
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no line matching %s in the log", want)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if invite[1] != invite[2] {
		t.Errorf("invite link %q, url=%q", invite[1], invite[2])
	}
	if n := len(regexp.MustCompile(`msg="players outside join at `).FindAllString(logs.String(), -1)); n != 2 {
		t.Errorf("%d lines of players outside, want 2 (one per address)", n)
	}
	// The invite link leads to this server.
	resp, err := http.Get(invite[2] + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "ok\n" {
		t.Errorf("GET invite/healthz: %d %q", resp.StatusCode, body)
	}
}
