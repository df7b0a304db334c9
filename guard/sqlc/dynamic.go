package sqlc

import "strings"

// Statements a database builds and runs itself (EXECUTE 'DR' || 'OP TABLE users', EXECUTE
// format('DROP TABLE %I', t), EXECUTE 'TRUNCATE ' || r.tablename in a loop over pg_tables):
// the text is folded as the server would concatenate it, with every operand the classifier
// cannot know (a variable, a column, a call) standing as one computed name, and classified.
// DROP TABLE of a computed name destroys a table whatever its name; a verb that is itself
// computed stays unknown.

// computedName stands, in folded dynamic SQL, for a part only known when it runs.
const computedName = "computed_name"

// dynamicSQLOf judges the expression toks that EXECUTE (or EXECUTE IMMEDIATE, PREPARE) runs:
// as the text it folds to, or, when it holds no literal, literal by literal.
func (c *classifier) dynamicSQLOf(src string, toks []token, depth int, why string) verdict {
	if text, ok := foldSQL(src, toks); ok {
		if strings.HasPrefix(strings.TrimSpace(text), computedName) {
			return unknown("dynamic-sql", why+" whose verb is not known until it runs")
		}
		v := c.sqlSub(Postgres, text, depth+1)
		switch v.effect {
		case Destroy, Shell:
			v.reason = why + ": " + v.reason
		case Unknown:
			v = unknown("dynamic-sql", why+", and its text cannot be known")
		default:
			v.kind, v.reason = "dynamic-sql", why
		}
		return v
	}
	return c.dynamicSQL(src, stmt{src: src, toks: toks}.literals(0, len(toks)), depth, why)
}

// foldSQL concatenates the string expression toks: literals joined by ||, format(...) with its
// %I, %L and %s as computed names, concat(...) and concat_ws(...) of their arguments; any
// other operand is one computed name. ok is false when nothing in it is a literal.
func foldSQL(src string, toks []token) (string, bool) {
	var b strings.Builder
	literal, lastComputed := false, false
	computed := func() {
		if !lastComputed {
			b.WriteString(computedName)
		}
		lastComputed = true
	}
	for k := 0; k < len(toks) && b.Len() < 1<<16; k++ {
		t := toks[k]
		text := t.text(src)
		switch {
		case t.kind == tString:
			b.WriteString(t.value(src))
			literal, lastComputed = true, false
		case t.kind == tPunct && (text == "||" || text == "," || text == ")" || text == "("):
		case t.kind == tPunct && text == ".":
			k++ // r.tablename: the member of what was already a computed name
		case t.kind == tWord && (t.is(src, "concat") || t.is(src, "concat_ws")) && k+1 < len(toks) && toks[k+1].text(src) == "(":
			k++ // its arguments are folded in turn
		case t.kind == tWord && t.is(src, "format") && k+2 < len(toks) && toks[k+1].text(src) == "(" && toks[k+2].kind == tString:
			f := toks[k+2].value(src)
			for _, spec := range []string{"%I", "%L", "%s", "%1$I", "%1$s", "%2$I", "%2$s"} {
				f = strings.ReplaceAll(f, spec, computedName)
			}
			b.WriteString(f)
			literal, lastComputed = true, strings.HasSuffix(f, computedName)
			k = closingParen(src, toks, k+1)
		case t.kind == tWord && k+1 < len(toks) && toks[k+1].text(src) == "(":
			computed() // quote_ident(t), lower(x): a call
			k = closingParen(src, toks, k+1)
		default:
			computed()
		}
	}
	return b.String(), literal
}

// closingParen returns the index of the ) that closes the ( at open, or the last index.
func closingParen(src string, toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].text(src) {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(toks) - 1
}
