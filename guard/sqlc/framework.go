package sqlc

import (
	"path"
	"strings"
)

// frameworkRule is one destructive database command of a framework or ORM.
type frameworkRule struct {
	// sub is the subcommand path as words ("migrate reset"), or a task ("db:drop"); a task also
	// matches its per-database forms (db:drop:primary).
	sub string
	// flags, when set, must include one of these for the command to destroy (--force-reset).
	flags []string
	// arg, when set, must be among the operands after the subcommand ("base", "zero", "0").
	arg []string
	why string
}

// frameworkRules returns a tool's rules (after pass-through runners are removed), nil for a
// tool with none: a switch, not a table, so that a command of any other program, every guard
// process's, builds nothing (a map of the tools cost a guard process 18K instructions). The
// behaviour of each entry was checked against the tool's documentation:
//   - Rails guides, "Active Record Migrations" (db:drop, db:reset, db:schema:load, db:purge,
//     db:truncate_all, db:seed:replant, db:migrate:reset, db:setup, db:fixtures:load);
//   - Django "django-admin and manage.py" (flush; migrate APP zero unapplies every migration)
//     and django-extensions (reset_db, reset_schema, drop_test_database);
//   - Laravel "Database: Migrations" (migrate:fresh, migrate:reset, migrate:refresh, db:wipe);
//   - Prisma CLI reference (migrate reset; db push --accept-data-loss / --force-reset);
//   - drizzle-kit push: --force auto-approves the statements that lose data (drizzle-kit docs
//     and its source, 0.31);
//   - sequelize-cli (db:drop, db:migrate:undo:all, db:seed:undo:all); TypeORM CLI (schema:drop,
//     schema:sync "may cause data loss"); knex (migrate:rollback --all); Alembic and
//     Flask-Migrate (downgrade base); EF Core tools (database drop; database update 0);
//     Ecto (ecto.drop, ecto.reset, ecto.rollback --all); Supabase CLI (db reset);
//     golang-migrate (drop; down without a count runs every down migration); goose (reset);
//     Flyway (clean); Liquibase (drop-all); Diesel (database reset, migration revert --all);
//     dbmate (drop); Sqitch (revert without --to reverts everything; rebase); MikroORM
//     (schema:drop, schema:fresh, migration:fresh); AdonisJS ace (migration:fresh, :reset,
//     :refresh, db:wipe); Doctrine (doctrine:database:drop, doctrine:schema:drop,
//     doctrine:fixtures:load without --append purges); Heroku (pg:reset); Wrangler (d1 delete).
func frameworkRules(tool string) []frameworkRule {
	switch tool {
	case "rails", "rake":
		return []frameworkRule{
			{sub: "db:drop", why: "drops the database"},
			{sub: "db:reset", why: "drops and recreates the database"},
			{sub: "db:schema:load", why: "recreates every table from the schema, deleting their rows"},
			{sub: "db:structure:load", why: "recreates every table from the structure file, deleting their rows"},
			{sub: "db:migrate:reset", why: "drops the database and runs every migration again"},
			{sub: "db:purge", why: "empties the database"},
			{sub: "db:truncate_all", why: "empties every table"},
			{sub: "db:seed:replant", why: "empties every table before seeding"},
			{sub: "db:setup", why: "loads the schema, recreating tables that exist"},
			{sub: "db:fixtures:load", why: "deletes the rows of the fixtures' tables"},
			{sub: "db:migrate", arg: []string{"VERSION=0"}, why: "reverts every migration"},
		}
	case "manage.py", "django-admin":
		return []frameworkRule{
			{sub: "flush", why: "deletes every row of every table"},
			{sub: "reset_db", why: "drops and recreates the database"},
			{sub: "reset_schema", why: "drops and recreates the schema"},
			{sub: "drop_test_database", why: "drops the test database"},
			{sub: "migrate", arg: []string{"zero"}, why: "unapplies every migration of the app, dropping its tables"},
		}
	case "artisan":
		return []frameworkRule{
			{sub: "migrate:fresh", why: "drops every table and runs the migrations again"},
			{sub: "migrate:reset", why: "rolls back every migration"},
			{sub: "migrate:refresh", why: "rolls back every migration and runs them again"},
			{sub: "db:wipe", why: "drops every table, view and type"},
			{sub: "schema:dump", flags: []string{"--prune"}, why: "deletes the migration files"},
		}
	case "ace":
		return []frameworkRule{
			{sub: "migration:fresh", why: "drops every table and runs the migrations again"},
			{sub: "migration:reset", why: "rolls back every migration"},
			{sub: "migration:refresh", why: "rolls back every migration and runs them again"},
			{sub: "db:wipe", why: "drops every table"},
			{sub: "migration:rollback", flags: []string{"--batch=0"}, why: "rolls back every migration"},
		}
	case "prisma":
		return []frameworkRule{
			{sub: "migrate reset", why: "drops the database and runs every migration again"},
			{sub: "db push", flags: []string{"--accept-data-loss", "--force-reset"}, why: "pushes a schema accepting data loss"},
		}
	case "drizzle-kit":
		return []frameworkRule{
			{sub: "push", flags: []string{"--force"}, why: "pushes the schema approving every statement that loses data"},
			{sub: "drop", why: "deletes a migration"},
		}
	case "sequelize", "sequelize-cli":
		return []frameworkRule{
			{sub: "db:drop", why: "drops the database"},
			{sub: "db:migrate:undo:all", why: "reverts every migration"},
			{sub: "db:seed:undo:all", why: "deletes every seeded row"},
		}
	case "typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm":
		return []frameworkRule{
			{sub: "schema:drop", why: "drops every table"},
			{sub: "schema:sync", why: "synchronises the schema, which may drop columns and tables"},
		}
	case "knex":
		return []frameworkRule{{sub: "migrate:rollback", flags: []string{"--all"}, why: "reverts every migration"}}
	case "alembic":
		return []frameworkRule{{sub: "downgrade", arg: []string{"base"}, why: "reverts every migration"}}
	case "flask":
		return []frameworkRule{{sub: "db downgrade", arg: []string{"base"}, why: "reverts every migration"}}
	case "dotnet-ef":
		return []frameworkRule{
			{sub: "database drop", why: "drops the database"},
			{sub: "database update", arg: []string{"0"}, why: "reverts every migration"},
		}
	case "mix":
		return []frameworkRule{
			{sub: "ecto.drop", why: "drops the database"},
			{sub: "ecto.reset", why: "drops and recreates the database"},
			{sub: "ecto.rollback", flags: []string{"--all"}, why: "reverts every migration"},
		}
	case "supabase":
		return []frameworkRule{
			{sub: "db reset", why: "recreates the database, deleting its data"},
			{sub: "projects delete", why: "deletes a project and its database"},
		}
	case "migrate": // golang-migrate
		return []frameworkRule{
			{sub: "drop", why: "drops everything in the database"},
			{sub: "down", arg: []string{"", "-all"}, why: "runs every down migration"},
		}
	case "goose":
		return []frameworkRule{
			{sub: "reset", why: "rolls back every migration"},
			{sub: "down-to", arg: []string{"0"}, why: "rolls back every migration"},
		}
	case "flyway":
		return []frameworkRule{{sub: "clean", why: "drops every object in the schemas"}}
	case "liquibase":
		return []frameworkRule{{sub: "drop-all", why: "drops every object"}, {sub: "dropAll", why: "drops every object"}}
	case "diesel":
		return []frameworkRule{
			{sub: "database reset", why: "drops and recreates the database"},
			{sub: "migration revert", flags: []string{"--all"}, why: "reverts every migration"},
		}
	case "dbmate":
		return []frameworkRule{{sub: "drop", why: "drops the database"}}
	case "sqitch":
		return []frameworkRule{
			{sub: "revert", why: "reverts every change unless --to limits it"},
			{sub: "rebase", why: "reverts every change before deploying"},
		}
	case "mikro-orm", "mikro-orm-esm":
		return []frameworkRule{
			{sub: "schema:drop", why: "drops the schema"},
			{sub: "schema:fresh", why: "drops and recreates the schema"},
			{sub: "migration:fresh", why: "drops the schema and runs every migration again"},
		}
	case "console": // Symfony bin/console
		return []frameworkRule{
			{sub: "doctrine:database:drop", why: "drops the database"},
			{sub: "doctrine:schema:drop", why: "drops the schema"},
			{sub: "doctrine:fixtures:load", why: "purges the database before loading fixtures (without --append)"},
		}
	case "heroku":
		return []frameworkRule{{sub: "pg:reset", why: "deletes every table of the database"}}
	case "wrangler":
		return []frameworkRule{{sub: "d1 delete", why: "deletes the database"}}
	}
	return nil
}

