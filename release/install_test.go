package release

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestInstallScript runs install.sh against a loopback file server holding a release for every
// platform: with the good archive it installs the four binaries and says how to put the folder
// on PATH; with a tampered archive, a release without this platform or a checksum list that
// points elsewhere it fails with a clear message and installs nothing. Each downloader found
// (curl, wget) is tried, and each POSIX shell found (sh, dash).
func TestInstallScript(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("install.sh is for Linux and macOS, not %s", runtime.GOOS)
	}
	var downloaders []string
	for _, d := range []string{"curl", "wget"} {
		if _, err := exec.LookPath(d); err == nil {
			downloaders = append(downloaders, d)
		}
	}
	if len(downloaders) == 0 {
		t.Skip("neither curl nor wget is installed: install.sh cannot download")
	}
	shells := []string{"sh"}
	if _, err := exec.LookPath("dash"); err == nil {
		shells = append(shells, "dash")
	}
	script := filepath.Join(repoRoot(t), "install.sh")

	const version = "9.8.7"
	fake := func(name string) string {
		return fmt.Sprintf("#!/bin/sh\necho '%s version %s'\n", name, version)
	}
	good := tarGz(t, map[string]string{
		"agenthooks": fake("agenthooks"), "agenthooks-admin": fake("agenthooks-admin"), "agenthooks-scan": fake("agenthooks-scan"),
		"agenthooks-guard": fake("agenthooks-guard"),
		"LICENSE":          "license\n", "README.md": "readme\n",
	})
	tampered := tarGz(t, map[string]string{
		"agenthooks": "#!/bin/sh\necho pwned\n", "agenthooks-admin": fake("agenthooks-admin"), "agenthooks-scan": fake("agenthooks-scan"),
		"agenthooks-guard": fake("agenthooks-guard"),
		"LICENSE":          "license\n", "README.md": "readme\n",
	})
	incomplete := tarGz(t, map[string]string{"agenthooks": fake("agenthooks"), "LICENSE": "license\n"})
	host := fmt.Sprintf("%s_%s", runtime.GOOS, runtime.GOARCH)
	name := func(plat string) string { return fmt.Sprintf("agenthooks_%s_%s.tar.gz", version, plat) }

	// release builds one folder of the file server: its archives and checksums.txt.
	type release struct {
		files     map[string][]byte
		checksums string
	}
	newRelease := func(hostArchive []byte, hostSum string, platforms ...string) release {
		r := release{files: map[string][]byte{}}
		var sums strings.Builder
		for _, plat := range platforms {
			body := tarGz(t, map[string]string{"agenthooks": "other platform"})
			sum := sha256Hex(body)
			if plat == host {
				body, sum = hostArchive, hostSum
			}
			r.files[name(plat)] = body
			fmt.Fprintf(&sums, "%s  %s\n", sum, name(plat))
		}
		r.checksums = sums.String()
		return r
	}
	all := []string{"darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64", "windows_arm64"}
	others := []string{}
	for _, p := range all {
		if p != host {
			others = append(others, p)
		}
	}
	releases := map[string]release{
		"good":       newRelease(good, sha256Hex(good), all...),
		"tampered":   newRelease(tampered, sha256Hex(good), all...),
		"missing":    newRelease(nil, "", others...),
		"incomplete": newRelease(incomplete, sha256Hex(incomplete), all...),
		"badname": {checksums: fmt.Sprintf("%s  ../../agenthooks_%s.tar.gz\n", sha256Hex(good), host),
			files: map[string][]byte{}},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rel, file, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		got, ok := releases[rel]
		switch {
		case !ok:
			http.NotFound(w, r)
		case file == "checksums.txt":
			fmt.Fprint(w, got.checksums)
		case got.files[file] != nil:
			w.Write(got.files[file])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()

	install := func(t *testing.T, shell, downloader, rel, dir string, path string) result {
		t.Helper()
		env := []string{
			"AGENTHOOKS_BASE_URL=" + srv.URL + "/" + rel,
			"AGENTHOOKS_INSTALL_DIR=" + dir,
			"AGENTHOOKS_DOWNLOADER=" + downloader,
			"HOME=" + t.TempDir(),
			"PATH=" + path,
			// A proxy set for the machine must not take the loopback requests.
			"http_proxy=", "https_proxy=", "HTTP_PROXY=", "HTTPS_PROXY=", "no_proxy=127.0.0.1", "NO_PROXY=127.0.0.1",
		}
		return run(t, time.Minute, t.TempDir(), env, "", shell, script)
	}
	path := os.Getenv("PATH")
	for _, shell := range shells {
		for _, dl := range downloaders {
			t.Run(shell+"/"+dl, func(t *testing.T) {
				t.Run("good", func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "bin")
					r := install(t, shell, dl, "good", dir, path)
					if r.code != 0 {
						t.Fatalf("install.sh: exit %d\n%s", r.code, r.stderr)
					}
					for _, b := range []string{"agenthooks", "agenthooks-admin", "agenthooks-scan", "agenthooks-guard"} {
						fi, err := os.Stat(filepath.Join(dir, b))
						if err != nil || fi.Mode().Perm()&0o111 == 0 {
							t.Errorf("%s not installed as an executable: %v", b, err)
						}
					}
					if out := mustRun(t, time.Minute, dir, nil, filepath.Join(dir, "agenthooks"), "--version"); out != "agenthooks version "+version+"\n" {
						t.Errorf("installed agenthooks --version = %q", out)
					}
					entries, _ := os.ReadDir(dir)
					if len(entries) != 4 {
						t.Errorf("install folder holds %d entries, want the 4 binaries: %v", len(entries), entries)
					}
					for _, want := range []string{"installed agenthooks version " + version + " into " + dir, "is not on your PATH", `export PATH="` + dir + `:$PATH"`} {
						if !strings.Contains(r.stderr, want) {
							t.Errorf("install.sh's output lacks %q:\n%s", want, r.stderr)
						}
					}
					// Again, with the folder on PATH: the binaries are replaced, no PATH advice.
					r = install(t, shell, dl, "good", dir, dir+string(os.PathListSeparator)+path)
					if r.code != 0 || strings.Contains(r.stderr, "not on your PATH") {
						t.Errorf("second install with %s on PATH: exit %d\n%s", dir, r.code, r.stderr)
					}
				})
				for _, tc := range []struct{ rel, want string }{
					{"tampered", "checksum mismatch for " + name(host) + ": checksums.txt says " + sha256Hex(good) + ", the download is " + sha256Hex(tampered) + ". Nothing was installed."},
					{"missing", srv.URL + "/missing/checksums.txt lists no archive for " + strings.Replace(host, "_", "/", 1)},
					{"incomplete", name(host) + " has no agenthooks-admin. Nothing was installed."},
					{"badname", "unexpected archive name in checksums.txt: ../../agenthooks_" + host + ".tar.gz"},
				} {
					t.Run(tc.rel, func(t *testing.T) {
						dir := filepath.Join(t.TempDir(), "bin")
						r := install(t, shell, dl, tc.rel, dir, path)
						if r.code == 0 {
							t.Fatalf("install.sh succeeded on the %s release:\n%s", tc.rel, r.stderr)
						}
						if !strings.Contains(r.stderr, "agenthooks install: "+tc.want) {
							t.Errorf("install.sh's error lacks %q:\n%s", tc.want, r.stderr)
						}
						if _, err := os.Stat(dir); !os.IsNotExist(err) {
							t.Errorf("install folder %s exists after a failed install (%v)", dir, err)
						}
					})
				}
			})
		}
	}
}
