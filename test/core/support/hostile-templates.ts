/**
 * One valid call of each public function that test/core/public-hostile-arguments.test.ts varies: small operands,
 * CPU backends only. Each `args` makes fresh operands, since the kernels write to them.
 */
import * as m from '../../../src/index.js';
import { createThreadPool } from '../../../src/threads/index.js';
import * as testing from '../../../src/testing/index.js';
import fc from 'fast-check';
import type { Template } from './hostile-sweep.js';

const f = m.formats;
const v2 = () => m.vector([1, 2]);
const v3 = () => m.vector([1, 2, 3]);
const a22 = () => m.matrix(2, 2, (i, j) => (i === j ? 4 : 1));
const dense2 = () => m.denseMatrix({ rows: 2, cols: 2, ld: 2, data: new Float64Array([4, 1, 1, 3]) });
const coo2 = () => m.cooMatrix({ rows: 2, cols: 2, rowIndex: new Int32Array([0, 1]), colIndex: new Int32Array([0, 1]), values: new Float64Array([2, 3]) });
const csr2 = () => m.csrMatrix({ rows: 2, cols: 2, rowPtr: new Int32Array([0, 1, 2]), colIndex: new Int32Array([0, 1]), values: new Float64Array([2, 3]) });
const ell2 = () => m.csrToEll(csr2());
const dd = () => new Float64Array(2);
const rns = () => m.rnsFromDouble(m.rnsModuliSet(106), 1.5);
const q = (n: bigint, d = 1n) => testing.rational(n, d);
/** A one-thread pool (no workers: the calling thread runs the call), for `options.threads`. */
const pool = await createThreadPool(1);
/** A name no earlier call registered (registrations outlive the call). */
let names = 0;
const fresh = (base: string): string => `${base}-${names++}`;
const shared2 = () => m.vector([1, 2], { shared: true });

/** A template from a name, a call and its valid arguments. */
const t = (name: string, call: (...a: any[]) => unknown, args: () => unknown[], extra = 0, more: Partial<Template> = {}): Template => ({ name, call, args, extra, ...more });
/** A method: argument 0 is the receiver, kept. */
const method = (name: string, call: (...a: any[]) => unknown, args: () => unknown[]): Template => t(name, call, args, 0, { keep: [0] });
/** A function whose argument 0 is a moduli set (recognised by identity, so replaced whole only). */
/** A law check: a descriptor that is well-formed but wrong fails its law, which is documented as a plain Error. */
const law = (name: string, call: (...a: any[]) => unknown, args: () => unknown[]): Template => t(name, call, args, 0, { documented: isLawFailure });
const isLawFailure = (e: unknown): boolean => e instanceof Error && /: law "[^"]+" failed/.test(e.message) && !/invalid argument/.test(e.message);
const onSet = (name: string, call: (...a: any[]) => unknown, args: () => unknown[]): Template => t(name, call, args, 0, { whole: [0] });

