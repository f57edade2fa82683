package activeset

// kind says what a constraint of the working set is.
type kind uint8

const (
	kindRow   kind = iota // a_i'x <= b_i, row i of A
	kindEq                // aeq_i'x = beq_i, row i of Aeq
	kindUpper             // x_i <= up_i
	kindLower             // x_i >= lo_i, stored as -x_i <= -lo_i
	kindFixed             // x_i = lo_i = up_i
	// kindKink holds x_i = 0, the kink of l1 |x_i|; its multiplier w_i
	// lies in [-l1, l1] (a subgradient of l1 |x_i| at 0).
	kindKink
)

// constraint names one constraint: its kind and the index of its row (for
// rows and equalities) or of its variable (for bounds).
type constraint struct {
	kind kind
	i    int32
}

// isEquality reports whether the constraint's multiplier is free in sign
// and the constraint never leaves the working set.
func (c constraint) isEquality() bool { return c.kind == kindEq || c.kind == kindFixed }

// isBound reports whether the constraint's normal is a unit vector e_i
// (a simple bound or an l1 kink).
func (c constraint) isBound() bool { return c.kind >= kindUpper }
