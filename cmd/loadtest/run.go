package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/bots/brain"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/transport/conditioner"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

type options struct {
	URL string
	// MetricsURL is where the server serves /metrics and /debug/vars
	// (empty: metricsURL of URL).
	MetricsURL string
	// Matches, if set, are the IDs of the server's matches: client i joins
	// Matches[i % len(Matches)], and the result has a line per match.
	Matches []string
	Clients int
	// Spectators is how many clients watch (client.Config.Watch) beside
	// the Clients that play: every other one flies a free camera over
	// the arena, the rest follow the leader. They are reported apart
	// (result.Spectators) and are not counted in the server's CPU per
	// client.
	Spectators int
	Seconds    float64
	// Verified, if set, has each client play on after Seconds until it has
	// verified this many ticks (at most verifiedLimit more): a count that
	// holds however slowly a busy machine plays.
	Verified       int
	TickRate       float64
	ConnectTimeout time.Duration
	Budget         float64
	// InputCopies is how many times each client sends each input datagram
	// (client.Config.InputCopies; 0: the client's default, 2).
	InputCopies int
	// Link is what each client's own conditioner does to its connection,
	// both ways (zero: nothing).
	Link   conditioner.Conditions
	Logger *slog.Logger
	// TokenKey, if set, mints each client a join token (for a server run
	// with -token-key): its own name, its match, good for 30 s.
	TokenKey *jointoken.Key
	// RelayOnly has each client gather only relay candidates, so that
	// every datagram goes through the TURN relay the server hands out.
	RelayOnly bool
	// Flood, with a Rate, floods the server's UDP port with garbage while
	// the clients join and play.
	Flood floodOptions
	// flooding is set while the flood runs (run sets it up).
	flooding *atomic.Bool
	// watch has play join as a spectator.
	watch bool
}

// result is what the load test prints with -json: for all the clients,
// and with -matches for each match's (Matches).
type result struct {
	URL             string `json:"url,omitempty"`
	Match           string `json:"match,omitempty"` // in Matches: the match's ID
	Clients         int    `json:"clients"`
	Connected       int    `json:"connected"`
	DecodedTicks    uint64 `json:"decoded_ticks"`
	VerifiedTicks   uint64 `json:"verified_ticks"`
	MismatchedTicks uint64 `json:"mismatched_ticks"`
	Undecodable     uint64 `json:"undecodable"` // dropped for lack of a baseline
	Stale           uint64 `json:"stale"`
	// What the clients' conditioners lost on purpose, as shares of the
	// unreliable messages they carried.
	LossDown         float64 `json:"loss_down,omitempty"`
	LossUp           float64 `json:"loss_up,omitempty"`
	MeanBpsPerClient float64 `json:"mean_Bps_per_client"`
	MaxBpsPerClient  float64 `json:"max_Bps_per_client"`
	P99PacketBytes   int     `json:"p99_packet_bytes"`
	MaxPacketBytes   int     `json:"max_packet_bytes"`
	// InputLag is the input delay as a client's prediction carries it: at
	// each input sent, how many of the client's earlier inputs the newest
	// snapshot it held did not yet show applied, on average (each is a
	// tick: the way to the server, the wait for its tick and in its
	// queue, and the snapshot's way back, read at the client's ticks).
	InputLag float64 `json:"input_lag_inputs"`
	// LateInputs is the share of the decoded ticks whose snapshot said the
	// server stepped without any of the client's inputs (lost on the way,
	// or late for the tick).
	LateInputs float64 `json:"late_inputs"`
	// ConnectMs is from the first offer to the channels open, including the
	// waits the server asked for (429/503 with Retry-After: many clients
	// from one address meet its offer rate limit); HandshakeMs is without
	// those waits.
	ConnectMsP50   float64 `json:"connect_ms_p50"`
	ConnectMsMax   float64 `json:"connect_ms_max"`
	HandshakeMsP50 float64 `json:"handshake_ms_p50"`
	HandshakeMsMax float64 `json:"handshake_ms_max"`
	Retries        int     `json:"retries"` // offers refused for now and asked again
	// FloodSent is how many garbage datagrams the flood sent (-flood);
	// InputLagFlooded and InputLagUnflooded are InputLag over the inputs
	// sent while it ran and while it did not (the same clients, so the
	// difference is the flood's, without the spread of one run's lag to
	// another's: each client's phase to the server's ticks differs).
	FloodSent         uint64  `json:"flood_sent,omitempty"`
	FloodError        string  `json:"flood_error,omitempty"`
	InputLagFlooded   float64 `json:"flooded_input_lag_inputs,omitempty"`
	InputLagUnflooded float64 `json:"unflooded_input_lag_inputs,omitempty"`
	// ServerCPU is the server's CPU per client and tick, from its
	// /metrics (ServerCPUError says why not, if it could not be read).
	*ServerCPU
	ServerCPUError string `json:"server_cpu_error,omitempty"`
	// Refused counts the clients the server refused, by status ("401":
	// no join token, "403": a token it did not take, ...).
	Refused map[string]int `json:"refused,omitempty"`
	// Paths counts the connected clients by the network path ICE chose
	// (transport.Stats.Path: host, prflx, srflx, relay-udp, relay-tcp,
	// relay-tls).
	Paths      map[string]int `json:"paths,omitempty"`
	Seconds    float64        `json:"seconds"`
	BudgetBps  float64        `json:"budget_Bps,omitempty"`
	OverBudget bool           `json:"over_budget"`
	Errors     []string       `json:"errors,omitempty"`
	// Matches are the same figures for each match's clients, with -matches.
	Matches []result `json:"matches,omitempty"`
	// Spectators are the same figures for the spectators, with
	// -spectators.
	Spectators *result `json:"spectators,omitempty"`
}

