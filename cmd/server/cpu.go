package main

import (
	"log/slog"
	"os"
	"runtime"
	"time"
)

// defaultReadInterval is -read-interval's default: rounds on, one at each
// tick (every match's tick reads one and waits for it to pass the WebRTC
// stack before stepping), the interval only bounding the wait between
// rounds when ticks are further apart. It halves the server's CPU per
// player (docs/07-performance.md).
const defaultReadInterval = 50 * time.Millisecond

// setProcs sets GOMAXPROCS to procs, or with 0 to one per match, at most
// what the runtime chose (the CPUs, or the container's CPU limit), unless
// $GOMAXPROCS is set. A match's tick runs on one goroutine and its
// transport's goroutines hand each packet from one to the next: on one
// thread those hand-offs are cheap, while with idle threads to spare every
// hand-off wakes one, which costs a player about a fifth more CPU here.
// The tick then shares its thread with pion, which added about 0.1 tick
// to an input's mean wait in the player's queue (docs/07-performance.md).
func setProcs(log *slog.Logger, procs, matches int) {
	if procs == 0 {
		if os.Getenv("GOMAXPROCS") != "" {
			return
		}
		procs = min(runtime.GOMAXPROCS(0), max(matches, 1))
	}
	if was := runtime.GOMAXPROCS(procs); was != procs {
		log.Info("GOMAXPROCS", "procs", procs, "was", was)
	}
}
