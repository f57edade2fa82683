// Package sparsegen builds sparse, high-dimensional binary classification
// sets for testing and timing the sparse-row paths (logistic regression and
// SVMs on LIBSVM data) without downloading anything.
//
// GoText turns Go's own source tree into a text-classification set of the
// kind LIBLINEAR is usually measured on (rcv1, news20, real-sim): one
// document per .go file, TF-IDF features over its identifiers and words,
// rows of unit Euclidean norm. Every machine that can build this module has
// that tree (runtime.GOROOT()/src), so the set costs no download and no
// licence beyond Go's own. Its size follows the installed Go release; from
// a given tree it is the same bit for bit, on every platform.
//
// Zipf makes rows of any size whose feature frequencies follow a power law,
// as word frequencies do, with labels from a planted sparse weight vector.
// It is the source for sizes the Go tree cannot reach (a million rows or
// features) and is the same bit for bit, on every platform, for a seed.
//
// Both return a Set in compressed sparse rows; WriteLIBSVM writes it in the
// LIBSVM text format that softpen fit and LIBLINEAR read.
package sparsegen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Set is a binary classification set in compressed sparse rows: row i has
// the features Idx[Ptr[i]:Ptr[i+1]] (0-based, strictly increasing, each
// below NFeatures) with the values Val[Ptr[i]:Ptr[i+1]], and the label
// Labels[i], -1 or +1 (for ZipfRows' constraint rows, the right-hand side
// b_i). len(Ptr) is the number of rows plus one.
type Set struct {
	Labels    []float64
	Ptr       []int
	Idx       []int32
	Val       []float64
	NFeatures int
}

// Rows is the number of rows.
func (s *Set) Rows() int { return len(s.Labels) }

// NNZ is the number of stored entries.
func (s *Set) NNZ() int { return len(s.Idx) }

// PositiveFraction is the fraction of rows labelled +1 (0 for no rows).
func (s *Set) PositiveFraction() float64 {
	if len(s.Labels) == 0 {
		return 0
	}
	pos := 0
	for _, y := range s.Labels {
		if y > 0 {
			pos++
		}
	}
	return float64(pos) / float64(len(s.Labels))
}

