import { describe, expect, it } from 'vitest';
import { fourWordsSource, fourWordsThreads } from '../../src/formats/rns/gpu/four-words.js';
import { applyVectorOutput } from '../../src/backends/webgpu/gpujs-extensions.js';

// The string rewrites behind RnsRoundingSwitches.vectorWords; the words they give are compared with the scalar
// passes' on the device in rounding-forms.test.ts.
describe('four words a thread (source rewrites)', () => {
  const scalar = 'function (A, count) {\nconst t = this.thread.x;\nif (t < count) { return A[t]; }\nconst u = t - count;\nreturn mpFloat(u);\n}';

  it('each early return sets the word and leaves the one-pass loop; the last only sets it; A is loaded as a vector', () => {
    const src = fourWordsSource(scalar, [{ name: 'aq', array: 'A', last: 'count >> 2' }]);
    expect(src.startsWith('function (A, count, AQuad) {\nconst q = this.thread.x;')).toBe(true);
    expect(src).toContain('const aq = mpQuad(AQuad[mpImin(q, count >> 2)]);');
    expect(src).toContain('const t = 4 * q + c;');
    expect(src).toContain('if (t < count) { { rv = A[t]; break; } }');
    expect(src).toContain('rv = mpFloat(u);\n');
    expect(src.match(/\breturn\b/g)).toHaveLength(1); // only the vector result
    expect(src).toContain('return [v0, v1, v2, v3];');
  });

  it('refuses a body that breaks or continues, or that does not start from a thread-per-word source', () => {
    expect(() => fourWordsSource(scalar.replace('const u', 'for (let i = 0; i < 2; i++) { break; }\nconst u'), [])).toThrow(/break or continue/);
    expect(() => fourWordsSource(scalar.replace('const t = this.thread.x;', 'const t = 2 * this.thread.x;'), [])).toThrow(/thread-per-word/);
  });

  it('covers every word with ⌈words/4⌉ threads', () => {
    for (const words of [1, 3, 4, 5, 34 * 7 + 1]) {
      expect(4 * fourWordsThreads(words)).toBeGreaterThanOrEqual(words);
      expect(4 * (fourWordsThreads(words) - 1)).toBeLessThan(words);
    }
  });

  it('a vector output binds result as vec4 and stores the four components at once; anything else is refused', () => {
    const wgsl = '@group(0) @binding(2) var<storage, read_write> result : array<f32>;\nfn main() {\nlet kernelResultVec : vec4<f32> = vec4<f32>(1.0, 2.0, 3.0, 4.0);\nresult[data_index * 4 + 0] = kernelResultVec.x;\nresult[data_index * 4 + 1] = kernelResultVec.y;\nresult[data_index * 4 + 2] = kernelResultVec.z;\nresult[data_index * 4 + 3] = kernelResultVec.w;\nreturn;\n}';
    const out = applyVectorOutput(wgsl);
    expect(out).toContain('var<storage, read_write> result : array<vec4<f32>>;');
    expect(out).toContain('result[data_index] = kernelResultVec;');
    expect(out).not.toMatch(/result\[data_index \* 4/);
    expect(() => applyVectorOutput(wgsl.replace(/result\[data_index \* 4 \+ 3\][^\n]*\n/, ''))).toThrow(/4-component/);
  });
});
