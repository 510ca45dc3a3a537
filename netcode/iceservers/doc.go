// Package iceservers is what a game server hands its clients so that they
// can reach it from behind NAT: the STUN servers to learn their public
// address from and the TURN relays to fall back on, with credentials that
// expire (in 12 hours by default: a relay ends an allocation when its
// credential expires) and reach only the game they were handed out for.
//
// The credentials are the "TURN REST API" kind (the scheme of coturn's
// use-auth-secret): the username is the Unix second the credential expires
// at, a colon and an id ("1796000000:3f9a1c22e0b4"), and the password is
// the base64 of HMAC-SHA1 of the username under a secret the relay shares
// with the servers that hand out its credentials. A relay checks one with
// [Check], knowing nothing of the clients; a server mints one per client
// with [Mint] (through a [Handout]). A relay is then never open to anyone
// who did not just ask a game server.
//
// The [Secret] is 64 hex digits in a file; the HMAC key is those digits as
// text, so a coturn relay with static-auth-secret set to the same digits
// accepts the credentials too.
//
// [List] is the JSON a client receives (GET /ice on the game's servers),
// the iceServers of an RTCConfiguration; [ParseList] reads it as hostile
// input. The package builds for the browser (js/wasm) and imports no
// net/http.
package iceservers
