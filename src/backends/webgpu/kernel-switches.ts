/**
 * Switches between a GPU kernel's current form and the one it replaced, for benchmarks that time both in one run
 * and for tests that check both: lazy float-float accumulation in streaming loops (`lazy`), DOT's tree
 * reduction passes (`tree`), the lazily reduced RNS row sums (`rnsFoldSteps`, `rnsFoldSplit`), and the GEMV / DOT forms under
 * trial for issue 19 (`f32FmaKeep`, `ffFmaKeep`, `gemvPrefetch`, `gemvVectorX`, `gemvUnroll`, `dotPrefetch`,
 * `dotFusedTree`, `ffLongLazy`, `prefetchPingPong`, `gemvFfFourRows`, `gemvEightRows`, `gemvFinishBatch`, `dotFusedFinish`, `dotWorkgroupFinish`, `gemvFusedFinish`, `gemvWorkgroupSplit`, `gemvWorkgroupSplitExact`, `gemvPartialWorkgroup`, `dotBlockRuns`, `ffFoldedProducts`, `ffLeanSettle`, `dotOctetRuns`; each one's TSDoc gives its default and its `MODPREC_GPU_…` variable). Read once from the
 * environment when the module loads (`MODPREC_GPU_LAZY=0`, `MODPREC_GPU_TREE=0` turn them off) — not per call: a `process.env` read costs microseconds in Node, a visible
 * share of a small call's host time — and changed in-process only through {@link setGpuKernelSwitches}.
 * @module
 */
import { fail } from '../../core/errors.js';

