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
)
