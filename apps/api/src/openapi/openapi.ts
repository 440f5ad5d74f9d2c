// Replaced by the generated document (in progress).
export function openApiDocument(): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'Tally API', version: '1.0.0' }, paths: {} };
}
export function docsPage(specUrl: string): string {
  return `<!doctype html><title>Tally API</title><a href="${specUrl}">${specUrl}</a>`;
}
