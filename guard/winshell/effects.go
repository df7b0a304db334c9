package winshell

import (
	"path"
	"strings"
)

// Effect kinds.
const (
	KindDelete   = "delete"   // files, folders, shadow copies, backups, logs
	KindWrite    = "write"    // create, overwrite, truncate, append
	KindKill     = "kill"     // processes
	KindFormat   = "format"   // volumes, disks, partitions, free-space wipes
	KindShutdown = "shutdown" // shut down, restart, log off
	KindRegistry = "registry" // registry keys and values, boot configuration, Defender settings
	KindExec     = "exec"     // a script file run, a task or service that runs later
	KindPerms    = "perms"    // permissions or owner changed (icacls, takeown, Set-Acl)
)

// Target classes. The names are guard/policy's target classes.
const (
	ClassRoot        = "root"         // a drive root (C:\, \, C:\*, format D:)
	ClassHome        = "home"         // the home folder itself, or everything in it
	ClassSystem      = "system"       // C:\Windows, C:\Program Files*, C:\ProgramData, C:\Users, HKLM, critical processes
	ClassParent      = "parent"       // .. and above
	ClassProjectRoot = "project-root" // . or * in the working directory
	ClassGit         = "git"          // a .git folder or something in it
	ClassProject     = "project"      // a relative path below the working directory
	ClassHomeSub     = "home-sub"     // inside the home folder
	ClassTmp         = "tmp"          // %TEMP% and below
	ClassDevice      = "device"       // a disk, a partition, \\.\PhysicalDrive0
	ClassDynamic     = "dynamic"      // known only when it runs
	ClassOther       = "other"        // anything else
)

