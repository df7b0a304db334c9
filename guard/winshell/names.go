package winshell

import "strings"

// baseName is the lower-case base name of a program, without a Windows executable extension.
func baseName(program string) string {
	p := strings.Trim(program, `"'`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		p = p[i+1:]
	}
	p = strings.ToLower(p)
	for _, ext := range [...]string{".exe", ".com", ".bat", ".cmd"} {
		if strings.HasSuffix(p, ext) && len(p) > len(ext) {
			return p[:len(p)-len(ext)]
		}
	}
	return p
}

// canonName resolves a command name as written into its canonical form for shell.
func canonName(raw, shell string) string {
	if raw == "" {
		return ""
	}
	l := strings.ToLower(raw)
	if shell == Cmd {
		b := baseName(raw)
		switch b {
		case "erase":
			return "del"
		case "rd":
			return "rmdir"
		case "md":
			return "mkdir"
		case "rename":
			return "ren"
		}
		return b
	}
	if c := psAlias(l); c != "" {
		return c
	}
	if c := psCmdlet(l); c != "" {
		return c
	}
	if strings.ContainsAny(raw, `/\`) || strings.HasSuffix(l, ".exe") || strings.HasSuffix(l, ".cmd") || strings.HasSuffix(l, ".bat") || strings.HasSuffix(l, ".com") {
		b := baseName(raw)
		if c := psCmdlet(b); c != "" { // Microsoft.PowerShell.Management\Remove-Item
			return c
		}
		return b
	}
	if strings.Contains(raw, "-") {
		return raw // a cmdlet or function this package does not know
	}
	return l
}

// psAlias is PowerShell's built-in alias table (Windows PowerShell 5.1, which agents meet most),
// for the aliases that matter here; "" when l is not one.
func psAlias(l string) string {
	switch l {
	case "rm", "del", "erase", "rd", "rmdir", "ri":
		return "Remove-Item"
	case "kill", "spps":
		return "Stop-Process"
	case "cp", "copy", "cpi":
		return "Copy-Item"
	case "mv", "move", "mi":
		return "Move-Item"
	case "iex":
		return "Invoke-Expression"
	case "iwr", "curl", "wget":
		return "Invoke-WebRequest"
	case "irm":
		return "Invoke-RestMethod"
	case "sc":
		return "Set-Content"
	case "ac":
		return "Add-Content"
	case "clc":
		return "Clear-Content"
	case "ni":
		return "New-Item"
	case "ren", "rni":
		return "Rename-Item"
	case "rp":
		return "Remove-ItemProperty"
	case "sp":
		return "Set-ItemProperty"
	case "si":
		return "Set-Item"
	case "cli":
		return "Clear-Item"
	case "saps", "start":
		return "Start-Process"
	case "icm":
		return "Invoke-Command"
	case "sajb":
		return "Start-Job"
	case "ii":
		return "Invoke-Item"
	case "dir", "ls", "gci":
		return "Get-ChildItem"
	case "gi":
		return "Get-Item"
	case "cat", "gc", "type":
		return "Get-Content"
	case "echo", "write":
		return "Write-Output"
	case "cd", "chdir", "sl":
		return "Set-Location"
	case "pwd", "gl":
		return "Get-Location"
	case "ps", "gps":
		return "Get-Process"
	case "%", "foreach":
		return "ForEach-Object"
	case "?", "where":
		return "Where-Object"
	case "sls":
		return "Select-String"
	case "select":
		return "Select-Object"
	case "sort":
		return "Sort-Object"
	case "tee":
		return "Tee-Object"
	case "gsv":
		return "Get-Service"
	case "spsv":
		return "Stop-Service"
	case "gwmi":
		return "Get-WmiObject"
	case "rwmi":
		return "Remove-WmiObject"
	case "gcim":
		return "Get-CimInstance"
	case "rcim":
		return "Remove-CimInstance"
	case "md", "mkdir":
		return "mkdir"
	case "cls", "clear":
		return "Clear-Host"
	case "sleep":
		return "Start-Sleep"
	case "gcm":
		return "Get-Command"
	case "gm":
		return "Get-Member"
	case "h", "history", "ghy":
		return "Get-History"
	case "sal":
		return "Set-Alias"
	case "nal":
		return "New-Alias"
	case "set", "sv":
		return "Set-Variable"
	case "gp":
		return "Get-ItemProperty"
	}
	return ""
}

// psCmdlet returns the documented spelling of a cmdlet this package knows, "" for others.
// A module-qualified name (Microsoft.PowerShell.Management\Remove-Item) counts too.
func psCmdlet(l string) string {
	if i := strings.LastIndexByte(l, '\\'); i >= 0 {
		l = l[i+1:]
	}
	switch l {
	case "remove-item", "stop-process", "copy-item", "move-item", "invoke-expression", "invoke-webrequest",
		"invoke-restmethod", "set-content", "add-content", "clear-content", "new-item", "rename-item",
		"remove-itemproperty", "set-itemproperty", "new-itemproperty", "set-item", "clear-item", "start-process",
		"invoke-command", "start-job", "invoke-item", "get-childitem", "get-item", "get-content", "write-output",
		"write-host", "set-location", "get-location", "get-process", "foreach-object", "where-object",
		"select-string", "select-object", "sort-object", "tee-object", "get-service", "stop-service",
		"get-wmiobject", "remove-wmiobject", "get-ciminstance", "remove-ciminstance", "out-file", "out-null",
		"format-volume", "clear-disk", "initialize-disk", "remove-partition", "stop-computer",
		"restart-computer", "new-object", "clear-recyclebin", "clear-eventlog", "remove-eventlog",
		"start-bitstransfer", "invoke-wmimethod", "test-path", "resolve-path", "join-path", "split-path",
		"get-command", "get-member", "get-history", "clear-history", "set-alias", "new-alias", "set-variable",
		"get-itemproperty", "start-sleep", "clear-host", "write-error", "write-verbose", "write-warning",
		"out-string", "measure-object", "format-table", "format-list", "get-date", "get-help",
		"set-executionpolicy", "remove-smbshare", "disable-computerrestore", "remove-localuser",
		"remove-module", "uninstall-module", "uninstall-package", "set-mppreference", "add-mppreference",
		"register-scheduledtask", "unregister-scheduledtask", "new-service", "remove-service",
		"remove-psdrive", "new-psdrive", "remove-variable", "compress-archive", "expand-archive", "set-acl", "get-acl":
		return psCanonicalCase(l)
	}
	return ""
}

// psCanonicalCase turns remove-itemproperty into Remove-ItemProperty for the known nouns.
func psCanonicalCase(l string) string {
	verb, noun, ok := strings.Cut(l, "-")
	if !ok {
		return l
	}
	switch noun {
	case "itemproperty":
		noun = "ItemProperty"
	case "childitem":
		noun = "ChildItem"
	case "webrequest":
		noun = "WebRequest"
	case "restmethod":
		noun = "RestMethod"
	case "wmiobject":
		noun = "WmiObject"
	case "ciminstance":
		noun = "CimInstance"
	case "recyclebin":
		noun = "RecycleBin"
	case "eventlog":
		noun = "EventLog"
	case "bitstransfer":
		noun = "BitsTransfer"
	case "wmimethod":
		noun = "WmiMethod"
	case "executionpolicy":
		noun = "ExecutionPolicy"
	case "smbshare":
		noun = "SmbShare"
	case "computerrestore":
		noun = "ComputerRestore"
	case "localuser":
		noun = "LocalUser"
	case "mppreference":
		noun = "MpPreference"
	case "scheduledtask":
		noun = "ScheduledTask"
	case "psdrive":
		noun = "PSDrive"
	default:
		noun = titleParts(noun)
	}
	if verb == "foreach" {
		verb = "forEach"
	}
	return titleParts(verb) + "-" + noun
}

func titleParts(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// param is one parameter of a cmdlet.
type param struct {
	name    string // canonical, without the dash
	value   bool   // takes a value (else a switch)
	aliases string // space-separated aliases
}

// commonParams are the parameters every advanced cmdlet takes.
var commonParams = [...]param{
	{"Verbose", false, "vb"}, {"Debug", false, "db"}, {"ErrorAction", true, "ea"}, {"WarningAction", true, "wa"},
	{"InformationAction", true, "infa"}, {"ErrorVariable", true, "ev"}, {"WarningVariable", true, "wv"},
	{"InformationVariable", true, "iv"}, {"OutVariable", true, "ov"}, {"OutBuffer", true, "ob"},
	{"PipelineVariable", true, "pv"}, {"ProgressAction", true, "proga"}, {"WhatIf", false, "wi"}, {"Confirm", false, "cf"},
}

var (
	pathParams = [...]param{{"Path", true, ""}, {"LiteralPath", true, "PSPath LP"}, {"Filter", true, ""},
		{"Include", true, ""}, {"Exclude", true, ""}, {"Force", false, ""}, {"Credential", true, ""}}
	removeItemParams = [...]param{{"Recurse", false, ""}, {"Stream", true, ""}}
	stopProcParams   = [...]param{{"Id", true, ""}, {"Name", true, "ProcessName"}, {"InputObject", true, ""},
		{"PassThru", false, ""}, {"Force", false, ""}}
	copyParams = [...]param{{"Destination", true, ""}, {"Container", false, ""}, {"Recurse", false, ""},
		{"PassThru", false, ""}, {"FromSession", true, ""}, {"ToSession", true, ""}}
	contentParams = [...]param{{"Value", true, ""}, {"PassThru", false, ""}, {"NoNewline", false, ""},
		{"Encoding", true, ""}, {"Stream", true, ""}, {"AsByteStream", false, ""}}
	outFileParams = [...]param{{"FilePath", true, "Path"}, {"LiteralPath", true, "PSPath LP"}, {"Encoding", true, ""},
		{"Append", false, ""}, {"Force", false, ""}, {"NoClobber", false, "NoOverwrite"}, {"Width", true, ""},
		{"NoNewline", false, ""}, {"InputObject", true, ""}}
	newItemParams = [...]param{{"Path", true, ""}, {"Name", true, ""}, {"ItemType", true, "Type"},
		{"Value", true, "Target"}, {"Force", false, ""}, {"Credential", true, ""}}
	renameParams = [...]param{{"NewName", true, ""}, {"PassThru", false, ""}}
	propParams   = [...]param{{"Name", true, "PSProperty"}, {"Value", true, ""}, {"PropertyType", true, "Type"},
		{"PassThru", false, ""}}
	volumeParams = [...]param{{"DriveLetter", true, ""}, {"ObjectId", true, "Id"}, {"Path", true, ""},
		{"FileSystemLabel", true, ""}, {"Partition", true, ""}, {"InputObject", true, ""}, {"FileSystem", true, ""},
		{"NewFileSystemLabel", true, ""}, {"AllocationUnitSize", true, ""}, {"Full", false, ""}, {"Force", false, ""},
		{"Compress", false, ""}, {"CimSession", true, "Session"}, {"ThrottleLimit", true, ""}, {"AsJob", false, ""}}
	diskParams = [...]param{{"Number", true, "DiskNumber"}, {"UniqueId", true, "Id"}, {"FriendlyName", true, ""},
		{"Path", true, ""}, {"InputObject", true, ""}, {"RemoveData", false, ""}, {"RemoveOEM", false, ""},
		{"PartitionStyle", true, ""}, {"PassThru", false, ""}, {"PartitionNumber", true, ""},
		{"DriveLetter", true, ""}, {"DiskId", true, ""}, {"Offset", true, ""}, {"CimSession", true, "Session"}}
	computerParams = [...]param{{"ComputerName", true, "CN __SERVER Server IPAddress"}, {"Force", false, ""},
		{"Credential", true, ""}, {"Wait", false, ""}, {"Timeout", true, ""}, {"For", true, ""}, {"Delay", true, ""},
		{"WsmanAuthentication", true, ""}, {"Protocol", true, ""}, {"AsJob", false, ""}, {"ThrottleLimit", true, ""}}
	startProcParams = [...]param{{"FilePath", true, "PSPath Path"}, {"ArgumentList", true, "Args"},
		{"WorkingDirectory", true, ""}, {"Verb", true, ""}, {"WindowStyle", true, ""}, {"Credential", true, "RunAs"},
		{"RedirectStandardOutput", true, ""}, {"RedirectStandardError", true, ""}, {"RedirectStandardInput", true, ""},
		{"Environment", true, ""}, {"NoNewWindow", false, ""}, {"PassThru", false, ""}, {"Wait", false, ""},
		{"UseNewEnvironment", false, ""}, {"LoadUserProfile", false, "Lup"}}
	aliasParams    = [...]param{{"Name", true, ""}, {"Value", true, ""}, {"Description", true, ""}, {"Option", true, ""}, {"PassThru", false, ""}, {"Scope", true, ""}, {"Force", false, ""}}
	aclParams      = [...]param{{"AclObject", true, ""}, {"SecurityDescriptor", true, ""}, {"Passthru", false, ""}, {"ClearCentralAccessPolicy", false, ""}}
	recycleParams  = [...]param{{"DriveLetter", true, ""}, {"Force", false, ""}}
	iexParams      = [...]param{{"Command", true, ""}}
	webParams      = [...]param{{"Uri", true, ""}, {"OutFile", true, ""}, {"Method", true, ""}, {"Body", true, ""}, {"Headers", true, ""}, {"UseBasicParsing", false, ""}, {"InFile", true, ""}}
	invokeCmdParam = [...]param{{"ScriptBlock", true, "Command"}, {"ComputerName", true, "Cn"}, {"FilePath", true, "PSPath"},
		{"ArgumentList", true, "Args"}, {"Session", true, ""}, {"AsJob", false, ""}, {"Credential", true, ""},
		{"NoNewScope", false, ""}, {"InputObject", true, ""}}
	childItemParams = [...]param{{"Recurse", false, "s"}, {"Depth", true, ""}, {"Name", false, ""},
		{"Attributes", true, ""}, {"Directory", false, "ad d"}, {"File", false, "af"}, {"Hidden", false, "ah h"},
		{"ReadOnly", false, "ar"}, {"System", false, "as"}, {"FollowSymlink", false, ""}}
	getProcParams = [...]param{{"Name", true, "ProcessName"}, {"Id", true, "PID"}, {"InputObject", true, ""},
		{"ComputerName", true, "Cn"}, {"Module", false, ""}, {"FileVersionInfo", false, "FV FVI"},
		{"IncludeUserName", false, ""}}
	newObjectParams = [...]param{{"TypeName", true, ""}, {"ComObject", true, ""}, {"ArgumentList", true, "Args"},
		{"Property", true, ""}, {"Strict", false, ""}}
)

// paramsOf lists the parameters of a known cmdlet, nil for others.
func paramsOf(name string) [][]param {
	switch name {
	case "Remove-Item":
		return [][]param{pathParams[:], removeItemParams[:]}
	case "Stop-Process":
		return [][]param{stopProcParams[:]}
	case "Copy-Item", "Move-Item":
		return [][]param{pathParams[:], copyParams[:]}
	case "Set-Content", "Add-Content", "Clear-Content":
		return [][]param{pathParams[:], contentParams[:]}
	case "Out-File":
		return [][]param{outFileParams[:]}
	case "New-Item":
		return [][]param{newItemParams[:]}
	case "Rename-Item":
		return [][]param{pathParams[:], renameParams[:]}
	case "Remove-ItemProperty", "Set-ItemProperty", "New-ItemProperty", "Set-Item", "Clear-Item", "Get-Item", "Get-Content", "Get-ItemProperty", "Test-Path":
		return [][]param{pathParams[:], propParams[:]}
	case "Format-Volume":
		return [][]param{volumeParams[:]}
	case "Clear-Disk", "Initialize-Disk", "Remove-Partition":
		return [][]param{diskParams[:]}
	case "Stop-Computer", "Restart-Computer":
		return [][]param{computerParams[:]}
	case "Start-Process":
		return [][]param{startProcParams[:]}
	case "Invoke-Expression":
		return [][]param{iexParams[:]}
	case "Clear-RecycleBin":
		return [][]param{recycleParams[:]}
	case "Set-Acl":
		return [][]param{pathParams[:], aclParams[:]}
	case "Set-Alias", "New-Alias":
		return [][]param{aliasParams[:]}
	case "Invoke-WebRequest", "Invoke-RestMethod":
		return [][]param{webParams[:]}
	case "Invoke-Command", "Start-Job":
		return [][]param{invokeCmdParam[:]}
	case "Get-ChildItem":
		return [][]param{pathParams[:], childItemParams[:]}
	case "Get-Process":
		return [][]param{getProcParams[:]}
	case "New-Object":
		return [][]param{newObjectParams[:]}
	}
	return nil
}

// resolveParam resolves a parameter name as written (without the dash) for cmdlet name:
// exact names and aliases first, then a prefix that names exactly one parameter, as PowerShell
// does. It returns the canonical name and whether it takes a value; ok is false when the
// cmdlet is unknown, or the name is unknown or ambiguous.
func resolveParam(cmdlet, written string) (canon string, value, ok bool) {
	groups := paramsOf(cmdlet)
	if groups == nil || written == "" {
		return "", false, false
	}
	groups = append(groups, commonParams[:])
	for _, g := range groups {
		for i := range g {
			p := &g[i]
			if strings.EqualFold(p.name, written) {
				return p.name, p.value, true
			}
			for a := range strings.SplitSeq(p.aliases, " ") {
				if a != "" && strings.EqualFold(a, written) {
					return p.name, p.value, true
				}
			}
		}
	}
	var found *param
	for _, g := range groups {
		for i := range g {
			p := &g[i]
			if len(p.name) < len(written) || !strings.EqualFold(p.name[:len(written)], written) {
				continue
			}
			if found != nil && found.name != p.name {
				return "", false, false // ambiguous
			}
			found = p
		}
	}
	if found == nil {
		return "", false, false
	}
	return found.name, found.value, true
}

// ReadsOnly reports whether the command only reads or tests what it is given, and writes no
// file: PowerShell's Get-, Test-, Select-, Resolve- and formatting cmdlets (Get-Content,
// Test-Path, Select-String, ...), cmd.exe's type, dir, findstr. A file such a command is handed
// is looked at, not changed, whatever it is. A redirection of its output into a file is a write.
func (c *Command) ReadsOnly() bool {
	for _, r := range c.Redirects {
		if r.Writes() {
			return false
		}
	}
	if c.Shell == Cmd {
		switch c.Name {
		case "type", "dir", "findstr", "more", "fc", "comp", "tree", "where", "echo":
			return true
		}
		return false
	}
	switch strings.ToLower(c.Name) { // a cmdlet this package does not spell keeps the case written
	case "get-content", "get-item", "get-childitem", "get-itemproperty", "get-itempropertyvalue", "get-acl", "get-filehash",
		"test-path", "resolve-path", "join-path", "split-path", "select-string", "select-object", "where-object",
		"sort-object", "measure-object", "compare-object", "format-hex", "format-table", "format-list", "out-string",
		"out-null", "write-output", "write-host", "get-command", "get-member", "get-location", "get-date", "get-help",
		"convertfrom-json", "convertto-json", "import-csv", "import-clixml":
		return true
	}
	return false
}
