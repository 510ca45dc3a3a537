package main

import (
	"net"
	"testing"
)

// A server on this machine serves its counters on loopback at its HTTP
// port + 1; one elsewhere is asked at its own URL.
func TestMetricsURL(t *testing.T) {
	local := func(ip net.IP) bool { return ip.IsLoopback() || ip.Equal(net.ParseIP("192.0.2.7")) }
	for _, tc := range []struct{ server, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8081"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8081"},
		{"http://localhost:9000", "http://127.0.0.1:9001"},
		{"http://[::1]:8080", "http://127.0.0.1:8081"},
		{"https://127.0.0.1", "http://127.0.0.1:444"},
		{"http://127.0.0.1", "http://127.0.0.1:81"},
		{"http://192.0.2.7:8080", "http://127.0.0.1:8081"},
		{"http://198.51.100.1:8080", "http://198.51.100.1:8080"},
		{"https://play.example.org", "https://play.example.org"},
		{"http://127.0.0.1:65535", "http://127.0.0.1:65535"},
		{"not a url\x00", "not a url\x00"},
	} {
		if got := metricsURL(tc.server, local); got != tc.want {
			t.Errorf("metricsURL(%q) = %q, want %q", tc.server, got, tc.want)
		}
	}
}
