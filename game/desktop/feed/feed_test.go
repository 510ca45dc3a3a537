package feed

import (
	"testing"
	"time"
)

func TestLinesExpireAndFade(t *testing.T) {
	t0 := time.Unix(1000, 0)
	f := New(5, 5*time.Second)
	f.Push(t0, "a", ToneNormal)
	f.Push(t0.Add(2*time.Second), "b", ToneSelf)
	if got := f.Lines(t0.Add(time.Second)); len(got) != 2 || got[0].Text != "a" {
		t.Fatalf("lines %+v", got)
	}
	if a := f.Alpha(f.Lines(t0)[0], t0.Add(time.Second)); a != 1 {
		t.Errorf("fresh line alpha %v", a)
	}
	if a := f.Alpha(Line{At: t0}, t0.Add(5*time.Second-FadeTime/2)); a < 0.49 || a > 0.51 {
		t.Errorf("half-faded alpha %v", a)
	}
	got := f.Lines(t0.Add(5 * time.Second))
	if len(got) != 1 || got[0].Text != "b" {
		t.Fatalf("after 5 s: %+v", got)
	}
	if got := f.Lines(t0.Add(8 * time.Second)); len(got) != 0 {
		t.Fatalf("after 8 s: %+v", got)
	}
}

func TestKeepsNewest(t *testing.T) {
	t0 := time.Unix(1000, 0)
	f := New(3, time.Minute)
	for i, s := range []string{"1", "2", "3", "4", "5"} {
		f.Push(t0.Add(time.Duration(i)*time.Second), s, ToneNormal)
	}
	got := f.Lines(t0.Add(10 * time.Second))
	if len(got) != 3 || got[0].Text != "3" || got[2].Text != "5" {
		t.Fatalf("lines %+v", got)
	}
}