/** The switches (see each one for its default). */
export interface GpuKernelSwitches {
  // GEMV / DOT / f32 and ff emitters (issue 19 item 4): f32FmaKeep, ffFmaKeep, gemvPrefetch and gemvVectorX are on by
  // default since the H100 timings of 2026-11-27 (docs/performance.md, gpu-h19-goals), gemvWorkgroupSplit 256 with
  // gemvFfFourRows since session 20's check of the split over many workgroups; the others stay off.
  /**
   * f32 arithmetic rounds a product before its sum as `fma(a, b, z)`, z a uniform that is always −0.0 (`mpNegZero`):
   * one floating-point operation, where `mpKeep(a·b)` is a multiply and an XOR of its bits with a uniform 0 (an
   * integer operation per product, on a half-rate pipe of the H100). The same value: a·b rounded once to binary32,
   * then added. On by default (`MODPREC_GPU_F32_FMA_KEEP=0` turns it off).
   */
  readonly f32FmaKeep: boolean;
  /**
   * Float-float streaming loops (TwoProd, the lazy addition, settling) pin their products and sums as fmas with
   * uniforms that are always −0.0 and 1.0 (`fma(a, b, z)`, `fma(one, a, b)`) instead of XOR-ing their bits with a
   * uniform 0. Same values. On by default (`MODPREC_GPU_FF_FMA_KEEP=0` turns it off).
   */
  readonly ffFmaKeep: boolean;
  /**
   * GEMV N's R-rows partial pass loads the next step's columns before it sums the current ones (software pipelining:
   * the loads of one step are in flight while the previous step computes). Same sums in the same order. On by default
   * (`MODPREC_GPU_GEMV_PREFETCH=0` turns it off).
   */
  readonly gemvPrefetch: boolean;
  /**
   * GEMV N's R-rows partial pass reads x four columns a load (its format's vector read) where x is packed and the
   * chunks are multiples of 4: a quarter of the loads of x. Same sums. On by default (`MODPREC_GPU_GEMV_VECTOR_X=0` turns it off).
   */
  readonly gemvVectorX: boolean;
  /**
   * Columns per step of GEMV N's R-rows partial pass (4, 8 or 16; default 8): the loads each thread has in flight, and
   * the registers it needs (fewer registers, more resident threads). f32 sums keep their order where the chains divide
   * it; float-float accumulators settle at the end of each step, so another step length is another fixed order,
   * within the same bound (`MODPREC_GPU_GEMV_UNROLL=4` or `16`).
   */
  readonly gemvUnroll: 4 | 8 | 16;
  /**
   * DOT's first pass loads the next step's runs before it sums the current ones (as `gemvPrefetch`). Same sums in the
   * same order. Off by default (`MODPREC_GPU_DOT_PREFETCH=1`).
   */
  readonly dotPrefetch: boolean;
  /**
   * RNS row sums (GEMV, DOT, ELL SpMV, ASUM, TRSV; src/formats/rns/gpu/row-sum-webgpu.ts): the partial-residue pass
   * adds each term's t·p2 (t = |P·Q|_m, p2 = |±2^(f−G)|_m, both < 2^16) unreduced, as two 16-bit halves in two i32
   * sums, and reduces them once every this many four-term steps (and at the end of its chunk) — one modular
   * reduction per term instead of two, and no conditional subtract per term. 0 is the form with a reduction per
   * product; at most {@link MAX_RNS_FOLD_STEPS}, the default since the H100 timings of 2026-11-27 (with
   * `rnsFoldSplit`: GEMV 1000² at 1696 bits 7.06 → 1.27 ms, 424 bits 2.12 → 1.01). Same residues word for word
   * (`MODPREC_GPU_RNS_FOLD=0` turns it off, `=n` sets n).
   */
  readonly rnsFoldSteps: number;
  /**
   * With `rnsFoldSteps` on: the product P·Q is not reduced either — its 16-bit halves times ±p2 go into three i32
   * sums (weights 2^32, 2^16, 1), so a term costs integer multiplies, shifts and adds only, no float conversion
   * (the H100 converts at a quarter of its integer rate). Same residues. On by default (`MODPREC_GPU_RNS_SPLIT=0` turns it off).
   */
  readonly rnsFoldSplit: boolean;
  /**
   * DOT's first pass runs in 256-invocation workgroups that add their sums pairwise in workgroup memory, so the tree
   * passes start from one partial per workgroup: one dispatch fewer (2^17 first-pass threads: 2 dispatches instead of
   * 3). Another fixed summation order, within the same bound. Off by default (`MODPREC_GPU_DOT_FUSED_TREE=1`).
   */
  readonly dotFusedTree: boolean;
  // One-dispatch reductions (issue 19 item 4, session 18; off: on the H100, 2026-11-27, bench/gpu/h19-goals.ts --rows=s18,
  // DOT 2^27 f32 + ff 0.377 vs 0.380 ms (same bits), bf16/f16 + ff within ±1 %; GEMV N 8192 slower, f32 + ff 0.125 vs
  // 0.117–0.123, bf16/f16 + ff 0.093–0.095 vs 0.081–0.085).
  /**
   * DOT in one dispatch: the first pass's workgroups publish their partials and take tickets; the last workgroup of
   * each block of 2048 partials sums them as the first tree pass would, and the last block sums those as the last
   * tree pass would — the default's bits without its two further dispatches (kernels/dot/dot-fused-finish-source.ts:
   * why the relaxed atomics suffice). Where the tree passes run, for one storage binding, up to 2^22 partials and
   * slots that fit one binding.
   * Off by default (`MODPREC_GPU_DOT_FUSED_FINISH=1`).
   */
  readonly dotFusedFinish: boolean;
  /**
   * DOT in one dispatch, one ticket a workgroup (session 23): `dotFusedTree`'s first pass publishes each workgroup's sum
   * and takes a ticket; the last workgroup sums them as `dotFusedTree`'s one remaining tree pass — its bits without that
   * dispatch (kernels/dot/dot-workgroup-finish-source.ts). For one storage binding, 2 to 2048 whole workgroups, f32 or ff;
   * elsewhere (and over `dotFusedFinish`) the `dotFusedTree` path. On by default since its H100 timing (2026-11-28, DOT
   * n = 2^27 fp32 + ff: 0.3651 ms against 0.3709 for the three dispatches and 0.3677 for `dotFusedTree`, no sum
   * recomputed; `MODPREC_GPU_DOT_WORKGROUP_FINISH=0` turns it off).
   */
  readonly dotWorkgroupFinish: boolean;
  /**
   * GEMV N in one dispatch: the R-rows partial pass's workgroups (64 row groups of one chunk each) publish their partials
   * and take a ticket on their row block's counter; the last of a block's chunks sums the block's rows in chunk order,
   * applies α and β and stores y — the finish pass's bits without its dispatch (kernels/gemv/gemv-fused-finish-source.ts).
   * For a packed y in f32, f16, bf16, ff or f64, A and x over one binding. Off by default (`MODPREC_GPU_GEMV_FUSED_FINISH=1`).
   */
  readonly gemvFusedFinish: boolean;
  /**
   * Tests only: the one-dispatch forms treat every published partial as missing (`dotWorkgroupFinish`: its odd
   * workgroups leave their sums unpublished), so their recomputation paths run (same bits, far slower). Off.
   */
  readonly fusedFinishRecompute: boolean;
  // Cheaper float-float streaming loops (issue 19 item 4, session 15; off until timed on the H100 — bench/gpu/h19-goals.ts).
  /**
   * The lazy float-float accumulators of GEMV N's R-rows partial pass and DOT's first pass settle after at most
   * {@link LONG_LAZY_TERMS} = 16 terms, counted across loop steps, instead of at the end of every step (4 terms per
   * accumulator with the default 2 chains of 8-column steps): a quarter of the settles, and of ffFinish's bit tests.
   * Another fixed summation order, within the same bound (proof at kernels/shared/long-lazy-steps.ts). Off by default
   * (`MODPREC_GPU_FF_LONG_LAZY=1`).
   */
  readonly ffLongLazy: boolean;
  /**
   * The prefetching loops (`gemvPrefetch`, `dotPrefetch`) alternate two sets of carried registers, two steps an
   * iteration, instead of moving the next step's registers into the carried ones at every step's end
   * (kernels/shared/prefetched-steps.ts, `pingPongSteps`): no register moves. Same sums in the same order. Off by
   * default (`MODPREC_GPU_PREFETCH_PING_PONG=1`).
   */
  readonly prefetchPingPong: boolean;
  /**
   * GEMV N in float-float (issue 19 item 4, session 17): with the switch on, the R-rows partial pass takes 4 rows a
   * thread (and accepts `rowsPerThread: 4`), where its 2-word accumulators make 8 words of partials — more than a thread's output
   * holds — so the thread stores them itself through an atomic binding of the partial buffer (relaxed stores, where
   * the 4-row thread's one-row neighbours would have put them; its own output is never written). A packed matrix's 4
   * rows of a column are one load: 16 bytes in fp32, 8 in bf16/fp16 (with 2 rows: 8 and 4 bytes), and
   * each load of x feeds 4 rows. The rows per thread do not change the summation order: the bits of 2 rows a thread.
   * On by default with `gemvWorkgroupSplit` 256 (`MODPREC_GPU_GEMV_FF_FOUR_ROWS=0` turns it off): together they took
   * 0.967–0.975× the two passes' time for fp32 + ff (H100, 2026-11-27); alone it times as two rows a thread.
   */
  readonly gemvFfFourRows: boolean;
  /**
   * GEMV N of a packed bf16/fp16 matrix whose rows and lda are multiples of 8, in f32 or float-float, with no
   * `rowsPerThread` given: 8 rows a thread, read with one 16-byte load per column (four words, two rows each) — a
   * quarter of the load instructions of 2 rows (float-float's default) and half of 4 (f32's) — the partials stored by
   * the thread itself as with `gemvFfFourRows`. Other matrices take the default. Same summation order: the bits of the
   * default. Off by default (`MODPREC_GPU_GEMV_EIGHT_ROWS=1`).
   */
  readonly gemvEightRows: boolean;
  /**
   * Partials GEMV's finish pass loads before it adds them (8, 16 or 32; default 8): with GEMV N's 32 chunks (n = 8192)
   * a row's partials come in one batch of loads instead of four, each waited for in turn. Added in the same order: the
   * same bits (`MODPREC_GPU_GEMV_FINISH_BATCH=16` or `32`).
   */
  readonly gemvFinishBatch: 8 | 16 | 32;
  /**
   * DOT in dd arithmetic takes the lean windowed term in windows of eight with one accumulator a thread
   * (`ddGpuArithmeticWindowLean8` and dd's `dotChains`, src/formats/dd/dd-gpu-window-lean-wgsl.ts: signed limbs read
   * straight from the words, 45 limb products) instead of the wide one in windows of four with two accumulators
   * (`ddGpuArithmeticWindow4`). Another rounding within the same bound. On by default since session 20: on the H100
   * (2026-11-27) DOT 2^26 dd·dd 1.86 vs 2.43 ms, f64·dd 1.40 vs 1.82, f64·f64 0.94 vs 1.27 — faster in every case
   * (the lean windows of four with two accumulators: 2.24, 1.66, 1.33); `MODPREC_GPU_DD_DOT_LEAN=0` turns it off.
   */
  readonly ddDotLean: boolean;
  /**
   * DOT's first pass in dd arithmetic takes GEMV's long window (`ddGpuArithmeticDotLong`: the forms of
   * `ddGemvLongDd`, src/formats/dd/dd-gpu-gemv-long-wgsl.ts) for its dd·dd, f64·dd, dd·f64 and f64·f64 terms: one
   * fixed-point window a thread across its steps of eight, settled near its headroom and once at the end, instead of a
   * lean window settled every step. One accumulator a thread. Another rounding within the same dotBound.
   * `'auto'` (the default since session 23) takes it where it was faster on the H100 (NVIDIA H100 80GB HBM3,
   * 2026-11-28, DOT n = 2^26 against the lean windows): where one operand is stored as f64 and the other as f64 or dd
   * — f64·dd and dd·f64 with DOT's two runs of four a step (1.40 → 1.19 ms), f64·f64 with four runs a step (1.03 →
   * 0.76 ms) — while dd·dd (2.00 vs 2.56 ms) and any other storage beside dd (f32, ff, f16, dd-split) keep the lean
   * windows. `true` (`MODPREC_GPU_DD_DOT_LONG=1`) takes it for every dd DOT with DOT's two runs a step (the switch
   * as it was first measured); `false` (`MODPREC_GPU_DD_DOT_LONG=0`), nowhere. Where it is taken, `ddDotLean` does not
   * matter; a call's `groups`, `chains` or `groupWidth` win over these defaults.
   */
  readonly ddDotLong: boolean | 'auto';
  /**
   * GEMV N in an arithmetic whose GEMV variant decodes x once (`gemvDecodedX`: dd's windowed multiply-adds, for f64
   * x): a pre-pass writes each x_j's kind and 14-bit limbs next to its words, and the row pass reads them instead of
   * decoding x_j in every row's thread (an f64·f64 term: 378 → 284 integer operations counted over all branches,
   * ≈ 195 → ≈ 177 along its usual path; docs/double-double.md). The same limbs, so the same bits. Off (`MODPREC_GPU_DD_GEMV_DECODED_X=1`): on the H100 (2026-11-27) GEMV N 8192
   * f64 storage 0.791 vs 0.813 ms, within the run's noise.
   */
  readonly ddGemvDecodedX: boolean;
  /**
   * Float-float DOT and GEMV (N and T) whose operands are both unscaled bf16/f16 (issue 19 item 4, session 19): each
   * lazy term's product is exact in one binary32 multiplication (at most 11 + 11 significant bits), so the term is the
   * lazy addition of p = a·b with no TwoProd error term (./ff-exact-products.ts: 8 floating-point operations a term
   * instead of 10; the proof that the bits are the default's where fma is fused, and without a fused fma wherever no
   * product underflows). On by default since session 19 (H100, 2026-11-27: GEMV N 8192 with A and x in bf16 / f16
   * 0.0825 / 0.0777 ms against 0.0900 / 0.0820; DOT unchanged, memory-bound); `MODPREC_GPU_FF_EXACT_PRODUCTS=0` turns it off.
   */
  readonly ffExactProducts: boolean;
  /**
   * Float-float GEMV (N and T) and DOT streaming passes fold each lazy term's TwoProd error into its TwoSum's tail where
   * both operands are binary32 registers and the products are not exact (an fp32 x against a 16-bit or fp32 matrix,
   * fp32 DOT; issue 19 item 4, session 22): f = fma(a, b, −hb) is TwoSum's δb plus TwoProd's e in one rounding, so a
   * term is 8 floating-point operations instead of 10 (src/formats/ff/ff-folded-products.ts: the proof of 9.75u² a term,
   * 13.6u² with `ffLongLazy`, inside the 16u² of the ff bounds). The heads are the default's; the tails take one more
   * rounding: other bits, the same bounds. On by default since session 22 (H100, 2026-11-28, GEMV N 8192 + ff with an
   * fp32 x: bf16 / f16 / fp32 matrix 0.0771 / 0.0766 / 0.1151 → 0.0755 / 0.0750 / 0.1142 ms); `MODPREC_GPU_FF_FOLDED_PRODUCTS=0`
   * turns it off.
   */
  readonly ffFoldedProducts: boolean;
  /**
   * The lazy accumulators of float-float GEMV (N and T) and DOT streaming passes settle without ffFinish's zero test
   * (src/formats/ff/ff-lean-settle.ts: it never fires there, as no head of such an accumulator is −0): the default's
   * bits where subnormal results are kept. Off by default (`MODPREC_GPU_FF_LEAN_SETTLE=1`).
   */
  readonly ffLeanSettle: boolean;
  /**
   * GEMV (N and T, the partial pass) in dd arithmetic: runs of f64·f64 terms go into one long fixed-point window per
   * accumulator that lives across the loop's steps (src/formats/dd/dd-gpu-gemv-long-wgsl.ts: 14-bit limbs read
   * straight from the words, the window re-anchored only when a step's largest product exponent grows, settled into
   * the accumulator once at the end or when it nears its headroom) instead of one window settled per step. Another
   * rounding within the same gemvBound. On by default since session 19 (H100, 2026-11-27: f64 storage N / T 8192
   * 0.573 / 0.572 ms against 0.80 / 0.87 ms); `MODPREC_GPU_DD_GEMV_LONG=0` turns it off.
   */
  readonly ddGemvLong: boolean;
  /**
   * GEMV (N and T, the partial pass) in dd arithmetic: dd·dd, dd·f64 and f64·dd terms go into the long window too
   * (`ddGpuArithmeticGemvLongDd`; src/formats/dd/dd-gpu-gemv-long-wgsl.ts: the lean term of DOT's default — signed
   * 14-bit limbs straight from the words, 45 limb products — added at the window's anchor), so dd storage settles once
   * a pass instead of once a step of eight (f64·f64 terms as with `ddGemvLong`). Another rounding within the same
   * gemvBound. On by default since session 21 (H100, 2026-11-28, dd storage n = 8192: N 1.588 → 1.232 ms, T 1.631 →
   * 1.228 ms); `MODPREC_GPU_DD_GEMV_LONG_DD=0` turns it off. Only with `ddGemvLong` (off, the windows of eight run).
   */
  readonly ddGemvLongDd: boolean;
  /**
   * GEMV (N and T, the partial pass) in dd arithmetic with `ddGemvLongDd`, x in dd: a pre-pass decodes each x_j once
   * a call (src/formats/dd/dd-gpu-gemv-decoded-dd-wgsl.ts: its regularity and exponent, and its six signed limbs of lo,
   * four words beside x_j's own), and the long window's dd·dd and f64·dd terms read them instead of deriving them in
   * every row's thread. The same limbs and codes, so the same bits. On by default since session 22 (H100, 2026-11-28,
   * n = 8192: dd storage N 1.226 → 1.061 ms, T 1.243 → 1.059; A f64 with a dd x N 0.883 → 0.717);
   * `MODPREC_GPU_DD_GEMV_DECODED_X_DD=0` turns it off.
   */
  readonly ddGemvDecodedXDd: boolean;
  /**
   * GEMV N in dd arithmetic: rows a thread of the partial pass (1, 2 or 4; 1: off) where the call gives no
   * `rowsPerThread` (and the most `rowsPerThread` accepts in dd). Each column's x_j is then loaded once for R rows, and
   * its decoding (limbs, exponent test) is the same expression in the R rows' terms, which the shader compiler can
   * share; the R partials (4 words each) are stored by the thread itself (kernels/gemv/gemv-row-group-source.ts). Every
   * row's terms keep their chunk and order, so the words are those of one row a thread. Off until timed on the H100
   * (`MODPREC_GPU_DD_GEMV_ROWS=2` or `4`).
   */
  readonly ddGemvRows: 1 | 2 | 4;
  /**
   * GEMV N in one dispatch with the reduction inside a workgroup (issue 19 item 4, session 19): workgroups of this many
   * invocations (64, 128 or 256; 0: off) each hold ⌊W/S⌋ row groups times all S column chunks of the R-rows partial
   * pass, leave the partials in workgroup memory, and one invocation per word of y adds them in chunk order and stores
   * y — the two-pass default's bits without its partial buffer and second dispatch, and without the tickets of
   * `gemvFusedFinish` (kernels/gemv/gemv-workgroup-split-source.ts). Where S ≤ W, for a packed y in f32, f16, bf16, ff
   * or f64 and A and x over one binding, the partial pass in the arithmetic itself (float-float's exact 16-bit
   * products, `ffExactProducts`, only with `gemvWorkgroupSplitExact`; never dd's GEMV variant); other calls take the two passes. 256 by default
   * (`MODPREC_GPU_GEMV_WORKGROUP_SPLIT=0` turns it off, `=128` or `=64` picks the size): on the H100 (2026-11-27) it
   * took 0.967–0.975× the two passes' time for fp32 + ff with `gemvFfFourRows` (f32 arithmetic 0.98×). A first
   * default (session 19) broke the GPU GMRES of docs/solvers.md: with fewer chunks than rows a thread a workgroup held
   * more rows than invocations to finish them (fixed: gemvWorkgroupSplitLayout); made the default again after the
   * check over many workgroups in test/gpu/gemv-workgroup-split-shapes.test.ts.
   */
  readonly gemvWorkgroupSplit: 0 | 64 | 128 | 256;
  /**
   * `gemvWorkgroupSplit` also runs float-float's exact 16-bit products (`ffExactProducts`: A and x both unscaled
   * bf16/f16) in its one dispatch, instead of leaving those calls to the two passes: the split runs the same row pass's
   * lines (only each term's product differs from the arithmetic's, the partials are float-float pairs as the finish
   * reads them) and adds each row's partials in chunk order as the finish pass does — the two passes' bits. On by
   * default since session 21: on the H100 (2026-11-28, n = 8192, one accumulator a thread) bf16 · bf16 0.0768 →
   * 0.0743 ms, f16 · f16 0.0760 → 0.0741 (0.967× / 0.974×; bench/gpu/h19-goals.ts `--gemv-default-sweep --rows=s21`);
   * `MODPREC_GPU_GEMV_WORKGROUP_SPLIT_EXACT=0` turns it off.
   */
  readonly gemvWorkgroupSplitExact: boolean;
  /**
   * Invocations per workgroup of GEMV N's R-rows partial pass (64, gpu.js's, by default; 128 or 256): a workgroup then
   * reads W·R adjacent rows of a column at a time (4 KiB of fp32 with 256 and 4 rows). The row groups are padded to
   * whole workgroups (kernels/gemv/gemv-partial-workgroup-source.ts); each real thread runs the default's lines, so y
   * keeps the default's bits. For threads that return their partials (not `gemvFfFourRows`' own stores), A and x over
   * one binding. `MODPREC_GPU_GEMV_PARTIAL_WORKGROUP=128` or `256`.
   */
  readonly gemvPartialWorkgroup: 64 | 128 | 256;
  /**
   * DOT's first pass reads each workgroup's runs as one contiguous block per step: thread t = 64b + l takes its g-th run
   * at 64·w·g + l·w within block b's 64·w·groups elements (w = 4 a run, `groups` runs a step), instead of runs S = T·w
   * apart (the grid-strided default). A step's loads of a workgroup are then one stretch of each operand (2 KiB of fp32
   * by default) instead of `groups` stretches megabytes apart. Other elements per thread: another fixed order, within
   * the same bound. Where the first pass has a multiple of 64 threads over one binding. Off by default
   * (`MODPREC_GPU_DOT_BLOCK_RUNS=1`).
   */
  readonly dotBlockRuns: boolean;
  /**
   * DOT's first pass over two packed bf16/fp16 vectors reads runs of eight adjacent elements, one 16-byte load an
   * operand (the formats' octet read), instead of runs of four in 8-byte loads (issue 19 item 4, session 22): half
   * the load instructions and index operations, twice the bytes in flight a thread. Thread t takes 8t … 8t + 7, then
   * 8T further on: another fixed order, within the same bound. Where both are packed over one binding and the call
   * keeps the default runs (`groupWidth` 4, vector loads, not `dotBlockRuns`). On by default since session 22 (H100,
   * 2026-11-28, DOT 2^27 + ff: bf16 / f16 0.2069 / 0.2077 → 0.2042 / 0.2044 ms); `MODPREC_GPU_DOT_OCTET_RUNS=0` turns it off.
   */
  readonly dotOctetRuns: boolean;
  /** Lazy multiply-adds where the arithmetic has them (see `mulAddGroup` in ./kernel-common.ts). */
  readonly lazy: boolean;
  /** DOT's partials summed by tree passes where the device has 256-invocation workgroups. */
  readonly tree: boolean;
}

