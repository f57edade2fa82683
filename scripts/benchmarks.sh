#!/usr/bin/env bash
# Regenerates BENCHMARKS.md: runs each section's benchmarks several times
# and writes one table per section (median and spread of the runs, headed by
# commit, date, CPU and the command), through scripts/benchtab.
#
#   bash scripts/benchmarks.sh            # every section but the sweeps (about 15 minutes)
#   bash scripts/benchmarks.sh -sweeps    # and the row sweeps (about 20 more)
#   bash scripts/benchmarks.sh -peers     # and the kernels beside OpenBLAS, SLEEF and gonum
#                                         # (cgo: apt-get install libopenblas-dev libsleef-dev)
#   bash scripts/benchmarks.sh -daqp      # and softpen beside DAQP (scripts/peers/README.md says
#                                         # how to build DAQP and set CGO_CFLAGS, CGO_LDFLAGS)
#   bash scripts/benchmarks.sh -liblinear # and softpen fit / svm beside liblinear-train, whole
#                                         # processes on sparse text data and the 1e6 x 1e6 Zipf set
#                                         # (apt-get install liblinear-tools time)
#   COUNT=3 bash scripts/benchmarks.sh    # fewer runs per benchmark (default 5)
#   bash scripts/benchmarks.sh -only 'RE' # only the sections whose title matches the regular
#                                         # expression RE are run; every other section of
#                                         # BENCHMARKS.md is kept as it is, headers and all
#
# Run it on a quiet machine: every figure in a table comes from one run of
# this script, so ratios within a table are fair; across tables and
# machines, read the headers.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
sweeps=false
peers=false
daqp=false
liblinear=false
only=""
while [ $# -gt 0 ]; do
  case $1 in
  -sweeps) sweeps=true ;;
  -peers) peers=true ;;
  -daqp) daqp=true ;;
  -liblinear) liblinear=true ;;
  -only)
    [ $# -ge 2 ] && [ -n "$2" ] || { echo "$0: -only needs a regular expression" >&2; exit 2; }
    only=$2
    # [[ =~ ]] returns 2 on a bad expression, which would keep every section.
    rc=0
    [[ x =~ $only ]] || rc=$?
    [ $rc -le 1 ] || { echo "$0: -only: bad regular expression: $only" >&2; exit 2; }
    shift
    # Every section is visited, to keep the ones not run in their place.
    sweeps=true peers=true daqp=true liblinear=true
    ;;
  *) echo "usage: $0 [-sweeps] [-peers] [-daqp] [-liblinear] [-only RE]" >&2; exit 2 ;;
  esac
  shift
done

