/**
 * Runtime extensions of gpu.js's JavaScript → WGSL translator (gpu.js 2.24.1, pinned).
 *
 * gpu.js's WebGPU backend reads every array argument as `array<f32>` and has no native functions, so on
 * its own it cannot reinterpret a 32-bit word, call WGSL's `fma`, divide integers, or keep an integer in
 * a local variable (an integer-typed initialiser is declared `f32`, which is exact only below 2^24 —
 * the cause of the wrong naive GEMV at n = 8192). These hooks add exactly that, and nothing else:
 *
 * - intrinsics, callable from kernel source like ordinary functions:
 *   `mpBits(x)` → `bitcast<i32>(x)` (the raw word of an f32), `mpFloat(i)` → `bitcast<f32>(i)`,
 *   `mpFma(a, b, c)` → `fma(a, b, c)`, `mpIdiv(a, b)` / `mpImod(a, b)` → i32 `/` and `%`,
 *   `mpNoStore()` (a statement) → `return;` (the thread stores nothing), `mpHalfPair(w)` → `unpack2x16float(w)`, `mpToInt(x)` → `i32(x)` (an integral f32 to i32), `mpI32(i)` → `i32(i)` (keeps a counter started from a literal integer i32), `mpKeep(x)` → `x` with its bits XOR a uniform that is always 0 (an optimisation barrier), `mpOne()`, `mpNegZero()` → uniforms that are always 1.0 and −0.0 (opaque operands: `mpFma(mpOne(), a, b)`, `mpFma(a, b, mpNegZero())` are a + b and a·b rounded once, pinned like mpKeep's);
 * - `mpToFloat(i)` → `f32(i)`; `mpClz(x)` → leading zeros; `mpResidue64(h, l, m)` → |h·2^32 + l|_m; `mpMulModR(a, b, m, 1/m)`
 *   (float quotient estimate); `mpMulMod(a, b, m)` → |a·b|_m computed in u32 (a, b < m ≤ 2^16; a WGSL helper appended to the shader);
 * - integer locals: `const k = <Integer expression>` is declared `var user_k : i32`;
 * - vector loads: an array argument whose name ends in `Quad` (or `Pair`) is bound as `array<vec4<f32>>`
 *   (`array<vec2<f32>>`), and `mpQuad(XQuad[i])` (`mpPair(XPair[i])`) loads its i-th vector in one
 *   16-byte (8-byte) access. Bind it to the same buffer as the scalar argument `X`: the scalar words are
 *   then read four (two) at a time — gpu.js itself only emits 4-byte loads, which on the H100 cap a
 *   DOT at ~86 % of the vec4 read bandwidth (hand-written WGSL: 2.58 vs 2.99 TB/s).
 *
 * - workgroups (issue 19): a program that sets `ProgramSpec.workgroup` gets its workgroup size, the ids
 *   `mpLocalId()` / `mpGroupId()`, workgroup arrays (`mpShared(id, k)`, `mpSharedSet(id, k, v)`, the i32
 *   `mpSharedInt…`, and `mpSharedIntUniform(id, k)` = `workgroupUniformLoad`, a value that may steer barriers) and
 *   `mpBarrier()` = `workgroupBarrier()`; it runs whole workgroups (gpu.js's early return for threads past the
 *   output would make every barrier non-uniform, which WGSL rejects);
 * - atomics: an array argument named `…Atomic` is bound read-write as `array<atomic<u32>>` and used only through
 *   `mpAtomicAdd(XAtomic[i], v)`, `mpAtomicLoad(XAtomic[i])`, `mpAtomicStore(XAtomic[i], v)` (i32 bit patterns).
 *   gpu.js builds such a program against a stub (its layout has every array read-only) and program.ts builds the
 *   real one. WebGPU promises no forward progress between workgroups: a kernel may wait on another workgroup's
 *   atomic only boundedly, with a fallback that does not wait.
 *
 * - output stores: vector (a 4-component result as one 16-byte store), strided (`OutOff + t·OutInc`), sub-word lane (8 or 16 bits), and dd pair stores (hi words at `t·OutDdS`, lo words
 *   `OutDdL` further: a dd-split output's two blocks through one binding), set per program (program.ts).
 *
 * `setGpuKernelDebug(true)` prints the final WGSL of every program, these rewrites included.
 *
 * They are applied by wrapping two methods of `WGSLFunctionNode.prototype` and `assembleWGSL` of
 * `WebGPUKernel.prototype` once per process (no file in node_modules is changed, so no install step is
 * needed). The intrinsics are also registered with each
 * `GPU` instance through `addFunction`, which gives gpu.js their argument and return types; the stand-in
 * bodies it emits are never called.
 *
 * @module
 */

/** Minimal structural view of the acorn AST nodes the hooks look at. */
interface AstNode {
  type: string;
  name?: string;
  object?: AstNode;
  property?: AstNode;
  callee?: AstNode;
  arguments?: AstNode[];
  declarations?: { id: AstNode; init: AstNode | null }[];
}

