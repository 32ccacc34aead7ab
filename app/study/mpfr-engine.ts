/**
 * GNU MPFR through gmp-wasm, the CPU reference point of the multiple-precision sweep (seed 000 Table 5,
 * seed 001 Fig. 3 compare against MPFR). gmp-wasm is optional: when it cannot be imported the sweep
 * runs without it and says so.
 * @module
 */

/** The part of an MPFR float the sweep uses (gmp-wasm's declarations do not type chained results). */
interface MpfrFloat {
  add(v: MpfrFloat): MpfrFloat;
  mul(v: MpfrFloat): MpfrFloat;
  toNumber(): number;
}

/** A gmp-wasm context at one precision. */
interface MpfrContext {
  Float(v: number): MpfrFloat;
  destroy(): void;
}

/** A loaded gmp-wasm library. */
export interface MpfrLibrary {
  getContext(options: { precisionBits: number }): MpfrContext;
}

/** Loads gmp-wasm, or resolves undefined when it is not installed. */
export async function loadMpfr(): Promise<MpfrLibrary | undefined> {
  try {
    const name = 'gmp-wasm'; // a variable keeps TypeScript from requiring the package at build time
    const mod = (await import(name)) as { init?: () => Promise<MpfrLibrary>; default?: { init?: () => Promise<MpfrLibrary> } };
    const init = mod.init ?? mod.default?.init;
    return init ? await init() : undefined;
  } catch {
    return undefined;
  }
}

/** A prepared MPFR computation: run it once per call, release the context at the end. */
export interface MpfrRun {
  run(): void;
  /** First output value rounded to a double (so the work cannot be optimised away, and for checks). */
  first(): number;
  dispose(): void;
}

/**
 * y = A·x at `bits` bits for a column-major n×n `a` (α = 1, β = 0): n² multiplications and additions.
 * Every operation allocates a new MPFR number inside the context; they are freed by `dispose`.
 */
export function mpfrGemv(lib: MpfrLibrary, bits: number, n: number, a: Float64Array, x: Float64Array): MpfrRun {
  const ctx = lib.getContext({ precisionBits: bits });
  const A = Array.from(a, (v) => ctx.Float(v));
  const X = Array.from(x, (v) => ctx.Float(v));
  let y0 = NaN;
  return {
    run: () => {
      for (let i = 0; i < n; i++) {
        let s = ctx.Float(0);
        for (let j = 0; j < n; j++) s = s.add(A[i + j * n]!.mul(X[j]!));
        if (i === 0) y0 = s.toNumber();
      }
    },
    first: () => y0,
    dispose: () => ctx.destroy(),
  };
}

/** w = α·x + β·y at `bits` bits: 2n multiplications and n additions. */
export function mpfrWaxpby(lib: MpfrLibrary, bits: number, alpha: number, x: Float64Array, beta: number, y: Float64Array): MpfrRun {
  const ctx = lib.getContext({ precisionBits: bits });
  const X = Array.from(x, (v) => ctx.Float(v));
  const Y = Array.from(y, (v) => ctx.Float(v));
  const a = ctx.Float(alpha);
  const b = ctx.Float(beta);
  let w0 = NaN;
  return {
    run: () => {
      for (let i = 0; i < X.length; i++) {
        const w = a.mul(X[i]!).add(b.mul(Y[i]!));
        if (i === 0) w0 = w.toNumber();
      }
    },
    first: () => w0,
    dispose: () => ctx.destroy(),
  };
}
