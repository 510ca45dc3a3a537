package xvfbtest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ALSA configurations that give the game the same output on every Linux
// machine, whatever its hardware: written as the .asoundrc of the HOME the
// game runs with.
const (
	// The default output is on a sound card no machine has: no device.
	alsaMissingCard = "pcm.!default {\n  type hw\n  card 99\n}\nctl.!default {\n  type hw\n  card 99\n}\n"
	// The default output takes every sample and plays none: a device.
	alsaNullDevice = "pcm.!default {\n  type null\n}\n"
)

// The game plays until it asked for wantSounds sound effects, soundDeadline
// into the match at the latest (-exit-when): a few seconds of a match with
// eight bots on an idle machine, many more when a busy machine gives the
// game few frames.
const (
	wantSounds    = 3
	soundDeadline = 90 * time.Second
)

// effectCounts matches the line the game logs at exit: how many times each
// effect was asked for.
var effectCounts = regexp.MustCompile(`msg="sound effects requested" silent=(true|false)((?: [a-z_]+=\d+)+)`)

// The game plays a match with bots without a sound device (as on a server,
// in CI or under Xvfb): it says once that it plays silent, runs to the end
// and exits cleanly, and its sound triggers still fire. With a device (an
// ALSA null device) it opens the output and plays them into it.
func TestGameSoundWithAndWithoutADevice(t *testing.T) {
	xvfb := needXvfb(t)
	bin := gameBinary(t)
	for _, c := range []struct {
		name, asoundrc string
		silent         bool
	}{
		{"no device", alsaMissingCard, true},
		{"null device", alsaNullDevice, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(c.asoundrc), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			run := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1280x720x24",
				bin, "-host", "-addr", "127.0.0.1:0", "-bots", "8", "-seed", "7", "-name", "tester",
				"-fps", "30", "-autopilot", "-exit-after", soundDeadline.String(), "-exit-when", "sounds="+strconv.Itoa(wantSounds), "-log-level", "info")
			run.Dir = home
			run.Env = append(os.Environ(), "HOME="+home)
			var out bytes.Buffer
			run.Stdout, run.Stderr = &out, &out
			err := run.Run()
			log := out.String()
			if err != nil {
				t.Fatalf("game under xvfb-run: %v\n%s", err, log)
			}
			if strings.Contains(log, "panic:") {
				t.Fatalf("the game panicked:\n%s", log)
			}
			said := strings.Count(log, "no sound device: playing silent")
			m := effectCounts.FindStringSubmatch(log)
			if m == nil {
				t.Fatalf("no count of sound effects in the log:\n%s", log)
			}
			t.Logf("said it plays silent %d times; effects: silent=%s%s", said, m[1], m[2])
			want := 0
			if c.silent {
				want = 1
			}
			if said != want {
				t.Errorf("said %d times that it plays silent, want %d:\n%s", said, want, log)
			}
			if m[1] != strconv.FormatBool(c.silent) {
				t.Errorf("silent=%s, want %v", m[1], c.silent)
			}
			if strings.Contains(log, "ALSA lib") {
				t.Errorf("ALSA's own messages reached the log:\n%s", log)
			}
			total := 0
			for _, kv := range strings.Fields(m[2]) {
				_, v, _ := strings.Cut(kv, "=")
				n, _ := strconv.Atoi(v)
				total += n
			}
			if total < wantSounds {
				t.Errorf("%v of a match with eight bots asked for %d sound effects, want %d:\n%s", soundDeadline, total, wantSounds, log)
			}
		})
	}
}
