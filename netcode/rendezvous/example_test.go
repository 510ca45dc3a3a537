//go:build !js

package rendezvous_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/sightline-game/sightline/netcode/rendezvous"
)

// A host behind NAT serves its ordinary handler through a rendezvous, and
// a client reaches it at the invite link.
func Example() {
	quiet := slog.New(slog.DiscardHandler)
	rv := rendezvous.NewServer(rendezvous.ServerConfig{Logger: quiet})
	defer rv.Close()
	public := httptest.NewServer(rv) // the relay machine's -http address
	defer public.Close()

	// The host's own mux, the same that would serve players directly.
	mux := http.NewServeMux()
	mux.HandleFunc("GET /matches", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":1,"players":3}]`)
	})
	ctx, stop := context.WithCancel(context.Background())
	invites := make(chan rendezvous.Invite, 1)
	done := make(chan error, 1)
	go func() {
		done <- rendezvous.Host(ctx, rendezvous.HostConfig{URL: public.URL, Handler: mux, Logger: quiet,
			OnInvite: func(inv rendezvous.Invite) { invites <- inv }})
	}()
	defer func() { stop(); <-done }()

	inv := <-invites
	resp, err := http.Get(inv.URL + "/matches")
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(len(inv.Code), resp.StatusCode, resp.Header.Get("Cache-Control"), string(body))
	// Output: 26 200 no-store [{"id":1,"players":3}]
}
