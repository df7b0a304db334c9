package jsonpos

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripKeepsOrderAndValues(t *testing.T) {
	t.Parallel()
	src := `{"z": 1, "a": [true, null, 2.50, "x<y>"], "m": {"b": {}, "a": []}, "n": -0.0}`
	v, err := Parse([]byte(src), 32)
	if err != nil {
		t.Fatal(err)
	}
	out := v.Encode()
	var a, b any
	json.Unmarshal([]byte(src), &a)
	json.Unmarshal(out, &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("values changed:\n%s", out)
	}
	want := "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    null,\n    2.50,\n    \"x<y>\"\n  ],\n  \"m\": {\n    \"b\": {},\n    \"a\": []\n  },\n  \"n\": -0.0\n}\n"
	if string(out) != want {
		t.Fatalf("got\n%s", out)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for src, off := range map[string]int{`{"a":}`: 5, `[1,2`: 4, `{} x`: 3, `{"a" 1}`: 5, `"\x"`: 2} {
		_, err := Parse([]byte(src), 32)
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if se.Off > len(src) || se.Off < 0 {
			t.Errorf("%s: offset %d", src, se.Off)
		}
		_ = off
	}
	if _, err := Parse([]byte(`[[[[1]]]]`), 3); err == nil {
		t.Error("depth limit not enforced")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":null}]}`, `[]`, `"x"`, `{"a":1,"a":2}`, `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data, 16)
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Parse accepted what is not valid JSON: %q", data)
		}
		v2, err := Parse(v.Encode(), 16)
		if err != nil {
			t.Fatalf("re-encoded value does not parse: %v", err)
		}
		if !bytes.Equal(v.Encode(), v2.Encode()) {
			t.Fatal("encode is not stable")
		}
	})
}

// TestAt: At returns a member of the kind asked for, and replaces one of another kind or none
// with an empty one, in place.
func TestAt(t *testing.T) {
	t.Parallel()
	v, err := Parse([]byte(`{"a": [1], "b": 2}`), 10)
	if err != nil {
		t.Fatal(err)
	}
	if a := v.At("a", Array); len(a.Elems) != 1 {
		t.Errorf("a: %+v", a)
	}
	if b := v.At("b", Object); b.Kind != Object || len(b.Members) != 0 || v.Get("b") != b {
		t.Errorf("b: %+v", b)
	}
	v.At("c", Array).Elems = append(v.At("c", Array).Elems, Str("x"))
	if got := string(v.Encode()); !strings.Contains(got, `"c": [`) || !strings.Contains(got, `"x"`) {
		t.Errorf("encoded:\n%s", got)
	}
}
