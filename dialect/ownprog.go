package dialect

// GuardProgram is the name of the shell guard's own binary. `agenthooks-guard bash FLAGS` is
// `agenthooks guard bash FLAGS`, in a program that links nothing but the guard, so that the
// process an agent starts before every shell command starts faster. install writes it where it
// lies beside agenthooks (InstallEntry.Guard).
const GuardProgram = "agenthooks-guard"

// OwnArgs reports whether name, the name of a program as the shell analyser gives it, is one of
// agenthooks' programs that hooks run, and returns the arguments agenthooks would take for the
// same call: args for agenthooks, "guard" and args for agenthooks-guard. Code that recognises
// agenthooks' own hooks in an agent's files goes through it, so that both spellings are one.
func OwnArgs(name string, args []string) ([]string, bool) {
	switch name {
	case "agenthooks":
		return args, true
	case GuardProgram:
		return append([]string{"guard"}, args...), true
	}
	return nil, false
}
