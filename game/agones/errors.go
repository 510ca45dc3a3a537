package agones

import "errors"

// ErrSidecarUnavailable is returned when the SDK sidecar did not answer
// before the start deadline.
var ErrSidecarUnavailable = errors.New("agones: SDK sidecar unavailable")

// ErrRejected is returned when the SDK sidecar answered a call with a
// client error (4xx), which retrying will not fix.
var ErrRejected = errors.New("agones: SDK sidecar rejected the call")

// ErrStatus is returned when the SDK sidecar answered with a server error
// (5xx); such calls are retried.
var ErrStatus = errors.New("agones: SDK sidecar error status")
