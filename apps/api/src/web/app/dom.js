// The page's DOM helpers (apps/api/src/web/app.js): every text goes in as text, never as HTML.

export const $ = (id) => document.getElementById(id);

export function say(text, error = false) {
  $('status').textContent = text;
  $('status').className = error ? 'error' : '';
}

export function describe(error) {
  const fields = (error?.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; ');
  return (error?.problem?.detail || error?.message || String(error)) + (fields ? ` (${fields})` : '');
}

/** Runs a handler of the page, reporting its failure instead of losing it. */
export function handle(action) {
  return (event) => {
    event?.preventDefault();
    action(event).catch((error) => say(describe(error), true));
  };
}

export function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** Saves `text` as a file, through a link to a blob (the page's own origin; nothing is uploaded). */
export function saveFile(text, name, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = element('a', undefined, { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
