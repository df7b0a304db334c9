package sqlc

import (
	"strings"
)

// Dynamic marks the part of an argument that cannot be known before the command runs. It is
// the same marker as guard/shell's Dyn, so words resolved by the shell guard can be passed as
// they are.
const Dynamic = "\x1b\x1d"

// Text is one text a client invocation runs, and where it comes from.
type Text struct {
	Text string `json:"text"`
	// Source is where the text comes from: the option ("-c", "--execute", "--eval"), "arg",
	// "stdin", "file:PATH", "include:PATH", or the program that stands for a statement
	// ("dropdb", "mysqladmin").
	Source string `json:"source"`
}

// Bounds of what FromCommand reads through readFile.
const (
	MaxFiles     = 16 // files read for one invocation (-f, --file, \i, source, .read, load())
	MaxIncludes  = 4  // nesting of includes
	maxTextTotal = MaxText
)

// client describes how one database client takes its statements.
type client struct {
	dialect string
	spec    optSpec
	// texts sorts the parsed options and operands into texts; it returns whether stdin is read.
	texts func(p *parsed, x *sink) (stdin bool)
}

// sink receives the texts a client's options name.
type sink struct {
	add        func(src, text string)
	file       func(src, path string)
	stdin      string
	stdinKnown bool
}

// FromCommand finds the statements a database client invocation would run. name is the
// program's base name and args the words after it (resolved by the shell guard; a part marked
// with Dynamic is unknown). stdin is the text fed to the command's standard input when
// stdinKnown (heredoc, here-string, pipe from a literal, redirect from a file the caller
// read); pass stdinKnown with "" when nothing feeds it. readFile reads a file named by the
// command (-f FILE, \i FILE, ...); it should refuse paths outside the workspace and read at
// most MaxText+1 bytes; nil reads nothing.
//
// dialect is "" when name is not a client this package knows (texts nil, ok false). ok is false
// when what runs cannot be known: a dynamic text, a file that cannot be read, stdin that is
// read but not known, or a bound passed. Includes (\i, source, .read, load()) are followed
// through readFile and their texts appended.
func FromCommand(name string, args []string, stdin string, stdinKnown bool, readFile func(path string) ([]byte, error)) (texts []Text, dialect string, ok bool) {
	cl, args := lookupClient(name, args)
	if cl == nil {
		return nil, "", false
	}
	ok = true
	p := parse(args, cl.spec)
	files := 0
	total := 0
	add := func(src, text string) {
		if strings.Contains(text, Dynamic) {
			ok = false
			text = strings.ReplaceAll(text, Dynamic, "")
		}
		total += len(text)
		if total > maxTextTotal {
			ok = false
			return
		}
		texts = append(texts, Text{Text: text, Source: src})
	}
	file := func(src, path string) {
		if path == "-" || path == "/dev/stdin" || path == "/dev/fd/0" || path == "/proc/self/fd/0" {
			if !stdinKnown {
				ok = false
				return
			}
			add("stdin", stdin)
			return
		}
		if strings.Contains(path, Dynamic) || readFile == nil || files >= MaxFiles {
			ok = false
			return
		}
		files++
		b, err := readFile(path)
		if err != nil || len(b) > MaxText {
			ok = false
			return
		}
		if src == "eval:" {
			// redis-cli --eval FILE runs the file as a Lua script.
			add("--eval "+path, redisLine([]string{"EVAL", string(b), "0"}))
			return
		}
		add(src+path, string(b))
	}
	if cl.texts(p, &sink{add: add, file: file, stdin: stdin, stdinKnown: stdinKnown}) {
		if stdinKnown {
			if stdin != "" {
				add("stdin", stdin)
			}
		} else {
			ok = false
		}
	}
	// Follow includes, breadth first, MaxIncludes deep.
	from := 0
	for depth := 0; depth < MaxIncludes+1 && from < len(texts); depth++ {
		to := len(texts)
		for _, t := range texts[from:to] {
			for _, st := range Classify(cl.dialect, t.Text) {
				if st.Include == "" {
					continue
				}
				if depth == MaxIncludes {
					ok = false
					continue
				}
				file("include:", st.Include)
			}
		}
		from = to
	}
	if cl.dialect == SQLite && scratchDatabase(p.operands) {
		return texts, SQLiteScratch, ok
	}
	return texts, cl.dialect, ok
}

