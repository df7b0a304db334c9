package shell

// perlCodeOpt reports whether a perl option cluster ends in -e or -E, so that the next argument
// is code (-e, -ne, -lpe). The options that take the rest of the cluster as their value end
// the cluster first: -MFile::Path=rmtree names a module, -I/lib a folder, -i.bak a suffix,
// -0777 a separator, so their letters never read as -e.
func perlCodeOpt(v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case 'e', 'E':
			return i == len(v)-1
		case 'M', 'm', 'I', 'i', 'x', 'C', 'd', 'D', 'l', '0', 'V':
			if v[i] == 'l' && i+1 < len(v) && (v[i+1] < '0' || v[i+1] > '7') {
				continue // -l alone, then more options: -lne
			}
			return false
		}
	}
	return false
}