export const TEMPLATES: readonly Template[] = [
  // core
  t('span', m.span, () => [0, 1]),
  t('range', m.range, () => [m.rowMajor({ size: [2, 2] })]),
  t('vector of values', m.vector, () => [[1, 2], { storage: f.f32, arithmetic: f.f64 }]),
  t('vector of a length and fill', m.vector, () => [2, (i: number) => i, { storage: 'f16' }]),
  t('matrix', m.matrix, () => [2, 3, (i: number, j: number) => i - j, { layout: 'col-major', storage: 'bf16' }]),
  t('toArray', m.toArray, () => [v2()]),
  method('Range#get', (r: m.Range<2>, i: number, j: number) => r.get(i, j), () => [a22(), 1, 0]),
  method('Range#set', (r: m.Range<2>, i: number, j: number, x: number) => r.set(i, j, x), () => [a22(), 1, 0, 7]),
  method('Range#sub', (r: m.Range<2>, s: unknown, k: unknown) => r.sub(s as m.SpanLike, k as m.SpanLike), () => [a22(), { begin: 0, end: 1 }, 1]),
  method('Range#length', (r: m.Range<2>, d: number) => r.length(d), () => [a22(), 1]),
  method('Range#readScale', (r: m.Range<1>, i: number) => r.readScale(i), () => [m.vector([1, 2], { storage: f.i8 }), 1]),
  method('Range#writeScale', (r: m.Range<1>, i: number, s: number) => r.writeScale(i, s), () => [m.range(m.scaledReducedRowMajor<1>({ size: [2], storage: 'i8', scaleMask: [true] })), 1, 0.5]),
  // accessors
  t('rowMajor', m.rowMajor, () => [{ size: [2, 3], stride: 4, offset: 1, storage: 'f32', arithmetic: 'f64', data: new Float32Array(9) }]),
  t('reducedRowMajor', m.reducedRowMajor, () => [{ size: [2, 2], storage: f.f16, arithmetic: f.f32 }]),
  t('colMajor', m.colMajor, () => [{ size: [2, 3], stride: 2 }]),
  t('reducedColMajor', m.reducedColMajor, () => [{ size: [3], storage: 'bf16' }]),
  t('blockColMajor', m.blockColMajor, () => [{ size: [2, 2, 2] }]),
  t('strided', m.strided, () => [{ size: [2, 2], strides: [1, 2] }]),
  t('scaledReducedRowMajor', m.scaledReducedRowMajor, () => [{ size: [2, 2], storage: 'i8', scaleMask: [true, false], scale: new Float64Array([1, 2]) }]),
  t('scaledReducedColMajor', m.scaledReducedColMajor, () => [{ size: [2, 2], storage: 'i16', scaleMask: [false, true] }]),
  t('fitScales', m.fitScales, () => [m.scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false] }), (i: number, j: number) => i + j]),
  t('fitScale', m.fitScale, () => [3, 127]),
  t('Accessor', (init: unknown) => new m.Accessor(init as never), () => [{ ...m.rowMajor({ size: [2] }) }]),
  // formats
  t('findFormat', m.findFormat, () => ['f16']),
  t('asStorage', m.asStorage, () => ['f32', 'x']),
  t('asArithmetic', m.asArithmetic, () => [f.f64, 'x']),
  t('registerOfKind', m.registerOfKind, () => ['dd', 'a']),
  t('numberRegister', m.numberRegister, () => ['a']),
  t('declareStorageRegister', m.declareStorageRegister, () => [m.f32Storage, m.numberRegister('a')]),
  t('binaryFormatLimits', m.binaryFormatLimits, () => [{ significandBits: 4, minExponent: -6, maxExponent: 7 }]),
  t('checkBinaryFormatParameters', m.checkBinaryFormatParameters, () => ['p', { significandBits: 4, minExponent: -6, maxExponent: 7 }]),
  t('createBinaryRounder', m.createBinaryRounder, () => [{ significandBits: 4, minExponent: -6, maxExponent: 7 }]),
  t('nextUp', m.nextUp, () => [1]),
  t('ulp', m.ulp, () => [1]),
  t('roundToF16', m.roundToF16, () => [0.1]),
  t('numberFromF16Bits', m.numberFromF16Bits, () => [0x3c00]),
  t('f32FromBits', m.f32FromBits, () => [0x3f800000]),
  t('roundToInt8', m.roundToInt8, () => [3.5]),
  t('roundToOddDd', m.roundToOddDd, () => [1, 2 ** -60]),
  // kernels
  t('dot', m.dot, () => [v2(), v2(), { arithmetic: 'f64', accumulation: 'pairwise', backend: 'js' }]),
  t('dot into', m.dot, () => [v2(), v2(), { into: m.vector(1), backend: 'wasm' }]),
  t('dotBound', m.dotBound, () => [v2(), v2(), { arithmetic: f.f32 }]),
  t('axpy', m.axpy, () => [2, v2(), v2(), { backend: 'js' }]),
  t('axpyBound', m.axpyBound, () => [2, v2(), v2()], 1),
  t('waxpby', m.waxpby, () => [1, v2(), 2, v2(), v2(), { arithmetic: 'dd' }]),
  t('waxpbyBound', m.waxpbyBound, () => [1, v2(), 2, v2(), v2()], 1),
  t('scal', m.scal, () => [3, v2(), { backend: 'js' }]),
  t('scalBound', m.scalBound, () => [3, v2()], 1),
  t('asum', m.asum, () => [v2(), { accumulation: 'kahan' }]),
  t('asumBound', m.asumBound, () => [v2()], 1),
  t('nrm2', m.nrm2, () => [v2(), { backend: 'js' }]),
  t('nrm2Bound', m.nrm2Bound, () => [v2()], 1),
  t('nrm2RelativeBound', m.nrm2RelativeBound, () => [3, { arithmetic: 'f32' }]),
  t('gemv', m.gemv, () => [{ alpha: 1, A: a22(), x: v2(), beta: 0, y: v2(), trans: 'T' }, { backend: 'js' }]),
  t('gemvBound', m.gemvBound, () => [{ alpha: 1, A: a22(), x: v2(), beta: 0, y: v2() }], 1),
  t('trsv', m.trsv, () => [{ A: a22(), x: v2(), uplo: 'L', trans: 'N', diag: 'N' }, { backend: 'js' }]),
  t('trsvBound', m.trsvBound, () => [{ A: a22(), x: v2(), uplo: 'U' }], 1),
  t('ellSpmv', m.ellSpmv, () => [{ alpha: 1, A: ell2(), x: v2(), beta: 1, y: v2() }, { backend: 'js' }]),
  t('ellSpmv of an operand', m.ellSpmv, () => [{ alpha: 1, A: m.ellFromMatrix(ell2()), x: v2(), beta: 0, y: v2() }]),
  t('ellSpmvBound', m.ellSpmvBound, () => [{ alpha: 1, A: ell2(), x: v2(), beta: 0, y: v2() }], 1),
  t('ellOperand', m.ellOperand, () => [m.ellStructure(ell2()), m.matrix(2, 1, () => 1)]),
  t('ellFromMatrix', m.ellFromMatrix, () => [ell2(), 'f32']),
  t('ellWithStorage', m.ellWithStorage, () => [ell2(), { storage: 'i8', arithmetic: 'f64' }]),
  t('readRoundings', m.readRoundings, () => [v2(), m.f32Arithmetic]),
  t('writeRelativeError', m.writeRelativeError, () => [v2(), m.f32Arithmetic]),
  t('writeAbsoluteError', m.writeAbsoluteError, () => [v2(), [1]]),
  t('gamma', m.gamma, () => [3, 2 ** -53]),
  t('resolveAccumulation', m.resolveAccumulation, () => ['dot2']),
  t('cpuBackendOf', m.cpuBackendOf, () => ['dot', { x: v2(), y: v2() }, { backend: 'wasm' }, []]),
  // released at once: a live arena keeps the memory from growing for the later calls
  t('wasmArena', (b: number, o: unknown) => m.wasmArena(b, o as never).release(), () => [1024, { staging: 1024 }]),
  // sparse and I/O
  t('cooMatrix', m.cooMatrix, () => [{ rows: 2, cols: 2, rowIndex: new Int32Array([0, 1]), colIndex: new Int32Array([0, 1]), values: new Float64Array([2, 3]) }]),
  t('csrMatrix', m.csrMatrix, () => [{ rows: 2, cols: 2, rowPtr: new Int32Array([0, 1, 2]), colIndex: new Int32Array([0, 1]), values: new Float64Array([2, 3]) }]),
  t('denseMatrix', m.denseMatrix, () => [{ rows: 2, cols: 2, ld: 2, data: new Float64Array(4) }]),
  t('denseLength', m.denseLength, () => [2, 2, 3]),
  t('ellMatrix', m.ellMatrix, () => [{ rows: 2, cols: 2, width: 1, stride: 2, colIndex: new Int32Array([0, 1]), values: new Float64Array([2, 3]) }]),
  t('ellRowLength', m.ellRowLength, () => [ell2(), 1]),
  t('resolveEllStride', m.resolveEllStride, () => [3, { strideMultiple: 4 }]),
  t('resolveEllWidth', m.resolveEllWidth, () => [3, { width: 4 }]),
  t('csrToEll', m.csrToEll, () => [csr2(), { stride: 4, width: 2 }]),
  t('cooToCsr', m.cooToCsr, () => [coo2()]),
  t('csrToDense', m.csrToDense, () => [csr2(), { ld: 3 }]),
  t('denseToCsr', m.denseToCsr, () => [dense2()]),
  t('expandTriangleCoo', m.expandTriangleCoo, () => [coo2(), 'symmetric']),
  t('isSymmetricCsr', m.isSymmetricCsr, () => [csr2(), 'skew-symmetric']),
  t('csrLowerTriangle', m.csrLowerTriangle, () => [csr2(), { includeDiagonal: false }]),
  t('laplacianEll', m.laplacianEll, () => [[2, 2], { strideMultiple: 2 }]),
  t('laplacianCsr', m.laplacianCsr, () => [[3]]),
  t('randomBandedCsr', m.randomBandedCsr, () => [{ rows: 3, cols: 3, lowerBandwidth: 1, upperBandwidth: 1, density: 0.5, seed: 1, diagonallyDominant: true }]),
  t('seededRandom', m.seededRandom, () => [7]),
  t('readMatrixMarket', m.readMatrixMarket, () => ['%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 2.5\n', { allowNonFinite: false }]),
  t('readMatrixMarketCsr', m.readMatrixMarketCsr, () => ['%%MatrixMarket matrix array real general\n1 1\n2.5\n']),
  t('writeMatrixMarket', m.writeMatrixMarket, () => [coo2(), { format: 'coordinate' }]),
  // LU
  t('luFactor', m.luFactor, () => [dense2(), { backend: 'js' }]),
  t('luSolve', m.luSolve, () => [m.luFactor(dense2()), new Float64Array([1, 2]), { backend: 'wasm' }]),
  t('applyPivots', m.applyPivots, () => [new Int32Array([1, 1]), new Float64Array([1, 2])]),
  t('luFactorF32', m.luFactorF32, () => [dense2()], 1),
  t('luSolveF32', m.luSolveF32, () => [m.luFactorF32(dense2()), new Float64Array([1, 2])], 1),
  // solvers
  t('linearOperator', m.linearOperator, () => [dense2()]),
  t('functionOperator', m.functionOperator, () => [{ size: 2, apply: (x: m.Range<1>, y: m.Range<1>) => m.waxpby(1, x, 0, x, y) }]),
  t('cg', m.cg, () => [dense2(), [1, 2], { tolerance: 1e-10, maxIterations: 5, storage: 'f64', arithmetic: 'f64', x0: [0, 0] }]),
  t('jacobiCg', m.jacobiCg, () => [a22(), v2(), { maxIterations: 4 }]),
  t('bicgstab', m.bicgstab, () => [ell2(), [1, 2], { maxIterations: 4 }]),
  t('gmres', m.gmres, () => [dense2(), [1, 2], { restart: 2, maxIterations: 4, storage: 'f32' }]),
  t('iterativeRefinement', m.iterativeRefinement, () => [dense2(), [1, 2], { factorization: 'f32', residualArithmetic: 'dd', maxIterations: 3, backend: 'js' }]),
  // double-double
  t('twoSum', m.twoSum, () => [dd(), 1, 2 ** -60]),
  t('split', m.split, () => [dd(), 0.1]),
  t('twoProd', m.twoProd, () => [dd(), 0.1, 0.3]),
  t('twoProdError', m.twoProdError, () => [0.1, 0.3, 0.1 * 0.3]),
  t('ddAdd', m.ddAdd, () => [dd(), 1, 0, 2, 0]),
  t('ddMulAdd', m.ddMulAdd, () => [dd(), 1, 0, 2, 0, 3, 0]),
  t('ddDiv', m.ddDiv, () => [dd(), 1, 0, 3, 0]),
  t('ddSqrt', m.ddSqrt, () => [dd(), 2, 0]),
  t('ddCompare', m.ddCompare, () => [1, 0, 2, 0]),
  t('ddNormalize', m.ddNormalize, () => [dd(), 1, 2 ** -60, 'p']),
  t('ddFromNumber', m.ddFromNumber, () => [dd(), 0.5, 'p']),
  t('ddFromDecimal', m.ddFromDecimal, () => [dd(), '0.1', 'p']),
  t('ddToDecimal', m.ddToDecimal, () => [1, 2 ** -60, 20]),
  t('ddFromRational', m.ddFromRational, () => [dd(), 1n, 3n, 'p']),
  t('roundRationalToNumber', m.roundRationalToNumber, () => [1n, 3n]),
  t('ddMulAccumulateErrorBound', m.ddMulAccumulateErrorBound, () => [1, 2]),
  t('DD.from', (x: unknown, p: unknown) => m.DD.from(x as never, p as string), () => [{ hi: 1, lo: 0 }, 'p']),
  t('DD#add', (x: unknown) => m.DD.ONE.add(x as never), () => [0.5]),
  t('DD#toString', (d: unknown) => m.DD.ONE.toString(d as number), () => [10]),
  t('DdSplitArray', (x: unknown) => new m.DdSplitArray(x as never), () => [{ hi: new Float64Array(2), lo: new Float64Array(2) }]),
  // RNS
  t('rnsModuliSet', m.rnsModuliSet, () => [106]),
  t('rnsFormat', m.rnsFormat, () => [150]),
  onSet('rnsZero', m.rnsZero, () => [m.rnsModuliSet(106)]),
  onSet('rnsFromDouble', m.rnsFromDouble, () => [m.rnsModuliSet(106), 0.25]),
  onSet('rnsFromString', m.rnsFromString, () => [m.rnsModuliSet(106), '0.1']),
  t('rnsAdd', m.rnsAdd, () => [rns(), rns(), rns()]),
  t('rnsDiv', m.rnsDiv, () => [rns(), rns(), rns()]),
  t('rnsFromNumber', m.rnsFromNumber, () => [rns(), 3]),
  t('rnsFromDoubleDouble', m.rnsFromDoubleDouble, () => [rns(), 1, 2 ** -60]),
  t('rnsToDoubleDouble', m.rnsToDoubleDouble, () => [rns(), { hi: 0, lo: 0 }], 0, { written: [1] }),
  t('rnsToDecimalString', m.rnsToDecimalString, () => [rns(), 12]),
  t('rnsFromRational', m.rnsFromRational, () => [rns(), 1n, 3n]),
  onSet('RnsArray', (s: unknown, n: unknown) => new m.RnsArray(s as never, n as number), () => [m.rnsModuliSet(106), 2]),
  t('rnsLoad', m.rnsLoad, () => [rns(), new m.RnsArray(m.rnsModuliSet(106), 2), 1]),
  t('rnsStore', m.rnsStore, () => [new m.RnsArray(m.rnsModuliSet(106), 2), 1, rns()]),
  t('rnsConvert', m.rnsConvert, () => [rns(), m.rnsFromDouble(m.rnsModuliSet(212), 0.5)]),
  // threads
  t('createThreadPool', createThreadPool, () => [1, { minWorkPerThread: 4 }]),
  t('dot over a pool', m.dot, () => [shared2(), shared2(), { threads: pool }]),
  t('gemv over a pool', m.gemv, () => [{ alpha: 1, A: m.matrix(2, 2, () => 1, { shared: true }), x: shared2(), beta: 1, y: shared2() }, { threads: pool }]),
  t('axpy over a pool', m.axpy, () => [2, shared2(), shared2(), { threads: pool }]),
  // more of the main entry
  t('vector in shared memory', m.vector, () => [[1, 2], { shared: true, storage: 'f32' }]),
  t('vector in an arena', (v: unknown, o: unknown) => m.vector(v as number[], o as never), () => [[1, 2], { memory: m.wasmArena(256) }]),
  t('csrTranspose', m.csrTranspose, () => [csr2()]),
  t('ellToCsr', m.ellToCsr, () => [ell2()]),
  t('cooToEll', m.cooToEll, () => [coo2(), { width: 2 }]),
  t('csrMaxRowLength', m.csrMaxRowLength, () => [csr2()]),
  t('writeMatrixMarket of a dense matrix', m.writeMatrixMarket, () => [dense2(), { format: 'array', symmetry: 'general', comment: 'x' }]),
  t('ellStructure', m.ellStructure, () => [{ rows: 2, cols: 2, width: 1, stride: 2, colIndex: new Int32Array([0, 1]) }]),
  t('gmres over a function operator', (parts: unknown, b: unknown, o: unknown) => m.gmres(m.functionOperator(parts as never), b as never, o as never), () => [{ size: 2, apply: (x: m.Range<1>, y: m.Range<1>) => m.waxpby(2, x, 0, x, y) }, [1, 2], { restart: 1, maxIterations: 2 }]),
  t('registerAccumulation', m.registerAccumulation, () => [{ ...m.recursiveAccumulation, name: fresh('hostile-accumulation') }]),
  // switched back off whatever the variant did
  t('setKernelDebug', (on: unknown) => { try { m.setKernelDebug(on as boolean); } finally { m.setKernelDebug(false); } }, () => [false]),
  // the storage made is used, so a spec the check let through fails here rather than in a later test
  t('typedArrayStorage', (spec: unknown) => m.range(m.rowMajor<1>({ size: [2], storage: m.typedArrayStorage(spec as never) })).set(0, 300), () => [{
    name: fresh('hostile-u8'), array: Uint8Array, significandBits: 8, unitRoundoff: 0.5, isInteger: true, maxValue: 255,
    encodeHelper: { name: 'u8Encode', fn: (x: number) => Math.min(255, Math.max(0, Math.round(x))) },
  }]),
  t('registerFormat', m.registerFormat, () => [{ name: fresh('hostile-format'), storage: m.f32Storage, arithmetic: m.f64Arithmetic }]),
  t('DD#compare', (d: unknown) => m.DD.ONE.compare(d as never), () => ['0.5']),
  t('DD.from a rational', (x: unknown) => m.DD.from(x as never), () => [{ num: 1n, den: 3n }]),
  t('ddFromNumber into a dd array', m.ddFromNumber, () => [new Float64Array(2), 3]),
  t('rnsFromDecimalString', m.rnsFromDecimalString, () => [rns(), '-1.25e3']),
  t('rnsFma', m.rnsFma, () => [rns(), rns(), rns(), rns()]),
  t('rnsCompare', m.rnsCompare, () => [rns(), rns()]),
  // values that callbacks give back
  t('vector fill returning a value', (v: unknown, o: unknown) => m.vector(2, () => v as number, o as never), () => [1.5, { storage: 'f16' }]),
  t('matrix fill returning a value', (v: unknown) => m.matrix(2, 2, () => v as number, { storage: 'i8' }), () => [3]),
  t('matrix fill returning a value, dd', (v: unknown) => m.matrix(1, 2, () => v as number, { storage: 'dd', arithmetic: 'dd' }), () => [3]),
  t('fitScales values returning a value', (v: unknown) => m.fitScales(m.scaledReducedRowMajor({ size: [2, 2], storage: 'i8', scaleMask: [true, false] }), () => v as number), () => [2]),
  t('Range#set of a dd range', (r: m.Range<1, any>, i: number, v: unknown) => r.set(i, v as number), () => [m.vector([1, 2], { storage: 'dd', arithmetic: 'dd' }), 0, { hi: 1, lo: 2 ** -60 }], 0, { keep: [0] }),
  t('Range#set of an RNS range', (r: m.Range<1, any>, i: number, v: unknown) => r.set(i, v as number), () => [m.vector([1, 2], { storage: 'rns106' }), 1, 0.5], 0, { keep: [0] }),
  t('Range#sub of a vector', (r: m.Range<1>, s: unknown) => r.sub(s as m.SpanLike), () => [v3(), m.span(1, 3)], 0, { keep: [0] }),
  t('cg over a function operator', (parts: unknown, b: unknown) => m.cg(m.functionOperator(parts as never), b as never, { maxIterations: 3 }), () => [{ size: 2, apply: (x: m.Range<1>, y: m.Range<1>) => m.waxpby(3, x, 0, x, y), diagonal: () => new Float64Array([3, 3]) }, [1, 2]]),
  t('jacobiCg diagonal', (d: unknown) => m.jacobiCg(m.functionOperator({ size: 2, apply: (x: m.Range<1>, y: m.Range<1>) => m.waxpby(3, x, 0, x, y), diagonal: () => d as Float64Array }), [1, 2], { maxIterations: 3 }), () => [new Float64Array([3, 3])]),
  t('f16BitsFromNumber', m.f16BitsFromNumber, () => [0.1]),
  t('f32ToBits', m.f32ToBits, () => [0.1]),
  t('bf16BitsFromNumber', m.bf16BitsFromNumber, () => [0.1]),
  t('numberFromBf16Bits', m.numberFromBf16Bits, () => [0x3f80]),
  t('roundToInt32', m.roundToInt32, () => [2 ** 40]),
  t('ddToNumber', m.ddToNumber, () => [1, 2 ** -60]),
  t('ddToRational', m.ddToRational, () => [1, 2 ** -60]),
  t('numberToRational', m.numberToRational, () => [0.1]),
  t('isNormalizedDd', m.isNormalizedDd, () => [1, 2 ** -60]),
  t('rnsToNumber', m.rnsToNumber, () => [rns(), true]),
  t('rnsSqrt', m.rnsSqrt, () => [rns(), rns()]),
  t('evaluateUnsigned', m.evaluateUnsigned, () => [m.rnsModuliSet(106), new Float64Array(m.rnsModuliSet(106).size), 0], 0, { whole: [0] }),
  onSet('rnsStorageFormat', m.rnsStorageFormat, () => [m.rnsModuliSet(212)]),
  t('rnsFormatPair', m.rnsFormatPair, () => [212]),
  t('ellOperand with int8 values', m.ellOperand, () => [m.ellStructure(ell2()), m.matrix(2, 1, () => 1, { storage: 'i8' })]),
  t('gemv with a dd matrix', m.gemv, () => [{ alpha: 1, A: m.matrix(2, 2, () => 1, { storage: 'dd', arithmetic: 'dd' }), x: v2(), beta: 0, y: v2() }]),
  t('trsv with an int8 matrix', m.trsv, () => [{ A: m.matrix(2, 2, (i, j) => (i === j ? 2 : 1), { storage: 'i8' }), x: v2() }]),
  t('dot of RNS vectors', m.dot, () => [m.vector([1, 2], { storage: 'rns106' }), m.vector([1, 2], { storage: 'rns106' }), { arithmetic: 'rns106' }]),
  // modprec/testing
  t('rational', testing.rational, () => [1n, 3n]),
  t('addRational', testing.addRational, () => [q(1n, 3n), q(1n, 6n)]),
  t('divRational', testing.divRational, () => [q(1n, 3n), q(2n)]),
  t('powerOfTwo', testing.powerOfTwo, () => [-3]),
  t('exactOf', testing.exactOf, () => [0.1]),
  t('exactSum', testing.exactSum, () => [[0.1, 0.2]]),
  t('exactDot', testing.exactDot, () => [[0.1, 0.2], [3, 4]]),
  t('exactTriangularSolve', testing.exactTriangularSolve, () => [[[q(2n), q(0n)], [q(1n), q(1n)]], [q(1n), q(2n)], true, false]),
  t('absoluteError', testing.absoluteError, () => [0.1, q(1n, 10n)]),
  t('relativeError', testing.relativeError, () => [0.1, q(1n, 10n)]),
  t('oracleRoundToFormat', testing.oracleRoundToFormat, () => [0.1, { significandBits: 11, minExponent: -14, maxExponent: 15 }]),
  t('roundRationalExact', testing.roundRationalExact, () => [q(1n, 3n), { significandBits: 11, minExponent: -14 }]),
  t('roundRationalToFormat', testing.roundRationalToFormat, () => [q(1n, 3n), { significandBits: 11, minExponent: -14, maxExponent: 15 }]),
  t('roundRationalToInteger', testing.roundRationalToInteger, () => [q(7n, 2n)]),
  t('resolveBinaryFormat', testing.resolveBinaryFormat, () => [{ significandBits: 4, minExponent: -6, maxExponent: 7 }, 'p']),
  t('checkBinaryFormatDescriptor', testing.checkBinaryFormatDescriptor, () => [{ name: 'e4m3', significandBits: 4, minExponent: -6, maxExponent: 7, round: m.createBinaryRounder({ significandBits: 4, minExponent: -6, maxExponent: 7 }) }]),
  t('representableIn', testing.representableIn, () => ['bf16']),
  t('doubleRoundingCasesOf', testing.doubleRoundingCasesOf, () => ['f16', 'f32'], 1),
  t('vectorOf', testing.vectorOf, () => [testing.uniformUnit(), { min: 1, max: 3 }]),
  t('matrixOf', testing.matrixOf, () => [testing.uniformUnit(), { rows: 2, cols: { min: 1, max: 2 } }]),
  t('vectorIn', testing.vectorIn, () => ['f32', 3]),
  t('uniformUnitRounded', testing.uniformUnitRounded, () => [m.roundToF16]),
  law('lawOf', (a: unknown, b: unknown, p: unknown) => testing.lawOf(a as string, b as string, p as never).check({ numRuns: 2 }), () => ['law', 'it holds', fc.property(testing.uniformUnit(), (x) => Number.isFinite(x))]),
  // few runs, whatever the variant (a huge numRuns is a valid call that runs for ever)
  law('checkStorageConversionLaws', (d: unknown) => testing.checkStorageConversionLaws(d as never, { numRuns: 3 }), () => [{ name: 'f16', round: m.roundToF16, significandBits: 11, minExponent: -14, maxExponent: 15 }]),
  law('checkIntegerConversionLaws', (d: unknown) => testing.checkIntegerConversionLaws(d as never, { numRuns: 3 }), () => [{ ...testing.I8_DESCRIPTOR }]),
  law('checkAccessorLaws', (d: unknown) => testing.checkAccessorLaws(d as never, { numRuns: 3 }), () => [{ name: 'f16 row-major', make: () => m.range(m.reducedRowMajor<1>({ size: [3], storage: 'f16' })), round: (x: number) => m.roundToF16(x) }]),
];
