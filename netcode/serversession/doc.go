// Package serversession is the server's end of one client's session (see
// netcode/session, which has the client's end, the shared Config and the
// two datagrams' framing): it encodes that client's snapshots, whole
// snapshots against its acknowledged baseline or per-client views built by
// a view.Sender, and takes its inputs and acks. It lives apart from the
// client's end so that a client build does not carry the server's view
// selection (netcode/view, netcode/interest).
package serversession
