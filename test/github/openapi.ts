// Checks HTTP requests (and the test server's own responses) against GitHub's published OpenAPI
// description of api.github.com, from the npm package @octokit/openapi: the route must exist for
// the method, path and query parameters must be declared and match their schemas, required ones
// must be present, and a JSON body must validate against the operation's requestBody schema.
// Schemas are compiled with ajv; `#/components/...` references resolve into the description.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// ajv-formats is CommonJS with a default export.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Obj;
}

interface Operation {
  operationId: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Obj; examples?: Record<string, { $ref?: string; value?: unknown }> }> };
  responses: Record<string, { content?: Record<string, { schema?: Obj; examples?: Record<string, { $ref?: string; value?: unknown }> }> }>;
}

interface Route {
  template: string;
  re: RegExp;
  names: string[];
  item: Record<string, Operation>;
}

export interface RouteMatch {
  template: string;
  method: string;
  op: Operation;
  pathParams: Record<string, string>;
}

export interface CheckedRequest {
  method: string;
  /** Path and query as sent, e.g. /repos/o/r/issues/1/comments?per_page=100 */
  url: string;
  contentType?: string;
  body?: string;
}

const DESCRIPTION = createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * OpenAPI 3.0's `nullable: true` means "this, or null", also beside `allOf`/`anyOf` without a
 * `type` (the issue schema's milestone) and beside an `enum` (its state_reason). ajv refuses the
 * first and rejects null in the second, so both are rewritten to say null explicitly.
 */
function explicitNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(explicitNullable);
  if (!node || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node as Obj).map(([k, v]) => [k, explicitNullable(v)]));
  if (o.nullable !== true) return o;
  if (Array.isArray(o.enum) && !o.enum.includes(null)) o.enum = [...o.enum, null];
  if ('type' in o) return o;
  const { nullable: _nullable, ...rest } = o;
  return { anyOf: [rest, { type: 'null' }] };
}

