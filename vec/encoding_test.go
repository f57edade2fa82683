package vec

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The Go assembler lacks most Advanced SIMD floating-point instructions
// (golang/go#41092), so the arm64 kernels spell them as
//
//	WORD $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D
//
// A wrong bit there is a silent wrong result on arm64 hardware only. The
// tests below hold every such WORD in every *_arm64.s file of this package to
// its comment: the comment must be one instruction in Arm syntax, and the
// word must be its encoding, by the independent encoder of arm64enc_test.go
// and, when binutils-aarch64-linux-gnu is installed, by GNU as. They read the
// source files and so run on any host architecture.

// a64WordRE matches a WORD statement, after an optional label.
var a64WordRE = regexp.MustCompile(`^\s*(?:[A-Za-z_][A-Za-z0-9_]*:)?\s*WORD\b(.*)$`)

// a64WordCommentRE is the required form of the rest of a WORD line.
var a64WordCommentRE = regexp.MustCompile(`^\s+\$0x([0-9A-Fa-f]{8})\s*//\s*(\S.*?)\s*$`)

// a64Word is one WORD statement and the instruction its comment names.
type a64Word struct {
	pos  string // file:line
	word uint32
	text string
}

// a64CheckWords finds every WORD in one assembly source and checks it
// against the encoder. It returns the WORDs it could parse and one message
// per problem: a WORD whose comment is missing or malformed, an instruction
// the encoder does not know, or a word that differs from the encoding.
func a64CheckWords(name, src string) (words []a64Word, problems []string) {
	for i, line := range strings.Split(src, "\n") {
		m := a64WordRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pos := fmt.Sprintf("%s:%d", name, i+1)
		c := a64WordCommentRE.FindStringSubmatch(m[1])
		if c == nil {
			problems = append(problems, fmt.Sprintf("%s: %q: a WORD needs the form `WORD $0xXXXXXXXX // INSTRUCTION` (8 hex digits, Arm syntax)", pos, strings.TrimSpace(line)))
			continue
		}
		w, _ := strconv.ParseUint(c[1], 16, 32)
		word := a64Word{pos: pos, word: uint32(w), text: c[2]}
		words = append(words, word)
		enc, err := a64Encode(word.text)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", pos, err))
		case enc != word.word:
			problems = append(problems, fmt.Sprintf("%s: WORD $0x%08X, but %q encodes as 0x%08X (differing bits 0x%08X)", pos, word.word, word.text, enc, enc^word.word))
		}
	}
	return words, problems
}

// a64PackageDir returns the directory of this package's sources: the
// working directory under go test, or, for a test binary run from elsewhere
// (qemu-aarch64 ./vec.test from the repository root), the directory this
// file was compiled from.
func a64PackageDir(t *testing.T) string {
	if _, err := os.Stat("vec.go"); err == nil {
		return "."
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		dir := filepath.Dir(file)
		if _, err := os.Stat(filepath.Join(dir, "vec.go")); err == nil {
			return dir
		}
	}
	t.Fatal("cannot find the vec package sources; run the test from the package directory")
	return ""
}

// a64Sources reads every *_arm64.s file of the package; it skips the test
// when there is none.
func a64Sources(t *testing.T) map[string]string {
	dir := a64PackageDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*_arm64.s"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skipf("no *_arm64.s files in %s: no arm64 assembly to check", dir)
	}
	out := make(map[string]string)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

// TestArm64WordEncodings: every WORD in every *_arm64.s file carries its
// instruction in a comment, and the word is that instruction's encoding.
func TestArm64WordEncodings(t *testing.T) {
	for name, src := range a64Sources(t) {
		words, problems := a64CheckWords(name, src)
		for _, p := range problems {
			t.Error(p)
		}
		t.Logf("%s: %d WORD-encoded instructions", name, len(words))
		if name == "linear_arm64.s" && len(words) == 0 {
			t.Error("linear_arm64.s: no WORD found, but it encodes FADD, FMUL and FADDP that way")
		}
	}
}

// TestArm64WordEncodingsMatchBinutils assembles the comment of every WORD
// with GNU as and compares the result with the word. It is skipped when
// binutils-aarch64-linux-gnu is not installed (CI installs it).
func TestArm64WordEncodingsMatchBinutils(t *testing.T) {
	var all []a64Word
	for name, src := range a64Sources(t) {
		words, _ := a64CheckWords(name, src) // problems are TestArm64WordEncodings' to report
		all = append(all, words...)
	}
	lines := make([]string, len(all))
	for i, w := range all {
		lines[i] = w.text
	}
	got, ok, err := a64Assemble(lines)
	if !ok {
		t.Skip("aarch64-linux-gnu-as/objdump not on PATH")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range all {
		if got[i] != w.word {
			t.Errorf("%s: WORD $0x%08X, but GNU as encodes %q as 0x%08X", w.pos, w.word, w.text, got[i])
		}
	}
}

// TestArm64WordCheckRejects: the checker itself catches each kind of
// mistake it exists for.
func TestArm64WordCheckRejects(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       int // problems expected
	}{
		{"correct", "\tWORD $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D", 0},
		{"correct after a label", "loop:\tWORD $0x6E60DE10 // FMUL V16.2D, V16.2D, V0.2D", 0},
		{"not a WORD", "\tVFMLA V24.D2, V16.D2, V0.D2 // FMLA V0.2D, V16.2D, V24.2D", 0},
		{"prose mentioning WORD", "// are WORD-encoded with the instruction in Arm syntax", 0},
		{"wrong register", "\tWORD $0x4E61D400 // FADD V0.2D, V0.2D, V2.2D", 1},
		{"wrong operation", "\tWORD $0x4E61D400 // FSUB V0.2D, V0.2D, V1.2D", 1},
		{"no comment", "\tWORD $0x4E61D400", 1},
		{"empty comment", "\tWORD $0x4E61D400 //", 1},
		{"short hex", "\tWORD $0x61D400 // FADD V0.2D, V0.2D, V1.2D", 1},
		{"decimal", "\tWORD $1315034112 // FADD V0.2D, V0.2D, V1.2D", 1},
		{"Go syntax in comment", "\tWORD $0x4E61D400 // VFADD V1.D2, V0.D2, V0.D2", 1},
		{"trailing prose", "\tWORD $0x4E61D400 // FADD V0.2D, V0.2D, V1.2D then more", 1},
	} {
		words, problems := a64CheckWords("x_arm64.s", tc.line)
		if len(problems) != tc.want {
			t.Errorf("%s: %d problems %q, want %d (words %v)", tc.name, len(problems), problems, tc.want, words)
		}
	}
}