/** The parts of gpu.js's `WGSLFunctionNode` the hooks use. */
interface TranslatorNode {
  getType(node: AstNode): string | null;
  astGeneric(node: AstNode, out: string[]): string[];
  castValueToInteger(node: AstNode, out: string[]): string[];
  castValueToFloat(node: AstNode, out: string[]): string[];
  castLiteralToInteger(node: AstNode, out: string[]): string[];
  castLiteralToFloat(node: AstNode, out: string[]): string[];
  getDeclaration(node: AstNode): { valueType?: string } | null;
  pushState(state: string): void;
  popState(state: string): void;
}

type GpuType = 'Number' | 'Integer' | 'Array(2)' | 'Array(4)';

interface Intrinsic {
  readonly args: readonly GpuType[];
  readonly returns: GpuType;
  /** WGSL text around the comma-separated arguments. */
  readonly open: string;
  readonly separator: string;
  readonly close: string;
  /** A body gpu.js can translate, used only so it knows the function's types. */
  readonly standIn: string;
}

/** The intrinsics, by the name kernel source calls them with. */
export const INTRINSICS: Readonly<Record<string, Intrinsic>> = {
  mpBits: { args: ['Number'], returns: 'Integer', open: 'bitcast<i32>(', separator: ', ', close: ')', standIn: 'function mpBits(x) { return 0; }' },
  mpFloat: { args: ['Integer'], returns: 'Number', open: 'bitcast<f32>(', separator: ', ', close: ')', standIn: 'function mpFloat(i) { return 0.0; }' },
  mpFma: { args: ['Number', 'Number', 'Number'], returns: 'Number', open: 'fma(', separator: ', ', close: ')', standIn: 'function mpFma(a, b, c) { return a * b + c; }' },
  // An identity the shader compiler cannot see through (the bits XOR a uniform that is always 0): keeps
  // value-changing rewrites such as (a + b) − a → b or reassociation away from error-free transformations.
  mpKeep: { args: ['Number'], returns: 'Number', open: 'bitcast<f32>(bitcast<u32>(', separator: ', ', close: ') ^ (params.outputY - 1u))', standIn: 'function mpKeep(x) { return x; }' },
  // Uniforms that are always 1.0 and −0.0 (from outputY, always 1), which no compiler can fold: fma(mpOne(), a, b) is
  // a + b and fma(a, b, mpNegZero()) is a·b, each rounded once and opaque like mpKeep's, as one floating-point operation.
  mpOne: { args: [], returns: 'Number', open: 'bitcast<f32>(params.outputY * 1065353216u', separator: '', close: ')', standIn: 'function mpOne() { return 1.0; }' },
  mpNegZero: { args: [], returns: 'Number', open: 'bitcast<f32>(params.outputY << 31u', separator: '', close: ')', standIn: 'function mpNegZero() { return 0.0; }' },
  // An integer-typed copy: `let l = mpI32(0)` keeps a loop counter i32 (gpu.js may otherwise make it f32).
  mpI32: { args: ['Integer'], returns: 'Integer', open: 'i32(', separator: ', ', close: ')', standIn: 'function mpI32(i) { return 0; }' },
  // Both binary16 halves of a word as binary32 (exact, one instruction on GPUs with f16 conversion).
  mpHalfPair: { args: ['Integer'], returns: 'Array(2)', open: 'unpack2x16float(bitcast<u32>(', separator: ', ', close: '))', standIn: 'function mpHalfPair(w) { return [0.0, 0.0]; }' },
  // f32 → i32, truncating toward zero (callers pass integral values below 2^31 in magnitude).
  mpToInt: { args: ['Number'], returns: 'Integer', open: 'i32(', separator: ', ', close: ')', standIn: 'function mpToInt(x) { return 0; }' },
  mpIdiv: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' / ', close: ')', standIn: 'function mpIdiv(a, b) { return 0; }' },
  mpImod: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' % ', close: ')', standIn: 'function mpImod(a, b) { return 0; }' },
  mpImax: { args: ['Integer', 'Integer'], returns: 'Integer', open: 'max(', separator: ', ', close: ')', standIn: 'function mpImax(a, b) { return 0; }' },
  mpImin: { args: ['Integer', 'Integer'], returns: 'Integer', open: 'min(', separator: ', ', close: ')', standIn: 'function mpImin(a, b) { return 0; }' },
  mpAnd: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' & ', close: ')', standIn: 'function mpAnd(a, b) { return 0; }' },
  mpXor: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' ^ ', close: ')', standIn: 'function mpXor(a, b) { return 0; }' },
  // Workgroup-level ids (programs with a workgroup size, see ProgramSpec.workgroupSize).
  mpLocalId: { args: [], returns: 'Integer', open: 'i32(mp_lid', separator: '', close: ')', standIn: 'function mpLocalId() { return 0; }' },
  mpGroupId: { args: [], returns: 'Integer', open: 'i32(mp_wid.x + mp_wid.y * mp_nwg.x', separator: '', close: ')', standIn: 'function mpGroupId() { return 0; }' },
  // A workgroup barrier (control and workgroup memory); callers keep it in uniform control flow (WGSL checks).
  mpBarrier: { args: [], returns: 'Integer', open: 'workgroupBarrier(', separator: '', close: ')', standIn: 'function mpBarrier() { return 0; }' },
  // A workgroup barrier that also orders the workgroup's storage accesses (WGSL storageBarrier: workgroup scope only — it
  // makes one invocation's storage writes visible to the others of its workgroup, never to other workgroups).
  mpStorageBarrier: { args: [], returns: 'Integer', open: 'storageBarrier(', separator: '', close: ')', standIn: 'function mpStorageBarrier() { return 0; }' },
  // As a statement: the thread ends here and stores nothing (WGSL `return;` in the entry point) — for output units no
  // later pass reads. Not in workgroup programs (their barriers need every thread).
  mpNoStore: { args: [], returns: 'Integer', open: 'return', separator: '', close: '', standIn: 'function mpNoStore() { return 0; }' },
  // i32 → f32 by value (rounded to nearest): the RNS kernels' fractions ξ_i·(1/m_i).
  mpToFloat: { args: ['Integer'], returns: 'Number', open: 'f32(', separator: ', ', close: ')', standIn: 'function mpToFloat(i) { return 0.0; }' },
  // |a·b|_m for a, b < m < 2^16: the product is exact in u32 and u32 % is exact.
  mpMulMod: { args: ['Integer', 'Integer', 'Integer'], returns: 'Integer', open: 'mp_mulmod(', separator: ', ', close: ')', standIn: 'function mpMulMod(a, b, m) { return 0; }' },
  // |a·b|_m for a, b < 2^16, 2^15 < m < 2^16, given r = fl(1/m): a float quotient estimate and one correction (no division); the RNS kernels' hot loops.
  mpMulModR: { args: ['Integer', 'Integer', 'Integer', 'Number'], returns: 'Integer', open: 'mp_mulmod_r(', separator: ', ', close: ')', standIn: 'function mpMulModR(a, b, m, r) { return 0; }' },
  // |h·2^32 + l|_m for the words of a 64-bit integer (h < 2^21, l any u32 pattern), m < 2^16: every step in u32.
  mpResidue64: { args: ['Integer', 'Integer', 'Integer'], returns: 'Integer', open: 'mp_residue64(', separator: ', ', close: ')', standIn: 'function mpResidue64(h, l, m) { return 0; }' },
  // Leading zero bits of the word as u32 (32 for 0).
  mpClz: { args: ['Integer'], returns: 'Integer', open: 'i32(countLeadingZeros(bitcast<u32>(', separator: ', ', close: ')))', standIn: 'function mpClz(x) { return 0; }' },
};

