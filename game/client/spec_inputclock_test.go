package client

import (
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/internal/mdtable"
)

// specPath is the protocol's specification.
const specPath = "../../docs/PROTOCOL.md"

// specLaw is the input clock's law with the numbers PROTOCOL.md §5
// prints in its table "input clock".
type specLaw struct {
	aim, weight, gain, most float64
	catchUp                 int
	stall                   float64 // in periods
}

// readSpecLaw reads the table of the input clock from PROTOCOL.md.
func readSpecLaw(t *testing.T) specLaw {
	t.Helper()
	doc, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	cells := map[string]string{}
	for _, row := range mdtable.Rows(string(doc), "input clock", "value") {
		if len(row) == 2 {
			cells[row[0]] = row[1]
		}
	}
	num := func(name string) float64 {
		t.Helper()
		v, ok := cells[name]
		if !ok {
			t.Fatalf("the input clock's table has no row %q", name)
		}
		v, _, _ = strings.Cut(v, " ") // "2 periods ago"
		if a, b, ok := strings.Cut(v, "/"); ok {
			x, err1 := strconv.ParseFloat(a, 64)
			y, err2 := strconv.ParseFloat(b, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %q", name, cells[name])
			}
			return x / y
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s: %q", name, cells[name])
		}
		return x
	}
	law := specLaw{
		aim:     num("aim: the mean of S − 1"),
		weight:  num("weight of a report in the mean"),
		gain:    num("change of the period per spare input off the aim"),
		most:    num("change of the period, at most"),
		catchUp: int(num("inputs due at one frame, at most")),
		stall:   num("a stall is skipped when the next input was due more than"),
	}
	if len(cells) != 6 {
		t.Errorf("the input clock's table has %d rows, this test knows 6: %q", len(cells), cells)
	}
	return law
}

// lawClock is the input clock as PROTOCOL.md §5 writes it, with the
// numbers it prints: written from the text, not from InputClock.
type lawClock struct {
	law   specLaw
	tick  time.Duration
	m     float64
	haveM bool
	next  time.Time
	haveN bool
}

func newLawClock(law specLaw) *lawClock {
	return &lawClock{law: law, tick: time.Second / 30} // 1 s / 30 truncated: 33,333,333 ns
}

// report takes the k reports a frame took, summing to s.
func (c *lawClock) report(s, k int) {
	if k == 0 {
		return
	}
	v := float64(s) / float64(k)
	if !c.haveM {
		c.m, c.haveM = v, true
	}
	for range k {
		c.m = c.m + (v-c.m)*c.law.weight
	}
}

// period is P = T × (1 + p), truncated to whole nanoseconds.
func (c *lawClock) period() time.Duration {
	if !c.haveM {
		return c.tick
	}
	p := min(max(c.law.gain*(c.m-c.law.aim), -c.law.most), c.law.most)
	return time.Duration(float64(c.tick) * (1 + p))
}

// due returns how many inputs are due at the frame's time t.
func (c *lawClock) due(t time.Time) int {
	if !c.haveN {
		c.next, c.haveN = t, true
	}
	p := c.period()
	if float64(t.Sub(c.next)) > c.law.stall*float64(p) {
		c.next = t
	}
	n := 0
	for n < c.law.catchUp && !t.Before(c.next) {
		n++
		c.next = c.next.Add(p)
	}
	return n
}

// inputClock is what a simulated client needs of a clock: the reference
// InputClock or the law as written.
type inputClock interface {
	report(s, k int)
	due(t time.Time) int
}

type refClock struct{ *InputClock }

func (c refClock) report(s, k int)     { c.Report(s, k) }
func (c refClock) due(t time.Time) int { return c.Due(t) }

