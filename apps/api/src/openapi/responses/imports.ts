import type { JsonSchema } from '../joi-to-json-schema';
import { id, importId, object, pageOf, ref, timestamp } from './common';

const ImportRefusal: JsonSchema = object(
  {
    line: { type: 'integer', minimum: 1, description: 'The line of the file the row starts on' },
    reason: {
      type: 'string',
      maxLength: 300,
      description: 'Why it was not imported (at most 300 characters)',
    },
  },
  ['line', 'reason'],
  'A row of the file not imported, and why',
);
const ImportRefusalPage: JsonSchema = pageOf('ImportRefusal');
const ImportReport: JsonSchema = object(
  {
    id: importId,
    groupId: id('grp', 'Group'),
    format: { type: 'string', enum: ['splitwise-csv'] },
    status: {
      type: 'string',
      enum: ['running', 'completed', 'failed'],
      description:
        '`running` while a run is under way (or its process died); `failed` when a run stopped on an error ' +
        'it could not refuse as a row. A retry of either resumes where it stopped.',
    },
    rows: { type: 'integer', minimum: 0, description: 'Expense and payment rows in the file' },
    created: { type: 'integer', minimum: 0, description: 'Rows this import created (across a resumed run)' },
    existing: {
      type: 'integer',
      minimum: 0,
      description: 'Rows found already imported (the same file before)',
    },
    refusedCount: { type: 'integer', minimum: 0, description: 'Rows refused (all of them)' },
    refused: {
      type: 'array',
      maxItems: 20,
      items: ref('ImportRefusal'),
      description:
        'The first 20 refused rows, by line; all of them are paged from `GET …/imports/{importId}/refusals`',
    },
    createdBy: id('usr', 'User'),
    createdAt: timestamp,
    updatedAt: timestamp,
  },
  [
    'id',
    'groupId',
    'format',
    'status',
    'rows',
    'created',
    'existing',
    'refusedCount',
    'refused',
    'createdBy',
    'createdAt',
    'updatedAt',
  ],
);

/** Splitwise imports (API.md §6b). */
export const importSchemas: Record<string, JsonSchema> = { ImportRefusal, ImportRefusalPage, ImportReport };