/** WGSL helpers some intrinsics call, appended to a shader that uses them. */
const WGSL_HELPERS: Readonly<Record<string, string>> = {
  mp_mulmod: 'fn mp_mulmod(a : i32, b : i32, m : i32) -> i32 { return bitcast<i32>((bitcast<u32>(a) * bitcast<u32>(b)) % bitcast<u32>(m)); }',
  // Float quotient estimate, one correction (proof in src/formats/rns/gpu/device-set.ts; needs 2^15 < m < 2^16).
  mp_mulmod_r: 'fn mp_mulmod_r(a : i32, b : i32, m : i32, rm : f32) -> i32 { let x = bitcast<u32>(a) * bitcast<u32>(b); let q = u32(f32(x) * rm); var r = bitcast<i32>(x - q * bitcast<u32>(m)); if (r < 0) { r = r + m; } if (r >= m) { r = r - m; } return r; }',
  // (h mod m)·(2^32 mod m) < 2^32 and its remainder plus (l mod m) < 2^17: no step wraps.
  mp_residue64: 'fn mp_residue64(h : i32, l : i32, m : i32) -> i32 { let um = bitcast<u32>(m); let r16 = 65536u % um; let r32 = (r16 * r16) % um; return bitcast<i32>(((bitcast<u32>(h) % um) * r32 % um + bitcast<u32>(l) % um) % um); }',
};

/**
 * Intrinsics whose first argument names a target instead of being a value: a workgroup array by its literal
 * number (`mpShared(0, k)` reads `mp_shared0[k]`), or an element of an atomic array argument
 * (`mpAtomicAdd(WAtomic[i], v)`; arguments named …Atomic are bound read-write as `array<atomic<u32>>`).
 */
interface TargetIntrinsic {
  readonly target: 'shared' | 'atomic';
  /** Types of the arguments after the target. */
  readonly args: readonly GpuType[];
  readonly returns: GpuType;
  /** WGSL around the target (`$` is replaced by the target reference) and the value arguments. */
  readonly open: string;
  readonly close: string;
}

/** Target intrinsics by name (see {@link TargetIntrinsic}). */
export const TARGET_INTRINSICS: Readonly<Record<string, TargetIntrinsic>> = {
  mpShared: { target: 'shared', args: ['Integer'], returns: 'Number', open: '$', close: '' },
  mpSharedInt: { target: 'shared', args: ['Integer'], returns: 'Integer', open: '$', close: '' },
  // A statement: the element set to the value.
  mpSharedSet: { target: 'shared', args: ['Integer', 'Number'], returns: 'Number', open: '$ = ', close: '' },
  mpSharedIntSet: { target: 'shared', args: ['Integer', 'Integer'], returns: 'Integer', open: '$ = ', close: '' },
  // workgroupUniformLoad: a barrier, then the value every invocation sees (uniform: it may steer barriers).
  mpSharedIntUniform: { target: 'shared', args: ['Integer'], returns: 'Integer', open: 'workgroupUniformLoad(&$', close: ')' },
  mpAtomicAdd: { target: 'atomic', args: ['Integer'], returns: 'Integer', open: 'bitcast<i32>(atomicAdd(&$, bitcast<u32>(', close: ')))' },
  mpAtomicLoad: { target: 'atomic', args: [], returns: 'Integer', open: 'bitcast<i32>(atomicLoad(&$', close: '))' },
  mpAtomicStore: { target: 'atomic', args: ['Integer'], returns: 'Integer', open: 'atomicStore(&$, bitcast<u32>(', close: '))' },
};

