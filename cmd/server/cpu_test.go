package main

import (
	"io"
	"log/slog"
	"os"
	"runtime"
	"testing"
)

func TestSetProcs(t *testing.T) {
	was := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(was) })
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, tc := range []struct {
		name           string
		env            string
		procs, matches int
		want           int
	}{
		{"one match, one thread", "", 0, 1, 1},
		{"a thread per match, at most the CPUs", "", 0, 64, was},
		{"as asked", "", 3, 1, 3},
		{"$GOMAXPROCS wins over the default", "5", 0, 1, 5},
		{"-procs wins over $GOMAXPROCS", "5", 2, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime.GOMAXPROCS(was)
			if tc.env != "" {
				t.Setenv("GOMAXPROCS", tc.env)
				runtime.GOMAXPROCS(5) // what the runtime would have read at start
			} else if os.Getenv("GOMAXPROCS") != "" {
				t.Setenv("GOMAXPROCS", "")
				os.Unsetenv("GOMAXPROCS")
			}
			setProcs(log, tc.procs, tc.matches)
			if got := runtime.GOMAXPROCS(0); got != tc.want {
				t.Errorf("GOMAXPROCS %d, want %d", got, tc.want)
			}
		})
	}
}
