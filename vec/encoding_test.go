package vec

import (
	"fmt"
	"math"
	"os"
	"os/exec"
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
// word must be its encoding, by the independent encoder below (a64Encode)
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

// A small A64 encoder for the Advanced SIMD instructions that the arm64
// assembly of this package writes as WORD (the Go assembler lacks most vector
// floating-point mnemonics, golang/go#41092). The tests above use it to
// check every WORD against the instruction its comment names. It is
// deliberately written from the field layouts in the Arm Architecture
// Reference Manual for A-profile (Arm ARM), section C4.1 "A64 instruction set
// encoding", groups "Advanced SIMD three same", "Advanced SIMD two-register
// miscellaneous", "Advanced SIMD shift by immediate", "Advanced SIMD copy",
// "Advanced SIMD vector x indexed element", "Advanced SIMD scalar pairwise"
// and "Advanced SIMD modified immediate", and not from any assembler's
// tables, so that it is an independent witness. The syntax accepted is Arm's
// (V0.2D, D0, V1.D[1], X3, #imm), case-insensitive.

// a64Operand is one parsed operand.
type a64Operand struct {
	kind  byte // 'v' vector Vn.<T>, 'e' element Vn.<Ts>[i], 'f' scalar FP Dn/Sn, 'x' Xn, 'w' Wn, 'i' immediate
	reg   uint32
	esize int    // element size in bits ('v', 'e', 'f')
	lanes int    // 'v' only
	index int    // 'e' only
	imm   string // 'i' only: the text after '#'
}

// q is the Q bit of a vector arrangement: 1 for 128-bit vectors.
func (o a64Operand) q() uint32 {
	if o.esize*o.lanes == 128 {
		return 1
	}
	return 0
}

// sizeField is the two-bit size field for integer element sizes 8..64.
func (o a64Operand) sizeField() uint32 {
	switch o.esize {
	case 8:
		return 0
	case 16:
		return 1
	case 32:
		return 2
	}
	return 3
}

func a64ParseReg(s string) (uint32, bool) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 31 || strconv.Itoa(n) != s {
		return 0, false
	}
	return uint32(n), true
}

var a64Sizes = map[string]int{"B": 8, "H": 16, "S": 32, "D": 64}

func a64ParseOperand(s string) (a64Operand, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("cannot parse operand %q", s)
	switch {
	case s == "":
		return a64Operand{}, bad
	case s[0] == '#':
		return a64Operand{kind: 'i', imm: s[1:]}, nil
	case s == "XZR":
		return a64Operand{kind: 'x', reg: 31}, nil
	case s == "WZR":
		return a64Operand{kind: 'w', reg: 31}, nil
	case s[0] == 'V':
		name, arr, ok := strings.Cut(s[1:], ".")
		if !ok {
			return a64Operand{}, bad
		}
		r, ok := a64ParseReg(name)
		if !ok {
			return a64Operand{}, bad
		}
		if t, idx, ok := strings.Cut(arr, "["); ok { // element Vn.Ts[i]
			es, ok1 := a64Sizes[t]
			i, err := strconv.Atoi(strings.TrimSuffix(idx, "]"))
			if !ok1 || err != nil || !strings.HasSuffix(idx, "]") || i < 0 || i >= 128/es {
				return a64Operand{}, bad
			}
			return a64Operand{kind: 'e', reg: r, esize: es, index: i}, nil
		}
		if len(arr) < 2 {
			return a64Operand{}, bad
		}
		es, ok1 := a64Sizes[arr[len(arr)-1:]]
		lanes, err := strconv.Atoi(arr[:len(arr)-1])
		if !ok1 || err != nil || (es*lanes != 64 && es*lanes != 128) {
			return a64Operand{}, bad
		}
		return a64Operand{kind: 'v', reg: r, esize: es, lanes: lanes}, nil
	case s[0] == 'D' || s[0] == 'S' || s[0] == 'X' || s[0] == 'W':
		r, ok := a64ParseReg(s[1:])
		if !ok || (r == 31 && (s[0] == 'X' || s[0] == 'W')) {
			return a64Operand{}, bad // X31/W31 are spelled XZR/WZR or SP
		}
		switch s[0] {
		case 'D':
			return a64Operand{kind: 'f', reg: r, esize: 64}, nil
		case 'S':
			return a64Operand{kind: 'f', reg: r, esize: 32}, nil
		case 'X':
			return a64Operand{kind: 'x', reg: r}, nil
		}
		return a64Operand{kind: 'w', reg: r}, nil
	}
	return a64Operand{}, bad
}

// a64Shape is the operand kinds of an instruction, e.g. "vvv" or "vve".
func a64Shape(ops []a64Operand) string {
	b := make([]byte, len(ops))
	for i, o := range ops {
		b[i] = o.kind
	}
	return string(b)
}