/** Emits a target intrinsic call (see {@link TARGET_INTRINSICS}). */
function emitTargetCall(node: TranslatorNode, name: string, ast: AstNode, out: string[]): void {
  const spec = TARGET_INTRINSICS[name]!;
  const [target, ...values] = ast.arguments ?? [];
  if (!target || values.length !== spec.args.length) throw new Error(`${name} takes ${spec.args.length + 1} arguments`);
  const parts: string[] = [];
  if (spec.target === 'shared') {
    const id = (target as AstNode & { value?: unknown }).value;
    if (target.type !== 'Literal' || typeof id !== 'number' || !Number.isInteger(id)) throw new Error(`${name}: the first argument must be a workgroup array's literal number`);
    // The index is the first value argument.
    parts.push(`mp_shared${id}[u32(`);
    emitAs(node, values[0]!, 'Integer', parts);
    parts.push(')]');
    values.shift();
  } else {
    const array = target.type === 'MemberExpression' && target.object?.type === 'Identifier' ? target.object.name : undefined;
    if (array === undefined || !array.endsWith('Atomic') || !target.property) throw new Error(`${name} takes an element XAtomic[index] of an array argument named …Atomic first`);
    parts.push(`user_${array}[u32(`);
    emitAs(node, target.property, 'Integer', parts);
    parts.push(')]');
  }
  const [open, close] = [spec.open.replace('$', parts.join('')), spec.close];
  out.push(open);
  const types = spec.target === 'shared' ? spec.args.slice(1) : spec.args;
  values.forEach((arg, k) => {
    if (k > 0) out.push(', ');
    emitAs(node, arg, types[k]!, out);
  });
  out.push(close);
}

/** A registered library: its WGSL, its callable names, and the library its WGSL builds on (appended with it). */
interface NativeEntry {
  readonly wgsl: string;
  readonly names: readonly string[];
  readonly base?: NativeEntry;
}

/** Native WGSL functions by name (registered from arithmetic parts), and the libraries that define them. */
const NATIVE = new Map<string, { readonly args: readonly GpuType[]; readonly library: NativeEntry }>();
const LIBRARIES: NativeEntry[] = [];

/** A library of native functions as registered: its own functions and WGSL, and its parts (see GpuNativeLibrary). */
interface NativeLibrarySpec {
  readonly functions: Readonly<Record<string, { readonly args: readonly GpuType[]; readonly returns: GpuType }>>;
  readonly wgsl: string;
  readonly parts?: readonly NativeLibrarySpec[];
}

/**
 * Registers a library of native WGSL functions with a gpu.js instance: calls of its functions in kernel source
 * become WGSL calls, and its WGSL is appended to each shader that calls one (idempotent per library text). Each of its
 * `parts` is registered the same way, appended (after the library it builds on) only to shaders that call one of the
 * part's functions.
 * @param gpu - the gpu.js instance
 * @param library - functions (name → types), the WGSL defining them, and parts built on it
 */
export function registerNativeLibrary(gpu: { addFunction(source: string, settings: object): unknown }, library: NativeLibrarySpec): void {
  registerLibrary(gpu, library, undefined);
}

/** registerNativeLibrary for a library built on `base` (a part) or on none. */
function registerLibrary(gpu: { addFunction(source: string, settings: object): unknown }, library: NativeLibrarySpec, base: NativeEntry | undefined): void {
  let entry = LIBRARIES.find((l) => l.wgsl === library.wgsl);
  if (!entry) {
    entry = { wgsl: library.wgsl, names: Object.keys(library.functions), base };
    LIBRARIES.push(entry);
  }
  for (const [name, f] of Object.entries(library.functions)) {
    NATIVE.set(name, { args: f.args, library: entry });
    const params = f.args.map((_, k) => `a${k}`);
    const zero = f.returns === 'Array(4)' ? '[0.0, 0.0, 0.0, 0.0]' : f.returns === 'Array(2)' ? '[0.0, 0.0]' : f.returns === 'Integer' ? '0' : '0.0';
    const argumentTypes: Record<string, GpuType> = {};
    params.forEach((p, k) => {
      argumentTypes[p] = f.args[k]!;
    });
    gpu.addFunction(`function ${name}(${params.join(', ')}) { return ${zero}; }`, { argumentTypes, returnType: f.returns });
  }
  for (const part of library.parts ?? []) registerLibrary(gpu, part, entry);
}

/**
 * Appends the native libraries a shader calls, each with the libraries it builds on, in registration order (shaders
 * that call none are returned unchanged).
 */
