package sound

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/protocol"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// recorder is a Player that writes down what it is asked.
type recorder struct {
	played  []Request
	stopped []uint64
}

func (r *recorder) Play(q Request)    { r.played = append(r.played, q) }
func (r *recorder) Stop(voice uint64) { r.stopped = append(r.stopped, voice) }
func (r *recorder) reset()            { r.played, r.stopped = r.played[:0], r.stopped[:0] }
func (r *recorder) String() string    { return fmtPlayed(r.played) }
func fmtPlayed(ps []Request) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "[%s %.4f %+.4f] ", p.Sound, p.Volume, p.Pan)
	}
	return b.String()
}

// The scene of the scripted tests: the own player (id 1, slot 10) at
// (1000, 1000); hearing radius 900.
const (
	me     = 1
	mySlot = 10
	lx, ly = 1000.0, 1000.0
)

var t0 = time.Unix(1_000_000, 0)

// ent is one entity of a scripted snapshot.
type ent struct {
	slot, gen uint16
	kind      uint32
	x, y      float64
	state     uint32
	health    uint32
}

func snap(t testing.TB, ents ...ent) *snapshot.Snapshot {
	t.Helper()
	s := snapshot.New(protocol.Schema())
	ents = slices.Clone(ents)
	slices.SortFunc(ents, func(a, b ent) int { return int(a.slot) - int(b.slot) })
	for _, e := range ents {
		err := s.Append(snapshot.EntityID{Index: e.slot, Generation: e.gen},
			protocol.PosQuant.Quantize(e.x), protocol.PosQuant.Quantize(e.y), 0, e.kind, e.state, e.health)
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func hitEvent(tick, attacker, target uint32, dmg uint16) events.Event {
	return events.Event{Kind: protocol.KindHit, Tick: tick, Body: protocol.AppendHit(nil, protocol.Hit{Attacker: attacker, Target: target, Damage: dmg})}
}

func killEvent(tick, killer, victim uint32) events.Event {
	return events.Event{Kind: protocol.KindKill, Tick: tick, Body: protocol.AppendKill(nil, protocol.Kill{Killer: killer, Victim: victim})}
}

// step is one thing that happens to the Mixer, at t0 plus at.
type step struct {
	at time.Duration
	do func(t testing.TB, m *Mixer, now time.Time)
}

func feedSnap(tick uint32, ents ...ent) func(testing.TB, *Mixer, time.Time) {
	return func(t testing.TB, m *Mixer, now time.Time) { m.Snapshot(now, tick, snap(t, ents...)) }
}

func feedEvent(e events.Event) func(testing.TB, *Mixer, time.Time) {
	return func(_ testing.TB, m *Mixer, now time.Time) { m.Event(now, e) }
}

func update() func(testing.TB, *Mixer, time.Time) {
	return func(_ testing.TB, m *Mixer, now time.Time) { m.Update(now) }
}

type pickupRec struct {
	index uint32
	gen   uint16
	x, y  float64
	kind  uint8
}

func feedRecords(round uint32, pickups ...pickupRec) func(testing.TB, *Mixer, time.Time) {
	return func(_ testing.TB, m *Mixer, now time.Time) {
		m.BeginRecords()
		if round > 0 {
			m.Clock(now, round)
		}
		for _, p := range pickups {
			m.Pickup(now, p.index, p.gen, p.x, p.y, p.kind)
		}
		m.EndRecords(now)
	}
}

// Entities of the scene.
var (
	self      = ent{slot: mySlot, gen: 1, kind: protocol.KindPlayer, x: lx, y: ly, health: 100}
	rightP    = ent{slot: 11, gen: 1, kind: protocol.KindPlayer, x: lx + 450, y: ly, health: 100}  // 450 px right
	leftP     = ent{slot: 12, gen: 1, kind: protocol.KindPlayer, x: lx - 300, y: ly, health: 100}  // 300 px left
	farP      = ent{slot: 13, gen: 1, kind: protocol.KindPlayer, x: lx + 1000, y: ly, health: 100} // out of hearing
	creature  = ent{slot: 2, gen: 1, kind: protocol.KindCreature, x: lx, y: ly + 450, health: 40}  // 450 px below
	hurtRight = with(rightP, func(e *ent) { e.health = 80; e.state = protocol.StateHurt })
	deadRight = with(rightP, func(e *ent) { e.health = 0; e.state = protocol.StateDead | protocol.StateHurt })
)

func with(e ent, f func(*ent)) ent { f(&e); return e }

func shotAt(slot uint16, x, y float64) ent {
	return ent{slot: slot, gen: 1, kind: protocol.KindProjectile, x: x, y: y}
}

// level * (1 - d/900)^2 for a source d px away.
func vol(s Sound, d float64) float64 { f := 1 - d/900; return level(s) * f * f }

// TestScript plays scripted sequences of events, records and snapshots and
// checks exactly which sounds play, how loud and where.
func TestScript(t *testing.T) {
	base := step{0, feedSnap(1, self, rightP, leftP, farP, creature)}
	tests := []struct {
		name  string
		steps []step
		want  []Request
	}{
		{"own player hit: hurt, centred", []step{base, {10 * time.Millisecond, feedEvent(hitEvent(2, 7, me, 20))}},
			[]Request{{Sound: Hurt, Volume: 0.9}}},
		{"another player hit, the event first: hit at the player", []step{base,
			{5 * time.Millisecond, feedEvent(hitEvent(2, 7, 2, 20))},
			{30 * time.Millisecond, feedSnap(2, self, hurtRight, leftP, farP, creature)}},
			[]Request{{Sound: Hit, Volume: vol(Hit, 450), Pan: 0.5}}},
		{"another player hit, the snapshot first: hit at the player", []step{base,
			{5 * time.Millisecond, feedSnap(2, self, hurtRight, leftP, farP, creature)},
			{30 * time.Millisecond, feedEvent(hitEvent(2, 7, 2, 20))}},
			[]Request{{Sound: Hit, Volume: vol(Hit, 450), Pan: 0.5}}},
		{"a kill: the last hit and the death at the victim", []step{base,
			{5 * time.Millisecond, feedEvent(hitEvent(2, 7, 2, 100))},
			{6 * time.Millisecond, feedEvent(killEvent(2, 7, 2))},
			{30 * time.Millisecond, feedSnap(2, self, deadRight, leftP, farP, creature)}},
			[]Request{{Sound: Hit, Volume: vol(Hit, 450), Pan: 0.5}, {Sound: Death, Volume: vol(Death, 450), Pan: 0.5}}},
		{"own death: centred", []step{base, {5 * time.Millisecond, feedEvent(killEvent(2, 7, me))}},
			[]Request{{Sound: Death, Volume: 0.9}}},
		{"own hit on a player never seen: soft and centred once given up", []step{base,
			{5 * time.Millisecond, feedEvent(hitEvent(2, me, 9, 20))},
			{100 * time.Millisecond, update()},
			{300 * time.Millisecond, update()}},
			[]Request{{Sound: Hit, Volume: level(Hit) * fallbackGain}}},
		{"others' hit on a player never seen: nothing", []step{base,
			{5 * time.Millisecond, feedEvent(hitEvent(2, 5, 9, 20))},
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature)},
			{60 * time.Millisecond, feedSnap(3, self, rightP, leftP, farP, creature)},
			{90 * time.Millisecond, feedSnap(4, self, rightP, leftP, farP, creature)},
			{400 * time.Millisecond, update()}},
			nil},
		{"a hit beyond the hearing radius: nothing", []step{base,
			{5 * time.Millisecond, feedEvent(hitEvent(2, 5, 4, 20))},
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, with(farP, func(e *ent) { e.health = 80 }), creature)}},
			nil},
		{"round over: round_end", []step{base, {5 * time.Millisecond, feedEvent(events.Event{Kind: protocol.KindRoundOver, Tick: 9, Body: protocol.AppendRoundOver(nil, protocol.RoundOver{Round: 1, Winner: 2})})}},
			[]Request{{Sound: RoundEnd, Volume: 0.9}}},
		{"a projectile appears by a player: shot there", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature, shotAt(100, lx-290, ly))}},
			[]Request{{Sound: Shot, Volume: vol(Shot, 290), Pan: -290.0 / 900}}},
		{"the own shot: shot, centred, full", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature, shotAt(100, lx, ly))}},
			[]Request{{Sound: Shot, Volume: level(Shot)}}},
		{"three pellets at once by a player: one spread", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature,
				shotAt(100, lx-290, ly), shotAt(101, lx-285, ly-12), shotAt(102, lx-285, ly+12))}},
			[]Request{{Sound: Spread, Volume: vol(Spread, 860.0/3), Pan: -860.0 / 3 / 900}}}, // the centroid, 286.7 px left
		{"two players shooting apart: two shots, the second one retriggered away", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature, shotAt(100, lx-290, ly), shotAt(101, lx+440, ly))}},
			[]Request{{Sound: Shot, Volume: vol(Shot, 290), Pan: -290.0 / 900}}},
		{"a projectile flying into view, far from any player: nothing", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature, shotAt(100, lx+200, ly+200))}},
			nil},
		{"a projectile already seen: nothing more", []step{
			{0, feedSnap(1, self, rightP, leftP, farP, creature, shotAt(100, lx-290, ly))},
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, creature, shotAt(100, lx-260, ly))}},
			nil},
		{"the first snapshot plays nothing", []step{
			{0, feedSnap(1, self, rightP, leftP, farP, creature, shotAt(100, lx-290, ly))}},
			nil},
		{"a snapshot after a long gap plays nothing", []step{base,
			{time.Second, feedSnap(40, self, rightP, leftP, farP, creature, shotAt(100, lx-290, ly))}},
			nil},
		{"a creature shot: hit; killed: death", []step{base,
			{30 * time.Millisecond, feedSnap(2, self, rightP, leftP, farP, with(creature, func(e *ent) { e.health = 20; e.state = protocol.StateHurt }))},
			{60 * time.Millisecond, feedSnap(3, self, rightP, leftP, farP)}},
			[]Request{{Sound: Hit, Volume: vol(Hit, 450)}, {Sound: Death, Volume: vol(Death, 450)}}},
		{"a health pack taken: pickup where it lay", []step{
			{0, feedRecords(1, pickupRec{0, 1, lx + 450, ly, 0}, pickupRec{1, 1, lx - 450, ly, 1})},
			{20 * time.Millisecond, feedRecords(1, pickupRec{1, 1, lx - 450, ly, 1})}},
			[]Request{{Sound: Pickup, Volume: vol(Pickup, 450), Pan: 0.5}}},
		{"a spread gun and a power-up taken: power", []step{
			{0, feedRecords(1, pickupRec{0, 1, lx + 450, ly, 0}, pickupRec{1, 1, lx - 450, ly, 1}, pickupRec{2, 1, lx, ly, 2})},
			{20 * time.Millisecond, feedRecords(1, pickupRec{0, 1, lx + 450, ly, 0}, pickupRec{2, 1, lx, ly, 2})},
			{200 * time.Millisecond, feedRecords(1, pickupRec{0, 1, lx + 450, ly, 0})}},
			[]Request{{Sound: Power, Volume: vol(Power, 450), Pan: -0.5}, {Sound: Power, Volume: level(Power)}}},
		{"a pack taken and back elsewhere between two reads: pickup at the old spot", []step{
			{0, feedRecords(1, pickupRec{0, 1, lx + 450, ly, 0})},
			{20 * time.Millisecond, feedRecords(1, pickupRec{0, 2, lx - 100, ly, 0})}},
			[]Request{{Sound: Pickup, Volume: vol(Pickup, 450), Pan: 0.5}}},
		{"the records at join play nothing", []step{
			{0, feedRecords(3, pickupRec{0, 1, lx, ly, 0})}},
			nil},
		{"the round going up: round_start", []step{
			{0, feedRecords(1)},
			{20 * time.Millisecond, feedRecords(1)},
			{40 * time.Millisecond, feedRecords(2)}},
			[]Request{{Sound: RoundStart, Volume: 0.9}}},
		{"dash and click: centred", []step{
			{0, func(_ testing.TB, m *Mixer, now time.Time) { m.Dash(now) }},
			{10 * time.Millisecond, func(_ testing.TB, m *Mixer, now time.Time) { m.Click(now) }}},
			[]Request{{Sound: Dash, Volume: level(Dash)}, {Sound: Click, Volume: level(Click)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			m := New(rec, Config{})
			m.SetSelf(me, mySlot)
			m.Listen(lx, ly)
			for _, s := range tc.steps {
				s.do(t, m, t0.Add(s.at))
			}
			if !samePlayed(rec.played, tc.want) {
				t.Errorf("played %s\nwant   %s", fmtPlayed(rec.played), fmtPlayed(tc.want))
			}
		})
	}
}

