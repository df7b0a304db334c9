package code

// A member chosen at run time (getattr(shutil, name), getattr(__import__('os'), 'sys'+x)) is
// judged as the most destructive member its module has: what the call does with its arguments
// is then read as that member would use them, so getattr(os, f)('rm -rf ~') is a shell-out of
// rm -rf ~ and getattr(shutil, f)('build') a recursive delete of build.

// mostDestructive returns the member of module (in lang) that does the most harm with the
// arguments a call passes, or "" for a module with no such member.
func mostDestructive(lang, module string) string {
	if lang != "python" {
		return ""
	}
	switch module {
	case "os", "posix", "nt":
		return "system"
	case "subprocess":
		return "run"
	case "shutil":
		return "rmtree"
	case "pty":
		return "spawn"
	case "commands":
		return "getoutput"
	}
	return ""
}

// getattrReceiver resolves the object getattr reads a member of: a name (through the
// imports) or a module imported in place (__import__('os'), importlib.import_module('os')).
// ok is false when it is neither.
func (s *scanner) getattrReceiver(a arg) (string, bool) {
	if a.b-a.a == 1 && s.toks[a.a].kind == tIdent {
		return s.resolveName(s.toks[a.a].val), true
	}
	if a.b-a.a < 3 || s.toks[a.a].kind != tIdent {
		return "", false
	}
	segs, end := s.chain(a.a)
	if end != a.b {
		return "", false
	}
	last := segs[len(segs)-1]
	if mod := s.moduleArg(last); mod != "" {
		return mod, true
	}
	return "", false
}