export function appendNativeLibraries(wgsl: string): string {
  const needed = new Set<NativeEntry>();
  for (const library of LIBRARIES) {
    if (!library.names.some((n) => new RegExp(`\\b${n}\\(`).test(wgsl))) continue;
    for (let l: NativeEntry | undefined = library; l; l = l.base) needed.add(l);
  }
  let out = wgsl;
  for (const library of LIBRARIES) if (needed.has(library)) out += `\n${library.wgsl}\n`;
  return out;
}

function emitAs(node: TranslatorNode, arg: AstNode, target: GpuType, out: string[]): void {
  const type = node.getType(arg);
  if (target === 'Integer') {
    if (type === 'Integer') {
      node.pushState('building-integer');
      out.push('i32(');
      node.astGeneric(arg, out);
      out.push(')');
      node.popState('building-integer');
    } else if (type === 'LiteralInteger') node.castLiteralToInteger(arg, out);
    else node.castValueToInteger(arg, out);
  } else if (type === 'Integer') node.castValueToFloat(arg, out);
  else if (type === 'LiteralInteger') node.castLiteralToFloat(arg, out);
  else node.astGeneric(arg, out);
}

/** Vector-load intrinsics: name → (array-name suffix, WGSL vector type). */
const VECTOR_LOADS: Readonly<Record<string, { suffix: 'Quad' | 'Pair'; returns: GpuType }>> = {
  mpQuad: { suffix: 'Quad', returns: 'Array(4)' },
  mpPair: { suffix: 'Pair', returns: 'Array(2)' },
};

/** `mpQuad(XQuad[i])` → `user_XQuad[u32(i)]`: the argument must index a `…Quad` (`…Pair`) array directly. */
function emitVectorLoad(node: TranslatorNode, name: string, ast: AstNode, out: string[]): void {
  const { suffix } = VECTOR_LOADS[name]!;
  const arg = ast.arguments?.[0];
  const array = arg?.type === 'MemberExpression' && arg.object?.type === 'Identifier' ? arg.object.name : undefined;
  if (ast.arguments?.length !== 1 || array === undefined || !array.endsWith(suffix) || !arg!.property) {
    throw new Error(`${name} takes one argument of the form X${suffix}[index] (an array argument named …${suffix})`);
  }
  out.push(`user_${array}[u32(`);
  emitAs(node, arg!.property, 'Integer', out);
  out.push(')]');
}

/**
 * Rebinds `…Quad` / `…Pair` array arguments as vec4 / vec2 arrays in WGSL that gpu.js assembled, and drops
 * their scalar accessor functions (which would no longer type-check; vector arguments are read only
 * through {@link VECTOR_LOADS}).
 * @param wgsl - the shader gpu.js assembled
 * @returns the shader with vector bindings
 */
export function rebindVectorArrays(wgsl: string): string {
  for (const [name, helper] of Object.entries(WGSL_HELPERS)) if (wgsl.includes(`${name}(`)) wgsl = `${wgsl}\n${helper}\n`;
  return wgsl
    .replace(/(var<storage, read> user_\w+Quad : )array<f32>;/g, '$1array<vec4<f32>>;')
    .replace(/(var<storage, read> user_\w+Pair : )array<f32>;/g, '$1array<vec2<f32>>;')
    .replace(/fn get_user_\w+(?:Quad|Pair)\(z : i32, y : i32, x : i32\) -> f32 \{\n[^\n]*\n\}\n?/g, '');
}

/** What a program asks of the WGSL assembly beyond gpu.js's defaults (set on the kernel before it is built). */
export interface WorkgroupSettings {
  /** Invocations per workgroup (1-D); the program then runs whole workgroups only (no per-thread guard). */
  readonly workgroupSize: number;
  /** Workgroup arrays `mp_shared0`, `mp_shared1`, …: element type and length. */
  readonly workgroupArrays: readonly { readonly type: 'f32' | 'i32'; readonly length: number }[];
}

/** A WGSL module whose only entry point touches no binding: what gpu.js builds where the real one needs another layout. */
export const STUB_WGSL = '@compute @workgroup_size(1)\nfn main() {}\n';

/**
 * Applies {@link WorkgroupSettings} to WGSL that gpu.js assembled: the workgroup size, the workgroup-level
 * builtins (`mp_lid`, `mp_wid`, `mp_nwg`), the workgroup arrays, and no early return for threads past the
 * output (it would make every later barrier non-uniform; such programs dispatch whole workgroups).
 * @param wgsl - the shader gpu.js assembled
 * @param settings - the program's workgroup settings
 * @returns the rewritten shader
 */
export function applyWorkgroupSettings(wgsl: string, settings: WorkgroupSettings): string {
  const arrays = settings.workgroupArrays.map((a, k) => `var<workgroup> mp_shared${k} : array<${a.type}, ${a.length}>;`).join('\n');
  return wgsl
    .replace(/@compute @workgroup_size\(64, 1, 1\)\nfn main\(@builtin\(global_invocation_id\) gid : vec3<u32>\)/, `${arrays}\n@compute @workgroup_size(${settings.workgroupSize}, 1, 1)\nfn main(@builtin(global_invocation_id) gid : vec3<u32>, @builtin(local_invocation_index) mp_lid : u32, @builtin(workgroup_id) mp_wid : vec3<u32>, @builtin(num_workgroups) mp_nwg : vec3<u32>)`)
    .replace('  if (flat_index >= params.outputX) { return; }\n', '');
}