/**
 * Most four-term steps between two reductions of the lazy partial residues (`rnsFoldSteps`): the steps and the
 * chunk's tail add at most 4·4000 + 3 = 16003 terms to a sum, each below 2^17 (two 16-bit halves with
 * `rnsFoldSplit`, one otherwise), so every i32 sum stays below 16003·(2^17 − 2) < 2^31.
 */
export const MAX_RNS_FOLD_STEPS = 4000;

function envOff(name: string): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] === '0';
}

function envOn(name: string): boolean {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] === '1';
}

/** A three-valued switch from the environment: true for `=1`, false for `=0`, `'auto'` otherwise. */
function envOnOffAuto(name: string): boolean | 'auto' {
  return envOn(name) ? true : envOff(name) ? false : 'auto';
}

function envUnroll(name: string): 4 | 8 | 16 {
  const v = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return v === '4' ? 4 : v === '16' ? 16 : 8;
}

function envBatch(name: string): 8 | 16 | 32 {
  const v = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return v === '16' ? 16 : v === '32' ? 32 : 8;
}

/** Rows a thread from the environment: 2 or 4 where set so, else 1. */
function envRows(name: string): 1 | 2 | 4 {
  const v = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return v === '2' ? 2 : v === '4' ? 4 : 1;
}

/** A workgroup size from the environment: 64, 128 or 256; 0 for `=0`; `fallback` (the default) otherwise. */
function envWorkgroup(name: string, fallback: 0 | 64 | 128 | 256): 0 | 64 | 128 | 256 {
  const v = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  return v === '0' ? 0 : v === '64' ? 64 : v === '128' ? 128 : v === '256' ? 256 : fallback;
}

