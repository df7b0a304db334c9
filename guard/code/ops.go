package code

import (
	"strings"
	"sync"
)

// opKind is what a known call does.
type opKind uint8

const (
	opShell    opKind = iota + 1 // argument at is shell text, or a list of words
	opJoin                       // every positional argument: one is shell text, several are words
	opProg                       // argument at is a program, at+1 its list of arguments (or an options object)
	opExecl                      // argument at is a program, the following ones its argv (argv[0] first)
	opSpawnObj                   // a list of words, or an object with cmd: [...] (Deno.run, Bun.spawn)
	opTemplate                   // a tagged template literal is shell text (Bun.$`...`, zx's $`...`)
	opDelete                     // argument at (every one when all) is removed
	opWrite                      // argument at is written
	opOpen                       // open(path, mode): a write when the mode writes
	opKill                       // argument at is a pid; group: every call is a group kill
	opFork                       // forks the process
	opNet                        // argument at is the address
	opEval                       // argument at is code in the same language
)

// op is the meaning of one known call.
type op struct {
	kind   opKind
	at     int  // the argument that matters; -1 is the receiver (Path('x').unlink())
	all    bool // every positional argument from at on is a target
	rec    bool // a recursive delete
	append bool // a write that appends
	group  bool // a kill of a process group
	send   bool // a network call that sends data
	async  bool // a spawn that does not wait for the child (counts in fork loops)
	mode   int  // the argument holding the open mode
	// known: a method that many types have (unlink, delete, open) counts only on a receiver
	// whose value is known (Path('x'), Pathname.new(p), a constant), not on any object.
	known bool
}

var (
	tableOnce sync.Once
	table     map[string]op // "lang name" → op; ".name" keys match a method on any receiver
)

func ops(lang, name string) (op, bool) {
	if lang == "julia" {
		return juliaOp(name)
	}
	tableOnce.Do(buildTable)
	o, ok := table[lang+" "+name]
	return o, ok
}

