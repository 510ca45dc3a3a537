package sfx_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"

	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/assets/sfx"
)

// The sounds the game plays by name (game/sound).
var wantSounds = []string{"shot", "spread", "hit", "hurt", "death", "pickup", "power", "dash", "round_start", "round_end", "click", "confirm"}

// maxSoundBytes is the sounds' share of the assets' 400 KiB.
const maxSoundBytes = 140_000

// soundFiles synthesizes every sound effect, as the generator names its
// file.
func soundFiles(t *testing.T) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, n := range sfx.Names() {
		b, err := sfx.WAV(n)
		if err != nil {
			t.Fatal(err)
		}
		files["sounds/"+n+".wav"] = b
	}
	return files
}

// An effect no recipe makes is an error.
func TestUnknownSound(t *testing.T) {
	if _, err := sfx.WAV("trumpet"); !errors.Is(err, sfx.ErrUnknown) {
		t.Errorf("WAV(trumpet): %v, want ErrUnknown", err)
	}
	if _, err := sfx.Length("trumpet"); !errors.Is(err, sfx.ErrUnknown) {
		t.Errorf("Length(trumpet): %v, want ErrUnknown", err)
	}
}

// Length says, without synthesizing, exactly how long the synthesized
// sound lasts.
func TestLengthIsTheSynthesized(t *testing.T) {
	shortest, longest, total := time.Hour, time.Duration(0), 0
	formats := map[string]bool{}
	for _, n := range sfx.Names() {
		b, err := sfx.WAV(n)
		if err != nil {
			t.Fatal(err)
		}
		w, err := assets.ParseWAV(b)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sfx.Length(n)
		want := time.Duration(w.Frames) * time.Second / time.Duration(w.SampleRate)
		if err != nil || got != want {
			t.Errorf("Length(%s) = %v, %v; the sound lasts %v", n, got, err, want)
		}
		shortest, longest, total = min(shortest, want), max(longest, want), total+len(b)
		channels := map[int]string{1: "mono", 2: "stereo"}[w.Channels]
		formats[fmt.Sprintf("%s 16-bit at %s Hz", channels, figures.Thousands(w.SampleRate))] = true
	}
	if len(formats) != 1 {
		t.Fatalf("the sounds come in %d formats: %v", len(formats), formats)
	}
	for f := range formats {
		figuretest.Hold(t, "sound-lengths", fmt.Sprintf("%d sounds, %s, %.2f-%.2f s each, %s KB in all as WAV files",
			len(sfx.Names()), f, shortest.Seconds(), longest.Seconds(), figures.Thousands((total+500)/1000)))
	}
}

// decoded is a generated sound as the game reads it.
type decoded struct {
	name    string
	samples []float64 // -1..1
}

