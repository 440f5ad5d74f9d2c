// The same through `require` (a .cts file): the types come from the package's dist/cjs declarations.
import sdk = require('@tally/client');

import type { Group } from '@tally/client';

const tally = new sdk.TallyClient({ baseUrl: 'https://tally.example' });

async function groupName(id: string): Promise<string> {
  const group: Group = await tally.groups.get(id);
  return group.name;
}

// @ts-expect-error the types are real (not any): there is no such export
sdk.NoSuchExport;

export = groupName;