/** The GEMV / DOT switches' values from the environment. */
const gemvDotSwitches = { f32FmaKeep: !envOff('MODPREC_GPU_F32_FMA_KEEP'), ffFmaKeep: !envOff('MODPREC_GPU_FF_FMA_KEEP'), gemvPrefetch: !envOff('MODPREC_GPU_GEMV_PREFETCH'), gemvVectorX: !envOff('MODPREC_GPU_GEMV_VECTOR_X'), gemvUnroll: envUnroll('MODPREC_GPU_GEMV_UNROLL'), dotPrefetch: envOn('MODPREC_GPU_DOT_PREFETCH'), dotFusedTree: envOn('MODPREC_GPU_DOT_FUSED_TREE'), dotFusedFinish: envOn('MODPREC_GPU_DOT_FUSED_FINISH'), dotWorkgroupFinish: !envOff('MODPREC_GPU_DOT_WORKGROUP_FINISH'), gemvFusedFinish: envOn('MODPREC_GPU_GEMV_FUSED_FINISH'), fusedFinishRecompute: false };

/** The cheaper float-float switches (session 15) from the environment: off unless set to 1 (`gemvFfFourRows`, `ddGemvLong`: on unless set to 0). */
const cheaperFfSwitches = { ffLongLazy: envOn('MODPREC_GPU_FF_LONG_LAZY'), prefetchPingPong: envOn('MODPREC_GPU_PREFETCH_PING_PONG'), gemvFfFourRows: !envOff('MODPREC_GPU_GEMV_FF_FOUR_ROWS'), gemvEightRows: envOn('MODPREC_GPU_GEMV_EIGHT_ROWS'), gemvFinishBatch: envBatch('MODPREC_GPU_GEMV_FINISH_BATCH'), ddGemvDecodedX: envOn('MODPREC_GPU_DD_GEMV_DECODED_X'), ddGemvLong: !envOff('MODPREC_GPU_DD_GEMV_LONG'), ddGemvLongDd: !envOff('MODPREC_GPU_DD_GEMV_LONG_DD'), ddGemvDecodedXDd: !envOff('MODPREC_GPU_DD_GEMV_DECODED_X_DD'), ddGemvRows: envRows('MODPREC_GPU_DD_GEMV_ROWS') };