func generatedSounds(t *testing.T) []decoded {
	t.Helper()
	files := soundFiles(t)
	total := 0
	var out []decoded
	for _, name := range wantSounds {
		b, ok := files["sounds/"+name+".wav"]
		if !ok {
			t.Fatalf("no sound %q", name)
		}
		total += len(b)
		w, err := assets.ParseWAV(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if w.SampleRate != sfx.SampleRate || w.Channels != 1 {
			t.Fatalf("%s: %d channels at %d Hz", name, w.Channels, w.SampleRate)
		}
		d := decoded{name: name, samples: make([]float64, w.Frames)}
		for i := range d.samples {
			d.samples[i] = float64(int16(binary.LittleEndian.Uint16(w.Data[2*i:]))) / 32768
		}
		out = append(out, d)
	}
	if len(files) != len(wantSounds) {
		t.Errorf("%d sound files, want %d", len(files), len(wantSounds))
	}
	t.Logf("%d sounds, %d bytes", len(files), total)
	if total > maxSoundBytes {
		t.Errorf("the sounds take %d bytes, more than %d", total, maxSoundBytes)
	}
	return out
}

// Every sound is short, peaks at -3 dBFS without clipping, has no DC
// offset, and starts and ends at silence (no click).
func TestSoundLevels(t *testing.T) {
	for _, d := range generatedSounds(t) {
		s := d.samples
		dur := float64(len(s)) / sfx.SampleRate
		var peak, sum float64
		for _, x := range s {
			peak = max(peak, math.Abs(x))
			sum += x
		}
		db := 20 * math.Log10(peak)
		mean := sum / float64(len(s))
		t.Logf("%-12s %.3f s  peak %.2f dBFS  mean %+.5f", d.name, dur, db, mean)
		if dur < 0.05 || dur > 0.8 {
			t.Errorf("%s lasts %.3f s, want 0.05..0.8", d.name, dur)
		}
		if db < -3.2 || db > -2.8 {
			t.Errorf("%s peaks at %.2f dBFS, want -3", d.name, db)
		}
		if peak >= 32767.0/32768 {
			t.Errorf("%s clips", d.name)
		}
		if math.Abs(mean) > 0.005 {
			t.Errorf("%s has a DC offset of %.4f", d.name, mean)
		}
		if a, b := math.Abs(s[0]), math.Abs(s[len(s)-1]); a > 0.01 || b > 0.01 {
			t.Errorf("%s starts at %.3f and ends at %.3f, want silence", d.name, a, b)
		}
		// The first and last millisecond are quiet: the sound ramps in and
		// out rather than starting or stopping at full level.
		for _, r := range [][]float64{s[:sfx.SampleRate/1000], s[len(s)-sfx.SampleRate/1000:]} {
			if rms := rms(r); rms > 0.15 {
				t.Errorf("%s has %.2f RMS in a millisecond at an end", d.name, rms)
			}
		}
	}
}

// No two sounds are alike: the spectra of every pair (the share of energy
// in each of 16 bands from 100 Hz to 8 kHz) differ by 0.4 (of 2) or more,
// and by 0.8 where their lengths are within 20 ms.
func TestSoundsAreDistinct(t *testing.T) {
	ds := generatedSounds(t)
	profiles := make([][]float64, len(ds))
	for i, d := range ds {
		profiles[i] = bandProfile(d.samples)
	}
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			dl := math.Abs(float64(len(ds[i].samples)-len(ds[j].samples))) / sfx.SampleRate
			dist := profileDistance(profiles[i], profiles[j])
			if dist < 0.4 || (dl < 0.02 && dist < 0.8) {
				t.Errorf("%s and %s are alike: %.0f ms apart in length, spectra %.2f apart", ds[i].name, ds[j].name, dl*1000, dist)
			}
		}
	}
	// The spectral centroids say what each sound is: the click and the
	// shot bright, the hurt and the death low.
	centroid := func(name string) float64 {
		i := slices.IndexFunc(ds, func(d decoded) bool { return d.name == name })
		return spectralCentroid(ds[i].samples)
	}
	for _, c := range []struct{ low, high string }{
		{"hurt", "shot"}, {"death", "pickup"}, {"hit", "click"}, {"hurt", "hit"}, {"round_end", "click"}, {"hit", "confirm"},
	} {
		if l, h := centroid(c.low), centroid(c.high); l >= h {
			t.Errorf("%s (centroid %.0f Hz) is not lower than %s (%.0f Hz)", c.low, l, c.high, h)
		}
	}
}

// The generator writes the same bytes every time.
func TestSoundsAreDeterministic(t *testing.T) {
	a, b := soundFiles(t), soundFiles(t)
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

// bandFreqs are the centres of 16 log-spaced bands from 100 Hz to 8 kHz.
func bandFreqs() []float64 {
	f := make([]float64, 16)
	for i := range f {
		f[i] = 100 * math.Pow(80, float64(i)/15)
	}
	return f
}

// goertzel returns the energy of s at frequency f.
func goertzel(s []float64, f float64) float64 {
	k := 2 * math.Cos(2*math.Pi*f/sfx.SampleRate)
	var s1, s2 float64
	for i, x := range s {
		w := 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(len(s)-1)) // Hann
		s0 := x*w + k*s1 - s2
		s2, s1 = s1, s0
	}
	return s1*s1 + s2*s2 - k*s1*s2
}

// bandProfile is the share of energy in each band (summing to 1), from
// three probes per band.
func bandProfile(s []float64) []float64 {
	fs := bandFreqs()
	p := make([]float64, len(fs))
	var total float64
	for i, f := range fs {
		for _, m := range []float64{0.87, 1, 1.15} {
			p[i] += goertzel(s, f*m)
		}
		total += p[i]
	}
	for i := range p {
		p[i] /= total
	}
	return p
}

// profileDistance is the total variation between two profiles: 0 alike, 2
// disjoint.
func profileDistance(a, b []float64) float64 {
	var d float64
	for i := range a {
		d += math.Abs(a[i] - b[i])
	}
	return d
}

func spectralCentroid(s []float64) float64 {
	p := bandProfile(s)
	var c float64
	for i, f := range bandFreqs() {
		c += p[i] * f
	}
	return c
}

func rms(s []float64) float64 {
	var sum float64
	for _, x := range s {
		sum += x * x
	}
	return math.Sqrt(sum / float64(len(s)))
}

// BenchmarkWAV synthesizes every sound effect, as the game does over its
// first frames with sound.
func BenchmarkWAV(b *testing.B) {
	names := sfx.Names()
	for b.Loop() {
		for _, n := range names {
			if _, err := sfx.WAV(n); err != nil {
				b.Fatal(err)
			}
		}
	}
}
