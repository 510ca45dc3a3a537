package arena

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestInputQueue(t *testing.T) {
	right := Input{MoveX: 127}
	type op struct {
		seq  uint32
		in   Input
		step bool // then step once instead of queueing
	}
	cases := []struct {
		name        string
		ops         []op
		wantApplied []uint32 // AppliedInput after each step
		wantStats   Stats    // only the input counters
	}{
		{
			name:        "one input per tick, in order",
			ops:         []op{{seq: 1}, {seq: 2}, {seq: 3}, {step: true}, {step: true}, {step: true}, {step: true}},
			wantApplied: []uint32{1, 2, 3, 3},
			wantStats:   Stats{InputsQueued: 3, InputsApplied: 3, InputWaitTicks: 0 + 1 + 2},
		},
		{
			name:        "duplicates are dropped, queued or applied",
			ops:         []op{{seq: 1}, {seq: 1}, {seq: 2}, {step: true}, {seq: 1}, {seq: 2}, {step: true}},
			wantApplied: []uint32{1, 2},
			wantStats:   Stats{InputsQueued: 2, InputsApplied: 2, InputWaitTicks: 1, DroppedDuplicate: 2, DroppedOld: 1},
		},
		{
			name:        "late arrivals are sorted in",
			ops:         []op{{seq: 3}, {seq: 1}, {seq: 2}, {step: true}, {step: true}, {step: true}},
			wantApplied: []uint32{1, 2, 3},
			wantStats:   Stats{InputsQueued: 3, InputsApplied: 3, InputWaitTicks: 0 + 1 + 2},
		},
		{
			name:        "older than applied is dropped",
			ops:         []op{{seq: 5}, {step: true}, {seq: 4}, {seq: 0}, {seq: 6}, {step: true}},
			wantApplied: []uint32{5, 6},
			wantStats:   Stats{InputsQueued: 2, InputsApplied: 2, DroppedOld: 2},
		},
		{
			name: "absurdly far ahead is dropped",
			ops: []op{{seq: 10}, {seq: 10 + MaxInputAhead + 1}, {seq: math.MaxUint32}, {seq: 10 + MaxInputAhead},
				{step: true}, {step: true}},
			wantApplied: []uint32{10, 10 + MaxInputAhead},
			wantStats:   Stats{InputsQueued: 2, InputsApplied: 2, InputWaitTicks: 1, DroppedTooFar: 2},
		},
		{
			name: "a full queue drops the oldest",
			ops: []op{{seq: 1}, {seq: 2}, {seq: 3}, {seq: 4}, {seq: 5}, {seq: 6}, {seq: 7}, {seq: 8}, {seq: 9}, {seq: 10},
				{step: true}, {step: true}},
			wantApplied: []uint32{3, 4},
			wantStats:   Stats{InputsQueued: 10, InputsApplied: 2, InputWaitTicks: 1, DroppedQueueFull: 2},
		},
		{
			name:        "a full queue drops a newcomer older than all it holds",
			ops:         []op{{seq: 3}, {seq: 4}, {seq: 5}, {seq: 6}, {seq: 7}, {seq: 8}, {seq: 9}, {seq: 10}, {seq: 2}, {step: true}},
			wantApplied: []uint32{3},
			wantStats:   Stats{InputsQueued: 9, InputsApplied: 1, DroppedQueueFull: 1},
		},
		{
			name:        "no input: nothing applied",
			ops:         []op{{step: true}, {step: true}},
			wantApplied: []uint32{0, 0},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newBare(t, Config{Seed: 1})
			w.AddPlayer(1)
			var applied []uint32
			for _, o := range c.ops {
				if o.step {
					w.Step()
					applied = append(applied, w.AppliedInput(1))
					continue
				}
				in := o.in
				if in == (Input{}) {
					in = right
				}
				w.ApplyInput(1, o.seq, in)
			}
			if len(applied) != len(c.wantApplied) {
				t.Fatalf("applied %v, want %v", applied, c.wantApplied)
			}
			for i := range applied {
				if applied[i] != c.wantApplied[i] {
					t.Fatalf("applied %v, want %v", applied, c.wantApplied)
				}
			}
			if st := w.Stats(); st != c.wantStats {
				t.Fatalf("stats %+v, want %+v", st, c.wantStats)
			}
			if got, want := w.Stats().InputsDropped(), c.wantStats.InputsDropped(); got != want {
				t.Fatalf("dropped %d, want %d", got, want)
			}
		})
	}
}