// one is what a single client measured.
type one struct {
	match     string // the match joined ("": the server chose)
	watch     bool   // a spectator
	connected bool
	path      string // the network path the connection took
	connect   time.Duration
	waited    time.Duration // Retry-After waits within connect
	retries   int
	stats     client.Stats
	played    time.Duration
	sizes     []int // snapshot datagram sizes
	up, down  linksim.Stats
	err       error
	// lag and lagged sum and count, at each input sent, the inputs sent
	// before it that the newest snapshot held did not show applied; the
	// flooded ones those of them sent while the flood ran.
	lag, lagged               uint64
	floodedLag, floodedLagged uint64
}

func run(ctx context.Context, o options) result {
	// The server's idle cost first: its match and bots, no client yet.
	var cpu ServerCPU
	idle0, cpuErr := sampleServer(ctx, o.metrics())
	var idle1 serverSample
	if cpuErr == nil {
		sleepCtx(ctx, idleWindow)
		idle1, cpuErr = sampleServer(ctx, o.metrics())
	}
	floodCtx, stopFlood := context.WithCancel(ctx)
	defer stopFlood()
	type flooded struct {
		sent uint64
		err  error
	}
	floodDone := make(chan flooded, 1)
	o.flooding = new(atomic.Bool)
	// Each client's connection, connected or not, told once; allDialed
	// closes when every client's is.
	tee, dialed, allDialed := make(chan bool, o.Clients), make(chan bool, o.Clients), make(chan struct{})
	go func() {
		for range o.Clients {
			dialed <- <-tee
		}
		close(allDialed)
	}()
	if o.Flood.Rate > 0 {
		go func() {
			if o.Flood.AfterJoined {
				select {
				case <-allDialed:
				case <-floodCtx.Done():
				}
			}
			sleepCtx(floodCtx, o.Flood.After)
			o.flooding.Store(true)
			sent, err := flood(floodCtx, o.Flood)
			o.flooding.Store(false)
			floodDone <- flooded{sent, err}
		}()
	}
	res := make([]one, o.Clients)
	finished := make(chan struct{})
	var finishOnce sync.Once
	var wg sync.WaitGroup
	for i := range o.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = play(ctx, o, uint64(i+1), tee, func() { finishOnce.Do(func() { close(finished) }) })
		}()
	}
	watchers := make([]one, o.Spectators)
	for i := range o.Spectators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			watchers[i] = watch(ctx, o, uint64(o.Clients+i+1))
		}()
	}
	// While every client that connected plays: from the last connection
	// (and a second for it to join) to the first client done.
	if cpuErr == nil {
		cpu, cpuErr = measureWhilePlaying(ctx, o, idle0, idle1, dialed, finished)
	}
	wg.Wait()
	r := summarize(o, res)
	if o.Flood.Rate > 0 {
		stopFlood()
		f := <-floodDone
		r.FloodSent = f.sent
		if f.err != nil {
			r.FloodError = f.err.Error()
		}
	}
	if cpuErr == nil {
		r.ServerCPU = &cpu
	} else {
		r.ServerCPUError = cpuErr.Error()
	}
	if o.Spectators > 0 {
		w := summarize(o, watchers)
		r.Spectators = &w
	}
	for _, id := range o.Matches {
		var mine []one
		for _, c := range res {
			if c.match == id {
				mine = append(mine, c)
			}
		}
		m := summarize(o, mine)
		m.Match = id
		r.Matches = append(r.Matches, m)
	}
	return r
}