/**
 * Most lazy float-float terms an accumulator takes between two settles with `ffLongLazy` on (the arithmetic's own
 * `lazyTerms`, 8, otherwise): the error of such a run stays below 11.6u² per term, inside the 16u² of the ff bounds.
 */
export const LONG_LAZY_TERMS = 16;

function envSteps(name: string): number {
  const v = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] ?? MAX_RNS_FOLD_STEPS);
  return Number.isInteger(v) && v > 0 ? Math.min(v, MAX_RNS_FOLD_STEPS) : 0;
}

let current: GpuKernelSwitches = { ...gemvDotSwitches, ...cheaperFfSwitches, gemvWorkgroupSplit: envWorkgroup('MODPREC_GPU_GEMV_WORKGROUP_SPLIT', 256), gemvWorkgroupSplitExact: !envOff('MODPREC_GPU_GEMV_WORKGROUP_SPLIT_EXACT'), gemvPartialWorkgroup: envWorkgroup('MODPREC_GPU_GEMV_PARTIAL_WORKGROUP', 64) || 64, dotBlockRuns: envOn('MODPREC_GPU_DOT_BLOCK_RUNS'), dotOctetRuns: !envOff('MODPREC_GPU_DOT_OCTET_RUNS'), ffExactProducts: !envOff('MODPREC_GPU_FF_EXACT_PRODUCTS'), ffFoldedProducts: !envOff('MODPREC_GPU_FF_FOLDED_PRODUCTS'), ffLeanSettle: envOn('MODPREC_GPU_FF_LEAN_SETTLE'), rnsFoldSteps: envSteps('MODPREC_GPU_RNS_FOLD'), rnsFoldSplit: !envOff('MODPREC_GPU_RNS_SPLIT'), ddDotLean: !envOff('MODPREC_GPU_DD_DOT_LEAN'), ddDotLong: envOnOffAuto('MODPREC_GPU_DD_DOT_LONG'), lazy: !envOff('MODPREC_GPU_LAZY'), tree: !envOff('MODPREC_GPU_TREE') };

/**
 * The current switches.
 * @returns them
 */
export function gpuKernelSwitches(): GpuKernelSwitches {
  return current;
}

/**
 * A cache of values derived from an object and the kernel switches: `make(key)` once per key and setting of the
 * switches (setGpuKernelSwitches replaces the switches object, so its identity tells a new setting).
 * @param make - builds the value for a key under the current switches
 * @returns the cached lookup
 */
export function perSwitchSetting<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const cache = new WeakMap<K, { switches: GpuKernelSwitches; value: V }>();
  return (key) => {
    const known = cache.get(key);
    if (known && known.switches === current) return known.value;
    const value = make(key);
    cache.set(key, { switches: current, value });
    return value;
  };
}

let currentKey: string | undefined;

/**
 * A short string that differs between settings of the switches (generated sources are memoised per setting).
 * @returns the key
 */
export function gpuKernelSwitchKey(): string {
  currentKey ??= Object.entries(current).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => (typeof v === 'boolean' ? (v ? '1' : '0') : `,${String(v)},`)).join('');
  return currentKey;
}

/**
 * Sets some switches (the generated sources and plans are cached per setting, so later calls use the new form).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 */
