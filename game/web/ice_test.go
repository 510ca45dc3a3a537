package web

import (
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/netcode/iceservers"
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
		ICEServers(slog.New(slog.DiscardHandler), h, func() *json.RawMessage { return &relayed }, nil).ServeHTTP(rec, httptest.NewRequest("GET", "/ice", nil))
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
