/**
 * Names that go into generated source as variables (helpers, registers): a JavaScript identifier that strict-mode code
 * may bind and that hides nothing the code reads. A reserved word (`for`, `class`) or `eval` / `arguments` passed the
 * identifier pattern and made the kernel's compilation throw a SyntaxError at the first call; a helper called `Math`
 * replaced `Math` inside the kernel.
 * @module
 */

const RESERVED = new Set([
  'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do', 'else', 'enum',
  'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof',
  'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super', 'switch',
  'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield', 'eval', 'arguments',
  // Globals that generated code reads: a helper under one of these names would replace it inside the kernel.
  'undefined', 'NaN', 'Infinity', 'Math', 'Number', 'Object', 'Array', 'BigInt', 'Error', 'isFinite', 'isNaN',
  'Float64Array', 'Float32Array', 'Int32Array', 'Int16Array', 'Int8Array', 'Uint32Array', 'Uint16Array', 'Uint8Array',
]);

/** Whether `name` can be bound as a variable in strict-mode generated code without hiding a global it reads. */
export function isBindableIdentifier(name: unknown): name is string {
  return typeof name === 'string' && /^[A-Za-z_$][\w$]*$/.test(name) && !RESERVED.has(name);
}