// a64FPSize returns sz for a floating-point arrangement (2D: 1, 4S/2S: 0).
func a64FPSize(o a64Operand) (uint32, error) {
	switch {
	case o.esize == 64 && o.lanes == 2:
		return 1, nil
	case o.esize == 32:
		return 0, nil
	}
	return 0, fmt.Errorf("floating-point arrangement must be 2D, 4S or 2S")
}

func a64SameArrangement(ops []a64Operand) error {
	for _, o := range ops[1:] {
		if o.esize != ops[0].esize || o.lanes != ops[0].lanes {
			return fmt.Errorf("operands differ in arrangement")
		}
	}
	return nil
}

// a64FPThreeSame: "Advanced SIMD three same", floating-point half
// (bits 31..0 = 0 Q U 01110 a sz 1 Rm opcode 1 Rn Rd). Value: U, a, opcode.
var a64FPThreeSame = map[string][3]uint32{
	"FMAXNM":  {0, 0, 0b11000},
	"FMLA":    {0, 0, 0b11001},
	"FADD":    {0, 0, 0b11010},
	"FMULX":   {0, 0, 0b11011},
	"FCMEQ":   {0, 0, 0b11100},
	"FMAX":    {0, 0, 0b11110},
	"FRECPS":  {0, 0, 0b11111},
	"FMINNM":  {0, 1, 0b11000},
	"FMLS":    {0, 1, 0b11001},
	"FSUB":    {0, 1, 0b11010},
	"FMIN":    {0, 1, 0b11110},
	"FRSQRTS": {0, 1, 0b11111},
	"FMAXNMP": {1, 0, 0b11000},
	"FADDP":   {1, 0, 0b11010},
	"FMUL":    {1, 0, 0b11011},
	"FCMGE":   {1, 0, 0b11100},
	"FACGE":   {1, 0, 0b11101},
	"FMAXP":   {1, 0, 0b11110},
	"FDIV":    {1, 0, 0b11111},
	"FMINNMP": {1, 1, 0b11000},
	"FABD":    {1, 1, 0b11010},
	"FCMGT":   {1, 1, 0b11100},
	"FACGT":   {1, 1, 0b11101},
	"FMINP":   {1, 1, 0b11110},
}

// a64FPTwoMisc: "Advanced SIMD two-register miscellaneous", floating-point
// half (0 Q U 01110 a sz 10000 opcode 10 Rn Rd). Value: U, a, opcode. The
// compares against zero take a third operand #0.0 (a64FPCompareZero).
var a64FPTwoMisc = map[string][3]uint32{
	"FRINTN":  {0, 0, 0b11000},
	"FRINTM":  {0, 0, 0b11001},
	"FCVTNS":  {0, 0, 0b11010},
	"FCVTMS":  {0, 0, 0b11011},
	"FCVTAS":  {0, 0, 0b11100},
	"SCVTF":   {0, 0, 0b11101},
	"FABS":    {0, 1, 0b01111},
	"FRINTP":  {0, 1, 0b11000},
	"FRINTZ":  {0, 1, 0b11001},
	"FCVTPS":  {0, 1, 0b11010},
	"FCVTZS":  {0, 1, 0b11011},
	"FRECPE":  {0, 1, 0b11101},
	"FRINTA":  {1, 0, 0b11000},
	"FRINTX":  {1, 0, 0b11001},
	"FCVTNU":  {1, 0, 0b11010},
	"FCVTMU":  {1, 0, 0b11011},
	"FCVTAU":  {1, 0, 0b11100},
	"UCVTF":   {1, 0, 0b11101},
	"FNEG":    {1, 1, 0b01111},
	"FRINTI":  {1, 1, 0b11001},
	"FCVTPU":  {1, 1, 0b11010},
	"FCVTZU":  {1, 1, 0b11011},
	"FRSQRTE": {1, 1, 0b11101},
	"FSQRT":   {1, 1, 0b11111},
}

var a64FPCompareZero = map[string][3]uint32{
	"FCMGT": {0, 1, 0b01100},
	"FCMEQ": {0, 1, 0b01101},
	"FCMLT": {0, 1, 0b01110},
	"FCMGE": {1, 1, 0b01100},
	"FCMLE": {1, 1, 0b01101},
}

// a64IntThreeSame: "Advanced SIMD three same", integer half
// (0 Q U 01110 size 1 Rm opcode 1 Rn Rd). Value: U, opcode.
var a64IntThreeSame = map[string][2]uint32{
	"CMGT":  {0, 0b00110},
	"CMGE":  {0, 0b00111},
	"SSHL":  {0, 0b01000},
	"ADD":   {0, 0b10000},
	"CMTST": {0, 0b10001},
	"CMHI":  {1, 0b00110},
	"CMHS":  {1, 0b00111},
	"USHL":  {1, 0b01000},
	"SUB":   {1, 0b10000},
	"CMEQ":  {1, 0b10001},
}

