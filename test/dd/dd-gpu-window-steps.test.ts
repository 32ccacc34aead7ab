/**
 * The source a step of windowed dd multiply-adds emits (src/formats/dd/dd-gpu-window.ts), without a GPU: each
 * accumulator's terms in runs of at most WINDOW_TERMS, every term once in its window's add and once in its slow
 * path (after the window's settle, in term order), accumulators with another operand kind left to plain multiply-adds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WINDOW_TERMS, windowSteps } from '../../src/formats/dd/dd-gpu-window.js';

const plain = (acc: string, a: { name: string }, b: { name: string }): string => `${acc} = PLAIN(${acc}, ${a.name}, ${b.name});`;

describe('windowed dd multiply-add steps', () => {
  it('every window term is added once and sent to the slow path once, after its window settles; runs hold ≤ WINDOW_TERMS terms', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('dd', 'f64')), { minLength: 1, maxLength: 20 }), (spec) => {
      const terms = spec.map(([acc, kind], q) => ({ acc: acc === 0 ? 'acc' : `acc${acc}`, a: { kind, name: `a${q}` }, b: { kind: 'dd', name: `b${q}` } }) as const);
      const lines = windowSteps(terms, plain);
      for (const [q, t] of terms.entries()) {
        const add = lines.findIndex((l) => new RegExp(`= mpDwAdd\\w+\\(\\w+, a${q}, b${q},`).test(l));
        const slow = lines.findIndex((l) => l.startsWith(`${t.acc} = mpDwSlow`) && l.includes(`a${q}, b${q},`));
        expect(add).toBeGreaterThanOrEqual(0);
        expect(lines.filter((l) => l.includes(`a${q}, b${q},`)).length).toBe(2);
        const settle = lines.findIndex((l, k) => k > add && l.startsWith(`${t.acc} = mpDwSettle(`));
        expect(settle).toBeGreaterThan(add);
        expect(slow).toBeGreaterThan(settle);
      }
      // One settle per run of ≤ WINDOW_TERMS terms of an accumulator.
      for (const acc of new Set(terms.map((t) => t.acc))) {
        const count = terms.filter((t) => t.acc === acc).length;
        expect(lines.filter((l) => l.startsWith(`${acc} = mpDwSettle(`)).length).toBe(Math.ceil(count / WINDOW_TERMS));
      }
      expect(lines.some((l) => l.includes('PLAIN'))).toBe(false);
    }));
  });

  it('an accumulator with an operand of another kind gets plain multiply-adds, the others windows', () => {
    const lines = windowSteps([
      { acc: 'acc', a: { kind: 'dd', name: 'a0' }, b: { kind: 'dd', name: 'b0' } },
      { acc: 'acc1', a: { kind: 'f32', name: 'a1' }, b: { kind: 'dd', name: 'b1' } },
      { acc: 'acc', a: { kind: 'f64', name: 'a2' }, b: { kind: 'dd', name: 'b2' } },
    ], plain);
    expect(lines.filter((l) => l.includes('PLAIN'))).toEqual(['acc1 = PLAIN(acc1, a1, b1);']);
    expect(lines.filter((l) => l.startsWith('acc = mpDwSettle('))).toHaveLength(1);
    expect(lines.some((l) => l.includes('mpDwAddF64Dd(') && l.includes('a2, b2'))).toBe(true);
  });
});
