package main

import (
	"encoding/json"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
)

// heap is the garbage-collected heap as /debug/vars shows it under "heap".
// LiveBytes is what the last collection found reachable: unlike memstats'
// HeapAlloc it does not swing with garbage made since, so it is the figure
// to compare for leaks.
type heap struct {
	LiveBytes    uint64 `json:"live_bytes"`
	ObjectsBytes uint64 `json:"objects_bytes"` // live and not yet swept
	GoalBytes    uint64 `json:"goal_bytes"`    // where the next collection starts
	Cycles       uint64 `json:"gc_cycles"`
}

func readHeap() heap {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/heap/objects:bytes"},
		{Name: "/gc/heap/goal:bytes"},
		{Name: "/gc/cycles/total:gc-cycles"},
	}
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	return heap{LiveBytes: v(0), ObjectsBytes: v(1), GoalBytes: v(2), Cycles: v(3)}
}

// serveGC runs a full collection and answers the heap after it, so that a
// soak test compares live heaps without waiting for the collector's pace.
// Each call stops the world briefly: it is served only with -debug-gc.
func serveGC(w http.ResponseWriter, _ *http.Request) {
	runtime.GC()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(readHeap())
}

// serveVars answers GET /debug/vars in expvar's format, with this server's
// counters: "cmdline" and "memstats" as expvar has them, "match" (the
// first match's server.Stats), "matches" (every match's line of GET
// /matches) and "heap". It is a handler of its own rather than expvar's
// process-wide registry, so that a process (a test) may run more than one
// server.
func serveVars(vars func() map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		out := vars()
		out["cmdline"] = os.Args
		out["memstats"] = &ms
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		json.NewEncoder(w).Encode(out)
	}
}