commit=$(git rev-parse --short HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then commit="$commit (modified)"; fi
date=$(date -u +%Y-%m-%d)
out=$(mktemp)
tab=$(mktemp -d)/benchtab
go build -o "$tab" ./scripts/benchtab

# section TITLE NOTE PACKAGE BENCHTIME PATTERN...: runs go test -bench
# once per PATTERN in PACKAGE (a directory of its own module when it holds
# a go.mod) and appends one table of them all. (A pattern with sub-levels
# skips a benchmark that has none: each shape gets its own pattern.)
section() {
  local title=$1 note=$2 pkg=$3 bt=$4 dir=.
  shift 4
  if [ -n "$only" ] && ! [[ $title =~ $only ]]; then
    kept "$title" >>"$out"
    return
  fi
  if [ -f "$pkg/go.mod" ]; then dir=$pkg pkg=.; fi
  local cmd="" raw tags=${GOTAGS:+-tags $GOTAGS}
  raw=$(mktemp)
  for pat in "$@"; do
    [ -n "$cmd" ] && cmd+="; "
    cmd+="go test $tags -run '^\$' -bench '$pat' -benchtime $bt -count $count $pkg"
    (cd "$dir" && go test $tags -run '^$' -bench "$pat" -benchtime "$bt" -count "$count" "$pkg") >>"$raw"
  done
  [ "$dir" != . ] && cmd="(cd $dir && $cmd)"
  echo "== $title: $cmd" >&2
  "$tab" -title "$title" -note "$note" -cmd "$cmd" -commit "$commit" -date "$date" <"$raw" >>"$out"
  rm -f "$raw"
}

# pathpair TITLE NOTE PACKAGE BENCHTIME PATTERN...: where this CPU runs the
# avx512 path, builds PACKAGE's test binary once and runs it count times
# with GODEBUG=cpu.avx512f=off (the avx2 path) and count times without (the
# avx512 path), in turn, each time every PATTERN once, so that the two
# paths see the same machine; the names get /path=avx2 or /path=avx512.
# Elsewhere the section is kept as it is.
pathpair() {
  local title=$1 note=$2 pkg=$3 bt=$4
  shift 4
  if { [ -n "$only" ] && ! [[ $title =~ $only ]]; } ||
    ! go run ./cmd/softpen bench -kernels dot -n 16 -time 1ms -json | grep -q '"impl": "avx512"'; then
    kept "$title" >>"$out"
    return
  fi
  local bin raw cmd="" dir
  bin=$(mktemp) raw=$(mktemp) dir=$(go list -f '{{.Dir}}' "$pkg")
  go test -c -o "$bin" "$pkg"
  for _ in $(seq "$count"); do
    for mode in avx2 avx512; do
      for pat in "$@"; do
        if [ $mode = avx2 ]; then
          (cd "$dir" && GODEBUG=cpu.avx512f=off "$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$bt")
        else
          (cd "$dir" && "$bin" -test.run '^$' -test.bench "$pat" -test.benchtime "$bt")
        fi | sed -E "s/^(Benchmark[^[:space:]]*)-([0-9]+)([[:space:]])/\\1\\/path=$mode-\\2\\3/" >>"$raw"
      done
    done
  done
  for pat in "$@"; do
    [ -n "$cmd" ] && cmd+="; "
    cmd+="go test -run '^\$' -bench '$pat' -benchtime $bt $pkg"
  done
  cmd="count rounds of: GODEBUG=cpu.avx512f=off $cmd; then the same without GODEBUG"
  echo "== $title: $cmd" >&2
  "$tab" -title "$title" -note "$note" -cmd "$cmd" -commit "$commit" -date "$date" <"$raw" >>"$out"
  rm -f "$raw" "$bin"
}

# kept TITLE prints the section of BENCHMARKS.md with that title, from its
# heading to the next one (nothing if there is none): -only keeps it.
kept() {
  awk -v h="## $1" '$0 == h { p = 1; print; next } p && /^## / { exit } p' BENCHMARKS.md
}

cat >"$out" <<'EOF'
# Benchmarks

Generated by `scripts/benchmarks.sh` from `go test -bench` output; every table says which
commit, date, CPU and command made it. Times are wall times with the default Options.Threads
(GOMAXPROCS: the passes over many rows use every core). Cells are the
median of the runs with the lowest and highest in brackets; a metric without a range gave the
same value every run. The benchmarks' own doc comments (the `_test.go` files named in each
command) say what each one solves and what its metrics mean.
EOF
if [ -n "$only" ]; then
  # The kept tables are the old run's: so is the line on its machine.
  grep -m 1 '^The machine that made these tables has' BENCHMARKS.md >>"$out"
  echo >>"$out"
else
  printf 'The machine that made these tables has %s cores.\n\n' "$(nproc)" >>"$out"
fi

section "Paper QP (n = m = l = 100), exact active-set method" \
  "with-setup is NewSolver + Solve (forming H = Phi'Phi/l included); solve-only is Reset + Solve." \
  . 300x '^BenchmarkPaperQP$/.*/tol=1e-09$'
section "Paper QP, warm re-solve" \
  "SetB with each b_j moved by up to 1% or 10%, then Solve on the same Solver; median-ns and p99-ns are over the run's 3000 re-solves, iterations the mean working-set changes. QuietLoop times a chain of multiply-adds of the same length the same way: its p99-ns is the machine's floor under any single solve's." \
  . 3000x '^BenchmarkPaperQPWarm$' '^BenchmarkQuietLoop$'
section "Portfolio, warm re-solve" \
  "The 50-asset minimum-variance portfolio (sum x = 1, 0 <= x_i <= 0.1, most bounds active): SetQ with each q_i moved by up to 1% or 10%, then Solve on the same Solver; median-ns and p99-ns are over the run's 3000 re-solves." \
  . 3000x '^BenchmarkPortfolioWarm$'
section "Receding-horizon loops (MPC), warm" \
  "The MPC sequences of internal/testqp (200 steps each) on one Solver: SetQ and SetB per step, then Solve from the last working set; ns/step is the mean, median-ns and p99-ns are over single steps (update and solve), iterations the mean working-set changes." \
  . 5x '^BenchmarkMPCWarm$'
section "Many rows: the exact method with its sampled start" \
  "LargeQP: l = 2000, m = 1e5, n = 100; MushroomsSVM: the hard-margin SVM on 8,124 x 126; SeparableSVM: n = 50; every answer certified, set-up included." \
  . 5x '^BenchmarkLargeQP$' '^BenchmarkMushroomsSVM$/^auto$/tol=1e-06' '^BenchmarkSeparableSVM$/^m=(10000|100000)$'
section "Many rows on one goroutine and on two" \
  "LargeQPThreads: the large QP with Options.Threads 1 and 2 (the rows' norms in New and the pricing scans over all rows split in two)." \
  . 5x '^BenchmarkLargeQPThreads$'
