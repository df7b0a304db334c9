package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedIsCurrent: default_gen.go is what `go generate ./guard/policy` writes from
// default.yaml now.
func TestGeneratedIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../default_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("guard/policy/default_gen.go is out of date: run go generate ./guard/policy")
	}
}
