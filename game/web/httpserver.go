package web

import (
	"log"
	"net/http"
	"time"
)

// The timeouts of a match server's (or relay's) HTTP server, which faces
// the internet: without them a connection that sends nothing, or trickles
// a request, stays open for good and holds memory.
const (
	// ReadHeaderTimeout bounds reading a request's headers.
	ReadHeaderTimeout = 5 * time.Second
	// ReadTimeout bounds reading a whole request, body included (an offer
	// is at most 64 KiB).
	ReadTimeout = 20 * time.Second
	// WriteTimeout bounds a request from its headers to its answer's
	// end: the longest is game.wasm (about 3.6 MB gzipped) to a slow
	// phone, and a rendezvous waits up to 15 s for a host's answer.
	WriteTimeout = 2 * time.Minute
	// IdleTimeout closes a keep-alive connection idle this long between
	// requests.
	IdleTimeout = time.Minute
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes = 32 << 10
)

// NewHTTPServer returns an http.Server of h with the timeouts above
// (a WebSocket, once upgraded, is out of their reach), logging its own
// errors to errLog (nil: the standard logger).
func NewHTTPServer(h http.Handler, errLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ErrorLog:          errLog,
	}
}