func samePlayed(got, want []Request) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Sound != w.Sound || math.Abs(g.Volume-w.Volume) > 1e-3 || math.Abs(g.Pan-w.Pan) > 1e-3 {
			return false
		}
	}
	return true
}

// Distance and direction: the volume falls with the square of the distance
// to nothing at the radius, the pan follows the horizontal offset.
func TestSpatial(t *testing.T) {
	m := New(&recorder{}, Config{})
	m.Listen(lx, ly)
	for _, c := range []struct {
		dx, dy, gain, pan float64
	}{
		{0, 0, 1, 0},
		{450, 0, 0.25, 0.5},
		{-450, 0, 0.25, -0.5},
		{0, 450, 0.25, 0},
		{0, -900, 0, 0},
		{600, 800, 0, 0},                 // 1000 px away
		{-300, 400, 16.0 / 81, -1.0 / 3}, // 500 px away
	} {
		g, p := m.spatial(lx+c.dx, ly+c.dy)
		if math.Abs(g-c.gain) > 1e-9 || math.Abs(p-c.pan) > 1e-9 {
			t.Errorf("(%+.0f, %+.0f): gain %.4f pan %.4f, want %.4f %.4f", c.dx, c.dy, g, p, c.gain, c.pan)
		}
	}
	// No listener yet: nothing placed is heard.
	if g, _ := New(&recorder{}, Config{}).spatial(lx, ly); g != 0 {
		t.Errorf("gain %.2f without a listener", g)
	}
}

