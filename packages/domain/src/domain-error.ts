/** Stable, machine-readable codes; they are the API.md error codes the HTTP edge will answer with. */
export type DomainErrorCode = 'split_mismatch' | 'validation_failed';

/** One problem with one field, addressed by its path in the request body (e.g. `split.between[1].percent`). */
export type FieldError = { path: string; message: string };

/**
 * A money rule the input breaks. It carries a stable `code` rather than relying on `instanceof`,
 * because the code is what crosses the process boundary into the problem+json body; `errors` says
 * which fields are at fault so clients can point at them.
 */
export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly errors: FieldError[];

  constructor(code: DomainErrorCode, message: string, errors: FieldError[] = []) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
    this.errors = errors;
  }
}
