//go:build daqp

package peers

// A driver of DAQP (github.com/darnstrom/daqp, a dual active-set QP solver
// in C) through its public C interface: daqp_quadprog for a cold solve,
// and for a sequence of QPs that differ in f and the bounds a workspace
// made by setup_daqp, updated by daqp_update_ldp (declared in utils.h; the
// update DAQP's C documentation shows) and solved by daqp_solve, which
// starts from the last working set. DAQP's headers and library come from
// CGO_CFLAGS and CGO_LDFLAGS (README.md). DAQP keeps pointers to the
// problem's arrays in its workspace, so every array it sees lives in C
// memory, allocated here and freed by Free.

/*
#include <stdlib.h>
#include "api.h"
#include "utils.h"

// peer_daqp is one QP in DAQP's form, its result and a workspace.
typedef struct {
	DAQPProblem qp;
	DAQPResult res;
	DAQPWorkspace work;
	int ready; // work is set up
} peer_daqp;

static peer_daqp* peer_daqp_new(int n, int m, int ms) {
	peer_daqp* d = calloc(1, sizeof(peer_daqp));
	int rows = m - ms;
	d->qp.n = n;
	d->qp.m = m;
	d->qp.ms = ms;
	d->qp.H = calloc((size_t)n * n, sizeof(double));
	d->qp.f = calloc(n, sizeof(double));
	d->qp.A = calloc(rows > 0 ? (size_t)rows * n : 1, sizeof(double));
	d->qp.bupper = calloc(m > 0 ? m : 1, sizeof(double));
	d->qp.blower = calloc(m > 0 ? m : 1, sizeof(double));
	d->qp.sense = calloc(m > 0 ? m : 1, sizeof(int));
	d->res.x = calloc(n, sizeof(double));
	d->res.lam = calloc(m > 0 ? m : 1, sizeof(double));
	return d;
}

static void peer_daqp_free_work(peer_daqp* d) {
	if (d->ready) {
		free_daqp_workspace(&d->work);
		free_daqp_ldp(&d->work);
		d->ready = 0;
	}
}

static void peer_daqp_free(peer_daqp* d) {
	peer_daqp_free_work(d);
	free(d->qp.H);
	free(d->qp.f);
	free(d->qp.A);
	free(d->qp.bupper);
	free(d->qp.blower);
	free(d->qp.sense);
	free(d->res.x);
	free(d->res.lam);
	free(d);
}

// peer_daqp_cold is DAQP's one-call solve: set-up, solve and free.
static int peer_daqp_cold(peer_daqp* d) {
	daqp_quadprog(&d->res, &d->qp, NULL);
	return d->res.exitflag;
}

// peer_daqp_setup makes the workspace of peer_daqp_resolve.
static int peer_daqp_setup(peer_daqp* d) {
	peer_daqp_free_work(d);
	int flag = setup_daqp(&d->qp, &d->work, NULL);
	if (flag >= 0) {
		d->ready = 1;
	}
	return flag;
}

// peer_daqp_resolve takes in the problem's current f and bounds (the
// workspace's factorisation of H and A stays) and solves from the last
// working set.
static int peer_daqp_resolve(peer_daqp* d) {
	int flag = daqp_update_ldp(DAQP_UPDATE_v | DAQP_UPDATE_d, &d->work, &d->qp);
	if (flag < 0) {
		return flag;
	}
	daqp_solve(&d->res, &d->work);
	return d->res.exitflag;
}

// peer_daqp_solve is daqp_solve alone, on the workspace of
// peer_daqp_setup.
static int peer_daqp_solve(peer_daqp* d) {
	daqp_solve(&d->res, &d->work);
	return d->res.exitflag;
}
*/
import "C"

import (
	"fmt"
	"slices"
	"unsafe"
)

// daqpInf is DAQP_INF, the magnitude DAQP reads as no bound.
const daqpInf = 1e30

// DAQP is one QP in DAQP's form,
//
//	minimize   1/2 x'Hx + f'x
//	subject to lower <= x <= upper   (simple bounds on every variable, or none)
//	           a_j'x <= b_j          (rows)
//	           aeq_i'x = beq_i       (equalities: rows whose sense is active and immutable),
//
// held in C memory, with its result and the workspace of Resolve. It must
// be freed by Free.
type DAQP struct {
	d         *C.peer_daqp
	n, m, ms  int
	f, bupper []float64 // views of the C arrays
}