export function setGpuKernelSwitches(changes: Partial<GpuKernelSwitches>): GpuKernelSwitches {
  const previous = current;
  const rows = changes.ddGemvRows;
  if (rows !== undefined && rows !== 1 && rows !== 2 && rows !== 4) fail('INVALID_OPTION', 'ddGemvRows', 'must be 1, 2 or 4', rows);
  const long = changes.ddDotLong;
  if (long !== undefined && long !== true && long !== false && long !== 'auto') fail('INVALID_OPTION', 'ddDotLong', "must be true, false or 'auto'", long);
  const steps = changes.rnsFoldSteps;
  if (steps !== undefined && !(Number.isInteger(steps) && steps >= 0 && steps <= MAX_RNS_FOLD_STEPS)) {
    fail('INVALID_OPTION', 'rnsFoldSteps', `must be an integer in [0, ${MAX_RNS_FOLD_STEPS}]`, steps);
  }
  current = { ...current, ...changes };
  currentKey = undefined;
  return previous;
}

/**
 * Forms of TRSV's one-dispatch solve (kernels/trsv/trsv-walker-source.ts) for issue 19: column inverse, lazy tiles,
 * early poll, two ahead and row lanes for transposed solves are on by default since the H100 timings of 2026-11-27;
 * tree quarters is off. Each keeps the solve within `trsvBound` with `backend: 'gpu'`; the ones
 * marked "same bits" change only where values come from, not the operations on them.
 */
export interface TrsvKernelSwitches {
  /** The walker reads a column-major copy of the block inverses (made once per matrix), so a warp's loads of a column are adjacent (same bits). */
  readonly columnInverse: boolean;
  /**
   * Four lanes per row, each over every fourth column (instead of 64 lanes down a column, 16 adjacent columns each):
   * adjacent lanes read adjacent elements of op(A) = Aᵀ. `'transposed'` (the default) uses them where op(A) = Aᵀ only,
   * where they paid on the H100 (L T N 0.49 → 0.30 ms in f32) while they cost the N solves (0.25 → 0.28 ms).
   */
  readonly rowLanes: boolean | 'transposed';
  /** Float-float tile sums added lazily (settled every few terms), as the inverse product already is. */
  readonly lazyTiles: boolean;
  /** The walker issues its loads of a helper's sum at the top of a step and checks them after its own tile (same bits). */
  readonly earlyPoll: boolean;
  /** The walker's loads of A's tile, the inverse's row and b go out two steps ahead instead of one (same bits). */
  readonly ahead: boolean;
  /** A row's four quarters summed pairwise, (q0 + q1) + (q2 + q3), instead of one after another: a shorter float-float dependency chain. */
  readonly treeQuarters: boolean;
  /**
   * With row lanes on op(A) = Aᵀ (A binary32, not a view, lda a multiple of 4; elsewhere ignored): each lane reads its
   * row's entries four adjacent columns a 16-byte load (columns 16v + 4p + e for lane p), so a row's four lanes read
   * 64 adjacent bytes a load instead of 16, with a quarter of the load instructions. Another fixed order of the same
   * sums (same trsvBound). On by default (`MODPREC_TRSV_QUAD_ROWS=0` turns it off): on the H100 (2026-11-27) it took
   * L T N in f32 from 1.24× to 1.09× of L N N (0.301 → 0.262 ms; ff 1.11× → 1.02×), N solves unchanged.
   */
  readonly quadRows: boolean;
  /**
   * Double-double TRSV (components 4) takes the blocked solve whose block solve and updates split each row's sum over
   * 16 lanes of a workgroup (kernels/trsv/trsv-lanes-source.ts): chains of bs/16 + 4 operations instead of bs/4 + 3,
   * 16× the threads an update — and an f64 x under dd is solved so too, not by the one-workgroup substitution that
   * rounds x_j to binary64 between rows (x kept in the 112-bit register and rounded once at the end; `trsvBound` with
   * `backend: 'gpu'` is then the block-inverse bound). Within the same bound; other bits. On by default since the
   * H100 timing of 2026-11-27 (L N n = 8192: dd storage 56.9 → 7.38 ms, f64 storage 310 → 15.5 ms; bench/gpu/dd-gpu.ts);
   * `MODPREC_TRSV_DD_LANES=0` turns it off.
   */
  readonly ddLanes: boolean;
  /**
   * With `ddLanes`, A in one binding: one dispatch a block instead of two — block k's solve fused with the update from
   * x_{k−1} (kernels/trsv/trsv-lanes-source.ts, `laneFusedSource`): bs/16 workgroups each apply x_{k−1}'s update to
   * block k's rows in workgroup memory and solve their 16 rows of x_k, the others update the rows after block k; no
   * workgroup waits on another. The same sums in the same order: the unfused lane solve's bits. Off: on the H100
   * (2026-11-27) it was slower — L N n = 8192 dd 15.2 / 21.2 / 38.2 ms against 11.6 / 4.40 / 3.85 ms unfused with
   * blocks of 64 / 128 / 256 (its heads' serial update costs more than the dispatch it saves).
   * `MODPREC_TRSV_DD_LANES_FUSED=1` turns it on; bench/gpu/dd-gpu.ts `--trsv-forms=lanes,fused`.
   */
  readonly ddLanesFused: boolean;
  /**
   * With `ddLanes`, A in one binding: 0 (off), or the lanes a row of the near update and the block solve of the
   * overlapped lane solve (16, 32, 64, 128 or 256; kernels/trsv/trsv-lanes-overlap-source.ts, issue 18 item 4): per
   * block one dispatch updates only block k's rows by x_{k−1}, the next solves block k; beside both, their other
   * workgroups update the rows after block k by x_{k−1} (the far update off the chains; `MODPREC_TRSV_DD_OVERLAP_SPLIT`,
   * default 50, is the percentage of those rows beside the near update). With 16 the lane solve's bits;
   * otherwise shorter chains, other bits, the same trsvBound. Taken before `ddLanesFused`. On since session 19 (H100,
   * 2026-11-27, L N 8192 in 256-row blocks: dd 3.60 ms against the lane solve's 3.94, f64 2.94 against 3.27); 64 lanes
   * by default since session 21, with 32 far lanes (`ddOverlapFarLanes`; H100, 2026-11-28: dd 3.50 → 2.82 ms, f64 3.09 →
   * 2.43 against 16 and 16); `MODPREC_TRSV_DD_OVERLAP_LANES=0` turns it off, `=16` etc. picks the lanes.
   */
  readonly ddOverlapLanes: number;
  /**
   * With `ddOverlapLanes` on: the lanes a row of its far update (16, 32, 64, 128 or 256; issue 18 item 4). The far
   * update runs in both dispatches of every block, so its chain (bs/F multiply-adds and log2 F additions a thread)
   * bounds each dispatch as much as the head's: with F = 16 and 256-row blocks it is the longest chain of the step
   * whatever `ddOverlapLanes` is (docs/double-double.md, "Where the overlapped solve's time goes"). 16 (the lane update's
   * layout: the lane solve's bits with `ddOverlapLanes` 16) keeps the session-19 order; others are another order, the
   * same trsvBound. 32 by default since session 21 (H100, 2026-11-28, L N 8192, 64 near lanes: far 32 lanes dd 2.82 ms,
   * 64 lanes 3.20, 16 lanes with 16 near 3.50; f64 2.43 / 2.58 / 3.09); `MODPREC_TRSV_DD_OVERLAP_FAR_LANES=16` etc.
   * picks the lanes.
   */
  readonly ddOverlapFarLanes: number;
  /**
   * Transposed solves (op(A) = Aᵀ, A in one binding) read a column-major copy of op(A)'s block triangle, made once per
   * matrix and kept beside the block inverses (kernels/trsv/trsv-transposed-copy.ts), and run the N solve's walker on
   * it: a warp's tile loads are then 32 adjacent rows of one stored column, and a step's helpers together read one
   * contiguous block column — as in L N N — instead of 64 pieces of 256 bytes per tile, a stored block row (lda apart)
   * per step. The same values in the N solve's order: x has the bits of the transposed solve with row lanes and quad
   * rows off (another order than the default's row lanes, same trsvBound); N solves are unchanged. Costs a copy of
   * n_p² elements of A's reads (fp32 or the arithmetic's words). Off by default: on the H100 (2026-11-27) it took L T N
   * n = 8192 from 1.06× to 1.01× of L N N in f32 (ff: 1.00× either way) for a copy as large as A kept per matrix
   * (`MODPREC_TRSV_TRANSPOSED_COPY=1` turns it on).
   */
  readonly transposedCopy: boolean;
  /**
   * Double-double TRSV's overlapped lane solve (`ddOverlapLanes` on, A read as dd or f64): the near and far updates sum a
   * lane's terms op(A)_ij·x̃_j in GEMV's partial-pass form (`gemvVariant`: the long window), x̃_j = x_j rounded to a dd
   * pair once by the block solve (kernels/trsv/trsv-window-update-source.ts, its bound there and in docs/double-double.md).
   * Within the same trsvBound; other bits. On by default since its H100 timing (2026-11-28, TRSV L N n = 8192 on dd
   * storage: 2.896 → 2.674 ms; `MODPREC_GPU_DD_TRSV_WINDOW=0` turns it off; bench/gpu/dd-gpu.ts
   * `--trsv-forms=overlap64f32w`: a trailing w).
   */
  readonly ddTrsvWindow: boolean;
}