// FrameworkCommand reports whether argv (program first) is a framework's or ORM's database
// command that destroys data: rails db:drop, prisma migrate reset, manage.py flush, artisan
// migrate:fresh, ... Pass-through runners in front are looked through (npx, pnpm exec, yarn,
// bunx, bundle exec, php, python [-m], uv/poetry/pipenv run, node, dotnet ef, docker compose
// exec|run SERVICE). Commands that run SQL given as an argument (typeorm query, wrangler d1
// execute --command) are judged by Classify.
func FrameworkCommand(argv []string) (destructive bool, why string) {
	argv = unwrapRunner(argv)
	if len(argv) == 0 {
		return false, ""
	}
	tool := toolName(argv[0])
	args := argv[1:]
	if v, ok := sqlArgument(tool, args); ok {
		return v.effect == Destroy || v.effect == Shell, v.reason
	}
	switch tool {
	case "pg_restore":
		// pg_restore --clean drops each object before it recreates it (pg_restore(1)).
		p := parse(args, optSpec{shortVal: "dfFIjLnNPSTtUhp",
			longVal: set("dbname file format index jobs use-list schema exclude-schema function table trigger superuser host port username role section")})
		if p.has("-c", "--clean") {
			return true, "pg_restore --clean drops each database object before restoring it"
		}
		return false, ""
	case "mongorestore":
		for _, a := range args {
			if a == "--drop" {
				return true, "mongorestore --drop drops each collection before restoring it"
			}
		}
		return false, ""
	}
	rules := frameworkRules(tool)
	if len(rules) == 0 {
		return false, ""
	}
	var words, flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-") && len(a) > 1:
			flags = append(flags, a)
			if !strings.Contains(a, "=") && valuedFlags()[a] && i+1 < len(args) {
				i++
			}
		case !strings.Contains(a, "=") || tool == "rails" || tool == "rake":
			words = append(words, a)
		}
	}
	for _, r := range rules {
		if ok, rest := matchSub(tool, r.sub, words); ok {
			if len(r.flags) > 0 && !hasFlag(flags, r.flags) {
				continue
			}
			if len(r.arg) > 0 && !argAmong(tool, rest, flags, r.arg) {
				continue
			}
			if tool == "console" && r.sub == "doctrine:fixtures:load" && hasFlag(flags, []string{"--append"}) {
				continue
			}
			if tool == "sqitch" && r.sub == "revert" && hasFlag(flags, []string{"--to", "--to-change"}) {
				continue
			}
			return true, tool + " " + r.sub + " " + r.why
		}
	}
	return false, ""
}

