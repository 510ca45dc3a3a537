package main

import (
	"math"
	"testing"
	"time"
)

// perClientTick takes the idle cost out and divides by clients and ticks;
// the input wait is over the same window, and absent from a server that
// does not count inputs.
func TestPerClientTick(t *testing.T) {
	at := time.Unix(1000, 0)
	sample := func(secs, cpu, ticks, applied, waited float64) serverSample {
		return serverSample{at: at.Add(time.Duration(secs * float64(time.Second))), cpu: cpu, ticks: ticks, matches: 1, applied: applied, waited: waited}
	}
	// Idle: 0.02 s of CPU over 60 ticks in 2 s. Playing: 2.02 s over 300
	// ticks in 10 s with 10 clients, of which 300*0.02/60 = 0.1 s is idle.
	idle0, idle1 := sample(0, 1, 100, 0, 0), sample(2, 1.02, 160, 0, 0)
	play0, play1 := sample(5, 2, 250, 500, 100), sample(15, 4.02, 550, 3500, 700)
	got, err := perClientTick(idle0, idle1, play0, play1, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := (2.02 - 0.1) / (300 * 10) * 1e6 // 640 µs
	if math.Abs(got.UsPerClientTick-want) > 1e-6 || math.Abs(got.IdleCores-0.01) > 1e-9 || math.Abs(got.Cores-0.202) > 1e-9 {
		t.Errorf("got %+v, want %.1f µs, 0.01 idle cores, 0.202 cores", got, want)
	}
	if got.InputWaitTicks == nil || math.Abs(*got.InputWaitTicks-0.2) > 1e-9 {
		t.Errorf("input wait %v, want 600/3000 = 0.2", got.InputWaitTicks)
	}
	play0.applied, play1.applied = 0, 0
	if got, _ := perClientTick(idle0, idle1, play0, play1, 10); got.InputWaitTicks != nil {
		t.Errorf("input wait %v from a server that counts no inputs", *got.InputWaitTicks)
	}
	if _, err := perClientTick(idle0, idle0, play0, play1, 10); err == nil {
		t.Error("no idle ticks: no error")
	}
}
