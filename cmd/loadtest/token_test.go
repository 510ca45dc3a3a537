package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/sightline-game/sightline/netcode/jointoken"
)

// Against a server run with -token-key, the load tester's clients are
// each refused 401 without a token; with -token-key it mints each its own
// and all of them play, verifying every tick.
func TestLoadTestWithJoinTokens(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two programs")
	}
	dir := t.TempDir()
	serverExe := build(t, dir, "github.com/sightline-game/sightline/cmd/server")
	loadExe := build(t, dir, "github.com/sightline-game/sightline/cmd/loadtest")
	key, err := jointoken.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "token.key")
	if err := os.WriteFile(keyFile, []byte(key.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	base := startServer(t, serverExe, "-bots", "2", "-verify", "-token-key", keyFile)
	load := func(args ...string) result {
		t.Helper()
		out, _ := exec.Command(loadExe, append([]string{"-url", base, "-clients", "3", "-seconds", "2", "-json"}, args...)...).Output()
		var r result
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("loadtest %v: %v\n%s", args, err, out)
		}
		return r
	}
	if r := load(); r.Connected != 0 || r.Refused["401"] != 3 {
		t.Errorf("without tokens: %d of 3 connected, refused %v; want 0, all 401", r.Connected, r.Refused)
	}
	r := load("-token-key", keyFile)
	if r.Connected != 3 || r.MismatchedTicks != 0 || r.VerifiedTicks < 3*40 || len(r.Refused) != 0 {
		t.Errorf("with tokens: %+v; want 3 of 3 connected, every tick verified", r)
	}
}