// SQLiteScratch is the dialect FromCommand reports for a SQLite (or DuckDB) database that is
// scratch: in memory, or a file in the machine's temporary folders. What its statements destroy
// is scratch too: ClassifyTexts reports them as writes, unless a text attaches another database.
const SQLiteScratch = "sqlite-scratch"

// scratchDatabase reports whether a sqlite3 command line's database operand (the first) is in
// memory (none, "", :memory:) or a file in /tmp, /var/tmp or /dev/shm.
func scratchDatabase(operands []string) bool {
	if len(operands) == 0 {
		return true
	}
	db := operands[0]
	if db == "" || db == ":memory:" {
		return true
	}
	if strings.Contains(db, Dynamic) || strings.Contains(db, "..") || strings.HasPrefix(db, "file:") {
		return false
	}
	for _, dir := range []string{"/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/"} {
		if strings.HasPrefix(db, dir) {
			return true
		}
	}
	return false
}

// ClassifyCommand is FromCommand followed by Classify of each text: the statements the
// invocation runs, in order. Includes that FromCommand followed are reported as read (their
// statements are listed after them); when ok is false the caller cannot know everything that
// runs and should not allow on the strength of the statements alone.
func ClassifyCommand(name string, args []string, stdin string, stdinKnown bool, readFile func(path string) ([]byte, error)) (stmts []Statement, dialect string, ok bool) {
	texts, dialect, ok := FromCommand(name, args, stdin, stdinKnown, readFile)
	stmts, ok = ClassifyTexts(dialect, texts, ok)
	return stmts, dialect, ok
}

// ClassifyTexts classifies the texts FromCommand found, in order, as ClassifyCommand does; ok
// is FromCommand's, false too when the statements pass the bound. A caller that bounds its own
// work calls FromCommand, weighs the texts, then this.
func ClassifyTexts(dialect string, texts []Text, ok bool) (stmts []Statement, _ bool) {
	scratch := dialect == SQLiteScratch
	if scratch {
		dialect = SQLite
		for _, t := range texts {
			if strings.Contains(strings.ToLower(t.Text), "attach") {
				scratch = false // another database's tables can be reached
			}
		}
	}
	for _, t := range texts {
		for _, st := range Classify(dialect, t.Text) {
			if st.Include != "" && ok {
				st.Effect, st.Kind = Read, "include"
				st.Reason = "its statements are listed after it"
			}
			if scratch && st.Destructive {
				st.Effect, st.Destructive = Write, false
				st.Reason = "in a scratch database (in memory or in a temporary folder)"
			}
			stmts = append(stmts, st)
			if len(stmts) >= 2*MaxStatements {
				return stmts, false
			}
		}
	}
	return stmts, ok
}

// optSpec says which options of a program take a value.
type optSpec struct {
	shortVal string          // short letters that take a value (-c SQL, -cSQL)
	shortOpt string          // short letters whose value is optional and only attached (mysql -pSECRET)
	longVal  map[string]bool // long names (without dashes) that take a value
	single   bool            // long options are spelled with one dash too (sqlite3 -cmd)
	// stopAtOperand ends option parsing at the first operand (redis-cli).
	stopAtOperand bool
	// unknownLongVal: an unknown long option without = takes the next word (clickhouse settings).
	unknownLongVal bool
}

type opt struct{ name, val string }

type parsed struct {
	opts     []opt
	operands []string
}

