/**
 * RAGFlow reports an uncaught exception as Python's repr() of it (code 100); clients and RAGFlow's own
 * test suite compare these strings, so they are reproduced by Python's rules (API contract, Appendix C).
 */
export function pythonStringRepr(value: string): string {
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let body = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r");
  if (quote === "'") body = body.replace(/'/g, "\\'");
  return `${quote}${body}${quote}`;
}

export function pythonExceptionRepr(className: string, message: string): string {
  return `${className}(${pythonStringRepr(message)})`;
}

/** A failure that RAGFlow reports as a Python exception (code 100, its repr as the message). */
export class PythonException extends Error {
  readonly repr: string;
  constructor(className: string, message: string) {
    super(message);
    this.repr = pythonExceptionRepr(className, message);
  }
}
