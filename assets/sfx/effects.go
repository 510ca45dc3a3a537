package sfx

import (
	"encoding/binary"
	"fmt"
	"time"
)

// effect is one sound effect: its file name (sounds/NAME.wav), length in
// seconds and how to synthesize it into a voice of that length.
type effect struct {
	name  string
	dur   float64
	seed  uint64
	synth func(v *voice)
}

// effects lists every sound effect the game plays. Each is built from
// oscillators, filtered noise and envelopes, and finished by voice.pcm
// (no DC, ramped ends, peak at -3 dBFS). Together they last about three
// seconds: some 130 KB of 16-bit mono at 22050 Hz.
func effects() []effect {
	return []effect{
		// shot: a bright "pew": a rounded square sweeping down from 1.3 kHz
		// to 240 Hz in 90 ms, over a short hiss for the muzzle's crack.
		{"shot", 0.14, 1, func(v *voice) {
			v.tone(0, softSquare, sweep(1300, 240, 0.09), perc(0.002, 0.035), 0.8)
			v.tone(0, sine, sweep(2600, 480, 0.09), perc(0.001, 0.02), 0.25)
			v.noise(0, 6000, 1500, perc(0.001, 0.012), 0.6)
		}},
		// spread: a heavier blast: three detuned sweeps lower than the shot
		// and a long low-passed burst of noise, the fan of pellets.
		{"spread", 0.24, 2, func(v *voice) {
			for i, f := range []float64{820, 900, 990} {
				v.tone(0.004*float64(i), softSaw, sweep(f, f/5, 0.14), perc(0.002, 0.05), 0.45)
			}
			v.noise(0, 2500, 120, perc(0.002, 0.06), 1.0)
			v.noise(0, 7000, 2000, perc(0.001, 0.015), 0.5)
		}},
		// hit: a short thwack: a falling low sine for the body of the blow
		// and a crack of mid-band noise.
		{"hit", 0.11, 3, func(v *voice) {
			v.tone(0, sine, sweep(320, 110, 0.06), perc(0.001, 0.03), 1.0)
			v.bandNoise(0, steady(1800), 1.5, perc(0.001, 0.012), 1.2)
		}},
		// hurt: the own player takes damage: a low buzzing grunt (a
		// rounded square falling from 170 to 95 Hz, wobbling) over dull
		// noise, longer than the hit so it stands apart.
		{"hurt", 0.26, 4, func(v *voice) {
			wobble := func(t float64) float64 { return sweep(170, 95, 0.2)(t) * (1 + 0.04*sine(t*28)) }
			v.tone(0, softSquare, wobble, swell(0.015, 0.26), 0.7)
			v.tone(0, sine, sweep(85, 50, 0.2), swell(0.01, 0.24), 0.6)
			v.noise(0, 900, 60, perc(0.002, 0.05), 0.8)
		}},
		// death: a long falling wail (a saw from 520 to 60 Hz) under a
		// noisy crumble that fades, with a tremolo that slows it down.
		{"death", 0.4, 5, func(v *voice) {
			v.tone(0, softSaw, sweep(520, 60, 0.38), perc(0.005, 0.16), 0.8)
			v.tone(0, sine, sweep(260, 40, 0.38), perc(0.005, 0.2), 0.5)
			v.noise(0, 1400, 80, perc(0.004, 0.09), 0.7)
			v.tremolo(18, 0.5)
		}},
		// pickup: two quick rising notes, A5 then E6, bright triangles with
		// a sine an octave up.
		{"pickup", 0.2, 6, func(v *voice) {
			for i, f := range []float64{880, 1318.5} {
				start := 0.07 * float64(i)
				v.tone(start, triangle, steady(f), perc(0.003, 0.05), 0.8)
				v.tone(start, sine, steady(2*f), perc(0.002, 0.03), 0.25)
			}
		}},
		// power: a power-up or a new weapon: a rising C major arpeggio
		// (C5 E5 G5 C6) of rounded squares with a shimmer.
		{"power", 0.4, 7, func(v *voice) {
			for i, f := range []float64{523.25, 659.25, 783.99, 1046.5} {
				start := 0.06 * float64(i)
				v.tone(start, softSquare, steady(f), perc(0.003, 0.06+0.03*float64(i)), 0.45)
				v.tone(start, sine, steady(f*1.005), perc(0.003, 0.08), 0.3)
			}
			v.tremolo(24, 0.3)
		}},
		// dash: a whoosh: noise through a resonant band-pass sweeping up
		// from 500 Hz to 3 kHz and back, swelling in and out.
		{"dash", 0.22, 8, func(v *voice) {
			centre := func(t float64) float64 {
				if t < 0.08 {
					return sweep(500, 3000, 0.08)(t)
				}
				return sweep(3000, 900, 0.14)(t - 0.08)
			}
			v.bandNoise(0, centre, 3, swell(0.06, 0.22), 1.0)
			v.noise(0, 700, 0, swell(0.04, 0.2), 0.25)
		}},
		// round_start: "ready, go": a short E5 beep, then an E6 held a
		// little longer, square and sine together.
		{"round_start", 0.46, 9, func(v *voice) {
			v.tone(0, softSquare, steady(659.25), beep(0.11), 0.5)
			v.tone(0, sine, steady(659.25), beep(0.11), 0.4)
			v.tone(0.2, softSquare, steady(1318.5), beep(0.24), 0.5)
			v.tone(0.2, sine, steady(1318.5), beep(0.24), 0.4)
		}},
		// round_end: a falling bell chime, C5 A4 F4, each a sine with an
		// inharmonic partial (x2.76) that rings shorter.
		{"round_end", 0.52, 10, func(v *voice) {
			for i, f := range []float64{523.25, 440, 349.23} {
				start := 0.13 * float64(i)
				v.tone(start, sine, steady(f), perc(0.003, 0.12+0.04*float64(i)), 0.7)
				v.tone(start, sine, steady(f*2.76), perc(0.002, 0.04), 0.3)
			}
		}},
		// click: a menu button: a 2.4 kHz blip of a few ms and a breath of
		// noise.
		{"click", 0.05, 11, func(v *voice) {
			v.tone(0, sine, steady(2400), perc(0.001, 0.007), 1.0)
			v.tone(0, sine, steady(1200), perc(0.001, 0.01), 0.4)
			v.noise(0, 8000, 3000, perc(0.0005, 0.003), 0.4)
		}},
		// confirm: the own shot hit: a bright metallic tick, two quick
		// pings (3.5 kHz then 4.7 kHz) with an inharmonic partial each.
		{"confirm", 0.08, 12, func(v *voice) {
			for i, f := range []float64{3520, 4700} {
				start := 0.03 * float64(i)
				v.tone(start, sine, steady(f), perc(0.001, 0.018), 0.8)
				v.tone(start, sine, steady(f*1.48), perc(0.001, 0.01), 0.3)
			}
		}},
	}
}

