//go:build linux

package config

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"syscall"
)

// dirLinks opens the folder dir and returns where it is with its symlinks resolved (as the
// kernel names the open folder), the names of its entries that are or may be symlinks (a type
// the file system does not give is a maybe) and, when want is given, of its folders (or maybe
// folders) that want holds; without want, real is "". opened is false when dir cannot be opened as
// a folder, ok false when its names could not all be read; real is "" when the kernel does not
// name it (no /proc). Four system calls for a folder of a
// few hundred names, and no allocation for an entry that is not a link.
func dirLinks(dir string, want func([]byte) bool) (real string, links, dirs []string, opened, ok bool) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, nil, false, false
	}
	defer syscall.Close(fd)
	var buf [8192]byte
	if want == nil {
		// a folder inside: its links are wanted, not its name
	} else if n, err := syscall.Readlink("/proc/self/fd/"+strconv.Itoa(fd), buf[:]); err == nil && n > 0 && n < len(buf) && buf[0] == '/' {
		real = string(buf[:n])
	}
	for {
		n, err := syscall.Getdents(fd, buf[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return real, links, dirs, true, false
		}
		if n <= 0 {
			return real, links, dirs, true, true
		}
		// struct linux_dirent64: ino (8), off (8), reclen (2), type (1), name (NUL-terminated)
		for off := 0; off < n; {
			if off+19 > n {
				return real, links, dirs, true, false
			}
			reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
			if reclen < 19 || off+reclen > n {
				return real, links, dirs, true, false
			}
			t := buf[off+18]
			if link, dir := t == syscall.DT_LNK || t == syscall.DT_UNKNOWN, t == syscall.DT_DIR || t == syscall.DT_UNKNOWN; link || dir && want != nil {
				name := buf[off+19 : off+reclen]
				if i := bytes.IndexByte(name, 0); i >= 0 {
					name = name[:i]
				}
				if link {
					links = append(links, string(name))
				}
				if dir && want != nil && string(name) != "." && string(name) != ".." && want(name) {
					dirs = append(dirs, string(name))
				}
			}
			off += reclen
		}
	}
}
