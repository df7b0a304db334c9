package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// goreleaserVersion is the version scripts/goreleaser.sh installs.
const goreleaserVersion = "v2.15.1"

// target is one platform of the release.
type target struct{ goos, goarch string }

func (t target) String() string { return t.goos + "/" + t.goarch }

// testTargets are the platforms TestSnapshot builds: the whole matrix takes about 8.5 minutes on
// a cold build cache on a shared 2-core machine, these three about half that. AGENTHOOKS_RELEASE_ALL=1
// builds all six, as a release does.
var testTargets = []target{{"linux", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}}

// allTargets is .goreleaser.yaml's matrix.
var allTargets = []target{
	{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

// goreleaserTargetID is goreleaser's name for a target in `targets:`.
func goreleaserTargetID(t target) string {
	if t.goarch == "amd64" {
		return t.goos + "_amd64_v1"
	}
	return t.goos + "_arm64_v8.0"
}

// toolsDir is where scripts/goreleaser.sh caches goreleaser.
func toolsDir(t *testing.T) string {
	if d := os.Getenv("AGENTHOOKS_TOOLS"); d != "" {
		return d
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "agenthooks-tools")
}

// needGoreleaser skips (or, under CI=true, fails) when goreleaser is not cached and the Go module
// proxy cannot be reached to install it.
func needGoreleaser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(toolsDir(t), "bin", "goreleaser-"+goreleaserVersion)); err == nil {
		return
	}
	out, err := exec.Command("go", "env", "GOPROXY").Output()
	if err != nil {
		t.Fatalf("go env GOPROXY: %v", err)
	}
	proxy, _, _ := strings.Cut(strings.TrimSpace(string(out)), ",")
	proxy, _, _ = strings.Cut(proxy, "|")
	if proxy == "off" || proxy == "direct" || proxy == "" {
		skipOrFail(t, "goreleaser is not installed in %s and GOPROXY=%s cannot fetch it", toolsDir(t), out)
	}
	client := &http.Client{Timeout: 15 * time.Second}
	resp, err := client.Get(strings.TrimSuffix(proxy, "/") + "/github.com/goreleaser/goreleaser/v2/@v/" + goreleaserVersion + ".info")
	if err != nil {
		skipOrFail(t, "goreleaser is not installed in %s and the Go module proxy is unreachable: %v", toolsDir(t), err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		skipOrFail(t, "goreleaser is not installed in %s and the Go module proxy answers %s", toolsDir(t), resp.Status)
	}
}

// snapshotConfig writes .goreleaser.yaml with dist in the test's folder and, unless all, the
// builds restricted to testTargets.
func snapshotConfig(t *testing.T, root, dist string, targets []target, all bool) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(b)
	if !all {
		// The builds share one anchor: a targets list there overrides goos × goarch in each.
		const matrix = "    goarch: [amd64, arm64]\n"
		if strings.Count(cfg, matrix) != 1 {
			t.Fatalf(".goreleaser.yaml no longer has the one line %q the test narrows the targets at", matrix)
		}
		var ids []string
		for _, tg := range targets {
			ids = append(ids, goreleaserTargetID(tg))
		}
		cfg = strings.Replace(cfg, matrix, matrix+"    targets: ["+strings.Join(ids, ", ")+"]\n", 1)
	}
	cfg += "\ndist: " + dist + "\n"
	file := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(file, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// TestSnapshot builds a snapshot release with scripts/goreleaser.sh and checks what users
// download: checksums.txt covers every archive and matches it; each archive unpacks to the four
// binaries for its platform (static on Linux) with LICENSE, README.md and CHANGELOG.md; the host's
// binaries print the snapshot's version and commit; the guard blocks `rm -rf ~`; the Homebrew
// cask and Scoop manifest name the archives with their checksums.
func TestSnapshot(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a snapshot release takes minutes")
	}
	needGoreleaser(t)
	root := repoRoot(t)
	all := os.Getenv("AGENTHOOKS_RELEASE_ALL") == "1"
	targets := testTargets
	if all {
		targets = allTargets
	}
	head := "" // read before goreleaser, which builds the HEAD of this moment
	if out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
		head = strings.TrimSpace(string(out))
	}
	dist := filepath.Join(t.TempDir(), "dist")
	cfg := snapshotConfig(t, root, dist, targets, all)
	// On a cold build cache the snapshot compiles every package once per target: more than go
	// test's default 10 minutes on a busy 2-core machine. Stop before the test binary's deadline
	// so the failure says so, rather than a panic with a goroutine dump.
	timeout := 40 * time.Minute
	if d, ok := t.Deadline(); ok {
		timeout = time.Until(d) - 20*time.Second
		if timeout < time.Minute {
			t.Fatalf("too little time left before the test deadline for a snapshot: run with -timeout 30m")
		}
	}
	start := time.Now()
	r := run(t, timeout, root, []string{"GORELEASER_CONFIG=" + cfg}, "", filepath.Join(root, "scripts", "goreleaser.sh"))
	if r.code != 0 {
		t.Fatalf("scripts/goreleaser.sh: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("snapshot of %d targets in %v", len(targets), time.Since(start).Round(time.Second))

	var meta struct{ Version, Commit string }
	readJSON(t, filepath.Join(dist, "metadata.json"), &meta)
	if !strings.Contains(meta.Version, "-SNAPSHOT-") || strings.HasSuffix(meta.Version, "-none") {
		t.Errorf("snapshot version %q: want x.y.z-SNAPSHOT-<commit>", meta.Version)
	}
	if head != "" && meta.Commit != head {
		t.Errorf("goreleaser's commit %q, HEAD is %q", meta.Commit, head)
	}

	sums := checkChecksums(t, dist)
	license, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	unpacked := map[target]string{}
	for _, tg := range targets {
		ext := ".tar.gz"
		if tg.goos == "windows" {
			ext = ".zip"
		}
		name := fmt.Sprintf("agenthooks_%s_%s_%s%s", meta.Version, tg.goos, tg.goarch, ext)
		if _, ok := sums[name]; !ok {
			t.Errorf("checksums.txt has no %s", name)
			continue
		}
		dir := filepath.Join(t.TempDir(), tg.goos+"_"+tg.goarch)
		files := unpack(t, filepath.Join(dist, name), dir)
		suffix := ""
		if tg.goos == "windows" {
			suffix = ".exe"
		}
		want := []string{"CHANGELOG.md", "LICENSE", "README.md", "agenthooks" + suffix, "agenthooks-admin" + suffix, "agenthooks-scan" + suffix, "agenthooks-guard" + suffix}
		slices.Sort(files)
		slices.Sort(want) // upper case first: the binaries stay last
		if !slices.Equal(files, want) {
			t.Errorf("%s holds %v, want %v", name, files, want)
			continue
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "LICENSE")); !bytes.Equal(got, license) {
			t.Errorf("%s: LICENSE differs from the repository's", name)
		}
		for _, b := range want[3:] {
			checkBinary(t, filepath.Join(dir, b), tg)
		}
		unpacked[tg] = dir
	}
	if len(sums) != len(targets) {
		t.Errorf("checksums.txt lists %d archives, want %d (one per target): %v", len(sums), len(targets), slices.Sorted(maps.Keys(sums)))
	}

	host := target{runtime.GOOS, runtime.GOARCH}
	if dir, ok := unpacked[host]; ok {
		for _, b := range []string{"agenthooks", "agenthooks-admin", "agenthooks-scan", "agenthooks-guard"} {
			out := mustRun(t, time.Minute, dir, nil, filepath.Join(dir, exe(b)), "--version")
			if first, _, _ := strings.Cut(out, "\n"); first != b+" version "+meta.Version {
				t.Errorf("%s --version: first line %q, want %q", b, first, b+" version "+meta.Version)
			}
			if head != "" && !strings.Contains(out, "\ncommit: "+head) {
				t.Errorf("%s --version does not name commit %s:\n%s", b, head, out)
			}
			if !strings.Contains(out, "\ndate:   20") {
				t.Errorf("%s --version has no build date:\n%s", b, out)
			}
		}
		checkGuardBlocks(t, nil, filepath.Join(dir, exe("agenthooks")))
	} else {
		t.Logf("no archive for this machine (%s): the binaries were not run", host)
	}

	checkCask(t, dist, meta.Version, sums, targets)
	checkScoop(t, dist, meta.Version, sums, targets)
}

func readJSON(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// checkChecksums checks that checksums.txt lists every archive in dist with its SHA-256 and
// returns name → digest.
func checkChecksums(t *testing.T, dist string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 || name == "" || strings.ContainsAny(name, "/\\") {
			t.Errorf("checksums.txt: malformed line %q", sc.Text())
			continue
		}
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Errorf("checksums.txt names %s: %v", name, err)
			continue
		}
		if got := sha256Hex(b); got != sum {
			t.Errorf("%s: sha256 %s, checksums.txt says %s", name, got, sum)
		}
		sums[name] = sum
	}
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if n := e.Name(); (strings.HasSuffix(n, ".tar.gz") || strings.HasSuffix(n, ".zip")) && sums[n] == "" {
			t.Errorf("%s is not in checksums.txt", n)
		}
	}
	return sums
}

