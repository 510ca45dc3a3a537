package main

import (
	"fmt"
	"net"
	"strconv"
)

// metricsOff is the -metrics-addr that serves the counters nowhere.
const metricsOff = "off"

// metricsAddrFor is where -metrics-addr flag serves /metrics and
// /debug/vars for a server on httpAddr: flag itself if set, nowhere ("")
// if metricsOff, and by default loopback at the HTTP port + 1
// (127.0.0.1:8081 for :8080; with port 0, any free port), so that a load
// tester on the same machine finds them from the server's URL alone and
// nobody else reaches them.
func metricsAddrFor(flag, httpAddr string) (string, error) {
	switch flag {
	case metricsOff:
		return "", nil
	case "":
	default:
		return flag, nil
	}
	_, p, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return "", fmt.Errorf("-metrics-addr from -addr %q: %w", httpAddr, err)
	}
	port, err := net.LookupPort("tcp", p)
	if err != nil {
		return "", fmt.Errorf("-metrics-addr from -addr %q: %w", httpAddr, err)
	}
	if port != 0 {
		port++
	}
	if port > 65535 {
		return "", fmt.Errorf("-metrics-addr from -addr %q: no port after %d", httpAddr, port-1)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}
