import type { JsonSchema } from '../joi-to-json-schema';
import { closed, id, importId, pageOf, ref, timestamp } from './common';

const ImportRefusal: JsonSchema = closed(
  {
    line: { type: 'integer', minimum: 1, description: 'The line of the file the row starts on' },
    reason: {
      type: 'string',
      maxLength: 300,
      description: 'Why it was not imported (at most 300 characters)',
    },
  },
  'A row of the file not imported, and why',
);
const ImportRefusalPage: JsonSchema = pageOf('ImportRefusal');
const count: JsonSchema = { type: 'integer', minimum: 0 };

/**
 * An import's fields as its report and its `import.completed` event show them, with `fields` (one
 * of these, or one more, which goes after `refusedCount`).
 */
export const importRecord = (fields: Record<string, JsonSchema>): JsonSchema =>
  closed({
    id: importId,
    groupId: id('grp', 'Group'),
    format: { type: 'string', enum: ['splitwise-csv'] },
    status: { type: 'string' },
    rows: count,
    created: count,
    existing: count,
    refusedCount: count,
    ...fields,
    createdBy: id('usr', 'User'),
    createdAt: timestamp,
    updatedAt: timestamp,
  });

const ImportReport: JsonSchema = importRecord({
  status: {
    type: 'string',
    enum: ['running', 'completed', 'failed'],
    description:
      '`running` while a run is under way (or its process died); `failed` when a run stopped on an error ' +
      'it could not refuse as a row. A retry of either resumes where it stopped.',
  },
  rows: { ...count, description: 'Expense and payment rows in the file' },
  created: { ...count, description: 'Rows this import created (across a resumed run)' },
  existing: { ...count, description: 'Rows found already imported (the same file before)' },
  refusedCount: { ...count, description: 'Rows refused (all of them)' },
  refused: {
    type: 'array',
    maxItems: 20,
    items: ref('ImportRefusal'),
    description:
      'The first 20 refused rows, by line; all of them are paged from `GET …/imports/{importId}/refusals`',
  },
  categories: {
    type: 'array',
    maxItems: 100,
    description:
      'How the file’s category names were mapped (API.md §14), first named first, at most 100: to a default, to the group’s own (`created` when the import made it), or to none (`categoryId` null: no room left)',
    items: closed({
      name: { type: 'string', description: 'Splitwise’s category name, as in the file' },
      categoryId: { type: ['string', 'null'] },
      created: { type: 'boolean' },
    }),
  },
});

/** Splitwise imports (API.md §6b). */
export const importSchemas: Record<string, JsonSchema> = { ImportRefusal, ImportRefusalPage, ImportReport };
