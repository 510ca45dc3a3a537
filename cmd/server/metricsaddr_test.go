package main

import "testing"

// The counters go to -metrics-addr if given, nowhere with "off", and by
// default to loopback at the HTTP port + 1.
func TestMetricsAddrFor(t *testing.T) {
	for _, tc := range []struct {
		flag, http, want string
		err              bool
	}{
		{"", ":8080", "127.0.0.1:8081", false},
		{"", "0.0.0.0:8080", "127.0.0.1:8081", false},
		{"", "[::]:9000", "127.0.0.1:9001", false},
		{"", "127.0.0.1:0", "127.0.0.1:0", false},
		{"", ":http", "127.0.0.1:81", false},
		{"", ":65535", "", true},
		{"", "no port", "", true},
		{":9090", ":8080", ":9090", false},
		{"off", ":8080", "", false},
	} {
		got, err := metricsAddrFor(tc.flag, tc.http)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("metricsAddrFor(%q, %q) = %q, %v; want %q (error %v)", tc.flag, tc.http, got, err, tc.want, tc.err)
		}
	}
}
