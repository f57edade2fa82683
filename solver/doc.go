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
//     exact for quadratic objectives and a gradient-mapping lower bound
//     otherwise, with a rounding allowance; ||x - x*|| <= sqrt(2 gap/mu)
//     when xi >= ||lambda*||_inf;
//   - polishing (quadratic objectives without l1 or box): primal-dual
//     active-set rounds on the KKT system, or dual coordinate ascent when
//     the active set is degenerate; kept only if its certificate is better;
//   - screening (gap-safe by default) with a final check of dropped rows.
//
// A Solver owns all of its memory: New allocates, Solve does not. Results
// are reproducible bit for bit for a given Options.Seed on a given kernel
// path.
package solver