// unpack extracts a .tar.gz or .zip into dir, refusing entries that are not plain files at the
// top level, and returns the names.
func unpack(t *testing.T, archive, dir string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	write := func(name string, mode os.FileMode, r io.Reader) {
		if name != path.Base(name) || name == "." || name == ".." || strings.Contains(name, "\\") {
			t.Fatalf("%s: entry %q is not a plain top-level name", archive, name)
		}
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode|0o600)
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if _, err := io.Copy(f, r); err != nil {
			t.Fatalf("%s: %s: %v", archive, name, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if strings.HasSuffix(archive, ".zip") {
		zr, err := zip.OpenReader(archive)
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if !f.Mode().IsRegular() {
				t.Fatalf("%s: %s is not a regular file", archive, f.Name)
			}
			rc, err := f.Open()
			if err != nil {
				t.Fatalf("%s: %s: %v", archive, f.Name, err)
			}
			write(f.Name, 0o755, rc)
			rc.Close()
		}
		return names
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", archive, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", archive, err)
		}
		if h.Typeflag != tar.TypeReg {
			t.Fatalf("%s: %s is not a regular file (type %c)", archive, h.Name, h.Typeflag)
		}
		write(h.Name, os.FileMode(h.Mode).Perm(), tr)
	}
	return names
}

