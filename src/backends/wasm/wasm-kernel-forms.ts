/**
 * Switches between a WebAssembly kernel's current inner loop and the one it replaced, or a candidate not yet timed
 * on the H100 host, for the benchmark that times them in one run (bench/wasm-cpu.ts) and for the tests that check
 * they give the same bits. Every form computes the same rounded operations in the same order: only the
 * instructions that load, widen and loop differ, or (the DD DOT's split) how an exact product error is formed —
 * except the DD DOT's lazy form, another order within the same bound ({@link WasmKernelForms.ddDotLazy}).
 * Changed in-process only, through {@link setWasmKernelForms}; the kernels' cache keys include the forms.
 * @module
 */

/** The forms (see each one for its default). */
export interface WasmKernelForms {
  /**
   * ELL SpMV takes 8 rows a step (four f64x2 sums) and loads each column index as a scalar to address its gather,
   * where the earlier loop took 4 rows a step and extracted the indices from a vector. On by default.
   * The kahan accumulation keeps 4 rows a step either way (its TwoSum needs the locals).
   */
  readonly ellWide: boolean;
  /**
   * DOT of two unscaled bf16 or two unscaled f16 operands (fp64 arithmetic) runs the checked chunk first
   * (kernels/dot/dot-narrow-wasm.ts, `checkedNarrowDotChunk`: bf16 products in binary32, f16 without the Inf/NaN
   * select), falling back to the exact chunk from the first chunk it declines. On by default.
   */
  readonly halfDotChecked: boolean;
  /**
   * The checked chunk of {@link WasmKernelForms.halfDotChecked} in its lean form (`checkedNarrowDotChunk`'s `lean`):
   * bf16 checks each product for zero and underflow only, leaving Inf, NaN and overflow to the sums, and both formats
   * count their steps by one pointer. The same declines and the same bits. On by default; off: the earlier form.
   */
  readonly halfDotLean: boolean;
  /**
   * Bytes ahead at which the DOT chunks — the general one (kernels/dot/dot-wasm.ts, `dotChunk`) and
   * the lean checked 16-bit one (kernels/dot/dot-narrow-wasm.ts) — read one byte of each operand per step, to start
   * those lines' transfers from memory early (WebAssembly has no prefetch); 0: none. A candidate for the DRAM-bound
   * DOT of long vectors, same bits; 0 (off) until timed on the H100 host.
   */
  readonly dotLookahead: number;
  /**
   * How the double-double DOT without a fused multiply-add (kernels/dot/dot-dd-wasm.ts) splits its factors for
   * Dekker's exact product: 'veltkamp' (both by Veltkamp's splitting, its constant a splat rebuilt by the engine
   * where it is used), 'veltkamp-pinned' (the same, the constant loaded once from memory), or 'bits' (x truncated to
   * 26 significant bits by a mask, y rounded to 26 by an integer add and the mask — 5 instructions instead of 8,
   * constants loaded once — for each block of 512 elements whose factors all lie in [2^-480, 2^480), Veltkamp's
   * splitting for the other blocks: src/backends/wasm/wasm-dd-steps.ts proves the two give the same (p, e) in that
   * range, so every form gives the same bits on every input). Default 'veltkamp': the H100 host timed the guarded
   * 'bits' 1.24× slower than 'veltkamp' (2026-11-27, session 18, DD DOT 2^20, Node 20), though it runs about 15 %
   * fewer instructions (callgrind on the shared VM) — its scan reads each block once more; the unguarded bit split
   * (different bits where a partial product underflows) had been 1.33× faster.
   */
  readonly ddDotSplit: 'veltkamp' | 'veltkamp-pinned' | 'bits';
  /**
   * The double-double DOT on two exact doubles (kernels/dot/dot-dd-wasm.ts) in its lazy form: each lane adds its
   * products' high parts by TwoSum and the product and TwoSum errors in a plain f64 sum (Ogita–Rump–Oishi's Dot2
   * step), folded back into a normalised pair every 8 steps (64 elements); within the same `dotBound`, but not the
   * bits of the eight ddTwoProdAccumulate lanes. Off until timed on the H100 host; a dd factor keeps the dd step.
   * With the 'bits' split it splits every product by bits, without the guard's scan (the same bits where no partial
   * product underflows, within the bound everywhere: kernels/dot/dot-dd-wasm.ts).
   */
  readonly ddDotLazy: boolean;
  /**
   * ELL SpMV (kernels/ell-spmv/ell-spmv-wasm.ts) writes its slots out one after the other for matrices of at most 8
   * slots (a module per width), without the slot loop's counter and branch; the same operations per slot in the
   * same order. Off: on the H100 host (2026-11-27) 1.09× faster with f64 values, 0.85× with f32 values.
   */
  readonly ellSlotsUnrolled: boolean;
  /**
   * How the checked 16-bit DOT chunk widens its binary32 products to binary64: 'shuffle' (the high pair moved down
   * by a shuffle) or 'memory' (both product vectors stored, each pair widened from there: the conversion's load
   * replaces the shuffle). The same values. Default 'shuffle': 'memory' was slower on the shared AMD EPYC VM
   * (2026-11-27, bench/wasm-dot-narrow.ts: f64 / bf16 time 2.07–2.24 against 2.27–2.36, f64 / fp16 1.58–1.61
   * against 1.72–1.81) and takes more µops on Intel cores (llvm-mca, icelake-server: 67 against 63 per 16 bf16 pairs).
   */
  readonly halfDotPromote: 'shuffle' | 'memory';
  /**
   * DOT of two i8 operands with one scale each (kernels/dot/dot-narrow-wasm.ts, `int8PairForm`): powers of two (or
   * scales short enough for n) take the exact integer-sum chunk (then × S), scales of at most 46 significant bits the i16-product chunk (S·(qx·qy),
   * one rounding); the same bits as the general chunk (value × scale per element), which other scales keep. On by
   * default; off: every scaled i8 pair in the general chunk (unscaled pairs take the integer-sum chunk either way).
   */
  readonly int8PairForms: boolean;
  /**
   * After the checked 16-bit DOT chunk ({@link WasmKernelForms.halfDotChecked}) declines a block (a zero or underflowing
   * bf16 product, an fp16 Inf or NaN), the exact chunk takes that block only and the checked chunk resumes after it,
   * while the blocks computed in vain stay below an eighth of those kept (kernels/dot/dot-wasm.ts); off: the exact
   * chunk takes the rest of the DOT from the first decline. The same bits. On by default.
   */
  readonly halfDotResume: boolean;
  /**
   * How many rows of a row-major matrix read in place share each load of x in GEMV (kernels/gemv/gemv-rows-wasm.ts):
   * 2 or 4 (default). Each row keeps the DOT chunk's partial sums and lane tree, so the same bits either way. On the
   * H100 host's Xeon (2026-11-28, bench/wasm-gemv-rows.ts, 4096², 1-thread STREAM dot 15.9 GB/s): f64 storage 12.12 →
   * 10.23 ms (69 → 82 % of STREAM), f32 storage 7.43 → 5.75 ms.
   */
  readonly gemvRowGroup: 2 | 4;
  /**
   * The general DOT chunk (kernels/dot/dot-wasm.ts, `dotChunk`, without lookahead) loops on x's pointer alone, two
   * steps of 8 elements an iteration, tested at the loop's end (no step counter, one stack check and one pointer
   * update per pair of steps): the same steps in the same order, so the same bits. Used by DOT and by GEMV's and
   * TRSV's row dots. V8's loop for f32 storage in fp64 arithmetic: 68 → 57 µops per 16 elements (llvm-mca,
   * icelake-server). Off: within noise on the 2-core AMD VM (2026-11-28, docs/performance.md, session 24), and slower
   * on the H200 host's Xeon (f64 / f32 time 1.57 → 1.52; f64 itself 1.03× faster).
   */
  readonly dotPointerLoop: boolean;
  /**
   * The checked fp16·fp16 chunk (kernels/dot/dot-narrow-wasm.ts) rebiases only x (times 2^127) and takes y's shifted
   * bits as they are (y·2^-112): each binary32 product is xy·2^-97, exact for every pair, and the chunk keeps its
   * sums times 2^-97 (scaled when read, scaled back when stored): one multiplication fewer per four products, the
   * same roundings, so the same bits; its Inf/NaN check doubles the patterns by an add instead of a shift (an add
   * issues on Intel's port 5 too). V8's loop per 16 elements (llvm-mca icelake-server): 80 → 76 µops, 24.1 → 20.1
   * cycles of throughput (16.1 with `halfDotPromote` 'memory'). On by default: on the H200 host's Xeon (2026-11-28,
   * bench/wasm-dot-narrow.ts, n = 2^24, 9 rounds) f64 / fp16 time 2.02 → 2.31 ('shuffle'; 2.22 → 2.41 with 'memory');
   * within noise on the 2-core AMD VM (session 24).
   */
  readonly halfDotScaledSums: boolean;
  /**
   * The lean checked bf16 DOT chunk (kernels/dot/dot-narrow-wasm.ts) takes two steps of 8 elements per loop
   * iteration (the second at a larger offset; the pointers advanced once): the same steps in the same order, so the
   * same bits; 62 → 58.5 µops per 16 elements (llvm-mca icelake-server). Not for fp16: V8 (Node 20) spills registers
   * in that loop of two steps. On by default: on the H200 host's Xeon (2026-11-28, bench/wasm-dot-narrow.ts, n = 2^24,
   * 9 rounds) f64 / bf16 time 2.37 → 2.50 ('shuffle'); within noise on the 2-core AMD VM (session 24).
   */
  readonly halfDotPairs: boolean;
}

let forms: WasmKernelForms = { ellWide: true, halfDotChecked: true, halfDotLean: true, dotLookahead: 0, ddDotSplit: 'veltkamp', ddDotLazy: false, ellSlotsUnrolled: false, halfDotPromote: 'shuffle', int8PairForms: true, halfDotResume: true, gemvRowGroup: 4, dotPointerLoop: false, halfDotScaledSums: true, halfDotPairs: true };

/** The forms in effect. */
export function wasmKernelForms(): WasmKernelForms {
  return forms;
}

/** Sets some of the forms (benchmarks and tests); returns the previous ones, to restore. */
export function setWasmKernelForms(change: Partial<WasmKernelForms>): WasmKernelForms {
  const previous = forms;
  forms = { ...forms, ...change };
  return previous;
}