func TestNoInputKeepsWalkingWithoutFiring(t *testing.T) {
	w := newBare(t, Config{Seed: 1})
	w.AddPlayer(1)
	place(t, w, 1, mid, mid)
	w.ApplyInput(1, 1, Input{MoveX: 127, Buttons: ButtonFire, Aim: 2})
	w.Step()
	p := w.playerOf(t, 1)
	x1 := p.x
	if x1-mid < PlayerSpeed*Dt-1e-9 || w.stats.ShotsFired != 1 {
		t.Fatalf("first tick: moved %v, fired %d", x1-mid, w.stats.ShotsFired)
	}
	for range FireInterval + 1 {
		w.Step()
	}
	if p.x-x1 < float64(FireInterval)*PlayerSpeed*Dt || w.stats.ShotsFired != 1 || p.aim != 2 {
		t.Fatalf("without inputs: moved %v (want %v), fired %d (want 1), aim %v", p.x-x1, float64(FireInterval)*PlayerSpeed*Dt, w.stats.ShotsFired, p.aim)
	}
	if w.AppliedInput(1) != 1 {
		t.Fatalf("applied %d", w.AppliedInput(1))
	}
}

func TestInputsAreChecked(t *testing.T) {
	cases := []struct {
		in       Input
		dx, dy   float64
		aim      float64 // -1: the previous aim (1.5)
		fire     bool
		clampedN uint64
	}{
		{Input{MoveX: 127}, 1, 0, 0, false, 0},
		{Input{MoveX: -128, MoveY: 0, Aim: 1}, -1, 0, 1, false, 1},
		{Input{MoveX: 127, MoveY: 127}, 1 / math.Sqrt2, 1 / math.Sqrt2, 0, false, 1},
		{Input{MoveX: 64, MoveY: -64}, 64.0 / 127, -64.0 / 127, 0, false, 0},
		{Input{Aim: -math.Pi / 2}, 0, 0, 3 * math.Pi / 2, false, 0},
		{Input{Aim: 7 * math.Pi}, 0, 0, math.Pi, false, 0},
		{Input{Aim: math.NaN()}, 0, 0, -1, false, 1},
		{Input{Aim: math.Inf(-1)}, 0, 0, -1, false, 1},
		{Input{Buttons: 0xff}, 0, 0, 0, true, 1},
		{Input{Buttons: ButtonDash}, 0, 0, 0, false, 0},
	}
	for _, c := range cases {
		w := newBare(t, Config{Seed: 1})
		w.AddPlayer(1)
		p := w.playerOf(t, 1)
		p.aim = 1.5
		w.ApplyInput(1, 1, c.in)
		q := p.queue[0]
		w.Step()
		want := c.aim
		if want < 0 {
			want = 1.5
		}
		if math.Abs(q.dx-c.dx) > 1e-12 || math.Abs(q.dy-c.dy) > 1e-12 || math.Abs(p.aim-want) > 1e-9 || q.fire != c.fire || w.stats.InputsClamped != c.clampedN {
			t.Errorf("%+v: move (%v, %v) aim %v fire %v clamped %d; want (%v, %v) %v %v %d",
				c.in, q.dx, q.dy, p.aim, q.fire, w.stats.InputsClamped, c.dx, c.dy, want, c.fire, c.clampedN)
		}
	}
}

