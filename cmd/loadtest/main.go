// Command loadtest connects many real headless clients to a running match
// server over WebRTC, plays as they would (one input a tick, verification on)
// and prints what they saw. It exits non-zero when a client fails to connect
// or any decoded tick differs from the server's.
//
//	loadtest -url http://127.0.0.1:8080 -clients 16 -seconds 20 -json
//
// With -loss (and -burst, -latency, -jitter) each client's connection runs
// through its own conditioner, which loses unreliable messages both ways.
//
// Through a relay: -invite URL joins a host behind NAT through the
// rendezvous that gave it the invite link (cmd/server -invite), and
// -relay-only sends every datagram through the TURN relay the server hands
// out. The JSON's "paths" counts the clients by the path ICE chose.
//
// With -matches it lists the server's matches (GET /matches) and spreads
// the clients over them, client i joining match i mod N, and reports each
// match's clients as well as all of them:
//
//	loadtest -matches -clients 16 -seconds 20 -json
//
// With -capacity it measures instead how many matches this machine holds
// at the tick rate, hosting them itself as cmd/server -matches does (one
// HTTP listener, one UDP port): each match has -capacity-players players,
// -capacity-people of them real WebRTC clients over loopback and the rest
// bots, and its creatures. A number of matches holds when the worst match's
// tick p99 is under half the tick period, with no overrun and no
// mismatched tick, measured for -seconds after a warm-up. It doubles the
// matches until one fails, then bisects, and prints each trial with the
// live heap per match:
//
//	loadtest -capacity -seconds 10
//
// With -duel it measures instead how fair shooting is at the link's
// latency (game/duel): two clients, an aimer that aims perfectly at what it
// draws and a strafer, meet about 300 px apart and duel for -seconds of
// counted play (respawns and walks not counted); it prints the hit rate,
// the handover of the aimer's predicted shots and the server's rewind
// counters (from /debug/vars). Best on a server with no bots or creatures:
//
//	loadtest -duel -latency 75ms -jitter 10ms -seconds 30 -json
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/client"
	"github.com/sightline-game/sightline/game/duel"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/lan"
)