// summarize adds up what the clients of res measured.
func summarize(o options, res []one) result {
	r := result{Clients: len(res), Seconds: o.Seconds, BudgetBps: o.Budget}
	var connects, handshakes []float64
	var sizes []int
	var bps []float64
	var up, down linksim.Stats
	var lag, lagged, late, floodedLag, floodedLagged uint64
	for _, c := range res {
		if c.err != nil {
			r.Errors = append(r.Errors, c.err.Error())
			var refused *datachan.Refused
			if errors.As(c.err, &refused) {
				if r.Refused == nil {
					r.Refused = map[string]int{}
				}
				r.Refused[strconv.Itoa(refused.Status)]++
			}
		}
		if !c.connected {
			continue
		}
		r.Connected++
		if r.Paths == nil {
			r.Paths = map[string]int{}
		}
		r.Paths[c.path]++
		connects = append(connects, float64(c.connect.Microseconds())/1000)
		handshakes = append(handshakes, float64((c.connect-c.waited).Microseconds())/1000)
		r.Retries += c.retries
		st := c.stats
		r.DecodedTicks += st.Decoded
		r.VerifiedTicks += st.Verified
		r.MismatchedTicks += st.Mismatched
		r.Undecodable += st.NoBaseline
		r.Stale += st.Stale
		late += st.Late
		if c.played > 0 {
			bps = append(bps, float64(st.Bytes)/c.played.Seconds())
		}
		sizes = append(sizes, c.sizes...)
		lag, lagged = lag+c.lag, lagged+c.lagged
		floodedLag, floodedLagged = floodedLag+c.floodedLag, floodedLagged+c.floodedLagged
		up.Sent, up.Lost = up.Sent+c.up.Sent, up.Lost+c.up.Lost
		down.Sent, down.Lost = down.Sent+c.down.Sent, down.Lost+c.down.Lost
	}
	if lagged > 0 {
		r.InputLag = float64(lag) / float64(lagged)
	}
	if floodedLagged > 0 {
		r.InputLagFlooded = float64(floodedLag) / float64(floodedLagged)
	}
	if unflooded := lagged - floodedLagged; o.Flood.Rate > 0 && unflooded > 0 {
		r.InputLagUnflooded = float64(lag-floodedLag) / float64(unflooded)
	}
	if r.DecodedTicks > 0 {
		r.LateInputs = float64(late) / float64(r.DecodedTicks)
	}
	if up.Sent > 0 {
		r.LossUp = float64(up.Lost) / float64(up.Sent)
	}
	if down.Sent > 0 {
		r.LossDown = float64(down.Lost) / float64(down.Sent)
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
		r.ConnectMsP50, r.ConnectMsMax = medianAndMax(connects)
		r.HandshakeMsP50, r.HandshakeMsMax = medianAndMax(handshakes)
	}
	return r
}

// medianAndMax sorts xs (not empty) and returns its median and maximum.
func medianAndMax(xs []float64) (float64, float64) {
	slices.Sort(xs)
	return xs[len(xs)/2], xs[len(xs)-1]
}

// idleWindow is how long the server's idle cost is measured before the
// clients connect.
const idleWindow = 2 * time.Second

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// measureWhilePlaying samples the server's counters once every client has
// dialled (those that connected, joined a second later) and again when the
// first client is done, and works out its CPU per client and tick.
func measureWhilePlaying(ctx context.Context, o options, idle0, idle1 serverSample, dialed <-chan bool, finished <-chan struct{}) (ServerCPU, error) {
	connected := 0
	for range o.Clients {
		select {
		case ok := <-dialed:
			if ok {
				connected++
			}
		case <-finished:
			return ServerCPU{}, fmt.Errorf("server CPU: a client finished before every client had connected (raise -seconds)")
		case <-ctx.Done():
			return ServerCPU{}, ctx.Err()
		}
	}
	if connected == 0 {
		return ServerCPU{}, fmt.Errorf("server CPU: no client connected")
	}
	sleepCtx(ctx, time.Second)
	play0, err := sampleServer(ctx, o.metrics())
	if err != nil {
		return ServerCPU{}, err
	}
	select {
	case <-finished:
	case <-ctx.Done():
		return ServerCPU{}, ctx.Err()
	}
	play1, err := sampleServer(ctx, o.metrics())
	if err != nil {
		return ServerCPU{}, err
	}
	return perClientTick(idle0, idle1, play0, play1, connected)
}

