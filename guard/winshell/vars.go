package winshell

import "strings"

// hasDrive reports whether p starts with a drive letter and a colon.
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// envVar is the value of a Windows environment variable this package knows (name in any case),
// computed from the home folder and the system drive; ok is false for every other variable.
func (r *reader) envVar(name string) (string, bool) {
	h, d := r.home, r.drive
	switch strings.ToLower(name) {
	case "userprofile":
		return h, true
	case "homedrive":
		if hasDrive(h) {
			return h[:2], true
		}
		return d, true
	case "homepath":
		if hasDrive(h) {
			return h[2:], true
		}
		return h, true
	case "systemroot", "windir":
		return d + `\Windows`, true
	case "systemdrive":
		return d, true
	case "programfiles", "programw6432":
		return d + `\Program Files`, true
	case "programfiles(x86)":
		return d + `\Program Files (x86)`, true
	case "programdata", "allusersprofile":
		return d + `\ProgramData`, true
	case "public":
		return d + `\Users\Public`, true
	case "comspec":
		return d + `\Windows\System32\cmd.exe`, true
	case "temp", "tmp":
		return h + `\AppData\Local\Temp`, true
	case "appdata":
		return h + `\AppData\Roaming`, true
	case "localappdata":
		return h + `\AppData\Local`, true
	case "onedrive":
		return h + `\OneDrive`, true
	}
	return "", false
}

// psVar is the value of a PowerShell variable this package knows: $HOME, $PROFILE, $PWD, $true, $false,
// $null and the environment variables of envVar ($env:USERPROFILE). name is without the $ and
// braces, scope prefixes allowed ($global:HOME).
func (r *reader) psVar(name string) (string, bool) {
	l := strings.ToLower(name)
	for _, scope := range [...]string{"global:", "script:", "local:", "private:"} {
		l = strings.TrimPrefix(l, scope)
	}
	if env, ok := strings.CutPrefix(l, "env:"); ok {
		return r.envVar(env)
	}
	switch l {
	case "home":
		return r.home, true
	case "profile":
		// the current user's profile script of the current host, which PowerShell runs at
		// every start: under Documents on Windows, under ~/.config on Linux and macOS
		if hasDrive(r.home) {
			return r.home + `\Documents\PowerShell\Microsoft.PowerShell_profile.ps1`, true
		}
		return r.home + "/.config/powershell/Microsoft.PowerShell_profile.ps1", true
	case "pwd":
		return ".", true
	case "true":
		return "$true", true
	case "false":
		return "$false", true
	case "null":
		return "", true
	}
	return "", false
}

// fixHome undoes the drive that %HOMEDRIVE% put in front of a home folder that has none
// (/home/me, or ~ when no home was given).
func (r *reader) fixHome(v string) string {
	if !hasDrive(r.home) && strings.HasPrefix(v, r.drive+r.home) {
		return v[len(r.drive):]
	}
	return v
}