/**
 * Makes every output store of WGSL that gpu.js assembled go to unit `OutOff + t·OutInc` instead of unit t (a unit is
 * the thread's result: one word, or the `components` words of a vector result), OutOff and OutInc being the
 * program's Integer arguments of those names: the kernel writes a strided view of its output buffer in place.
 * @param wgsl - the shader gpu.js assembled
 * @returns the rewritten shader
 */
export function applyStridedOutput(wgsl: string): string {
  if (!/params\.user_OutOff\b/.test(wgsl) || !/params\.user_OutInc\b/.test(wgsl)) throw new Error('internal: a strided-output program declares the Integer arguments OutOff and OutInc');
  return wgsl.replace(/\bresult\[data_index\b/g, 'result[(params.user_OutOff + data_index * params.user_OutInc)');
}

/**
 * Makes every output store of a strided-output program (see {@link applyStridedOutput}) a store of one sub-word lane
 * (16 bits with 2 lanes a word, 8 bits with 4): thread t's result word (its element's bits in lane 0, the low bits)
 * goes to span element `OutOff + t·OutInc` — OutOff and OutInc counted in elements from the binding's first word — and
 * only that element's lane of its word changes, every other lane kept bit for bit. With `atomic` (two threads may write
 * lanes of one word: |OutInc| below the lanes a word holds) the lane is cleared and set by atomicAnd and atomicOr, which
 * commute with the other threads' on their own lanes, so no write is lost; the output binding is then
 * `array<atomic<u32>>` ({@link applyAtomicResult}). Without it (one view element a word) the word is read back and
 * stored.
 * @param wgsl - the shader gpu.js assembled
 * @param lanes - elements per word
 * @param atomic - whether two threads may write lanes of one word
 * @returns the rewritten shader
 */
export function applyLaneOutput(wgsl: string, lanes: 2 | 4, atomic = false): string {
  if (!/params\.user_OutOff\b/.test(wgsl) || !/params\.user_OutInc\b/.test(wgsl)) throw new Error('internal: a lane-output program declares the Integer arguments OutOff and OutInc');
  const bits = 32 / lanes;
  const mask = `0x${(2 ** bits - 1).toString(16)}u`;
  const store = [
    'fn mp_store_lane(v : f32) {',
    '  let p = params.user_OutOff + i32(threadGid.x) * params.user_OutInc;',
    `  let w = p >> ${Math.log2(lanes)}u;`,
    `  let s = u32(p & ${lanes - 1}) * ${bits}u;`,
    `  let keep = ~(${mask} << s);`,
    `  let lane = (bitcast<u32>(v) & ${mask}) << s;`,
    ...(atomic
      ? ['  atomicAnd(&result[w], keep);', '  atomicOr(&result[w], lane);']
      : ['  result[w] = bitcast<f32>((bitcast<u32>(result[w]) & keep) | lane);']),
    '}',
  ].join('\n');
  return wgsl.replace(/\bresult\[data_index\] = ([^;]*);/g, 'mp_store_lane($1);').replace(/\n@compute /, `\n${store}\n@compute `);
}

/**
 * Makes every output store of a 4-component program a dd pair store: component c of thread t's result (the words of
 * its pair's hi for c < 2, of its lo for c ≥ 2) goes to word u·`OutDdS` + c, or u·`OutDdS` + `OutDdL` + c − 2, of the
 * output binding — u the unit gpu.js (or {@link applyStridedOutput}) stores it at — instead of u·4 + c, OutDdS and
 * OutDdL being the program's Integer arguments of those names: 4 and 2 give gpu.js's own stores (interleaved dd), 2 and
 * a dd-split buffer's lo-block offset write its hi and lo blocks in place (dd-split-bindings.ts).
 * @param wgsl - the shader gpu.js assembled
 * @returns the rewritten shader
 */
export function applyPairOutput(wgsl: string): string {
  if (!/params\.user_OutDdS\b/.test(wgsl) || !/params\.user_OutDdL\b/.test(wgsl)) throw new Error('internal: a pair-output program declares the Integer arguments OutDdS and OutDdL');
  const store = /\bresult\[(data_index|\(params\.user_OutOff \+ data_index \* params\.user_OutInc\)) \* 4 \+ ([0-3])\] = /g;
  if (!store.test(wgsl)) throw new Error('internal: a pair-output program stores no 4-component result');
  return wgsl.replace(store, (_, unit: string, c: string) => (Number(c) < 2
    ? `result[${unit} * params.user_OutDdS + ${c}] = `
    : `result[${unit} * params.user_OutDdS + params.user_OutDdL + ${Number(c) - 2}] = `));
}

/**
 * Makes the output binding `array<vec4<f32>>` and thread t's four result words one 16-byte store at unit t (gpu.js
 * stores them as four 4-byte words): a 4-component program with no other output option. The output binding must then
 * hold whole units for every thread (program.ts checks it at dispatch: a vector index past the binding would be clamped
 * onto the last unit, not dropped).
 * @param wgsl - the shader gpu.js assembled
 * @returns the rewritten shader
 */
export function applyVectorOutput(wgsl: string): string {
  const declaration = /var<storage, read_write> result : array<f32>;/;
  const stores = /result\[data_index \* 4 \+ 0\] = (\w+)\.x;\nresult\[data_index \* 4 \+ 1\] = \1\.y;\nresult\[data_index \* 4 \+ 2\] = \1\.z;\nresult\[data_index \* 4 \+ 3\] = \1\.w;/g;
  if (!declaration.test(wgsl) || !stores.test(wgsl)) throw new Error('internal: a vector-output program stores no 4-component result');
  const out = wgsl.replace(declaration, 'var<storage, read_write> result : array<vec4<f32>>;').replace(stores, 'result[data_index] = $1;');
  if (/\bresult\[data_index \* 4/.test(out)) throw new Error('internal: a vector-output program has a scalar store left');
  return out;
}

/**
 * Declares the output binding `array<atomic<u32>>` (the same storage binding to the pipeline) for an atomic lane
 * store ({@link applyLaneOutput}), and makes the reads of inputs from it ({@link applyInputsFromOutput}) atomic loads:
 * WGSL reaches an atomic only through the atomic built-ins.
 * @param wgsl - the shader after {@link applyLaneOutput} and {@link applyInputsFromOutput}
 * @returns the rewritten shader
 */
export function applyAtomicResult(wgsl: string): string {
  const declaration = /var<storage, read_write> result : array<f32>;/;
  if (!declaration.test(wgsl)) throw new Error('internal: no output binding to make atomic');
  const out = wgsl.replace(declaration, 'var<storage, read_write> result : array<atomic<u32>>;')
    .replace(/(fn get_user_\w+\(z : i32, y : i32, x : i32\) -> f32 \{\n\s*return )result\[([^\]\n]*)\];/g, '$1bitcast<f32>(atomicLoad(&result[$2]));');
  // Every access left must be one of the atomics above.
  if (/(?<!&)\bresult\[/.test(out)) throw new Error('internal: an atomic output binding is accessed without an atomic');
  return out;
}

/**
 * Makes the array arguments `names` read the output binding (`result`) instead of their own: an input that is the
 * output view itself (each thread reads only the elements it writes) is then read in place, without a copy — WebGPU
 * binds no buffer read-only and writable in one dispatch, and Dawn refuses aliasing writable bindings. The input's
 * offset uniform counts from the output binding's first element; its own binding is then any other buffer (unread).
 * @param wgsl - the shader gpu.js assembled
 * @param names - the arguments' names
 * @returns the rewritten shader
 */
export function applyInputsFromOutput(wgsl: string, names: readonly string[]): string {
  let out = wgsl;
  for (const name of names) {
    const read = new RegExp(`(fn get_user_${name}\\(z : i32, y : i32, x : i32\\) -> f32 \\{\\n\\s*return )user_${name}\\[`);
    if (!read.test(out)) throw new Error(`internal: no read function of the array argument ${name}`);
    out = out.replace(read, '$1result[');
  }
  return out;
}

/** Rebinds arguments named …Atomic as read-write `array<atomic<u32>>` (read only through the atomic intrinsics). */
export function rebindAtomicArrays(wgsl: string): string {
  return wgsl
    .replace(/var<storage, read> (user_\w+Atomic) : array<f32>;/g, 'var<storage, read_write> $1 : array<atomic<u32>>;')
    .replace(/fn get_user_\w+Atomic\(z : i32, y : i32, x : i32\) -> f32 \{\n[^\n]*\n\}\n?/g, '');
}

/** Whether WGSL declares atomic array arguments (their bindings need a read-write layout gpu.js does not make). */
export function hasAtomicArrays(wgsl: string): boolean {
  return /var<storage, read_write> user_\w+Atomic : array<atomic<u32>>;/.test(wgsl);
}

let installed = false;

/**
 * Installs the translator hooks on gpu.js's WGSL function node (idempotent).
 * @param wgslFunctionNode - the `WGSLFunctionNode` class exported by gpu.js
 */
export function installTranslatorExtensions(wgslFunctionNode: unknown, webGpuKernel: unknown): void {
  if (installed) return;
  const kernelProto = (webGpuKernel as { prototype: Record<string, unknown> }).prototype;
  const originalAssemble = kernelProto.assembleWGSL as (this: unknown) => string;
  kernelProto.assembleWGSL = function assembleWGSL(this: { mpWorkgroup?: WorkgroupSettings; mpWgsl?: string; mpStridedOutput?: boolean; mpLaneOutput?: { lanes: 2 | 4; atomic: boolean }; mpReadsOutput?: readonly string[]; mpPairOutput?: boolean; mpVectorOutput?: boolean }): string {
    let wgsl = rebindAtomicArrays(appendNativeLibraries(rebindVectorArrays(originalAssemble.call(this))));
    if (this.mpLaneOutput) wgsl = applyLaneOutput(wgsl, this.mpLaneOutput.lanes, this.mpLaneOutput.atomic);
    else if (this.mpStridedOutput) wgsl = applyStridedOutput(wgsl);
    if (this.mpPairOutput) wgsl = applyPairOutput(wgsl);
    if (this.mpVectorOutput) wgsl = applyVectorOutput(wgsl);
    if (this.mpReadsOutput?.length) wgsl = applyInputsFromOutput(wgsl, this.mpReadsOutput);
    if (this.mpLaneOutput && this.mpLaneOutput.atomic) wgsl = applyAtomicResult(wgsl);
    if (this.mpWorkgroup) wgsl = applyWorkgroupSettings(wgsl, this.mpWorkgroup);
    if (!hasAtomicArrays(wgsl)) return wgsl;
    // gpu.js would build it against read-only bindings; it builds a stub and modprec the real one (program.ts).
    this.mpWgsl = wgsl;
    return STUB_WGSL;
  };
  const proto = (wgslFunctionNode as { prototype: Record<string, unknown> }).prototype;
  const originalCall = proto.astCallExpression as (this: TranslatorNode, ast: AstNode, out: string[]) => string[];
  const originalDeclaration = proto.astVariableDeclaration as (this: TranslatorNode, ast: AstNode, out: string[]) => string[];
  proto.astCallExpression = function astCallExpression(this: TranslatorNode, ast: AstNode, out: string[]): string[] {
    const name = ast.callee?.type === 'Identifier' ? ast.callee.name : undefined;
    if (name !== undefined && name in TARGET_INTRINSICS) {
      emitTargetCall(this, name, ast, out);
      return out;
    }
    if (name !== undefined && name in VECTOR_LOADS) {
      emitVectorLoad(this, name, ast, out);
      return out;
    }
    const native = name !== undefined ? NATIVE.get(name) : undefined;
    if (native) {
      const args = ast.arguments ?? [];
      if (args.length !== native.args.length) throw new Error(`${name} takes ${native.args.length} arguments, got ${args.length}`);
      out.push(`${name}(`);
      args.forEach((arg, k) => {
        if (k > 0) out.push(', ');
        emitAs(this, arg, native.args[k]!, out);
      });
      out.push(')');
      return out;
    }
    const intrinsic = name !== undefined ? INTRINSICS[name] : undefined;
    if (!intrinsic) return originalCall.call(this, ast, out);
    const args = ast.arguments ?? [];
    if (args.length !== intrinsic.args.length) {
      throw new Error(`${name} takes ${intrinsic.args.length} arguments, got ${args.length}`);
    }
    // An Integer-typed call inside an integer expression must not be wrapped again; the state tells.
    out.push(intrinsic.open);
    args.forEach((arg, k) => {
      if (k > 0) out.push(intrinsic.separator);
      emitAs(this, arg, intrinsic.args[k]!, out);
    });
    out.push(intrinsic.close);
    return out;
  };
  proto.astVariableDeclaration = function astVariableDeclaration(this: TranslatorNode, ast: AstNode, out: string[]): string[] {
    const declarations = ast.declarations ?? [];
    const allInteger = declarations.length > 0 && declarations.every((d) => d.init !== null && this.getType(d.init) === 'Integer');
    if (!allInteger) return originalDeclaration.call(this, ast, out);
    // gpu.js would declare these f32 (exact only below 2^24); keep them i32.
    for (const d of declarations) {
      const info = this.getDeclaration(d.id);
      if (info) info.valueType = 'Integer';
      out.push(`var user_${d.id.name} : i32 = i32(`);
      this.pushState('building-integer');
      this.astGeneric(d.init!, out);
      this.popState('building-integer');
      out.push(');');
    }
    return out;
  };
  installed = true;
}

/** The `addFunction` calls that tell a gpu.js instance the intrinsics' types. */
export function registerIntrinsics(gpu: { addFunction(source: string, settings: object): unknown }): void {
  for (const intrinsic of Object.values(INTRINSICS)) {
    const names = intrinsic.standIn.slice(intrinsic.standIn.indexOf('(') + 1, intrinsic.standIn.indexOf(')')).split(',').map((s) => s.trim()).filter(Boolean);
    const argumentTypes: Record<string, GpuType> = {};
    names.forEach((n, k) => {
      argumentTypes[n] = intrinsic.args[k]!;
    });
    gpu.addFunction(intrinsic.standIn, { argumentTypes, returnType: intrinsic.returns });
  }
  for (const [name, t] of Object.entries(TARGET_INTRINSICS)) {
    // The target is typed Integer for gpu.js (a literal array number, or an element of an array argument).
    const names = ['target', ...t.args.map((_, k) => `v${k}`)];
    const argumentTypes: Record<string, string> = { target: t.target === 'shared' ? 'Integer' : 'Number' };
    t.args.forEach((type, k) => {
      argumentTypes[`v${k}`] = type;
    });
    gpu.addFunction(`function ${name}(${names.join(', ')}) { return ${t.returns === 'Integer' ? '0' : '0.0'}; }`, { argumentTypes, returnType: t.returns });
  }
  for (const [name, load] of Object.entries(VECTOR_LOADS)) {
    const zeros = load.returns === 'Array(4)' ? '[0.0, 0.0, 0.0, 0.0]' : '[0.0, 0.0]';
    gpu.addFunction(`function ${name}(v) { return ${zeros}; }`, { argumentTypes: { v: 'Number' }, returnType: load.returns });
  }
}
