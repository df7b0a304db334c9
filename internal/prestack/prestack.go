// Package prestack grows the main goroutine's stack once, as the process starts, to the 32 KB
// that `agenthooks guard bash` reaches on an ordinary command.
//
// A goroutine starts with 8 KB of stack and doubles it when a call needs more: the runtime
// allocates the new stack, copies the old one and adjusts every frame on it, reading each
// function's tables to do so. Left alone, the guard's stack doubles two or three times, each
// time deep inside a parser, the regular expressions mvdan.cc/sh compiles at initialisation or
// the JSON decoder, with many frames to adjust: about 0.19M instructions of a 1.85M-instruction
// process, and pages of those tables read for nothing else. Grown here, at the start of package
// initialisation, it is copied once with a few frames on it. The frame below is zeroed by the
// compiler, so it touches only the pages the guard would have touched anyway.
//
// Only cmd/agenthooks imports it, and its import path sorts before every package it must
// precede, so it initialises among the first (cmd/agenthooks's TestLeanInit checks it runs
// before mvdan.cc/sh/v3/fileutil). A goroutine that needs more grows as usual.
package prestack

// frameSize is the frame that makes the runtime grow an 8 KB stack straight to 32 KB.
const frameSize = 16 << 10

//go:noinline
func grow(i int) byte {
	var frame [frameSize]byte
	frame[i] = 1
	return frame[i/2]
}

// sink keeps grow's result, so that the compiler keeps its frame.
var sink byte

func init() { sink = grow(0) }
