package netgraph

import (
	"math"
	"testing"
	"time"
)

func TestHistoryKeepsNewest(t *testing.T) {
	var h History
	for i := range HistoryLen + 30 {
		h.Push(Sample{Size: i, Full: 1000})
	}
	if h.Len() != HistoryLen || h.At(0).Size != 30 || h.At(HistoryLen-1).Size != HistoryLen+29 {
		t.Fatalf("len %d, oldest %d, newest %d", h.Len(), h.At(0).Size, h.At(HistoryLen-1).Size)
	}
	if h.Max() != 1000 {
		t.Errorf("max %d", h.Max())
	}
	size, full := h.Mean()
	if full != 1000 || math.Abs(size-(30+HistoryLen+29)/2.0) > 1e-9 {
		t.Errorf("mean %v %v", size, full)
	}
}

func TestSeriesRate(t *testing.T) {
	t0 := time.Unix(0, 0)
	s := Series{Span: time.Second}
	for i := range 100 { // 1000 bytes per 50 ms = 20 kB/s for 5 s
		s.Add(t0.Add(time.Duration(i)*50*time.Millisecond), float64(i*1000))
	}
	if r := s.PerSecond(); math.Abs(r-20000) > 1 {
		t.Errorf("rate %v, want 20000", r)
	}
	if _, dt := s.Delta(); dt < time.Second || dt > 1100*time.Millisecond {
		t.Errorf("window %v", dt)
	}
	var empty Series
	if empty.PerSecond() != 0 {
		t.Error("empty series has a rate")
	}
}

func TestLoss(t *testing.T) {
	t0 := time.Unix(0, 0)
	l := NewLoss(2 * time.Second)
	var got uint64
	for tick := uint32(1); tick <= 300; tick++ {
		if tick%10 != 0 { // one in ten lost
			got++
		}
		l.Add(t0.Add(time.Duration(tick)*time.Second/30), tick, got)
	}
	if s := l.Share(); math.Abs(s-0.1) > 0.02 {
		t.Errorf("loss %v, want 0.1", s)
	}
	if NewLoss(time.Second).Share() != 0 {
		t.Error("no data, some loss")
	}
}

func TestRoundTrip(t *testing.T) {
	t0 := time.Unix(0, 0)
	var r RoundTrip
	if _, ok := r.Value(); ok {
		t.Fatal("a round trip before any input")
	}
	for seq := uint32(1); seq <= 100; seq++ {
		r.Sent(seq, t0.Add(time.Duration(seq)*33*time.Millisecond))
	}
	for seq := uint32(1); seq <= 90; seq++ {
		at := t0.Add(time.Duration(seq)*33*time.Millisecond + 80*time.Millisecond)
		r.Applied(seq, at)
		r.Applied(seq, at.Add(33*time.Millisecond)) // the same news again: not measured
	}
	if v, ok := r.Value(); !ok || v != 80*time.Millisecond {
		t.Errorf("round trip %v %v, want 80ms", v, ok)
	}
}