// On by default since the H100 timings of 2026-11-27 (docs/performance.md, gpu-h19-goals): `MODPREC_TRSV_…=0` turns
// one off; MODPREC_TRSV_ROW_LANES=1 / 0 forces the row lanes on / off for every variant.
let trsvCurrent: TrsvKernelSwitches = {
  columnInverse: !envOff('MODPREC_TRSV_COLUMN_INVERSE'),
  rowLanes: envOn('MODPREC_TRSV_ROW_LANES') ? true : envOff('MODPREC_TRSV_ROW_LANES') ? false : 'transposed',
  lazyTiles: !envOff('MODPREC_TRSV_LAZY_TILES'),
  earlyPoll: !envOff('MODPREC_TRSV_EARLY_POLL'),
  ahead: !envOff('MODPREC_TRSV_AHEAD'),
  treeQuarters: envOn('MODPREC_TRSV_TREE_QUARTERS'),
  quadRows: !envOff('MODPREC_TRSV_QUAD_ROWS'),
  ddLanes: !envOff('MODPREC_TRSV_DD_LANES'),
  ddLanesFused: envOn('MODPREC_TRSV_DD_LANES_FUSED'),
  ddOverlapLanes: envOverlapLanes('MODPREC_TRSV_DD_OVERLAP_LANES', 64),
  ddOverlapFarLanes: envOverlapLanes('MODPREC_TRSV_DD_OVERLAP_FAR_LANES', 32) || 32,
  transposedCopy: envOn('MODPREC_TRSV_TRANSPOSED_COPY'),
  ddTrsvWindow: !envOff('MODPREC_GPU_DD_TRSV_WINDOW'),
};

/** A lane count from the environment: 16, 32, 64, 128 or 256; 0 turns it off; `fallback` otherwise. */
function envOverlapLanes(name: string, fallback: number): number {
  const v = Number((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name] ?? fallback);
  return v === 0 ? 0 : [16, 32, 64, 128, 256].includes(v) ? v : fallback;
}

/**
 * The current TRSV switches (read once from `MODPREC_TRSV_COLUMN_INVERSE`, `…_ROW_LANES`, `…_LAZY_TILES`,
 * `…_EARLY_POLL`, `…_AHEAD`, `…_QUAD_ROWS`, `…_DD_LANES` (=0 turns one off), `…_TREE_QUARTERS`, `…_TRANSPOSED_COPY`, `…_DD_LANES_FUSED` (=1 turns one on), `MODPREC_GPU_DD_TRSV_WINDOW` (=0 turns it off), `…_DD_OVERLAP_LANES`, `…_DD_OVERLAP_FAR_LANES` (lane counts)).
 * @returns them
 */
export function trsvKernelSwitches(): TrsvKernelSwitches {
  return trsvCurrent;
}

/**
 * Sets some TRSV switches (sources and plans are kept per setting, so the next solve uses the new form).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 * @throws {@link modprec!ModprecError} `INVALID_OPTION` naming `ddOverlapLanes` for a lane count other than 0, 16, 32, 64, 128 or 256,
 *   naming `ddOverlapFarLanes` for one other than 16, 32, 64, 128 or 256
 */
export function setTrsvKernelSwitches(changes: Partial<TrsvKernelSwitches>): TrsvKernelSwitches {
  const W = changes.ddOverlapLanes;
  if (W !== undefined && W !== 0 && ![16, 32, 64, 128, 256].includes(W)) fail('INVALID_OPTION', 'ddOverlapLanes', 'must be 0 (off), 16, 32, 64, 128 or 256', W);
  const F = changes.ddOverlapFarLanes;
  if (F !== undefined && ![16, 32, 64, 128, 256].includes(F)) fail('INVALID_OPTION', 'ddOverlapFarLanes', 'must be 16, 32, 64, 128 or 256', F);
  const previous = trsvCurrent;
  trsvCurrent = { ...trsvCurrent, ...changes };
  return previous;
}

/**
 * Forms of the RNS rounding on the device (src/formats/rns/gpu/normalize-webgpu.ts, issue 17). Each gives the same
 * words as the form it replaced (only where values are stored or computed changes, not the values).
 */