// TestPlayersActOnlyForThemselves: inputs for one player move and fire that
// player only; inputs for an id not in the match change nothing.
func TestPlayersActOnlyForThemselves(t *testing.T) {
	w, s := duel(t, Config{Seed: 4})
	b := *w.playerOf(t, 2)
	h := w.Hash()
	for seq := uint32(1); seq < 20; seq++ {
		w.ApplyInput(3, seq, Input{MoveX: 127, Buttons: ButtonFire}) // nobody
		w.ApplyInput(0, seq, Input{MoveX: 127, Buttons: ButtonFire})
	}
	if w.Hash() != h || w.Stats().DroppedUnknown != 38 {
		t.Fatalf("inputs for unknown players changed the world (dropped %d)", w.Stats().DroppedUnknown)
	}
	for range 5 {
		s.apply(w, 1, Input{MoveY: 127, Buttons: ButtonFire, Aim: math.Pi / 2})
		w.Step()
	}
	a, b2 := w.playerOf(t, 1), w.playerOf(t, 2)
	if b2.x != b.x || b2.y != b.y || b2.aim != b.aim || b2.applied != 0 || b2.hasShot {
		t.Fatalf("player 2 acted on player 1's inputs: %+v", b2)
	}
	if a.y <= mid || !a.hasShot || a.applied != 5 {
		t.Fatal("player 1 did not act")
	}
	for k := range w.shots {
		if w.shots[k].live && w.shots[k].owner != 1 {
			t.Fatalf("a projectile owned by %d", w.shots[k].owner)
		}
	}
	// A removed player's id acts no more.
	w.RemovePlayer(1)
	w.ApplyInput(1, 100, Input{MoveX: 127})
	if w.Stats().DroppedUnknown != 39 {
		t.Fatal("input for a removed player was taken")
	}
}

// script drives a world's players from a seed: moving, aiming, firing,
// leaving and being replaced by newcomers. The same seed plays the same.
type script struct {
	w    *World
	rng  *rand.Rand
	seq  map[PlayerID]uint32
	ids  []PlayerID
	next PlayerID
}

func newScript(w *World, seed uint64, players int) *script {
	s := &script{w: w, rng: rand.New(rand.NewPCG(seed, 1)), seq: map[PlayerID]uint32{}, next: 1}
	for range players {
		s.ids = append(s.ids, s.next)
		w.AddPlayer(s.next)
		s.next++
	}
	return s
}

func (s *script) run(ticks int) {
	w, rng := s.w, s.rng
	for range ticks {
		for i, id := range s.ids {
			if rng.IntN(500) == 0 { // leaves, someone else joins
				w.RemovePlayer(id)
				s.ids[i] = s.next
				w.AddPlayer(s.next)
				w.SetName(s.next, "newcomer")
				s.next++
				continue
			}
			in := Input{MoveX: int8(rng.IntN(255) - 127), MoveY: int8(rng.IntN(255) - 127), Aim: rng.Float64() * 7}
			if rng.IntN(3) == 0 {
				in.Buttons = ButtonFire
			}
			if s.seq[id]%45 < 3 { // a tap on the dash button now and then
				in.Buttons |= ButtonDash
			}
			s.seq[id]++
			w.ApplyInput(id, s.seq[id], in)
		}
		w.Step()
		w.TakeEvents(func(Event) {})
		w.ChangedRecords(func(Record) {})
	}
}

func TestDeterminism(t *testing.T) {
	run := func(seed uint64) (*World, []uint64, *script) {
		w, err := NewWorld(Config{Seed: seed, Creatures: 200, RoundTicks: 400})
		if err != nil {
			t.Fatal(err)
		}
		var hashes []uint64
		sc := newScript(w, seed+100, 12)
		for range 10 {
			sc.run(100)
			hashes = append(hashes, w.Hash())
		}
		return w, hashes, sc
	}
	a, ha, _ := run(7)
	b, hb, _ := run(7)
	for i := range ha {
		if ha[i] != hb[i] {
			t.Fatalf("same seed and inputs, different worlds after %d ticks", (i+1)*100)
		}
	}
	if a.Tick() != 1000 {
		t.Fatalf("tick %d", a.Tick())
	}
	sa, sb := filled(t, a), filled(t, b)
	if !slices.Equal(sa, sb) {
		t.Fatal("same hash, different entities")
	}
	st := a.Stats()
	if st.ShotsFired < 100 || st.Hits == 0 || st.Rounds != 2 || st.Dashes < 100 || st.DashesRefused == 0 {
		t.Fatalf("the run did not exercise the rules: %+v", st)
	}
	c, hc, _ := run(8)
	if hc[len(hc)-1] == ha[len(ha)-1] || c.Hash() == a.Hash() {
		t.Fatal("different seeds, same world")
	}
	// One input's difference shows.
	d, _, sc := run(7)
	id := sc.ids[0]
	d.ApplyInput(id, sc.seq[id]+1, Input{MoveX: 1})
	if d.Stats().InputsQueued != a.Stats().InputsQueued+1 || d.Hash() == a.Hash() {
		t.Fatal("a queued input is not in the hash")
	}
}

