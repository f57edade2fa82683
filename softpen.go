// Package softpen solves strongly convex problems with many linear
// inequality constraints by the nested softplus-penalty method.
package softpen

import "github.com/softpen/softpen/solver"

// The option, result and status types are those of package solver.
type (
	Options    = solver.Options
	Result     = solver.Result
	Status     = solver.Status
	Stage      = solver.Stage
	Method     = solver.Method
	ScreenRule = solver.ScreenRule
)
