package xvfbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A server hosting two matches, each with one bot; `cmd/game -join URL
// -match 2` plays in match 2 (the server's GET /matches counts it there and
// not in match 1), and -match 9 ends with the server's refusal, naming the
// match.
func TestJoinAChosenMatchInXvfb(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	base := startServer(t, ctx, 2, "-matches", "2", "-bots", "1")

	game := joiner(ctx, xvfb, bin, dir, base)

	// Match 2, chosen.
	var out lockedBuffer
	play := game(12, "-match", "2", "-name", "chooser")
	play.Stdout, play.Stderr = &out, &out
	if err := play.Start(); err != nil {
		t.Fatal(err)
	}
	seen, err := waitMatches(ctx, base, func(m map[string]int) bool { return m["2"] == 2 })
	t.Logf("figure join: players per match while the game played: %v", seen)
	if err != nil {
		t.Errorf("the game never showed up in match 2: %v; game output:\n%s", err, out.String())
	} else if seen["1"] != 1 {
		t.Errorf("the game joined match 2 but match 1 has %d players, want its bot alone", seen["1"])
	}
	play.Wait()

	// An unknown match: the game says so and exits with an error.
	var bad bytes.Buffer
	refused := game(5, "-match", "9")
	refused.Stdout, refused.Stderr = &bad, &bad
	err = refused.Run()
	t.Logf("figure join unknown match: %v; %s", err, lastLine(bad.String()))
	if err == nil || !strings.Contains(bad.String(), `no match "9"`) {
		t.Errorf("-match 9 on a server with matches 1 and 2: exit %v, output:\n%s", err, bad.String())
	}
}

// joiner returns the command of a game under xvfb-run that joins base with
// args for some seconds, its settings in dir (not the user's).
func joiner(ctx context.Context, xvfb, bin, dir, base string) func(seconds int, args ...string) *exec.Cmd {
	return func(seconds int, args ...string) *exec.Cmd {
		args = append([]string{"-a", "-s", "-screen 0 1280x720x24", bin, "-join", base}, args...)
		args = append(args, "-fps", "20", "-exit-after", fmt.Sprintf("%ds", seconds))
		c := exec.CommandContext(ctx, xvfb, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "XDG_CONFIG_HOME="+dir)
		return c
	}
}

// startServer runs cmd/server (built once for all the tests) with
// args on a free HTTP address and UDP port until ctx ends or the test
// does, and returns its base URL once it lists matches matches. Its output
// is logged if the test fails.
func startServer(t *testing.T, ctx context.Context, matches int, args ...string) string {
	t.Helper()
	server := serverBinary(t)
	base := "http://" + freeTCPAddr(t)
	// No counters on the HTTP port + 1 (the default), which another
	// test's program may hold: these tests read none.
	args = append([]string{"-addr", strings.TrimPrefix(base, "http://"), "-udp-port", strconv.Itoa(freeUDPPort(t)), "-announce=false", "-metrics-addr", "off"}, args...)
	srv := exec.CommandContext(ctx, server, args...)
	var srvOut lockedBuffer
	srv.Stdout, srv.Stderr = &srvOut, &srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Kill()
		srv.Wait()
		if t.Failed() {
			t.Logf("server output:\n%s", srvOut.String())
		}
	})
	if _, err := waitMatches(ctx, base, func(m map[string]int) bool { return len(m) == matches }); err != nil {
		t.Fatalf("the server never listed %d matches: %v", matches, err)
	}
	return base
}

// matchesWait bounds a wait for the server's list of matches to show a
// player: a game joins after its window opens, which on a busy machine
// takes long.
const matchesWait = 2 * time.Minute

// waitMatches polls the server's GET /matches until ok holds for the
// players per match id, and returns the last counts it read.
func waitMatches(ctx context.Context, base string, ok func(map[string]int) bool) (map[string]int, error) {
	var last map[string]int
	var lastErr error
	deadline := time.Now().Add(matchesWait)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		last, lastErr = matchPlayers(ctx, base)
		if lastErr == nil && ok(last) {
			return last, nil
		}
		time.Sleep(200 * time.Millisecond)
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("players per match %v after %v", last, matchesWait)
	}
	return last, lastErr
}

// matchPlayers returns the players (people and bots) of each match the
// server lists.
func matchPlayers(ctx context.Context, base string) (map[string]int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/matches", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var list struct {
		Matches []struct {
			ID      string `json:"id"`
			Players int    `json:"players"`
		} `json:"matches"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		return nil, fmt.Errorf("GET /matches: %w", err)
	}
	m := make(map[string]int, len(list.Matches))
	for _, x := range list.Matches {
		m[x.ID] = x.Players
	}
	return m, nil
}

// freeTCPAddr returns a loopback address with a port free just now.
func freeTCPAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