// valuedFlags are the options of the tools above that take a value as the next word, so that
// the value is not read as a subcommand (alembic -c alembic.ini downgrade base).
var valuedFlagsTable lazy[map[string]bool]

// valuedFlags builds its table on first use.
func valuedFlags() map[string]bool {
	return valuedFlagsTable.get(func() map[string]bool {
		return set(`-c --config -n --name -x --app -A -e --env-file --project -p --startup-project -s
			--context --framework --configuration --runtime -r --knexfile --cwd --env --options-path
			--migrations-path --seeders-path --models-path --url -d --dataSource --workdir --project-ref
			--db-url -path --path -source --source -database --database -dir --dir --table --target -C
			--chdir --schema --settings --pythonpath --database-url --migration-dir --config-file
			--connection --database-name --em`)
	})
}

// matchSub matches a subcommand path against the leading words (a task, for rake-like tools,
// anywhere among them) and returns the words after it.
func matchSub(tool, sub string, words []string) (bool, []string) {
	if strings.Contains(sub, ":") && !strings.Contains(sub, " ") && (tool == "rails" || tool == "rake") {
		for i, w := range words {
			w = strings.SplitN(w, "[", 2)[0]
			if w == sub || strings.HasPrefix(w, sub+":") && !isLongerTask(w, sub) {
				return true, words[i+1:]
			}
		}
		return false, nil
	}
	parts := strings.Fields(sub)
	if len(words) < len(parts) {
		return false, nil
	}
	for i, p := range parts {
		if words[i] != p {
			return false, nil
		}
	}
	return true, words[len(parts):]
}

