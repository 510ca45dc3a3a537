package options_test

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/cmd/game/options"
	"github.com/sightline-game/sightline/netcode/lan"
)

// goTool is the go command that builds the game.
func goTool() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(runtime.GOROOT(), "bin", "go")
}

// TestHelpWithoutDisplay builds the game and asks it for help on a
// machine with no display: it lists its flags and exits 0, for each way
// of asking.
func TestHelpWithoutDisplay(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "game")
	if out, err := exec.Command(goTool(), "build", "-o", exe, "..").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/game: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"-name", "ann", "-h"}} {
		cmd := exec.Command(exe, args...)
		cmd.Env = withoutDisplay(os.Environ())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("game %v: %v (want exit 0)\n%s", args, err, out)
		}
		text := string(out)
		for _, f := range []string{"-join", "-host", "-udp-port", "-lan-port", "-browse", "-invite", "-web"} {
			if !strings.Contains(text, "\n  "+f+" ") && !strings.Contains(text, "\n  "+f+"\n") {
				t.Errorf("game %v does not list %s:\n%s", args, f, text)
			}
		}
		if strings.Contains(text, "panic") || strings.Contains(text, "glfw") {
			t.Errorf("game %v reached the window toolkit:\n%s", args, text)
		}
	}
}

// withoutDisplay is env without the variables that name a display.
func withoutDisplay(env []string) []string {
	var kept []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			kept = append(kept, kv)
		}
	}
	return kept
}

// TestUsageNamesEachFlagOnce checks the usage text's flag lines: each
// names its flag with at most a one-word argument, which flag takes from a
// back-quoted word of the text (a back-quoted phrase would print there).
func TestUsageNamesEachFlagOnce(t *testing.T) {
	var o options.Options
	fs := options.FlagSet("game", &o)
	var b strings.Builder
	fs.SetOutput(&b)
	options.Usage(fs)
	lines := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "  -") {
			continue
		}
		lines++
		if words := strings.Fields(line); len(words) > 2 {
			t.Errorf("flag line %q: more than a flag and its argument", line)
		}
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if lines != n {
		t.Errorf("usage lists %d flag lines, the set has %d flags", lines, n)
	}
	if !strings.Contains(b.String(), "  -web dir\n") {
		t.Errorf("usage: want \"-web dir\":\n%s", b.String())
	}
}

// TestParse reads a command line into Options, keeps the defaults of the
// flags it does not name, and tells help and errors apart.
func TestParse(t *testing.T) {
	o, err := options.Parse("game", []string{"-host", "-udp-port", "9000", "-lan-port=47900", "-exit-after", "2s", "-invite", "https://r.example/"})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Host || o.UDPPort != 9000 || o.LANPort != 47900 || o.ExitAfter != 2*time.Second || o.Invite != "https://r.example/" {
		t.Errorf("parsed %+v", o)
	}
	if o.Addr != ":8080" || o.WebDir != "out/web" || o.Bots != 8 || !o.Announce || o.Level != "warn" {
		t.Errorf("defaults: %+v", o)
	}
	if _, err := options.Parse("game", []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v, want flag.ErrHelp", err)
	}
	if _, err := options.Parse("game", []string{"-udp-port", "x"}); !errors.Is(err, options.ErrCommandLine) {
		t.Errorf("-udp-port x: %v, want ErrCommandLine", err)
	}
	if _, err := options.Parse("game", []string{"-no-such-flag"}); !errors.Is(err, options.ErrCommandLine) {
		t.Errorf("-no-such-flag: %v, want ErrCommandLine", err)
	}
}

// TestParseReplay reads a replay's and a broadcast's flags: the file or
// URL, the speed (1 unless named) and where to start.
func TestParseReplay(t *testing.T) {
	o, err := options.Parse("game", []string{"-replay", "m.slreplay", "-replay-speed", "2", "-replay-at", "1m30s", "-exit-when", "replayed=90"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Replay != "m.slreplay" || o.ReplaySpeed != 2 || o.ReplayAt != 90*time.Second || o.ExitWhen != "replayed=90" || o.Broadcast != "" {
		t.Errorf("parsed %+v", o)
	}
	o, err = options.Parse("game", []string{"-broadcast", "http://h:8080/broadcast/1/"})
	if err != nil || o.Broadcast != "http://h:8080/broadcast/1/" || o.ReplaySpeed != 1 || o.ReplayAt != 0 {
		t.Errorf("-broadcast: %+v (%v)", o, err)
	}
}

// TestDefaultLANPortIsTheBeacons checks the default -lan-port against the
// LAN beacons' own default.
func TestDefaultLANPortIsTheBeacons(t *testing.T) {
	if options.DefaultLANPort != lan.DefaultPort {
		t.Errorf("DefaultLANPort %d, lan.DefaultPort %d", options.DefaultLANPort, lan.DefaultPort)
	}
}
