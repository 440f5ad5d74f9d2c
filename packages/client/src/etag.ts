/**
 * The ETag of a versioned resource (group or expense) as the server sends it: `"v<version>"`. Pass it
 * as `ifMatch` to make a write conditional on the version you read.
 */
export function etagOf(resource: { version: number }): string {
  return `"v${resource.version}"`;
}
