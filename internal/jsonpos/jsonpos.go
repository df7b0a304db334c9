// Package jsonpos decodes JSON into a tree that remembers where each key and value starts, so that
// config validation can report file:line:col. It uses encoding/json's tokenizer, bounds the nesting
// depth, and rejects trailing data. It imports nothing from agenthooks.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Kind is the JSON type of a value.
type Kind int

// The kinds, in the order JavaScript's typeof would name them.
const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// Value is one decoded JSON value and where it starts.
type Value struct {
	Kind    Kind
	Off     int // byte offset of the value's first character
	Bool    bool
	Num     json.Number
	Str     string
	Members []Member // objects, in file order (duplicates kept)
	Elems   []*Value // arrays
}

// Member is one key of an object.
type Member struct {
	Key    string
	KeyOff int
	Value  *Value
}

// Get returns the last member named key (JSON.parse keeps the last duplicate), or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			return v.Members[i].Value
		}
	}
	return nil
}

// SyntaxError is malformed JSON at a byte offset.
type SyntaxError struct {
	Off int
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Parse decodes data, which must hold exactly one JSON value nested at most maxDepth deep.
func Parse(data []byte, maxDepth int) (*Value, error) {
	p := &parser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), max: maxDepth}
	p.dec.UseNumber()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, &SyntaxError{Off: p.next(), Msg: "unexpected data after the top-level value"}
	}
	return v, nil
}

type parser struct {
	data []byte
	dec  *json.Decoder
	max  int
}

// next returns the offset where the next token starts, skipping white space and separators.
func (p *parser) next() int {
	off := int(p.dec.InputOffset())
	for off < len(p.data) {
		switch p.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *parser) token() (json.Token, int, error) {
	off := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			return nil, int(se.Offset), &SyntaxError{Off: int(se.Offset), Msg: se.Error()}
		case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
			return nil, len(p.data), &SyntaxError{Off: len(p.data), Msg: "unexpected end of JSON input"}
		}
		return nil, off, &SyntaxError{Off: off, Msg: err.Error()}
	}
	return tok, off, nil
}

func (p *parser) value(depth int) (*Value, error) {
	tok, off, err := p.token()
	if err != nil {
		return nil, err
	}
	return p.fromToken(tok, off, depth)
}

func (p *parser) fromToken(tok json.Token, off, depth int) (*Value, error) {
	v := &Value{Off: off}
	switch t := tok.(type) {
	case nil:
		v.Kind = Null
	case bool:
		v.Kind, v.Bool = Bool, t
	case json.Number:
		v.Kind, v.Num = Number, t
	case string:
		v.Kind, v.Str = String, t
	case json.Delim:
		if depth >= p.max {
			return nil, &SyntaxError{Off: off, Msg: fmt.Sprintf("nested more than %d levels deep", p.max)}
		}
		if t == '{' {
			v.Kind = Object
			return v, p.object(v, depth+1)
		}
		v.Kind = Array
		return v, p.array(v, depth+1)
	}
	return v, nil
}

func (p *parser) object(v *Value, depth int) error {
	for {
		tok, off, err := p.token()
		if err != nil {
			return err
		}
		if tok == json.Delim('}') {
			return nil
		}
		key, ok := tok.(string)
		if !ok {
			return &SyntaxError{Off: off, Msg: "expected an object key"}
		}
		val, err := p.value(depth)
		if err != nil {
			return err
		}
		v.Members = append(v.Members, Member{Key: key, KeyOff: off, Value: val})
	}
}

func (p *parser) array(v *Value, depth int) error {
	for {
		tok, off, err := p.token()
		if err != nil {
			return err
		}
		if tok == json.Delim(']') {
			return nil
		}
		val, err := p.fromToken(tok, off, depth)
		if err != nil {
			return err
		}
		v.Elems = append(v.Elems, val)
	}
}
