package shell

import "mvdan.cc/sh/v3/syntax"

// mask returns src with the contents of quoted strings, comments and heredoc bodies replaced by
// spaces (newlines kept), so that a regex rule sees only the code, never the data.
func mask(src string, file *syntax.File) string {
	b := []byte(src)
	blank := func(from, to int) {
		for i := max(from, 0); i < to && i < len(b); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted:
			start := int(n.Pos().Offset()) + 1
			if n.Dollar {
				start++
			}
			blank(start, int(n.End().Offset())-1)
			return false
		case *syntax.DblQuoted:
			start := int(n.Pos().Offset()) + 1
			if n.Dollar {
				start++
			}
			blank(start, int(n.End().Offset())-1)
			return false
		case *syntax.Comment:
			blank(int(n.Pos().Offset()), int(n.End().Offset()))
		case *syntax.Redirect:
			if n.Hdoc != nil {
				blank(int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset()))
			}
		}
		return true
	})
	for _, c := range file.Last {
		blank(int(c.Pos().Offset()), int(c.End().Offset()))
	}
	return string(b)
}