// beep is a flat tone of length seconds with 5 ms ramps at both ends.
func beep(length float64) envelope {
	const ramp = 0.005
	return func(t float64) float64 {
		switch {
		case t < 0 || t >= length:
			return 0
		case t < ramp:
			return t / ramp
		case t > length-ramp:
			return (length - t) / ramp
		}
		return 1
	}
}

// samples synthesizes an effect into 16-bit PCM.
func (e effect) samples() []int16 {
	v := newVoice(e.dur, e.seed)
	e.synth(v)
	return v.pcm()
}

// Names returns the name of every sound effect, in the order the
// synthesizer lists them.
func Names() []string {
	var out []string
	for _, e := range effects() {
		out = append(out, e.name)
	}
	return out
}

// Length returns how long the sound effect name lasts, from its recipe,
// without synthesizing it.
func Length(name string) (time.Duration, error) {
	for _, e := range effects() {
		if e.name == name {
			return time.Duration(frames(e.dur)) * time.Second / SampleRate, nil
		}
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknown, name)
}

// WAV synthesizes the sound effect name and returns it as a RIFF WAVE
// file of mono 16-bit PCM at SampleRate: the same bytes every time, and the
// same bytes as sounds/NAME.wav in package assets, which the generator
// writes from it (package assets/gen).
func WAV(name string) ([]byte, error) {
	for _, e := range effects() {
		if e.name == name {
			return appendWAV(nil, e.samples()), nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrUnknown, name)
}

// appendWAV appends a RIFF WAVE file of mono 16-bit PCM at SampleRate, the
// layout assets.AppendWAV writes (package assets hands out these sounds, so
// this package cannot import it).
func appendWAV(dst []byte, samples []int16) []byte {
	data := uint32(2 * len(samples))
	dst = append(dst, "RIFF"...)
	dst = binary.LittleEndian.AppendUint32(dst, 36+data)
	dst = append(dst, "WAVEfmt "...)
	dst = binary.LittleEndian.AppendUint32(dst, 16)
	dst = binary.LittleEndian.AppendUint16(dst, 1) // PCM
	dst = binary.LittleEndian.AppendUint16(dst, 1) // mono
	dst = binary.LittleEndian.AppendUint32(dst, SampleRate)
	dst = binary.LittleEndian.AppendUint32(dst, SampleRate*2)
	dst = binary.LittleEndian.AppendUint16(dst, 2)
	dst = binary.LittleEndian.AppendUint16(dst, 16)
	dst = append(dst, "data"...)
	dst = binary.LittleEndian.AppendUint32(dst, data)
	for _, s := range samples {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(s))
	}
	return dst
}
