package main

import "testing"

// BenchmarkArenaTick is one server tick of the default arena run (32 bots,
// 300 creatures): the match steps, every client's view goes out in all four
// lanes and is decoded and checked, the full packets are compressed, the
// bots choose. It reports the project's format's bytes per client a tick.
func BenchmarkArenaTick(b *testing.B) {
	o := arenaDefaults()
	r, err := newArenaRun(o)
	if err != nil {
		b.Fatal(err)
	}
	tick := uint32(0)
	for range 300 { // ten seconds in: the bots have met, buffers have grown
		tick++
		r.tick(tick)
	}
	before := r.lanes[laneOurs].totals().bytes
	b.ReportAllocs()
	for b.Loop() {
		tick++
		r.tick(tick)
	}
	b.ReportMetric(float64(r.lanes[laneOurs].totals().bytes-before)/float64(b.N)/float64(o.Players), "B/client-tick")
}
