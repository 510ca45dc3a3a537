package server

import (
	"testing"
	"time"
)

func TestTickPercentile(t *testing.T) {
	var hist [tickBuckets]uint32
	if got := tickPercentile(&hist, 0.99); got != 0 {
		t.Errorf("no ticks: p99 %v, want 0", got)
	}
	hist[0] = 97            // up to 50 µs
	hist[19] = 2            // 950 µs to 1 ms
	hist[tickBuckets-1] = 1 // beyond the histogram
	for _, tc := range []struct {
		p    float64
		want time.Duration
	}{
		{0.5, 50 * time.Microsecond},
		{0.97, 50 * time.Microsecond},
		{0.98, time.Millisecond},
		{0.99, time.Millisecond},
		{1, 100 * time.Millisecond},
	} {
		if got := tickPercentile(&hist, tc.p); got != tc.want {
			t.Errorf("p%.0f: %v, want %v", 100*tc.p, got, tc.want)
		}
	}
}
