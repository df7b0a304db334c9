package sqlc

import (
	"errors"
	"strings"
	"testing"
)

// files is a fake workspace for readFile.
var files = map[string]string{
	"schema.sql":   "CREATE TABLE t (a int);\n",
	"wipe.sql":     "-- cleanup\nDROP SCHEMA public CASCADE;\n",
	"outer.sql":    "\\i wipe.sql\n",
	"loop.sql":     "\\i loop.sql\n",
	"report.js":    "db.users.find().forEach(printjson)",
	"nuke.js":      "db.dropDatabase()",
	"flush.lua":    "return redis.call('FLUSHALL')",
	"get.lua":      "return redis.call('GET', KEYS[1])",
	"q.sql":        "SELECT count(*) FROM events",
	"drop.cql":     "DROP KEYSPACE shop;",
	"mysqlsrc.sql": "source wipe.sql\n",
	"init.sql":     ".shell rm -rf ~\n",
}

func readFile(p string) ([]byte, error) {
	if s, ok := files[p]; ok {
		return []byte(s), nil
	}
	return nil, errors.New("no such file")
}

type commandCase struct {
	argv       string // program and arguments, split on spaces; '~' stands for a space inside a word
	stdin      string
	stdinKnown bool
	dialect    string
	ok         bool
	effect     Effect // worst statement; "" when nothing runs
	kind       string
}

