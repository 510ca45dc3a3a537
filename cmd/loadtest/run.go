package main

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/bots"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

type options struct {
	URL            string
	Clients        int
	Seconds        float64
	TickRate       float64
	ConnectTimeout time.Duration
	Budget         float64
	Logger         *slog.Logger
}

// result is what the load test prints with -json.
type result struct {
	URL              string   `json:"url"`
	Clients          int      `json:"clients"`
	Connected        int      `json:"connected"`
	DecodedTicks     uint64   `json:"decoded_ticks"`
	VerifiedTicks    uint64   `json:"verified_ticks"`
	MismatchedTicks  uint64   `json:"mismatched_ticks"`
	Undecodable      uint64   `json:"undecodable"` // dropped for lack of a baseline
	Stale            uint64   `json:"stale"`
	MeanBpsPerClient float64  `json:"mean_Bps_per_client"`
	MaxBpsPerClient  float64  `json:"max_Bps_per_client"`
	P99PacketBytes   int      `json:"p99_packet_bytes"`
	MaxPacketBytes   int      `json:"max_packet_bytes"`
	ConnectMsP50     float64  `json:"connect_ms_p50"`
	ConnectMsMax     float64  `json:"connect_ms_max"`
	Seconds          float64  `json:"seconds"`
	BudgetBps        float64  `json:"budget_Bps,omitempty"`
	OverBudget       bool     `json:"over_budget"`
	Errors           []string `json:"errors,omitempty"`
}

// one is what a single client measured.
type one struct {
	connected bool
	connect   time.Duration
	stats     client.Stats
	played    time.Duration
	sizes     []int // snapshot datagram sizes
	err       error
}

func run(ctx context.Context, o options) result {
	res := make([]one, o.Clients)
	var wg sync.WaitGroup
	for i := range o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = play(ctx, o, uint64(i+1))
		}()
	}
	wg.Wait()

	r := result{Clients: o.Clients, Seconds: o.Seconds, BudgetBps: o.Budget}
	var connects []float64
	var sizes []int
	var bps []float64
	for _, c := range res {
		if c.err != nil {
			r.Errors = append(r.Errors, c.err.Error())
		}
		if !c.connected {
			continue
		}
		r.Connected++
		connects = append(connects, float64(c.connect.Microseconds())/1000)
		st := c.stats
		r.DecodedTicks += st.Decoded
		r.VerifiedTicks += st.Verified
		r.MismatchedTicks += st.Mismatched
		r.Undecodable += st.NoBaseline
		r.Stale += st.Stale
		if c.played > 0 {
			bps = append(bps, float64(st.Bytes)/c.played.Seconds())
		}
		sizes = append(sizes, c.sizes...)
	}
	if len(bps) > 0 {
		for _, b := range bps {
			r.MeanBpsPerClient += b / float64(len(bps))
		}
		r.MaxBpsPerClient = slices.Max(bps)
	}
	// The budget counts snapshot datagrams; a client measures from its first
	// datagram, so allow the join's rounding of one tick.
	r.OverBudget = o.Budget > 0 && r.MaxBpsPerClient > o.Budget*(1+1/o.TickRate)
	if len(sizes) > 0 {
		slices.Sort(sizes)
		r.P99PacketBytes = sizes[(len(sizes)*99)/100]
		r.MaxPacketBytes = sizes[len(sizes)-1]
	}
	if len(connects) > 0 {
		slices.Sort(connects)
		r.ConnectMsP50 = connects[len(connects)/2]
		r.ConnectMsMax = connects[len(connects)-1]
	}
	return r
}

// play connects one client, plays for the configured time and reports.
func play(ctx context.Context, o options, seed uint64) one {
	var out one
	dialCtx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	defer cancel()
	start := time.Now()
	c, err := client.Dial(dialCtx, o.URL, client.Config{
		Verify:     true,
		Logger:     o.Logger,
		OnSnapshot: func(n int) { out.sizes = append(out.sizes, n) },
	}, webrtc.DialConfig{Logger: o.Logger})
	if err != nil {
		out.err = err
		return out
	}
	defer c.Close()
	out.connected, out.connect = true, time.Since(start)

	playCtx, stop := context.WithTimeout(ctx, time.Duration(o.Seconds*float64(time.Second)))
	defer stop()
	w := bots.NewWanderer(seed)
	began := time.Now()
	if err := c.Run(playCtx, o.TickRate, func(uint32) protocol.Input { return w.Next() }); err != nil {
		out.err = err
	}
	out.played = time.Since(began)
	out.stats = c.Stats()
	return out
}