// a64Logical: "Advanced SIMD three same" with opcode 00011, where U:size
// selects the operation; the arrangement is 8B or 16B. Value: U, size.
var a64Logical = map[string][2]uint32{
	"AND": {0, 0}, "BIC": {0, 1}, "ORR": {0, 2}, "ORN": {0, 3},
	"EOR": {1, 0}, "BSL": {1, 1}, "BIT": {1, 2}, "BIF": {1, 3},
}

// a64IntTwoMisc: "Advanced SIMD two-register miscellaneous", integer half
// (0 Q U 01110 size 10000 opcode 10 Rn Rd). Value: U, opcode. The compares
// against zero take a third operand #0.
var a64IntTwoMisc = map[string][2]uint32{"ABS": {0, 0b01011}, "NEG": {1, 0b01011}}
var a64IntCompareZero = map[string][2]uint32{
	"CMGT": {0, 0b01000}, "CMEQ": {0, 0b01001}, "CMLT": {0, 0b01010},
	"CMGE": {1, 0b01000}, "CMLE": {1, 0b01001},
}

// a64ShiftImm: "Advanced SIMD shift by immediate"
// (0 Q U 011110 immh immb opcode 1 Rn Rd). Value: U, opcode, left (1 for
// left shifts, encoded as esize+shift; right shifts are 2*esize-shift).
var a64ShiftImm = map[string][3]uint32{
	"SSHR":  {0, 0b00000, 0},
	"SSRA":  {0, 0b00010, 0},
	"SRSHR": {0, 0b00100, 0},
	"SHL":   {0, 0b01010, 1},
	"USHR":  {1, 0b00000, 0},
	"USRA":  {1, 0b00010, 0},
	"URSHR": {1, 0b00100, 0},
	"SRI":   {1, 0b01000, 0},
	"SLI":   {1, 0b01010, 1},
}

// a64ByElement: "Advanced SIMD vector x indexed element", floating-point
// (0 Q U 01111 1 sz L M Rm opcode H 0 Rn Rd). Value: U, opcode.
var a64ByElement = map[string][2]uint32{
	"FMLA": {0, 0b0001}, "FMLS": {0, 0b0101}, "FMUL": {0, 0b1001}, "FMULX": {1, 0b1001},
}

// a64ScalarPairwise: "Advanced SIMD scalar pairwise"
// (01 U 11110 a sz 11000 opcode 10 Rn Rd). Value: U, a, opcode.
var a64ScalarPairwise = map[string][3]uint32{
	"FMAXNMP": {1, 0, 0b01100},
	"FADDP":   {1, 0, 0b01101},
	"FMAXP":   {1, 0, 0b01111},
	"FMINNMP": {1, 1, 0b01100},
	"FMINP":   {1, 1, 0b01111},
}

func a64Has[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// a64Fields packs Rd, Rn and Rm into bits 4..0, 9..5 and 20..16.
func a64Fields(rd, rn, rm uint32) uint32 { return rm<<16 | rn<<5 | rd }

// a64Encode returns the 32-bit encoding of one instruction in Arm syntax.
func a64Encode(text string) (uint32, error) {
	text = strings.ToUpper(strings.TrimSpace(text))
	mn, rest, _ := strings.Cut(text, " ")
	var ops []a64Operand
	if rest = strings.TrimSpace(rest); rest != "" {
		for _, f := range strings.Split(rest, ",") {
			o, err := a64ParseOperand(f)
			if err != nil {
				return 0, err
			}
			ops = append(ops, o)
		}
	}
	w, err := a64EncodeOps(mn, ops)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", text, err)
	}
	return w, nil
}

// a64ScalarFP and a64ScalarInt list the instructions that also have a
// scalar form in "Advanced SIMD scalar three same", "Advanced SIMD scalar
// two-register miscellaneous" and "Advanced SIMD scalar shift by immediate"
// (integer ones on D only). Those groups are the vector groups with bits
// 31..28 = 01U1 in place of 0QU0: the vector encoding with Q = 1 and bit 28
// set.
var a64ScalarFP = map[string]bool{
	"FABD": true, "FMULX": true, "FCMEQ": true, "FCMGE": true, "FCMGT": true,
	"FACGE": true, "FACGT": true, "FRECPS": true, "FRSQRTS": true,
	"FCVTNS": true, "FCVTMS": true, "FCVTAS": true, "FCVTPS": true, "FCVTZS": true,
	"FCVTNU": true, "FCVTMU": true, "FCVTAU": true, "FCVTPU": true, "FCVTZU": true,
	"SCVTF": true, "UCVTF": true, "FRECPE": true, "FRSQRTE": true,
	"FCMLT": true, "FCMLE": true,
}

