package client

import (
	"testing"
	"time"
)

// An input clock sends one input a tick while the server's queue holds
// TargetSpare inputs, slows down while more wait and speeds up while fewer
// do (by at most maxPace).
func TestInputClock(t *testing.T) {
	const tick = time.Second / 30
	scaled := func(f float64) time.Duration { return time.Duration(float64(tick) * f) }
	for _, tc := range []struct {
		name   string
		spare  int // every report
		period time.Duration
	}{
		{"no report", 0, tick},
		{"one spare", 1, scaled(1 + paceGain*(1-TargetSpare))},
		{"too many wait", 5, scaled(1 + maxPace)},
		{"late", -1, scaled(1 - maxPace)},
		{"none spare", 0, scaled(1 - paceGain*TargetSpare)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewInputClock(30)
			if tc.name != "no report" {
				c.Report(tc.spare*50, 50)
			}
			if got := c.Period(); got != tc.period {
				t.Fatalf("period %v, want %v", got, tc.period)
			}
			start := time.Unix(1000, 0)
			sent := 0
			for f := range 600 { // ten seconds of frames at 60 a second
				now := start.Add(time.Duration(f) * time.Second / 60)
				sent += c.Due(now)
				if a := c.Alpha(now); a < 0 || a > 1 {
					t.Fatalf("alpha %v", a)
				}
			}
			want := int(10 * time.Second / tc.period)
			if sent < want-1 || sent > want+1 {
				t.Fatalf("%d inputs in 10 s at a period of %v, want %d", sent, tc.period, want)
			}
		})
	}
	// A stall is skipped, not caught up.
	c := NewInputClock(30)
	start := time.Unix(1000, 0)
	c.Due(start)
	if k := c.Due(start.Add(time.Second)); k != 1 {
		t.Fatalf("%d inputs due after a second's stall, want 1", k)
	}
	if k := c.Due(start.Add(time.Second + tick/2)); k != 0 {
		t.Fatalf("%d inputs due half a tick later, want 0", k)
	}
}