// At most Config.Voices effects play at once: a louder request replaces the
// quietest voice (stopping it), a quieter one is dropped; ended voices free
// their place.
func TestVoiceCap(t *testing.T) {
	rec := &recorder{}
	var lengths [NumSounds]time.Duration
	for s := range lengths {
		lengths[s] = 100 * time.Millisecond
	}
	m := New(rec, Config{Voices: 3, Lengths: lengths})
	m.Listen(lx, ly)
	// Three effects at 600, 450 and 300 px: volumes rise.
	m.playAt(t0, Death, lx+600, ly, 1)
	m.playAt(t0, Hit, lx+450, ly, 1)
	m.playAt(t0, Pickup, lx+300, ly, 1)
	if n := m.Voices(t0); n != 3 || len(rec.played) != 3 {
		t.Fatalf("%d voices, %d played", n, len(rec.played))
	}
	// A fourth, louder: the quietest (the death, voice 1) stops.
	m.playAt(t0.Add(time.Millisecond), Hurt, lx, ly, 1)
	if len(rec.played) != 4 || len(rec.stopped) != 1 || rec.stopped[0] != rec.played[0].Voice {
		t.Fatalf("played %s stopped %v", rec, rec.stopped)
	}
	// A fifth, quieter than every voice: dropped.
	m.playAt(t0.Add(2*time.Millisecond), Shot, lx+800, ly, 1)
	if len(rec.played) != 4 || m.Voices(t0.Add(2*time.Millisecond)) != 3 {
		t.Fatalf("a quiet fifth voice played: %s", rec)
	}
	// Once they have ended, there is room again.
	m.playAt(t0.Add(150*time.Millisecond), Shot, lx+600, ly, 1)
	if len(rec.played) != 5 || m.Voices(t0.Add(150*time.Millisecond)) != 1 {
		t.Fatalf("after the voices ended: %s, %d voices", rec, m.Voices(t0.Add(150*time.Millisecond)))
	}
	// Voice ids are unique.
	seen := map[uint64]bool{}
	for _, p := range rec.played {
		if seen[p.Voice] {
			t.Errorf("voice %d used twice", p.Voice)
		}
		seen[p.Voice] = true
	}
}