func buildTable() {
	table = make(map[string]op, 600)
	add := func(lang string, o op, names ...string) {
		for _, n := range names {
			table[lang+" "+n] = o
		}
	}
	shell := op{kind: opShell}
	async := op{kind: opShell, async: true}
	del := op{kind: opDelete}
	rdel := op{kind: opDelete, rec: true}
	write := op{kind: opWrite}
	appendW := op{kind: opWrite, append: true}
	open1 := op{kind: opOpen, mode: 1}
	kill := op{kind: opKill}
	fork := op{kind: opFork}
	net := op{kind: opNet}
	send := op{kind: opNet, send: true}
	eval := op{kind: opEval}

	// Python
	add("python", shell, "os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.check_output",
		"subprocess.check_call", "subprocess.getoutput", "subprocess.getstatusoutput", "commands.getoutput",
		"commands.getstatusoutput", "pty.spawn", "asyncio.create_subprocess_shell", "os.popen2", "os.popen3", "popen2.popen2",
		"sh.Command", "plumbum.local")
	add("python", async, "subprocess.Popen", "asyncio.create_subprocess_shell")
	add("python", shell, ".system") // ctypes.CDLL(None).system(b"..."); platform.system() has no argument
	add("python", op{kind: opJoin, async: true}, "asyncio.create_subprocess_exec")
	add("python", op{kind: opExecl}, "os.execl", "os.execle", "os.execlp", "os.execlpe")
	add("python", op{kind: opProg}, "os.execv", "os.execve", "os.execvp", "os.execvpe")
	add("python", op{kind: opProg, async: true}, "os.posix_spawn", "os.posix_spawnp")
	add("python", op{kind: opExecl, at: 1, async: true}, "os.spawnl", "os.spawnle", "os.spawnlp", "os.spawnlpe")
	add("python", op{kind: opProg, at: 1, async: true}, "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe")
	add("python", rdel, "shutil.rmtree", ".rmtree", "distutils.dir_util.remove_tree", "send2trash.send2trash")
	add("python", del, "os.remove", "os.unlink", "os.rmdir", "os.removedirs")
	add("python", op{kind: opDelete, at: -1, known: true}, ".unlink", ".rmdir")
	add("python", op{kind: opDelete, at: -1, rec: true}, ".rmtree")
	add("python", op{kind: opWrite, at: -1, known: true}, ".write_text", ".write_bytes")
	add("python", op{kind: opOpen, at: -1, mode: 0, known: true}, ".open")
	add("python", open1, "open", "io.open", "codecs.open", "os.fdopen", "gzip.open", "bz2.open", "lzma.open")
	add("python", op{kind: opOpen, mode: -2}, "os.open")
	add("python", op{kind: opWrite, at: 1}, "shutil.copy", "shutil.copyfile", "shutil.copy2", "shutil.move", "os.rename", "os.replace")
	add("python", kill, "os.kill")
	add("python", op{kind: opKill, group: true}, "os.killpg")
	add("python", fork, "os.fork", "os.forkpty", "pty.fork", "multiprocessing.Process")
	add("python", send, "requests.post", "requests.put", "requests.patch", "httpx.post", "httpx.put", "httpx.patch",
		"ftplib.FTP", "smtplib.SMTP", "smtplib.SMTP_SSL", "aiohttp.ClientSession.post")
	add("python", net, "requests.get", "requests.head", "requests.delete", "requests.request", "httpx.get", "httpx.request",
		"httpx.stream", "urllib.request.urlopen", "urllib.request.Request", "urllib.request.urlretrieve", "urllib2.urlopen",
		"urlopen", "http.client.HTTPConnection", "http.client.HTTPSConnection", "socket.create_connection", "telnetlib.Telnet",
		"xmlrpc.client.ServerProxy", "paramiko.SSHClient", "websocket.create_connection")
	add("python", eval, "exec", "eval", "compile", "execfile")

	// JavaScript (node, deno, bun)
	for _, m := range []string{"child_process.", ""} {
		add("javascript", shell, m+"execSync")
		add("javascript", async, m+"exec")
		add("javascript", op{kind: opProg}, m+"execFileSync", m+"spawnSync")
		add("javascript", op{kind: opProg, async: true}, m+"execFile", m+"spawn")
	}
	delete(table, "javascript exec") // a bare exec( is RegExp's or a user's, unless imported from child_process
	delete(table, "javascript spawn")
	delete(table, "javascript execFile")
	add("javascript", op{kind: opFork}, "child_process.fork", "cluster.fork")
	// names only child_process has, on a receiver the scanner could not resolve (require(x))
	add("javascript", shell, ".execSync")
	add("javascript", op{kind: opProg}, ".spawnSync", ".execFileSync")
	add("javascript", op{kind: opProg}, "Deno.Command", "execa", "execa.execa", "execaSync", "execa.execaSync", "Bun.spawnSync")
	add("javascript", op{kind: opSpawnObj}, "Deno.run", "Bun.spawnSync")
	add("javascript", op{kind: opSpawnObj, async: true}, "Bun.spawn")
	add("javascript", shell, "execaCommand", "execaCommandSync", "shelljs.exec", "execa.execaCommand", "execa.execaCommandSync")
	add("javascript", op{kind: opTemplate}, "Bun.$", "$", "bun.$", "zx.$", "execa.$")
	for _, fs := range []string{"fs.", "fs.promises.", "fsPromises.", "fse.", "fs-extra.", ""} {
		add("javascript", op{kind: opDelete, mode: 1}, fs+"rm", fs+"rmSync", fs+"rmdir", fs+"rmdirSync")
		add("javascript", del, fs+"unlink", fs+"unlinkSync")
		add("javascript", write, fs+"writeFile", fs+"writeFileSync", fs+"createWriteStream", fs+"outputFile", fs+"outputFileSync")
		add("javascript", appendW, fs+"appendFile", fs+"appendFileSync")
		add("javascript", open1, fs+"open", fs+"openSync")
		add("javascript", op{kind: opWrite, at: 1}, fs+"copyFile", fs+"copyFileSync", fs+"rename", fs+"renameSync")
	}
	for _, n := range []string{"rm", "rmdir", "unlink", "open", "rename"} {
		delete(table, "javascript "+n) // bare names are too common; imported ones resolve to fs.*
	}
	add("javascript", rdel, "rimraf", "rimraf.sync", "rimraf.rimraf", "rimraf.rimrafSync", "rimrafSync", "fse.remove",
		"fse.removeSync", "fs-extra.remove", "fs-extra.removeSync", "fse.emptyDir", "fse.emptyDirSync", "del", "del.deleteAsync",
		"deleteAsync", "deleteSync", "shelljs.rm", "trash")
	add("javascript", op{kind: opDelete, mode: 1}, "Deno.remove", "Deno.removeSync")
	add("javascript", write, "Deno.writeTextFile", "Deno.writeTextFileSync", "Deno.writeFile", "Deno.writeFileSync", "Bun.write")
	add("javascript", kill, "process.kill")
	add("javascript", send, "axios.post", "axios.put", "axios.patch", "got.post", "got.put", "navigator.sendBeacon",
		"needle.post", "superagent.post")
	add("javascript", net, "fetch", "http.request", "https.request", "http.get", "https.get", "axios", "axios.get",
		"axios.request", "net.connect", "net.createConnection", "tls.connect", "WebSocket", "Deno.connect", "Bun.connect",
		"dgram.createSocket", "got", "undici.request")
	add("javascript", eval, "eval", "Function", "vm.runInNewContext", "vm.runInThisContext", "vm.runInContext", "vm.Script",
		"setTimeout", "setInterval")

	// Perl
	add("perl", op{kind: opJoin}, "system", "exec")
	add("perl", shell, "readpipe")
	add("perl", op{kind: opJoin, at: 2, async: true}, "open2", "IPC.Open2.open2")
	add("perl", op{kind: opJoin, at: 3, async: true}, "open3", "IPC.Open3.open3")
	add("perl", op{kind: opOpen, mode: 1}, "open")
	add("perl", op{kind: opDelete, all: true}, "unlink", "rmdir")
	add("perl", op{kind: opDelete, all: true, rec: true}, "rmtree", "remove_tree", "File.Path.rmtree", "File.Path.remove_tree")
	add("perl", op{kind: opWrite, mode: 2}, "sysopen")
	add("perl", op{kind: opKill, at: 1, all: true}, "kill")
	add("perl", fork, "fork", "POSIX.fork")
	add("perl", send, "IO.Socket.INET.new", "IO.Socket.IP.new", "IO.Socket.SSL.new", "socket", ".post", ".put", "Net.SMTP.new", "Net.FTP.new")
	add("perl", net, "LWP.Simple.get", "LWP.Simple.getstore", "getstore", "HTTP.Tiny.new.get", ".request", "Net.SSH.Perl.new")
	add("perl", eval, "eval")

	// Ruby
	add("ruby", op{kind: opJoin}, "system", "exec", "Open3.capture2", "Open3.capture2e", "Open3.capture3", "PTY.spawn", "Process.exec")
	add("ruby", op{kind: opJoin, async: true}, "spawn", "Process.spawn", "Open3.popen2", "Open3.popen2e", "Open3.popen3",
		"Open3.pipeline", "Open3.pipeline_r", "Open3.pipeline_w", "Open3.pipeline_rw", "Open3.pipeline_start")
	add("ruby", op{kind: opShell, async: true}, "IO.popen")
	add("ruby", op{kind: opDelete, all: true, rec: true}, "FileUtils.rm_rf", "FileUtils.rm_r", "FileUtils.remove_dir",
		"FileUtils.remove_entry", "FileUtils.remove_entry_secure", "FileUtils.rmtree", "rm_rf", "rm_r", "FileUtils.remove_tree")
	add("ruby", op{kind: opDelete, all: true}, "FileUtils.rm", "FileUtils.rm_f", "FileUtils.remove", "FileUtils.rmdir",
		"File.delete", "File.unlink", "Dir.delete", "Dir.rmdir", "Dir.unlink", "FileUtils.remove_file")
	add("ruby", op{kind: opDelete, at: -1, rec: true}, ".rmtree")
	add("ruby", op{kind: opDelete, at: -1, known: true}, ".delete", ".unlink")
	add("ruby", write, "File.write", "IO.write", "File.binwrite", "IO.binwrite")
	add("ruby", open1, "File.open", "File.new", "open", "IO.open", "Kernel.open")
	add("ruby", op{kind: opKill, at: 1, all: true}, "Process.kill")
	add("ruby", fork, "fork", "Process.fork")
	add("ruby", send, "Net.HTTP.post", "Net.HTTP.post_form", "HTTParty.post", "HTTParty.put", "Faraday.post", "RestClient.post",
		"RestClient.put", "TCPSocket.new", "TCPSocket.open", "Socket.tcp", "UDPSocket.new", "Net.SMTP.start")
	add("ruby", net, "Net.HTTP.start", "Net.HTTP.get", "Net.HTTP.get_response", "Net.HTTP.new", "URI.open", "HTTParty.get",
		"Faraday.get", "RestClient.get", "Net.SSH.start")
	add("ruby", eval, "eval", "instance_eval", "class_eval", "module_eval", "binding.eval")

	// PHP (names lower-cased)
	add("php", shell, "system", "exec", "shell_exec", "passthru", "popen", "proc_open")
	add("php", op{kind: opProg}, "pcntl_exec")
	add("php", del, "unlink", "rmdir")
	add("php", write, "file_put_contents")
	add("php", open1, "fopen", "splfileobject")
	add("php", op{kind: opWrite, at: 1}, "copy", "rename", "move_uploaded_file")
	add("php", kill, "posix_kill")
	add("php", fork, "pcntl_fork")
	add("php", send, "curl_init", "fsockopen", "pfsockopen", "stream_socket_client", "socket_connect", "mail", "ftp_connect")
	add("php", net, "file_get_contents", "fopen.url", "get_headers")
	add("php", eval, "eval", "assert", "create_function")

	// Lua
	add("lua", shell, "os.execute", "io.popen")
	add("lua", del, "os.remove")
	add("lua", open1, "io.open")
	add("lua", write, "io.output")
	add("lua", op{kind: opWrite, at: 1}, "os.rename")
	add("lua", fork, "posix.fork", "posix.unistd.fork")
	add("lua", kill, "posix.kill", "posix.signal.kill")
	add("lua", send, "socket.connect", "socket.tcp", "http.request", "socket.http.request", "ssl.https.request")
	add("lua", eval, "load", "loadstring", "dostring")

	// awk
	add("awk", shell, "system")

	// R
	add("r", shell, "system", "shell", "pipe", "shell.exec")
	add("r", op{kind: opProg}, "system2", "processx.run", "sys.exec_wait", "sys.exec_internal", "callr.rcmd")
	add("r", op{kind: opProg, async: true}, "processx.process.new", "sys.exec_background")
	add("r", op{kind: opDelete, all: true}, "unlink", "file.remove", "fs.file_delete", "fs.link_delete")
	add("r", op{kind: opDelete, all: true, rec: true}, "fs.dir_delete")
	add("r", op{kind: opWrite, at: 1}, "writeLines", "write", "saveRDS", "save", "write.csv", "write.table", "writeBin",
		"writeChar", "file.copy", "file.rename", "download.file")
	add("r", write, "sink", "file.create")
	add("r", op{kind: opWrite, at: 99}, "cat", "print", "capture.output")
	add("r", open1, "file")
	add("r", kill, "tools.pskill", "ps.ps_kill")
	add("r", fork, "parallel.mcfork")
	add("r", send, "httr.POST", "httr.PUT", "httr.PATCH", "POST", "PUT", "httr2.req_perform", "socketConnection",
		"curl.curl_upload", "make.socket")
	add("r", net, "httr.GET", "GET", "url", "curl.curl_fetch_memory", "curl.curl", "curl.curl_download")
	add("r", eval, "parse", "str2lang", "str2expression")
}

// lookup finds the op of a call named q, whose last name is last and which has a receiver
// when method is set.
func (s *scanner) lookup(q, last string, method bool) (op, string, bool) {
	if o, ok := ops(s.lang, q); ok {
		return o, q, true
	}
	if method {
		if o, ok := ops(s.lang, "."+last); ok {
			return o, q, true
		}
	}
	if s.lang == "python" && !strings.Contains(q, ".") {
		for _, m := range s.stars {
			if o, ok := ops(s.lang, m+"."+q); ok {
				return o, m + "." + q, true
			}
		}
	}
	return op{}, "", false
}
