// Importing a Splitwise export into a group (API.md §6b): the file's person columns mapped to members
// (preselected by first name), then the report: what was created, what was there already, what was
// refused and why.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { attempt, describe, say, tally } from './session.js';

/** The header's fields of an RFC 4180 file (quotes, doubled quotes, a BOM), after Date…Currency. */
function peopleOf(text) {
  const field = /"((?:[^"]|"")*)"|([^,\r\n]*)/y;
  const fields = [];
  field.lastIndex = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    const match = field.exec(text);
    fields.push(match?.[1] !== undefined ? match[1].replace(/""/g, '"') : (match?.[2] ?? ''));
    if (text[field.lastIndex] !== ',') break;
    field.lastIndex += 1;
  }
  return fields.slice(5).map((name) => name.trim());
}
const firstName = (name) => name.split(' ')[0]?.toLowerCase();

export function ImportScreen({ groupId }) {
  const [group, setGroup] = useState();
  const [file, setFile] = useState();
  const [report, setReport] = useState();
  useEffect(() => {
    tally.groups.get(groupId).then(setGroup, (error) => say(describe(error), true));
  }, [groupId]);

  const pick = attempt(async (event) => {
    const chosen = event.target.files?.[0];
    setReport(undefined);
    setFile(chosen ? await chosen.text() : undefined);
  });
  const submit = attempt(async (event) => {
    if (!file) throw new Error(t('import.chooseFirst'));
    const members = Object.fromEntries(
      [...event.target.querySelectorAll('select[data-person]')].map((s) => [s.dataset.person, s.value]),
    );
    say(t('import.working'));
    // One Idempotency-Key for this import (the SDK makes it): the same file again adds no row twice.
    const made = await tally.imports.create(groupId, { csv: file, members });
    setReport(made);
    say(t('import.done', made));
  });

  if (!group) return html`<section><p>${t('loading')}</p></section>`;
  const members = group.members.filter((m) => m.status !== 'deleted');
  const people = file ? peopleOf(file) : [];
  return html`<h1>${t('import.title', group.name)}</h1>
    <p><a href=${`#/g/${groupId}`}>${t('tools.backToGroup')}</a></p>
    <section>
      <p class="muted">${t('import.help')}</p>
      <form id="import-form" onSubmit=${submit}>
        <label>${t('import.file')} <input id="import-file" name="file" type="file" accept=".csv,text/csv" required onChange=${pick} /></label>
        <div id="import-mapping">
          ${people.map(
            (person) => html`<label key=${person}>${t('import.is', person)}
              <select data-person=${person}>
                ${members.map(
                  (
                    m,
                  ) => html`<option key=${m.userId} value=${m.userId} selected=${firstName(m.name) === firstName(person)}>
                    ${m.name}${m.status === 'pending' ? ` (${t('pendingMember')})` : ''}
                  </option>`,
                )}
              </select></label>`,
          )}
        </div>
        <button class="primary" type="submit">${t('import.submit')}</button>
      </form>
    </section>
    ${
      report &&
      html`<section aria-labelledby="import-report-title" id="import-report">
        <h2 id="import-report-title">${t('import.report')}</h2>
        <p>${t('import.done', report)}</p>
        <ul class="plain">
          ${report.refused.map((r) => html`<li key=${r.line}>${t('import.refused', r.line, r.reason)}</li>`)}
          ${report.refusedCount > report.refused.length && html`<li>${t('import.more', report.refusedCount - report.refused.length)}</li>`}
        </ul>
      </section>`
    }`;
}
