package main

import (
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
	"github.com/sightline-game/sightline/netcode/iceservers"
)

// A server with a relay hands credentials that reach only its public
// address (-public-ip), one per joiner.
func TestICECredentialsScopedToPublicIP(t *testing.T) {
	secret, _ := iceservers.NewSecret()
	secretFile := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secretFile, []byte(secret.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	httpPort, udpPort := testnet.FreePort(t, "tcp"), testnet.FreePort(t, "udp")
	base := fmt.Sprintf("http://127.0.0.1:%d", httpPort)
	runServer(t, options{
		addr: fmt.Sprintf("127.0.0.1:%d", httpPort), udpPort: udpPort, tick: 30, matches: 1, seed: 1,
		maxClients: 2, timeout: 5 * time.Second, loopback: true, rate: 4000, radius: 400, web: t.TempDir(),
		name: "test", offerRate: 100, offerBurst: 100,
		publicIPs: []string{"203.0.113.10"}, relay: "turn:203.0.113.5:3478", relaySecret: secretFile,
	})
	var users []string
	for deadline := time.Now().Add(2 * time.Minute); len(users) < 2; time.Sleep(50 * time.Millisecond) {
		resp, err := http.Get(base + "/ice")
		if err != nil {
			if time.Now().After(deadline) {
				t.Fatal(err)
			}
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		l, err := iceservers.ParseList(body)
		if err != nil || len(l.ICEServers) != 2 {
			t.Fatalf("GET /ice: %d %s (%v)", resp.StatusCode, body, err)
		}
		users = append(users, l.ICEServers[1].Username)
	}
	scope, err := iceservers.Scope(users[0])
	if err != nil || len(scope) != 1 || scope[0] != netip.MustParseAddr("203.0.113.10") {
		t.Errorf("the credential %q: scope %v, %v; want 203.0.113.10", users[0], scope, err)
	}
	if users[0] != users[1] {
		t.Errorf("one joiner (one keep-alive connection) asking twice: %q, then %q", users[0], users[1])
	}
}
