package relay

import "errors"

// Sentinel errors of the package; New's and the relay's errors wrap them.
var (
	// ErrNoSecret: Config.Secret is the zero Secret.
	ErrNoSecret = errors.New("relay: no TURN secret")
	// ErrNoListener: Config names no address and gives no socket.
	ErrNoListener = errors.New("relay: nothing to listen on")
	// ErrNoTLSConfig: Config.TLSAddr is set without Config.TLSConfig.
	ErrNoTLSConfig = errors.New("relay: TLS address without a TLS config")
	// ErrNoPublicIP: neither Config.PublicIP nor Config.RelayBind is a
	// specific address, so the relay cannot tell clients where their
	// relayed addresses are.
	ErrNoPublicIP = errors.New("relay: set PublicIP (or a specific RelayBind)")
	// ErrTCPRelay: a client asked for a TCP allocation (RFC 6062), which
	// the relay does not offer.
	ErrTCPRelay = errors.New("relay: TCP allocations are not offered")
	// ErrQuota: a username asked for more allocations than it may hold.
	ErrQuota = errors.New("relay: allocation quota reached")
	// ErrCapacity: the relay holds Config.MaxAllocations allocations.
	ErrCapacity = errors.New("relay: at its allocation capacity")
	// ErrTooManyConns: a TCP or TLS connection came while the relay held
	// Config.MaxConns; it was closed at once.
	ErrTooManyConns = errors.New("relay: too many connections")
	// ErrTooManyConnsFromAddr: a TCP or TLS connection came from a client
	// (an IPv4 address, an IPv6 /64) holding Config.MaxConnsPerAddr; it
	// was closed at once.
	ErrTooManyConnsFromAddr = errors.New("relay: too many connections from the client's address")
	// ErrIdleTimeout: a connection completed no TURN message for
	// Config.IdleTimeout; it was closed.
	ErrIdleTimeout = errors.New("relay: connection idle")
	// ErrFirstMessageTimeout: a connection sent no complete TURN message
	// within Config.FirstMessageTimeout of its start; it was closed.
	ErrFirstMessageTimeout = errors.New("relay: no first message")
	// ErrOversizeFrame: a connection announced a TURN message larger than
	// Config.MaxFrame; it was closed.
	ErrOversizeFrame = errors.New("relay: frame too large")
	// ErrBadFrame: a connection sent bytes that begin neither a STUN nor a
	// ChannelData message; it was closed.
	ErrBadFrame = errors.New("relay: neither STUN nor ChannelData")
)
