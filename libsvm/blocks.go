package libsvm

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"slices"
)

// The input is read in blocks of whole lines, and the blocks are parsed on
// GOMAXPROCS goroutines, each into a reader of its own, then appended to
// the file's reader in the order of the blocks: the result, and the first
// error in the order of the file, are those of reading line by line.

// blockSize is the bytes read for a block (more when its last line is
// longer): parsing it takes about a millisecond, against microseconds to
// hand it to a goroutine, and the blocks in flight (GOMAXPROCS + 2 at
// most) take a few MB. With 1 MB blocks softpen fit's peak memory on a
// 71 MB file was 67 MB instead of 58.
const blockSize = 1 << 18

// maxLine is the most bytes a line may take, its newline included (a
// longer line is an error, as it was for the line scanner this reader
// replaced).
const maxLine = 64 << 20

// block is a run of whole lines, the first of them line first of the
// input, and what parsing it gave.
type block struct {
	buf   []byte
	first int
	lines int // the lines it holds
	rd    reader
	err   error
	done  chan struct{}
}

// blockReader cuts an input into blocks.
type blockReader struct {
	r     io.Reader
	size  int    // the bytes a block is read to (more for its last line)
	line  int    // lines read so far
	carry []byte // the start of a line, read after the last block's end
	err   error  // the input's error (io.EOF at its end)
}

// scanBlocks reads every line of r into rd in blocks of size bytes or
// more (blockSize but in tests) and returns the number of the last line.
func (rd *reader) scanBlocks(r io.Reader, size int) (int, error) {
	workers := runtime.GOMAXPROCS(0)
	// Blocks in flight, oldest first: enough to keep the workers busy
	// while the oldest is appended, few enough to bound the memory (each
	// holds its text and its entries). free holds the blocks to reuse.
	inFlight := make(chan *block, workers+1)
	free := make(chan *block, workers+2)
	todo := make(chan *block, workers+1)
	for w := 0; w < workers; w++ {
		go func() {
			for b := range todo {
				b.parse()
				close(b.done)
			}
		}()
	}
	defer close(todo)
	// take appends the oldest block in flight to rd, or returns its error.
	take := func() error {
		b := <-inFlight
		<-b.done
		if b.err != nil {
			return b.err
		}
		rd.append(&b.rd)
		free <- b
		return nil
	}
	br := &blockReader{r: r, size: size}
	for {
		var b *block
		select {
		case b = <-free:
		default:
			b = &block{}
		}
		if !br.next(b) {
			break
		}
		b.reset(rd)
		b.err, b.done = nil, make(chan struct{})
		if len(inFlight) == cap(inFlight) {
			if err := take(); err != nil {
				return 0, err
			}
		}
		inFlight <- b
		todo <- b
	}
	for len(inFlight) > 0 {
		if err := take(); err != nil {
			return 0, err
		}
	}
	if br.err != io.EOF {
		return 0, &Error{Line: br.line + 1, Msg: br.err.Error()}
	}
	return br.line, nil
}

// next reads the next block into b: what was carried over, then the
// input until the block holds size bytes and a newline, or the input
// ends. It cuts the block after its last newline and carries the rest
// (at the end of the input, the last line need not end in a newline). It
// reports false when the block is empty: the input has ended, or its next
// line is longer than maxLine.
func (br *blockReader) next(b *block) bool {
	b.buf = append(b.buf[:0], br.carry...)
	newline := false // the carried bytes hold none: they start a line
	for br.err == nil && !(newline && len(b.buf) >= br.size) {
		if !newline && len(b.buf) > maxLine {
			br.err = bufio.ErrTooLong
			break
		}
		b.buf = growTail(b.buf, br.size)
		k, err := br.r.Read(b.buf[len(b.buf):cap(b.buf)])
		newline = newline || bytes.IndexByte(b.buf[len(b.buf):len(b.buf)+k], '\n') >= 0
		b.buf = b.buf[:len(b.buf)+k]
		br.err = err
	}
	// Only the first line can be long: the block grows past size only
	// while it has no newline.
	if first := bytes.IndexByte(b.buf, '\n'); first >= maxLine || (first < 0 && len(b.buf) > maxLine) {
		br.err = bufio.ErrTooLong
	}
	cut := bytes.LastIndexByte(b.buf, '\n') + 1
	switch {
	case br.err == bufio.ErrTooLong:
		cut = 0 // the lines before the long one were the last block's
	case br.err != nil:
		cut = len(b.buf)
	}
	br.carry = append(br.carry[:0], b.buf[cut:]...)
	b.buf = b.buf[:cut]
	b.first = br.line + 1
	b.lines = bytes.Count(b.buf, []byte{'\n'})
	if n := len(b.buf); n > 0 && b.buf[n-1] != '\n' {
		b.lines++
	}
	br.line += b.lines
	return len(b.buf) > 0
}

// growTail makes room for at least n more bytes after len(b).
func growTail(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), len(b)+len(b)/2+n)
	copy(nb, b)
	return nb
}

// reset readies the block's reader for its text, for the file's reader
// rd: its slices, kept from the block's last use, are grown once to what
// the text can hold (an entry a colon, an example a line), so parsing
// leaves no garbage behind.
func (b *block) reset(rd *reader) {
	entries := bytes.Count(b.buf, []byte{':'})
	b.rd = reader{nFeatures: rd.nFeatures, targets: rd.targets,
		idxs: slices.Grow(b.rd.idxs[:0], entries), vals: slices.Grow(b.rd.vals[:0], entries),
		labels: slices.Grow(b.rd.labels[:0], b.lines), ptr: slices.Grow(append(b.rd.ptr[:0], 0), b.lines),
		lines: slices.Grow(b.rd.lines[:0], b.lines)}
}

// parse reads the block's lines into its reader.
func (b *block) parse() {
	text, line := b.buf, b.first
	for len(text) > 0 {
		end := bytes.IndexByte(text, '\n')
		if end < 0 {
			end = len(text)
		}
		if err := b.rd.readLine(bytes.TrimSuffix(text[:end], []byte{'\r'}), line); err != nil {
			b.err = err
			return
		}
		line++
		text = text[min(end+1, len(text)):]
	}
}

// append appends the examples of the reader o (a later part of the
// input) to rd.
func (rd *reader) append(o *reader) {
	off := len(rd.idxs)
	rd.idxs = append(rd.idxs, o.idxs...)
	rd.vals = append(rd.vals, o.vals...)
	for _, end := range o.ptr[1:] {
		rd.ptr = append(rd.ptr, end+off)
	}
	rd.labels = append(rd.labels, o.labels...)
	rd.lines = append(rd.lines, o.lines...)
	rd.maxIdx = max(rd.maxIdx, o.maxIdx)
}
