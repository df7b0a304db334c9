package sqlc

import (
	"strconv"
	"strings"
)

// stmt is one statement's tokens with the text they point into.
type stmt struct {
	src  string
	toks []token
}

func (s stmt) kw(i int) string {
	if i < 0 || i >= len(s.toks) {
		return ""
	}
	return s.toks[i].upper(s.src)
}

func (s stmt) is(i int, kw string) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].is(s.src, kw)
}

func (s stmt) punct(i int, p string) bool {
	return i >= 0 && i < len(s.toks) && s.toks[i].kind == tPunct && s.toks[i].text(s.src) == p
}

// top returns the index of the first token at or after from, outside parentheses, that is one
// of the keywords, or -1.
func (s stmt) top(from int, kws ...string) int {
	depth := 0
	for i := from; i < len(s.toks); i++ {
		t := s.toks[i]
		if t.kind == tPunct {
			switch s.src[t.start] {
			case '(', '[':
				depth++
			case ')', ']':
				if depth > 0 {
					depth--
				}
			}
			continue
		}
		if depth == 0 && t.kind == tWord {
			for _, k := range kws {
				if t.is(s.src, k) {
					return i
				}
			}
		}
	}
	return -1
}

// closing returns the index of the parenthesis that closes the one at i (len when unclosed).
func (s stmt) closing(i int) int {
	depth := 0
	for j := i; j < len(s.toks); j++ {
		if s.toks[j].kind != tPunct {
			continue
		}
		switch s.src[s.toks[j].start] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(s.toks)
}

// sqlStmt classifies one SQL statement.
func (c *classifier) sqlStmt(src string, toks []token, depth int) verdict {
	if depth > MaxDepth {
		return unknown("too-deep", "statements nested too deep to read")
	}
	i := 0
	for i < len(toks) && toks[i].kind == tPunct && src[toks[i].start] == '(' {
		i++
	}
	if i >= len(toks) {
		return read("empty")
	}
	s := stmt{src: src, toks: toks[i:]}
	var v verdict
	switch s.toks[0].kind {
	case tWord:
		v = c.verb(s, depth)
	case tParam:
		v = unknown("variable", "the statement is held in a variable")
	default:
		v = unknown("unknown", "not a statement this classifier knows")
	}
	return v.worse(c.inner(s, depth))
}

// inner finds what runs inside a statement whatever its verb: functions with effects, and
// data-modifying statements in parentheses (PostgreSQL's WITH x AS (DELETE ...)).
func (c *classifier) inner(s stmt, depth int) verdict {
	w := read("")
	for j := 0; j < len(s.toks); j++ {
		t := s.toks[j]
		if t.kind == tPunct && s.src[t.start] == '(' && j+1 < len(s.toks) {
			switch s.toks[j+1].keyword(s.src) {
			case "DELETE", "UPDATE", "INSERT", "MERGE", "DROP", "TRUNCATE":
				e := s.closing(j)
				w = w.worse(c.sqlStmt(s.src, s.toks[j+1:min(e, len(s.toks))], depth+1))
				j = e
				continue
			}
		}
		if t.kind != tWord && t.kind != tQIdent || !s.punct(j+1, "(") {
			continue
		}
		name := t.keyword(s.src)
		if t.kind == tQIdent && t.ce-t.cs <= 32 {
			name = keywords()[strings.ToUpper(t.ident(s.src))] // "pg_terminate_backend"(pid)
		}
		if name == "" {
			continue
		}
		var f verdict
		switch name {
		case "PG_TERMINATE_BACKEND":
			f = destroy("kill-backend", "pg_terminate_backend ends database sessions")
		case "PG_DROP_REPLICATION_SLOT":
			f = destroy("drop-replication-slot", "drops a replication slot")
		case "LO_UNLINK":
			f = destroy("lo-unlink", "deletes a large object")
		case "PG_FILE_UNLINK":
			f = destroy("file-unlink", "deletes a file on the database server")
		case "DBLINK_EXEC", "DBLINK", "DBLINK_SEND_QUERY", "QUERY_TO_XML", "QUERY_TO_XMLSCHEMA",
			"QUERY_TO_XML_AND_XMLSCHEMA":
			lits := s.literals(j+1, s.closing(j+1))
			if len(lits) > 1 && strings.HasPrefix(name, "DBLINK") {
				lits = lits[len(lits)-1:] // dblink(conn, sql): the last one is the statement
			} else if len(lits) > 1 {
				lits = lits[:1]
			}
			f = c.dynamicSQL(s.src, lits, depth, strings.ToLower(name)+" runs a statement")
		case "LOAD_EXTENSION":
			f = unknown("load-extension", "loads a native extension, which runs code")
		case "WRITEFILE", "PG_FILE_WRITE", "LO_EXPORT", "EDIT":
			f = unknown("file-write", strings.ToLower(name)+" writes a file")
		case "SYS_EXEC", "SYS_EVAL":
			if lits := s.literals(j+1, s.closing(j+1)); len(lits) == 1 {
				f = shellOut("sys-exec", lits[0].value(s.src), strings.ToLower(name)+" runs a shell command")
			} else {
				f = shellOut("sys-exec", "", strings.ToLower(name)+" runs a shell command")
			}
		default:
			continue
		}
		w = w.worse(f)
	}
	return w
}

// literals returns the string tokens between from and to.
func (s stmt) literals(from, to int) []token {
	var out []token
	for k := from; k < to && k < len(s.toks); k++ {
		if s.toks[k].kind == tString {
			out = append(out, s.toks[k])
		}
	}
	return out
}

// verb classifies a statement by its leading keyword.
func (c *classifier) verb(s stmt, depth int) verdict {
	kw := s.kw(0)
	switch kw {
	case "SELECT", "VALUES", "TABLE", "SHOW", "DESCRIBE", "DESC", "HELP", "LIST", "EXISTS", "FETCH",
		"MOVE", "CLOSE", "DECLARE", "LISTEN", "UNLISTEN", "NOTIFY", "CHECKPOINT", "DEALLOCATE",
		"DISCARD", "USE", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE",
		"ANALYZE", "ANALYSE", "VACUUM", "REINDEX", "CLUSTER", "CHECK", "CHECKSUM", "HANDLER", "WATCH",
		"CONSISTENCY", "SERIAL", "TRACING", "PAGING", "EXPAND", "CAPTURE", "STATUS", "EXIT", "QUIT",
		"LOCK", "UNLOCK", "APPLY", "BEGIN", "DETACH", "CONNECT", "LOGIN", "CLS", "CLEAR", "GET", "SIGNAL",
		"RESIGNAL":
		if kw == "SELECT" {
			if into := s.top(1, "INTO"); into > 0 && (s.is(into+1, "OUTFILE") || s.is(into+1, "DUMPFILE")) {
				return unknown("select-into-outfile", "SELECT ... INTO "+s.kw(into+1)+" writes a file on the database server")
			}
		}
		return read(lowerKind(kw))
	case "INSERT", "UPSERT", "MERGE", "COMMENT", "RENAME", "REFRESH", "OPTIMIZE", "FLUSH", "KILL",
		"INSTALL", "UNINSTALL", "ATTACH", "EXCHANGE", "UNDROP", "IMPORT", "SECURITY", "PURGE", "CACHE",
		"REVOKE", "RESTART", "REASSIGN", "CREATE", "GRANT", "REPLACE", "LOAD", "SET", "RESET", "PRAGMA",
		"REPAIR", "BACKUP", "RESTORE", "XA":
		if kw == "CREATE" {
			return c.createVerb(s, depth)
		}
		return c.writeVerb(s, kw)
	case "DROP":
		return dropVerb(s)
	case "TRUNCATE":
		return destroy("truncate", "TRUNCATE empties a table")
	case "DELETE":
		if where := s.top(1, "WHERE"); where >= 0 {
			if s.is(where+1, "CURRENT") {
				return write("delete")
			}
			if alwaysTrue(s, where+1, s.topEnd(where+1), 0) {
				return destroy("delete-all", "DELETE whose WHERE is always true deletes every row")
			}
			return write("delete")
		}
		return destroy("delete-all", "DELETE without WHERE deletes every row")
	case "UPDATE":
		if where := s.top(1, "WHERE"); where >= 0 {
			if s.is(where+1, "CURRENT") {
				return write("update")
			}
			if alwaysTrue(s, where+1, s.topEnd(where+1), 0) {
				return destroy("update-all", "UPDATE whose WHERE is always true overwrites every row")
			}
			return write("update")
		}
		return destroy("update-all", "UPDATE without WHERE overwrites every row")
	case "ALTER":
		return c.alterVerb(s)
	case "EXPLAIN":
		return c.explainVerb(s, depth)
	case "WITH":
		// The CTE bodies are judged by inner; the main statement follows the last one.
		if m := s.top(1, "SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "VALUES", "TABLE"); m > 0 {
			return c.sqlStmt(s.src, s.toks[m:], depth+1)
		}
		return read("with")
	case "COPY":
		if p := s.top(1, "PROGRAM"); p >= 0 {
			if s.toks[min(p+1, len(s.toks)-1)].kind == tString && p+1 < len(s.toks) {
				return shellOut("copy-program", s.toks[p+1].value(s.src), "COPY ... PROGRAM runs a shell command on the database server")
			}
			return shellOut("copy-program", "", "COPY ... PROGRAM runs a shell command on the database server")
		}
		return write("copy")
	case "DO":
		if c.dialect == MySQL {
			return read("do") // MySQL's DO evaluates expressions; inner judges their functions
		}
		return c.doVerb(s, depth)
	case "PREPARE":
		if s.is(1, "TRANSACTION") {
			return write("prepare-transaction")
		}
		if as := s.top(1, "AS"); as > 0 && c.dialect != MySQL {
			return c.sqlStmt(s.src, s.toks[as+1:], depth+1)
		}
		if from := s.top(1, "FROM"); from > 0 && from+1 < len(s.toks) {
			if s.toks[from+1].kind == tString {
				return c.dynamicSQL(s.src, s.toks[from+1:from+2], depth, "PREPARE makes a statement to run")
			}
			return unknown("dynamic-sql", "PREPARE of a statement held in a variable")
		}
		return unknown("prepare", "a prepared statement this classifier cannot read")
	case "EXECUTE", "EXEC":
		if s.is(1, "IMMEDIATE") {
			return c.dynamicSQLOf(s.src, s.toks[2:], depth, "EXECUTE IMMEDIATE runs a statement")
		}
		if len(s.toks) > 1 && s.toks[1].kind == tString {
			return c.dynamicSQLOf(s.src, s.toks[1:], depth, "EXECUTE runs a statement")
		}
		return write("execute")
	case "CLONE":
		return destroy("clone-instance", "CLONE INSTANCE replaces the server's data with another server's")
	case "BINLOG":
		return unknown("binlog", "BINLOG replays binary log events this classifier cannot read")
	case "CALL":
		return unknown("call", "CALL runs a stored procedure this classifier cannot see")
	case "SHUTDOWN":
		return destroy("shutdown", "stops the database server")
	case "SYSTEM":
		switch s.kw(1) {
		case "SHUTDOWN", "KILL":
			return destroy("system-shutdown", "stops the database server")
		case "DROP":
			if s.is(2, "REPLICA") || s.is(2, "DATABASE") {
				return destroy("system-drop-replica", "drops a replica's data")
			}
		}
		return write("system")
	case "SOURCE":
		if len(s.toks) > 1 {
			f := s.toks[1].ident(s.src)
			return verdict{kind: "cql-source", effect: Unknown, include: f, reason: "runs the statements of " + f}
		}
		return unknown("source", "runs statements from a file")
	}
	return unknown(strings.ToLower(kw), "a statement this classifier does not know")
}

// topEnd is where a WHERE condition starting at from ends.
func (s stmt) topEnd(from int) int {
	if e := s.top(from, "RETURNING", "ORDER", "LIMIT", "OFFSET", "SETTINGS", "GROUP", "HAVING", "WINDOW", "IF", "USING"); e >= 0 {
		return e
	}
	return len(s.toks)
}

func (c *classifier) writeVerb(s stmt, kw string) verdict {
	switch kw {
	case "REPLACE":
		if s.is(1, "TABLE") || s.is(1, "DICTIONARY") {
			return destroy("replace-table", "REPLACE TABLE drops the table it replaces")
		}
		return write("replace")
	case "GRANT":
		if to := s.top(1, "TO"); to > 0 && s.top(to, "PUBLIC") > 0 {
			return verdict{kind: "grant-public", effect: Write, reason: "grants privileges to every role (PUBLIC)"}
		}
		return write("grant")
	case "REASSIGN":
		return verdict{kind: "reassign-owned", effect: Write, reason: "gives every object a role owns to another role"}
	case "LOAD":
		if len(s.toks) > 1 && s.toks[1].kind == tString {
			return unknown("load-library", "LOAD loads a native library, which runs code")
		}
		return write("load")
	case "SET":
		if s.is(1, "GLOBAL") || s.is(1, "PERSIST") || s.is(1, "PERSIST_ONLY") {
			return write("set-global")
		}
		return read("set")
	case "RESET":
		switch s.kw(1) {
		case "MASTER", "BINARY":
			return destroy("reset-binary-logs", "deletes every binary log")
		case "SLAVE", "REPLICA":
			return write("reset-replica")
		}
		return read("reset")
	case "PRAGMA":
		for _, t := range s.toks {
			if t.kind == tPunct && s.src[t.start] == '=' {
				return write("pragma")
			}
		}
		return read("pragma")
	}
	return write(lowerKind(kw))
}

// lowerKind is the kind of a keyword: the keyword in lower case, from a table so that
// classifying a statement does not allocate.
func lowerKind(kw string) string {
	if k, ok := lowerKinds()[kw]; ok {
		return k
	}
	return strings.ToLower(kw)
}

var lowerKindTable lazy[map[string]string]

func lowerKinds() map[string]string {
	return lowerKindTable.get(func() map[string]string {
		m := map[string]string{}
		for _, w := range strings.Fields(keywordList) {
			m[w] = strings.ToLower(w)
		}
		return m
	})
}

// createVerb classifies CREATE: what it replaces, and the code of the routines, triggers,
// rules and events it defines (they run later, when called or fired, with no further
// statement to judge).
func (c *classifier) createVerb(s stmt, depth int) verdict {
	if s.is(1, "OR") && s.is(2, "REPLACE") && s.top(3, "TABLE") == 3 {
		return destroy("create-or-replace-table", "CREATE OR REPLACE TABLE drops the table it replaces")
	}
	obj := -1
	for i := 1; i < len(s.toks) && i < 16; i++ {
		switch s.toks[i].keyword(s.src) {
		case "FUNCTION", "PROCEDURE", "TRIGGER", "RULE", "EVENT":
			obj = i
		case "TABLE", "VIEW", "INDEX", "DATABASE", "SCHEMA", "USER", "ROLE", "SEQUENCE", "TYPE", "EXTENSION":
			return write("create")
		}
		if obj > 0 {
			break
		}
	}
	if obj < 0 {
		return write("create")
	}
	what := strings.ToLower(s.toks[obj].text(s.src))
	kind := "create-" + what
	if l := s.top(obj, "LANGUAGE"); l > 0 && l+1 < len(s.toks) {
		switch lang := strings.ToLower(s.toks[l+1].ident(s.src)); lang {
		case "plpythonu", "plpython2u", "plpython3u", "plperlu", "pltclu", "c", "plsh", "plr", "internal":
			return unknown(kind, "defines a "+what+" in "+lang+", which runs code on the server")
		}
	}
	v := write(kind)
	judge := func(w verdict) {
		if w.effect == Destroy || w.effect == Shell || w.effect == Unknown && w.kind != "do" {
			w.reason = "defines a " + what + " that runs: " + w.reason
			v = v.worse(w)
		}
	}
	// A body in a string: AS $$ ... $$ or AS '...'.
	for i := obj + 1; i+1 < len(s.toks); i++ {
		if s.toks[i].is(s.src, "AS") && s.toks[i+1].kind == tString {
			judge(c.plpgsql(s.toks[i+1].value(s.src), depth+1))
		}
	}
	// A body inline: BEGIN ... END, DO [INSTEAD] stmt, FOR EACH ROW stmt.
	if b := s.top(obj+1, "BEGIN"); b > 0 {
		judge(c.plpgsql(s.src[s.toks[b].start:s.toks[len(s.toks)-1].end], depth+1))
	} else if b := s.top(obj+1, "DO"); b > 0 && b+1 < len(s.toks) {
		for b+1 < len(s.toks) && (s.is(b+1, "INSTEAD") || s.is(b+1, "ALSO")) {
			b++
		}
		if b+1 < len(s.toks) {
			judge(c.sqlSub(c.dialect, s.src[s.toks[b+1].start:s.toks[len(s.toks)-1].end], depth+1))
		}
	} else if r := s.top(obj+1, "ROW"); r > 1 && s.is(r-1, "EACH") && r+1 < len(s.toks) && s.toks[r+1].keyword(s.src) != "EXECUTE" {
		judge(c.sqlSub(c.dialect, s.src[s.toks[r+1].start:s.toks[len(s.toks)-1].end], depth+1))
	}
	return v
}

// dropVerb classifies DROP <object>.
func dropVerb(s stmt) verdict {
	obj := s.kw(1)
	switch obj {
	case "TEMPORARY", "TEMP":
		return write("drop-temporary-table")
	case "PREPARE":
		return read("deallocate")
	case "OWNED":
		return destroy("drop-owned", "DROP OWNED drops every object a role owns")
	case "MATERIALIZED", "FOREIGN", "ACCESS", "EVENT", "TEXT", "ROW", "DEFAULT", "SEARCH", "RESOURCE":
		if w := s.kw(2); w != "" {
			obj += "-" + w
		}
	case "":
		obj = "object"
	}
	return destroy("drop-"+strings.ToLower(obj), "DROP "+strings.ReplaceAll(obj, "-", " ")+" destroys it and what it holds")
}

// alterVerb classifies ALTER statements: what they drop, and ClickHouse's mutations.
func (c *classifier) alterVerb(s stmt) verdict {
	switch s.kw(1) {
	case "TABLE", "FOREIGN", "TYPE", "MATERIALIZED", "ONLY":
	default:
		return write("alter")
	}
	w := write("alter-table")
	depth := 0
	for i := 2; i < len(s.toks); i++ {
		t := s.toks[i]
		if t.kind == tPunct {
			switch s.src[t.start] {
			case '(':
				depth++
			case ')':
				depth--
			}
			continue
		}
		if depth != 0 || t.kind != tWord {
			continue
		}
		var v verdict
		switch t.keyword(s.src) {
		case "DROP":
			next := s.kw(i + 1)
			switch next {
			case "DEFAULT", "NOT", "IDENTITY", "EXPRESSION", "STATISTICS", "PROJECTION", "TTL":
				continue
			case "DETACHED":
				v = destroy("alter-drop-partition", "drops detached partitions")
			case "COLUMN", "CONSTRAINT", "PARTITION", "INDEX", "KEY", "PRIMARY", "FOREIGN", "CHECK", "ATTRIBUTE", "PART":
				v = destroy("alter-drop-"+strings.ToLower(next), "ALTER ... DROP "+next+" destroys it and what it holds")
			default:
				v = destroy("alter-drop-column", "ALTER ... DROP destroys a column and its data")
			}
		case "TRUNCATE":
			if s.is(i+1, "PARTITION") {
				v = destroy("alter-truncate-partition", "empties a partition")
			}
		case "DISCARD":
			if s.is(i+1, "TABLESPACE") {
				v = destroy("alter-discard-tablespace", "discards the table's data")
			}
		case "CLEAR":
			if s.is(i+1, "COLUMN") {
				v = destroy("alter-clear-column", "resets every value of a column")
			}
		case "DELETE", "UPDATE":
			// ClickHouse mutations: ALTER TABLE t DELETE WHERE cond / UPDATE ... WHERE cond.
			kind := "alter-" + strings.ToLower(t.text(s.src))
			e := i + 1
			for d := 0; e < len(s.toks); e++ {
				if s.toks[e].kind == tPunct {
					switch s.src[s.toks[e].start] {
					case '(':
						d++
					case ')':
						d--
					case ',':
						if d == 0 {
							goto end
						}
					}
				}
			}
		end:
			action := stmt{src: s.src, toks: s.toks[:e]}
			where := action.top(i+1, "WHERE")
			if where < 0 || alwaysTrue(action, where+1, action.topEnd(where+1), 0) {
				v = destroy(kind+"-all", "the mutation's WHERE is always true: it changes every row")
			} else {
				v = write(kind)
			}
			i = e - 1
		case "REPLACE":
			if s.is(i+1, "PARTITION") {
				v = destroy("alter-replace-partition", "replaces a partition's data")
			}
		}
		if v.effect != "" && severity(v.effect) >= severity(w.effect) && w.kind == "alter-table" {
			w = v
		}
		w = w.worse(v)
	}
	return w
}

// explainVerb: plain EXPLAIN only plans; EXPLAIN ANALYZE runs the statement.
func (c *classifier) explainVerb(s stmt, depth int) verdict {
	analyze := false
	i := 1
	for ; i < len(s.toks); i++ {
		t := s.toks[i]
		if t.kind == tPunct && s.src[t.start] == '(' {
			e := s.closing(i)
			for k := i; k < e; k++ {
				if s.toks[k].is(s.src, "ANALYZE") || s.toks[k].is(s.src, "ANALYSE") {
					analyze = true
				}
			}
			i = e
			continue
		}
		switch t.keyword(s.src) {
		case "ANALYZE", "ANALYSE":
			analyze = true
			continue
		case "VERBOSE", "QUERY", "PLAN", "FORMAT", "EXTENDED", "PARTITIONS", "AST", "SYNTAX",
			"PIPELINE", "ESTIMATE", "TABLE", "OVERRIDE", "FOR", "=", "JSON", "TREE", "TRADITIONAL":
			continue
		}
		if t.kind == tPunct || t.kind == tString || t.kind == tNumber {
			continue
		}
		break
	}
	if !analyze || i >= len(s.toks) {
		return read("explain")
	}
	return c.sqlStmt(s.src, s.toks[i:], depth+1)
}

// doVerb reads a PostgreSQL DO block: PL/pgSQL is judged statement by statement; another
// language runs code this classifier cannot read.
func (c *classifier) doVerb(s stmt, depth int) verdict {
	lang := "plpgsql"
	var body *token
	for i := 1; i < len(s.toks); i++ {
		t := s.toks[i]
		if t.is(s.src, "LANGUAGE") && i+1 < len(s.toks) {
			lang = strings.ToLower(s.toks[i+1].ident(s.src))
			i++
			continue
		}
		if t.kind == tString && body == nil {
			body = &s.toks[i]
		}
	}
	if body == nil {
		return unknown("do", "a DO block this classifier cannot read")
	}
	if lang != "plpgsql" && lang != "sql" {
		return unknown("do-"+lang, "a DO block in "+lang+" runs code this classifier cannot read")
	}
	v := c.plpgsql(body.value(s.src), depth+1)
	if v.effect == Read {
		v = write("do")
	}
	return v
}

// plpgsql judges a PL/pgSQL body: each statement it runs directly, and the text of EXECUTE.
func (c *classifier) plpgsql(body string, depth int) verdict {
	if depth > MaxDepth {
		return unknown("too-deep", "statements nested too deep to read")
	}
	lx := lexer{src: body, conf: confFor(Postgres)}
	lx.conf.psqlMeta = false
	var toks []token
	for {
		lx.skipSpace()
		if lx.i >= len(body) {
			break
		}
		if len(toks) >= MaxTokens {
			return unknown("too-long", "a DO block longer than the classifier reads")
		}
		toks = append(toks, lx.next())
	}
	w := read("do")
	start := true
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tPunct && body[t.start] == ';' {
			start = true
			continue
		}
		kw := t.keyword(body)
		switch kw {
		case "BEGIN", "LOOP", "THEN", "ELSE", "DECLARE", "EXCEPTION":
			start = true
			continue
		case "EXECUTE":
			end := i + 1
			for end < len(toks) && !(toks[end].kind == tPunct && body[toks[end].start] == ';') &&
				!toks[end].is(body, "USING") && !toks[end].is(body, "INTO") {
				end++
			}
			w = w.worse(c.dynamicSQLOf(body, toks[i+1:end], depth, "EXECUTE runs a statement"))
			i = end - 1
			start = false
			continue
		}
		if start && t.kind == tWord {
			switch kw {
			case "DROP", "TRUNCATE", "DELETE", "UPDATE", "ALTER", "COPY", "PERFORM", "SELECT", "INSERT":
				end := i + 1
				for end < len(toks) && !(toks[end].kind == tPunct && body[toks[end].start] == ';') {
					end++
				}
				if kw == "PERFORM" {
					w = w.worse(c.inner(stmt{src: body, toks: toks[i:end]}, depth))
				} else {
					w = w.worse(c.sqlStmt(body, toks[i:end], depth))
				}
				i = end - 1
			}
		}
		start = false
	}
	return w
}