// Effect is one thing a command does to one target.
type Effect struct {
	Kind        string `json:"kind"`
	Target      string `json:"target"`
	TargetClass string `json:"target_class"`
	Recursive   bool   `json:"recursive,omitempty"` // whole trees (Remove-Item -Recurse, rd /s, del /s)
	Force       bool   `json:"force,omitempty"`     // no prompt, read-only and hidden too (-Force, /q, /f, /y)
	// Filtered: the command deletes only what a filter selects (-Include, -Filter, del *.tmp).
	Filtered bool `json:"filtered,omitempty"`
	// Broad: a kill by name or pattern, which hits every process of that name.
	Broad bool `json:"broad,omitempty"`
	// Persist: what it writes runs later on its own (Run keys, services, scheduled tasks).
	Persist bool   `json:"persist,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

// Effects lists what c does, for the commands this package knows: the destructive cmdlets and
// programs of Windows and the writes of every redirection. home is the user's home folder
// ("" when unknown: only ~ is home then). A command it does not know has no effects: git and
// the other programs are for the bash rules to judge by their arguments (Command.Argv). A
// PowerShell command with -WhatIf does nothing.
func Effects(c Command, home string) []Effect {
	e := effector{c: &c, home: home}
	if c.Shell == PowerShell && paramsOf(c.Name) != nil && bind(&c).on("WhatIf") {
		return nil
	}
	e.command()
	for _, r := range c.Redirects {
		if r.Writes() {
			e.add(KindWrite, r.Target, func(x *Effect) { x.Detail = "redirection " + r.Op })
		}
	}
	for _, x := range e.out {
		if x.Kind == KindWrite && x.TargetClass != ClassDynamic && ProfileScript(x.Target) {
			e.addAbout(KindExec, x.Target, ClassHomeSub, func(y *Effect) {
				y.Persist, y.Detail = true, "a PowerShell profile, run at every start"
			})
		}
	}
	return e.out
}

// ProfileScript reports whether p names a PowerShell profile script, which PowerShell runs at
// every start of a host: profile.ps1, Microsoft.PowerShell_profile.ps1, Microsoft.VSCode_profile.ps1.
func ProfileScript(p string) bool {
	base := strings.ToLower(p[strings.LastIndexAny(p, `/\`)+1:])
	return base == "profile.ps1" || strings.HasPrefix(base, "microsoft.") && strings.HasSuffix(base, "_profile.ps1")
}

type effector struct {
	c    *Command
	home string
	out  []Effect
}

// add appends an effect on target, classified; opts adjust it.
func (e *effector) add(kind string, target Arg, opts ...func(*Effect)) {
	x := Effect{Kind: kind, Target: PosixHome(target.Value, e.home), TargetClass: ClassDynamic}
	if target.Static {
		x.TargetClass = Classify(target.Value, e.home)
	}
	for _, o := range opts {
		o(&x)
	}
	e.out = append(e.out, x)
}

// addAbout appends an effect on something that is not a path.
func (e *effector) addAbout(kind, target, class string, opts ...func(*Effect)) {
	x := Effect{Kind: kind, Target: target, TargetClass: class}
	for _, o := range opts {
		o(&x)
	}
	e.out = append(e.out, x)
}

func flags(rec, force bool) func(*Effect) {
	return func(x *Effect) { x.Recursive, x.Force = rec, force }
}

// switches are a cmd command's /switches, lower case, and its other arguments.
func switches(c *Command) (map[string]string, []Arg) {
	sw := map[string]string{}
	var rest []Arg
	for _, a := range c.Args {
		v := a.Value
		if a.Param && !strings.Contains(v[1:], "/") || (a.Static && len(v) >= 2 && v[0] == '/' && len(v) <= 12 && !strings.Contains(v[1:], "/")) {
			k, val, _ := strings.Cut(strings.ToLower(v[1:]), ":")
			sw[k] = val
			continue
		}
		rest = append(rest, a)
	}
	return sw, rest
}

func has(m map[string]string, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

func (e *effector) command() {
	c := e.c
	name := c.Name
	if c.Shell == Cmd || c.Name != "" && !strings.Contains(c.Name, "-") && !strings.HasPrefix(c.Name, "[") {
		name = strings.ToLower(name)
	}
	switch name {
	case "Remove-Item":
		e.removeItem()
	case "del":
		sw, rest := switches(c)
		for _, t := range rest {
			e.add(KindDelete, t, flags(has(sw, "s"), has(sw, "q", "f")), func(x *Effect) { x.Filtered = hasGlob(t.Value) && !wholeGlob(t.Value) })
		}
	case "rmdir":
		sw, rest := switches(c)
		for _, t := range rest {
			e.add(KindDelete, t, flags(has(sw, "s"), has(sw, "q")))
		}
	case "rm":
		rec, force := false, false
		var targets []Arg
		for _, a := range c.Args {
			v := a.Value
			switch {
			case v == "--recursive":
				rec = true
			case v == "--force":
				force = true
			case strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
				rec = rec || strings.ContainsAny(v, "rR")
				force = force || strings.Contains(v, "f")
			default:
				targets = append(targets, a)
			}
		}
		for _, t := range targets {
			e.add(KindDelete, t, flags(rec, force))
		}
	case "Set-Content", "Add-Content", "Clear-Content", "Out-File":
		b := bind(c)
		ts := append(append(b.named["Path"], b.named["LiteralPath"]...), b.named["FilePath"]...)
		if len(ts) == 0 && len(b.positional) > 0 {
			ts = b.positional[:1]
		}
		for _, t := range ts {
			e.add(KindWrite, t, func(x *Effect) { x.Detail = name })
		}
	case "New-Item", "Set-Item":
		e.newItem()
	case "Copy-Item", "Move-Item", "Rename-Item":
		e.copyMove(name)
	case "copy", "xcopy", "move", "robocopy", "ren":
		e.cmdCopy(name)
	case "Format-Volume":
		b := bind(c)
		force := b.on("Force")
		for _, d := range append(b.named["DriveLetter"], b.positional...) {
			t := d
			if t.Static && len(t.Value) == 1 {
				t.Value += ":"
			}
			e.add(KindFormat, t, flags(true, force))
		}
		for _, p := range b.named["Path"] {
			e.add(KindFormat, p, flags(true, force))
		}
		for _, k := range []string{"FileSystemLabel", "ObjectId", "Partition", "InputObject"} {
			for _, v := range b.named[k] {
				e.addAbout(KindFormat, v.Value, ClassDevice, flags(true, force))
			}
		}
		if len(e.out) == 0 {
			e.addAbout(KindFormat, "(the volumes piped in)", ClassDevice, flags(true, force))
		}
	case "format":
		sw, rest := switches(c)
		for _, t := range rest {
			e.add(KindFormat, t, flags(true, has(sw, "y", "q")))
		}
	case "Clear-Disk", "Initialize-Disk", "Remove-Partition":
		b := bind(c)
		for _, k := range []string{"Number", "UniqueId", "FriendlyName", "Path", "DiskId", "InputObject"} {
			for _, v := range b.named[k] {
				e.addAbout(KindFormat, "disk "+v.Value, ClassDevice, flags(true, b.on("Confirm")))
			}
		}
		for _, v := range b.named["DriveLetter"] {
			e.addAbout(KindFormat, v.Value+":", ClassRoot, flags(true, false))
		}
		for _, v := range b.positional {
			e.addAbout(KindFormat, "disk "+v.Value, ClassDevice, flags(true, false))
		}
		if len(e.out) == 0 {
			e.addAbout(KindFormat, "(the disks piped in)", ClassDevice, flags(true, false))
		}
	case "diskpart":
		_, rest := switches(c)
		target := "diskpart (interactive)"
		if len(rest) > 0 {
			target = "diskpart script " + rest[0].Value
		}
		e.addAbout(KindFormat, target, ClassDevice, flags(true, false))
	case "cipher":
		if sw, _ := switches(c); has(sw, "w") {
			e.add(KindFormat, Arg{Value: sw["w"], Static: true}, func(x *Effect) { x.Detail = "wipes free space" })
		}
	case "Clear-RecycleBin":
		e.addAbout(KindDelete, "recycle bin", ClassHomeSub, flags(true, bind(c).on("Force")))
	case "Stop-Process":
		e.stopProcess()
	case "taskkill":
		e.taskkill()
	case "wmic":
		e.wmic()
	case "Stop-Computer", "Restart-Computer":
		b := bind(c)
		targets := b.named["ComputerName"]
		if len(targets) == 0 {
			e.addAbout(KindShutdown, "this computer", ClassSystem, flags(false, b.on("Force")), func(x *Effect) { x.Detail = name })
		}
		for _, t := range targets {
			e.addAbout(KindShutdown, t.Value, ClassOther, flags(false, b.on("Force")), func(x *Effect) { x.Detail = name })
		}
	case "shutdown":
		sw, _ := switches(c)
		if has(sw, "s", "r", "p", "h", "l", "g", "sg", "hybrid", "fw") && !has(sw, "a", "?") {
			target, class := "this computer", ClassSystem
			if m, ok := sw["m"]; ok {
				target, class = m, ClassOther
			}
			e.addAbout(KindShutdown, target, class, flags(false, has(sw, "f")))
		}
	case "logoff":
		e.addAbout(KindShutdown, "this session", ClassSystem)
	case "Remove-ItemProperty", "Set-ItemProperty", "New-ItemProperty":
		b := bind(c)
		ts := append(b.named["Path"], b.named["LiteralPath"]...)
		if len(ts) == 0 && len(b.positional) > 0 {
			ts = b.positional[:1]
		}
		for _, t := range ts {
			e.registry(t, name, b.on("Force"))
		}
	case "reg":
		e.reg()
	case "bcdedit":
		sw, _ := switches(c)
		if len(sw) > 0 && !has(sw, "enum", "v", "?", "export") {
			e.addAbout(KindRegistry, "boot configuration (BCD)", ClassSystem, func(x *Effect) { x.Detail = "bcdedit" })
		}
	case "vssadmin":
		if len(c.Args) >= 2 && (strings.EqualFold(c.Args[0].Value, "delete") || strings.EqualFold(c.Args[0].Value, "resize")) {
			sw, _ := switches(c)
			e.addAbout(KindDelete, "shadow copies", ClassSystem, flags(true, has(sw, "quiet")), func(x *Effect) { x.Detail = "vssadmin " + strings.ToLower(c.Args[0].Value) })
		}
	case "wbadmin":
		if len(c.Args) >= 1 && strings.EqualFold(c.Args[0].Value, "delete") {
			sw, _ := switches(c)
			e.addAbout(KindDelete, "backups", ClassSystem, flags(true, has(sw, "quiet")), func(x *Effect) { x.Detail = "wbadmin delete" })
		}
	case "wevtutil":
		if len(c.Args) >= 2 && (strings.EqualFold(c.Args[0].Value, "cl") || strings.EqualFold(c.Args[0].Value, "clear-log")) {
			e.addAbout(KindDelete, "event log "+c.Args[1].Value, ClassSystem)
		}
	case "Clear-EventLog", "Remove-EventLog":
		e.addAbout(KindDelete, "event log", ClassSystem)
	case "Remove-WmiObject", "Remove-CimInstance":
		if mentions(c, "shadowcopy") {
			e.addAbout(KindDelete, "shadow copies", ClassSystem, flags(true, true))
		}
	case "schtasks":
		sw, _ := switches(c)
		switch {
		case has(sw, "create"):
			e.addAbout(KindExec, "scheduled task", ClassSystem, func(x *Effect) { x.Persist = true })
		case has(sw, "delete"):
			e.addAbout(KindDelete, "scheduled task", ClassSystem, flags(false, has(sw, "f")))
		}
	case "icacls":
		sw, rest := switches(c)
		if len(rest) > 0 && has(sw, "grant", "grant:r", "deny", "remove", "remove:g", "remove:d", "setowner", "reset", "inheritance", "setintegritylevel", "restore") {
			e.add(KindPerms, rest[0], flags(has(sw, "t"), has(sw, "c", "q")), func(x *Effect) { x.Detail = "icacls" })
		}
	case "takeown":
		args := c.Args
		sw, _ := switches(c)
		for i := 0; i+1 < len(args); i++ {
			if strings.EqualFold(args[i].Value, "/f") {
				e.add(KindPerms, args[i+1], flags(has(sw, "r"), true), func(x *Effect) { x.Detail = "takeown" })
			}
		}
	case "Set-Acl":
		b := bind(c)
		for _, t := range append(b.named["Path"], b.positional[:min(1, len(b.positional))]...) {
			e.add(KindPerms, t, func(x *Effect) { x.Detail = "Set-Acl" })
		}
	case "Register-ScheduledTask", "New-Service":
		e.addAbout(KindExec, name, ClassSystem, func(x *Effect) { x.Persist = true })
	case "sc":
		if len(c.Args) > 0 {
			switch strings.ToLower(c.Args[0].Value) {
			case "create", "config":
				e.addAbout(KindExec, "service", ClassSystem, func(x *Effect) { x.Persist = true })
			case "delete":
				e.addAbout(KindDelete, "service", ClassSystem)
			}
		}
	case "Set-MpPreference", "Add-MpPreference":
		e.addAbout(KindRegistry, "Microsoft Defender settings", ClassSystem, func(x *Effect) { x.Detail = name })
	case "Invoke-WebRequest", "Invoke-RestMethod":
		for _, t := range bind(c).named["OutFile"] {
			e.add(KindWrite, t, func(x *Effect) { x.Detail = "download" })
		}
	case "[System.IO.File]::Delete", "[System.IO.Directory]::Delete":
		if len(c.Args) > 0 {
			rec := len(c.Args) > 1 && (!c.Args[1].Static || strings.EqualFold(c.Args[1].Value, "$true"))
			e.add(KindDelete, c.Args[0], flags(rec, true))
		}
	case "[System.IO.File]::WriteAllText", "[System.IO.File]::WriteAllBytes", "[System.IO.File]::WriteAllLines",
		"[System.IO.File]::AppendAllText", "[System.IO.File]::AppendAllLines":
		if len(c.Args) > 0 {
			e.add(KindWrite, c.Args[0])
		}
	case "[System.IO.File]::Copy", "[System.IO.File]::Replace":
		if len(c.Args) > 1 {
			e.add(KindWrite, c.Args[1])
		}
	case "[System.IO.File]::Move", "[System.IO.Directory]::Move":
		if len(c.Args) > 1 {
			e.add(KindDelete, c.Args[0], func(x *Effect) { x.Recursive = strings.Contains(name, "Directory"); x.Detail = "moved away" })
			e.add(KindWrite, c.Args[1])
		}
	default:
		if c.Via == "-File" || isScript(c.Raw) {
			e.add(KindExec, Arg{Value: c.Raw, Static: c.Name != ""}, func(x *Effect) { x.Detail = "runs a script file" })
		}
	}
}

func isScript(raw string) bool {
	l := strings.ToLower(raw)
	return strings.HasSuffix(l, ".ps1") || strings.HasSuffix(l, ".bat") || strings.HasSuffix(l, ".cmd") || strings.HasSuffix(l, ".psm1")
}

// mentions reports whether an argument of c or of its input holds word (case-insensitive).
func mentions(c *Command, word string) bool {
	for x := c; x != nil; x = x.Input {
		for _, a := range x.Args {
			if strings.Contains(strings.ToLower(a.Value), word) {
				return true
			}
		}
	}
	return false
}

// removeItem: Remove-Item and its aliases, with the cmd and Unix spellings agents type into
// PowerShell by habit (rd /s /q, rm -rf) read the way they meant them.
func (e *effector) removeItem() {
	c := e.c
	b := bind(c)
	rec, force := b.on("Recurse"), b.on("Force")
	for _, u := range b.unknown {
		l := strings.ToLower(strings.TrimPrefix(u, "-"))
		if l != "" && strings.Trim(l, "rf") == "" {
			rec = rec || strings.Contains(l, "r")
			force = force || strings.Contains(l, "f")
		}
	}
	var targets []Arg
	for _, a := range b.positional {
		if l := strings.ToLower(a.Value); a.Static && (l == "/s" || l == "/q" || l == "/f") {
			rec = rec || l == "/s"
			force = force || l != "/s"
			continue
		}
		targets = append(targets, a)
	}
	targets = append(append(targets, b.named["Path"]...), b.named["LiteralPath"]...)
	filtered := len(b.named["Include"]) > 0 || len(b.named["Filter"]) > 0
	if len(targets) == 0 {
		var piped bool
		targets, rec, piped = e.pipedPaths(rec)
		filtered = filtered || piped
	}
	for _, t := range targets {
		if t.Static && isRegistryPath(t.Value) {
			e.registry(t, "Remove-Item", force)
			continue
		}
		if t.Static && isProviderPath(t.Value) {
			continue
		}
		e.add(KindDelete, t, flags(rec, force), func(x *Effect) {
			x.Filtered = filtered || hasGlob(t.Value) && !wholeGlob(t.Value)
		})
	}
}

// pipedPaths are the paths piped into a command: literals, or what Get-ChildItem and Get-Item
// list (recursively with -Recurse), through Where-Object, Select-Object and Sort-Object (which
// only narrow it: filtered). Anything else is one dynamic target.
func (e *effector) pipedPaths(rec bool) (targets []Arg, recursive, filtered bool) {
	in := e.c.Input
	for in != nil {
		switch in.Name {
		case "Where-Object", "Select-Object", "Sort-Object":
			filtered = filtered || in.Name != "Sort-Object"
			in = in.Input
			continue
		case "Write-Output":
			return in.Args, rec, filtered
		case "Get-ChildItem", "Get-Item":
			b := bind(in)
			ts := append(append(b.positional, b.named["Path"]...), b.named["LiteralPath"]...)
			if len(ts) == 0 {
				ts = []Arg{{Value: ".", Static: true}}
			}
			filtered = filtered || len(b.named["Filter"]) > 0 || len(b.named["Include"]) > 0 || len(b.named["Exclude"]) > 0
			return ts, rec || b.on("Recurse") || len(b.named["Depth"]) > 0, filtered
		}
		return []Arg{{Value: "(output of " + in.Raw + ")", Static: false}}, rec, filtered
	}
	return nil, rec, filtered
}

func (e *effector) newItem() {
	c := e.c
	b := bind(c)
	ts := b.named["Path"]
	if len(ts) == 0 && len(b.positional) > 0 {
		ts = b.positional[:1]
	}
	typ := ""
	if v := b.named["ItemType"]; len(v) > 0 {
		typ = strings.ToLower(v[0].Value)
	}
	for _, t := range ts {
		if n := b.named["Name"]; len(n) > 0 {
			t = Arg{Value: t.Value + `\` + n[0].Value, Static: t.Static && n[0].Static}
		}
		if t.Static && isRegistryPath(t.Value) {
			e.registry(t, c.Name, b.on("Force"))
			continue
		}
		if t.Static && isProviderPath(t.Value) || strings.HasPrefix(typ, "dir") {
			continue
		}
		e.add(KindWrite, t, flags(false, b.on("Force")), func(x *Effect) { x.Detail = c.Name })
	}
}

func (e *effector) copyMove(name string) {
	b := bind(e.c)
	src := append(b.named["Path"], b.named["LiteralPath"]...)
	dst := b.named["Destination"]
	if name == "Rename-Item" {
		dst = b.named["NewName"]
	}
	pos := b.positional
	if len(src) == 0 && len(pos) > 0 {
		src, pos = pos[:1], pos[1:]
	}
	if len(dst) == 0 && len(pos) > 0 {
		dst = pos[:1]
	}
	rec, force := b.on("Recurse"), b.on("Force")
	if name != "Copy-Item" {
		for _, s := range src {
			e.add(KindDelete, s, flags(true, force), func(x *Effect) { x.Detail = name })
		}
	}
	for _, d := range dst {
		e.add(KindWrite, d, flags(rec, force), func(x *Effect) { x.Detail = name })
	}
}

func (e *effector) cmdCopy(name string) {
	sw, rest := switches(e.c)
	if name == "robocopy" {
		if len(rest) >= 2 {
			if has(sw, "mir", "purge") {
				e.add(KindDelete, rest[1], flags(true, true), func(x *Effect) { x.Detail = "robocopy /mir deletes what the source lacks" })
			}
			e.add(KindWrite, rest[1], flags(has(sw, "s", "e", "mir"), true))
		}
		return
	}
	if len(rest) < 2 {
		if name == "copy" || name == "xcopy" || name == "move" {
			return // into the working directory
		}
	}
	if len(rest) == 0 {
		return
	}
	if name == "move" || name == "ren" {
		for _, s := range rest[:max(1, len(rest)-1)] {
			e.add(KindDelete, s, flags(true, has(sw, "y")), func(x *Effect) { x.Detail = name })
		}
	}
	if name != "ren" && len(rest) >= 2 {
		e.add(KindWrite, rest[len(rest)-1], flags(has(sw, "s", "e"), has(sw, "y")), func(x *Effect) { x.Detail = name })
	}
}

func (e *effector) stopProcess() {
	c := e.c
	b := bind(c)
	force := b.on("Force")
	ids := append(b.named["Id"], b.positional...)
	for _, id := range ids {
		if !id.Static {
			e.addAbout(KindKill, id.Value, ClassDynamic, flags(false, force))
			continue
		}
		e.addAbout(KindKill, "pid "+id.Value, ClassOther, flags(false, force))
	}
	for _, n := range b.named["Name"] {
		e.killName(n, force)
	}
	for _, v := range b.named["InputObject"] {
		e.addAbout(KindKill, v.Value, ClassDynamic, flags(false, force), func(x *Effect) { x.Broad = true })
	}
	if len(e.out) > 0 || c.Input == nil {
		return
	}
	if c.Input.Name == "Get-Process" {
		ib := bind(c.Input)
		names := append(ib.named["Name"], ib.positional...)
		if len(names) == 0 && len(ib.named["Id"]) == 0 {
			e.addAbout(KindKill, "every process", ClassSystem, flags(false, force), func(x *Effect) { x.Broad = true })
		}
		for _, n := range names {
			e.killName(n, force)
		}
		for _, id := range ib.named["Id"] {
			e.addAbout(KindKill, "pid "+id.Value, ClassOther, flags(false, force))
		}
		return
	}
	e.addAbout(KindKill, "(output of "+c.Input.Raw+")", ClassDynamic, flags(false, force), func(x *Effect) { x.Broad = true })
}

// killName adds a kill by process name: broad, and system for the processes Windows needs.
func (e *effector) killName(n Arg, force bool) {
	class := ClassOther
	if !n.Static {
		class = ClassDynamic
	} else if criticalProcess(n.Value) {
		class = ClassSystem
	}
	e.addAbout(KindKill, n.Value, class, flags(false, force), func(x *Effect) { x.Broad = true })
}

func criticalProcess(name string) bool {
	n := strings.TrimSuffix(strings.ToLower(name), ".exe")
	switch n {
	case "*", "csrss", "lsass", "wininit", "winlogon", "smss", "services", "svchost", "system", "explorer", "dwm", "lsm", "conhost":
		return true
	}
	return strings.Trim(n, "*?") == ""
}

func (e *effector) taskkill() {
	c := e.c
	args := c.Args
	sw, _ := switches(c)
	force, tree := has(sw, "f"), has(sw, "t")
	for i := 0; i < len(args); i++ {
		v := strings.ToLower(args[i].Value)
		if i+1 >= len(args) {
			break
		}
		switch v {
		case "/pid":
			i++
			class := ClassOther
			if !args[i].Static {
				class = ClassDynamic
			}
			e.addAbout(KindKill, "pid "+args[i].Value, class, flags(tree, force))
		case "/im":
			i++
			e.killName(args[i], force)
			e.out[len(e.out)-1].Recursive = tree
		case "/fi":
			i++
			e.addAbout(KindKill, "processes matching "+args[i].Value, ClassDynamic, flags(tree, force), func(x *Effect) { x.Broad = true })
		case "/s", "/u", "/p":
			i++
		}
	}
}

func (e *effector) wmic() {
	var words []string
	for _, a := range e.c.Args {
		words = append(words, strings.ToLower(a.Value))
	}
	all := strings.Join(words, " ")
	switch {
	case strings.Contains(all, "shadowcopy") && strings.Contains(all, "delete"):
		e.addAbout(KindDelete, "shadow copies", ClassSystem, flags(true, true))
	case strings.Contains(all, "process") && (strings.Contains(all, "delete") || strings.Contains(all, "terminate")):
		e.addAbout(KindKill, "processes matching "+all, ClassDynamic, func(x *Effect) { x.Broad = true })
	}
}

func (e *effector) reg() {
	c := e.c
	if len(c.Args) < 2 {
		return
	}
	op := strings.ToLower(c.Args[0].Value)
	switch op {
	case "delete", "add", "import", "restore", "copy", "load", "unload":
	default:
		return
	}
	sw, _ := switches(c)
	what := "reg " + op
	if op == "delete" && has(sw, "v", "va", "ve") {
		what += " /v" // values of the key, not the key and what is below it
	}
	e.registry(c.Args[1], what, has(sw, "f"))
}

// registry adds an effect on a registry key.
func (e *effector) registry(t Arg, what string, force bool) {
	x := Effect{Kind: KindRegistry, Target: t.Value, TargetClass: ClassDynamic, Force: force, Detail: what}
	if t.Static {
		x.TargetClass = registryClass(t.Value)
		x.Persist = persistKey(t.Value)
	}
	if what == "Remove-Item" || what == "reg delete" {
		x.Recursive = true // a key goes with every key and value below it
	}
	e.out = append(e.out, x)
}

// WideRegistryKey reports a registry key whose deletion takes a whole hive's worth of settings
// with it: a hive (HKCU), a key directly below one (HKCU\Software, HKLM\SYSTEM, HKCU\Environment),
// or one of the keys below Software that every program shares (Microsoft, Classes, Policies,
// Wow6432Node). One program's key (HKCU\Software\Vendor\App) is not.
func WideRegistryKey(p string) bool {
	l := strings.ToLower(strings.ReplaceAll(p, "/", `\`))
	l = strings.TrimPrefix(l, `microsoft.powershell.core\`)
	l = strings.TrimPrefix(l, "registry::")
	hive, rest, _ := strings.Cut(l, `\`)
	hive = strings.TrimSuffix(hive, ":")
	switch hive {
	case "hkcu", "hklm", "hkcr", "hku", "hkcc", "hkey_current_user", "hkey_local_machine", "hkey_classes_root", "hkey_users", "hkey_current_config":
	default:
		return false
	}
	var parts []string
	for _, c := range strings.Split(rest, `\`) {
		if c != "" && c != "*" {
			parts = append(parts, c)
		}
	}
	switch len(parts) {
	case 0, 1:
		return true
	case 2:
		return parts[0] == "software" && (parts[1] == "microsoft" || parts[1] == "classes" || parts[1] == "policies" || parts[1] == "wow6432node")
	}
	return false
}

func isRegistryPath(p string) bool {
	l := strings.ToLower(strings.TrimPrefix(strings.ToLower(p), "microsoft.powershell.core\\"))
	l = strings.TrimPrefix(l, "registry::")
	for _, h := range [...]string{"hklm", "hkcu", "hkcr", "hku", "hkcc", "hkey_"} {
		if strings.HasPrefix(l, h) {
			rest := l[len(h):]
			if h == "hkey_" || rest == "" || rest[0] == ':' || rest[0] == '\\' || rest[0] == '/' {
				return true
			}
		}
	}
	return false
}

func registryClass(p string) string {
	l := strings.TrimPrefix(strings.ToLower(p), "registry::")
	if strings.HasPrefix(l, "hkcu") || strings.HasPrefix(l, "hkey_current_user") {
		return ClassHome
	}
	return ClassSystem
}

// persistKey reports whether a registry key makes what it names run on its own.
func persistKey(p string) bool {
	l := strings.ReplaceAll(strings.ToLower(p), "/", `\`)
	for _, k := range [...]string{`\currentversion\run`, `\currentversion\policies\explorer\run`, `\winlogon`,
		`\image file execution options`, `\currentcontrolset\services`, `\environment`, `\currentversion\explorer\shell folders`,
		`\command processor`, `\appinit_dlls`} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// isProviderPath reports PowerShell drives that are not files: env:, variable:, function:,
// alias:, cert:, wsman:.
func isProviderPath(p string) bool {
	l := strings.ToLower(p)
	for _, d := range [...]string{"env:", "variable:", "function:", "alias:", "cert:", "wsman:", "temp:"} {
		if strings.HasPrefix(l, d) {
			return d != "temp:"
		}
	}
	return false
}

func hasGlob(p string) bool {
	if len(p) >= 4 && (p[:4] == `\\?\` || p[:4] == "//?/") {
		p = p[4:]
	}
	return strings.ContainsAny(p, "*?[")
}

// wholeGlob reports a glob that matches everything in its folder: *, *.*.
func wholeGlob(p string) bool {
	b := p
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		b = p[i+1:]
	}
	return b == "*" || b == "*.*"
}

// Classify names the class of a Windows path (either separator, any case): root for a drive
// root or \ (and a glob over one), system for the Windows, Program Files, ProgramData and
// Users folders, home for the home folder (or ~), git for a .git folder or its content,
// project-root for . and *, parent for .., project for other relative paths, home-sub inside
// the home folder, tmp in the temporary folder, device for \\.\ devices, other for the rest.
func Classify(p, home string) string {
	if p != "" && !strings.ContainsAny(p, `/\:~*?.'" `) {
		return ClassProject // a plain name in the working directory
	}
	if raw := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(p)), `\`, "/"); strings.HasPrefix(raw, "//./") || strings.HasPrefix(raw, "//?/globalroot") {
		return ClassDevice
	}
	v := normPath(p)
	v = strings.TrimPrefix(v, "//?/")
	for strings.HasSuffix(v, "/*") || strings.HasSuffix(v, "/*.*") {
		v = v[:strings.LastIndexByte(v, '/')]
		if v == "" {
			v = "/"
		}
	}
	if v == "*" || v == "*.*" {
		v = "."
	}
	h := normPath(home)
	if h == "" {
		h = "~"
	}
	for _, hh := range [...]string{h, "~"} {
		if hh == "" {
			continue
		}
		if v == hh || strings.HasPrefix(v, hh+"/") {
			rest := strings.TrimPrefix(strings.TrimPrefix(v, hh), "/")
			switch {
			case rest == "":
				return ClassHome
			case hasGitPart(rest):
				return ClassGit
			case strings.HasPrefix(rest, "appdata/local/temp"):
				return ClassTmp
			}
			return ClassHomeSub
		}
	}
	if hasGitPart(v) {
		return ClassGit
	}
	drive := ""
	if hasDrive(v) {
		drive, v = v[:2], v[2:]
	}
	switch v {
	case "", "/":
		if drive != "" || v == "/" {
			return ClassRoot
		}
	}
	if strings.HasPrefix(v, "/") {
		first, _, _ := strings.Cut(v[1:], "/")
		switch first {
		case "windows", "program files", "program files (x86)", "programdata", "system volume information",
			"$recycle.bin", "boot", "recovery":
			if first == "windows" && strings.HasPrefix(v, "/windows/temp") {
				return ClassTmp
			}
			return ClassSystem
		case "users":
			// C:\Users\NAME is the home folder of the user the home names (C:\Users\dev for a
			// home of /home/dev too: the same person on Windows), another person's otherwise,
			// which is as much the machine's as /home/other is; Public and Default are the
			// machine's
			profile, rest, _ := strings.Cut(strings.TrimPrefix(v, "/users/"), "/")
			own := h != "~" && profile == path.Base(h)
			switch {
			case v == "/users" || profile == "public" || profile == "default" || profile == "all users" || profile == "default user":
				return ClassSystem
			case rest == "" && own:
				return ClassHome
			case rest == "":
				return ClassSystem
			case hasGitPart(rest):
				return ClassGit
			case strings.HasPrefix(rest, "appdata/local/temp"):
				return ClassTmp
			}
			return ClassHomeSub
		}
		if drive != "" {
			return ClassOther
		}
		// a POSIX path (Git Bash, WSL, a home given as /home/me)
		switch first {
		case "bin", "etc", "usr", "lib", "lib64", "sbin", "var", "opt", "dev", "proc", "sys", "root", "srv":
			return ClassSystem
		case "tmp":
			return ClassTmp
		case "home":
			if v == "/home" {
				return ClassSystem
			}
		}
		return ClassOther
	}
	if drive != "" && v != "" {
		// C:foo is relative to the drive's working directory: say other.
		return ClassOther
	}
	// relative
	switch {
	case v == "." || v == "./":
		return ClassProjectRoot
	case v == ".." || strings.HasPrefix(v, "../") || strings.Contains(v, "/../") || strings.HasSuffix(v, "/.."):
		return ClassParent
	}
	return ClassProject
}

// normPath lowers p, turns \ into /, drops quotes, repeated and trailing separators and ./
// segments (but keeps a leading // of a UNC or device path).
func normPath(p string) string {
	v := strings.ToLower(strings.TrimSpace(strings.Trim(p, `"'`)))
	v = strings.ReplaceAll(v, `\`, "/")
	lead := ""
	if strings.HasPrefix(v, "//") {
		lead, v = "//", v[2:]
	}
	if v == "" {
		return lead
	}
	clean := path.Clean(v)
	if hasDrive(clean) && len(clean) == 2 && strings.HasSuffix(v, "/") {
		clean += "/"
	}
	return lead + clean
}

func hasGitPart(v string) bool {
	for part := range strings.SplitSeq(v, "/") {
		if part == ".git" {
			return true
		}
	}
	return false
}

// PosixHome writes a path below a POSIX home folder with the separators that home uses:
// %USERPROFILE%\.ssh\id_rsa with a home of /home/me is /home/me/.ssh/id_rsa (pwsh on Linux and
// macOS takes either separator), so that what a delete or a write reaches below home is seen by
// what it is. A path below a Windows home (C:\Users\me) is left as it is.
func PosixHome(v, home string) string {
	if home == "" {
		home = "~"
	}
	if !strings.HasPrefix(home, "/") && home != "~" {
		return v
	}
	if strings.HasPrefix(v, "~\\") && home != "~" {
		v = home + v[1:]
	}
	if len(v) > len(home) && strings.HasPrefix(v, home) && v[len(home)] == '\\' {
		return home + strings.ReplaceAll(v[len(home):], `\`, "/")
	}
	return v
}