// isLongerTask tells db:schema:load:queue (the same task for one database) from
// db:migrate:status (another task): the suffix must not be a known task word.
func isLongerTask(w, sub string) bool {
	switch strings.TrimPrefix(w, sub+":") {
	case "status", "redo", "up", "down", "dump", "cache", "clear", "reset", "load", "prepare", "abort_if_pending_migrations":
		return true
	}
	return false
}

func hasFlag(flags, want []string) bool {
	for _, f := range flags {
		name := strings.SplitN(f, "=", 2)[0]
		for _, w := range want {
			if f == w || name == w {
				return true
			}
		}
	}
	return false
}

// argAmong checks the operand a rule needs: "" means no operand at all (golang-migrate down).
func argAmong(tool string, rest, flags, want []string) bool {
	for _, w := range want {
		switch {
		case w == "":
			if len(rest) == 0 {
				return true
			}
		case strings.HasPrefix(w, "-"):
			if hasFlag(flags, []string{w}) {
				return true
			}
		case strings.Contains(w, "="):
			for _, r := range rest {
				if strings.EqualFold(r, w) {
					return true
				}
			}
		default:
			for _, r := range rest {
				if r == w {
					return true
				}
			}
		}
	}
	return false
}

// sqlArgument judges the framework commands that run SQL given on their command line.
func sqlArgument(tool string, args []string) (verdict, bool) {
	var sql, dialect string
	switch {
	case strings.HasPrefix(tool, "typeorm") && len(args) > 1 && args[0] == "query":
		sql, dialect = args[1], Postgres
	case tool == "wrangler" && len(args) > 2 && args[0] == "d1" && args[1] == "execute":
		p := parse(args[2:], optSpec{longVal: set("command file config env persist-to")})
		for _, o := range p.opts {
			if o.name == "--command" {
				sql, dialect = o.val, SQLite
			}
		}
	}
	if sql == "" {
		return verdict{}, false
	}
	w := read("")
	for _, st := range Classify(dialect, sql) {
		w = w.worse(verdict{kind: st.Kind, effect: st.Effect, reason: st.Reason})
	}
	return w, true
}