// WriteLIBSVM writes s in the LIBSVM text format, one row a line:
// "label idx:val idx:val ...", the label +1 or -1 (any other finite
// label, a right-hand side, as a value is), indices 1-based, values in the
// shortest form that reads back to the same float64 (strconv 'g', -1), so
// a reader gets the set bit for bit. A row without entries is its label
// alone.
func (s *Set) WriteLIBSVM(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	for i, y := range s.Labels {
		line = line[:0]
		switch {
		case y == 1:
			line = append(line, "+1"...)
		case y == -1:
			line = append(line, "-1"...)
		case math.IsNaN(y) || math.IsInf(y, 0):
			return fmt.Errorf("sparsegen: row %d: label %v is not finite", i, y)
		default:
			line = strconv.AppendFloat(line, y, 'g', -1, 64)
		}
		for k := s.Ptr[i]; k < s.Ptr[i+1]; k++ {
			line = append(line, ' ')
			line = strconv.AppendInt(line, int64(s.Idx[k])+1, 10)
			line = append(line, ':')
			line = strconv.AppendFloat(line, s.Val[k], 'g', -1, 64)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// TextOptions are GoText's settings; the zero value is the default set.
type TextOptions struct {
	// MinDocs is the fewest documents a token must occur in to become a
	// feature (0 means 2). Tokens seen in one file only are mostly
	// generated names and constants: they would more than double the features
	// and let a model memorise single files.
	MinDocs int

	// Positive lists the top-level directories under root whose files are
	// labelled +1; all other files are -1. Nil means DefaultPositive.
	Positive []string

	// MaxDocs, when positive, keeps only that many files, evenly spaced
	// in the sorted file list so that every part of the tree is sampled
	// (the first MaxDocs files would all come from a few directories).
	// 0 keeps all. With ByFunc it counts documents, not files.
	MaxDocs int

	// ByFunc makes every top-level function (from the comment lines just
	// above its func keyword to the next one) a document of its own, and
	// the part of a file before its first function another. Documents are
	// then short, tens of distinct tokens, as in collections of news
	// abstracts or product reviews, and there are some ten times as many.
	ByFunc bool
}

// DefaultPositive is the positive class when TextOptions.Positive is nil:
// the files under cmd/ (the go command, the compiler, the linker and the
// other tools), about a third of the tree. No single token separates them
// from the library: the best, "cmd" itself, also names exec.Cmd and the
// library's command-line code, and the golang.org/x packages vendored
// under cmd/ look like library code. Some of those are vendored under
// vendor/ too, so the same row typically occurs with both labels and no
// weight vector separates the classes: the logistic loss stays bounded
// away from zero, as on real text.
var DefaultPositive = []string{"cmd"}

// maxFileSize is the largest file GoText reads. The few larger .go files
// in the tree are generated tables (the compiler's rewrite rules, the
// embedded time zone database) that are no one's idea of a document.
const maxFileSize = 1 << 20

// GoText builds a text-classification set from the .go files under root,
// typically filepath.Join(runtime.GOROOT(), "src").
//
// Documents are the .go files met by a lexically ordered walk of root
// (testdata directories, symbolic links and files over 1 MiB are skipped),
// a row each, in walk order; with opt.ByFunc, the parts of those files
// (see TextOptions), a row each, in file order. A file's tokens are its maximal runs of
// letters, digits and underscores (identifiers, keywords, words of comments
// and strings), lower-cased; an identifier made of several words (parseURL,
// max_len) also gives each word (parse, url; max, len). Tokens shorter than
// two characters, without a letter, or starting with a digit (number
// literals such as 0x1F or 1e9) are dropped.
//
// The features are the tokens found in at least MinDocs documents but not
// in all (a token in every file has no weight), numbered in byte order of
// the token, so the set does not depend on map order. A document's value
// for a token it contains count times, of the df documents out of nDocs
// that contain it, is
//
//	(1 + log(count)) * log(nDocs/df)
//
// and each row is then divided by its Euclidean norm, as in LIBLINEAR's
// text sets (rcv1, news20). A document whose tokens are all rare or
// universal has an empty row. Row i is labelled +1 when the first element
// of its file's path under root is in opt.Positive, else -1.
//
// The logarithms and norms are computed in an order and with roundings
// that do not depend on the platform, so a tree gives the same set bit for
// bit everywhere.
func GoText(root string, opt TextOptions) (*Set, error) {
	set, _, err := goText(root, opt)
	return set, err
}

// goText is GoText, also returning the features' tokens.
func goText(root string, opt TextOptions) (*Set, []string, error) {
	minDocs := opt.MinDocs
	if minDocs <= 0 {
		minDocs = 2
	}
	positive := opt.Positive
	if positive == nil {
		positive = DefaultPositive
	}

	files, err := goFiles(root)
	if err != nil {
		return nil, nil, err
	}
	docs := make([]document, len(files))
	for i := range files {
		docs[i] = document{file: i, lo: 0, hi: -1}
	}
	if opt.ByFunc {
		if docs, err = funcDocuments(root, files); err != nil {
			return nil, nil, err
		}
	}
	if opt.MaxDocs > 0 && opt.MaxDocs < len(docs) {
		kept := make([]document, opt.MaxDocs)
		for i := range kept {
			kept[i] = docs[i*len(docs)/opt.MaxDocs]
		}
		docs = kept
	}
	if len(docs) == 0 {
		return nil, nil, fmt.Errorf("sparsegen: no .go files under %s", root)
	}

	c, err := countTokens(root, files, docs)
	if err != nil {
		return nil, nil, err
	}
	nDocs := len(docs)

	feature, idf, names := c.vocabulary(minDocs, nDocs)

	labels := make([]float64, nDocs)
	for i, d := range docs {
		labels[i] = -1
		top, _, _ := strings.Cut(filepath.ToSlash(files[d.file]), "/")
		if slices.Contains(positive, top) {
			labels[i] = 1
		}
	}

	set := c.tfidfRows(labels, feature, idf)
	return set, names, nil
}

// tokenCounts are the documents' tokens: every distinct token gets an id
// in order of first appearance; document d holds the (id, count) pairs
// docID/docCnt[docPtr[d]:docPtr[d+1]].
type tokenCounts struct {
	tokens        []string // tokens[id]
	df            []int32  // df[id]: documents containing the token
	docPtr        []int
	docID, docCnt []int32
}

// document is the bytes [lo, hi) of files[file]; hi = -1 means to its end.
type document struct {
	file, lo, hi int
}

// funcDocuments splits every file into its top-level functions, each from
// the comment lines directly above its "func" keyword, and the part before
// the first of them; empty parts are dropped.
func funcDocuments(root string, files []string) ([]document, error) {
	var docs []document
	for i, rel := range files {
		src, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return nil, err
		}
		lo := 0
		for _, cut := range funcStarts(src) {
			if cut > lo {
				docs = append(docs, document{file: i, lo: lo, hi: cut})
			}
			lo = cut
		}
		if lo < len(src) {
			docs = append(docs, document{file: i, lo: lo, hi: len(src)})
		}
	}
	return docs, nil
}

// funcStarts returns the offsets in src where a top-level function's
// document begins: the start of a line beginning "func ", moved up over the
// lines beginning "//" directly above it.
func funcStarts(src []byte) []int {
	var cuts []int
	comment := -1 // start of the current run of comment lines, or -1
	for lo := 0; lo < len(src); {
		hi := bytes.IndexByte(src[lo:], '\n') + 1
		if hi == 0 {
			hi = len(src) - lo
		}
		line := src[lo : lo+hi]
		switch {
		case bytes.HasPrefix(line, []byte("func ")):
			cut := lo
			if comment >= 0 {
				cut = comment
			}
			cuts = append(cuts, cut)
			comment = -1
		case bytes.HasPrefix(line, []byte("//")):
			if comment < 0 {
				comment = lo
			}
		default:
			comment = -1
		}
		lo += hi
	}
	return cuts
}

// countTokens reads the documents of the files (relative to root) and
// counts their tokens.
func countTokens(root string, files []string, docs []document) (*tokenCounts, error) {
	var (
		ids     = map[string]int32{}
		tokens  []string
		df      []int32
		count   []int32 // count[id] within the current document, reset after it
		touched []int32 // ids counted in the current document
		docPtr  = []int{0}
		docID   []int32
		docCnt  []int32
	)
	var src []byte
	loaded := -1 // the file src holds
	for _, doc := range docs {
		if doc.file != loaded {
			var err error
			if src, err = os.ReadFile(filepath.Join(root, files[doc.file])); err != nil {
				return nil, err
			}
			loaded = doc.file
		}
		text := src[doc.lo:]
		if doc.hi >= 0 {
			text = src[doc.lo:doc.hi]
		}
		scanTokens(text, func(tok []byte) {
			id, ok := ids[string(tok)]
			if !ok {
				id = int32(len(tokens))
				s := string(tok)
				ids[s] = id
				tokens = append(tokens, s)
				df = append(df, 0)
				count = append(count, 0)
			}
			if count[id] == 0 {
				touched = append(touched, id)
			}
			count[id]++
		})
		for _, id := range touched {
			docID = append(docID, id)
			docCnt = append(docCnt, count[id])
			df[id]++
			count[id] = 0
		}
		touched = touched[:0]
		docPtr = append(docPtr, len(docID))
	}
	return &tokenCounts{tokens: tokens, df: df, docPtr: docPtr, docID: docID, docCnt: docCnt}, nil
}

// vocabulary returns the features — the tokens in at least minDocs of the
// nDocs documents and not in all, numbered in byte order of the token —
// as feature[id] (-1 outside the vocabulary), their idf and their names.
func (c *tokenCounts) vocabulary(minDocs, nDocs int) (feature []int32, idf []float64, names []string) {
	var vocab []int32
	for id, d := range c.df {
		if int(d) >= minDocs && int(d) < nDocs {
			vocab = append(vocab, int32(id))
		}
	}
	slices.SortFunc(vocab, func(a, b int32) int { return strings.Compare(c.tokens[a], c.tokens[b]) })
	feature = make([]int32, len(c.tokens)) // feature[id], -1 when not in the vocabulary
	for i := range feature {
		feature[i] = -1
	}
	idf = make([]float64, len(vocab))
	names = make([]string, len(vocab))
	for j, id := range vocab {
		feature[id] = int32(j)
		idf[j] = portableLog(float64(nDocs) / float64(c.df[id]))
		names[j] = c.tokens[id]
	}
	return feature, idf, names
}

// tfidfRows returns the documents as unit-norm TF-IDF rows over the
// features, tf = 1 + log(count), with their labels.
func (c *tokenCounts) tfidfRows(labels []float64, feature []int32, idf []float64) *Set {
	set := &Set{Labels: labels, Ptr: make([]int, 1, len(labels)+1), NFeatures: len(idf)}
	type entry struct {
		j int32
		c int32
	}
	var row []entry
	for d := range len(labels) {
		row = row[:0]
		for k := c.docPtr[d]; k < c.docPtr[d+1]; k++ {
			if j := feature[c.docID[k]]; j >= 0 {
				row = append(row, entry{j, c.docCnt[k]})
			}
		}
		slices.SortFunc(row, func(a, b entry) int { return int(a.j) - int(b.j) })
		start := len(set.Val)
		for _, e := range row {
			tf := 1 + portableLog(float64(e.c))
			set.Idx = append(set.Idx, e.j)
			set.Val = append(set.Val, tf*idf[e.j])
		}
		normalize(set.Val[start:])
		set.Ptr = append(set.Ptr, len(set.Val))
	}
	return set
}

// normalize divides v by its Euclidean norm (v == 0 is left alone). Each
// square is rounded before it is added (the explicit conversion), so no
// platform fuses the sum into FMAs and the result is the same everywhere.
func normalize(v []float64) {
	var ss float64
	for _, x := range v {
		ss += float64(x * x)
	}
	if ss == 0 {
		return
	}
	norm := math.Sqrt(ss) // correctly rounded on every platform
	for i := range v {
		v[i] /= norm
	}
}

// goFiles lists the regular .go files under root, as paths relative to
// root in lexical walk order, skipping testdata directories and files
// larger than maxFileSize.
func goFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".go") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() > maxFileSize {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sparsegen: %w", err)
	}
	return files, nil
}