// NewDAQP copies the QP into C memory. lower and upper are both nil (no
// simple bounds) or of length n (±Inf for none); a has the rows, b their
// right-hand sides.
func NewDAQP(h [][]float64, f, lower, upper []float64, a [][]float64, b []float64) *DAQP {
	return NewDAQPEq(h, f, lower, upper, a, b, nil, nil)
}

// NewDAQPEq is NewDAQP with equalities aeq_i'x = beq_i, given to DAQP as
// rows after those of a with equal bounds and the sense DAQP_ACTIVE |
// DAQP_IMMUTABLE (api.h), as its own interfaces pass equalities.
func NewDAQPEq(h [][]float64, f, lower, upper []float64, a [][]float64, b []float64, aeq [][]float64, beq []float64) *DAQP {
	rows := append(slices.Clip(a), aeq...)
	n, ms := len(h), len(lower)
	m := ms + len(rows)
	d := &DAQP{d: C.peer_daqp_new(C.int(n), C.int(m), C.int(ms)), n: n, m: m, ms: ms}
	hc := view(d.d.qp.H, n*n)
	for i, r := range h {
		copy(hc[i*n:(i+1)*n], r)
	}
	d.f = view(d.d.qp.f, n)
	copy(d.f, f)
	ac := view(d.d.qp.A, len(rows)*n)
	for j, r := range rows {
		copy(ac[j*n:(j+1)*n], r)
	}
	d.bupper = view(d.d.qp.bupper, m)
	bl := view(d.d.qp.blower, m)
	for i := range ms {
		d.bupper[i], bl[i] = bound(upper[i]), bound(lower[i])
	}
	for j := range a {
		d.bupper[ms+j], bl[ms+j] = bound(b[j]), -daqpInf
	}
	if len(aeq) > 0 {
		sense := unsafe.Slice((*C.int)(unsafe.Pointer(d.d.qp.sense)), m)
		for i, v := range beq {
			k := ms + len(a) + i
			d.bupper[k], bl[k] = v, v
			sense[k] = C.DAQP_ACTIVE | C.DAQP_IMMUTABLE
		}
	}
	return d
}

// bound maps an infinite bound to DAQP's.
func bound(v float64) float64 { return max(-daqpInf, min(daqpInf, v)) }

func view(p *C.double, n int) []float64 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float64)(unsafe.Pointer(p)), n)
}

// Free releases the C memory (the workspace too).
func (d *DAQP) Free() { C.peer_daqp_free(d.d) }

// Cold solves the QP from scratch with daqp_quadprog (set-up, solve and
// the workspace freed, in one call).
func (d *DAQP) Cold() error { return d.status(C.peer_daqp_cold(d.d)) }

// Setup makes the workspace of Resolve (setup_daqp: H factored, the rows
// transformed and normalised).
func (d *DAQP) Setup() error {
	if flag := C.peer_daqp_setup(d.d); flag < 0 {
		return fmt.Errorf("daqp: setup_daqp exit flag %d", int(flag))
	}
	return nil
}

// Solve is daqp_solve alone on the workspace of Setup: after Setup, a
// cold solve (the working set holds the equalities only).
func (d *DAQP) Solve() error { return d.status(C.peer_daqp_solve(d.d)) }

// Resolve solves the QP with f and the rows' right-hand sides b replaced
// (the simple bounds kept), on the workspace of Setup, from its last
// working set.
func (d *DAQP) Resolve(f, b []float64) error {
	copy(d.f, f)
	for j, v := range b {
		d.bupper[d.ms+j] = bound(v)
	}
	return d.status(C.peer_daqp_resolve(d.d))
}

// status is nil for DAQP's optimal exit flags (1, and 2: soft optimal).
func (d *DAQP) status(flag C.int) error {
	if flag == 1 || flag == 2 {
		return nil
	}
	return fmt.Errorf("daqp: exit flag %d", int(flag))
}

// X is the last solve's x (a view of C memory, valid until the next
// solve or Free).
func (d *DAQP) X() []float64 { return view(d.d.res.x, d.n) }

// Iterations is the last solve's iteration count.
func (d *DAQP) Iterations() int { return int(d.d.res.iter) }
