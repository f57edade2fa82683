// Package solver is the nested softplus-penalty method (Algorithm 1 of Li,
// Grigas and Atamtürk) and everything that knows about iterations:
//
//   - stages: F_{xi,delta}(x) = F(x) + xi sum_j p_delta(a_j'x - b_j) is
//     minimised for delta_0 > delta_1 > ... (delta_{t+1} = delta_t/eta), each
//     stage warm-started from the last and stopped on its gradient mapping
//     (Lemma 3.1-3.2, or the practical target mu*delta/4);
//   - inner methods: accelerated proximal gradient (default), proximal SVRG,
//     catalyst-SVRG, SGD and SGD with momentum, over the finite sum of l loss
//     rows and m constraint rows;
//   - xi adaptation: multipliers saturating at xi with a violation that does
//     not shrink mean xi < ||lambda*||_inf; xi is raised by 4 and the stage
//     repeated; past xi = 100 a phase one (semismooth Newton on the squared
//     violation, feasibility.go) decides whether any x satisfies the rows
//     and the box, and returns a checked Farkas certificate if none does;
//   - certificates: multipliers lambda = xi sigmoid(r/delta) (4.3) and a
//     certified duality gap F_{xi,0}(x) - G(lambda) at every stage end, G
//     exact for quadratic objectives and a subgradient lower bound
//     otherwise, with a rounding allowance; ||x - x*|| <= sqrt(2 gap/mu)
//     when x is feasible to rounding (with xi >= ||lambda*||_inf it would
//     hold for any x, but nothing certifies that);
//   - the exact finish (quadratic objectives, box and l1 included): once a
//     stage's certificate shows the active set roughly, its working set is
//     the hot start of the dual active-set method (package activeset),
//     which checks every row and answers exactly, certified as the direct
//     path's answers are;
//   - screening (gap-safe by default) with a final check of dropped rows.
//
// A Solver owns all of its memory: New allocates, Solve does not. Results
// are reproducible bit for bit for a given Options.Seed on a given kernel
// path.
//
// Files, one concept each:
//
//	api.go          Problem, Options (and their check), Result, Status
//	defaults.go     every default and tuning constant, with its reason
//	solver.go       the Solver, New, the workspace
//	model.go        the objective's data, the quadratic model, mu and L
//	workingset.go   row storage (unit rows, rowCode), the working set, ||A||_2
//	solve.go        Solve: the stage loop and what follows each stage
//	schedule.go     delta_0, delta_{t+1} = delta_t/eta, stage targets (Lemma
//	                3.2), the paper's stage counts, lowering xi
//	oracle.go       gradients, F, the gradient mapping (Lemma 3.1), the prox
//	inner.go        the inner methods: APG, SVRG, catalyst-SVRG, SGD, SGDM
//	certificate.go  multipliers (4.3), the bounds' multipliers, the dual
//	                bound, the certified gap
//	screening.go    the screening rules at stage ends and at the answer
//	outside.go      bounds on the residuals of the rows outside the working
//	                set, so that a check need not read every row
//	handover.go     the exact finish: the working set handed to the
//	                active-set method (package activeset)
//	feasibility.go  phase one and the Farkas certificates of infeasibility
//	direct.go       the direct path: the exact active-set method (package
//	                activeset) for quadratic objectives, certified here
//	sample.go       the direct path's start from samples of many rows
//	newton.go       Newton steps (SQP) for the logistic loss, their QPs
//	                solved by the active-set method, certified here
//	sparse.go       sparse rows of Phi: the fitting model handed to package
//	                newtoncg (Newton-CG, no n x n matrix)
//	lazysvrg.go     SVRG and catalyst-SVRG on those rows, O(nnz(phi_i)) a
//	                step: the untouched coordinates caught up in closed form;
//	                rows of A by the softplus penalty and its schedule
//	lazyapg.go      APG in lazysvrg.go's solve: a full step an epoch, its
//	                gradient the certificate's passes
//	lazysgd.go      SGD in lazysvrg.go's solve: its steps without the
//	                control variate, averaged once a pass
//	lazysgdm.go     SGDM in lazysgd.go's passes, without l1 and bounds: an
//	                untouched coordinate's value and momentum caught up by
//	                binary powers of their 2x2 map
//	sparserows.go   sparse rows of A: a ridge objective with b < 0 (the SVM)
//	                handed to package dualcd
//	supportfarkas.go  dualcd's Farkas hook: among the rows whose
//	                multipliers lead, those of a certificate (a box QP on
//	                their Gram matrix), proven by the exact engine
//	supportfinish.go  dualcd's finisher: the dual on the support solved
//	                exactly (package boxqp)
//	update.go       SetB, SetQ and SetBounds: new data between solves, warm start kept
//	observe.go      the Options.Observe callback, and the Progress report of
//	                the direct path's answer
//	rng.go          the solver's own generator and the alias sampler
package solver
