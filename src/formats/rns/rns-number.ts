/**
 * The RNS number class with working conversion methods: loading `convert-number.ts` installs the operations
 * behind {@link RnsNumber}'s methods (the class itself lives in `rns-number-class.ts`, below every operation).
 * Import the class from here outside `src/rns`.
 * @module
 */
import './convert-number.js';

export { RnsNumber, rnsZero, MAX_EXPONENT, OPEN_AFTER } from './rns-number-class.js';
