//go:build !unix

package main

import "os/exec"

// killTreeOnCancel leaves exec's default: the tool itself is killed when its context ends (the
// comparison runs on Linux; elsewhere it only needs to build).
func killTreeOnCancel(cmd *exec.Cmd) {}
