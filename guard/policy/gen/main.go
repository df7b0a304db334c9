// Command gen writes default_gen.go, default.yaml packed into tables (see ../defaultpack.go),
// as Go code: run by `go generate ./guard/policy`. It builds the package it writes into, so
// after a change to the tables' types default_gen.go must first be a stub that compiles:
//
//	package policy
//
//	func defaultCompiled() *Policy { return nil }
package main

import (
	"go/format"
	"log"
	"os"

	"github.com/agenthooks/agenthooks/guard/policy"
)

func main() {
	src, err := generate()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("default_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}

// generate is default_gen.go's content.
func generate() ([]byte, error) {
	src, err := policy.DefaultSource()
	if err != nil {
		return nil, err
	}
	return format.Source(src)
}
