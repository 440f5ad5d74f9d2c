// An expense's receipt on file (API.md §16): its thumbnail through the signed link, the full file,
// attaching or replacing one from a file input, removing it. The links last minutes: read afresh
// each time the expense is opened.
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from './messages.js';
import { attempt, describe, say, tally } from './session.js';

const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,application/pdf,.heic,.heif';

export function ReceiptPanel({ expenseId, writable }) {
  // undefined: not read yet; null: none on file.
  const [receipt, setReceipt] = useState();
  const load = () =>
    tally.receipts.get(expenseId).then(setReceipt, (error) => {
      if (error?.status === 404) setReceipt(null);
      else say(describe(error), true);
    });
  useEffect(() => {
    void load();
  }, [expenseId]);

  const upload = attempt(async (event) => {
    const file = new FormData(event.target).get('file');
    if (!(file instanceof Blob) || file.size === 0) throw new Error(t('chooseReceipt'));
    // One Idempotency-Key per upload (the SDK makes it): a retry stores the file once.
    await tally.receipts.upload(expenseId, file);
    event.target.reset();
    say(t('receiptAttached'));
    await load();
  });
  const remove = attempt(async () => {
    await tally.receipts.delete(expenseId);
    say(t('receiptRemoved'));
    await load();
  });

  return html`<section aria-labelledby="receipt-title" id="receipt">
    <h2 id="receipt-title">${t('receipt')}</h2>
    ${receipt === undefined && html`<p>${t('loading')}</p>`}
    ${receipt === null && html`<p class="muted">${t('noReceipt')}</p>`}
    ${
      receipt &&
      html`<p class="row">
        ${receipt.thumbnailUrl && html`<img class="receipt" src=${tally.receipts.fileUrl(receipt.thumbnailUrl)} alt=${t('receiptThumbnail')} />`}
        <a id="receipt-full" href=${tally.receipts.fileUrl(receipt.url)} target="_blank" rel="noopener">
          ${receipt.mediaType === 'application/pdf' ? t('openPdf') : t('fullSize')}</a>
        ${writable && html`<button type="button" onClick=${remove}>${t('removeReceipt')}</button>`}
      </p>`
    }
    ${
      writable &&
      html`<form id="receipt-form" class="row" onSubmit=${upload}>
        <label class="grow">${receipt ? t('replaceReceipt') : t('attachReceipt')}
          <input type="file" name="file" accept=${ACCEPT} required /></label>
        <button type="submit">${t('upload')}</button>
      </form>`
    }
  </section>`;
}
