// Importing a Splitwise export into the open group (API.md §6b).
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';
import { memberOption, open } from './groups.js';

/** The person columns of a Splitwise export: its header's fields after Date…Currency (RFC 4180). */
function peopleOfExport(text) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') break;
    else field += c;
  }
  fields.push(field);
  return fields.slice(5).map((name) => name.trim());
}

/** The file picked: one member choice per person column, the member of the same first name preselected. */
let importFile;
$('import-file').addEventListener(
  'change',
  handle(async (event) => {
    const file = event.target.files?.[0];
    importFile = file ? await file.text() : undefined;
    $('import-report').replaceChildren();
    const people = importFile ? peopleOfExport(importFile) : [];
    $('import-mapping').replaceChildren(
      ...people.map((person) => {
        const select = element('select', undefined, { 'data-person': person });
        const first = person.split(' ')[0]?.toLowerCase();
        select.replaceChildren(
          ...open.group.members.map((m) => {
            const option = memberOption(m);
            option.selected = m.name.split(' ')[0]?.toLowerCase() === first;
            return option;
          }),
        );
        const label = element('label', `${person} is `);
        label.append(select);
        return label;
      }),
    );
  }),
);

$('import-form').addEventListener(
  'submit',
  handle(async () => {
    if (!importFile) throw new Error('Choose a Splitwise export first.');
    const members = Object.fromEntries(
      [...$('import-mapping').querySelectorAll('select')].map((s) => [s.dataset.person, s.value]),
    );
    say('Importing… (a large file takes a while)');
    // One Idempotency-Key for this import (the SDK makes it); the same file again never adds a row twice.
    const report = await tally.imports.create(open.group.id, { csv: importFile, members });
    $('import-report').replaceChildren(
      element(
        'p',
        `${report.created} created, ${report.existing} already there, ${report.refusedCount} refused.`,
      ),
      element('ul'),
    );
    // The report lists the first refusals; the rest are paged from …/refusals (API.md §6b).
    const more = report.refusedCount - report.refused.length;
    $('import-report')
      .querySelector('ul')
      .replaceChildren(
        ...report.refused.map((r) => element('li', `Line ${r.line}: ${r.reason}`)),
        ...(more > 0 ? [element('li', `… and ${more} more.`)] : []),
      );
    say(`Imported: ${report.created} created, ${report.existing} already there.`);
  }),
);
