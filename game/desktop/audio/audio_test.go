package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/sound"
)

// probeEnv makes the test binary a helper that runs probeDevice (and New)
// and prints what they found, in a process of its own: ALSA reads its
// configuration once per process.
const probeEnv = "SIGHTLINE_AUDIO_PROBE_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) == "1" {
		var log bytes.Buffer
		s := New(slog.New(slog.NewTextHandler(&log, nil)))
		err := probeDevice()
		os.Stdout.WriteString("probe: " + errText(err) + "\n")
		os.Stdout.WriteString("silent: " + boolText(s.Silent()) + "\n")
		os.Stdout.WriteString("log: " + log.String())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func errText(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrNoDevice):
		return "no device: " + err.Error()
	}
	return "other error: " + err.Error()
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// runProbe runs the helper with HOME holding asoundrc as its ALSA
// configuration.
func runProbe(t *testing.T, asoundrc string) string {
	t.Helper()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".asoundrc"), []byte(asoundrc), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), probeEnv+"=1", "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	return string(out)
}

// ALSA configurations every Linux machine can have, whatever its hardware.
const (
	// A default output that takes every sample and plays none.
	nullDevice = "pcm.!default {\n  type null\n}\n"
	// A default output on a sound card no machine has.
	missingCard = "pcm.!default {\n  type hw\n  card 99\n}\nctl.!default {\n  type hw\n  card 99\n}\n"
)

// Without a device the game plays silent and says why once; with one (an
// ALSA null device here), it opens the output.
func TestProbe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the device check runs ALSA, on Linux")
	}
	out := runProbe(t, missingCard)
	t.Logf("missing card:\n%s", out)
	if !strings.Contains(out, "probe: no device: ") || !strings.Contains(out, "silent: true") {
		t.Errorf("a missing card was not found missing:\n%s", out)
	}
	if n := strings.Count(out, "no sound device: playing silent"); n != 1 {
		t.Errorf("said %d times that it plays silent, want once:\n%s", n, out)
	}
	if strings.Contains(out, "ALSA lib") {
		t.Errorf("ALSA's own messages were not silenced:\n%s", out)
	}

	out = runProbe(t, nullDevice)
	t.Logf("null device:\n%s", out)
	if !strings.Contains(out, "probe: ok") || !strings.Contains(out, "silent: false") || strings.Contains(out, "playing silent") {
		t.Errorf("the null device was not taken:\n%s", out)
	}
}

// A silent Sound (and a nil one) takes every call and plays nothing.
func TestSilentSound(t *testing.T) {
	s := &Sound{log: slog.New(slog.DiscardHandler)}
	s.mixer = sound.New(s, sound.Config{})
	s.SetVolume(0.5, 1, false)
	s.Click()
	s.Play(sound.Request{Voice: 9, Sound: sound.Shot, Volume: 1})
	s.Stop(9)
	if !s.Silent() || len(s.voices) != 0 {
		t.Errorf("silent %v, %d voices", s.Silent(), len(s.voices))
	}
	if c := s.Counts(); c[sound.Click] != 1 || c[sound.Shot] != 1 {
		t.Errorf("counts %v", c)
	}
	var none *Sound
	none.SetVolume(1, 1, true)
	none.Click()
	none.LogCounts()
	if !none.Silent() || none.Mixer() != nil || none.Counts() != [sound.NumSounds]int{} {
		t.Error("a nil Sound is not silent")
	}
}

func TestPanGains(t *testing.T) {
	for _, c := range []struct{ pan, left, right float64 }{
		{0, 1, 1},
		{-1, 1, 0},
		{1, 0, 1},
		{0.5, 0.5, 1},
		{-0.25, 1, 0.75},
		{3, 0, 1},
	} {
		l, r := panGains(c.pan)
		if math.Abs(float64(l)-c.left) > 1e-6 || math.Abs(float64(r)-c.right) > 1e-6 {
			t.Errorf("pan %.2f: %.2f %.2f, want %.2f %.2f", c.pan, l, r, c.left, c.right)
		}
	}
}

// The panning reader writes each mono sample as a stereo pair of 32-bit
// floats, scaled per side, in whatever buffer sizes it is asked.
func TestPanReader(t *testing.T) {
	clip := []float32{0.5, -1, 0.25}
	r := &panReader{clip: clip, left: 1, right: 0.5}
	var got []float32
	buf := make([]byte, 12) // one pair and a half: the half is left for the next read
	for {
		n, err := r.Read(buf)
		if n%8 != 0 {
			t.Fatalf("read %d bytes: not whole frames", n)
		}
		for i := 0; i < n; i += 4 {
			got = append(got, math.Float32frombits(binary.LittleEndian.Uint32(buf[i:])))
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []float32{0.5, 0.25, -1, -0.5, 0.25, 0.125}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// Every effect decodes, resampled to the context's rate: twice the frames
// of the 22050 Hz file, within the resampler's edge, peaking near -3 dBFS
// and never clipping.
func TestDecode(t *testing.T) {
	lengths := sound.Lengths()
	for n := range sound.NumSounds {
		clip, err := decode(n)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(lengths[n].Seconds()) * SampleRate
		if math.Abs(float64(len(clip))-want) > 4 {
			t.Errorf("%s: %d samples at %d Hz, want %.0f", n, len(clip), SampleRate, want)
		}
		var peak float64
		for _, x := range clip {
			peak = max(peak, math.Abs(float64(x)))
		}
		if peak < 0.6 || peak > 0.9 { // -3 dBFS, and the resampler's overshoot between samples
			t.Errorf("%s peaks at %.2f", n, peak)
		}
	}
}
