// Package helperbin finds agenthooks' helper binaries (agenthooks-scan, agenthooks-server),
// which live apart from agenthooks so that the hook hot path does not link what they need.
// It imports only the standard library.
package helperbin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Find returns the helper called name: the path in the environment variable envVar when set,
// else name beside this executable, else name in PATH. The error says how to install it.
func Find(getenv func(string) string, envVar, name, what string) (string, error) {
	if p := getenv(envVar); p != "" {
		return p, nil
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s %s is not installed beside agenthooks or in PATH (CGO_ENABLED=0 go install github.com/agenthooks/agenthooks/cmd/%s@latest)", what, name, name)
	}
	return p, nil
}
