package shell

import (
	"path"
	"strings"
)

// A program the command line puts in a folder and then runs by a bare name, through a PATH it
// changed to search that folder first: PATH=/tmp/x:$PATH; cp /bin/rm /tmp/x/ls; ls -rf ~ runs
// rm. The copies (cp, install, ln, mv) are remembered by destination with the program they
// copy; a later command name that such a copy shadows is read as that program, and one that a
// file of unknown content shadows is a program not known until it runs.

// rememberPlaced keeps what a cp, install, ln or mv puts at each destination: the source when it
// is one static path, else "" (not known).
func (a *analyzer) rememberPlaced(name string, args []Word) {
	var pos []Word
	target := ""
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case (v == "-t" || v == "--target-directory") && i+1 < len(args):
			target = args[i+1].Value + "/"
			i++
		case strings.HasPrefix(v, "--target-directory="):
			target = strings.TrimPrefix(v, "--target-directory=") + "/"
		case (name == "install") && (v == "-m" || v == "--mode" || v == "-o" || v == "-g" || v == "--owner" || v == "--group") && i+1 < len(args):
			i++
		case strings.HasPrefix(v, "-") && args[i].Static:
		default:
			pos = append(pos, args[i])
		}
	}
	if target == "" {
		if len(pos) < 2 {
			return
		}
		target = pos[len(pos)-1].Value
		pos = pos[:len(pos)-1]
	}
	if strings.Contains(target, Dyn) {
		return
	}
	for _, src := range pos {
		dest := target
		if strings.HasSuffix(dest, "/") || len(pos) > 1 || a.isPlacedDir(dest) {
			dest = path.Join(dest, path.Base(src.Value))
		}
		if !path.IsAbs(dest) {
			if a.cwd == "" {
				continue
			}
			dest = path.Join(a.cwd, dest)
		}
		prog := ""
		if src.Static && !src.Glob && (path.IsAbs(src.Value) || a.cwd != "") {
			prog = src.Value
			if !path.IsAbs(prog) {
				prog = path.Join(a.cwd, prog)
			}
			if p, ok := a.placed[prog]; ok {
				prog = p // copied twice
			}
		}
		if a.placed == nil {
			a.placed = map[string]string{}
		}
		if len(a.placed) < 64 {
			a.placed[path.Clean(dest)] = prog
		}
		if (name == "mv" || name == "gmv") && prog != "" {
			if a.moved == nil {
				a.moved = map[string]string{}
			}
			if len(a.moved) < 64 {
				a.moved[path.Clean(dest)] = path.Clean(prog)
			}
		}
	}
}

// isPlacedDir reports whether dest is a folder a PATH assigned in the command line names.
func (a *analyzer) isPlacedDir(dest string) bool {
	for _, dir := range a.pathDirs() {
		if path.Clean(dest) == dir {
			return true
		}
	}
	return false
}

// pathDirs are the folders PATH searches first that the command line itself named: the known
// entries before the first one that is not known ($PATH as it was).
func (a *analyzer) pathDirs() []string {
	p, ok := a.vars["PATH"]
	if !ok {
		return nil
	}
	var out []string
	for _, dir := range strings.Split(p, ":") {
		if strings.Contains(dir, Dyn) {
			break
		}
		if dir == "" || !path.IsAbs(dir) {
			dir = path.Join(a.cwd, dir)
		}
		out = append(out, path.Clean(dir))
	}
	return out
}

// shadowed returns the program a bare command name runs when a copy made earlier in the
// command line shadows it in PATH: its source ("" when not known), and the folder.
func (a *analyzer) shadowed(name string) (prog, dir string, ok bool) {
	if len(a.placed) == 0 && len(a.written) == 0 || strings.Contains(name, "/") {
		return "", "", false
	}
	for _, d := range a.pathDirs() {
		if p, found := a.placed[path.Join(d, name)]; found {
			return p, d, true
		}
		if _, found := a.written[path.Join(d, name)]; found {
			return path.Join(d, name), d, true // written or downloaded: run as a script
		}
	}
	return "", "", false
}

// rememberWrittenProgram keeps a file a redirection writes, to be run as a script by its path,
// when it lands in a folder PATH was pointed at (echo 'rm -rf ~' > /tmp/x/ls; chmod +x ...).
func (a *analyzer) rememberWrittenProgram(redirs []Redirect) {
	if a.vars["PATH"] == "" {
		return
	}
	for _, r := range redirs {
		if !strings.Contains(r.Op, ">") || !r.Target.Static {
			continue
		}
		dest := r.Target.Value
		if !path.IsAbs(dest) {
			if a.cwd == "" {
				continue
			}
			dest = path.Join(a.cwd, dest)
		}
		if a.isPlacedDir(path.Dir(dest)) {
			if a.placed == nil {
				a.placed = map[string]string{}
			}
			if len(a.placed) < 64 {
				a.placed[path.Clean(dest)] = path.Clean(dest) // run as a script: read when its text is known
			}
		}
	}
}

// throughMoves rewrites the paths a delete is given that lie in a place the command line moved
// something to (mv src /tmp/x && rm -rf /tmp/x) to where it came from: deleting it there is
// deleting the original.
func (a *analyzer) throughMoves(args []Word) []Word {
	out := args
	for i, w := range args {
		if i == 0 || !w.Static || strings.HasPrefix(w.Value, "-") {
			continue
		}
		p := w.Value
		if !path.IsAbs(p) {
			if a.cwd == "" {
				continue
			}
			p = path.Join(a.cwd, p)
		}
		p = path.Clean(p)
		for dest, src := range a.moved {
			rest, ok := strings.CutPrefix(p, dest)
			if !ok || rest != "" && rest[0] != '/' {
				continue
			}
			if &out[0] == &args[0] {
				out = append([]Word{}, args...)
			}
			out[i].Value = src + rest
			out[i].Raw = w.Display() + " (moved from " + src + ")"
			break
		}
	}
	return out
}