// toolName is the tool a program path stands for.
func toolName(p string) string {
	b := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat", ".js", ".cjs", ".mjs", ".ts"} {
		b = strings.TrimSuffix(b, ext)
	}
	// Package specs as npx takes them: prisma@5, @mikro-orm/cli.
	if strings.HasPrefix(b, "@") {
		if k := strings.IndexByte(b[1:], '@'); k >= 0 {
			b = b[:k+1]
		}
	} else if k := strings.IndexByte(b, '@'); k > 0 {
		b = b[:k]
	}
	switch b {
	case "cli":
		if strings.Contains(p, "mikro-orm") {
			return "mikro-orm"
		}
		if strings.Contains(p, "typeorm") {
			return "typeorm"
		}
	case "manage":
		return "manage.py"
	case "dotnet-ef", "ef":
		return "dotnet-ef"
	case "sail":
		return "sail"
	}
	return b
}

// unwrapRunner removes the package runners and interpreters in front of a framework's command.
func unwrapRunner(argv []string) []string {
	for n := 0; n < 6 && len(argv) > 0; n++ {
		tool := toolName(argv[0])
		rest := argv[1:]
		switch {
		case tool == "npx" || tool == "pnpx" || tool == "bunx":
			argv = skipOpts(rest, set("p package c call node-options userconfig cache registry"))
		case tool == "npm" && len(rest) > 0 && (rest[0] == "exec" || rest[0] == "x"):
			argv = skipOpts(rest[1:], set("package c call workspace w"))
		case (tool == "pnpm" || tool == "yarn") && len(rest) > 0 && (rest[0] == "exec" || rest[0] == "dlx" || rest[0] == "run"):
			argv = skipOpts(rest[1:], set("package filter F C dir"))
		case tool == "pnpm" || tool == "yarn":
			argv = skipOpts(rest, set("filter F C dir cwd"))
		case tool == "bun" && len(rest) > 0 && (rest[0] == "x" || rest[0] == "run"):
			argv = skipOpts(rest[1:], nil)
		case tool == "bundle" && len(rest) > 0 && rest[0] == "exec":
			argv = rest[1:]
		case (tool == "uv" || tool == "poetry" || tool == "pipenv" || tool == "pdm" || tool == "hatch" || tool == "rye") &&
			len(rest) > 0 && rest[0] == "run":
			argv = skipOpts(rest[1:], set("with python p project directory env-file extra group package"))
		case strings.HasPrefix(tool, "python") || tool == "py" || tool == "php" || tool == "node" ||
			tool == "ts-node" || tool == "tsx" || tool == "deno":
			r := skipOpts(rest, set("r require W X loader import"))
			if len(r) > 1 && r[0] == "-m" {
				switch r[1] {
				case "django":
					argv = append([]string{"django-admin"}, r[2:]...)
				default:
					argv = r[1:]
				}
				continue
			}
			argv = r
		case tool == "dotnet" && len(rest) > 0 && rest[0] == "ef":
			argv = append([]string{"dotnet-ef"}, rest[1:]...)
		case tool == "sail" && len(rest) > 0 && (rest[0] == "artisan" || rest[0] == "art"):
			argv = append([]string{"artisan"}, rest[1:]...)
		case (tool == "docker" || tool == "podman") && len(rest) > 1 && rest[0] == "compose" && (rest[1] == "exec" || rest[1] == "run"):
			r := skipOpts(rest[2:], set("e env u user w workdir name entrypoint p publish v volume l label index"))
			if len(r) > 0 {
				argv = r[1:]
			} else {
				argv = nil
			}
		case tool == "docker-compose" && len(rest) > 0 && (rest[0] == "exec" || rest[0] == "run"):
			r := skipOpts(rest[1:], set("e env u user w workdir name entrypoint p publish v volume l label index"))
			if len(r) > 0 {
				argv = r[1:]
			} else {
				argv = nil
			}
		default:
			return argv
		}
	}
	return argv
}

// skipOpts drops leading options (and the values of those in withVal) and a "--".
func skipOpts(args []string, withVal map[string]bool) []string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return args[i+1:]
		}
		if !strings.HasPrefix(a, "-") || a == "-" || a == "-m" {
			return args[i:]
		}
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && withVal[name] {
			i++
		}
	}
	return nil
}