var commandCases = []commandCase{
	// psql
	{"psql -c SELECT~1", "", true, Postgres, true, Read, "select"},
	{"psql -tAc SELECT~count(*)~FROM~users", "", true, Postgres, true, Read, "select"},
	{"psql -d app -c DROP~TABLE~users", "", true, Postgres, true, Destroy, "drop-table"},
	{"psql --command=TRUNCATE~users app", "", true, Postgres, true, Destroy, "truncate"},
	{"psql postgresql://u@h/db -c \\dt", "", true, Postgres, true, Read, "psql-meta"},
	{"psql -U postgres -h localhost -f schema.sql", "", true, Postgres, true, Write, "create"},
	{"psql -f wipe.sql", "", true, Postgres, true, Destroy, "drop-schema"},
	{"psql --file=outer.sql", "", true, Postgres, true, Destroy, "drop-schema"},
	{"psql -f loop.sql", "", true, Postgres, false, Unknown, "psql-include"},
	{"psql -f missing.sql", "", true, Postgres, false, "", ""},
	{"psql app", "DELETE FROM users;", true, Postgres, true, Destroy, "delete-all"},
	{"psql app", "SELECT 1;", true, Postgres, true, Read, "select"},
	{"psql app", "", false, Postgres, false, "", ""},
	{"psql -f -", "DROP TABLE t;", true, Postgres, true, Destroy, "drop-table"},
	{"psql -c SELECT~1 app", "DROP TABLE t;", true, Postgres, true, Read, "select"},
	{"psql -v victim=users -c SELECT~1", "", true, Postgres, true, Read, ""},
	{"psql -v q=DROP~TABLE~users -f schema.sql", "", true, Postgres, true, Destroy, "psql-set"},
	{"psql -c \x1b\x1d", "", true, Postgres, false, "", ""},
	{"psql -l", "", false, Postgres, true, "", ""},
	{"psql -c \\!~rm~-rf~/", "", true, Postgres, true, Shell, "psql-shell"},
	// mysql / mariadb
	{"mysql -e SHOW~TABLES", "", true, MySQL, true, Read, "show"},
	{"mysql -uroot -psecret -e DROP~DATABASE~shop", "", true, MySQL, true, Destroy, "drop-database"},
	{"mysql -uroot -pmyeasypass -e SELECT~1", "", true, MySQL, true, Read, "select"},
	{"mysql -Ne SELECT~1 shop", "", true, MySQL, true, Read, "select"},
	{"mariadb --execute=TRUNCATE~t", "", true, MySQL, true, Destroy, "truncate"},
	{"mysql shop", "DELETE FROM orders;", true, MySQL, true, Destroy, "delete-all"},
	{"mysql shop", "source mysqlsrc.sql\n", true, MySQL, true, Destroy, "drop-schema"},
	{"mysql --init-command=DROP~TABLE~t -e SELECT~1", "", true, MySQL, true, Destroy, "drop-table"},
	{"mysql -h db -P 3306 -u app -D shop -e SELECT~*~FROM~t", "", true, MySQL, true, Read, "select"},
	// sqlite3 / duckdb
	{"sqlite3 app.db .tables", "", true, SQLite, true, Read, "sqlite-dot"},
	{"sqlite3 app.db SELECT~*~FROM~users", "", true, SQLite, true, Read, "select"},
	{"sqlite3 app.db DROP~TABLE~users", "", true, SQLite, true, Destroy, "drop-table"},
	{"sqlite3 -header -csv app.db SELECT~1", "", true, SQLite, true, Read, "select"},
	{"sqlite3 app.db", ".read wipe.sql\n", true, SQLite, true, Destroy, "drop-schema"},
	{"sqlite3 app.db", "", false, SQLite, false, "", ""},
	{"sqlite3 -cmd .shell~ls app.db .tables", "", true, SQLite, true, Shell, "sqlite-shell"},
	{"sqlite3 -init init.sql app.db", "", true, SQLite, true, Shell, "sqlite-shell"},
	{"duckdb warehouse.duckdb -c DROP~TABLE~t", "", true, SQLite, true, Destroy, "drop-table"},
	// a scratch database: in memory or in a temporary folder; what it destroys is scratch too
	{"duckdb -c DROP~TABLE~t", "", true, SQLiteScratch, true, Write, "drop-table"},
	{"sqlite3 /tmp/scratch.db DROP~TABLE~IF~EXISTS~t", "", true, SQLiteScratch, true, Write, "drop-table"},
	{"sqlite3 :memory: DELETE~FROM~t", "", true, SQLiteScratch, true, Write, "delete-all"},
	{"sqlite3 /tmp/x.db ATTACH~'/home/dev/project/app.db'~AS~a;~DROP~TABLE~a.users", "", true, SQLiteScratch, true, Destroy, "drop-table"},
	{"sqlite3 /tmp/../home/dev/app.db DROP~TABLE~t", "", true, SQLite, true, Destroy, "drop-table"},
	{"sqlite3 /tmp/x.db .shell~ls", "", true, SQLiteScratch, true, Shell, "sqlite-shell"},
	// mongosh / mongo
	{"mongosh --eval db.users.find()", "", true, Mongo, true, Read, "mongo-read"},
	{"mongosh mongodb://h/app --quiet --eval db.dropDatabase()", "", true, Mongo, true, Destroy, "mongo-drop-database"},
	{"mongo app --eval db.users.deleteMany({})", "", true, Mongo, true, Destroy, "mongo-delete-all"},
	{"mongosh app nuke.js", "", true, Mongo, true, Destroy, "mongo-drop-database"},
	{"mongosh app report.js", "", true, Mongo, true, Read, "mongo-read"},
	{"mongosh app", "db.users.drop()\n", true, Mongo, true, Destroy, "mongo-drop-collection"},
	{"mongosh --file nuke.js", "", true, Mongo, true, Destroy, "mongo-drop-database"},
	// redis-cli
	{"redis-cli GET x", "", true, Redis, true, Read, "redis-get"},
	{"redis-cli FLUSHALL", "", true, Redis, true, Destroy, "redis-flushall"},
	{"redis-cli -h cache -p 6380 -n 2 flushdb", "", true, Redis, true, Destroy, "redis-flushdb"},
	{"redis-cli -a secret --no-auth-warning PING", "", true, Redis, true, Read, "redis-ping"},
	{"redis-cli --scan --pattern user:*", "", true, Redis, true, "", ""},
	// keys not known until it runs: a command that reads stays known, one that writes does not
	{"redis-cli MGET \x1b\x1d", "", true, Redis, true, Read, "redis-mget"},
	{"redis-cli -n 2 exists user:\x1b\x1d", "", true, Redis, true, Read, "redis-exists"},
	{"redis-cli DEL \x1b\x1d", "", true, Redis, false, Write, "redis-del"},
	{"redis-cli CONFIG SET dir \x1b\x1d", "", true, Redis, false, Destroy, "redis-config-set-dir"},
	{"redis-cli \x1b\x1d key", "", true, Redis, false, Write, ""},
	{"redis-cli", "FLUSHALL\n", true, Redis, true, Destroy, "redis-flushall"},
	{"redis-cli --pipe", "*1\r\n$8\r\nFLUSHALL\r\n", true, Redis, true, Destroy, "redis-flushall"},
	{"redis-cli --pipe", "SET a 1\r\nGET a\r\n", true, Redis, true, Write, "redis-set"},
	{"redis-cli --eval flush.lua", "", true, Redis, true, Destroy, "redis-flushall"},
	{"redis-cli --eval get.lua k", "", true, Redis, true, Read, "redis-eval"},
	{"redis-cli -x CONFIG SET dir", "/root/.ssh\n", true, Redis, true, Destroy, "redis-config-set-dir"},
	{"redis-cli -x SET k", "", false, Redis, false, Write, "redis-set"},
	{"redis-cli --cluster call h:7000 FLUSHALL", "", true, Redis, true, Destroy, "redis-flushall"},
	{"valkey-cli DEBUG RELOAD", "", true, Redis, true, Destroy, "redis-debug"},
	// cqlsh
	{"cqlsh -e DESCRIBE~KEYSPACES", "", true, CQL, true, Read, "describe"},
	{"cqlsh cass 9042 -e DROP~KEYSPACE~shop", "", true, CQL, true, Destroy, "drop-keyspace"},
	{"cqlsh -f drop.cql", "", true, CQL, true, Destroy, "drop-keyspace"},
	{"cqlsh", "TRUNCATE shop.users;", true, CQL, true, Destroy, "truncate"},
	// clickhouse
	{"clickhouse-client -q SELECT~1", "", true, ClickHouse, true, Read, "select"},
	{"clickhouse-client --query=DROP~TABLE~events", "", true, ClickHouse, true, Destroy, "drop-table"},
	{"clickhouse client --max_threads 4 -q SELECT~1", "", true, ClickHouse, true, Read, "select"},
	{"clickhouse-client --queries-file q.sql", "", true, ClickHouse, true, Read, "select"},
	{"clickhouse-client", "ALTER TABLE t DELETE WHERE 1", true, ClickHouse, true, Destroy, "alter-delete-all"},
	// cockroach
	{"cockroach sql --insecure -e SHOW~DATABASES", "", true, Postgres, true, Read, "show"},
	{"cockroach sql --url postgres://x -e DROP~DATABASE~bank", "", true, Postgres, true, Destroy, "drop-database"},
	// programs that are statements
	{"dropdb app", "", true, Postgres, true, Destroy, "drop-database"},
	{"dropdb -h localhost -U postgres --if-exists app~test", "", true, Postgres, true, Destroy, "drop-database"},
	{"dropuser alice", "", true, Postgres, true, Destroy, "drop-role"},
	{"dropdb --help", "", true, Postgres, true, "", ""},
	{"mysqladmin -uroot -f drop shop", "", true, MySQL, true, Destroy, "drop-database"},
	{"mysqladmin shutdown", "", true, MySQL, true, Destroy, "shutdown"},
	{"mysqladmin -uroot -psecret status", "", true, MySQL, true, Read, "show"},
	{"mysqladmin create shop", "", true, MySQL, true, Write, "create"},
	// not a client
	{"ls -la", "", true, "", false, "", ""},
}

func TestFromCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range commandCases {
		t.Run(tc.argv, func(t *testing.T) {
			words := strings.Fields(tc.argv)
			for i := range words {
				words[i] = strings.ReplaceAll(words[i], "~", " ")
			}
			stmts, dialect, ok := ClassifyCommand(words[0], words[1:], tc.stdin, tc.stdinKnown, readFile)
			var w Statement
			if len(stmts) > 0 {
				w = worst(stmts)
			}
			if dialect != tc.dialect || ok != tc.ok || w.Effect != tc.effect || tc.kind != "" && w.Kind != tc.kind {
				t.Errorf("%s: dialect %q ok %v worst %s %s; want %q %v %s %s\n%+v",
					tc.argv, dialect, ok, w.Effect, w.Kind, tc.dialect, tc.ok, tc.effect, tc.kind, stmts)
			}
		})
	}
}

func TestFromCommandSources(t *testing.T) {
	t.Parallel()
	texts, dialect, ok := FromCommand("psql", []string{"-c", "SELECT 1", "-f", "outer.sql"}, "", true, readFile)
	want := []Text{{"SELECT 1", "-c"}, {"\\i wipe.sql\n", "file:outer.sql"}, {files["wipe.sql"], "include:wipe.sql"}}
	if !ok || dialect != Postgres || len(texts) != len(want) {
		t.Fatalf("texts %+v ok %v dialect %q", texts, ok, dialect)
	}
	for i := range want {
		if texts[i] != want[i] {
			t.Errorf("text %d = %+v, want %+v", i, texts[i], want[i])
		}
	}
	// Without readFile, a file cannot be known.
	if _, _, ok := FromCommand("psql", []string{"-f", "schema.sql"}, "", true, nil); ok {
		t.Error("psql -f without readFile: ok")
	}
	// A file larger than MaxText is not read.
	big := func(string) ([]byte, error) { return make([]byte, MaxText+1), nil }
	if _, _, ok := FromCommand("psql", []string{"-f", "x.sql"}, "", true, big); ok {
		t.Error("psql -f of a file past MaxText: ok")
	}
	// At most MaxFiles files are read.
	args := []string{}
	for range MaxFiles + 1 {
		args = append(args, "-f", "schema.sql")
	}
	if _, _, ok := FromCommand("psql", args, "", true, readFile); ok {
		t.Error("more than MaxFiles files: ok")
	}
}
