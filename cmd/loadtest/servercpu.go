package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// serverSample is what the server's GET /metrics says at one moment: the
// CPU its process has used and the ticks its matches have stepped.
type serverSample struct {
	at      time.Time
	cpu     float64 // process_cpu_seconds_total
	ticks   float64 // sightline_ticks_total, summed over the matches
	matches int
	// applied and waited are sightline_inputs_applied_total and
	// sightline_input_wait_ticks_total, summed over the matches (0 from
	// a server that has neither).
	applied, waited float64
}

// sampleServer reads the server's /metrics.
func sampleServer(ctx context.Context, base string) (serverSample, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/")+"/metrics", nil)
	if err != nil {
		return serverSample{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return serverSample{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return serverSample{}, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	s := serverSample{at: time.Now(), cpu: -1}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		name, value, ok := strings.Cut(line, " ")
		if !ok || strings.HasPrefix(line, "#") {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch {
		case name == "process_cpu_seconds_total":
			s.cpu = v
		case strings.HasPrefix(name, "sightline_ticks_total{"):
			s.ticks += v
			s.matches++
		case strings.HasPrefix(name, "sightline_inputs_applied_total{"):
			s.applied += v
		case strings.HasPrefix(name, "sightline_input_wait_ticks_total{"):
			s.waited += v
		}
	}
	if err := sc.Err(); err != nil {
		return serverSample{}, err
	}
	if s.cpu < 0 || s.matches == 0 {
		return serverSample{}, fmt.Errorf("GET /metrics: no process_cpu_seconds_total or sightline_ticks_total")
	}
	return s, nil
}

// ServerCPU is the server's cost as a host pays it, from its own counters:
// its CPU while every client played, less what it spends idle (its match
// and bots before the clients came), per connected client and tick.
type ServerCPU struct {
	// UsPerClientTick is the server's CPU per client per tick, in µs,
	// idle cost subtracted.
	UsPerClientTick float64 `json:"server_cpu_us_per_client_tick"`
	// IdleCores and Cores are the server's CPU use before the clients
	// came and while they all played, in cores.
	IdleCores float64 `json:"server_idle_cores"`
	Cores     float64 `json:"server_cores"`
	// Seconds is how long the measured window was (every client playing).
	Seconds float64 `json:"server_cpu_seconds_measured"`
	Clients int     `json:"server_cpu_clients"`
	// InputWaitTicks is the mean number of ticks an input waited in its
	// player's queue past the first tick after it came, in the same window:
	// the input delay the server adds to what the network does (absent
	// when the server does not count it).
	InputWaitTicks *float64 `json:"server_input_wait_ticks,omitempty"`
}

// perClientTick works out ServerCPU from the samples before the clients
// (idle0, idle1) and while clients played (play0, play1).
func perClientTick(idle0, idle1, play0, play1 serverSample, clients int) (ServerCPU, error) {
	idleTicks := (idle1.ticks - idle0.ticks) / float64(idle1.matches)
	playTicks := (play1.ticks - play0.ticks) / float64(play1.matches)
	idleSecs, playSecs := idle1.at.Sub(idle0.at).Seconds(), play1.at.Sub(play0.at).Seconds()
	if idleTicks <= 0 || playTicks <= 0 || clients <= 0 || idleSecs <= 0 || playSecs <= 0 {
		return ServerCPU{}, fmt.Errorf("server CPU: too short a window (%.0f idle ticks, %.0f playing, %d clients)", idleTicks, playTicks, clients)
	}
	idlePerTick := (idle1.cpu - idle0.cpu) / idleTicks
	busy := (play1.cpu - play0.cpu) - idlePerTick*playTicks
	cpu := ServerCPU{
		UsPerClientTick: busy / (playTicks * float64(clients)) * 1e6,
		IdleCores:       (idle1.cpu - idle0.cpu) / idleSecs,
		Cores:           (play1.cpu - play0.cpu) / playSecs,
		Seconds:         playSecs,
		Clients:         clients,
	}
	if applied := play1.applied - play0.applied; applied > 0 {
		wait := (play1.waited - play0.waited) / applied
		cpu.InputWaitTicks = &wait
	}
	return cpu, nil
}
