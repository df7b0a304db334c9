package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
)

// ConfineMode says which shell commands the guard runs confined (agenthooks confine) instead
// of letting them run as they are.
type ConfineMode string

// The confine modes.
const (
	// ConfineOff confines nothing: the guard allows, asks and denies as the rules say.
	ConfineOff ConfineMode = "off"
	// ConfineAsk runs what the guard would ask about confined, without asking, for the agents
	// that can rewrite a command; the others keep asking.
	ConfineAsk ConfineMode = "ask"
	// ConfineAll runs every command the guard does not deny confined.
	ConfineAll ConfineMode = "all"
)

// Confine is the policy's confine section: what runs confined, what a confined command may
// write beside the project, its scratch folder and the toolchain caches, and its network.
type Confine struct {
	Mode ConfineMode
	// Writable are more folders or files a confined command may write: absolute, or under
	// the home folder as ~/...
	Writable []string
	// Network is none, ports (Ports only, and 53 for DNS) or all.
	Network string
	Ports   []uint16
	// Unconfined is what agenthooks confine does where it cannot confine (macOS, Windows, a
	// Linux kernel without Landlock): "refuse" (the default) or "warn", which runs the command
	// unconfined with a warning on stderr.
	Unconfined string
}

// DefaultConfine is the confine section of a policy that has none.
var DefaultConfine = Confine{Mode: ConfineAsk, Network: "all", Unconfined: "refuse"}

// ConfineSettings returns the policy's confine section, or DefaultConfine.
func (p *Policy) ConfineSettings() Confine {
	if p == nil || p.Confine == nil {
		return DefaultConfine
	}
	return *p.Confine
}

type rawConfine struct {
	Mode       any   `yaml:"mode"`
	Writable   []any `yaml:"writable"`
	Network    any   `yaml:"network"`
	Ports      []any `yaml:"ports"`
	Unconfined any   `yaml:"unconfined"`
}

// confine compiles the confine section.
func (c *compiler) confine(p *Policy, r *rawConfine) {
	if r == nil {
		return
	}
	out := DefaultConfine
	word := func(at string, v any, allowed ...string) string {
		s, ok := v.(string)
		for _, a := range allowed {
			if ok && s == a {
				return s
			}
		}
		c.errorf(at, "confine", "%s must be %s or %s, not %q", at[strings.LastIndex(at, ".")+1:],
			strings.Join(allowed[:len(allowed)-1], ", "), allowed[len(allowed)-1], fmt.Sprint(v))
		return ""
	}
	if r.Mode != nil {
		out.Mode = ConfineMode(word("$.confine.mode", r.Mode, "off", "ask", "all"))
	}
	if r.Network != nil {
		out.Network = word("$.confine.network", r.Network, "none", "ports", "all")
	}
	if r.Unconfined != nil {
		out.Unconfined = word("$.confine.unconfined", r.Unconfined, "refuse", "warn")
	}
	for i, w := range c.list("$.confine.writable", r.Writable) {
		// Confinement is Linux's (Landlock), so a policy names Linux folders; one policy file is
		// shared by every platform, so a Windows machine must not refuse it for them.
		if !path.IsAbs(w) && !filepath.IsAbs(w) && !strings.HasPrefix(w, "~/") {
			c.errorf(fmt.Sprintf("$.confine.writable[%d]", i), "confine", "a writable folder must be an absolute path or start with ~/, not %q", w)
			continue
		}
		out.Writable = append(out.Writable, w)
	}
	for i, v := range r.Ports {
		n, ok := v.(uint64)
		if !ok || n < 1 || n > 65535 {
			c.errorf(fmt.Sprintf("$.confine.ports[%d]", i), "confine", "a port must be a whole number from 1 to 65535")
			continue
		}
		out.Ports = append(out.Ports, uint16(n))
	}
	if len(r.Ports) > 0 && out.Network != "ports" {
		c.errorf("$.confine.ports", "confine", "ports are used only with network: ports")
	}
	p.Confine = &out
}
