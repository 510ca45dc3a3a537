package iceservers

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// Secret is the secret a relay shares with the servers that hand out its
// credentials: 32 bytes, written as 64 hex digits.
type Secret struct {
	text string // the 64 lowercase hex digits, the HMAC key
}

// ParseSecret reads a secret: 64 hex digits, surrounding space ignored,
// not all zero.
func ParseSecret(text string) (Secret, error) {
	text = strings.ToLower(strings.TrimSpace(text))
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != 32 {
		return Secret{}, ErrBadSecret
	}
	zero := true
	for _, c := range b {
		zero = zero && c == 0
	}
	if zero {
		return Secret{}, ErrBadSecret
	}
	return Secret{text: text}, nil
}

// LoadSecret reads the secret in the file at path.
func LoadSecret(path string) (Secret, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Secret{}, fmt.Errorf("iceservers: secret: %w", err)
	}
	s, err := ParseSecret(string(data))
	if err != nil {
		return Secret{}, fmt.Errorf("%w (in %s)", err, path)
	}
	return s, nil
}

// NewSecret returns a new random secret.
func NewSecret() (Secret, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return Secret{}, err
	}
	return Secret{text: hex.EncodeToString(b[:])}, nil
}

// String returns the secret's 64 lowercase hex digits.
func (s Secret) String() string { return s.text }

// IsZero reports whether s is the zero Secret (none).
func (s Secret) IsZero() bool { return s.text == "" }
