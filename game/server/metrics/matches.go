package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sightline-game/sightline/game/server"
)

// matches collects the hosted matches' counters at each scrape.
type matches struct {
	host *server.Host
}

func desc(name, help string, labels ...string) *prometheus.Desc {
	return prometheus.NewDesc("sightline_"+name, help, append([]string{"match"}, labels...), nil)
}

var (
	players       = desc("players", "People playing in the match (bots not counted).")
	bots          = desc("bots", "The server's own bots in the match.")
	capacity      = desc("players_max", "Seats in the match, bots' included.")
	ticks         = desc("ticks_total", "Ticks the match has stepped.")
	tickDuration  = desc("tick_duration_seconds", "How long stepping one tick took: rules, views, encoding and sending.")
	overruns      = desc("tick_overruns_total", "Ticks that took longer than the tick period.")
	snapshots     = desc("snapshot_packets_sent_total", "Snapshot datagrams sent to clients.")
	snapshotBytes = desc("snapshot_sent_bytes_total", "Bytes of snapshot datagrams sent to clients.")
	congested     = desc("snapshots_congested_total", "Snapshots not sent because the client's channel was congested.")
	fullFallbacks = desc("full_fallbacks_total", "Full snapshots sent after the first acknowledgement (baseline too old, or the delta was no smaller).")
	deferred      = desc("deferred_entities", "Entities waiting for byte budget now, over all clients.")
	resends       = desc("record_resends_total", "Replica record revisions sent again for want of an acknowledgement.")
	eventsSent    = desc("events_sent_total", "Events framed to clients on the reliable event stream.")
	badInputs     = desc("bad_input_packets_total", "Input datagrams dropped as malformed.")
	joined        = desc("connections_joined_total", "Connections that joined the match.")
	ended         = desc("connections_ended_total", "Connections that ended, by cause: left (quit or kicked), timed_out, refused (the match was full).", "cause")
	rewound       = desc("shots_rewound_total", "Shots judged against the targets as their shooters saw them.")
	rewoundLimit  = desc("shots_rewound_limited_total", "Of the shots rewound, those whose shooters claimed a view further back than the rewind cap, cut to the cap (limit=cap), and those whose view, so cut, was older than the server's floor on it, judged from the floor (limit=estimate); a shot may count under both.", "limit")
	inputsApplied = desc("inputs_applied_total", "Players' inputs the match has applied (one a player a tick at most).")
	inputWait     = desc("input_wait_ticks_total", "Ticks the applied inputs waited in their players' queues past the first tick after they came: over inputs_applied_total, the input delay the server adds.")
	inputsQueued  = desc("inputs_queued_total", "Players' inputs taken into their queues (a repeated input is not taken again).")
	inputsTrimmed = desc("inputs_trimmed_total", "Queued inputs dropped because the queue had held spare inputs too long (a trim).")
	queueFull     = desc("inputs_dropped_queue_full_total", "Queued inputs dropped because a full queue took one more.")
	shotsFired    = desc("shots_fired_total", "Projectiles fired (a spread shot's pellets each).")
	shotsRefused  = desc("shots_refused_total", "Fire inputs refused: sooner than the weapon's interval, or during the intermission.")
	rewoundTicks  = desc("shots_rewound_ticks_total", "How far back the rewound shots were judged, summed, in ticks: over shots_rewound_total, the mean rewind.")
	rewoundHits   = desc("shots_rewound_hits_total", "Hits of the shots judged in the past.")
	behindCover   = desc("shots_rewound_hits_behind_cover_total", "Of the rewound shots' hits, those on a player behind cover from where the projectile was: the price a victim pays for the shooter's fairness.")
	wrongChannel  = desc("wrong_channel_messages_total", "Messages clients sent on a channel that runs only toward them, dropped unread.")
	wrongBytes    = desc("wrong_channel_bytes_total", "Bytes of the messages counted by wrong_channel_messages_total.")
)

func (c *matches) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{players, bots, capacity, ticks, tickDuration, overruns, snapshots, snapshotBytes,
		congested, fullFallbacks, deferred, resends, eventsSent, badInputs, joined, ended, rewound, rewoundLimit, inputsApplied, inputWait,
		inputsQueued, inputsTrimmed, queueFull, shotsFired, shotsRefused, rewoundTicks, rewoundHits, behindCover, wrongChannel, wrongBytes} {
		ch <- d
	}
}

func (c *matches) Collect(ch chan<- prometheus.Metric) {
	bounds := server.TickBounds()
	for _, m := range c.host.Matches() {
		st := m.Server.Stats()
		id := m.ID
		gauge := func(d *prometheus.Desc, v float64, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{id}, labels...)...)
		}
		counter := func(d *prometheus.Desc, v uint64, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), append([]string{id}, labels...)...)
		}
		gauge(players, float64(max(0, st.Clients-m.Bots)))
		gauge(bots, float64(m.Bots))
		gauge(capacity, float64(m.Server.MaxClients()))
		counter(ticks, uint64(st.Tick))
		buckets := make(map[float64]uint64, len(bounds))
		for i, b := range bounds {
			buckets[b.Seconds()] = st.TickUpTo[i]
		}
		ch <- prometheus.MustNewConstHistogram(tickDuration, st.TicksTimed, st.TotalTick.Seconds(), buckets, id)
		counter(overruns, st.Overruns)
		counter(snapshots, st.SnapshotsSent)
		counter(snapshotBytes, st.BytesSent)
		counter(congested, st.Congested)
		counter(fullFallbacks, st.FullFallbacks)
		gauge(deferred, float64(st.Deferred))
		counter(resends, st.RecordResends)
		counter(eventsSent, st.EventsSent)
		counter(badInputs, st.BadInputs)
		counter(joined, st.Joined)
		counter(ended, st.Left-st.TimedOut, "left")
		counter(ended, st.TimedOut, "timed_out")
		counter(ended, st.Refused, "refused")
		counter(rewound, st.Rewind.Shots)
		counter(rewoundLimit, st.Rewind.Clamped, "cap")
		counter(rewoundLimit, st.Rewind.Bounded, "estimate")
		counter(inputsApplied, st.InputsApplied)
		counter(inputWait, st.InputWaitTicks)
		counter(inputsQueued, st.InputsQueued)
		counter(inputsTrimmed, st.InputsTrimmed)
		counter(queueFull, st.DroppedQueueFull)
		counter(shotsFired, st.ShotsFired)
		counter(shotsRefused, st.ShotsRefused)
		ch <- prometheus.MustNewConstMetric(rewoundTicks, prometheus.CounterValue, float64(st.Rewind.Ticks)/256, id)
		counter(rewoundHits, st.Rewind.Hits)
		counter(behindCover, st.Rewind.BehindCover)
		counter(wrongChannel, st.WrongChannel)
		counter(wrongBytes, st.WrongChannelBytes)
	}
}
