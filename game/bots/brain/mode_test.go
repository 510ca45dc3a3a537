package brain

import "testing"

// TestDecide: the first rule that holds picks the mode, and says why.
func TestDecide(t *testing.T) {
	alive := percept{located: true, target: -1}
	with := func(f func(p *percept)) percept { p := alive; f(&p); return p }
	cases := []struct {
		name       string
		cur        mode
		detourLeft int
		p          percept
		want       mode
		why        reason
	}{
		{"not in view", modeFight, 0, percept{target: -1}, modeRoam, whyLost},
		{"not in view, detouring", modeDetour, 3, percept{target: -1}, modeDetour, whyLostDetour},
		{"dead", modeFight, 0, with(func(p *percept) { p.dead = true }), modeWait, whyDead},
		{"dead, detouring", modeDetour, 3, with(func(p *percept) { p.dead = true }), modeWait, whyDead},
		{"respawned: the detour died with it", modeWait, 3, alive, modeRoam, whyNothing},
		{"respawned stuck: a new detour", modeWait, 3, with(func(p *percept) { p.stuck = true }), modeDetour, whyStuck},
		{"a detour goes on over an item and a target", modeDetour, 3, with(func(p *percept) { p.item, p.target = true, 2 }), modeDetour, whyDetouring},
		{"a detour goes on though stuck", modeDetour, 1, with(func(p *percept) { p.stuck = true }), modeDetour, whyDetouring},
		{"stuck after a detour: another", modeDetour, 0, with(func(p *percept) { p.stuck = true }), modeDetour, whyStuck},
		{"stuck fighting", modeFight, 0, with(func(p *percept) { p.stuck, p.target = true, 2 }), modeDetour, whyStuck},
		{"an item before a target", modeFight, 0, with(func(p *percept) { p.item, p.target = true, 2 }), modeFetch, whyItem},
		{"a target", modeRoam, 0, with(func(p *percept) { p.target = 0 }), modeFight, whyTarget},
		{"the detour over", modeDetour, 0, alive, modeRoam, whyNothing},
		{"nothing", modeWait, 0, alive, modeRoam, whyNothing},
	}
	for _, c := range cases {
		if got, why := decide(c.cur, c.detourLeft, &c.p); got != c.want || why != c.why {
			t.Errorf("%s: %v (%s), want %v (%s)", c.name, got, why, c.want, c.why)
		}
	}
}
