package testnet

import (
	"testing"
)

// The ports FreePort picks are free and outside the ephemeral range, where
// other tests' connections take theirs.
func TestFreePortOutsideEphemeralRange(t *testing.T) {
	low, high := ephemeralRange()
	if low < 1024 || high > 65535 || low > high {
		t.Fatalf("ephemeral range %d-%d", low, high)
	}
	for _, network := range []string{"tcp", "udp", "tcp", "udp"} {
		p := FreePort(t, network)
		if p >= low && p <= high {
			t.Errorf("FreePort(%q) = %d, inside the ephemeral range %d-%d", network, p, low, high)
		}
		if !free(network, p) {
			t.Errorf("FreePort(%q) = %d, which cannot be listened on", network, p)
		}
	}
	p := FreePortPair(t)
	if !free("tcp", p) || !free("tcp", p+1) {
		t.Errorf("FreePortPair = %d: not both free", p)
	}
}
