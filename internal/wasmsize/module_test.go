package wasmsize

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// appendU32 appends v as an unsigned LEB128.
func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendName(b []byte, s string) []byte { return append(appendU32(b, uint32(len(s))), s...) }

func appendSection(b []byte, id byte, payload []byte) []byte {
	return append(appendU32(append(b, id), uint32(len(payload))), payload...)
}

// testModule is a small module as the binary format has it: one imported
// function and an imported memory, three functions defined (two named),
// an active and a passive data segment (5 and 3 bytes), and a name
// section that also names the import.
func testModule() []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = appendSection(b, 1, []byte{1, 0x60, 0, 0}) // one type: () -> ()
	imp := appendU32(nil, 2)
	imp = append(appendName(appendName(imp, "go"), "debug"), 0, 0)      // a function of type 0
	imp = append(appendName(appendName(imp, "env"), "mem"), 2, 1, 1, 2) // memory, min 1 max 2
	b = appendSection(b, 2, imp)
	b = appendSection(b, 3, []byte{3, 0, 0, 0})
	code := appendU32(nil, 3)
	for _, body := range [][]byte{{0, 0x0b}, {0, 0x01, 0x01, 0x0b}, bytes.Repeat([]byte{0x01}, 200)} {
		code = append(appendU32(code, uint32(len(body))), body...)
	}
	b = appendSection(b, 10, code)
	data := appendU32(nil, 2)
	data = append(data, 0, 0x41, 0, 0x0b) // active, memory 0, at i32.const 0
	data = append(appendU32(data, 5), "hello"...)
	data = append(data, 1) // passive
	data = append(appendU32(data, 3), "abc"...)
	b = appendSection(b, 11, data)
	names := appendU32(nil, 3)
	names = appendName(appendU32(names, 0), "go.debug")
	names = appendName(appendU32(names, 1), "github.com_a_b_c.__T_.M")
	names = appendName(appendU32(names, 3), "math_big.addVW")
	name := appendName(nil, "name")
	name = appendSection(name, 0, appendName(nil, "mod")) // the module's name: skipped
	name = appendSection(name, 1, names)
	return appendSection(b, 0, name)
}

func TestParseModule(t *testing.T) {
	m, err := ParseModule(testModule())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range m.Funcs {
		got = append(got, f.Name+":"+string(rune('0'+len(f.Body)%10)))
	}
	if strings.Join(got, " ") != "github.com_a_b_c.__T_.M:2 :4 math_big.addVW:0" || len(m.Funcs[2].Body) != 200 {
		t.Errorf("functions %q (last body %d bytes): want the import's name skipped and bodies of 2, 4 and 200 bytes", got, len(m.Funcs[2].Body))
	}
	if m.Data != 8 {
		t.Errorf("data %d bytes, want 8", m.Data)
	}
	var secs []string
	for _, s := range m.Sections {
		secs = append(secs, s.Name)
	}
	if strings.Join(secs, ",") != "type,import,function,code,data,custom name" {
		t.Errorf("sections %q", secs)
	}
}

// A binary cut inside a section is refused with an error, never a panic;
// one cut between sections is a module of fewer sections.
func TestParseModuleRefusesTruncated(t *testing.T) {
	b := testModule()
	ends := map[int]int{8: 0} // where each section ends: the sections before
	for r, n := (reader{b: b, off: 8}), 1; r.off < len(b); n++ {
		r.byte()
		size, _ := r.u32()
		r.bytes(int(size))
		ends[r.off] = n
	}
	for n := range len(b) {
		m, err := ParseModule(b[:n])
		if secs, ok := ends[n]; ok {
			if err != nil || len(m.Sections) != secs {
				t.Errorf("cut after %d sections: %v", secs, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrNotWasm) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrMalformed) {
			t.Fatalf("cut at %d of %d bytes: %v, want one of the package's errors", n, len(b), err)
		}
	}
	if _, err := ParseModule(append([]byte("\x00asm\x02\x00\x00\x00"), testModule()[8:]...)); !errors.Is(err, ErrNotWasm) {
		t.Errorf("version 2: %v, want ErrNotWasm", err)
	}
}

func FuzzParseModule(f *testing.F) {
	f.Add(testModule())
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0a\x05\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseModule(b)
		if err != nil {
			return
		}
		code := 0
		for _, fn := range m.Funcs {
			code += len(fn.Body)
		}
		if code > len(b) || m.Data > len(b) {
			t.Fatalf("%d bytes of code and %d of data in a %d-byte binary", code, m.Data, len(b))
		}
	})
}

// A binary without its name section (-ldflags=-s) is refused by
// ParseNamed: its table would be one "(unnamed)" row.
func TestParseNamedRefusesStripped(t *testing.T) {
	b := testModule()
	m, err := ParseModule(b)
	if err != nil {
		t.Fatal(err)
	}
	last := m.Sections[len(m.Sections)-1]
	stripped := b[:len(b)-last.Size-2] // the name section: id, a 1-byte size, payload
	if _, err := ParseNamed(stripped); !errors.Is(err, ErrNoNames) {
		t.Errorf("stripped: %v, want ErrNoNames", err)
	}
	if _, err := ParseNamed(b); err != nil {
		t.Errorf("named: %v", err)
	}
}
