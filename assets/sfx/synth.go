package sfx

import (
	"math"
	"math/rand/v2"
)

// SampleRate is the rate of every generated sound: mono 16-bit PCM at
// 22050 Hz keeps the effects small, and their content stays below 8 kHz.
const SampleRate = 22050

// PeakLevel is the peak every sound is normalised to: -3 dBFS
// (10^(-3/20) of full scale).
const PeakLevel = 0.7079457843841379

// Ramps at both ends of every sound, so that none starts or stops with a
// click.
const (
	fadeIn  = SampleRate / 500 // samples: 2 ms
	fadeOut = SampleRate / 160 // samples: about 6 ms
)

// voice is a sound being synthesized: a buffer of samples in -1..1 (before
// normalisation) at SampleRate, written by the generators below.
type voice struct {
	s   []float64
	rng *rand.Rand
}

// newVoice returns a silent voice of dur seconds whose noise comes from a
// PCG seeded with seed.
func newVoice(dur float64, seed uint64) *voice {
	return &voice{
		s:   make([]float64, frames(dur)),
		rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
}

// frames returns the samples of a sound dur seconds long.
func frames(dur float64) int { return int(dur*SampleRate + 0.5) }

// at returns the time of sample i in seconds.
func at(i int) float64 { return float64(i) / SampleRate }

// wave is a periodic waveform of the phase in turns (0..1).
type wave func(phase float64) float64

func sine(p float64) float64 { return math.Sin(2 * math.Pi * p) }

func triangle(p float64) float64 { return 4*math.Abs(p-math.Floor(p+0.5)) - 1 }

// softSquare is a square wave with rounded edges (a clipped sine): fewer
// harmonics above the band than a hard square, so it does not alias.
func softSquare(p float64) float64 { return math.Tanh(4 * math.Sin(2*math.Pi*p)) }

// softSaw is a sawtooth of its first six harmonics.
func softSaw(p float64) float64 {
	var s float64
	for k := 1.0; k <= 6; k++ {
		s += math.Sin(2*math.Pi*k*p) / k
	}
	return s * 0.55
}

// envelope is a gain over time (seconds from the start of a part).
type envelope func(t float64) float64

// perc is a percussive envelope: a linear attack, then an exponential decay
// with time constant decay.
func perc(attack, decay float64) envelope {
	return func(t float64) float64 {
		if t < 0 {
			return 0
		}
		if t < attack {
			return t / attack
		}
		return math.Exp(-(t - attack) / decay)
	}
}

// swell rises over rise seconds (a half sine) and falls linearly to zero at
// length.
func swell(rise, length float64) envelope {
	return func(t float64) float64 {
		switch {
		case t < 0 || t >= length:
			return 0
		case t < rise:
			return math.Sin(t / rise * math.Pi / 2)
		}
		return 1 - (t-rise)/(length-rise)
	}
}

// sweep is a frequency over time: exponential from f0 to f1 over dur
// seconds, then f1.
func sweep(f0, f1, dur float64) func(t float64) float64 {
	return func(t float64) float64 {
		if t >= dur {
			return f1
		}
		return f0 * math.Pow(f1/f0, t/dur)
	}
}

// steady is a constant frequency.
func steady(f float64) func(t float64) float64 { return func(float64) float64 { return f } }

// tone adds a waveform whose frequency follows freq, shaped by env and
// scaled by gain, from start seconds on. The phase accumulates, so sweeps
// stay continuous.
func (v *voice) tone(start float64, w wave, freq func(t float64) float64, env envelope, gain float64) {
	phase := 0.0
	for i := int(start * SampleRate); i < len(v.s); i++ {
		t := at(i) - start
		e := env(t)
		v.s[i] += gain * e * w(phase)
		phase += freq(t) / SampleRate
		phase -= math.Floor(phase)
	}
}

// noise adds white noise from the voice's PCG, one-pole low-passed at
// lowpass Hz (0: none) and high-passed at highpass Hz (0: none), shaped by
// env and scaled by gain, from start on.
func (v *voice) noise(start float64, lowpass, highpass float64, env envelope, gain float64) {
	lp, hp := newOnePole(lowpass), newOnePole(highpass)
	for i := int(start * SampleRate); i < len(v.s); i++ {
		x := v.rng.Float64()*2 - 1
		if lowpass > 0 {
			x = lp.low(x)
		}
		if highpass > 0 {
			x -= hp.low(x)
		}
		v.s[i] += gain * env(at(i)-start) * x
	}
}

// bandNoise adds white noise through a resonant band-pass (a state variable
// filter) whose centre follows freq, with quality q, shaped by env.
func (v *voice) bandNoise(start float64, freq func(t float64) float64, q float64, env envelope, gain float64) {
	var low, band float64
	damp := 1 / q
	for i := int(start * SampleRate); i < len(v.s); i++ {
		t := at(i) - start
		f := 2 * math.Sin(math.Pi*min(freq(t), SampleRate/6)/SampleRate)
		x := v.rng.Float64()*2 - 1
		low += f * band
		high := x - low - damp*band
		band += f * high
		v.s[i] += gain * env(t) * band
	}
}

// tremolo multiplies the voice by 1 - depth/2 + depth/2 * cos(2π rate t).
func (v *voice) tremolo(rate, depth float64) {
	for i := range v.s {
		v.s[i] *= 1 - depth/2 + depth/2*math.Cos(2*math.Pi*rate*at(i))
	}
}

// onePole is a one-pole low-pass filter.
type onePole struct{ a, y float64 }

func newOnePole(cutoff float64) onePole {
	return onePole{a: 1 - math.Exp(-2*math.Pi*cutoff/SampleRate)}
}

func (f *onePole) low(x float64) float64 {
	f.y += f.a * (x - f.y)
	return f.y
}

// pcm finishes the voice: it removes any DC offset (a high-pass at 20 Hz
// after subtracting the mean), ramps both ends to zero, normalises the peak
// to PeakLevel and quantises to 16 bits.
func (v *voice) pcm() []int16 {
	s := v.s
	if len(s) == 0 {
		return nil
	}
	var mean float64
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	dc := newOnePole(20)
	for i, x := range s {
		x -= mean
		s[i] = x - dc.low(x)
	}
	in, out := fadeIn, fadeOut
	for i := 0; i < in && i < len(s); i++ {
		s[i] *= float64(i) / float64(in)
	}
	for i := 0; i < out && i < len(s); i++ {
		s[len(s)-1-i] *= float64(i) / float64(out)
	}
	var peak float64
	for _, x := range s {
		peak = max(peak, math.Abs(x))
	}
	out16 := make([]int16, len(s))
	if peak == 0 {
		return out16
	}
	g := PeakLevel * 32767 / peak
	for i, x := range s {
		out16[i] = int16(math.Round(x * g))
	}
	return out16
}
