package shell

import (
	"slices"
	"testing"
)

// wordSets are every words set of the package, by name: a set out of order would miss words
// without a sound, so each is checked sorted and free of repeats.
var wordSets = map[string]words{"sudoValueOpts": sudoValueOpts, "niceValueOpts": niceValueOpts, "ioniceValueOpts": ioniceValueOpts,
	"stdbufValueOpts": stdbufValueOpts, "timeoutValueOpts": timeoutValueOpts, "execValueOpts": execValueOpts, "watchValueOpts": watchValueOpts,
	"flockValueOpts": flockValueOpts, "chrootValueOpts": chrootValueOpts, "xargsValueOpts": xargsValueOpts, "timeValueOpts": timeValueOpts,
	"plainWrappers": plainWrappers, "shells": shells, "findActions": findActions, "findFilters": findFilters, "downloaders": downloaders,
	"fanoutOpts": fanoutOpts, "saltShell": saltShell, "gitCommandKeys": gitCommandKeys, "gitCommandEnv": gitCommandEnv,
	"runnerOpts": runnerOpts, "straceOpts": straceOpts, "sshOpts": sshOpts, "dockerRunOpts": dockerRunOpts, "kubectlExecOpts": kubectlExecOpts,
	"watchexecOpts": watchexecOpts, "hyperfineOpts": hyperfineOpts, "hyperfineCommands": hyperfineCommands, "packageDeleters": packageDeleters,
	"tclRedirects": tclRedirects, "windowsShells": windowsShells, "deleters": deleters,
	"argvRunner(retry)": argvRunnerOpts("retry"), "argvRunner(daemonize)": argvRunnerOpts("daemonize"),
	"argvRunner(runuser)": argvRunnerOpts("runuser"), "argvRunner(pkexec)": argvRunnerOpts("pkexec"),
	"argvRunner(setpriv)": argvRunnerOpts("setpriv")}

func argvRunnerOpts(name string) words {
	opts, _ := argvRunner(name)
	return opts
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

// FuzzWordsAsMap: has answers what a map of the same words would, for any word.
func FuzzWordsAsMap(f *testing.F) {
	for _, w := range wordSets {
		for _, s := range w {
			f.Add(s)
		}
	}
	f.Add("")
	f.Add("bashx")
	f.Fuzz(func(t *testing.T, s string) {
		for name, w := range wordSets {
			if got, want := w.has(s), slices.Contains(w, s); got != want {
				t.Fatalf("%s.has(%q) = %v, a map says %v", name, s, got, want)
			}
		}
	})
}