func (p *parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// parse reads args getopt-style: -abc clusters, -cVALUE, -c VALUE, --name=VALUE, --name VALUE,
// "--" ending options; operands may be mixed with options unless spec.stopAtOperand.
func parse(args []string, spec optSpec) *parsed {
	p := &parsed{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.operands = append(p.operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			p.operands = append(p.operands, a)
			if spec.stopAtOperand {
				p.operands = append(p.operands, args[i+1:]...)
				break
			}
			continue
		}
		if strings.HasPrefix(a, "--") || spec.single {
			name := strings.TrimLeft(a, "-")
			if k := strings.IndexByte(name, '='); k >= 0 {
				p.opts = append(p.opts, opt{"--" + name[:k], name[k+1:]})
				continue
			}
			takes := spec.longVal[name] || spec.unknownLongVal && !spec.longVal["!"+name] && strings.HasPrefix(a, "--") &&
				i+1 < len(args) && !strings.HasPrefix(args[i+1], "-")
			if takes && i+1 < len(args) {
				p.opts = append(p.opts, opt{"--" + name, args[i+1]})
				i++
				continue
			}
			if spec.single && len(name) > 1 || strings.HasPrefix(a, "--") {
				p.opts = append(p.opts, opt{"--" + name, ""})
				continue
			}
		}
		// A cluster of short options.
		for k := 1; k < len(a); k++ {
			ch := a[k]
			if strings.IndexByte(spec.shortOpt, ch) >= 0 {
				p.opts = append(p.opts, opt{"-" + string(ch), a[k+1:]})
				break
			}
			if strings.IndexByte(spec.shortVal, ch) >= 0 {
				val := a[k+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				p.opts = append(p.opts, opt{"-" + string(ch), val})
				break
			}
			p.opts = append(p.opts, opt{"-" + string(ch), ""})
		}
	}
	return p
}

// lookupClient finds the client a program name stands for; for programs whose subcommand
// picks the client (clickhouse client, cockroach sql) it returns the arguments after it.
func lookupClient(name string, args []string) (*client, []string) {
	name = strings.ToLower(strings.TrimSuffix(name, ".exe"))
	switch name {
	case "psql":
		return psqlClient(), args
	case "mysql", "mariadb":
		return mysqlClient(), args
	case "sqlite3", "sqlite", "duckdb":
		return sqliteClient(), args
	case "mongosh", "mongo":
		return mongoClient(), args
	case "redis-cli", "valkey-cli", "keydb-cli":
		return redisClient(), args
	case "cqlsh":
		return cqlClient(), args
	case "clickhouse-client", "clickhouse-local", "chc":
		return clickhouseClient(), args
	case "clickhouse":
		if len(args) > 0 && (args[0] == "client" || args[0] == "local") {
			return clickhouseClient(), args[1:]
		}
	case "cockroach":
		if len(args) > 0 && (args[0] == "sql" || args[0] == "demo") {
			return cockroachClient(), args[1:]
		}
	case "dropdb", "dropuser", "pg_dropcluster":
		return dropClient(name), args
	case "mysqladmin", "mariadb-admin":
		return mysqladminClient(), args
	}
	return nil, args
}

func psqlClient() *client {
	return &client{dialect: Postgres,
		spec: optSpec{shortVal: "cdfhpUvoLPFRT",
			longVal: set("command dbname file host port username set variable output log-file pset field-separator record-separator table-attr")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			sql := false
			for _, o := range p.opts {
				switch o.name {
				case "-v", "--set", "--variable":
					if k := strings.IndexByte(o.val, '='); k > 0 {
						add(o.name, `\set `+o.val[:k]+" "+o.val[k+1:])
					}
				case "-c", "--command":
					add(o.name, o.val)
					sql = true
				case "-f", "--file":
					file("file:", o.val)
					sql = true
				case "-l", "--list", "-V", "--version", "-?", "--help":
					return false
				}
			}
			return !sql
		}}
}

func mysqlClient() *client {
	return &client{dialect: MySQL,
		spec: optSpec{shortVal: "euhPDSO", shortOpt: "p",
			longVal: set("execute user host port database socket default-character-set defaults-file defaults-extra-file login-path init-command delimiter pager tee plugin-dir ssl-ca ssl-cert ssl-key ssl-mode protocol")},
		texts: func(p *parsed, x *sink) bool {
			add := x.add
			exec := false
			for _, o := range p.opts {
				switch o.name {
				case "--init-command":
					add(o.name, o.val)
				case "--pager":
					add(o.name, "pager "+o.val)
				case "--delimiter":
					add(o.name, "delimiter "+o.val)
				case "-e", "--execute":
					add(o.name, o.val)
					exec = true
				case "-V", "--version", "-?", "--help", "-I":
					return false
				}
			}
			return !exec
		}}
}

func sqliteClient() *client {
	return &client{dialect: SQLite,
		spec: optSpec{single: true, shortVal: "c",
			longVal: set("cmd init separator newline nullvalue vfs mmap maxsize heap lookaside pagecache nonce escape A c")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			for _, o := range p.opts {
				switch o.name {
				case "--init":
					file("file:", o.val)
				case "--cmd":
					add("-cmd", o.val)
				case "--c", "-c": // duckdb -c SQL
					add("-c", o.val)
					return false
				case "--version", "--help", "--A":
					return false
				}
			}
			if len(p.operands) > 1 {
				for _, sql := range p.operands[1:] {
					add("arg", sql)
				}
				return false
			}
			return true
		}}
}

func mongoClient() *client {
	return &client{dialect: Mongo,
		spec: optSpec{shortVal: "upf",
			longVal: set("eval file host port username password authenticationDatabase authenticationMechanism apiVersion awsAccessKeyId awsSecretAccessKey awsSessionToken gssapiServiceName sspiHostnameCanonicalization sspiRealmOverride tlsCertificateKeyFile tlsCertificateKeyFilePassword tlsCAFile tlsCRLFile tlsCertificateSelector tlsDisabledProtocols keyVaultNamespace kmsURL retryWrites csfleLibraryPath cryptSharedLibPath")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			code, shell := false, false
			for _, o := range p.opts {
				switch o.name {
				case "--eval":
					add(o.name, o.val)
					code = true
				case "-f", "--file":
					file("file:", o.val)
					code = true
				case "--shell":
					shell = true
				case "--help", "-h", "--version":
					return false
				}
			}
			for _, a := range p.operands {
				if strings.HasSuffix(a, ".js") || strings.HasSuffix(a, ".mongodb") {
					file("file:", a)
					code = true
				}
			}
			return !code || shell
		}}
}

func redisClient() *client {
	return &client{dialect: Redis,
		spec: optSpec{stopAtOperand: true, shortVal: "hpsaunridDtX",
			longVal: set("user pass sni cacert cacertdir cert key tls-ciphers tls-ciphersuites pattern quoted-pattern count rdb functions-rdb eval memkeys-samples intrinsic-latency lru-test pipe-timeout show-pushes cluster")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			pipe, fromStdin := false, false
			for _, o := range p.opts {
				switch o.name {
				case "--pipe":
					pipe = true
				case "-x":
					fromStdin = true
				case "--eval":
					file("eval:", o.val)
					return false
				case "--cluster":
					// --cluster call HOST:PORT CMD ARGS... runs CMD on every node.
					if o.val == "call" && len(p.operands) > 1 {
						add("--cluster call", redisLine(p.operands[1:]))
						return false
					}
					add("--cluster", "CLUSTER "+o.val)
					return false
				case "--help", "--version", "-v":
					return false
				case "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--keystats", "--stat", "--latency",
					"--latency-history", "--latency-dist", "--rdb", "--functions-rdb":
					if len(p.operands) == 0 {
						return false
					}
				}
			}
			if len(p.operands) > 0 {
				words := p.operands
				if fromStdin {
					// -x: the last argument is read from stdin.
					last := Dynamic
					if x.stdinKnown {
						last = strings.TrimSuffix(x.stdin, "\n")
					}
					words = append(words[:len(words):len(words)], last)
				}
				if len(words) > 1 && !strings.Contains(words[0], Dynamic) && redisRead()[strings.ToUpper(words[0])] {
					// a command that changes nothing, whatever keys it is given (xargs redis-cli
					// MGET): its arguments not known before it runs leave it as known as it is
					words = append([]string{words[0]}, words[1:]...)
					for i := 1; i < len(words); i++ {
						words[i] = strings.ReplaceAll(words[i], Dynamic, "KEY")
					}
				}
				add("args", redisLine(words))
				return false
			}
			if pipe && x.stdinKnown && strings.HasPrefix(x.stdin, "*") {
				// --pipe takes the wire protocol: turn each command into a line.
				add("stdin", respLines(x.stdin))
				return false
			}
			return true
		}}
}

// redisLine joins command words into one redis-cli input line, quoting as needed.
func redisLine(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		if w != "" && !strings.ContainsAny(w, " \t\n\"'\\") {
			q[i] = w
			continue
		}
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ", "\r", " ")
		q[i] = `"` + r.Replace(w) + `"`
	}
	return strings.Join(q, " ")
}

func cqlClient() *client {
	return &client{dialect: CQL,
		spec: optSpec{shortVal: "efukpt",
			longVal: set("execute file username password keyspace cqlversion encoding cqlshrc request-timeout connect-timeout protocol-version")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			for _, o := range p.opts {
				switch o.name {
				case "-e", "--execute":
					add(o.name, o.val)
					return false
				case "-f", "--file":
					file("file:", o.val)
					return false
				case "--help", "-h", "--version":
					return false
				}
			}
			return true
		}}
}

func clickhouseClient() *client {
	return &client{dialect: ClickHouse,
		spec: optSpec{shortVal: "qhudfC", unknownLongVal: true,
			longVal: set("query queries-file host port user password database format config-file config " +
				"!multiquery !multiline !secure !time !stacktrace !echo !vertical !help !version !progress " +
				"!disable_suggestion !ignore-error !verbose !hardware-utilization !print-profile-events !interactive !no-warnings")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			q := false
			for _, o := range p.opts {
				switch o.name {
				case "-q", "--query":
					add(o.name, o.val)
					q = true
				case "--queries-file":
					file("file:", o.val)
					q = true
				case "--help", "--version", "-V":
					return false
				}
			}
			for _, a := range p.operands {
				add("arg", a)
				q = true
			}
			return !q
		}}
}

func cockroachClient() *client {
	return &client{dialect: Postgres,
		spec: optSpec{shortVal: "efdup",
			longVal: set("execute file url host port user database certs-dir format set")},
		texts: func(p *parsed, x *sink) bool {
			add, file := x.add, x.file
			sql := false
			for _, o := range p.opts {
				switch o.name {
				case "-e", "--execute":
					add(o.name, o.val)
					sql = true
				case "-f", "--file":
					file("file:", o.val)
					sql = true
				case "--help", "-h":
					return false
				}
			}
			return !sql
		}}
}

// dropClient stands for PostgreSQL's dropdb and dropuser and Debian's pg_dropcluster: the
// program is the statement.
func dropClient(name string) *client {
	return &client{dialect: Postgres,
		spec: optSpec{shortVal: "hpU", longVal: set("host port username maintenance-db")},
		texts: func(p *parsed, x *sink) bool {
			add := x.add
			if p.has("--help", "-?", "--version", "-V") {
				return false
			}
			obj := map[string]string{"dropdb": "DATABASE", "dropuser": "ROLE", "pg_dropcluster": "CLUSTER"}[name]
			target := ""
			if len(p.operands) > 0 {
				target = p.operands[len(p.operands)-1]
			}
			if target == "" && name == "dropuser" {
				target = "(asked)"
			}
			add(name, "DROP "+obj+" "+quoteIdent(target))
			return false
		}}
}

func mysqladminClient() *client {
	return &client{dialect: MySQL,
		spec: optSpec{shortVal: "uhPSOci", shortOpt: "p", longVal: set("user host port socket defaults-file defaults-extra-file login-path count sleep")},
		texts: func(p *parsed, x *sink) bool {
			add := x.add
			ops := p.operands
			for i := 0; i < len(ops); i++ {
				switch strings.ToLower(ops[i]) {
				case "drop":
					if i+1 < len(ops) {
						add("mysqladmin", "DROP DATABASE "+quoteIdent(ops[i+1]))
						i++
					}
				case "create":
					if i+1 < len(ops) {
						add("mysqladmin", "CREATE DATABASE "+quoteIdent(ops[i+1]))
						i++
					}
				case "shutdown":
					add("mysqladmin", "SHUTDOWN")
				case "kill":
					if i+1 < len(ops) {
						add("mysqladmin", "KILL "+quoteIdent(ops[i+1]))
						i++
					}
				case "password", "old-password":
					add("mysqladmin", "ALTER USER CURRENT_USER")
					i++
				case "flush-hosts", "flush-logs", "flush-privileges", "flush-status", "flush-tables",
					"flush-threads", "refresh", "reload", "start-replica", "stop-replica", "start-slave", "stop-slave":
					add("mysqladmin", "FLUSH "+strings.ToUpper(strings.TrimPrefix(ops[i], "flush-")))
				default:
					add("mysqladmin", "SHOW STATUS")
				}
			}
			return false
		}}
}

// quoteIdent quotes a name as a SQL identifier for a synthetic statement.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// respLines turns Redis wire-protocol commands (*N then $LEN and the bytes of each argument)
// into one line per command. What is not in the protocol is kept as lines.
func respLines(s string) string {
	var out []string
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines) && len(out) < MaxStatements; i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "*") {
			if strings.TrimSpace(l) != "" {
				out = append(out, l)
			}
			continue
		}
		var words []string
		for i+2 < len(lines) && strings.HasPrefix(lines[i+1], "$") && len(words) < 64 {
			words = append(words, lines[i+2])
			i += 2
		}
		out = append(out, redisLine(words))
	}
	return strings.Join(out, "\n")
}
