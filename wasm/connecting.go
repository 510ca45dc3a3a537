//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"syscall/js"
	"time"

	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/netcode/transport"
)

// joinTimeout bounds one attempt at joining, from the first request to the
// channels open.
const joinTimeout = 30 * time.Second

// snapshotTimeout bounds the wait for the first snapshot once the
// channels are open.
const snapshotTimeout = 15 * time.Second

// connecting is the join as the page shows it: the stages reached, each
// with its time, and once failed the likely cause and what to try. It
// publishes window.sightline.connect and asks the page to draw it
// (window.sightlineShowConnect); the page's Retry and Cancel buttons call
// window.sightlineRetry and window.sightlineCancel.
type connecting struct {
	page   js.Value
	target string
	log    *slog.Logger
	retry  chan struct{}

	mu      sync.Mutex
	start   float64 // the attempt's start, in the page's ms
	stages  []client.Stage
	failure client.Failure
	failed  bool
	reload  bool // Retry reloads the page: the game loop already runs
	done    bool
	cancel  context.CancelFunc
}

// newConnecting installs the page's Retry and Cancel.
func newConnecting(page js.Value, target string, log *slog.Logger) *connecting {
	c := &connecting{page: page, target: target, log: log, retry: make(chan struct{}, 1)}
	js.Global().Set("sightlineRetry", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case c.retry <- struct{}{}:
		default:
		}
		return nil
	}))
	js.Global().Set("sightlineCancel", js.FuncOf(func(js.Value, []js.Value) any {
		c.mu.Lock()
		cancel := c.cancel
		c.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		return nil
	}))
	return c
}

// join connects to the page's server with cfg, showing each stage, until
// an attempt succeeds: after a failure it waits for the player's Retry.
func (c *connecting) join(ctx context.Context, cfg client.ConnectConfig) transport.Conn {
	cfg.OnStage = c.reach
	for {
		actx, cancel := context.WithTimeout(ctx, joinTimeout)
		c.mu.Lock()
		c.start = now()
		c.stages, c.failed, c.failure, c.cancel = nil, false, client.Failure{}, cancel
		c.mu.Unlock()
		c.show()
		conn, err := client.Connect(actx, c.target, cfg)
		cancel()
		if err == nil {
			return conn
		}
		c.fail(err, false)
		<-c.retry
	}
}

// reach records a stage reached and shows it.
func (c *connecting) reach(s client.Stage) {
	c.mu.Lock()
	c.stages = append(c.stages, s)
	c.mu.Unlock()
	c.show()
}

// fail shows err's likely cause and what to try; reload says that Retry
// must reload the page.
func (c *connecting) fail(err error, reload bool) {
	c.log.Warn("join failed", "server", c.target, "err", err)
	c.mu.Lock()
	c.failed, c.failure, c.reload, c.cancel = true, client.Explain(err, c.target), reload, nil
	c.mu.Unlock()
	c.show()
	if !errors.Is(err, context.Canceled) {
		fail(c.page, fmt.Sprintf("could not join the match: %v", err))
	}
}

// awaitSnapshot shows the first snapshot as the join's last stage once
// decoded() says one came, and the page's panel goes; or, when none came
// in time or the connection ended first, the failure.
func (c *connecting) awaitSnapshot(decoded func() bool, closed <-chan struct{}) {
	deadline := time.Now().Add(snapshotTimeout)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			c.fail(fmt.Errorf("wasm: %w: the connection ended", client.ErrNoSnapshot), true)
			return
		case <-tick.C:
		}
		if decoded() {
			c.mu.Lock()
			c.stages = append(c.stages, client.Stage{Name: client.StageFirstSnapshot, At: time.Duration((now() - c.start) * float64(time.Millisecond))})
			c.done = true
			c.mu.Unlock()
			c.show()
			return
		}
		if time.Now().After(deadline) {
			c.fail(fmt.Errorf("wasm: %w in %v", client.ErrNoSnapshot, snapshotTimeout), true)
			return
		}
	}
}

// show publishes the join's state as window.sightline.connect and asks
// the page to draw it: rows of {label, state (done, now, failed, todo),
// ms}, the stage names reached (stages, stage), the failure (error,
// cause, try) and whether Retry reloads.
func (c *connecting) show() {
	c.mu.Lock()
	reached := map[string]client.Stage{}
	var names []any
	for _, s := range c.stages {
		reached[s.Name] = s
		names = append(names, map[string]any{"stage": s.Name, "detail": s.Detail, "ms": float64(s.At.Microseconds()) / 1000})
	}
	var rows []any
	pending := true
	for _, name := range client.Stages() {
		s, ok := reached[name]
		row := map[string]any{"label": client.StageLabel(name, ""), "state": "todo"}
		switch {
		case ok:
			row["label"], row["state"], row["ms"] = client.StageLabel(name, s.Detail), "done", float64(s.At.Milliseconds())
		case pending && c.failed:
			row["state"], pending = "failed", false
		case pending:
			row["state"], pending = "now", false
		}
		rows = append(rows, row)
	}
	stage := ""
	if len(c.stages) > 0 {
		stage = c.stages[len(c.stages)-1].Name
	}
	errText := ""
	if c.failed {
		errText = c.failure.String()
	}
	state := map[string]any{
		"target": c.target, "startMs": c.start, "rows": rows, "stages": names, "stage": stage,
		"failed": c.failed, "error": errText, "cause": c.failure.Cause, "try": c.failure.Try,
		"reload": c.reload, "done": c.done,
	}
	c.mu.Unlock()
	c.page.Set("connect", js.ValueOf(state))
	if show := js.Global().Get("sightlineShowConnect"); show.Type() == js.TypeFunction {
		show.Invoke()
	}
}

// now is the page's time, ms since navigation.
func now() float64 { return js.Global().Get("performance").Call("now").Float() }