// TestEntitiesBySlot: over a busy match every entity is in range, slots
// increase, kinds sit in their slot ranges, and projectiles come and go.
func TestEntitiesBySlot(t *testing.T) {
	w, err := NewWorld(Config{Seed: 12})
	if err != nil {
		t.Fatal(err)
	}
	seenShot, sawShotGo := false, false
	prevShots := map[uint16]uint8{}
	sc := newScript(w, 5, 40)
	for range 20 {
		sc.run(20)
		s := filled(t, w) // validates ranges and order
		shots := map[uint16]uint8{}
		for _, e := range s {
			slot := int(e.Slot)
			var want Kind
			switch {
			case slot < w.playerBase:
				want = KindCreature
			case slot < w.shotBase:
				want = KindPlayer
			default:
				want = KindProjectile
				shots[e.Slot] = e.Generation
			}
			if e.Kind != want {
				t.Fatalf("slot %d has kind %v, want %v", slot, e.Kind, want)
			}
			if e.Kind == KindPlayer && !e.Dead && e.Health == 0 {
				t.Fatalf("a live player with no health at slot %d", slot)
			}
		}
		if len(shots) > 0 {
			seenShot = true
		}
		for slot, id := range prevShots {
			if now, ok := shots[slot]; !ok || now != id {
				sawShotGo = true
			}
		}
		prevShots = shots
		if len(s) > MaxSlots {
			t.Fatalf("%d entities", len(s))
		}
	}
	if !seenShot || !sawShotGo {
		t.Fatalf("projectiles seen %v, gone %v", seenShot, sawShotGo)
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	w, err := NewWorld(Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for id := PlayerID(1); id <= 64; id++ {
		w.AddPlayer(id)
		w.SetName(id, "bot")
	}
	ents := make([]Entity, 0, MaxSlots)
	evFn := func(Event) {}
	recFn := func(Record) {}
	seq := uint32(0)
	tick := func() {
		seq++
		for id := PlayerID(1); id <= 64; id++ {
			a := float64(seq)*0.05 + float64(id)
			in := Input{Buttons: ButtonFire, MoveX: int8(100 * math.Cos(a)), MoveY: int8(100 * math.Sin(a)), Aim: a}
			if (seq+uint32(id))%40 == 0 {
				in.Buttons |= ButtonDash
			}
			if id%2 == 0 && w.tick > 8 { // half the players drew the world 6 ticks back
				in.View = View{From: w.tick - 6, Gap: 1, Frac: 100}
			}
			w.ApplyInput(id, seq, in)
		}
		if seq%100 == 0 { // spread guns and power-ups for everyone now and then
			for i := range w.players {
				w.players[i].spread, w.players[i].powerEnd = SpreadShots, w.tick+50
			}
		}
		w.Step()
		ents = w.AppendEntities(ents[:0])
		w.TakeEvents(evFn)
		w.ChangedRecords(recFn)
	}
	for range 600 { // warm up: buffers reach the match's rate
		tick()
	}
	if n := testing.AllocsPerRun(300, tick); n != 0 {
		t.Fatalf("a tick allocates %v times", n)
	}
	if w.stats.SpreadShots == 0 || w.stats.PoweredShots == 0 {
		t.Fatalf("the run did not fire the spread gun or a power-up: %+v", w.stats)
	}
	if w.stats.ShotsFired < 1000 || w.stats.Hits == 0 || w.stats.Dashes == 0 {
		t.Fatalf("the run did not shoot: %+v", w.stats)
	}
	if w.stats.Rewind.Shots == 0 || w.stats.Rewind.Hits == 0 {
		t.Fatalf("no shot was judged in the past: %+v", w.stats.Rewind)
	}
}

// BenchmarkStep: a full match, 300 creatures and 64 players firing, their
// shots judged in the present or (rewound) 6 ticks back.
func BenchmarkStep(b *testing.B) {
	b.Run("present", func(b *testing.B) { benchStep(b, false) })
	b.Run("rewound", func(b *testing.B) { benchStep(b, true) })
}

func benchStep(b *testing.B, rewound bool) {
	w, err := NewWorld(Config{Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	for id := PlayerID(1); id <= 64; id++ {
		w.AddPlayer(id)
	}
	seq := uint32(0)
	in := func() {
		seq++
		for id := PlayerID(1); id <= 64; id++ {
			a := float64(seq)*0.05 + float64(id)
			in := Input{Buttons: ButtonFire, MoveX: int8(100 * math.Cos(a)), MoveY: int8(100 * math.Sin(a)), Aim: a}
			if (seq+uint32(id))%40 == 0 {
				in.Buttons |= ButtonDash
			}
			if rewound && w.tick > 8 {
				in.View = View{From: w.tick - 6, Gap: 1, Frac: 100}
			}
			w.ApplyInput(id, seq, in)
		}
	}
	for range 300 {
		in()
		w.Step()
		w.TakeEvents(func(Event) {})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		in()
		w.Step()
		w.TakeEvents(func(Event) {})
	}
	b.StopTimer()
	live := 0
	for k := range w.shots {
		if w.shots[k].live {
			live++
		}
	}
	b.ReportMetric(float64(live), "projectiles")
}

// A queue that holds two spare inputs for SpareTicks steps in a row drops
// its oldest, carrying its fire over: three inputs queued at once, then one
// a tick, wait three ticks each at first, two after SpareTicks, one after
// twice that, and then none is dropped: one spare is the depth a client
// keeps by timing. The world reports the spare after each step.
func TestInputQueueTrims(t *testing.T) {
	w := newBare(t, Config{Seed: 1})
	w.AddPlayer(1)
	p := w.playerOf(t, 1)
	seq := uint32(0)
	send := func(in Input) {
		seq++
		w.ApplyInput(1, seq, in)
	}
	send(Input{MoveX: 127})
	send(Input{MoveX: 127, Buttons: ButtonFire}) // the one the first trim drops
	send(Input{MoveX: 127})
	var waits []int // inputs queued before each step
	for range 3*SpareTicks + 10 {
		send(Input{MoveX: 127})
		waits = append(waits, p.queued-1)
		w.Step()
		if n, ok := w.InputSpare(1); !ok || n != p.queued {
			t.Fatalf("InputSpare %d %v, want %d", n, ok, p.queued)
		}
	}
	for k, want := range map[int]int{0: 3, SpareTicks - 2: 3, SpareTicks + 1: 2, 2*SpareTicks + 1: 1, 3*SpareTicks - 2: 1, 3*SpareTicks + 1: 1, 3*SpareTicks + 9: 1} {
		if waits[k] != want {
			t.Errorf("step %d: %d inputs queued behind the new one, want %d", k, waits[k], want)
		}
	}
	if st := w.Stats(); st.InputsTrimmed != 2 {
		t.Fatalf("%d inputs trimmed, want 2", st.InputsTrimmed)
	}
	w.Step() // nothing queued
	if n, _ := w.InputSpare(1); n != 0 {
		t.Fatalf("InputSpare %d after taking the last, want 0", n)
	}
	w.Step()
	if n, _ := w.InputSpare(1); n != -1 {
		t.Fatalf("InputSpare %d with nothing to take, want -1", n)
	}
	if st := w.Stats(); st.ShotsFired != 1 {
		t.Fatalf("the dropped input's fire: %d shots", st.ShotsFired)
	}
}
