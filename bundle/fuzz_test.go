package bundle

import (
	"crypto/ed25519"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen feeds arbitrary bytes to Open, seeded with good archives and broken ones: it must
// never panic, and whatever it accepts must install inside the target folder only.
func FuzzOpen(f *testing.F) {
	f.Add(build(f, 1, testFiles()))
	f.Add(build(f, 2, nil))
	f.Add([]byte{0x1f, 0x8b})
	f.Add([]byte("not an archive"))
	pub := testKey.Public().(ed25519.PublicKey)
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Open(data, pub, Expect{})
		if err != nil {
			return
		}
		base := t.TempDir()
		dir := filepath.Join(base, "team", "hooks")
		if err := Install(dir, b); err != nil {
			return
		}
		filepath.Walk(base, func(p string, info os.FileInfo, err error) error {
			if err == nil && p != base && p != filepath.Join(base, "team") {
				if rel, _ := filepath.Rel(dir, p); len(rel) >= 2 && rel[:2] == ".." {
					t.Fatalf("installed outside the folder: %s", p)
				}
			}
			return nil
		})
	})
}
