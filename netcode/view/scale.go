package view

// costScale learns how many bits the format writes for each bit the
// sender's estimates give (changedCost, newBits). The estimates assume a
// changed field's plain difference from its baseline and a new entity at
// full width; a format that predicts changes and entropy-codes them writes
// far fewer. Left alone, the budget would then hold back entities the
// client's bytes could carry. The sender spends the tick's bits in
// estimated bits divided by the scale, and each delta it sends corrects
// the scale a little toward what that packet measured. The packet cap and
// the token bucket still hold: a packet over the cap is rebuilt with less,
// and bytes over the tick's allowance are a debt the next ticks pay.
//
// The zero value is a scale of 1: the estimates taken as they are.
type costScale struct {
	f float64 // written bits per estimated bit; 0 means 1
}

const (
	// minObserved is the least estimate a packet must carry to correct
	// the scale: a packet of one or two entities says more about its
	// rounding than about the format.
	minObserved = 256
	// scaleGain is the weight of one packet's measure.
	scaleGain = 1.0 / 8
	// The scale stays between these: a packet far off either way (a
	// burst of spawns, a padded format) moves it only so far.
	minScale, maxScale = 1.0 / 8, 2.0
)

func (c *costScale) get() float64 {
	if c.f == 0 {
		return 1
	}
	return c.f
}

// estimated converts bits the format may write into estimated bits. A
// budget short of nothing stays as it is.
func (c *costScale) estimated(bits int32) int32 {
	if bits <= 0 {
		return bits
	}
	return int32(float64(bits) / c.get())
}

// observe corrects the scale by a delta whose entities were estimated at
// est bits and took wrote bits.
func (c *costScale) observe(est int64, wrote int) {
	if est < minObserved {
		return
	}
	r := min(max(float64(wrote)/float64(est), minScale), maxScale)
	f := c.get()
	c.f = f + (r-f)*scaleGain
}
