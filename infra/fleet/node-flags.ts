/**
 * The Node/V8 flags each role runs with in production (k8s/base/gateway.yaml sets the same through
 * NODE_OPTIONS); the fleet and the bench start their servers with them.
 *
 * The gateway bounds V8's young generation: at a burst of connections (a deploy, a reconnect storm)
 * Node 24 grows each semi-space to 64 MiB and keeps it (about 9 KiB per connection at 10,000, more
 * than the connections themselves), where Node 20 stopped at 16 MiB. 16 MiB each is Node 20's
 * ceiling again: the same accept time and CPU per delivery in the bench (docs/CAPACITY.md#websockets),
 * half the RSS.
 */
export const NODE_FLAGS_BY_ROLE: Record<'api' | 'gateway' | 'all', readonly string[]> = {
  api: [],
  gateway: ['--max-semi-space-size=16'],
  all: [],
};
