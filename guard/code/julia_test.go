package code

import "testing"

func TestScanJulia(t *testing.T) {
	t.Parallel()
	runCases(t, []scanCase{
		// text in strings, comments and command literals that are not run
		{lang: "julia", code: `println("rm -rf /")`},
		{lang: "julia", code: "# rm(homedir(); recursive=true)\nx = 1"},
		{lang: "julia", code: "#= rm(\"/\"; recursive=true)\n=# y = 2"},
		{lang: "julia", code: `s = """run(` + "`rm -rf /`" + `)"""`},
		{lang: "julia", code: `a = [1 2]'; b = a'`},
		{lang: "julia", code: `rm("build"; recursive=true)`, want: []string{"rdelete rm: path build"}},
		{lang: "julia", code: `rm("out.txt")`, want: []string{"delete rm: path out.txt"}},
		{lang: "julia", code: `rm("out.txt"; force=true)`, want: []string{"delete rm: path out.txt"}},
		// deletes and shell-outs
		{lang: "julia", code: `rm(homedir(); recursive=true)`, want: []string{"rdelete rm: home ~"}},
		{lang: "julia", code: `rm(joinpath(homedir(), ".ssh"), recursive=true)`, want: []string{"rdelete rm: home ~/.ssh"}},
		{lang: "julia", code: "run(`rm -rf /`)", want: []string{"shell `…`: rm -rf /"}},
		{lang: "julia", code: "run(`rm -rf $(homedir())`)", want: []string{"shell* `…`: rm -rf $__dynamic"}},
		{lang: "julia", code: `eval(Meta.parse(readline()))`, want: []string{"eval* eval", "eval* Meta.parse"}},
		{lang: "julia", code: "for f in readdir(\"/\")\n    rm(f; recursive=true)\nend",
			want: []string{"rdelete rm: dynamic", "rdelete rm over readdir: root /"}},
	})
}

func FuzzScanJulia(f *testing.F) {
	fuzzScan(f, "julia", `rm(homedir(); recursive=true)`, "run(`rm -rf $(x)`)", "#= a #= b =# c =#", `"""x $(y) z"""`, `'a'`,
		"for f in readdir(\".\")\n rm(f)\nend")
}
