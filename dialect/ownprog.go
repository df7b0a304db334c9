package dialect

import "strings"

// GuardProgram is the name of the shell guard's own binary. `agenthooks-guard bash FLAGS` is
// `agenthooks guard bash FLAGS`, in a program that links nothing but the guard, so that the
// process an agent starts before every shell command starts faster. install writes it where it
// lies beside agenthooks (InstallEntry.Guard).
const GuardProgram = "agenthooks-guard"

// OwnArgs reports whether name, the name of a program as the shell analyser gives it, is one of
// agenthooks' programs that hooks run, and returns the arguments agenthooks would take for the
// same call: args for agenthooks, "guard" and args for agenthooks-guard. Code that recognises
// agenthooks' own hooks in an agent's files goes through it, so that both spellings are one.
//
// name may be a path, with slashes or a Windows path's backslashes (the shell analyser names a
// program by what follows the last slash only), and a Windows program's ".exe" in any case:
// install writes 'C:\…\agenthooks.exe' on Windows.
func OwnArgs(name string, args []string) ([]string, bool) {
	switch OwnName(name) {
	case "agenthooks":
		return args, true
	case GuardProgram:
		return append([]string{"guard"}, args...), true
	}
	return nil, false
}

// OwnName is the agenthooks program name calls ("agenthooks" or GuardProgram), "" for any
// other, as OwnArgs reads name.
func OwnName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = strings.ToLower(name[:len(name)-4])
	}
	if name == "agenthooks" || name == GuardProgram {
		return name
	}
	return ""
}