section "A pass that only streams A, on one goroutine and on two" \
  "TeamStream: four rows to a vec.Dot4 over the large QP's 80 MB of rows and nothing else, on one goroutine and on the team of two: the ceiling of what Options.Threads gains on a pass over every row." \
  ./activeset 20x '^BenchmarkTeamStream$'
section "Many dense objective terms: constrained least squares" \
  "DenseLeastSquares: the large-QP family at l = 2e5 terms, n = 400, m = 2000 rows, solved exactly with Options.Threads 1 and 2; gram-share is the part of the time spent forming phi'phi/l." \
  . 3x '^BenchmarkDenseLeastSquares$'
section "Every method on three problems, to a certified 1e-6" \
  "The penalty methods with their exact finish against the default; solved is 1 when the answer was certified to the tolerance." \
  . 3x '^BenchmarkMethods$'
section "Tolerance below what float64 certifies" \
  "tol 1e-16 ends precision_limit with the exact answer; its time beside tol 1e-9's." \
  . 300x '^BenchmarkPaperQPTolerance$'
section "The active-set engine alone (H given)" \
  "PaperQPCold: New + Solve on the paper QPs; Families: the generated hard QPs of internal/qpgen." \
  ./activeset 20x '^BenchmarkPaperQPCold$' '^BenchmarkFamilies$'
section "Newton steps for the logistic loss" \
  "Constrained logistic regression to a certified 1e-9 (internal/solver's generated cases)." \
  ./internal/solver 3x '^BenchmarkNewton$'
section "Kernels" \
  "Every kernel path this CPU has (generic, avx2, avx512, neon) at n = 1000 and n = 1e6." \
  ./vec 200ms '^Benchmark(Dot|Axpy|Step|Softplus|Sigmoid|SoftplusSum)$/.*/n=(1000|1000000)$' '^BenchmarkDot4$/.*/Dot4/n=(1000|1000000)$'
pathpair "End to end: avx512 beside avx2, the paper QP" \
  "The same test binary run with GODEBUG=cpu.avx512f=off (path=avx2) and without (path=avx512), in turn: the paper QP cold (NewSolver + Solve) and warm (SetB + Solve, 10% moves), the portfolio warm (SetQ + Solve, 10% moves)." \
  . 3000x '^BenchmarkPaperQP$/with-setup/tol=1e-09$' '^BenchmarkPaperQPWarm$/10%' '^BenchmarkPortfolioWarm$/10%'
pathpair "End to end: avx512 beside avx2, the penalty methods" \
  "apg, svrg and the exact method on the paper QP and mushrooms to a certified 1e-6, run as the section above." \
  . 3x '^BenchmarkMethods$/^(paper-qp|mushrooms)$/^(activeset|apg|svrg)$'
pathpair "End to end: the engine alone, avx512 beside avx2" \
  "activeset: New + Solve on the paper QPs and on the generated hard QPs at n = 100, run as the section above." \
  ./activeset 20x '^BenchmarkPaperQPCold$' '^BenchmarkFamilies$/.*/n=100$'
section "Sparse rows" \
  "DotSparse (gather) and AxpySparse (scatter) on every path: nnz entries at sorted random indices of a dense vector of 1e5 or 1e6." \
  ./vec 200ms '^Benchmark(DotSparse|AxpySparse)$'
section "Sparse rows: one SVRG step as n grows" \
  "Proximal SVRG with lazy updates on 1e5 logistic Zipf rows of 20 nonzeros: ns/step is one step, epochs of 2l steps with their closing catch-up, for n = 1e3 to 1e6." \
  ./internal/solver 3x '^BenchmarkLazySVRGStep$'
section "Sparse rows: SVRG and Newton-CG" \
  "Logistic loss, ridge 1/l, on mushrooms and a wide synthetic set (4000 x 5000, 2% nonzeros), with and without bounds and l1, to a certified 1e-9 by newton-cg and by svrg (its epochs; Newton steps for newton-cg)." \
  . 1x '^BenchmarkSparseSVRG$'
section "Sparse rows: the penalty method with rows of A" \
  "Logistic loss, ridge 1/l, on mushrooms with 20 sparse Zipf rows A x <= b (15 active), to a certified 1e-4 and 1e-6: newton-cg's augmented Lagrangian (its Newton steps) beside svrg and catalyst-svrg with the rows as the softplus penalty (their epochs), and svrg without gap-safe screening (svrg-noscreen)." \
  . 1x '^BenchmarkSparseSVRGRows$'
section "Gram matrix A'A" \
  "mat.Gram, the blocked kernel (tiled; tiled-threads=2: GramRowsThreads on two goroutines, the same bits) beside Dot4 over A's columns (dot4); GFLOP/s counts l n (n+1) flops, the symmetric half." \
  ./mat 3x '^BenchmarkGram$'