export interface RnsRoundingSwitches {
  /**
   * The columns pass runs its threads in tiles of 64 elements, limb-major within a tile (thread (tile, j, e mod 64)),
   * and stores column j of element e at unit ⌊e/64⌋·64·limbs + 64·j + e mod 64, instead of j-major over the whole
   * vector (unit j·count + e). The Le(e) threads of an element then run close together, so its accumulator row is
   * read from DRAM once instead of once per column, and the size pass's sweep over an element's columns stays in one
   * 64·limbs·8-byte block. Same words. On by default (`MODPREC_GPU_RNS_TILES=0` turns it off).
   */
  readonly columnTiles: boolean;
  /**
   * The columns pass finds each element's level and quotient K' itself, in the loop over the moduli that it runs
   * anyway (a float conversion and a multiply-add per modulus), instead of reading them from a quotient pass of its
   * own: one pass and one dependent dispatch fewer, and the quotient pass's read of the accumulator (n' of its n + 3
   * words per element) gone. K' is exact in any evaluation order (normalize-webgpu.ts), so the same words. On by
   * default (`MODPREC_GPU_RNS_FUSED_QUOTIENT=0` turns it off).
   */
  readonly columnQuotient: boolean;
  /**
   * Each column is stored as one word, lo_j + hi_(j−1) — the only sum of a column's halves the carry sweep reads (the
   * columns thread multiplies its ξ'_i by limb j − 1 too) — instead of the pair (lo_j, hi_j): half the column
   * buffer's writes and the sweep's reads. The same integers enter the sweep, so the same words. On by default
   * (`MODPREC_GPU_RNS_COLUMN_WORD=0` turns it off).
   */
  readonly columnWord: boolean;
  /**
   * With `columnTiles` and `columnWord` (ignored otherwise): a columns thread makes two adjacent columns from one
   * ξ'_i per modulus — half the threads, modular products and level searches of the pass, one more multiply per
   * modulus. Same integers, so the same words. On by default (`MODPREC_GPU_RNS_COLUMN_PAIRS=0` turns it off).
   */
  readonly columnPairs: boolean;
  /**
   * The passes with one thread per output word of a residue row — the residues of α·x + β·y (WAXPBY, AXPY, SCAL and
   * the α·x of GEMV and ELL SpMV) and the rounding's words pass (every RNS kernel) — make four words a thread: they
   * read the residue rows as 16-byte vectors and store their words as one (four-words.ts), where gpu.js alone emits
   * 4-byte loads and stores. Each word comes from the scalar pass's own statements, so the same words. On by default
   * (`MODPREC_GPU_RNS_VECTOR=0` turns it off).
   */
  readonly vectorWords: boolean;
  /**
   * The columns pass stores nothing for the columns past an element's L_e and for the tile padding past the last
   * element (units no pass reads: the sweeps stop at L_e − 1), instead of zeros: at n = 10^6 and 120 bits ≈ 80 of the
   * ≈ 112 bytes it wrote per element. Same words. On by default (`MODPREC_GPU_RNS_NO_ZERO_COLUMNS=0` turns it off).
   */
  readonly noZeroColumns: boolean;
  /**
   * WAXPBY, AXPY, SCAL and the α·x stages of GEMV and ELL SpMV (and TRSV's row update) write no accumulator: the
   * rounding's columns and words threads form the residues of α·x + β·y they need from x, y, the scalars and the
   * per-element term codes (src/formats/rns/gpu/accumulator-view.ts), with the residue pass's own statements — one
   * pass and ≈ 200 of ≈ 840 bytes of traffic per element fewer at 120 bits. Where w is x or y (AXPY, SCAL in place)
   * the accumulator stays (WebGPU does not bind one buffer for reading and writing in one dispatch). Same words. Off:
   * on the H100 (2026-11-27) WAXPBY 10⁶ at 120 bits took 0.87–0.89 ms with it, 0.67–0.74 without — the columns
   * pass's rebuilt residues cost more than the saved pass (`MODPREC_GPU_RNS_NO_ACCUMULATOR=1` turns it on).
   */
  readonly updateNoAccumulator: boolean;
}

let rnsRoundingCurrent: RnsRoundingSwitches = { columnTiles: !envOff('MODPREC_GPU_RNS_TILES'), columnQuotient: !envOff('MODPREC_GPU_RNS_FUSED_QUOTIENT'), columnWord: !envOff('MODPREC_GPU_RNS_COLUMN_WORD'), columnPairs: !envOff('MODPREC_GPU_RNS_COLUMN_PAIRS'), vectorWords: !envOff('MODPREC_GPU_RNS_VECTOR'), noZeroColumns: !envOff('MODPREC_GPU_RNS_NO_ZERO_COLUMNS'), updateNoAccumulator: envOn('MODPREC_GPU_RNS_NO_ACCUMULATOR') };

/**
 * The current RNS rounding switches.
 * @returns them
 */
export function rnsRoundingSwitches(): RnsRoundingSwitches {
  return rnsRoundingCurrent;
}

/**
 * Sets some RNS rounding switches (programs are kept per setting, so the next call uses the new form).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 */
export function setRnsRoundingSwitches(changes: Partial<RnsRoundingSwitches>): RnsRoundingSwitches {
  const previous = rnsRoundingCurrent;
  rnsRoundingCurrent = { ...rnsRoundingCurrent, ...changes };
  return previous;
}

/**
 * Forms of the output-view stores (src/backends/webgpu/view-output.ts).
 */
export interface ViewStoreSwitches {
  /**
   * Views in a user's format whose part declares a packed layout without `bitCopy` (`hostBytes`: the guide's E5M2),
   * and views of 8-bit elements, are written in place by the kernel — a word a thread where the view's words hold its
   * elements only, else one lane a thread (atomic where view elements may share a word) — instead of a packed twin
   * and a scatter pass (and a gather pass where the old values are read). The same bits either way (the twin's
   * elements are the lanes' values, moved bit for bit). On by default (`MODPREC_GPU_USER_VIEWS_IN_PLACE=0` turns it
   * off: the twin and scatter, as before).
   */
  readonly userViewsInPlace: boolean;
}

let viewStoreCurrent: ViewStoreSwitches = { userViewsInPlace: !envOff('MODPREC_GPU_USER_VIEWS_IN_PLACE') };

/**
 * The current output-view store switches.
 * @returns them
 */
export function viewStoreSwitches(): ViewStoreSwitches {
  return viewStoreCurrent;
}

/**
 * Sets some output-view store switches (programs are kept per form, so the next call uses the new one).
 * @param changes - the switches to change
 * @returns the previous switches (to restore them)
 */
export function setViewStoreSwitches(changes: Partial<ViewStoreSwitches>): ViewStoreSwitches {
  const previous = viewStoreCurrent;
  viewStoreCurrent = { ...viewStoreCurrent, ...changes };
  return previous;
}
