package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/jointoken"
)

func TestNewKeyAndTTL(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := run("", keyFile, jointoken.Claims{}, time.Minute); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(keyFile)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the new key file: %v, %v; want mode 0600", info, err)
	}
	key, err := jointoken.LoadKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	// Never overwritten, whatever its mode.
	if err := os.Chmod(keyFile, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run("", keyFile, jointoken.Claims{}, time.Minute); !errors.Is(err, fs.ErrExist) {
		t.Errorf("-new-key on an existing file: %v, want it refused", err)
	}
	if again, _ := jointoken.LoadKey(keyFile); again != key {
		t.Error("-new-key replaced an existing key")
	}
	// A token that servers would refuse for its life is not minted.
	err = run(keyFile, "", jointoken.Claims{Name: "x", Server: "any"}, 8760*time.Hour)
	if err == nil || !strings.Contains(err.Error(), "servers refuse") {
		t.Errorf("-ttl 8760h: %v, want a refusal", err)
	}
	if err := run(keyFile, "", jointoken.Claims{Name: "x", Server: "203.0.113.10:8080"}, jointoken.DefaultMaxTTL); err != nil {
		t.Errorf("-ttl at the servers' limit: %v", err)
	}
	zero := filepath.Join(dir, "zero")
	os.WriteFile(zero, []byte(strings.Repeat("0", 64)), 0o600)
	if err := run(zero, "", jointoken.Claims{Name: "x", Server: "any"}, time.Minute); !errors.Is(err, jointoken.ErrBadKey) {
		t.Errorf("an all-zero key: %v, want %v", err, jointoken.ErrBadKey)
	}
}

// A token names its server, or says "any" explicitly: one minted with
// no -server would join every server of a fleet.
func TestServerRequired(t *testing.T) {
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key")
	if err := run("", keyFile, jointoken.Claims{}, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := run(keyFile, "", jointoken.Claims{Name: "x"}, time.Minute); err == nil || !strings.Contains(err.Error(), "-server is required") {
		t.Errorf("no -server: %v, want it required", err)
	}
	for _, server := range []string{"any", "203.0.113.10:8080"} {
		if err := run(keyFile, "", jointoken.Claims{Name: "x", Server: server}, time.Minute); err != nil {
			t.Errorf("-server %s: %v", server, err)
		}
	}
}
