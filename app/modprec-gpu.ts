/**
 * The library's GPU part as the study application sees it: exactly what `import … from 'modprec/gpu'`
 * gives a user (see app/modprec.ts).
 * @module
 */
export * from '../src/backends/webgpu/index.js';
