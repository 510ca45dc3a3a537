package main

import (
	"net"
	"net/url"
	"strconv"
)

// metricsURL is where a server at serverURL serves /metrics and
// /debug/vars: cmd/server serves them on loopback at its HTTP port + 1
// (-metrics-addr's default), so for a server on this machine that is
// http://127.0.0.1:PORT+1; for one elsewhere, which keeps them to its own
// machine, serverURL itself (where an older server served them).
func metricsURL(serverURL string, local func(net.IP) bool) string {
	u, err := url.Parse(serverURL)
	if err != nil || u.Host == "" {
		return serverURL
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !local(ip)) {
		return serverURL
	}
	port, err := strconv.Atoi(u.Port())
	if u.Port() == "" {
		port, err = 80, nil
		if u.Scheme == "https" {
			port = 443
		}
	}
	if err != nil || port <= 0 || port >= 65535 {
		return serverURL
	}
	return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port+1))
}

// isLocalIP reports whether ip is loopback or one of this machine's
// interfaces' addresses.
func isLocalIP(ip net.IP) bool {
	if ip.IsLoopback() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}
