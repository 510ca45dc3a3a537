package view

import (
	"math"
	"testing"
)

func TestCostScaleLearnsWhatTheFormatWrites(t *testing.T) {
	var c costScale
	if got := c.estimated(1000); got != 1000 {
		t.Fatalf("a new scale turns 1000 bits into %d estimated, want 1000", got)
	}
	// A format writing 40% of the estimates: the scale closes in on 0.4,
	// and a budget of 1000 bits buys 2500 estimated.
	for range 100 {
		c.observe(2000, 800)
	}
	if f := c.get(); math.Abs(f-0.4) > 0.001 {
		t.Errorf("scale %.4f after 100 packets at 0.4, want 0.4", f)
	}
	if got := c.estimated(1000); got < 2490 || got > 2510 {
		t.Errorf("1000 bits buy %d estimated, want about 2500", got)
	}
	// One packet's measure moves it by an eighth of the gap.
	before := c.get()
	c.observe(2000, 2000)
	if want := before + (1-before)/8; math.Abs(c.get()-want) > 1e-9 {
		t.Errorf("after one packet at 1.0 the scale is %.4f, want %.4f", c.get(), want)
	}
	// Small packets say nothing; a budget of nothing stays nothing.
	before = c.get()
	c.observe(minObserved-1, 0)
	if c.get() != before {
		t.Errorf("a packet of %d estimated bits moved the scale", minObserved-1)
	}
	if got := c.estimated(-40); got != -40 {
		t.Errorf("a budget in debt becomes %d, want -40", got)
	}
	// Far-off packets are clamped.
	var lo, hi costScale
	for range 200 {
		lo.observe(1000, 0)
		hi.observe(1000, 100000)
	}
	if math.Abs(lo.get()-minScale) > 1e-6 || math.Abs(hi.get()-maxScale) > 1e-6 {
		t.Errorf("clamped scales %.4f and %.4f, want %.4f and %.4f", lo.get(), hi.get(), minScale, maxScale)
	}
}
