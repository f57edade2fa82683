package softpen

import (
	"strconv"
	"strings"
)

// InputError is a problem with the input. It names the field and, where
// there is one, the index (row, or row and column); errors found while
// reading a file also carry the line and column (1-based; 0 when unknown).
// Its text is "[line L, column C: ]field[i][j]: message", or
// "field[i] = value: message" when Msg starts with "= ".
type InputError struct {
	Field        string
	Index        []int
	Msg          string
	Line, Column int
}

func (e *InputError) Error() string {
	var sb strings.Builder
	if e.Line > 0 {
		sb.WriteString("line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": ")
	}
	sb.WriteString(e.Field)
	for _, i := range e.Index {
		sb.WriteString("[" + strconv.Itoa(i) + "]")
	}
	if e.Msg != "" {
		switch {
		case e.Field == "":
		case strings.HasPrefix(e.Msg, "= "):
			sb.WriteByte(' ')
		default:
			sb.WriteString(": ")
		}
		sb.WriteString(e.Msg)
	}
	return sb.String()
}

func inputErr(field string, idx []int, msg string) *InputError {
	return &InputError{Field: field, Index: idx, Msg: msg}
}

// fmtG formats v in the shortest form that reads back exactly.
func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
