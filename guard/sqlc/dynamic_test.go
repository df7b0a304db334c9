package sqlc

import "testing"

// TestDynamicSQL: a statement the database builds and runs itself is judged by the text it
// folds to; a computed name does not hide a DROP, a computed verb is unknown, and a filter in
// the folded text counts.
func TestDynamicSQL(t *testing.T) {
	t.Parallel()
	for _, tc := range []classifyCase{
		{Postgres, "DO $$BEGIN EXECUTE 'DR' || 'OP TABLE users'; END$$", Destroy, "drop-table", ""},
		{Postgres, "DO $$DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables LOOP EXECUTE 'DROP TABLE ' || quote_ident(r.tablename) || ' CASCADE'; END LOOP; END$$", Destroy, "drop-table", ""},
		{Postgres, "DO $$BEGIN EXECUTE format('TRUNCATE %I', t); END$$", Destroy, "truncate", ""},
		{Postgres, "DO $$BEGIN EXECUTE concat('DROP SCHEMA ', s, ' CASCADE'); END$$", Destroy, "drop-schema", ""},
		{Postgres, "DO $$BEGIN EXECUTE 'DELETE FROM ' || t; END$$", Destroy, "delete-all", ""},
		{Postgres, "EXECUTE 'DROP ' || 'DATABASE prod'", Destroy, "drop-database", ""},
		{Postgres, "DO $$BEGIN EXECUTE 'DELETE FROM ' || t || ' WHERE id = 1'; END$$", Write, "", ""},
		{Postgres, "DO $$BEGIN EXECUTE format('SELECT count(*) FROM %I', t); END$$", Write, "", ""},
		{Postgres, "DO $$BEGIN EXECUTE 'ANALYZE ' || t; END$$", Write, "", ""},
		{Postgres, "DO $$BEGIN EXECUTE v || ' TABLE users'; END$$", Unknown, "", ""},
		{Postgres, "DO $$BEGIN EXECUTE v_sql; END$$", Unknown, "", ""},
	} {
		sts := Classify(tc.dialect, tc.text)
		w := worst(sts)
		if w.Effect != tc.effect || tc.kind != "" && w.Kind != tc.kind {
			t.Errorf("Classify(%s, %q) worst = %s %s (%s); want %s %s", tc.dialect, tc.text, w.Effect, w.Kind, w.Reason, tc.effect, tc.kind)
		}
	}
}
