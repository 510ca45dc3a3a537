//go:build !js

package webrtc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/testnet"
)

// stageLog collects the stages a dial reports.
type stageLog struct {
	mu     sync.Mutex
	stages []Stage
}

func (l *stageLog) add(s Stage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stages = append(l.stages, s)
}

func (l *stageLog) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, s := range l.stages {
		out = append(out, s.Name)
	}
	return out
}

// A dial reports its stages in order and, when it fails, says where: a
// closed port is unreachable; a server that answers but whose UDP never
// gets through fails ICE; a server that works reaches every stage.
func TestDialReportsStagesAndWhereItFailed(t *testing.T) {
	t.Run("closed port", func(t *testing.T) {
		var l stageLog
		cfg := DialConfig{Version: testVersion, IncludeLoopback: true, SettingEngine: loopbackOnly, OnStage: l.add}
		cfg.Logger, _ = newLog(t, "client")
		url := fmt.Sprintf("http://127.0.0.1:%d/signal", testnet.FreePort(t, "tcp"))
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := Dial(ctx, url, cfg)
		if !errors.Is(err, ErrUnreachable) || errors.Is(err, ErrICEFailed) {
			t.Fatalf("Dial to a closed port: %v, want ErrUnreachable", err)
		}
		if got, want := l.names(), []string{StageOfferSent}; !slices.Equal(got, want) {
			t.Errorf("stages %q, want %q", got, want)
		}
	})
	t.Run("udp dropped", func(t *testing.T) {
		bh := testnet.NewBlackHole(t)
		var l stageLog
		cfg := DialConfig{Version: testVersion, IncludeLoopback: true, SettingEngine: loopbackOnly, OnStage: l.add,
			ICEServersURL: bh.URL + "/ice", ICETimeout: 2 * time.Second}
		cfg.Logger, _ = newLog(t, "client")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := Dial(ctx, bh.URL+"/signal", cfg)
		if !errors.Is(err, ErrICEFailed) || errors.Is(err, ErrUnreachable) {
			t.Fatalf("Dial to a server whose UDP is dropped: %v, want ErrICEFailed", err)
		}
		want := []string{StageICEServers, StageOfferSent, StageAnswer, StageChecking}
		if got := l.names(); !slices.Equal(got, want) {
			t.Errorf("stages %q, want %q", got, want)
		}
		if d := l.stages[len(l.stages)-1].Detail; d != "host" {
			t.Errorf("ICE checks tried %q, want host", d)
		}
		if bh.Dropped() == 0 {
			t.Error("no check reached the black hole")
		}
	})
	t.Run("connects", func(t *testing.T) {
		ts := newTestServer(t, ServerConfig{})
		var l stageLog
		cfg := ts.dialConfig(t, "client")
		cfg.OnStage = l.add
		ts.dial(t, "client", cfg)
		ts.accept(t)
		want := []string{StageOfferSent, StageAnswer, StageChecking, StageConnected, StageChannelsOpen}
		if got := l.names(); !slices.Equal(got, want) {
			t.Errorf("stages %q, want %q", got, want)
		}
		for i := 1; i < len(l.stages); i++ {
			if l.stages[i].At < l.stages[i-1].At {
				t.Errorf("stage %q at %v before %q at %v", l.stages[i].Name, l.stages[i].At, l.stages[i-1].Name, l.stages[i-1].At)
			}
		}
		if d := l.stages[len(l.stages)-1].Detail; d != "host" {
			t.Errorf("channels opened on path %q, want host", d)
		}
	})
}
