package quant

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestBitsFor(t *testing.T) {
	cases := []struct {
		span, precision float64
		bits            int
	}{
		{4096, 0.1, 16},   // 40961 steps
		{4096, 0.125, 16}, // 32769 steps
		{4095, 1.0 / 16, 16},
		{4096, 1.0 / 16, 17}, // 65537 steps do not fit 16 bits
		{1, 1, 1},
		{255, 1, 8},
		{256, 1, 9},
	}
	for _, c := range cases {
		if got := BitsFor(c.span, c.precision); got != c.bits {
			t.Errorf("BitsFor(%v, %v) = %d, want %d", c.span, c.precision, got, c.bits)
		}
	}
}

func TestLinearRoundTripWithinHalfStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, q := range []Linear{MustLinear(0, 4096, 0.125), MustLinear(-100, 100, 0.01), MustLinear(0, 1, 1.0/3)} {
		for range 100000 {
			v := q.min + rng.Float64()*(q.max-q.min)
			s := q.Quantize(v)
			if s > q.Top() || uint64(s) >= 1<<q.Bits() {
				t.Fatalf("step %d out of range (top %d, %d bits)", s, q.Top(), q.Bits())
			}
			if err := math.Abs(q.Dequantize(s) - v); err > q.Precision()/2+1e-9 {
				t.Fatalf("v=%v: round trip error %v > half step %v", v, err, q.Precision()/2)
			}
		}
	}
}

func TestLinearClamps(t *testing.T) {
	q := MustLinear(0, 4096, 0.125)
	if q.Bits() != 16 || q.Top() != 32768 {
		t.Fatalf("bits %d top %d", q.Bits(), q.Top())
	}
	for _, c := range []struct {
		v    float64
		want uint32
	}{{-5, 0}, {0, 0}, {4096, 32768}, {1e9, 32768}, {math.Inf(1), 32768}, {math.Inf(-1), 0}, {math.NaN(), 0}, {1.0625, 9}} {
		if got := q.Quantize(c.v); got != c.want {
			t.Errorf("Quantize(%v) = %d, want %d", c.v, got, c.want)
		}
	}
	if q.Dequantize(1<<16-1) != 4096 {
		t.Error("a step past the top must dequantize to the edge")
	}
}

func TestNewLinearRejects(t *testing.T) {
	for _, c := range [][3]float64{{1, 1, 0.1}, {2, 1, 0.1}, {0, 1, 0}, {0, 1, -1}, {0, 1e12, 1e-3}, {0, math.Inf(1), 1}, {0, 1, math.NaN()}} {
		if _, err := NewLinear(c[0], c[1], c[2]); err == nil {
			t.Errorf("NewLinear(%v) accepted", c)
		}
	}
}

func TestAngleWrapsAndRoundTrips(t *testing.T) {
	a := MustAngle(10)
	if a.Quantize(0) != 0 || a.Quantize(2*math.Pi) != 0 || a.Quantize(-2*math.Pi) != 0 {
		t.Error("0 and whole turns must be step 0")
	}
	if a.Quantize(math.Pi) != 512 || a.Quantize(-math.Pi) != 512 {
		t.Errorf("pi -> %d, -pi -> %d; want 512", a.Quantize(math.Pi), a.Quantize(-math.Pi))
	}
	if a.Quantize(-a.Step()) != 1023 {
		t.Errorf("-1 step -> %d, want 1023", a.Quantize(-a.Step()))
	}
	if a.Quantize(2*math.Pi-a.Step()/4) != 0 {
		t.Error("just under a full turn must round to 0, not 1024")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		v := (rng.Float64() - 0.5) * 40
		s := a.Quantize(v)
		if s >= 1024 {
			t.Fatalf("step %d", s)
		}
		d := math.Remainder(a.Dequantize(s)-v, 2*math.Pi)
		if math.Abs(d) > a.Step()/2+1e-9 {
			t.Fatalf("angle %v: error %v > half step", v, d)
		}
	}
	if a.Diff(1020, 3) != 7 || a.Diff(3, 1020) != -7 || a.Diff(0, 512) != 512 {
		t.Errorf("Diff: %d %d %d", a.Diff(1020, 3), a.Diff(3, 1020), a.Diff(0, 512))
	}
	if _, err := NewAngle(0); err == nil {
		t.Error("0 bits accepted")
	}
}
