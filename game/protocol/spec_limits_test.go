package protocol_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/game/server"
	"github.com/sightline-game/sightline/netcode/broadcast"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/jointoken"
	"github.com/sightline-game/sightline/netcode/lan"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/transport"
	"github.com/sightline-game/sightline/netcode/transport/datachan"
	"github.com/sightline-game/sightline/netcode/transport/webrtc"
)

// specLimits returns the rows of PROTOCOL.md §11's table of limits: limit
// name to value cell, in the document's order.
func specLimits(t *testing.T) (names []string, values map[string]string) {
	t.Helper()
	values = map[string]string{}
	for _, cells := range protocol.SpecRows(t, "limit", "value") {
		if len(cells) < 2 {
			t.Errorf("limits table: row %q", cells)
			continue
		}
		if _, dup := values[cells[0]]; dup {
			t.Errorf("limits table: %q twice", cells[0])
		}
		names = append(names, cells[0])
		values[cells[0]] = cells[1]
	}
	return names, values
}

func bytesOf(n int) string             { return fmt.Sprintf("%d bytes", n) }
func ticksOf(n int) string             { return fmt.Sprintf("%d ticks", n) }
func secondsOf(d time.Duration) string { return fmt.Sprintf("%d s", d/time.Second) }
func msOf(d time.Duration) string      { return fmt.Sprintf("%d ms", d/time.Millisecond) }

// The limits PROTOCOL.md lists in its table of §11 are the code's: every
// row's value is the constant's, every row is one the code has, and none
// of the code's is left out.
func TestSpecLimits(t *testing.T) {
	if events.DefaultMaxDatagram != protocol.DatagramLimit || replica.DefaultMaxDatagram != protocol.DatagramLimit {
		t.Fatalf("datagram limits differ: snapshots %d, events %d, records %d", protocol.DatagramLimit, events.DefaultMaxDatagram, replica.DefaultMaxDatagram)
	}
	code := map[string]string{
		"protocol version":                                                fmt.Sprint(protocol.Version),
		"broadcast chunk, at most":                                        bytesOf(broadcast.MaxChunk),
		"record payload or event body in a chunk, at most":                bytesOf(broadcast.MaxPayload),
		"broadcast preamble, at most":                                     bytesOf(broadcast.MaxPreamble),
		"broadcast index a viewer reads, at most":                         bytesOf(broadcast.MaxIndex),
		"ticks in a broadcast fragment, by default":                       ticksOf(broadcast.DefaultFragmentTicks),
		"ticks in a broadcast fragment's part, by default":                ticksOf(broadcast.DefaultPartTicks),
		"broadcast delay, by default":                                     secondsOf(server.DefaultBroadcastDelay),
		"replay file, at most":                                            bytesOf(broadcast.MaxReplay),
		"offer body, at most":                                             bytesOf(webrtc.DefaultMaxBodyBytes),
		"join token text, at most":                                        fmt.Sprintf("%d characters", jointoken.MaxText),
		"join token's expiry ahead of the server's clock, at most":        secondsOf(jointoken.DefaultMaxTTL),
		"join tokens a server remembers as used, at most":                 fmt.Sprint(jointoken.DefaultMaxUsed),
		"join token's name, at most":                                      bytesOf(jointoken.MaxName),
		"offers a second from one address":                                fmt.Sprint(float64(webrtc.DefaultOfferRate)),
		"offers at once from one address (burst)":                         fmt.Sprint(webrtc.DefaultOfferBurst),
		"addresses the offer rate limit remembers":                        fmt.Sprint(webrtc.DefaultMaxClients),
		"sessions still negotiating, at most":                             fmt.Sprint(webrtc.DefaultMaxConnecting),
		"time to open the four channels after the answer":                 secondsOf(webrtc.DefaultConnectTimeout),
		"Retry-After a client honours, at most":                           secondsOf(datachan.MaxRetryAfter),
		"answer body a client reads, at most":                             bytesOf(datachan.MaxAnswerBytes),
		"message on any channel, at most":                                 bytesOf(transport.MaxMessageSize),
		"snapshot, events and records datagram the server sends, at most": bytesOf(protocol.DatagramLimit),
		"entities in a snapshot, at most":                                 fmt.Sprint(protocol.MaxEntities),
		"input":                                                           bytesOf(protocol.InputSize),
		"inputs in an input datagram, at most":                            fmt.Sprint(session.MaxRedundancy),
		"inputs each input datagram repeats":                              fmt.Sprint(protocol.Session().Redundancy),
		"inputs the server queues per client":                             fmt.Sprint(arena.InputQueue),
		"record payload, at most":                                         bytesOf(replica.MaxPayload),
		"deletions a client remembers":                                    fmt.Sprint(replica.DefaultMaxTombstones),
		"first resend of a record":                                        msOf(replica.DefaultResendAfter),
		"longest wait between resends of a record":                        msOf(replica.DefaultMaxResendAfter),
		"player name in a score record, at most":                          bytesOf(arena.MaxNameBytes),
		"name in a join body, at most":                                    bytesOf(protocol.MaxJoinNameBytes),
		"chat text, at most":                                              bytesOf(protocol.MaxChatBytes),
		"a kill's judged moment before its tick, at most":                 fmt.Sprintf("%d 256ths of a tick", protocol.MaxJudgedBehind),
		"characters of a name or chat line the server keeps, at most":     fmt.Sprint(protocol.MaxChatRunes),
		"event body, at most":                                             bytesOf(events.MaxBody),
		"events a receiver holds ahead of the next due":                   fmt.Sprint(events.DefaultWindow),
		"events the server queues for a client, at most":                  fmt.Sprint(events.DefaultMaxQueued),
		"age of a delta's baseline, at most":                              ticksOf(protocol.Session().History),
		"view radius: entities enter within":                              fmt.Sprintf("%d px", protocol.ViewRadius),
		"entities leave beyond":                                           fmt.Sprintf("%d px", protocol.ViewRadius+protocol.ViewMargin),
		"snapshot budget, by default":                                     fmt.Sprintf("%d B/s", protocol.DefaultRate),
		"snapshot budget's floor":                                         fmt.Sprintf("%d B/s", server.Config{}.MinRate()),
		"rewind cap, by default":                                          ticksOf(arena.DefaultRewindTicks),
		"rewind cap, at most":                                             ticksOf(arena.MaxRewindTicks),
		"LAN beacon name, at most":                                        bytesOf(lan.MaxName),
		"LAN beacon port":                                                 fmt.Sprint(lan.DefaultPort),
		"spread shots a spread gun gives":                                 fmt.Sprint(arena.SpreadShots),
	}
	names, printed := specLimits(t)
	for _, name := range names {
		want, ok := code[name]
		switch {
		case !ok:
			t.Errorf("§11 lists %q = %q, a limit this test does not know", name, printed[name])
		case printed[name] != want:
			t.Errorf("§11 says %q is %q; the code's is %q", name, printed[name], want)
		}
	}
	for name, want := range code {
		if _, ok := printed[name]; !ok {
			t.Errorf("§11 does not list %q (%s)", name, want)
		}
	}
}