// The same effect does not start twice within the retrigger time.
func TestRetrigger(t *testing.T) {
	rec := &recorder{}
	m := New(rec, Config{Retrigger: 40 * time.Millisecond})
	for _, at := range []time.Duration{0, 10, 39, 40, 41, 85} {
		m.Click(t0.Add(at * time.Millisecond))
	}
	if len(rec.played) != 3 { // at 0, 40 and 85 ms
		t.Errorf("%d clicks played, want 3: %s", len(rec.played), rec)
	}
	m.Dash(t0.Add(86 * time.Millisecond)) // another effect is not held back
	if len(rec.played) != 4 {
		t.Errorf("the dash was held back")
	}
}

// Master and effects volume multiply in; mute silences everything.
func TestVolumeAndMute(t *testing.T) {
	tests := []struct {
		master, effects float64
		mute            bool
		want            float64 // the click's volume; 0: not played
	}{
		{1, 1, false, level(Click)},
		{0.5, 1, false, 0.5 * level(Click)},
		{0.5, 0.5, false, 0.25 * level(Click)},
		{1, 0, false, 0},
		{2, -1, false, 0}, // clamped
		{1, 1, true, 0},
		{0.8, 0.9, true, 0},
	}
	for _, tc := range tests {
		rec := &recorder{}
		m := New(rec, Config{})
		m.SetVolume(tc.master, tc.effects, tc.mute)
		m.Click(t0)
		m.Event(t0, hitEvent(1, 2, me, 10)) // not placed: no SetSelf
		switch {
		case tc.want == 0 && len(rec.played) != 0:
			t.Errorf("%+v: played %s", tc, rec)
		case tc.want != 0 && (len(rec.played) != 1 || math.Abs(rec.played[0].Volume-tc.want) > 1e-9):
			t.Errorf("%+v: played %s, want a click at %.3f", tc, rec, tc.want)
		}
	}
}

