// Command gomodproxy lays out one module version from a local folder as a GOPROXY file tree
// (<module>/@v/list, .info, .mod, .zip), so tests can point GOPROXY=file://... at it and exercise
// bee-bench's registry path without any remote proxy. Standard library only.
//
//	go run . -module github.com/x/y -version v1.2.3 -dir ./checkout -out ./proxy
package main

import (
	"archive/zip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

func main() {
	module := flag.String("module", "", "module path")
	version := flag.String("version", "", "version, e.g. v1.2.1")
	dir := flag.String("dir", "", "folder holding the module's go.mod")
	out := flag.String("out", "", "GOPROXY folder to write into")
	flag.Parse()
	if *module == "" || *version == "" || *dir == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "gomodproxy: -module, -version, -dir and -out are required")
		os.Exit(2)
	}
	if err := write(*module, *version, *dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gomodproxy:", err)
		os.Exit(1)
	}
}

// escape applies the module proxy's case encoding: an upper-case letter becomes '!' + lower case.
func escape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if unicode.IsUpper(r) {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func write(module, version, dir, out string) error {
	at := filepath.Join(out, filepath.FromSlash(escape(module)), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	info, err := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	for name, data := range map[string][]byte{"list": []byte(version + "\n"), version + ".info": info, version + ".mod": mod} {
		if err := os.WriteFile(filepath.Join(at, name), data, 0o644); err != nil {
			return err
		}
	}
	return writeZip(filepath.Join(at, version+".zip"), module+"@"+version, dir)
}

// writeZip packs the module's files as the go command expects: every name under module@version/,
// regular files only, without VCS folders, vendor/ or nested modules.
func writeZip(file, prefix, dir string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	z := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if name := d.Name(); name == ".git" || name == ".hg" || name == ".svn" || rel == "vendor" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		w, err := z.Create(prefix + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		src, err := os.Open(path)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(w, src)
		return err
	})
	if err != nil {
		return err
	}
	return z.Close()
}
