package fuzz

// byteSource turns fuzz input into small numbers: each byte is a value in
// [-2, 2] in steps of 1/32, and the input ends in zeros.
type byteSource struct {
	data []byte
	pos  int
}

func (b *byteSource) next() float64 {
	v := 0.0
	if b.pos < len(b.data) {
		v = float64(int(b.data[b.pos])-128) / 32
	}
	b.pos++
	return v
}