// discoverMatch listens for LAN beacons and returns the first match's URL.
func discoverMatch(ctx context.Context, wait time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	b, err := lan.Listen(ctx, 0)
	if err != nil {
		return "", err
	}
	for ctx.Err() == nil {
		if ms := b.Matches(); len(ms) > 0 {
			return ms[0].URL, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", errors.New("no match heard on the LAN")
}

func main() {
	var o options
	flag.StringVar(&o.URL, "url", "http://127.0.0.1:8080", "the match server's HTTP address")
	flag.StringVar(&o.MetricsURL, "metrics", "", "where the server serves /metrics and /debug/vars (default: for a server on this machine, 127.0.0.1 at -url's port + 1, cmd/server's -metrics-addr default; else -url)")
	invite := flag.String("invite", "", "join through a rendezvous: the invite link a host behind NAT logged (cmd/server -invite); replaces -url")
	flag.BoolVar(&o.RelayOnly, "relay-only", false, "gather only relay candidates: every client's datagrams go through the TURN relay the server hands out")
	flag.IntVar(&o.Clients, "clients", 16, "clients to connect")
	flag.IntVar(&o.Spectators, "spectators", 0, "spectators to connect beside the clients (POST /signal?watch=1), reported apart: half follow the leader, half fly a free camera")
	flag.Float64Var(&o.Seconds, "seconds", 20, "how long each client plays after connecting")
	flag.IntVar(&o.Verified, "verified", 0, "each client plays on after -seconds until it has verified this many ticks (5 minutes more at most): a count that holds on a busy machine")
	flag.Float64Var(&o.TickRate, "tick", 30, "inputs per second per client")
	flag.DurationVar(&o.ConnectTimeout, "connect-timeout", 20*time.Second, "give up on a client that is not connected by then")
	flag.IntVar(&o.InputCopies, "input-copies", 2, "how many times each client sends each input datagram, back to back (1: once)")
	flag.Float64Var(&o.Budget, "budget", 0, "the server's per-client budget in B/s: fail when a client received more (0: no check)")
	flag.Float64Var(&o.Link.Loss, "loss", 0, "share of unreliable messages each client's conditioner loses, each way (0..1)")
	flag.Float64Var(&o.Link.BurstLen, "burst", 0, "mean length of a run of lost messages (<= 1: independent losses)")
	flag.DurationVar(&o.Link.Latency, "latency", 0, "one-way delay each client's conditioner adds")
	flag.DurationVar(&o.Link.Jitter, "jitter", 0, "extra one-way delay, uniform in [0, jitter], per unreliable message")
	discover := flag.Bool("discover", false, "find the match by its LAN beacon instead of -url")
	spread := flag.Bool("matches", false, "list the server's matches (GET /matches) and spread the clients over them, round-robin")
	asJSON := flag.Bool("json", false, "print one JSON object")
	capacityRun := flag.Bool("capacity", false, "measure how many matches this machine holds (hosting them itself; see the package doc)")
	var co capacityOptions
	flag.IntVar(&co.Players, "capacity-players", 8, "with -capacity: players per match, people and bots")
	flag.IntVar(&co.People, "capacity-people", 4, "with -capacity: of them, real WebRTC clients over loopback")
	flag.IntVar(&co.Max, "capacity-max", 256, "with -capacity: the most matches tried")
	flag.DurationVar(&co.Warmup, "capacity-warmup", 3*time.Second, "with -capacity: the time between connecting and measuring")
	duelRun := flag.Bool("duel", false, "duel an aimer and a strafer for -seconds of counted play and report the hit rate (see the package doc)")
	duelSeed := flag.Uint64("duel-seed", 1, "with -duel: the seed of the spots and the strafer's turns")
	duelLiar := flag.Bool("duel-liar", false, "with -duel: the aimer lies, claiming in each input the view of the tick -duel-liar-ticks before the newest it holds (older than it drew), and aims with what that lets it know")
	duelLiarTicks := flag.Int("duel-liar-ticks", 3, "with -duel-liar: how many ticks before its newest tick the liar claims to have drawn (1 to 30)")
	duelDrawn := flag.Bool("duel-drawn", false, "with -duel: the aimer aims at the strafer as it draws it, leading its drawn motion, instead of with every tick it holds")
	duelCover := flag.Bool("duel-cover", false, "with -duel: a wall in the strafer's circle, which it ducks behind now and then (measures hits behind cover)")
	flag.IntVar(&o.Flood.Rate, "flood", 0, "flood the server's UDP port with this many datagrams a second (-flood-kind) while the clients join and play")
	floodKindFlag := flag.String("flood-kind", "garbage", "with -flood: garbage (100 random bytes, neither STUN nor DTLS), binding (STUN Binding requests, as ICE checks no session expects) or allocate (unauthenticated TURN Allocate requests, for a relay's port)")
	floodTo := flag.String("flood-to", "", "with -flood: the server's UDP address (default: -url's host, port 8443, the server's default -udp-port)")
	floodFrom := flag.String("flood-from", "", "with -flood: the address the flood comes from (default: any of this machine's; 127.0.0.2 on loopback is another host's as the server sees it)")
	flag.BoolVar(&o.Flood.AfterJoined, "flood-after-joined", false, "with -flood: count -flood-after from when every client has connected (or given up), not from the start: a flood that must not meet the clients' connecting, on a machine of any speed")
	flag.DurationVar(&o.Flood.After, "flood-after", 0, "with -flood: begin the flood this long after the clients begin to join (the JSON then has the input lag with the flood and without it)")
	var vo viewersOptions
	flag.StringVar(&vo.URL, "broadcast", "", "watch the broadcast at this URL (a server's /broadcast/ID/, or a cache in front of it) with -viewers viewers, each verifying every tick it decodes, for -seconds once all have started (decoded a keyframe; at most a minute is given for that), instead of playing")
	flag.IntVar(&vo.Viewers, "viewers", 10, "with -broadcast: how many viewers")
	flag.StringVar(&vo.Match, "broadcast-match", "1", "with -broadcast: the match's id, for the origin's counters")
	verbose := flag.Bool("v", false, "log connection trouble")
	tokenKey := flag.String("token-key", "", "mint each client a join token with the key in this file (for a server run with -token-key)")
	flag.Parse()
	if *tokenKey != "" {
		k, err := jointoken.LoadKey(*tokenKey)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		o.TokenKey = &k
	}

	if o.Flood.Rate > 0 {
		var err error
		if o.Flood.To, o.Flood.From, err = floodAddrs(o.URL, *floodTo, *floodFrom); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
		if o.Flood.Kind, err = parseFloodKind(*floodKindFlag); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(2)
		}
	}

	var logOut io.Writer = io.Discard
	if *verbose {
		logOut = os.Stderr
	}
	o.Logger = slog.New(slog.NewTextHandler(logOut, nil))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	if *invite != "" {
		o.URL = strings.TrimSuffix(*invite, "/")
	}
	if *discover {
		u, err := discoverMatch(ctx, 15*time.Second)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest:", err)
			os.Exit(1)
		}
		o.URL = u
	}
	if vo.URL != "" {
		vo.Seconds, vo.MetricsURL = o.Seconds, o.MetricsURL
		r := watchBroadcast(ctx, vo)
		if *asJSON {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(r)
		} else {
			fmt.Println(formatViewers(r))
		}
		if r.Mismatched > 0 || r.Failed > 0 || r.Started < r.Viewers {
			os.Exit(1)
		}
		return
	}
	if *capacityRun {
		co.Seconds, co.TickRate, co.Logger = o.Seconds, o.TickRate, o.Logger
		if co.People < 0 || co.People > co.Players || co.Players < 1 || co.Max < 1 {
			fmt.Fprintln(os.Stderr, "loadtest: -capacity needs 0 <= -capacity-people <= -capacity-players, -capacity-max >= 1")
			os.Exit(2)
		}
		r := capacity(ctx, co, func(t trial) {
			fmt.Fprintln(os.Stderr, formatTrial(t, co.People)) // progress
		})
		if *asJSON {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(r)
		} else {
			more := ""
			if r.MaxTested {
				more = " (the most tried: raise -capacity-max)"
			}
			fmt.Printf("this machine (%d CPUs) holds %d matches%s of %d players (%d WebRTC people) at %.0f Hz: tick p99 under %.1f ms, no overrun, no mismatched tick\n",
				r.CPUs, r.Holds, more, r.Players, r.People, r.TickRate, r.LimitMs)
			for _, t := range sortedTrials(r.Trials) {
				fmt.Println(formatTrial(t, co.People))
			}
		}
		if r.Holds == 0 {
			os.Exit(1)
		}
		return
	}
	if *duelRun {
		liar := 0
		if *duelLiar {
			if *duelLiarTicks < 1 || *duelLiarTicks > arena.MaxRewindTicks {
				fmt.Fprintf(os.Stderr, "loadtest: -duel-liar-ticks is 1 to %d\n", arena.MaxRewindTicks)
				os.Exit(2)
			}
			liar = *duelLiarTicks
		}
		r, err := runDuel(ctx, o, duel.Config{Seed: *duelSeed, Cover: *duelCover, LiarTicks: liar, DrawnAim: *duelDrawn})
		if *asJSON {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(r)
		} else {
			fmt.Println(formatDuel(r))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: -duel:", err)
			os.Exit(1)
		}
		if r.MismatchedTicks != 0 || r.VerifiedTicks == 0 {
			os.Exit(1)
		}
		return
	}
	if *spread {
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		ms, err := client.ListMatches(lctx, o.URL)
		cancel()
		if err == nil && len(ms) == 0 {
			err = errors.New("the server lists no matches")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: -matches:", err)
			os.Exit(1)
		}
		for _, m := range ms {
			o.Matches = append(o.Matches, m.ID)
		}
	}
	r := run(ctx, o)
	r.URL = o.URL
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		fmt.Printf("%d of %d clients connected (connect p50 %.0f ms, max %.0f ms; without %d waits the server asked for: p50 %.0f ms, max %.0f ms)\n",
			r.Connected, r.Clients, r.ConnectMsP50, r.ConnectMsMax, r.Retries, r.HandshakeMsP50, r.HandshakeMsMax)
		if !o.Link.IsZero() {
			fmt.Printf("conditioned link: %.1f%% of messages lost toward the clients, %.1f%% toward the server\n", 100*r.LossDown, 100*r.LossUp)
		}
		fmt.Printf("paths: %v\n", r.Paths)
		fmt.Printf("decoded %d ticks, %d mismatched, %d undecodable; %.0f B/s per client (max %.0f), p99 packet %d bytes\n",
			r.DecodedTicks, r.MismatchedTicks, r.Undecodable, r.MeanBpsPerClient, r.MaxBpsPerClient, r.P99PacketBytes)
		if o.Budget > 0 {
			fmt.Printf("budget %.0f B/s: max client %.0f B/s, over budget: %v\n", o.Budget, r.MaxBpsPerClient, r.OverBudget)
		}
		for _, m := range r.Matches {
			fmt.Printf("match %s: %d of %d clients connected; decoded %d ticks, %d mismatched, %d undecodable; %.0f B/s per client (max %.0f), p99 packet %d bytes\n",
				m.Match, m.Connected, m.Clients, m.DecodedTicks, m.MismatchedTicks, m.Undecodable, m.MeanBpsPerClient, m.MaxBpsPerClient, m.P99PacketBytes)
		}
		if w := r.Spectators; w != nil {
			fmt.Printf("spectators: %d of %d connected; decoded %d ticks, %d mismatched, %d undecodable; %.0f B/s per spectator (max %.0f), p99 packet %d bytes\n",
				w.Connected, w.Clients, w.DecodedTicks, w.MismatchedTicks, w.Undecodable, w.MeanBpsPerClient, w.MaxBpsPerClient, w.P99PacketBytes)
			for _, e := range w.Errors {
				fmt.Println("spectator error:", e)
			}
		}
		for _, e := range r.Errors {
			fmt.Println("error:", e)
		}
	}
	if r.Connected != r.Clients || r.MismatchedTicks != 0 || r.DecodedTicks == 0 || r.OverBudget {
		os.Exit(1)
	}
	if w := r.Spectators; w != nil && (w.Connected != w.Clients || w.MismatchedTicks != 0 || w.DecodedTicks == 0) {
		os.Exit(1)
	}
}
