// An expense's receipt on file (API.md §16): its thumbnail (or a link to a PDF), attach or replace
// one from a file input, remove it. Shown with the expense's comments.
import { tally } from './client.js';
import { $, element, handle, say } from './dom.js';

/** The expense whose receipt part is shown: its id; and whether the receipt was read (not only offered). */
let shownFor;
let read = false;

/**
 * The receipt part of `expenseId`'s comments, before it is read: a button that reads it. Most
 * expenses have none, and an expense's representation does not say (API.md §16): reading it when
 * asked saves a request per expense opened (a `404` for most).
 */
export function offerReceipt(expenseId) {
  shownFor = expenseId;
  read = false;
  $('receipt-file-remove').hidden = true;
  const show = element('button', 'Show the receipt', { type: 'button' });
  show.addEventListener(
    'click',
    handle(() => showReceipt(expenseId)),
  );
  $('receipt-file-view').replaceChildren(show);
}

/** The receipt of `expenseId`, read afresh (its links last minutes): a thumbnail, a link, or "none". */
export async function showReceipt(expenseId) {
  shownFor = expenseId;
  read = true;
  let receipt;
  try {
    receipt = await tally.receipts.get(expenseId);
  } catch (error) {
    if (error?.status !== 404) throw error;
  }
  if (shownFor !== expenseId) return;
  const box = $('receipt-file-view');
  $('receipt-file-remove').hidden = !receipt;
  if (!receipt) {
    box.replaceChildren(element('span', 'No receipt on file.'));
    return;
  }
  const link = element('a', receipt.mediaType === 'application/pdf' ? 'Open the PDF' : 'Full size', {
    href: tally.receipts.fileUrl(receipt.url),
    target: '_blank',
    rel: 'noopener',
  });
  const parts = [];
  if (receipt.thumbnailUrl) {
    parts.push(
      element('img', undefined, {
        src: tally.receipts.fileUrl(receipt.thumbnailUrl),
        alt: 'Receipt',
        width: '160',
      }),
    );
  }
  box.replaceChildren(...parts, element('span', ' '), link);
}

/** After an `expense.receipt_changed` event: the receipt shown again when it is the one it changed. */
export async function refreshReceipt(event) {
  if (read && shownFor && event?.data?.expenseId === shownFor) await showReceipt(shownFor);
}

$('receipt-file-form').addEventListener(
  'submit',
  handle(async (event) => {
    const file = new FormData(event.target).get('file');
    if (!(file instanceof Blob) || file.size === 0) throw new Error('Choose a photo or a PDF first.');
    // One Idempotency-Key per upload (the SDK makes it): a retry stores the file once.
    await tally.receipts.upload(shownFor, file);
    event.target.reset();
    await showReceipt(shownFor);
    say('Receipt attached.');
  }),
);

$('receipt-file-remove').addEventListener(
  'click',
  handle(async () => {
    await tally.receipts.delete(shownFor);
    await showReceipt(shownFor);
    say('Receipt removed.');
  }),
);
