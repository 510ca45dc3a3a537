package mdtable

import (
	"slices"
	"testing"
)

func TestRows(t *testing.T) {
	doc := `Some text.

| name | value | note |
|---|---:|---|
| a | 1 | first |
|b|2|

| name | other |
|---|---|
| c | 3 |

| value | name |
|---|---|
| 4 | d |
`
	got := Rows(doc, "name", "value")
	want := [][]string{{"a", "1", "first"}, {"b", "2"}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Rows(name, value) = %q, want %q", got, want)
	}
	if got := Rows(doc, "name"); len(got) != 3 {
		t.Errorf("Rows(name) = %q, want the rows of both tables headed by name", got)
	}
	if got := Rows(doc, "missing"); got != nil {
		t.Errorf("Rows(missing) = %q, want none", got)
	}
}