// checkBinary checks that file is an executable for tg: ELF without an interpreter (static) on
// Linux, Mach-O on macOS, PE on Windows, for the right processor.
func checkBinary(t *testing.T, file string, tg target) {
	t.Helper()
	switch tg.goos {
	case "linux":
		f, err := elf.Open(file)
		if err != nil {
			t.Errorf("%s: not ELF: %v", file, err)
			return
		}
		defer f.Close()
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[tg.goarch]
		if f.Machine != want {
			t.Errorf("%s: machine %v, want %v", file, f.Machine, want)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s: dynamically linked (has an interpreter): CGO_ENABLED=0 was not honoured", file)
			}
		}
		if fi, err := os.Stat(file); err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: not executable in the archive (%v)", file, err)
		}
	case "darwin":
		f, err := macho.Open(file)
		if err != nil {
			t.Errorf("%s: not Mach-O: %v", file, err)
			return
		}
		defer f.Close()
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[tg.goarch]
		if f.Cpu != want {
			t.Errorf("%s: cpu %v, want %v", file, f.Cpu, want)
		}
	case "windows":
		f, err := pe.Open(file)
		if err != nil {
			t.Errorf("%s: not PE: %v", file, err)
			return
		}
		defer f.Close()
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[tg.goarch]
		if f.Machine != want {
			t.Errorf("%s: machine %#x, want %#x", file, f.Machine, want)
		}
	}
}

// checkCask checks the Homebrew cask: this version, and each macOS and Linux archive built with
// its checksum.
func checkCask(t *testing.T, dist, version string, sums map[string]string, targets []target) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dist, "homebrew", "Casks", "agenthooks.rb"))
	if err != nil {
		t.Errorf("no Homebrew cask: %v", err)
		return
	}
	cask := string(b)
	for _, want := range []string{`version "` + version + `"`, `binary "agenthooks"`, `binary "agenthooks-admin"`, `binary "agenthooks-scan"`, `binary "agenthooks-guard"`} {
		if !strings.Contains(cask, want) {
			t.Errorf("the cask lacks %s:\n%s", want, cask)
		}
	}
	for _, tg := range targets {
		if tg.goos == "windows" {
			continue
		}
		name := fmt.Sprintf("agenthooks_%s_%s_%s.tar.gz", version, tg.goos, tg.goarch)
		if !strings.Contains(cask, fmt.Sprintf("agenthooks_#{version}_%s_%s.tar.gz\"\n      sha256 %q", tg.goos, tg.goarch, sums[name])) {
			t.Errorf("the cask does not give %s with its checksum %s:\n%s", name, sums[name], cask)
		}
	}
}

// checkScoop checks the Scoop manifest: this version, each Windows archive with its checksum and
// the four binaries.
func checkScoop(t *testing.T, dist, version string, sums map[string]string, targets []target) {
	t.Helper()
	var m struct {
		Version      string
		License      string
		Architecture map[string]struct {
			URL  string
			Bin  []string
			Hash string
		}
	}
	readJSON(t, filepath.Join(dist, "scoop", "agenthooks.json"), &m)
	if m.Version != version || m.License != "Apache-2.0" {
		t.Errorf("scoop manifest: version %q license %q", m.Version, m.License)
	}
	arch := map[string]string{"amd64": "64bit", "arm64": "arm64"}
	for _, tg := range targets {
		if tg.goos != "windows" {
			continue
		}
		name := fmt.Sprintf("agenthooks_%s_windows_%s.zip", version, tg.goarch)
		a, ok := m.Architecture[arch[tg.goarch]]
		if !ok || path.Base(a.URL) != name || a.Hash != sums[name] ||
			!slices.Equal(slices.Sorted(slices.Values(a.Bin)), []string{"agenthooks-admin.exe", "agenthooks-guard.exe", "agenthooks-scan.exe", "agenthooks.exe"}) {
			t.Errorf("scoop manifest for %s: %+v; want %s with hash %s and the four binaries", tg, a, name, sums[name])
		}
	}
}
