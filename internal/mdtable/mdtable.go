// Package mdtable reads the tables of a Markdown document, for the tests
// that hold a document's tables to the code: a table copied by hand into a
// document will one day be wrong.
package mdtable

import "strings"

// Rows returns the rows of doc's tables whose header row starts with the
// cells of header, each row as its cells with the spaces around them
// trimmed. The header and delimiter rows are not returned; a table ends at
// the first line that does not start with "|".
func Rows(doc string, header ...string) [][]string {
	var rows [][]string
	in := false
	for line := range strings.Lines(doc) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			in = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case startsWith(cells, header):
			in = true
		case in && strings.HasPrefix(cells[0], "---"):
		case in:
			rows = append(rows, cells)
		}
	}
	return rows
}

func startsWith(cells, header []string) bool {
	if len(cells) < len(header) {
		return false
	}
	for i, h := range header {
		if cells[i] != h {
			return false
		}
	}
	return true
}
