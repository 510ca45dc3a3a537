// Package agones runs a match server's lifecycle on Agones, over the REST
// interface of the Agones SDK sidecar (http://localhost:$AGONES_SDK_HTTP_PORT,
// default port 9358), with net/http only.
//
// Client makes the documented calls: POST /ready, POST /health,
// POST /shutdown, GET /gameserver, GET /watch/gameserver (a stream of JSON
// lines {"result": GameServer}) and PUT /metadata/label, which reports the
// player count as the label "players". Calls made at start-up retry with
// exponential backoff while the sidecar is slow to come up, and fail with
// ErrSidecarUnavailable after Config.StartDeadline.
//
// Lifecycle is what the server runs: Ready once the server listens, Health
// every Config.HealthPeriod, a watch of the GameServer to learn that it is
// Allocated and its public address, the player count as it changes, and
// Shutdown once the match is allocated and empty after players have been
// there (or after the match ended with nobody connected), never while a
// player is connected.
package agones
