package main

import (
	"log/slog"
	"os"
	"runtime"
	"time"
)

// defaultReadInterval is -read-interval's default: off. Rounds save CPU
// but quantize when inputs reach the match: with one round a tick (50 ms
// and each tick's ReadNow) a load test's inputs waited 0.6 to 0.7 ticks
// in the players' queues on average where they waited 0.005 to 0.3
// without, and at 4 ms 0.13 to 0.46. A host who would trade that input
// delay for CPU sets it.
const defaultReadInterval = time.Duration(0)

// setProcs sets GOMAXPROCS to procs, or with 0 to one per match, at most
// what the runtime chose (the CPUs, or the container's CPU limit), unless
// $GOMAXPROCS is set. A match's tick runs on one goroutine and its
// transport's goroutines hand each packet from one to the next: on one
// thread those hand-offs are cheap, while with idle threads to spare every
// hand-off wakes one, which costs a player about a fifth more CPU here.
// The tick then shares its thread with pion, which added about 0.1 tick
// to an input's mean wait in the player's queue (README, capacity).
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
