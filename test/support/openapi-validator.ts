/**
 * Real responses checked against the published OpenAPI document with ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1): the status must be one the operation documents, the media type one that
 * status documents, and the body must validate against that media type's schema.
 *
 *   expectDocumented(await t.request.post('/v1/groups').set(ada.auth).send({ name: 'Trip' }));
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '../../apps/api/src/openapi/openapi';

type Json = Record<string, unknown>;
export type OpenApiDoc = {
  openapi: string;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; parameters: Record<string, Json> };
};

/** A plain (unfrozen) copy of the document the server serves. */
export const openApi = JSON.parse(JSON.stringify(openApiDocument())) as OpenApiDoc;

const DOCUMENT_ID = 'tally-openapi';
export const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  // `oneOf: [{ required: ['userId'] }, { required: ['email'] }]` names properties defined next to it
  strictRequired: false,
  // 33.33 is a multiple of 0.01 to JSON, not to IEEE 754 doubles
  multipleOfPrecision: 9,
});
addFormats(ajv);
// The document is registered whole so that `#/components/...` refs resolve; only its schemas are compiled.
ajv.addVocabulary(['components', 'paths']);
ajv.addSchema({ $id: DOCUMENT_ID, components: openApi.components, paths: openApi.paths });

const pointerSegment = (segment: string) =>
  encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/** The compiled schema at a JSON pointer of the document, e.g. `('components', 'schemas', 'Group')`. */
export function validatorAt(...pointer: string[]): ValidateFunction {
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/${pointer.map(pointerSegment).join('/')}`);
  if (!validate) throw new Error(`no schema at /${pointer.join('/')}`);
  return validate;
}

export const componentValidator = (name: string) => validatorAt('components', 'schemas', name);

export const describeErrors = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map(
    (e) => `${e.instancePath || '(root)'} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`,
  );

/** `[]` when `value` is valid against the component schema `name`, else ajv's complaints. */
export function componentErrors(name: string, value: unknown): string[] {
  const validate = componentValidator(name);
  return validate(value) ? [] : describeErrors(validate.errors);
}

const TEMPLATES = Object.keys(openApi.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replace(/\./g, '\\.')}$`),
  literal: template.replace(/\{[^}]+\}/g, '').length,
}));

/** The documented path template a concrete path falls under (the most literal one wins). */
export function templateOf(url: string): string | undefined {
  const pathname = url.split('?')[0] ?? url;
  const matches = TEMPLATES.filter((t) => t.regex.test(pathname)).sort((a, b) => b.literal - a.literal);
  return matches[0]?.template;
}

export type ResponseLike = {
  status: number;
  headers: Record<string, unknown>;
  body?: unknown;
  text?: string;
};

/** `METHOD template status` of every response checked so far, to see what a suite covered. */
export const checkedResponses = new Set<string>();

/** What is wrong with `res` as an answer to `method url` by the document; `[]` when nothing is. */
export function responseErrors(method: string, url: string, res: ResponseLike): string[] {
  const template = templateOf(url);
  if (!template) return [`${method} ${url}: no documented path`];
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const operation = openApi.paths[template]?.[verb];
  if (!operation) return [`${method} ${template}: not documented`];
  const where = `${method} ${template} → ${res.status}`;
  const responses = operation['responses'] as Record<string, Json>;
  const status = String(res.status);
  const response = responses[status];
  if (!response)
    return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
  checkedResponses.add(`${method.toUpperCase()} ${template} ${status}`);

  const content = response['content'] as Record<string, Json> | undefined;
  const mediaType = String(res.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  // A binary answer (an image, a PDF) comes as a Buffer, not as text: a string of its bytes here.
  const text = res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('latin1') : undefined);
  const hasBody = method.toLowerCase() !== 'head' && (text ?? '') !== '';
  if (!content) return hasBody ? [`${where}: a body where none is documented (${mediaType})`] : [];
  if (method.toLowerCase() === 'head') return [];
  if (!content[mediaType]) {
    return [
      `${where}: media type "${mediaType}" not documented (documented: ${Object.keys(content).join(', ')})`,
    ];
  }
  const body = /json$/.test(mediaType) ? res.body : text;
  const validate = validatorAt('paths', template, verb, 'responses', status, 'content', mediaType, 'schema');
  return validate(body) ? [] : describeErrors(validate.errors).map((e) => `${where}: ${e}`);
}

/** The method and path of a supertest response's request. */
function requestOf(res: ResponseLike): { method: string; url: string } {
  const req = (res as { req?: { method?: unknown; path?: unknown } }).req;
  if (typeof req?.method !== 'string' || typeof req.path !== 'string') {
    throw new Error('expectDocumented: pass the method and URL of a response that is not from supertest');
  }
  return { method: req.method, url: req.path };
}

/**
 * Fails the test unless `res` is an answer the document allows; the method and URL default to those
 * of the request a supertest response answers.
 */
export function expectDocumented<T extends ResponseLike>(res: T, method?: string, url?: string): T {
  const request = method && url ? { method, url } : requestOf(res);
  const errors = responseErrors(request.method, request.url, res);
  if (errors.length > 0) {
    throw new Error(
      `response not as documented:\n  ${errors.join('\n  ')}\nbody: ${JSON.stringify(res.body ?? res.text).slice(0, 2000)}`,
    );
  }
  return res;
}