// scanTokens calls emit with each token of src, lower-cased, as defined in
// GoText's comment. The slice passed to emit is reused after it returns.
func scanTokens(src []byte, emit func(tok []byte)) {
	var sc wordScratch
	for i := 0; i < len(src); {
		if c := src[i]; c < utf8.RuneSelf && !asciiWord[c] {
			i++ // the common case: punctuation and spaces
			continue
		}
		r, size := nextRune(src[i:])
		if !isWordRune(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(src) {
			if c := src[j]; c < utf8.RuneSelf {
				if !asciiWord[c] {
					break
				}
				j++
				continue
			}
			r, size := nextRune(src[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
		sc.emitWord(src[i:j], emit)
		i = j
	}
}

// wordScratch is emitWord's reusable space, so that scanning a file
// allocates only for new tokens.
type wordScratch struct {
	lower []byte
	parts [][]byte
}

// emitWord emits a run of word characters and, when it is made of several
// words, each of them.
func (sc *wordScratch) emitWord(word []byte, emit func([]byte)) {
	if startsWithDigit(word) {
		return // a number literal, or a part of one
	}
	sc.lower = appendLower(sc.lower[:0], word)
	if keepToken(sc.lower) {
		emit(sc.lower)
	}
	sc.parts = splitWords(sc.parts[:0], word)
	if len(sc.parts) < 2 {
		return
	}
	for _, p := range sc.parts {
		if startsWithDigit(p) {
			continue
		}
		sc.lower = appendLower(sc.lower[:0], p)
		if keepToken(sc.lower) {
			emit(sc.lower)
		}
	}
}

// splitWords splits an identifier into its words: at underscores, before
// an upper-case letter that follows a lower-case letter or a digit
// (parseURL, utf8Reader), and before the last upper-case letter of a run
// that a lower-case letter follows (HTTPServer: HTTP, Server). Digits stay
// with the word before them (Int64, sha256). The words are appended to
// parts, which is returned.
func splitWords(parts [][]byte, word []byte) [][]byte {
	start := 0
	var prev rune = -1
	for i := 0; i < len(word); {
		r, size := nextRune(word[i:])
		if r == '_' {
			if i > start {
				parts = append(parts, word[start:i])
			}
			start, prev = i+size, -1
			i += size
			continue
		}
		if unicode.IsUpper(r) && i > start {
			next, _ := nextRune(word[i+size:])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) ||
				(unicode.IsUpper(prev) && unicode.IsLower(next)) {
				parts = append(parts, word[start:i])
				start = i
			}
		}
		prev = r
		i += size
	}
	if start < len(word) {
		parts = append(parts, word[start:])
	}
	return parts
}

// keepToken reports whether a lower-cased token is kept: two characters or
// more, at least one of them a letter.
func keepToken(tok []byte) bool {
	if utf8.RuneCount(tok) < 2 {
		return false
	}
	for i := 0; i < len(tok); {
		r, size := nextRune(tok[i:])
		if unicode.IsLetter(r) {
			return true
		}
		i += size
	}
	return false
}

func startsWithDigit(b []byte) bool {
	r, _ := nextRune(b)
	return unicode.IsDigit(r)
}

// appendLower appends b lower-cased to dst, without allocating for ASCII.
func appendLower(dst, b []byte) []byte {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return append(dst, bytes.ToLower(b)...)
		}
	}
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// nextRune decodes the first rune of b (utf8.RuneError, size 1, for an
// invalid byte; -1, size 0, for an empty b), with a fast path for ASCII.
func nextRune(b []byte) (rune, int) {
	if len(b) == 0 {
		return -1, 0
	}
	if b[0] < utf8.RuneSelf {
		return rune(b[0]), 1
	}
	return utf8.DecodeRune(b)
}

// asciiWord[c] reports whether the ASCII character c is a letter, a digit
// or an underscore.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
	}
	return t
}()

func isWordRune(r rune) bool {
	if 0 <= r && r < utf8.RuneSelf {
		return asciiWord[r]
	}
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
