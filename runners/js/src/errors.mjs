// The two errors the harness treats specially. Everything else a case throws makes it `failed`.

/** Bad command line or bad spec: exit code 2, the message names the flag or spec field. */
export class UsageError extends Error {
  name = 'UsageError';
}

/**
 * Thrown by a case's setup when it cannot run here: bee-js lacks the API, or the Bee node refuses
 * the operation with a known limitation. The case is recorded as `skipped` with this reason.
 */
export class Skip extends Error {
  name = 'Skip';
  constructor(reason) {
    super(reason);
    this.reason = reason;
  }
}

/** One line describing an error, with the HTTP status and body when bee-js attached them. */
export function describeError(err) {
  if (!(err instanceof Error)) return `non-Error thrown: ${String(err)}`;
  let msg = `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`;
  if (err.status !== undefined) {
    const method = err.method ? String(err.method).toUpperCase() : '';
    const body = bodyText(err.responseBody);
    msg += ` (${[method, err.url, err.status].filter(Boolean).join(' ')}${body ? `: ${body.slice(0, 200)}` : ''})`;
  }
  return msg;
}

function bodyText(body) {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  if (body && Object.getPrototypeOf(body) === Object.prototype) return JSON.stringify(body);
  return ''; // a stream or anything else: not worth reading here
}
