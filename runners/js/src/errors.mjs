// The two errors the harness treats specially. Everything else a case throws makes it `failed`.

/** Bad command line or bad plan: exit code 2, the message names the flag or plan field. */
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

/**
 * One line describing an error. Errors from the Bee node read the same in every runner:
 * "Bee answered 404 to POST /bytes: batch with id not found" (Bee's own message), "no answer in
 * 60 s to /stamps" (the call timeout), "cannot connect to the Bee node (ECONNREFUSED) for
 * /health". Transport errors name the path only: bee-rs's do not carry the method.
 */
export function describeError(err) {
  if (!(err instanceof Error)) return `non-Error thrown: ${String(err)}`;
  // bee-js's BeeResponseError keeps the name "Error": recognise it by its fields.
  if ('responseBody' in err && 'method' in err) return describeBeeError(err);
  return `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`;
}

function describeBeeError(err) {
  const path = `/${String(err.url ?? '').replace(/^(https?:\/\/[^/]+)?\/*/, '')}`;
  const timeout = /^timeout of (\d+)ms exceeded/.exec(err.message);
  if (timeout) return `no answer in ${Number(timeout[1]) / 1000} s to ${path}`;
  if (err.status === undefined) {
    const code = /\b(E[A-Z]+)\b/.exec(err.message)?.[1] ?? err.message;
    return `cannot connect to the Bee node (${code}) for ${path}`;
  }
  const body = beeMessage(err.responseBody);
  return `Bee answered ${err.status} to ${String(err.method ?? 'get').toUpperCase()} ${path}${body ? `: ${body}` : ''}`;
}

/** Bee's own message from an error body ({"code":404,"message":"..."}), else the body's start. */
function beeMessage(body) {
  if (body && typeof body.message === 'string') return body.message;
  let text = '';
  if (typeof body === 'string') text = body;
  else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) text = new TextDecoder().decode(/** @type {Uint8Array} */ (body)); // a view of any kind decodes
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed?.message === 'string') return parsed.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 200);
}
