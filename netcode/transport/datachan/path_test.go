package datachan

import (
	"slices"
	"testing"
)

func TestPathName(t *testing.T) {
	for _, tc := range []struct {
		local, proto, remote, want string
	}{
		{"host", "", "host", "host"},
		{"host", "", "prflx", "prflx"},
		{"prflx", "", "host", "prflx"},
		{"host", "", "srflx", "srflx"},
		{"srflx", "", "prflx", "srflx"},
		{"relay", "udp", "srflx", "relay-udp"},
		{"relay", "tcp", "host", "relay-tcp"},
		{"relay", "tls", "relay", "relay-tls"},
		{"relay", "", "host", "relay"},
		{"host", "", "relay", "relay"},
		{"", "", "", "host"},
	} {
		got := PathName(tc.local, tc.proto, tc.remote)
		if got != tc.want {
			t.Errorf("PathName(%q, %q, %q) = %q, want %q", tc.local, tc.proto, tc.remote, got, tc.want)
		}
		if !slices.Contains(Paths(), got) {
			t.Errorf("PathName(%q, %q, %q) = %q, not in Paths()", tc.local, tc.proto, tc.remote, got)
		}
	}
}
