package xvfbtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/jointoken"
)

// A server that admits only invited players (-token-key): `cmd/game -join
// URL -token T` plays in the match the token names, and without a token
// the game ends with the server's 401 and its reason.
func TestJoinWithATokenInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	key, err := jointoken.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "token.key")
	if err := os.WriteFile(keyFile, []byte(key.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := startServer(t, ctx, 2, "-matches", "2", "-bots", "1", "-token-key", keyFile)
	tok, err := jointoken.Mint(key, jointoken.Claims{Match: "2", Name: "invited", Expires: time.Now().Add(time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	game := joiner(ctx, xvfb, bin, dir, base)
	var out lockedBuffer
	play := game(12, "-token", tok)
	play.Stdout, play.Stderr = &out, &out
	if err := play.Start(); err != nil {
		t.Fatal(err)
	}
	seen, err := waitMatches(ctx, base, func(m map[string]int) bool { return m["2"] == 2 })
	t.Logf("figure token join: players per match while the invited game played: %v", seen)
	if err != nil {
		t.Errorf("the invited game never showed up in match 2 (its token's): %v; game output:\n%s", err, out.String())
	}
	play.Wait()

	var bad bytes.Buffer
	refused := game(5)
	refused.Stdout, refused.Stderr = &bad, &bad
	err = refused.Run()
	t.Logf("figure token join without a token: %v; %s", err, lastLine(bad.String()))
	if err == nil || !strings.Contains(bad.String(), "401 Unauthorized: join token required") {
		t.Errorf("joining without a token: exit %v, output:\n%s", err, bad.String())
	}
}
