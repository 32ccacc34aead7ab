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
 *   `mpHalfPair(w)` → `unpack2x16float(w)`, `mpToInt(x)` → `i32(x)` (an integral f32 to i32), `mpI32(i)` → `i32(i)` (keeps a counter started from a literal integer i32), `mpKeep(x)` → `x` with its bits XOR a uniform that is always 0 (an optimisation barrier);
 * - integer locals: `const k = <Integer expression>` is declared `var user_k : i32`;
 * - vector loads: an array argument whose name ends in `Quad` (or `Pair`) is bound as `array<vec4<f32>>`
 *   (`array<vec2<f32>>`), and `mpQuad(XQuad[i])` (`mpPair(XPair[i])`) loads its i-th vector in one
 *   16-byte (8-byte) access. Bind it to the same buffer as the scalar argument `X`: the scalar words are
 *   then read four (two) at a time — gpu.js itself only emits 4-byte loads, which on the H100 cap a
 *   DOT at ~86 % of the vec4 read bandwidth (hand-written WGSL: 2.58 vs 2.99 TB/s).
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
  // An integer-typed copy: `let l = mpI32(0)` keeps a loop counter i32 (gpu.js may otherwise make it f32).
  mpI32: { args: ['Integer'], returns: 'Integer', open: 'i32(', separator: ', ', close: ')', standIn: 'function mpI32(i) { return 0; }' },
  // Both binary16 halves of a word as binary32 (exact, one instruction on GPUs with f16 conversion).
  mpHalfPair: { args: ['Integer'], returns: 'Array(2)', open: 'unpack2x16float(bitcast<u32>(', separator: ', ', close: '))', standIn: 'function mpHalfPair(w) { return [0.0, 0.0]; }' },
  // f32 → i32, truncating toward zero (callers pass integral values below 2^31 in magnitude).
  mpToInt: { args: ['Number'], returns: 'Integer', open: 'i32(', separator: ', ', close: ')', standIn: 'function mpToInt(x) { return 0; }' },
  mpIdiv: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' / ', close: ')', standIn: 'function mpIdiv(a, b) { return 0; }' },
  mpImod: { args: ['Integer', 'Integer'], returns: 'Integer', open: '(', separator: ' % ', close: ')', standIn: 'function mpImod(a, b) { return 0; }' },
};

/** Native WGSL functions by name (registered from arithmetic parts), and the libraries that define them. */
const NATIVE = new Map<string, { readonly args: readonly GpuType[]; readonly library: { readonly wgsl: string; readonly names: readonly string[] } }>();
const LIBRARIES: { readonly wgsl: string; readonly names: readonly string[] }[] = [];

/**
 * Registers a library of native WGSL functions with a gpu.js instance: calls of its functions in kernel source
 * become WGSL calls, and its WGSL is appended to each shader that calls one (idempotent per library text).
 * @param gpu - the gpu.js instance
 * @param library - functions (name → types) and the WGSL defining them
 */
export function registerNativeLibrary(gpu: { addFunction(source: string, settings: object): unknown }, library: { readonly functions: Readonly<Record<string, { readonly args: readonly GpuType[]; readonly returns: GpuType }>>; readonly wgsl: string }): void {
  let entry = LIBRARIES.find((l) => l.wgsl === library.wgsl);
  if (!entry) {
    entry = { wgsl: library.wgsl, names: Object.keys(library.functions) };
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
}

/** Appends the native libraries a shader calls (shaders that call none are returned unchanged). */
export function appendNativeLibraries(wgsl: string): string {
  let out = wgsl;
  for (const library of LIBRARIES) {
    if (library.names.some((n) => new RegExp(`\\b${n}\\(`).test(wgsl))) out += `\n${library.wgsl}\n`;
  }
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
  return wgsl
    .replace(/(var<storage, read> user_\w+Quad : )array<f32>;/g, '$1array<vec4<f32>>;')
    .replace(/(var<storage, read> user_\w+Pair : )array<f32>;/g, '$1array<vec2<f32>>;')
    .replace(/fn get_user_\w+(?:Quad|Pair)\(z : i32, y : i32, x : i32\) -> f32 \{\n[^\n]*\n\}\n?/g, '');
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
  kernelProto.assembleWGSL = function assembleWGSL(this: unknown): string {
    return appendNativeLibraries(rebindVectorArrays(originalAssemble.call(this)));
  };
  const proto = (wgslFunctionNode as { prototype: Record<string, unknown> }).prototype;
  const originalCall = proto.astCallExpression as (this: TranslatorNode, ast: AstNode, out: string[]) => string[];
  const originalDeclaration = proto.astVariableDeclaration as (this: TranslatorNode, ast: AstNode, out: string[]) => string[];
  proto.astCallExpression = function astCallExpression(this: TranslatorNode, ast: AstNode, out: string[]): string[] {
    const name = ast.callee?.type === 'Identifier' ? ast.callee.name : undefined;
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
    const names = intrinsic.standIn.slice(intrinsic.standIn.indexOf('(') + 1, intrinsic.standIn.indexOf(')')).split(',').map((s) => s.trim());
    const argumentTypes: Record<string, GpuType> = {};
    names.forEach((n, k) => {
      argumentTypes[n] = intrinsic.args[k]!;
    });
    gpu.addFunction(intrinsic.standIn, { argumentTypes, returnType: intrinsic.returns });
  }
  for (const [name, load] of Object.entries(VECTOR_LOADS)) {
    const zeros = load.returns === 'Array(4)' ? '[0.0, 0.0, 0.0, 0.0]' : '[0.0, 0.0]';
    gpu.addFunction(`function ${name}(v) { return ${zeros}; }`, { argumentTypes: { v: 'Number' }, returnType: load.returns });
  }
}
