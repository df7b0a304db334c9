package jsonpos

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Str, Bool, Obj and Arr build values for editing.
func Str(s string) *Value { return &Value{Kind: String, Str: s} }

// BoolValue builds a boolean.
func BoolValue(b bool) *Value { return &Value{Kind: Bool, Bool: b} }

// Obj builds an object from key, value pairs in order.
func Obj(kv ...any) *Value {
	v := &Value{Kind: Object}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Members = append(v.Members, Member{Key: kv[i].(string), Value: kv[i+1].(*Value)})
	}
	return v
}

// Arr builds an array.
func Arr(elems ...*Value) *Value { return &Value{Kind: Array, Elems: elems} }

// Set replaces the last member named key, or appends it.
func (v *Value) Set(key string, val *Value) {
	for i := len(v.Members) - 1; i >= 0; i-- {
		if v.Members[i].Key == key {
			v.Members[i].Value = val
			return
		}
	}
	v.Members = append(v.Members, Member{Key: key, Value: val})
}

// At returns the member named key when it is of kind, else sets it to an empty value of that
// kind (Object or Array) and returns that.
func (v *Value) At(key string, kind Kind) *Value {
	m := v.Get(key)
	if m == nil || m.Kind != kind {
		m = &Value{Kind: kind}
		v.Set(key, m)
	}
	return m
}

// Delete removes every member named key.
func (v *Value) Delete(key string) {
	out := v.Members[:0]
	for _, m := range v.Members {
		if m.Key != key {
			out = append(out, m)
		}
	}
	v.Members = out
}

// Encode writes the value as indented JSON, keeping the order of object members.
func (v *Value) Encode() []byte {
	var b bytes.Buffer
	v.encode(&b, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func (v *Value) encode(b *bytes.Buffer, depth int) {
	indent := func(d int) { b.WriteString("\n" + strings.Repeat("  ", d)) }
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case Number:
		b.WriteString(string(v.Num))
	case String:
		writeString(b, v.Str)
	case Array:
		if len(v.Elems) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			e.encode(b, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case Object:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeString(b, m.Key)
			b.WriteString(": ")
			m.Value.encode(b, depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