// alwaysTrue reports whether the condition toks[from:to] holds for every row: TRUE, 1, 1=1,
// 'a'='a', x=x, NOT FALSE, 2>1, x LIKE '%', and any OR with such a branch.
func alwaysTrue(s stmt, from, to, depth int) bool {
	if depth > 16 || from >= to {
		return false
	}
	// Strip parentheses around the whole condition.
	for n := 0; n < 64 && from < to && s.punct(from, "(") && s.closing(from) == to-1; n++ {
		from, to = from+1, to-1
	}
	if from >= to {
		return false
	}
	sub := stmt{src: s.src, toks: s.toks[:to]}
	if or := sub.top(from, "OR"); or >= 0 {
		return alwaysTrue(s, from, or, depth+1) || alwaysTrue(s, or+1, to, depth+1)
	}
	if and := sub.top(from, "AND"); and >= 0 && !s.isBetween(from, and) {
		return alwaysTrue(s, from, and, depth+1) && alwaysTrue(s, and+1, to, depth+1)
	}
	if s.is(from, "NOT") {
		return alwaysFalse(s, from+1, to)
	}
	// A comparison of two identical expressions: id = id, lower(x) = lower(x), -1 = -1.
	if eq := s.topOp(from, to); eq > from && eq < to-1 && sameTokens(s, from, eq, eq+1, to) {
		switch s.toks[eq].text(s.src) {
		case "=", "==", "<=>", "<=", ">=":
			return !s.is(from, "NULL")
		}
	}
	n := to - from
	switch n {
	case 1:
		return truthy(s, from)
	case 3:
		a, op, b := s.toks[from], s.toks[from+1], s.toks[from+2]
		if op.kind == tWord && (op.is(s.src, "LIKE") || op.is(s.src, "ILIKE")) {
			return b.kind == tString && strings.Trim(b.value(s.src), "%") == "" && b.ce > b.cs
		}
		if op.kind == tWord && op.is(s.src, "IS") {
			return s.is(from, "NULL") && s.is(from+2, "NULL")
		}
		if op.kind != tPunct {
			return false
		}
		return compare(s, a, op.text(s.src), b)
	case 4:
		// 1 IS NOT NULL, NULL IS NULL
		if s.is(from+1, "IS") && s.is(from+2, "NOT") && s.is(from+3, "NULL") {
			k := s.toks[from].kind
			return k == tNumber || k == tString || s.is(from, "TRUE") || s.is(from, "FALSE")
		}
	}
	return false
}

