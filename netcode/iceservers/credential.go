package iceservers

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// DefaultTTL is how long a handed-out credential lives: longer than a
// player stays in a game, because a relay ends an allocation when its
// credential expires and a client does not fetch a fresh one mid-match.
// What bounds a credential's use is its scope (the game's addresses) and
// the relay's caps (a rate per allocation, bytes per credential), not a
// short life.
const DefaultTTL = 12 * time.Hour

// Credential is a short-lived TURN username and password.
type Credential struct {
	Username, Password string
	Expires            time.Time
}

// Mint returns a credential for id that expires ttl after now: username
// "EXPIRY:id" (EXPIRY in Unix seconds), followed by ";to=" and the peers
// when there are any (its scope: the only addresses a relay lets its
// allocations reach, at most MaxPeers of them; see Scope), password the
// base64 of HMAC-SHA1 of the username under s. id holds no ';'.
func Mint(s Secret, id string, now time.Time, ttl time.Duration, peers ...netip.Addr) Credential {
	expires := now.Add(ttl).Truncate(time.Second)
	user := appendScope(strconv.FormatInt(expires.Unix(), 10)+":"+id, peers[:min(len(peers), MaxPeers)])
	return Credential{Username: user, Password: Password(s, user), Expires: expires}
}

// Password is the password of username under s, whatever its expiry.
func Password(s Secret, username string) string {
	mac := hmac.New(sha1.New, []byte(s.text))
	mac.Write([]byte(username))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// maxUsername bounds a username a relay is asked to check.
const maxUsername = 256

// Check verifies a username a relay receives and returns the password it
// must come with: the username is "EXPIRY:ID" with EXPIRY in the future,
// at most maxTTL after now, and a well-formed scope if it has one.
func Check(s Secret, username string, now time.Time, maxTTL time.Duration) (string, error) {
	sec, err := ParseUsername(username)
	if err != nil {
		return "", err
	}
	if _, err := Scope(username); err != nil {
		return "", err
	}
	expires := time.Unix(sec, 0)
	switch {
	case !now.Before(expires):
		return "", fmt.Errorf("%w %v ago", ErrExpired, now.Sub(expires).Round(time.Second))
	case expires.Sub(now) > maxTTL:
		return "", fmt.Errorf("%w: expires in %v, at most %v", ErrTooLong, expires.Sub(now).Round(time.Second), maxTTL)
	}
	return Password(s, username), nil
}

// ParseUsername reads the expiry of a username "EXPIRY:ID", in Unix
// seconds.
func ParseUsername(username string) (expiry int64, err error) {
	if len(username) > maxUsername {
		return 0, ErrMalformedUsername
	}
	exp, _, ok := strings.Cut(username, ":")
	if !ok || exp == "" || len(exp) > 12 {
		return 0, ErrMalformedUsername
	}
	sec, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || sec <= 0 {
		return 0, ErrMalformedUsername
	}
	return sec, nil
}

// DeriveID returns the credential id of key under s: 16 hex digits of
// HMAC-SHA256, so that one joiner (its join token, its connection) is
// always handed one id, which tells nothing of the key to whoever sees the
// username (a relay's logs, the player).
func DeriveID(s Secret, key string) string {
	mac := hmac.New(sha256.New, []byte(s.text))
	mac.Write([]byte("sightline credential id\x00" + key))
	return hex.EncodeToString(mac.Sum(nil)[:8])
}