// TestSpecInputClock holds PROTOCOL.md §5's input clock to the reference
// client's: the numbers of its table are InputClock's; the law written
// from the text, with those numbers, gives the same period and the same
// inputs due as InputClock at every frame of a long run of frames, stalls
// and reports; and it holds the game's own input queue (arena.World) at a
// mean of 0.3 spare inputs over a jittery link.
func TestSpecInputClock(t *testing.T) {
	law := readSpecLaw(t)
	for _, c := range []struct {
		name       string
		spec, code float64
	}{
		{"aim", law.aim, TargetSpare},
		{"weight", law.weight, spareGain},
		{"gain", law.gain, paceGain},
		{"most", law.most, maxPace},
		{"inputs due at once", float64(law.catchUp), maxCatchUp},
		{"stall", law.stall, maxCatchUp},
	} {
		if c.spec != c.code {
			t.Errorf("§5 says the input clock's %s is %v; InputClock's is %v", c.name, c.spec, c.code)
		}
	}

	t.Run("step for step", func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		ref, spec := NewInputClock(30), newLawClock(law)
		now := time.Unix(1_700_000_000, 0)
		for frame := range 100_000 {
			switch r := rng.IntN(1000); {
			case r < 2:
				now = now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond) // a stall
			default:
				now = now.Add(time.Second/60 + time.Duration(rng.IntN(4000)-2000)*time.Microsecond)
			}
			k, s := rng.IntN(4), 0
			for range k {
				// Mostly near the aim, sometimes far off, now and then a
				// value the server never sends.
				switch r := rng.IntN(100); {
				case r < 80:
					s += rng.IntN(3) - 1
				case r < 98:
					s += rng.IntN(8)
				default:
					s += rng.IntN(16) - 1
				}
			}
			ref.Report(s, k)
			spec.report(s, k)
			if a, b := ref.Period(), spec.period(); a != b {
				t.Fatalf("frame %d: InputClock's period %v, the law's %v", frame, a, b)
			}
			if a, b := ref.Due(now), spec.due(now); a != b {
				t.Fatalf("frame %d: InputClock has %d inputs due, the law %d", frame, a, b)
			}
		}
	})

	t.Run("holds the queue", func(t *testing.T) {
		for _, c := range []struct {
			name  string
			clock inputClock
		}{
			{"the law", newLawClock(law)},
			{"InputClock", refClock{NewInputClock(30)}},
		} {
			mean, late, world := runQueue(t, c.clock, 3)
			t.Logf("%s: mean spare inputs %.3f, late %.2f%%, trimmed %d, dropped full %d",
				c.name, mean, 100*late, world.InputsTrimmed, world.DroppedQueueFull)
			if math.Abs(mean-law.aim) > 0.12 {
				t.Errorf("%s: the queue held %.3f spare inputs on average, want about %v", c.name, mean, law.aim)
			}
			if world.InputsTrimmed != 0 || world.DroppedQueueFull != 0 {
				t.Errorf("%s: the server dropped inputs: %+v", c.name, world)
			}
		}
	})
}

// runQueue plays two simulated minutes of a client whose inputs go by
// clock over 50 ms each way with 10 ms of jitter and 1% loss (each input
// datagram twice, each copy on its own), against the game's input queue:
// the server ticks at 30 Hz, takes the inputs that came by each tick's
// start, steps, and tells the spare inputs of its step in the snapshot;
// the client decodes each snapshot newer than its newest at its first
// frame (60 a second) after it came, and reports it before its clock says
// which inputs are due. It returns the mean of the spare inputs reported
// over the last 90 s and the share of them that said late (-1).
func runQueue(t *testing.T, clock inputClock, seed uint64) (mean, late float64, stats arena.Stats) {
	t.Helper()
	w, err := arena.NewWorld(arena.Config{Seed: seed, MaxPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	const id = arena.PlayerID(1)
	w.AddPlayer(id)
	rng := rand.New(rand.NewPCG(seed, 7))
	delay := func() time.Duration {
		return 50*time.Millisecond + time.Duration(rng.IntN(10_000))*time.Microsecond
	}
	type arrival struct {
		at  time.Duration
		seq uint32
	}
	type snapshot struct {
		at          time.Duration
		tick, spare int
	}
	var inputs []arrival
	var snaps []snapshot
	const tick = time.Second / 30
	const frame = time.Second / 60
	epoch := time.Unix(1_700_000_000, 0)
	seq, newest := uint32(0), 0
	var sum, n, lates int
	nextTick, nextFrame := tick, time.Duration(rng.IntN(int(frame)))
	for nextTick < 120*time.Second {
		if nextFrame < nextTick {
			now := nextFrame
			k, s := 0, 0
			rest := snaps[:0]
			for _, sn := range snaps {
				switch {
				case sn.at > now:
					rest = append(rest, sn)
				case sn.tick > newest:
					newest = sn.tick
					k, s = k+1, s+sn.spare
					if now > 30*time.Second {
						sum, n = sum+sn.spare, n+1
						if sn.spare < 0 {
							lates++
						}
					}
				}
			}
			snaps = rest
			clock.report(s, k)
			for range clock.due(epoch.Add(now)) {
				seq++
				for range 2 { // the datagram twice; it repeats the last inputs too, so a later copy covers a loss
					if rng.Float64() >= 0.01 {
						inputs = append(inputs, arrival{at: now + delay(), seq: seq})
					}
				}
			}
			nextFrame += frame + time.Duration(rng.IntN(2000)-1000)*time.Microsecond
			continue
		}
		now := nextTick
		sort.Slice(inputs, func(i, j int) bool { return inputs[i].at < inputs[j].at })
		i := 0
		for ; i < len(inputs) && inputs[i].at <= now; i++ {
			// A datagram carries the last four inputs: the server takes
			// each it lacks.
			for back := range uint32(4) {
				if inputs[i].seq > back {
					w.ApplyInput(id, inputs[i].seq-back, arena.Input{})
				}
			}
		}
		inputs = inputs[i:]
		w.Step()
		spare, _ := w.InputSpare(id)
		snaps = append(snaps, snapshot{at: now + delay(), tick: int(w.Tick()), spare: min(spare, arena.InputQueue-1)})
		nextTick += tick
	}
	if n == 0 {
		t.Fatal("no reports")
	}
	return float64(sum) / float64(n), float64(lates) / float64(n), w.Stats()
}