// watch connects one spectator, watches for the configured time and
// reports: seeds of odd spectators fly a free camera over the arena, even
// ones follow the leader.
func watch(ctx context.Context, o options, seed uint64) one {
	o.watch = true
	return play(ctx, o, seed, make(chan bool, 1), func() {})
}

// play connects one client, plays (or, with o.watch, watches) for the
// configured time and reports. It sends on dialed whether it connected,
// and calls done when it has played.
func play(ctx context.Context, o options, seed uint64, dialed chan<- bool, done func()) one {
	out := one{watch: o.watch}
	if len(o.Matches) > 0 {
		out.match = o.Matches[int(seed-1)%len(o.Matches)]
	}
	dialCtx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	defer cancel()
	start := time.Now()
	name := fmt.Sprintf("load %d", seed)
	var token string
	if o.TokenKey != nil {
		var err error
		if token, err = jointoken.Mint(*o.TokenKey, jointoken.Claims{Match: out.match, Name: name, Player: seed}); err != nil {
			dialed <- false
			out.err = err
			return out
		}
	}
	// Each client has connections of its own, as each player is on a
	// device of its own: a server hands one relay credential per joiner's
	// connection.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	signal := client.SignalURL(o.URL, out.match)
	if o.watch {
		signal = client.SpectatorSignalURL(o.URL, out.match)
	}
	conn, err := webrtc.Dial(dialCtx, signal, webrtc.DialConfig{
		Version:       protocol.Version,
		HTTPClient:    &http.Client{Transport: tr},
		Token:         token,
		Logger:        o.Logger,
		ICEServersURL: client.ICEServersURL(o.URL),
		RelayOnly:     o.RelayOnly,
		OnRetryLater: func(wait time.Duration, _ error) {
			out.waited += wait
			out.retries++
		},
	})
	dialed <- err == nil
	if err != nil {
		out.err = fmt.Errorf("connect to %s: %w", signal, err)
		return out
	}
	defer done()
	out.connected, out.connect, out.path = true, time.Since(start), conn.Stats().Path
	var cond *conditioner.Conn
	if !o.Link.IsZero() {
		cond = conditioner.New(conn, func() time.Duration { return time.Since(start) }, seed)
		cond.Set(o.Link)
		conn = cond
	}
	c := client.New(conn, client.Config{
		InputCopies: o.InputCopies,
		Name:        name,
		Verify:      true,
		Logger:      o.Logger,
		OnSnapshot:  func(n int) { out.sizes = append(out.sizes, n) },
		Watch:       o.watch,
	})
	defer c.Close()
	if o.watch && seed%2 == 1 {
		r := rand.New(rand.NewPCG(seed, 1))
		c.FlyTo(r.Float64()*protocol.WorldSize, r.Float64()*protocol.WorldSize)
	}

	playCtx, stop := context.WithCancel(ctx)
	defer stop()
	go playFor(playCtx, stop, time.Duration(o.Seconds*float64(time.Second)), o.Verified, c)
	w := brain.NewWanderer(seed)
	began := time.Now()
	next := func(uint32) arena.Input {
		if tick, s := c.Newest(); s != nil {
			if applied, ok := c.AppliedInput(tick); ok && applied > 0 && applied <= c.InputSeq() {
				out.lag += uint64(c.InputSeq() - applied)
				out.lagged++
				if o.flooding.Load() {
					out.floodedLag += uint64(c.InputSeq() - applied)
					out.floodedLagged++
				}
			}
		}
		return w.Next()
	}
	if err := c.Run(playCtx, o.TickRate, next); err != nil {
		out.err = err
	}
	out.played = time.Since(began)
	out.stats = c.Stats()
	if cond != nil {
		out.up, out.down = cond.LinkStats()
	}
	return out
}

// verifiedLimit bounds how long a client plays on after -seconds to
// verify -verified ticks: long enough for any machine, short of a hang.
const verifiedLimit = 5 * time.Minute

// playFor ends a client's play (stop) after d, or, with verified, once
// after d it has verified that many ticks (verifiedLimit at most).
func playFor(ctx context.Context, stop context.CancelFunc, d time.Duration, verified int, c *client.Client) {
	defer stop()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return
	}
	t.Reset(verifiedLimit)
	poll := time.NewTicker(50 * time.Millisecond)
	defer poll.Stop()
	for c.Stats().Verified < uint64(verified) {
		select {
		case <-poll.C:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// metrics is where o's server serves its counters.
func (o options) metrics() string {
	if o.MetricsURL != "" {
		return o.MetricsURL
	}
	return metricsURL(o.URL, isLocalIP)
}
