/**
 * The library as the study application sees it: exactly what `import … from 'modprec'` gives a user.
 * Every file of app/ imports the library through this module (or {@link ./modprec-gpu.ts}) and nothing
 * else of src/, accessors/ or kernels/; test/study/public-api-only.test.ts checks that.
 * @module
 */
export * from '../src/index.js';
