// Package floor measures the least a datagram costs on this machine, the
// floor under any transport's per-packet cost: sealing a 100-byte payload
// with AES-128-GCM (what DTLS does to every WebRTC record) and one
// sendto/recvfrom pair over loopback UDP, one packet per system call and
// batched (sendmmsg/recvmmsg through golang.org/x/net/ipv4). It has no code
// of its own: its benchmarks (floor_test.go) are the figures
// docs/07-performance.md sets beside the WebRTC transport's.
//
//	go test -run '^$' -bench . ./netcode/transport/floor
package floor