// Malformed or unknown events play nothing.
func TestBadEvents(t *testing.T) {
	rec := &recorder{}
	m := New(rec, Config{})
	m.SetSelf(me, mySlot)
	for _, e := range []events.Event{
		{Kind: protocol.KindHit, Body: []byte{0xff}},
		{Kind: protocol.KindKill},
		{Kind: protocol.KindRoundOver, Body: []byte{0x80}},
		{Kind: protocol.KindChat, Body: protocol.AppendChat(nil, protocol.Chat{From: 2, Text: "hi"})},
		{Kind: 77},
	} {
		m.Event(t0, e)
	}
	m.Update(t0.Add(time.Second))
	if len(rec.played) != 0 {
		t.Errorf("played %s", rec)
	}
}

// Every effect has a file name in assets/sounds and a length from it.
func TestLengths(t *testing.T) {
	ls := Lengths()
	for s := range NumSounds {
		if ls[s] < 20*time.Millisecond || ls[s] > time.Second {
			t.Errorf("%s lasts %v", s, ls[s])
		}
	}
	if Shot.String() != "shot" || RoundStart.String() != "round_start" || NumSounds.String() != "unknown" {
		t.Errorf("names: %s %s %s", Shot, RoundStart, NumSounds)
	}
}

// nullPlayer plays nothing, allocating nothing.
type nullPlayer struct{ n int }

func (p *nullPlayer) Play(Request) { p.n++ }
func (p *nullPlayer) Stop(uint64)  {}

// steadyFrame is one frame of a busy match: a snapshot with players,
// creatures and new projectiles, a hit event on a wounded player, a read
// of the records with a pickup gone, and the frame's update.
type steadyFrame struct {
	m      *Mixer
	snaps  [2]*snapshot.Snapshot
	hit    events.Event
	frame  int
	tick   uint32
	now    time.Time
	player *nullPlayer
}

func newSteadyFrame(t testing.TB) *steadyFrame {
	f := &steadyFrame{player: &nullPlayer{}, now: t0, tick: 1}
	f.m = New(f.player, Config{})
	f.m.SetSelf(me, mySlot)
	f.m.Listen(lx, ly)
	var a, b []ent
	for i := range 16 {
		p := ent{slot: uint16(20 + i), gen: 1, kind: protocol.KindPlayer, x: lx + float64(i*40-300), y: ly + 100, health: 100}
		c := ent{slot: uint16(100 + i), gen: 1, kind: protocol.KindCreature, x: lx + float64(i*40-300), y: ly - 200, health: 40}
		a = append(a, p, c)
		p.health, c.health = 80, 20
		b = append(b, p, c, shotAt(uint16(1000+i), p.x+5, p.y))
	}
	f.snaps = [2]*snapshot.Snapshot{snap(t, a...), snap(t, b...)}
	f.hit = hitEvent(0, 5, 21, 20)
	return f
}