// topOp returns the index of the first comparison operator in [from, to) outside
// parentheses, or -1.
func (s stmt) topOp(from, to int) int {
	depth := 0
	for i := from; i < to; i++ {
		t := s.toks[i]
		if t.kind != tPunct {
			continue
		}
		switch op := t.text(s.src); op {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "=", "==", "<=>", "<=", ">=", "<>", "!=", "<", ">":
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// sameTokens reports whether toks[a:b] and toks[c:d] are written the same (case-insensitively).
func sameTokens(s stmt, a, b, c, d int) bool {
	if b-a != d-c {
		return false
	}
	for i := 0; i < b-a; i++ {
		x, y := s.toks[a+i], s.toks[c+i]
		if x.kind != y.kind || !strings.EqualFold(x.text(s.src), y.text(s.src)) {
			return false
		}
		if x.kind == tWord && (x.is(s.src, "RANDOM") || x.is(s.src, "RAND")) {
			return false
		}
	}
	return true
}

// isBetween reports whether a BETWEEN comes before the AND at and (x BETWEEN 1 AND 2).
func (s stmt) isBetween(from, and int) bool {
	return s.top(from, "BETWEEN") >= 0 && s.top(from, "BETWEEN") < and
}

func alwaysFalse(s stmt, from, to int) bool {
	if to-from == 1 {
		return s.is(from, "FALSE") || s.toks[from].kind == tNumber && num(s, s.toks[from]) == 0
	}
	return false
}

func truthy(s stmt, i int) bool {
	t := s.toks[i]
	switch t.kind {
	case tWord:
		return t.is(s.src, "TRUE") || t.is(s.src, "ON") || t.is(s.src, "YES")
	case tNumber:
		return num(s, t) != 0
	case tString:
		v := strings.ToLower(t.value(s.src))
		return v == "t" || v == "true" || v == "1" || v == "y" || v == "yes" || v == "on"
	}
	return false
}

func num(s stmt, t token) float64 {
	f, err := strconv.ParseFloat(t.text(s.src), 64)
	if err != nil {
		return -1
	}
	return f
}

// compare decides a comparison of two single tokens when it does not depend on the row.
func compare(s stmt, a token, op string, b token) bool {
	if a.kind == tNumber && b.kind == tNumber {
		x, y := num(s, a), num(s, b)
		switch op {
		case "=", "==", "<=>":
			return x == y
		case "<>", "!=":
			return x != y
		case "<":
			return x < y
		case ">":
			return x > y
		case "<=":
			return x <= y
		case ">=":
			return x >= y
		}
		return false
	}
	same := a.kind == b.kind && (a.kind == tString && a.value(s.src) == b.value(s.src) ||
		a.kind == tWord && strings.EqualFold(a.text(s.src), b.text(s.src)) && !a.is(s.src, "NULL") ||
		a.kind == tQIdent && a.ident(s.src) == b.ident(s.src))
	switch op {
	case "=", "==", "<=>", "<=", ">=":
		return same
	case "<>", "!=":
		return a.kind == tString && b.kind == tString && !same
	}
	return false
}