export class OpenApiChecker {
  readonly doc: { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: Obj };
  private readonly ajv: Ajv;
  private readonly routes: Route[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(file = DESCRIPTION) {
    this.doc = explicitNullable(JSON.parse(readFileSync(file, 'utf8'))) as OpenApiChecker['doc'];
    // OpenAPI 3.0 schemas: `nullable` is understood by ajv; `example`, `x-*` and friends are not
    // JSON Schema keywords, so strict mode is off. The description is not re-validated.
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, discriminator: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: 'gh', components: this.doc.components } as Obj, 'gh');
    this.routes = Object.entries(this.doc.paths).map(([template, item]) => {
      const names: string[] = [];
      const body = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_m, n: string) => {
        names.push(n);
        return '([^/]+)';
      });
      return { template, re: new RegExp(`^${body}$`), names, item };
    });
  }

  /** The description's object at a `#/components/...` pointer. */
  resolve<T = unknown>(ref: string): T {
    const parts = ref
      .replace(/^#\//, '')
      .split('/')
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let at: unknown = this.doc;
    for (const p of parts) at = (at as Obj)[p];
    if (at === undefined) throw new Error(`unresolvable $ref ${ref}`);
    return at as T;
  }

  private deref<T>(x: T | { $ref: string }): T {
    return x && typeof x === 'object' && '$ref' in x ? this.resolve<T>(x.$ref) : (x as T);
  }

  /** A validator for a schema of the description (its component references resolve into it). */
  validator(schema: Obj, cacheKey?: string): ValidateFunction {
    const key = cacheKey ?? JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"gh#/components/')) as Obj;
      v = this.ajv.compile(rewritten);
      this.compiled.set(key, v);
    }
    return v;
  }

  match(method: string, pathname: string): RouteMatch | null {
    const m = method.toLowerCase();
    // A literal segment wins over a template one (/repos/{owner}/{repo}/issues/comments/{id} vs
    // /repos/{owner}/{repo}/issues/{issue_number}/...): prefer routes with fewer parameters.
    const candidates = this.routes.filter((r) => r.re.test(pathname) && r.item[m]).sort((a, b) => a.names.length - b.names.length);
    const r = candidates[0];
    if (!r) return null;
    const values = r.re.exec(pathname)!.slice(1);
    const pathParams = Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(values[i]!)]));
    return { template: r.template, method: m, op: r.item[m]!, pathParams };
  }

  parameters(match: RouteMatch): Parameter[] {
    const shared = (match.op.parameters ?? []).map((p) => this.deref<Parameter>(p));
    return shared;
  }

  private checkValue(where: string, p: Parameter, text: string, problems: string[]): void {
    const schema = p.schema ?? {};
    let value: unknown = text;
    const type = schema.type;
    if (type === 'integer' || type === 'number') value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    else if (type === 'boolean') value = text === 'true' ? true : text === 'false' ? false : text;
    const v = this.validator(schema);
    if (!v(value)) problems.push(`${where} ${p.name}=${JSON.stringify(text)}: ${this.ajv.errorsText(v.errors)}`);
  }

  /** Problems with a request; empty when the description accepts it. */
  checkRequest(req: CheckedRequest): string[] {
    const problems: string[] = [];
    const url = new URL(req.url, 'http://localhost');
    const match = this.match(req.method, url.pathname);
    if (!match) {
      const anyMethod = this.routes.some((r) => r.re.test(url.pathname));
      return [anyMethod ? `${req.method} is not an operation of ${url.pathname}` : `no route ${url.pathname} in the description`];
    }
    const params = this.parameters(match);
    for (const p of params.filter((x) => x.in === 'path')) {
      const v = match.pathParams[p.name];
      if (v === undefined) problems.push(`path parameter ${p.name} missing`);
      else this.checkValue('path', p, v, problems);
    }
    const query = params.filter((x) => x.in === 'query');
    for (const [k, v] of url.searchParams) {
      const p = query.find((q) => q.name === k);
      if (!p) problems.push(`query parameter ${k} is not declared for ${match.op.operationId}`);
      else this.checkValue('query', p, v, problems);
    }
    for (const p of query) if (p.required && !url.searchParams.has(p.name)) problems.push(`required query parameter ${p.name} missing`);

    const rb = match.op.requestBody;
    const hasBody = req.body !== undefined && req.body.length > 0;
    if (!rb) {
      if (hasBody) problems.push(`${match.op.operationId} takes no request body`);
    } else if (!hasBody) {
      if (rb.required) problems.push(`${match.op.operationId} requires a request body`);
    } else {
      const json = rb.content['application/json'];
      if (!json) problems.push(`${match.op.operationId} does not take JSON`);
      else if (!/^application\/json\b/.test(req.contentType ?? '')) problems.push(`content-type ${req.contentType ?? '(none)'} is not application/json`);
      else {
        let body: Json;
        try {
          body = JSON.parse(req.body!) as Json;
        } catch {
          return [...problems, 'request body is not JSON'];
        }
        const v = this.validator(json.schema, `${match.op.operationId}#request`);
        if (!v(body)) problems.push(`request body: ${this.ajv.errorsText(v.errors)}`);
      }
    }
    return problems.map((p) => `${req.method} ${match.template}: ${p}`);
  }

  /** Problems with a JSON response of an operation (the test server checks its own answers). */
  checkResponse(match: RouteMatch, status: number, body: unknown): string[] {
    const res = match.op.responses[String(status)];
    if (!res) return [`${match.method.toUpperCase()} ${match.template}: status ${status} is not a documented response`];
    const schema = res.content?.['application/json']?.schema;
    if (!schema) return [];
    const v = this.validator(schema, `${match.op.operationId}#${status}`);
    return v(body) ? [] : [`${match.method.toUpperCase()} ${match.template} ${status}: response ${this.ajv.errorsText(v.errors)}`];
  }

  /** The description's own example response of an operation, as a fresh copy. */
  /** The description's example response; `name` picks one of several (default: "default"). */
  example(method: string, template: string, status: number, name = 'default'): Json {
    const op = this.doc.paths[template]?.[method.toLowerCase()];
    const ex = op?.responses[String(status)]?.content?.['application/json']?.examples?.[name];
    if (!ex) throw new Error(`no example for ${method} ${template} ${status}`);
    const value = ex.$ref ? this.resolve<{ value: Json }>(ex.$ref).value : (ex.value as Json);
    return structuredClone(value);
  }
}

export { METHODS };
