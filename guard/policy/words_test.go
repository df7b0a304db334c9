package policy

import (
	"slices"
	"testing"
)

// wordSets are every words set of the package, by name: a set out of order would miss words
// without a sound, so each is checked sorted and free of repeats.
var wordSets = map[string]words{"readers": readers, "deleters": deleters, "writers": writers, "copiers": copiers,
	"gitWorkTree": gitWorkTree, "selfCommands": selfCommands, "agentConfigVerbs": agentConfigVerbs,
	"agentConfigNouns": agentConfigNouns, "writeModes": writeModes, "shadowed": shadowed, "senders": senders, "listers": listers,
	"nodeRemoves": nodeRemoves, "yarnRemoves": yarnRemoves, "systemRemoves": systemRemoves, "otherRemoves": otherRemoves,
	"builtins": builtins, "redisValueOpts": redisValueOpts, "composeValueOpts": composeValueOpts, "movers": movers,
	"systemDirs": systemDirs, "gitCore": gitCore, "httpValueOpts": httpValueOpts, "publicRegistries": publicRegistries,
	"describers": describers, "asksAbout": asksAbout, "shellHistories": shellHistories,
	"destructiveVerbs": destructiveVerbs, "forceFlags": forceFlags, "describeFlags": describeFlags}

func init() {
	for _, g := range globalOpts {
		wordSets["globalValueOpts("+g.cmd+")"] = g.opts
	}
}

func TestWordsSorted(t *testing.T) {
	for name, w := range wordSets {
		if !slices.IsSorted(w) {
			t.Errorf("%s is not sorted: has() misses words", name)
		}
		if len(slices.Compact(slices.Clone(w))) != len(w) {
			t.Errorf("%s repeats a word", name)
		}
		if len(w) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
}

// FuzzWordsAsMap: has answers what the map the sets were before answers, for any word.
func FuzzWordsAsMap(f *testing.F) {
	for _, w := range wordSets {
		for _, s := range w {
			f.Add(s)
		}
	}
	f.Add("")
	f.Add("rmx")
	maps := map[string]map[string]bool{}
	for name, w := range wordSets {
		maps[name] = set(w...)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, w := range wordSets {
			if got, want := w.has(s), maps[name][s]; got != want {
				t.Fatalf("%s.has(%q) = %v, the map says %v", name, s, got, want)
			}
		}
	})
}

// TestRelatesUncleanSibling: a target written with an empty element beside a protected file
// whose siblings are protected too (the audit trail's journals) is judged, not a panic.
func TestRelatesUncleanSibling(t *testing.T) {
	pr := newProtector(Context{Home: "/home/a"})
	p := &Protected{Path: "/home/a/.claude", Prefix: true}
	for _, target := range []string{"/home//a/.claude", "/home/a/.claude", "/home/a/.claude-x"} {
		pr.relates(opWrite, target, false, p)
	}
	if !pr.relates(opWrite, "/home/a/.claude-x", false, p) {
		t.Error("a sibling whose name starts with the protected file's and a dash is not protected")
	}
}
