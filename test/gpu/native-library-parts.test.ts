/**
 * Native WGSL libraries with parts (src/backends/webgpu/gpujs-extensions.ts, `GpuNativeLibrary.parts`): a part's WGSL
 * goes only into the shaders that call one of its functions, always with the library it builds on; a shader that calls
 * only the library gets the library alone. And dd's library (src/formats/dd/dd-gpu-arithmetic.ts): GEMV's long window
 * (dd-gpu-gemv-long-wgsl.ts) and its dd terms (the ddGemvLongDd switch) are two parts, not in the WGSL every dd shader
 * carries. No GPU needed (the WGSL assembly
 * only).
 */
import { describe, expect, it } from 'vitest';
import { appendNativeLibraries, registerNativeLibrary } from '../../src/backends/webgpu/gpujs-extensions.js';
import { ddGpuArithmetic } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { decodedDdFunctionTypes, longDdWindowFunctionTypes, longRowsWindowFunctionTypes, longWindowFunctionTypes } from '../../src/formats/dd/dd-gpu-gemv-long.js';
import type { GpuNativeLibrary } from '../../src/formats/common/gpu-part.js';

/** gpu.js's addFunction, recording the stubs' sources. */
const fakeGpu = (): { addFunction(source: string): void; added: string[] } => {
  const added: string[] = [];
  return { added, addFunction: (source: string) => void added.push(source) };
};

describe('native WGSL libraries with parts', () => {
  it('a part is appended only to shaders that call it, after its base; the base alone where only it is called', () => {
    const gpu = fakeGpu();
    const base = 'fn tstBaseF(a: f32) -> f32 { return a; }';
    const part = 'fn tstPartG(a: f32) -> f32 { return tstBaseF(a) + 1.0; }';
    registerNativeLibrary(gpu, { functions: { tstBaseF: { args: ['Number'], returns: 'Number' } }, wgsl: base, parts: [{ functions: { tstPartG: { args: ['Number'], returns: 'Number' } }, wgsl: part }] });
    // Both libraries' functions are callable from kernel source (a stub each).
    expect(gpu.added.map((s) => s.slice(0, 18))).toEqual(['function tstBaseF(', 'function tstPartG(']);
    const none = 'fn main() { let v = 1.0; }';
    expect(appendNativeLibraries(none)).toBe(none);
    const callsBase = 'fn main() { let v = tstBaseF(1.0); }';
    expect(appendNativeLibraries(callsBase)).toBe(`${callsBase}\n${base}\n`);
    // The part alone in the shader: its base comes too, first.
    const callsPart = 'fn main() { let v = tstPartG(1.0); }';
    expect(appendNativeLibraries(callsPart)).toBe(`${callsPart}\n${base}\n\n${part}\n`);
    const callsBoth = 'fn main() { let v = tstPartG(tstBaseF(1.0)); }';
    expect(appendNativeLibraries(callsBoth)).toBe(`${callsBoth}\n${base}\n\n${part}\n`);
    // Registering again (another runtime) adds nothing twice.
    registerNativeLibrary(fakeGpu(), { functions: { tstBaseF: { args: ['Number'], returns: 'Number' } }, wgsl: base, parts: [{ functions: { tstPartG: { args: ['Number'], returns: 'Number' } }, wgsl: part }] });
    expect(appendNativeLibraries(callsPart)).toBe(`${callsPart}\n${base}\n\n${part}\n`);
  });

  it('dd: GEMV\'s long window (f64·f64 terms), its dd terms (ddGemvLongDd), its shared-limb add (ddGemvRows) and the decoded dd x\'s terms (ddGemvDecodedXDd) are four parts of its library (in no shader but those that call them), the rest one library', async () => {
    const native = ddGpuArithmetic.native!;
    const library: GpuNativeLibrary = typeof native === 'function' ? await native() : native;
    const dg = Object.keys(longWindowFunctionTypes());
    const dgDd = Object.keys(longDdWindowFunctionTypes());
    expect(library.parts?.length).toBe(4);
    const [part, ddPart, rowsPart, decodedPart] = library.parts as [GpuNativeLibrary, GpuNativeLibrary, GpuNativeLibrary, GpuNativeLibrary];
    expect(Object.keys(rowsPart.functions).sort()).toEqual(Object.keys(longRowsWindowFunctionTypes()).sort());
    for (const name of Object.keys(rowsPart.functions)) expect(part.wgsl + ddPart.wgsl + decodedPart.wgsl + library.wgsl).not.toContain(`fn ${name}(`);
    // The decoded dd x's functions (ddGemvDecodedXDd): a fourth part, in no other.
    expect(Object.keys(decodedPart.functions).sort()).toEqual(Object.keys(decodedDdFunctionTypes()).sort());
    for (const name of Object.keys(decodedPart.functions)) {
      expect(decodedPart.wgsl).toContain(`fn ${name}(`);
      expect(part.wgsl + ddPart.wgsl + rowsPart.wgsl + library.wgsl).not.toContain(`fn ${name}(`);
    }
    expect(Object.keys(part.functions).sort()).toEqual([...dg].sort());
    expect(Object.keys(ddPart.functions).sort()).toEqual([...dgDd].sort());
    for (const [names, own, other] of [[dg, part, ddPart], [dgDd, ddPart, part]] as const) {
      for (const name of names) {
        expect(own.wgsl).toContain(`fn ${name}(`);
        expect(other.wgsl).not.toContain(`fn ${name}(`);
        expect(library.wgsl).not.toContain(`fn ${name}(`);
        expect(name in library.functions).toBe(false);
      }
    }
    // The library's own WGSL never calls a part (a dd shader without mpDg… calls compiles without them).
    expect(library.wgsl).not.toMatch(/\bmpDg\w*\(/);
    registerNativeLibrary(fakeGpu(), library);
    const dot = 'fn main() { var a = mpXfAdd(vec4<f32>(), vec4<f32>()); }';
    expect(appendNativeLibraries(dot)).toBe(`${dot}\n${library.wgsl}\n`);
    // GEMV with f64·f64 terms only: the first part (the shader of ddGemvLong as before the dd terms' part).
    const gemv = 'fn main() { var a = mpDgSettle(vec4<f32>(), vec4<f32>(), 0); }';
    expect(appendNativeLibraries(gemv)).toBe(`${gemv}\n${library.wgsl}\n\n${part.wgsl}\n`);
    // GEMV with dd terms: both parts.
    const gemvDd = 'fn main() { var a = mpDgSettle(vec4<f32>(), vec4<f32>(), 0); a = mpDgAddDdDd(a, a, a, 1, 1); }';
    const both = appendNativeLibraries(gemvDd);
    expect(both.startsWith(`${gemvDd}\n${library.wgsl}\n`)).toBe(true);
    expect(both).toContain(part.wgsl);
    expect(both).toContain(ddPart.wgsl);
    expect(both).not.toContain(rowsPart.wgsl);
    expect(both).not.toContain(decodedPart.wgsl);
  });
});
