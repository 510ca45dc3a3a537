package web

import (
	"crypto/tls"
	"log"
	"net/http"
	"strconv"
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

// TLSConfig is the TLS of an HTTPS match server: TLS 1.2 and 1.3 only, and
// under TLS 1.2 only the AEAD suites with forward secrecy (no CBC, no RSA
// key exchange). TLS 1.3's suites are all AEAD and not configurable.
func TLSConfig() *tls.Config {
	return &tls.Config{
		MinVersion: tls.VersionTLS12,
		CipherSuites: []uint16{
			tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
			tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
			tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
			tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
		},
	}
}

// HSTSMaxAge is how long a browser that reached the server over HTTPS
// keeps to HTTPS for it (Strict-Transport-Security).
const HSTSMaxAge = 180 * 24 * time.Hour

// SecureHeaders adds to every answer of h what a page served to players
// should carry: Referrer-Policy no-referrer (a join token in the page's
// address must not leak to any other site), X-Content-Type-Options
// nosniff, and over HTTPS Strict-Transport-Security.
func SecureHeaders(h http.Handler) http.Handler {
	hsts := "max-age=" + strconv.Itoa(int(HSTSMaxAge/time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Content-Type-Options", "nosniff")
		if r.TLS != nil {
			hd.Set("Strict-Transport-Security", hsts)
		}
		h.ServeHTTP(w, r)
	})
}