var a64ScalarInt = map[string]bool{
	"ADD": true, "SUB": true, "CMGT": true, "CMGE": true, "CMHI": true, "CMHS": true,
	"CMEQ": true, "CMTST": true, "SSHL": true, "USHL": true, "ABS": true, "NEG": true,
	"CMLT": true, "CMLE": true, "SSHR": true, "SSRA": true, "SRSHR": true, "SHL": true,
	"USHR": true, "USRA": true, "URSHR": true, "SRI": true, "SLI": true,
}

func a64EncodeOps(mn string, ops []a64Operand) (uint32, error) {
	shape := a64Shape(ops)
	if shape == "fff" || shape == "ff" || shape == "ffi" {
		if !a64ScalarFP[mn] && !(a64ScalarInt[mn] && ops[0].esize == 64) {
			return 0, fmt.Errorf("no scalar Advanced SIMD form of %s %q", mn, shape)
		}
		vops := make([]a64Operand, len(ops))
		for i, o := range ops {
			vops[i] = o
			if o.kind == 'f' {
				vops[i].kind, vops[i].lanes = 'v', 128/o.esize
			}
		}
		w, err := a64EncodeOps(mn, vops)
		return w | 1<<28, err
	}
	if shape == "vvv" || shape == "vv" || shape == "vvi" {
		if err := a64SameArrangement(ops[:2]); err != nil {
			return 0, err
		}
	}
	switch {
	case shape == "vvv" && a64Has(a64FPThreeSame, mn):
		// Advanced SIMD three same (floating point).
		f := a64FPThreeSame[mn]
		if err := a64SameArrangement(ops); err != nil {
			return 0, err
		}
		sz, err := a64FPSize(ops[0])
		if err != nil {
			return 0, err
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200400 | f[1]<<23 | sz<<22 | f[2]<<11 |
			a64Fields(ops[0].reg, ops[1].reg, ops[2].reg), nil

	case shape == "vv" && a64Has(a64FPTwoMisc, mn):
		// Advanced SIMD two-register miscellaneous (floating point).
		f := a64FPTwoMisc[mn]
		sz, err := a64FPSize(ops[0])
		if err != nil {
			return 0, err
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200800 | f[1]<<23 | sz<<22 | f[2]<<12 |
			a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vvi" && a64Has(a64FPCompareZero, mn):
		// Two-register miscellaneous, compare against zero: FCMxx Vd, Vn, #0.0.
		f := a64FPCompareZero[mn]
		if v, err := strconv.ParseFloat(ops[2].imm, 64); err != nil || v != 0 {
			return 0, fmt.Errorf("floating-point compare needs #0.0")
		}
		sz, err := a64FPSize(ops[0])
		if err != nil {
			return 0, err
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200800 | f[1]<<23 | sz<<22 | f[2]<<12 |
			a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vvv" && a64Has(a64IntThreeSame, mn):
		// Advanced SIMD three same (integer).
		f := a64IntThreeSame[mn]
		if err := a64SameArrangement(ops); err != nil {
			return 0, err
		}
		if ops[0].esize == 64 && ops[0].lanes == 1 {
			return 0, fmt.Errorf("1D is not a vector arrangement")
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200400 | ops[0].sizeField()<<22 | f[1]<<11 |
			a64Fields(ops[0].reg, ops[1].reg, ops[2].reg), nil

	case (shape == "vvv" || (shape == "vv" && mn == "MOV")) && (a64Has(a64Logical, mn) || mn == "MOV"):
		// Three same, opcode 00011 (logical). MOV Vd, Vn is ORR Vd, Vn, Vn.
		if mn == "MOV" {
			mn, ops = "ORR", append(ops, ops[1])
		}
		f := a64Logical[mn]
		if err := a64SameArrangement(ops); err != nil {
			return 0, err
		}
		if ops[0].esize != 8 {
			return 0, fmt.Errorf("logical operations take 8B or 16B")
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200400 | f[1]<<22 | 0b00011<<11 |
			a64Fields(ops[0].reg, ops[1].reg, ops[2].reg), nil

	case shape == "vv" && (mn == "NOT" || mn == "MVN"):
		// Two-register miscellaneous, U=1 size=00 opcode 00101.
		if ops[0].esize != 8 {
			return 0, fmt.Errorf("NOT takes 8B or 16B")
		}
		return ops[0].q()<<30 | 1<<29 | 0x0E200800 | 0b00101<<12 | a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vv" && a64Has(a64IntTwoMisc, mn):
		f := a64IntTwoMisc[mn]
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200800 | ops[0].sizeField()<<22 | f[1]<<12 |
			a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vvi" && a64Has(a64IntCompareZero, mn):
		f := a64IntCompareZero[mn]
		if v, err := strconv.ParseInt(ops[2].imm, 0, 64); err != nil || v != 0 {
			return 0, fmt.Errorf("integer compare needs #0")
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0E200800 | ops[0].sizeField()<<22 | f[1]<<12 |
			a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vvi" && a64Has(a64ShiftImm, mn):
		// Advanced SIMD shift by immediate; immh:immb is bits 22..16.
		f := a64ShiftImm[mn]
		sh, err := strconv.ParseInt(ops[2].imm, 0, 64)
		es := int64(ops[0].esize)
		if err != nil {
			return 0, fmt.Errorf("bad shift %q", ops[2].imm)
		}
		if ops[0].esize == 64 && ops[0].lanes == 1 {
			return 0, fmt.Errorf("1D is not a vector arrangement")
		}
		var immhb int64
		if f[2] == 1 {
			if sh < 0 || sh >= es {
				return 0, fmt.Errorf("left shift %d out of range", sh)
			}
			immhb = es + sh
		} else {
			if sh < 1 || sh > es {
				return 0, fmt.Errorf("right shift %d out of range", sh)
			}
			immhb = 2*es - sh
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0F000400 | uint32(immhb)<<16 | f[1]<<11 |
			a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vve" && a64Has(a64ByElement, mn):
		// Advanced SIMD vector x indexed element (floating point).
		f := a64ByElement[mn]
		sz, err := a64FPSize(ops[0])
		if err != nil {
			return 0, err
		}
		if err := a64SameArrangement(ops[:2]); err != nil {
			return 0, err
		}
		if ops[2].esize != ops[0].esize {
			return 0, fmt.Errorf("element size differs from the arrangement")
		}
		var h, l uint32
		if sz == 1 { // index is H, L = 0
			h = uint32(ops[2].index)
		} else { // index is H:L
			h, l = uint32(ops[2].index)>>1, uint32(ops[2].index)&1
		}
		return ops[0].q()<<30 | f[0]<<29 | 0x0F800000 | sz<<22 | l<<21 | f[1]<<12 | h<<11 |
			a64Fields(ops[0].reg, ops[1].reg, ops[2].reg), nil

	case (shape == "ve" || shape == "vx" || shape == "vw" || shape == "fe") && (mn == "DUP" || (mn == "MOV" && shape == "fe")):
		// Advanced SIMD copy: DUP (element) 0 Q 0 01110000 imm5 0 0000 1 Rn Rd,
		// DUP (general) with imm4 = 0001, and the scalar DUP (element), alias
		// MOV, 01 0 11110000 imm5 0 0000 1 Rn Rd. imm5 is the index shifted
		// above a one-hot element size.
		es, idx := ops[0].esize, 0
		if shape == "ve" || shape == "fe" {
			if ops[1].esize != es {
				return 0, fmt.Errorf("element size differs")
			}
			idx = ops[1].index
		} else if (shape == "vx") != (es == 64) {
			return 0, fmt.Errorf("DUP from a general register: X for D lanes, W otherwise")
		}
		lg := map[int]uint32{8: 0, 16: 1, 32: 2, 64: 3}[es]
		imm5 := (uint32(idx)<<1 | 1) << lg
		switch shape {
		case "fe":
			return 0x5E000400 | imm5<<16 | a64Fields(ops[0].reg, ops[1].reg, 0), nil
		case "ve":
			if es == 64 && ops[0].lanes == 1 {
				return 0, fmt.Errorf("1D is not a vector arrangement")
			}
			return ops[0].q()<<30 | 0x0E000400 | imm5<<16 | a64Fields(ops[0].reg, ops[1].reg, 0), nil
		}
		return ops[0].q()<<30 | 0x0E000C00 | imm5<<16 | a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "fv" && a64Has(a64ScalarPairwise, mn):
		// Advanced SIMD scalar pairwise: Dd, Vn.2D or Sd, Vn.2S.
		f := a64ScalarPairwise[mn]
		if ops[1].lanes != 2 || ops[1].esize != ops[0].esize {
			return 0, fmt.Errorf("pairwise reduction takes Dd, Vn.2D or Sd, Vn.2S")
		}
		var sz uint32
		if ops[0].esize == 64 {
			sz = 1
		}
		return 0x5E300800 | f[0]<<29 | f[1]<<23 | sz<<22 | f[2]<<12 | a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "fv" && mn == "ADDP":
		// Scalar pairwise, U=0 size=11 opcode 11011: ADDP Dd, Vn.2D.
		if ops[0].esize != 64 || ops[1].esize != 64 || ops[1].lanes != 2 {
			return 0, fmt.Errorf("ADDP takes Dd, Vn.2D")
		}
		return 0x5E300800 | 3<<22 | 0b11011<<12 | a64Fields(ops[0].reg, ops[1].reg, 0), nil

	case shape == "vi" && mn == "FMOV":
		// Advanced SIMD modified immediate, cmode 1111: 0 Q op 0111100000 a b c
		// 1111 o2=0 1 d e f g h Rd with op = 1 for 2D (o2 = 0).
		v, err := strconv.ParseFloat(ops[1].imm, 64)
		if err != nil {
			return 0, fmt.Errorf("bad float immediate %q", ops[1].imm)
		}
		imm8, ok := a64FPImm8(v)
		if !ok {
			return 0, fmt.Errorf("%v is not an 8-bit floating-point immediate", v)
		}
		var op uint32
		switch {
		case ops[0].esize == 64 && ops[0].lanes == 2:
			op = 1
		case ops[0].esize == 32:
		default:
			return 0, fmt.Errorf("FMOV (vector, immediate) takes 2D, 4S or 2S")
		}
		return ops[0].q()<<30 | op<<29 | 0x0F00F400 | (imm8>>5)<<16 | (imm8&31)<<5 | ops[0].reg, nil

	case shape == "vi" && mn == "MOVI" && ops[0].esize == 64 && ops[0].lanes == 2:
		// Modified immediate, op=1 cmode=1110: each bit of imm8 is a byte of
		// the 64-bit immediate (0x00 or 0xFF).
		v, err := strconv.ParseUint(ops[1].imm, 0, 64)
		if err != nil {
			return 0, fmt.Errorf("bad immediate %q", ops[1].imm)
		}
		var imm8 uint32
		for i := 0; i < 8; i++ {
			switch byte(v >> (8 * i)) {
			case 0xFF:
				imm8 |= 1 << i
			case 0:
			default:
				return 0, fmt.Errorf("MOVI .2D needs bytes of 0x00 or 0xFF")
			}
		}
		return 0x6F00E400 | (imm8>>5)<<16 | (imm8&31)<<5 | ops[0].reg, nil
	}
	return 0, fmt.Errorf("unsupported instruction form %s with operands %q", mn, shape)
}

// a64FPImm8 inverts VFPExpandImm (Arm ARM, shared pseudocode): an 8-bit
// immediate a:b:c:d:e:f:g:h stands for (-1)^a * 2^(exp) * (16+efgh)/16 with
// exp = NOT(b):c:d - 3 in [-3, 4]. It searches all 256 patterns.
func a64FPImm8(v float64) (uint32, bool) {
	for imm8 := uint32(0); imm8 < 256; imm8++ {
		a, b, cd, efgh := imm8>>7, imm8>>6&1, imm8>>4&3, imm8&15
		e := int(((b^1)<<2)|cd) - 3
		x := math.Ldexp(float64(16+efgh)/16, e)
		if a == 1 {
			x = -x
		}
		if x == v {
			return imm8, true
		}
	}
	return 0, false
}

// a64Assemble assembles lines of Arm-syntax A64 assembly with GNU binutils
// (aarch64-linux-gnu-as, read back with aarch64-linux-gnu-objdump) and
// returns one word per line. ok is false when the tools are not on PATH.
func a64Assemble(lines []string) (words []uint32, ok bool, err error) {
	as, err1 := exec.LookPath("aarch64-linux-gnu-as")
	objdump, err2 := exec.LookPath("aarch64-linux-gnu-objdump")
	if err1 != nil || err2 != nil {
		return nil, false, nil
	}
	dir, err := os.MkdirTemp("", "a64enc")
	if err != nil {
		return nil, true, err
	}
	defer os.RemoveAll(dir)
	src, obj := filepath.Join(dir, "in.s"), filepath.Join(dir, "in.o")
	if err := os.WriteFile(src, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return nil, true, err
	}
	if out, err := exec.Command(as, "-o", obj, src).CombinedOutput(); err != nil {
		return nil, true, fmt.Errorf("%s: %v\n%s", as, err, out)
	}
	out, err := exec.Command(objdump, "-d", obj).Output()
	if err != nil {
		return nil, true, fmt.Errorf("%s: %v", objdump, err)
	}
	// Lines of the disassembly look like "   4:\t6e60de10 \tfmul\tv16.2d, ...".
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || !strings.HasSuffix(f[0], ":") || len(f[1]) != 8 {
			continue
		}
		if _, err := strconv.ParseUint(strings.TrimSuffix(f[0], ":"), 16, 64); err != nil {
			continue
		}
		w, err := strconv.ParseUint(f[1], 16, 32)
		if err != nil {
			continue
		}
		words = append(words, uint32(w))
	}
	if len(words) != len(lines) {
		return nil, true, fmt.Errorf("objdump listed %d words for %d instructions:\n%s", len(words), len(lines), out)
	}
	return words, true, nil
}

// TestA64EncoderGolden pins the encoder to encodings published elsewhere:
// the Go assembler's own test data (src/cmd/asm/internal/asm/testdata/
// arm64.s, whose operand order is reversed and arrangements spelled D2, S4)
// and words GNU as produced for the floating-point forms. It runs everywhere.
func TestA64EncoderGolden(t *testing.T) {
	for _, tc := range []struct {
		text string
		want uint32
	}{
		// From the Go assembler's test data.
		{"FMLA V1.2D, V12.2D, V1.2D", 0x4E61CD81},
		{"FMLS V1.2D, V12.2D, V1.2D", 0x4EE1CD81},
		{"FMLS V1.4S, V12.4S, V1.4S", 0x4EA1CD81},
		{"FMLA V1.2S, V12.2S, V1.2S", 0x0E21CD81},
		{"AND V3.8B, V12.8B, V21.8B", 0x0E351D83},
		{"ORR V3.16B, V4.16B, V5.16B", 0x4EA51C83},
		{"EOR V0.16B, V1.16B, V0.16B", 0x6E201C20},
		{"BIT V4.16B, V25.16B, V21.16B", 0x6EB51F24},
		{"BSL V7.16B, V3.16B, V23.16B", 0x6E771C67},
		{"BIF V2.16B, V0.16B, V30.16B", 0x6EFE1C02},
		{"ADD V9.4S, V5.4S, V16.4S", 0x4EB084A9},
		{"SUB V30.8B, V30.8B, V2.8B", 0x2E2287DE},
		{"CMEQ V3.4H, V2.4H, V1.4H", 0x2E618C43},
		{"USHR V2.2D, V1.2D, #56", 0x6F480422},
		{"USHR V2.4S, V1.4S, #24", 0x6F280422},
		{"SHL V2.2D, V1.2D, #56", 0x4F785422},
		{"SHL V2.16B, V1.16B, #2", 0x4F0A5422},
		{"DUP V17.4S, V19.S[0]", 0x4E040671},
		{"DUP V11.2D, X22", 0x4E080ECB},
		{"DUP V9.4H, W1", 0x0E020C29},
		{"DUP S20, V20.S[0]", 0x5E040694},
		// Recorded from GNU as 2.40 (binutils-aarch64-linux-gnu).
		{"FADD V0.2D, V0.2D, V1.2D", 0x4E61D400},
		{"FMUL V16.2D, V16.2D, V0.2D", 0x6E60DE10},
		{"FADDP D0, V0.2D", 0x7E70D800},
		{"FADDP V0.2D, V0.2D, V2.2D", 0x6E62D400},
	} {
		got, err := a64Encode(tc.text)
		if err != nil {
			t.Errorf("%s: %v", tc.text, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s: encoder gives 0x%08X, want 0x%08X", tc.text, got, tc.want)
		}
	}
}

// a64Samples returns instructions in every form the encoder knows, with
// registers and immediates chosen so that every field is exercised.
func a64Samples() []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	fpArr := []string{"2D", "4S", "2S"}
	intArr := []string{"16B", "8B", "8H", "4H", "4S", "2S", "2D"}
	for mn := range a64FPThreeSame {
		for _, a := range fpArr {
			add("%s V1.%s, V17.%s, V30.%s", mn, a, a, a)
		}
	}
	for mn := range a64FPTwoMisc {
		for _, a := range fpArr {
			add("%s V31.%s, V2.%s", mn, a, a)
		}
	}
	for mn := range a64FPCompareZero {
		for _, a := range fpArr {
			add("%s V3.%s, V28.%s, #0.0", mn, a, a)
		}
	}
	for mn := range a64IntThreeSame {
		for _, a := range intArr {
			add("%s V4.%s, V20.%s, V9.%s", mn, a, a, a)
		}
	}
	for mn := range a64Logical {
		for _, a := range []string{"16B", "8B"} {
			add("%s V5.%s, V21.%s, V10.%s", mn, a, a, a)
		}
	}
	add("MOV V6.16B, V22.16B")
	add("NOT V7.16B, V23.16B")
	add("MVN V7.8B, V23.8B")
	for mn := range a64IntTwoMisc {
		for _, a := range intArr {
			add("%s V8.%s, V24.%s", mn, a, a)
		}
	}
	for mn := range a64IntCompareZero {
		for _, a := range intArr {
			add("%s V9.%s, V25.%s, #0", mn, a, a)
		}
	}
	for mn, f := range a64ShiftImm {
		for _, a := range intArr {
			es := map[byte]int{'B': 8, 'H': 16, 'S': 32, 'D': 64}[a[len(a)-1]]
			shifts := []int{1, es / 2, es - 1}
			if f[2] == 0 {
				shifts = append(shifts, es)
			} else {
				shifts = append(shifts, 0)
			}
			for _, sh := range shifts {
				add("%s V10.%s, V26.%s, #%d", mn, a, a, sh)
			}
		}
	}
	for mn := range a64ByElement {
		add("%s V11.2D, V27.2D, V19.D[0]", mn)
		add("%s V11.2D, V27.2D, V19.D[1]", mn)
		for i := 0; i < 4; i++ {
			add("%s V12.4S, V28.4S, V18.S[%d]", mn, i)
			add("%s V12.2S, V28.2S, V18.S[%d]", mn, i)
		}
	}
	add("DUP V13.2D, V29.D[1]")
	add("DUP V13.2D, V29.D[0]")
	add("DUP V13.4S, V29.S[3]")
	add("DUP V13.2S, V29.S[2]")
	add("DUP V13.8H, V29.H[5]")
	add("DUP V13.16B, V29.B[9]")
	add("DUP V14.2D, X30")
	add("DUP V14.4S, W7")
	add("DUP D15, V3.D[1]")
	add("MOV D15, V3.D[1]")
	add("DUP S15, V3.S[2]")
	for mn := range a64ScalarPairwise {
		add("%s D16, V4.2D", mn)
		add("%s S16, V4.2S", mn)
	}
	add("ADDP D17, V5.2D")
	for mn := range a64ScalarFP {
		for _, r := range []string{"D", "S"} {
			switch {
			case a64Has(a64FPThreeSame, mn):
				add("%s %s20, %s6, %s27", mn, r, r, r)
			case a64Has(a64FPCompareZero, mn):
				add("%s %s20, %s6, #0.0", mn, r, r)
			default:
				add("%s %s20, %s6", mn, r, r)
			}
		}
	}
	for mn := range a64ScalarInt {
		switch {
		case a64Has(a64IntThreeSame, mn):
			add("%s D21, D7, D28", mn)
		case a64Has(a64IntCompareZero, mn):
			add("%s D21, D7, #0", mn)
		case a64Has(a64ShiftImm, mn):
			add("%s D21, D7, #1", mn)
			add("%s D21, D7, #52", mn)
		default:
			add("%s D21, D7", mn)
		}
	}
	for _, v := range []string{"1.0", "-0.5", "31.0", "0.125", "2.5", "-1.9375"} {
		add("FMOV V18.2D, #%s", v)
		add("FMOV V18.4S, #%s", v)
	}
	add("MOVI V19.2D, #0")
	add("MOVI V19.2D, #0xFF00FF0000FFFF00")
	return out
}

// TestA64EncoderMatchesBinutils checks the encoder, form by form, against
// GNU as. It is skipped when binutils-aarch64-linux-gnu is not installed.
func TestA64EncoderMatchesBinutils(t *testing.T) {
	lines := a64Samples()
	words, ok, err := a64Assemble(lines)
	if !ok {
		t.Skip("aarch64-linux-gnu-as/objdump not on PATH")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range lines {
		got, err := a64Encode(l)
		if err != nil {
			t.Errorf("%s: %v", l, err)
			continue
		}
		if got != words[i] {
			t.Errorf("%s: encoder gives 0x%08X, GNU as 0x%08X", l, got, words[i])
		}
	}
	t.Logf("%d instructions agree with GNU as", len(lines))
}

// TestA64EncoderRejects: operand combinations that are not instructions
// must be errors, not silently encoded.
func TestA64EncoderRejects(t *testing.T) {
	for _, text := range []string{
		"FADD V0.D2, V1.D2, V2.D2",   // Go's spelling, not Arm's
		"FADD V0.2D, V1.2D, V2.4S",   // mixed arrangements
		"FADD V0.8H, V1.8H, V2.8H",   // half precision not covered
		"FADD V0.1D, V1.1D, V2.1D",   // not a vector arrangement
		"AND V0.2D, V1.2D, V2.2D",    // logical ops are bytewise
		"SHL V0.2D, V1.2D, #64",      // shift out of range
		"USHR V0.2D, V1.2D, #0",      // shift out of range
		"FMLA V0.2D, V1.2D, V2.S[0]", // element size mismatch
		"FMLA V0.2D, V1.2D, V2.D[2]", // index out of range
		"DUP V0.2D, W1",              // D lanes need an X register
		"FMOV V0.2D, #0.1",           // not an 8-bit immediate
		"FCMGT V0.2D, V1.2D, #1.0",   // compare with zero only
		"FROB V0.2D, V1.2D",          // unknown mnemonic
		"FADD V32.2D, V1.2D, V2.2D",  // no such register
		"FADD",                       // no operands
		"FADD D0, D1, D2",            // scalar FADD is not an Advanced SIMD form
		"ADD S0, S1, S2",             // scalar integer ADD is D only
	} {
		if w, err := a64Encode(text); err == nil {
			t.Errorf("%s: encoded as 0x%08X, want an error", text, w)
		}
	}
}
