/**
 * The `--help` text.
 * @module
 */

/** Help of `modprec study`, with examples. */
export function helpText(): string {
  return `modprec study — accuracy and speed of every storage × arithmetic × backend configuration

Usage: modprec study [flags]        (npm start runs: modprec study --quick)
       modprec --version

Flags:
  --quick              small sizes and few timing samples (default; under 3 minutes on 2 cores)
  --full               the papers' size sweeps, 10 seeds, more samples (tens of minutes)
  --kernels LIST       comma-separated: dot, gemv, trsv, ell-spmv, waxpby, roofline, sweep, solvers
                       (default: dot,gemv,trsv,ell-spmv,roofline,sweep,solvers; "sweep" is the
                       multiple-precision sweep of GEMV and WAXPBY; "solvers" runs CG and GMRES
                       with every vector/basis storage)
  --formats LIST       configurations: "S/A" is storage S with arithmetic A; a bare name F
                       adds F as storage and as arithmetic, paired with every other bare name
                       (default: every registered floating-point format, paired all ways)
  --backend NAME       cpu, gpu or auto (default auto: the CPU, plus the GPU when available)
  --sizes LIST         sizes for every kernel (vector length, matrix order, sparse rows)
  --seeds N|LIST       number of seeds (1..N) or a comma-separated list of seeds
  --matrices DIR       folder of Matrix Market files for ELL SpMV (default ../shared/matrices
                       next to the package, else the copy in test/fixtures/matrices)
  --out DIR            report folder (default ./report)
  --json               print the results as JSON on stdout (progress goes to stderr)
  -h, --help           this text
  -V, --version        the version of modprec

Examples:
  npm start                                         quick study, report in ./report
  node dist/app/cli/main.js study --full --out report-full
  node dist/app/cli/main.js study --kernels dot,gemv --formats f64,f32,f32/f64 --sizes 1000,10000
  node dist/app/cli/main.js study --kernels roofline --json > roofline.json

Output: <out>/results.json, <out>/results.csv (one row per measurement) and <out>/index.html
(a self-contained page with the plots; open it from disk). Ctrl-C stops after the current
step and writes the report of what was measured. Before the first step the command checks that
--out can be written and lists every part it will leave out (no GPU, no gmp-wasm for MPFR, no
SuiteSparse matrices), with why and what to do; the report repeats the list. Exit codes: 0 done,
2 bad flags or an unwritable --out (nothing run), 130 interrupted (report written), 1 failure.
`;
}
