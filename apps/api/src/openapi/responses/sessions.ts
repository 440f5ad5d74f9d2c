import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, ref, timestamp } from './common';

const DeviceSession: JsonSchema = closed(
  {
    id: id('rtk', 'Session'),
    userAgent: {
      type: ['string', 'null'],
      description:
        'The `User-Agent` of the sign-in as sent (its bytes read as UTF-8; controls and bidi overrides removed; at most 256 code points); null when unknown',
    },
    ip: {
      type: ['string', 'null'],
      description:
        'The client IP of the sign-in (by `TRUST_PROXY`): always an IP address, IPv6 compressed in lower case, an IPv4-mapped one as IPv4; null when unknown',
    },
    createdAt: timestamp,
    lastUsedAt: { ...timestamp, description: 'The sign-in or the latest refresh' },
    current: { type: 'boolean', description: 'The session of the access token that asked' },
  },
  "A signed-in device: one refresh-token family (the access token's `sid`).",
);
const DeviceSessionList: JsonSchema = closed({ data: { type: 'array', items: ref('DeviceSession') } });

/** Signed-in devices (API.md §2). */
export const sessionSchemas: Record<string, JsonSchema> = { DeviceSession, DeviceSessionList };
