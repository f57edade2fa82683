#!/usr/bin/env python3
"""Time Debian's python3-cvxopt on the problems softpen's README compares against.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 scripts/cvxopt_compare.py \
        testdata/qp/paper-qp-100-s1.json testdata/svm/mushrooms.libsvm

A .json argument is a softpen problem file (FORMATS.md: squared loss or none, P, q, ridge,
A, b; no Aeq or bounds); a .libsvm argument is the hard-margin SVM min 1/2||x||^2 s.t.
y_i a_i'x >= 1 on the unscaled features, labels +1 / anything else. Prints the median
time of REPS (default 5) solvers.qp calls (the call only, not the set-up), the iteration
count, and the relative error against the reference next to the file (.ref.json for QPs,
mushrooms.ref.json for mushrooms.libsvm) when there is one. Not part of the Go build or
the tests; apt-get install python3-cvxopt python3-numpy.
"""
import json, os, sys, time

import numpy as np
from cvxopt import matrix, solvers

solvers.options['show_progress'] = False
# Tight tolerances (defaults 1e-7 stop the paper QP at rel. error 1e-4; softpen's answers
# are polished to machine precision).
for k in ('abstol', 'reltol', 'feastol'):
    solvers.options[k] = 1e-10


def qp_from_json(path):
    p = json.load(open(path))
    n = p['n']
    P, q = np.zeros((n, n)), np.zeros(n)
    if p.get('phi'):
        phi, y = np.array(p['phi']), np.array(p['y'])
        P += phi.T @ phi / len(y)
        q -= phi.T @ y / len(y)
    if p.get('P'):
        P += np.array(p['P'])
    if p.get('q'):
        q += np.array(p['q'])
    P += p.get('ridge', 0) * np.eye(n)
    return P, q, np.array(p['A']), np.array(p['b']), path[:-5] + '.ref.json'


def svm_from_libsvm(path):
    rows, labels, n = [], [], 0
    for line in open(path):
        parts = line.split('#')[0].split()
        if not parts:
            continue
        labels.append(1.0 if float(parts[0]) == 1 else -1.0)
        r = {int(t.split(':')[0]): float(t.split(':')[1]) for t in parts[1:]}
        n = max([n] + list(r))
        rows.append(r)
    A = np.zeros((len(rows), n))
    for i, r in enumerate(rows):
        for j, v in r.items():
            A[i, j - 1] = v
    y = np.array(labels)
    return np.eye(n), np.zeros(n), -(y[:, None] * A), -np.ones(len(y)), path[:-7] + '.ref.json'


for path in sys.argv[1:]:
    P, q, G, h, ref = (qp_from_json if path.endswith('.json') else svm_from_libsvm)(path)
    args = (matrix(P), matrix(q), matrix(G), matrix(h))
    times = []
    for _ in range(int(os.environ.get('REPS', '5'))):
        t = time.perf_counter()
        sol = solvers.qp(*args)
        times.append(time.perf_counter() - t)
    x = np.array(sol['x']).ravel()
    err = ''
    if os.path.exists(ref):
        xr = np.array(json.load(open(ref))['x'])
        err = ', rel. error %.2e' % (np.linalg.norm(x - xr) / np.linalg.norm(xr))
    print('%s: %s, %d iterations, median %.4f s (min %.4f)%s' % (
        os.path.basename(path), sol['status'], sol['iterations'],
        sorted(times)[len(times) // 2], min(times), err))
