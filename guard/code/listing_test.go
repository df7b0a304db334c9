package code

import "testing"

// TestScanComputedAndListings: a member chosen at run time is judged as its module's most
// destructive member, and a loop over a folder's listing that deletes what it is handed is a
// recursive delete of the folder, unless it picks some names.
func TestScanComputedAndListings(t *testing.T) {
	t.Parallel()
	runCases(t, []scanCase{
		// getattr on a module imported in place, with a literal or a computed name
		{lang: "python", code: `getattr(__import__('os'), 'system')('reboot')`, want: []string{"shell os.system: reboot"}},
		{lang: "python", code: `getattr(__import__('os'), 'sys' + 'tem')('reboot')`, want: []string{"shell os.system: reboot"}},
		{lang: "python", code: `import os, sys; getattr(os, sys.argv[1])('reboot')`, want: []string{"shell os.system: reboot"}},
		{lang: "python", code: `import shutil; getattr(shutil, name)('/')`, want: []string{"rdelete shutil.rmtree: root /"}},
		{lang: "python", code: `import importlib; getattr(importlib.import_module('shutil'), n)('build')`, want: []string{"rdelete shutil.rmtree: path build"}},
		// a computed member of a module with nothing destructive, a literal harmless member
		{lang: "python", code: `import json; getattr(json, name)('{}')`},
		{lang: "python", code: `import os; getattr(os, 'getcwd')()`},
		{lang: "python", code: `getattr(obj, name)('x')`},
		// loops over a listing that delete what they are handed
		{lang: "python", code: "import os\nfor r, d, fs in os.walk('/'):\n    for f in fs:\n        os.remove(os.path.join(r, f))",
			want: []string{"delete os.remove: dynamic $__dynamic/$__dynamic", "rdelete os.remove over os.walk: root /"}},
		{lang: "python", code: "import os; [os.unlink(f) for f in os.listdir(os.path.expanduser('~'))]",
			want: []string{"delete os.unlink: dynamic", "rdelete os.unlink over os.listdir: home ~"}},
		{lang: "python", code: "import glob, os\nfor f in glob.glob('/srv/data/**/*', recursive=True):\n    os.remove(f)",
			want: []string{"delete os.remove: dynamic", "rdelete os.remove over glob.glob: path /srv/data"}},
		{lang: "javascript", code: "const fs = require('fs'); fs.readdirSync('/var/lib/app').forEach(f => fs.unlinkSync(f))",
			want: []string{"delete fs.unlinkSync: dynamic", "rdelete fs.unlinkSync over fs.readdirSync: path /var/lib/app"}},
		{lang: "ruby", code: `Dir.glob("/srv/**/*").each { |f| File.delete(f) }`,
			want: []string{"delete File.delete: dynamic", "rdelete File.delete over Dir.glob: path /srv"}},
		// loops that pick some names, or delete nothing they are handed
		{lang: "python", code: "import os\nfor f in os.listdir('.'):\n    if f.endswith('.pyc'):\n        os.remove(f)",
			want: []string{"delete os.remove: dynamic"}},
		{lang: "python", code: "import os; [os.remove(f) for f in os.listdir('.') if f.endswith('.tmp')]",
			want: []string{"delete os.remove: dynamic"}},
		{lang: "python", code: "import glob, os\nfor f in glob.glob('logs/*.log'):\n    os.remove(f)",
			want: []string{"delete os.remove: dynamic"}},
		{lang: "python", code: "import os\nfor f in os.listdir('.'):\n    print(f)"},
		// Perl's glob names what it matches
		{lang: "perl", code: `use File::Path qw(remove_tree); remove_tree(glob("~"))`, want: []string{"rdelete remove_tree: home ~"}},
	})
}

// TestScanEvalHandedOn: an evaluator passed as a callback runs what it is handed; a name
// changed after its first assignment is not a constant.
func TestScanEvalHandedOn(t *testing.T) {
	t.Parallel()
	runCases(t, []scanCase{
		{lang: "javascript", code: `fetch(u).then(r => r.text()).then(eval)`, want: []string{"net* fetch:", "eval* eval"}},
		{lang: "javascript", code: `p.then(new Function)`, want: []string{"eval* Function"}},
		{lang: "python", code: `list(map(exec, chunks))`, want: []string{"eval* exec"}},
		{lang: "javascript", code: `console.log(typeof eval, eval)`},
		{lang: "javascript", code: `obj.then(x.eval)`},
		{lang: "javascript", code: "let b = ''; r.on('data', d => b += d); r.on('end', () => eval(b))", want: []string{"eval* eval"}},
		{lang: "javascript", code: "let b = 'ok'; eval(b)", want: []string{"eval eval"}},
	})
}

// TestScanWorkingDirectory: the working directory by expression is ".", unless the program
// changes it first.
func TestScanWorkingDirectory(t *testing.T) {
	t.Parallel()
	runCases(t, []scanCase{
		{lang: "javascript", code: `require('fs').rmSync(process.cwd(), {recursive: true})`, want: []string{"rdelete fs.rmSync: path ."}},
		{lang: "python", code: `import os, shutil; shutil.rmtree(os.getcwd())`, want: []string{"rdelete shutil.rmtree: path ."}},
		{lang: "python", code: `import os, shutil; shutil.rmtree(os.path.join(os.getcwd(), "build"))`, want: []string{"rdelete shutil.rmtree: path ./build"}},
		{lang: "python", code: `import os, shutil; os.chdir("/tmp"); shutil.rmtree(os.getcwd())`, want: []string{"rdelete shutil.rmtree: dynamic"}},
		{lang: "julia", code: `rm(pwd(); recursive=true)`, want: []string{"rdelete rm: path ."}},
	})
}
