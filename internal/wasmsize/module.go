package wasmsize

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Module is what wasmsize reads of a WebAssembly binary: the size of each
// section, each function's body with its name (from the "name" custom
// section, which `go build` writes unless -ldflags=-s strips it), and the
// data segments' total.
type Module struct {
	// Sections are the sections in file order, each with its payload's
	// size in bytes (custom sections named, as "custom name").
	Sections []Section
	// Funcs are the functions the module defines (imports excluded), in
	// index order: each body's bytes and its name, "" when unnamed.
	Funcs []Func
	// Data is the bytes of the data segments' contents.
	Data int
}

// Section is one section of a module.
type Section struct {
	Name string
	Size int
}

// Func is one function the module defines.
type Func struct {
	Name string
	Body []byte
}

// The section ids of the WebAssembly binary format.
const (
	secCustom = 0
	secImport = 2
	secCode   = 10
	secData   = 11
)

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount", "tag"}

// Errors of ParseModule.
var (
	ErrNotWasm   = errors.New("wasmsize: not a WebAssembly binary (no \\0asm version 1 header)")
	ErrTruncated = errors.New("wasmsize: the binary ends inside a section")
	ErrMalformed = errors.New("wasmsize: malformed section")
	ErrNoNames   = errors.New("wasmsize: the functions have no names")
)

// ParseModule reads the sections, function bodies and names of the
// WebAssembly binary b. The bodies are slices of b.
func ParseModule(b []byte) (*Module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" || binary.LittleEndian.Uint32(b[4:8]) != 1 {
		return nil, ErrNotWasm
	}
	m := &Module{}
	r := reader{b: b, off: 8}
	imported := 0
	var names map[uint32]string
	for r.off < len(r.b) {
		id, payload, err := r.section()
		if err != nil {
			return nil, err
		}
		sr := reader{b: payload}
		name := fmt.Sprintf("section %d", id)
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		switch id {
		case secCustom:
			cname, err := sr.name()
			if err != nil {
				return nil, fmt.Errorf("%w: custom section's name: %w", ErrMalformed, err)
			}
			name = "custom " + cname
			if cname == "name" {
				if names, err = functionNames(sr); err != nil {
					return nil, fmt.Errorf("%w: name section: %w", ErrMalformed, err)
				}
			}
		case secImport:
			if imported, err = importedFuncs(sr); err != nil {
				return nil, fmt.Errorf("%w: import section: %w", ErrMalformed, err)
			}
		case secCode:
			if m.Funcs, err = bodies(sr); err != nil {
				return nil, fmt.Errorf("%w: code section: %w", ErrMalformed, err)
			}
		case secData:
			if m.Data, err = dataBytes(sr); err != nil {
				return nil, fmt.Errorf("%w: data section: %w", ErrMalformed, err)
			}
		}
		m.Sections = append(m.Sections, Section{Name: name, Size: len(payload)})
	}
	for i := range m.Funcs {
		m.Funcs[i].Name = names[uint32(imported+i)]
	}
	return m, nil
}

// importedFuncs counts the functions among the imports: they come first
// in the index space of functions.
func importedFuncs(r reader) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	funcs := 0
	for range n {
		if _, err := r.name(); err != nil {
			return 0, err
		}
		if _, err := r.name(); err != nil {
			return 0, err
		}
		kind, err := r.byte()
		if err != nil {
			return 0, err
		}
		switch kind {
		case 0: // function: its type's index
			funcs++
			_, err = r.u32()
		case 1: // table: the element type, then limits
			if _, err = r.byte(); err == nil {
				err = r.limits()
			}
		case 2: // memory: limits
			err = r.limits()
		case 3: // global: the value type and mutability
			if _, err = r.byte(); err == nil {
				_, err = r.byte()
			}
		case 4: // tag: an attribute and a type index
			if _, err = r.byte(); err == nil {
				_, err = r.u32()
			}
		default:
			return 0, fmt.Errorf("import of kind %d", kind)
		}
		if err != nil {
			return 0, err
		}
	}
	return funcs, nil
}

// bodies returns the code section's function bodies.
func bodies(r reader) ([]Func, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	if int(n) > len(r.b)-r.off { // each body takes a byte at least
		return nil, fmt.Errorf("%d bodies in %d bytes", n, len(r.b)-r.off)
	}
	fs := make([]Func, n)
	for i := range fs {
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if fs[i].Body, err = r.bytes(int(size)); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// dataBytes totals the data segments' contents.
func dataBytes(r reader) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	total := 0
	for range n {
		flags, err := r.u32()
		if err != nil {
			return 0, err
		}
		if flags == 2 { // active, with a memory index
			if _, err := r.u32(); err != nil {
				return 0, err
			}
		}
		if flags != 1 { // active: an offset expression, up to its end (0x0b)
			for {
				op, err := r.byte()
				if err != nil {
					return 0, err
				}
				if op == 0x0b {
					break
				}
			}
		}
		size, err := r.u32()
		if err != nil {
			return 0, err
		}
		if _, err := r.bytes(int(size)); err != nil {
			return 0, err
		}
		total += int(size)
	}
	return total, nil
}

// functionNames reads the function names subsection (id 1) of a "name"
// custom section.
func functionNames(r reader) (map[uint32]string, error) {
	for r.off < len(r.b) {
		id, sub, err := r.section()
		if err != nil {
			return nil, err
		}
		if id != 1 {
			continue
		}
		sr := reader{b: sub}
		n, err := sr.u32()
		if err != nil {
			return nil, err
		}
		names := make(map[uint32]string, min(int(n), len(sub)))
		for range n {
			idx, err := sr.u32()
			if err != nil {
				return nil, err
			}
			name, err := sr.name()
			if err != nil {
				return nil, err
			}
			names[idx] = name
		}
		return names, nil
	}
	return nil, nil
}

// reader reads the binary format's values from b at off.
type reader struct {
	b   []byte
	off int
}

// section reads what a module's sections and a name section's subsections
// are alike: an id byte, then a payload of a LEB128 size.
func (r *reader) section() (id byte, payload []byte, err error) {
	if id, err = r.byte(); err != nil {
		return 0, nil, err
	}
	size, err := r.u32()
	if err != nil {
		return 0, nil, err
	}
	if payload, err = r.bytes(int(size)); err != nil {
		return 0, nil, err
	}
	return id, payload, nil
}

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, ErrTruncated
	}
	r.off++
	return r.b[r.off-1], nil
}

// u32 reads an unsigned LEB128 of at most 5 bytes.
func (r *reader) u32() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, fmt.Errorf("%w: a LEB128 longer than 5 bytes", ErrMalformed)
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n < 0 || n > len(r.b)-r.off {
		return nil, ErrTruncated
	}
	r.off += n
	return r.b[r.off-n : r.off], nil
}

func (r *reader) name() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	b, err := r.bytes(int(n))
	return string(b), err
}

func (r *reader) limits() error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if _, err := r.u32(); err != nil {
		return err
	}
	if flags&1 != 0 {
		_, err = r.u32()
	}
	return err
}
