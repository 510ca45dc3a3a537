package metrics_test

import (
	"io"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/game/server/metrics"
	"github.com/sightline-game/sightline/netcode/transport/memory"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// scrape returns the metrics' text as Prometheus reads it.
func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("GET /metrics: %d", rec.Code)
	}
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// value returns the sample of the series named by line's start (name and
// labels as printed), or fails.
func value(t *testing.T, text, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no series %s in:\n%s", series, text)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A match with one player and two ticks of play shows in the metrics as
// it is: one player, its bot, the ticks and their durations, the
// snapshots and bytes sent, a token refusal by reason, and the process's
// own collectors.
func TestMetricsShowTheMatch(t *testing.T) {
	w, err := arena.NewWorld(arena.Config{Seed: 1, MaxPlayers: 8})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{MaxClients: 8}, server.NewMatch(w))
	if err != nil {
		t.Fatal(err)
	}
	host, err := server.NewHost(server.Hosted{ID: "7", Name: "Seven", Server: srv, Bots: 1})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1000, 0)
	clock := func() time.Duration { return 0 }
	for range 2 { // two connections: the Host counts Bots of them as bots
		srvEnd, cliEnd, err := memory.NewPair(memory.Config{Now: clock})
		if err != nil {
			t.Fatal(err)
		}
		defer cliEnd.Close()
		srv.Add(srvEnd)
	}
	for i := range 30 {
		srv.Step(now.Add(time.Duration(i) * 33 * time.Millisecond))
		if i == 0 { // three inputs of each player, firing, go into its queue
			for _, p := range srv.Stats().Players {
				for seq := range uint32(3) {
					w.ApplyInput(p.ID, seq+1, arena.Input{Buttons: arena.ButtonFire})
				}
			}
		}
	}
	m := metrics.New(metrics.Config{Host: host})
	m.WatchSignalling(func() webrtc.ServerStats {
		return webrtc.ServerStats{Offers: 5, Answered: 2, RejectedRate: 3, RejectedAdmission: 4, Paths: map[string]uint64{"host": 1, "relay": 2},
			Socket: webrtc.SocketInfo{ReceiveBuffer: 425984, Dropped: 17}, SocketKnown: true,
			Intake: webrtc.IntakeStats{Taken: 1000, NotPeer: 900, Crowded: 40, Truncated: 2}}
	})
	m.RefusedToken("replayed")
	text := scrape(t, m)
	st := srv.Stats()
	for _, c := range []struct {
		series string
		want   float64
	}{
		{`sightline_players{match="7"}`, 1},
		{`sightline_bots{match="7"}`, 1},
		{`sightline_ticks_total{match="7"}`, float64(st.Tick)},
		{`sightline_tick_duration_seconds_count{match="7"}`, 30},
		{`sightline_tick_duration_seconds_bucket{match="7",le="+Inf"}`, 30},
		{`sightline_snapshot_packets_sent_total{match="7"}`, float64(st.SnapshotsSent)},
		{`sightline_snapshot_sent_bytes_total{match="7"}`, float64(st.BytesSent)},
		{`sightline_connections_joined_total{match="7"}`, 2},
		{`sightline_inputs_applied_total{match="7"}`, float64(st.InputsApplied)},
		{`sightline_input_wait_ticks_total{match="7"}`, float64(st.InputWaitTicks)},
		{`sightline_inputs_queued_total{match="7"}`, 6},
		{`sightline_inputs_trimmed_total{match="7"}`, float64(st.InputsTrimmed)},
		{`sightline_inputs_dropped_queue_full_total{match="7"}`, float64(st.DroppedQueueFull)},
		{`sightline_shots_fired_total{match="7"}`, float64(st.ShotsFired)},
		{`sightline_shots_refused_total{match="7"}`, float64(st.ShotsRefused)},
		{`sightline_shots_rewound_ticks_total{match="7"}`, float64(st.Rewind.Ticks) / 256},
		{`sightline_shots_rewound_hits_total{match="7"}`, float64(st.Rewind.Hits)},
		{`sightline_shots_rewound_hits_behind_cover_total{match="7"}`, float64(st.Rewind.BehindCover)},
		{`sightline_wrong_channel_messages_total{match="7"}`, float64(st.WrongChannel)},
		{`sightline_wrong_channel_bytes_total{match="7"}`, float64(st.WrongChannelBytes)},
		{`sightline_offers_total`, 5},
		{`sightline_offers_refused_total{reason="rate"}`, 3},
		{`sightline_offers_refused_total{reason="admission"}`, 4},
		{`sightline_tokens_refused_total{reason="replayed"}`, 1},
		{`sightline_sessions_connected_total{path="host"}`, 1},
		{`sightline_sessions_connected_total{path="relay"}`, 2},
		{`sightline_sessions_connected_total{path="srflx"}`, 0},
		{`sightline_udp_receive_buffer_bytes`, 425984},
		{`sightline_udp_receive_dropped_total`, 17},
		{`sightline_udp_intake_datagrams_total`, 1000},
		{`sightline_udp_intake_dropped_total{reason="not_peer"}`, 900},
		{`sightline_udp_intake_dropped_total{reason="crowded"}`, 40},
		{`sightline_udp_intake_dropped_total{reason="truncated"}`, 2},
	} {
		if got := value(t, text, c.series); got != c.want {
			t.Errorf("%s = %v, want %v", c.series, got, c.want)
		}
	}
	if ws := w.Stats(); st.InputsQueued != ws.InputsQueued || st.ShotsFired != ws.ShotsFired || st.ShotsRefused != ws.ShotsRefused || st.ShotsFired == 0 {
		t.Errorf("the server's counters are not the world's: %+v, world %+v", st, ws)
	}
	if st.SnapshotsSent == 0 || st.BytesSent == 0 {
		t.Errorf("the match sent no snapshots: %+v", st)
	}
	if value(t, text, `sightline_tick_duration_seconds_sum{match="7"}`) <= 0 {
		t.Error("tick durations sum to 0")
	}
	for _, name := range []string{"process_cpu_seconds_total", "process_resident_memory_bytes", "go_goroutines"} {
		if !regexp.MustCompile(`(?m)^` + name + ` `).MatchString(text) {
			t.Errorf("no %s", name)
		}
	}
}
