package dialect

import (
	"path/filepath"
	"testing"
)

// TestUserDir: the agent's user folder is HomeEnv's value, else Path under the first of
// HomeVars that is set, else ~/Dir; the variable that moved it is named.
func TestUserDir(t *testing.T) {
	a := &Agent{Dir: ".config/crush", HomeEnv: "CRUSH_GLOBAL_CONFIG", HomeVars: []HomeVar{{Env: "XDG_CONFIG_HOME", Path: "crush"}, {Env: "LATER", Path: "x/y"}}}
	for _, c := range []struct {
		name    string
		env     map[string]string
		home    string
		dir, by string
	}{
		{"none", nil, "/h", filepath.Join("/h", ".config", "crush"), ""},
		{"HomeEnv first", map[string]string{"CRUSH_GLOBAL_CONFIG": "/g", "XDG_CONFIG_HOME": "/x"}, "/h", "/g", "CRUSH_GLOBAL_CONFIG"},
		{"a HomeVar's Path", map[string]string{"XDG_CONFIG_HOME": "/x"}, "/h", filepath.Join("/x", "crush"), "XDG_CONFIG_HOME"},
		{"in order", map[string]string{"LATER": "/l", "XDG_CONFIG_HOME": "/x"}, "/h", filepath.Join("/x", "crush"), "XDG_CONFIG_HOME"},
		{"a later one", map[string]string{"LATER": "/l"}, "/h", filepath.Join("/l", "x", "y"), "LATER"},
		{"no home", nil, "", "", ""},
	} {
		dir, by := a.UserDir(c.home, func(k string) string { return c.env[k] })
		if dir != c.dir || by != c.by {
			t.Errorf("%s: %q by %q, want %q by %q", c.name, dir, by, c.dir, c.by)
		}
	}
	if dir, by := a.UserDir("/h", nil); dir != filepath.Join("/h", ".config", "crush") || by != "" {
		t.Errorf("without getenv: %q by %q", dir, by)
	}
}
