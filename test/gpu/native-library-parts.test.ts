/**
 * Native WGSL libraries with parts (src/backends/webgpu/gpujs-extensions.ts, `GpuNativeLibrary.parts`): a part's WGSL
 * goes only into the shaders that call one of its functions, always with the library it builds on; a shader that calls
 * only the library gets the library alone. And dd's library (src/formats/dd/dd-gpu-arithmetic.ts): GEMV's long window
 * (dd-gpu-gemv-long-wgsl.ts) is its part, not in the WGSL every dd shader carries. No GPU needed (the WGSL assembly
 * only).
 */
import { describe, expect, it } from 'vitest';
import { appendNativeLibraries, registerNativeLibrary } from '../../src/backends/webgpu/gpujs-extensions.js';
import { ddGpuArithmetic } from '../../src/formats/dd/dd-gpu-arithmetic.js';
import { longWindowFunctionTypes } from '../../src/formats/dd/dd-gpu-gemv-long.js';
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

  it('dd: GEMV\'s long window is a part of its library (in no shader but those that call mpDg…), the rest one library', async () => {
    const native = ddGpuArithmetic.native!;
    const library: GpuNativeLibrary = typeof native === 'function' ? await native() : native;
    const dg = Object.keys(longWindowFunctionTypes());
    expect(library.parts?.length).toBe(1);
    const part = library.parts![0]!;
    expect(Object.keys(part.functions).sort()).toEqual([...dg].sort());
    for (const name of dg) {
      expect(part.wgsl).toContain(`fn ${name}(`);
      expect(library.wgsl).not.toContain(`fn ${name}(`);
      expect(name in library.functions).toBe(false);
    }
    // The library's own WGSL never calls the part (a dd shader without mpDg… calls compiles without it).
    expect(library.wgsl).not.toMatch(/\bmpDg\w*\(/);
    registerNativeLibrary(fakeGpu(), library);
    const dot = 'fn main() { var a = mpXfAdd(vec4<f32>(), vec4<f32>()); }';
    expect(appendNativeLibraries(dot)).toBe(`${dot}\n${library.wgsl}\n`);
    const gemv = 'fn main() { var a = mpDgSettle(vec4<f32>(), vec4<f32>(), 0); }';
    expect(appendNativeLibraries(gemv)).toBe(`${gemv}\n${library.wgsl}\n\n${part.wgsl}\n`);
  });
});