func (f *steadyFrame) run() {
	f.now = f.now.Add(17 * time.Millisecond)
	f.tick++
	f.hit.Tick = f.tick
	f.m.Event(f.now, f.hit)
	f.m.Snapshot(f.now, f.tick, f.snaps[f.frame%2])
	f.m.BeginRecords()
	f.m.Clock(f.now, uint32(1+f.frame/100))
	for i := range 24 {
		if i != f.frame%24 {
			f.m.Pickup(f.now, uint32(i), 1, lx+float64(i), ly, uint8(i%3))
		}
	}
	f.m.EndRecords(f.now)
	f.m.Listen(lx+float64(f.frame%7), ly)
	f.m.Update(f.now)
	f.frame++
}

// The Mixer allocates nothing per frame once warm.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	f := newSteadyFrame(t)
	for range 50 {
		f.run()
	}
	if allocs := testing.AllocsPerRun(200, f.run); allocs != 0 {
		t.Errorf("%.1f allocations per frame", allocs)
	}
	if f.player.n == 0 {
		t.Error("the busy frames played nothing")
	}
}

func BenchmarkMixerFrame(b *testing.B) {
	f := newSteadyFrame(b)
	for range 50 {
		f.run()
	}
	b.ReportAllocs()
	for b.Loop() {
		f.run()
	}
}

// After Reset, a new match's first snapshot and records play nothing, even
// with lower ticks than the last match's.
func TestReset(t *testing.T) {
	rec := &recorder{}
	m := New(rec, Config{})
	m.SetSelf(me, mySlot)
	m.Listen(lx, ly)
	m.Snapshot(t0, 500, snap(t, self, leftP))
	feedRecords(4, pickupRec{0, 1, lx, ly, 0})(t, m, t0)
	m.Reset()
	m.SetSelf(me, mySlot)
	m.Listen(lx, ly)
	m.Snapshot(t0, 3, snap(t, self, leftP, shotAt(100, lx-290, ly)))
	feedRecords(1)(t, m, t0)
	if len(rec.played) != 0 {
		t.Fatalf("played %s", rec)
	}
	// And the new match is followed from there.
	m.Snapshot(t0.Add(time.Second), 4, snap(t, self, leftP, shotAt(101, lx-290, ly)))
	if len(rec.played) != 1 || rec.played[0].Sound != Shot {
		t.Fatalf("played %s, want a shot", rec)
	}
}

// The own shot plays at the press (OwnShot), and its copy in the snapshots,
// which HideShots names, plays nothing; another projectile beside the own
// player still plays. The own hit's tick (HitConfirm) plays centred.
func TestOwnShotsAndHitConfirm(t *testing.T) {
	rec := &recorder{}
	m := New(rec, Config{})
	m.SetSelf(me, mySlot)
	m.Listen(lx, ly)
	own := snapshot.EntityID{Index: 300, Generation: 1}
	m.HideShots(func(id snapshot.EntityID) bool { return id == own })
	m.Snapshot(t0, 1, snap(t, self))
	m.OwnShot(t0.Add(10*time.Millisecond), false)
	m.Snapshot(t0.Add(200*time.Millisecond), 2, snap(t, self, shotAt(300, lx+10, ly)))
	want := []Request{{Sound: Shot, Volume: level(Shot)}}
	if !samePlayed(rec.played, want) {
		t.Errorf("own shot and its copy: played %v, want %v", rec, fmtPlayed(want))
	}
	rec.reset()
	m.Snapshot(t0.Add(300*time.Millisecond), 3, snap(t, self, shotAt(300, lx+30, ly), shotAt(301, lx-10, ly)))
	m.OwnShot(t0.Add(310*time.Millisecond), true)
	m.HitConfirm(t0.Add(400 * time.Millisecond))
	want = []Request{{Sound: Shot, Volume: vol(Shot, 10), Pan: -10.0 / 900}, {Sound: Spread, Volume: level(Spread)}, {Sound: Confirm, Volume: level(Confirm)}}
	if !samePlayed(rec.played, want) {
		t.Errorf("another shot, an own spread and a hit: played %v, want %v", rec, fmtPlayed(want))
	}
}
