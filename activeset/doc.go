// Package activeset is an exact dual active-set method for strongly convex
// quadratic programs
//
//	minimize   1/2 x'Hx + c'x + l1 ||x||_1
//	subject to a_j'x <= b_j (rows),  e_k'x = f_k (equalities),  lo <= x <= up,
//
// in the Goldfarb-Idnani family (the dual method of quadprog and DAQP).
//
// # The method
//
// With H = L L' (Cholesky) and v = L'x the objective is 1/2 ||v - v_u||^2
// up to a constant, v_u = -L^{-1} c, and every constraint becomes
// n_k'v <= beta_k with n_k = L^{-1} a_k. For a working set W of
// constraints held at equality, the primal point is
// v(lambda) = v_u - sum_{k in W} lambda_k n_k, and the multipliers solve
// G_W lambda = -d_W with the Gram matrix G_W = N_W'N_W and
// d_k = beta_k - n_k'v_u, the slack of constraint k at the unconstrained
// minimiser. The loop (dual.go) keeps lambda >= 0 on inequalities (dual
// feasibility) and raises the dual objective at every step:
//
//   - if the solution lambda* of the working set's system is dual feasible,
//     it is taken; the most violated constraint outside W enters W, or, if
//     none is violated, the point is optimal;
//   - otherwise lambda moves towards lambda* until an inequality multiplier
//     reaches zero, and that constraint leaves W;
//   - a constraint whose normal depends on W's normals makes G singular:
//     lambda then moves along the null direction (nullstep.go; the primal
//     point does not move, the dual objective rises at the rate of the
//     violation) until a multiplier in W reaches zero; if none can, no x
//     satisfies the constraints, and the direction is a Farkas certificate. It
//     is taken only after the factor is rebuilt (if downdated) and the
//     direction refined, and it is checked in the caller's data before it is
//     answered (farkas.go, farkasHolds); a direction that fails ends the solve
//     with StatusPrecisionLimit, never with a wrong answer;
//   - a solve that cannot settle (multipliers past 1e12 that are not a
//     certificate, or the bound on working-set changes) looks for two rows of
//     opposite directions whose right-hand sides contradict (opposite.go): the
//     loop admits the most violated row, and the pair's fixed violation can
//     stay below the others' until x has lost the digits to see it. Their
//     certificate is exact, and checked like any other.
//
// G_W is kept as an LDL' factor (ldl.go), updated when a constraint enters
// (one forward solve) and downdated when one leaves (a rank-one update of the
// trailing block); it is rebuilt from the stored normals only when the
// members drift from equality (past driftTol, or 1000 times their residual
// on the factor as last built: dual.go, driftTol). Normals are scaled to
// unit length, so G has a unit diagonal and its pivots measure how far each
// new normal is from the span of the others.
//
// Simple bounds are not stored as rows: their normals are columns of L^{-1}
// (mat.Cholesky.UnitColumn), computed when a bound enters W, and their slacks
// are read off x. On small problems ((m + n) n <= 2^16) the normal of each
// row and bound is kept from its first admission on (workingset.go,
// transformedNormals), so that the re-solves of a Solver after SetB or SetC
// admit it again at the cost of a copy. Every normal of W is kept with its support (normals.go) and
// every product with it runs over the support only: a bound's normal is zero
// above its index and, for a diagonal H (which New neither copies nor factors
// densely, hfactor.go), a single entry; a row with few nonzeros (sparse.go)
// has a normal as sparse as itself for a diagonal H. The Gram factor's rows
// start at their first nonzero, which for such orthogonal normals skips most
// of it. A variable with lo = up is an equality. Equalities are in W from the
// start and never leave it. Whether a new member depends on the others is
// decided by its distance from their span, computed directly, never by its
// pivot alone (nullstep.go, dependent): two equalities 1e-8 apart have a
// pivot of 1e-17 and are independent, and an answer that leaves either out
// is off by O(1). A dependent equality is dropped when it is implied (its
// right-hand side agrees with the others' to rounding), proves
// infeasibility when its direction passes farkasHolds, and is otherwise
// dropped undecided: the answer must satisfy it to rounding (Feasible) or
// the solve ends StatusPrecisionLimit.
//
// Behind a member held as independent with a pivot below basisPivot (a
// distance of 1e-5 from the others' span) the Gram factor forms every later
// row with its error amplified by the inverse of that distance; from there
// on the working set keeps a QR factor of its normals (basis.go), each
// member orthogonalised twice against the others, and sets the Gram
// factor from it (G = R'R), so that its pivots are distances to a few eps
// and its null directions are null. It is dropped at Reset.
//
// # Many rows
//
// Finding the most violated row is a pass over every row, which on many rows
// costs more than the rest of a working-set change. The rows most likely to be
// violated (the pool, about 4 sqrt(m) of them) are scanned first (pricing.go),
// after the last scan's most violated rows (shortlist.go), all rows only when
// none of the pool is violated; a scan skips a row whose stored violation plus
// how far x can have moved it since (drift.go: the smaller of the path length
// and the distance through anchors set at full scans) is below the threshold,
// and computes the others four rows per vec.Dot4. HotStartAt stores every
// row's violation at a guess of the answer (hotstart.go; softpen's solver
// passes the answer on a sample of the rows), so that the solve's first scans
// skip most rows; NewAt does the same within New's pass over the rows, one
// pass fewer. With Options.Threads the passes over every row run on a team
// of goroutines (team.go): a scan of every row in spans fixed by A's shape
// (each span from the scan's threshold, the spans' findings combined in
// span order, the shortlist kept whatever the order of its offers), the
// pool's rebuild in chunks joined in row order, so that the answer is the
// same bit for bit on any number of goroutines.
//
// # The l1 term
//
// l1 |x_i| = max over |w_i| <= l1 of w_i x_i, so the l1 term adds, per
// variable, a "kink" constraint x_i = 0 whose multiplier w_i is boxed in
// [-l1, l1] instead of signed. H stays as it is (no split x = u - v, which
// would make the Hessian singular). A kink is either in the working set
// (x_i held at 0, w_i free in its box) or capped at w_i = +-l1, where it
// adds +-l1 to the linear term and asks x_i to have its sign; a capped kink
// whose x_i has the wrong sign is admitted like a violated row, and a
// member whose w_i reaches +-l1 leaves capped there (workingset.go, leave;
// dual.go, multiplierRange). This is the dual active-set method on a dual
// with box constraints, and keeps its monotone dual objective.
//
// # Answers
//
// The answer is refined by Newton steps on the KKT system of the final W in
// the original variables (refine.go), which removes the error the
// transformation by L adds when H is ill-conditioned. The steps go through
// the Gram factor, whose error grows with the square of the normals'
// condition; when they stall above their floor (nearly dependent members,
// unit-row multipliers of 1e9) the members with a zero multiplier leave W
// and the steps go through a QR factorisation of the normals instead
// (orthorefine.go), whose primal part is accurate to cond(N) eps; a member
// whose multiplier comes out of such a step with the wrong sign (the Gram
// factor had it wrong) leaves too. The answer is then certified
// (certificate.go): the duality gap F(x) - g(lambda) from the dual function
// at the returned multipliers, the largest primal violation, the largest
// complementarity product and the stationarity residual, all computed from
// the caller's data.
//
// StatusSolved claims a Feasible x: every row and equality satisfied to
// rounding (WithinRounding). With nearly dependent members (a pivot below
// compensatePivot) x is refined from compensated residuals through a QR
// factor of the normals until the steps converge (compensated.go); an x
// that violates members through the origin beyond its own rounding (x* = 0
// computed as 1e-32) takes the component they fix from their own
// equations (memberAnswer).
// A row the loop's threshold let pass that is violated beyond rounding is
// admitted and the loop goes on; so is one violated only in exact
// arithmetic whose normal is nearly in the members' span, since its
// violation is x's error along their near-null direction times its gap
// and can hide an x off by O(1) (dual.go, SolveFrom). A row in their span
// to rounding and violated beyond their residuals combined, and an answer
// that stays not Feasible, end the solve StatusPrecisionLimit.
//
// # Guarantees
//
// New and NewAt allocate everything a solve needs; Solve, SolveFrom, SetB,
// Reset, SetObjective, HotStart and HotStartAt allocate nothing, except that
// an infeasible answer allocates the workspace of its certificate's final
// least-squares polish, as does every check of multipliers beyond 1e12 (unit
// rows) as a certificate (farkas.go, rayCertificate), the first such check or
// bound on working-set changes of a Solver builds its index of opposite rows
// (O(m n), opposite.go), the first refinement of a Solver through QR
// allocates its workspace (k n for k members, grown when a later one has
// more), the first compensated refinement its own (n + 2k), and the first
// nearly dependent member the QR factor of the working set ((n+1)(2n+1)
// floats, basis.go); and a row whose normal lies in the members' span to
// rounding is tested in exact rational arithmetic, which allocates its
// sums (impliedExactly, farkasexact.go). Results are deterministic bit for bit on a given kernel path. Ties
// (equal violations, equal step ratios) go to the lowest index.
//
// A solve ends after Options.MaxSteps working-set changes at the latest,
// with StatusMaxSteps (without MaxSteps, or with a larger one, after its
// safety bound of 50 (n + m + meq) + 100 changes, with
// StatusPrecisionLimit), and when its context is canceled
// (StatusCanceled) or its deadline or Options.TimeLimit passes
// (StatusTimeLimit), each with the certificate of the point it
// stopped at (or StatusInfeasible, if two opposite rows contradict each
// other). The clock and the context are looked at every 16 changes
// (budget.go).
//
// # Files
//
//	doc.go          this overview
//	problem.go      Problem, its validation, InputError
//	options.go      Options
//	result.go       Result and Status
//	solver.go       the Solver type, New and its one allocation
//	budget.go       what ends a solve early: steps, time limit, context
//	dual.go         the dual loop: Solve, iterate, the step towards lambda*
//	nullstep.go     a dependent member: its null direction and null step
//	workingset.go   membership: SetB, SetBounds, Reset, push and pop, admit and leave
//	hotstart.go     HotStart, HotStartAt, NewAt: a working set from a guess
//	objective.go    SetObjective: a new H and c for the same constraints
//	constraint.go   the kinds of constraint a working set holds
//	pricing.go      the search for the most violated row: the scans, in spans
//	pool.go         the pool: the rows scanned first, rebuilt after full scans
//	team.go         the goroutines of the passes over every row (Options.Threads)
//	shortlist.go    the last scan's most violated rows, searched first
//	drift.go        bounds on how far the rows' violations have moved
//	sparse.go       rows with few nonzeros, held as lists
//	normals.go      the members' normals in v = L'x, with their supports
//	hfactor.go      H = L L', dense or diagonal
//	ldl.go          the LDL' factor of the members' Gram matrix, refactor
//	basis.go        the QR factor kept while a member is nearly dependent
//	refine.go       Newton steps on the final working set's KKT system
//	orthorefine.go  the same steps through a QR factor of the normals
//	compensated.go  the same steps from residuals in twice the precision; Polish;
//	                x on the members' affine set from their own equations
//	certificate.go  the optimality certificate: gap, violations, WithinRounding
//	penaltyweight.go the exact penalty's weight raised to the multipliers that rows
//	                violated within rounding would take (a small nonnegative least squares)
//	farkas.go       the Farkas certificate of infeasibility, and ray certificates
//	opposite.go     two opposite rows that contradict each other
package activeset