section "Cholesky factor" \
  "mat.Cholesky.Factor (blocked above n = 256) beside the column-by-column factor (unblocked) of B'B + I; GFLOP/s counts n^3/3 flops." \
  ./mat 3x '^BenchmarkCholesky$'
if $peers; then
  # Debian's OpenBLAS (0.3.21) takes its Haswell kernels on Zen 5; on a CPU
  # with AVX-512 the peers run its AVX-512 (SkylakeX) kernels, the faster.
  ob="OpenBLAS"
  if grep -q avx512f /proc/cpuinfo; then
    export OPENBLAS_CORETYPE=SkylakeX
    ob="OpenBLAS (OPENBLAS_CORETYPE=SkylakeX: its AVX-512 kernels)"
  fi
  section "Gram beside OpenBLAS" \
    "scripts/peers: mat.Gram against $ob's dsyrk (lower triangle) and dgemm (A'A in full), one thread; GFLOP/s counts l n (n+1) flops for all three." \
    scripts/peers 3x '^BenchmarkGram$'
  section "Cholesky beside OpenBLAS" \
    "scripts/peers: mat.Cholesky.Factor on one goroutine and on two (threads2) against $ob's dpotrf on one thread, each copying the matrix first; GFLOP/s counts n^3/3 flops." \
    scripts/peers 3x '^BenchmarkCholesky$'
  section "Kernels beside their peers" \
    "scripts/peers: $ob's ddot and daxpy (one thread), a softplus and a sigmoid made of SLEEF's 1-ulp AVX2 and AVX-512 exp and log1p, gonum's assembly, beside softpen's avx2, avx512 and generic paths; the same inputs as vec's benchmarks." \
    scripts/peers 200ms '^Benchmark(Dot|Axpy|Softplus|Sigmoid)$/.*/n=(1000|1000000)$'
  unset OPENBLAS_CORETYPE
fi
if $daqp; then
  GOTAGS=daqp section "Beside DAQP: cold solves" \
    "Each QP solved from scratch: softpen NewSolver + Solve; softpen-load, Load + Solve in one Solver's storage (the QPs of an MPC family share P, whose factor Load keeps); DAQP's daqp_quadprog (v0.9.1, built -O3 -march=native); median-ns and p99-ns are of single solves, every answer checked against the other solver's." \
    scripts/peers 20x '^BenchmarkDAQPCold$'
  GOTAGS=daqp section "Beside DAQP: receding-horizon loops" \
    "The MPC sequences of internal/testqp step by step: softpen cold, softpen warm (one Solver, SetQ and SetB per step), DAQP warm (daqp_update_ldp, then daqp_solve)." \
    scripts/peers 3x '^BenchmarkDAQPMPCLoop$'
  GOTAGS=daqp section "Beside DAQP: the generated hard QPs, engine alone" \
    "The families of internal/qpgen at n = 100 (feasible QPs, seeds 1-3): the active-set engine alone (activeset.New + Solve, H given) beside daqp_quadprog; solve-ns is the solve call alone (after New; DAQP's daqp_solve after setup_daqp); flagged and disagree are the shares of DAQP's solves without an optimal exit flag, or with an x more than 1e-6 off the engine's (DAQP's default primal tolerance is 1e-6)." \
    scripts/peers 5x '^BenchmarkDAQPFamilies$'
fi
if $liblinear; then
  ZIPF=1 section "Sparse data beside LIBLINEAR (whole processes)" \
    "scripts/liblinear: softpen fit / svm and liblinear-train 2.3 as processes on one LIBSVM file, reading included; gotext is internal/sparsegen's TF-IDF set of Go's source tree (6492 x 94324 with Go 1.26, not separable), gotext-noisy the same without repeated documents and with 2% of the labels flipped (separable unless its rows are dependent), gofunc the same tree with a document per top-level function (63482 x 32139, 44 nonzeros a row, repeated documents under both labels), gofunc-distinct gofunc without repeated documents (not separable through conflicts of tens of rows), zipf 1e6 x 1e6 with 5e7 nonzeros. relobj_e-12 is (F(x) - F*)/max(1, F*) in units of 1e-12, F* from softpen fit at 1e-13; peak-MB from GNU time; certified is 1 when softpen svm answered solved or infeasible within its 20 s limit, relgap its relative gap otherwise." \
    ./scripts/liblinear 1x '^BenchmarkLogistic$' '^BenchmarkSVM$'
fi
if $sweeps; then
  section "Rows sweep: the exact method and the penalty method as m grows" \
    "m = 1e6 / 2^(k/2), four instances a size; ns/solve is their mean." \
    . 1x '^BenchmarkHandoverSweep$/.*/.*/(auto|apg)$'
fi
mv "$out" BENCHMARKS.md
echo "wrote BENCHMARKS.md" >&2
