//go:build !js

package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"
)

func ExampleSignalURL() {
	fmt.Println(SignalURL("http://192.168.1.20:8080/", "2"))
	fmt.Println(SignalURL("http://192.168.1.20:8080", ""))
	fmt.Println(SignalURL("http://localhost:8080", "a b&c"))
	// Output:
	// http://192.168.1.20:8080/signal?match=2
	// http://192.168.1.20:8080/signal
	// http://localhost:8080/signal?match=a+b%26c
}

func TestListMatches(t *testing.T) {
	two := []MatchInfo{
		{ID: "1", Name: "Match 1", Players: 5, Bots: 4, Capacity: 8, Round: 2, TimeLeftS: 95.5},
		{ID: "2", Name: "Match 2", Players: 8, Bots: 4, Capacity: 8, Intermission: true, Overruns: 3},
	}
	for _, tc := range []struct {
		name    string
		code    int
		body    string
		want    []MatchInfo
		wantErr error // nil: no error; errAny: some error
	}{
		{"two matches", 200, `{"matches":[{"id":"1","name":"Match 1","players":5,"bots":4,"capacity":8,"round":2,"time_left_s":95.5,"intermission":false,"overruns":0},` +
			`{"id":"2","name":"Match 2","players":8,"bots":4,"capacity":8,"round":0,"time_left_s":0,"intermission":true,"overruns":3}]}`, two, nil},
		{"none", 200, `{"matches":[]}`, []MatchInfo{}, nil},
		{"a server without a list", 404, "404 page not found\n", nil, ErrNoMatchList},
		{"a server in trouble", 500, "internal error\n", nil, errAny},
		{"not JSON", 200, "<html>", nil, errAny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet || r.URL.Path != MatchesPath {
					t.Errorf("request %s %s, want GET %s", r.Method, r.URL.Path, MatchesPath)
				}
				w.WriteHeader(tc.code)
				fmt.Fprint(w, tc.body)
			}))
			defer srv.Close()
			got, err := ListMatches(context.Background(), srv.URL+"/")
			switch {
			case tc.wantErr == nil && err != nil:
				t.Fatalf("error %v", err)
			case tc.wantErr == errAny && err == nil, tc.wantErr != nil && tc.wantErr != errAny && !errors.Is(err, tc.wantErr):
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if len(got) == 2 && (got[0].Full() || !got[1].Full()) {
				t.Errorf("Full: %v %v, want false true", got[0].Full(), got[1].Full())
			}
		})
	}
}

// errAny stands for any error in the table above.
var errAny = errors.New("any error")
