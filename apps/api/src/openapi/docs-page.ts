import { createHash } from 'node:crypto';

/**
 * `GET /docs`: a self-contained page (no CDN, no external assets: it must work offline) whose small
 * inline script fetches the OpenAPI document and renders it with DOM APIs only (`textContent`, never
 * `innerHTML`), so nothing from the document is ever interpreted as HTML.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and (quoted) attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const STYLE = `
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --code: rgba(127,127,127,.12); }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; }
header { padding: 1rem 2rem; border-bottom: 1px solid var(--line); display: flex; gap: 1rem; align-items: baseline; flex-wrap: wrap; }
header h1 { margin: 0; font-size: 1.4rem; }
header input { margin-left: auto; padding: .3rem .5rem; min-width: 16rem; }
main { padding: 0 2rem 3rem; max-width: 70rem; }
h2 { margin-top: 2rem; border-bottom: 1px solid var(--line); }
.intro { white-space: pre-wrap; }
details.op { border: 1px solid var(--line); border-radius: 6px; margin: .5rem 0; }
details.op > summary { cursor: pointer; padding: .4rem .6rem; display: flex; gap: .6rem; align-items: baseline; }
.method { font: bold 12px monospace; text-transform: uppercase; padding: .1rem .4rem; border-radius: 4px; color: #fff; min-width: 3.5rem; text-align: center; }
.get { background: #2563eb; } .post { background: #059669; } .put { background: #d97706; }
.patch { background: #7c3aed; } .delete { background: #dc2626; }
.path { font-family: monospace; font-weight: 600; }
.summary { color: var(--muted); }
.body { padding: 0 1rem 1rem; }
.desc { white-space: pre-wrap; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
pre { background: var(--code); padding: .5rem; overflow: auto; border-radius: 4px; margin: .25rem 0; }
code { background: var(--code); padding: 0 .2rem; border-radius: 3px; }
.error { color: #dc2626; }
`;

/* Plain ES2017, no template literals (this file embeds it in one). */
const SCRIPT = `
(function () {
  'use strict';
  var root = document.getElementById('app');
  var specUrl = root.getAttribute('data-spec-url');
  var METHODS = ['get', 'post', 'put', 'patch', 'delete'];

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }
  function refName(ref) { return String(ref).split('/').pop(); }
  function schemaAnchor(name) { return 'schema-' + name.replace(/[^A-Za-z0-9_-]/g, '_'); }

  /* Pretty-printed JSON in which every $ref is a link to the component it names. */
  function jsonView(value) {
    var pre = el('pre');
    function write(v, indent) {
      var pad = new Array(indent + 1).join('  ');
      if (Array.isArray(v)) {
        if (v.length === 0) { pre.appendChild(document.createTextNode('[]')); return; }
        pre.appendChild(document.createTextNode('[\\n'));
        v.forEach(function (item, i) {
          pre.appendChild(document.createTextNode(pad + '  '));
          write(item, indent + 1);
          pre.appendChild(document.createTextNode((i < v.length - 1 ? ',' : '') + '\\n'));
        });
        pre.appendChild(document.createTextNode(pad + ']'));
      } else if (v && typeof v === 'object') {
        var keys = Object.keys(v);
        if (keys.length === 0) { pre.appendChild(document.createTextNode('{}')); return; }
        pre.appendChild(document.createTextNode('{\\n'));
        keys.forEach(function (k, i) {
          pre.appendChild(document.createTextNode(pad + '  ' + JSON.stringify(k) + ': '));
          if (k === '$ref' && typeof v[k] === 'string' && v[k].indexOf('#/components/schemas/') === 0) {
            pre.appendChild(el('a', { href: '#' + schemaAnchor(refName(v[k])) }, [JSON.stringify(v[k])]));
          } else {
            write(v[k], indent + 1);
          }
          pre.appendChild(document.createTextNode((i < keys.length - 1 ? ',' : '') + '\\n'));
        });
        pre.appendChild(document.createTextNode(pad + '}'));
      } else {
        pre.appendChild(document.createTextNode(JSON.stringify(v)));
      }
    }
    write(value, 0);
    return pre;
  }

  function resolve(spec, obj) {
    if (obj && obj.$ref && String(obj.$ref).indexOf('#/components/') === 0) {
      return String(obj.$ref).slice(2).split('/').reduce(function (o, k) { return o && o[k]; }, spec) || obj;
    }
    return obj;
  }

  function parametersTable(spec, params) {
    var rows = params.map(function (p) {
      p = resolve(spec, p);
      return el('tr', {}, [
        el('td', {}, [el('code', {}, [p.name])]),
        el('td', {}, [p.in]),
        el('td', {}, [p.required ? 'yes' : 'no']),
        el('td', {}, [jsonView(p.schema || {})]),
        el('td', {}, [p.description || '']),
      ]);
    });
    return el('table', {}, [
      el('tr', {}, ['name', 'in', 'required', 'schema', 'description'].map(function (h) { return el('th', {}, [h]); })),
    ].concat(rows));
  }

  function responsesTable(spec, responses) {
    var rows = Object.keys(responses).map(function (status) {
      var r = resolve(spec, responses[status]);
      var content = r.content || {};
      var cells = Object.keys(content).map(function (type) {
        return el('div', {}, [el('code', {}, [type]), jsonView(content[type].schema || {})]);
      });
      return el('tr', {}, [
        el('td', {}, [el('strong', {}, [status])]),
        el('td', {}, [r.description || '']),
        el('td', {}, [Object.keys(r.headers || {}).join(', ')]),
        el('td', {}, cells),
      ]);
    });
    return el('table', {}, [
      el('tr', {}, ['status', 'description', 'headers', 'body'].map(function (h) { return el('th', {}, [h]); })),
    ].concat(rows));
  }

  function operationView(spec, path, method, op) {
    var body = el('div', { class: 'body' });
    if (op.description) body.appendChild(el('p', { class: 'desc' }, [op.description]));
    var security = op.security || spec.security || [];
    body.appendChild(el('p', {}, [security.length ? 'Requires a bearer access token.' : 'No authentication.']));
    if (op.parameters && op.parameters.length) {
      body.appendChild(el('h4', {}, ['Parameters']));
      body.appendChild(parametersTable(spec, op.parameters));
    }
    if (op.requestBody) {
      body.appendChild(el('h4', {}, ['Request body' + (op.requestBody.required ? ' (required)' : '')]));
      Object.keys(op.requestBody.content || {}).forEach(function (type) {
        body.appendChild(el('code', {}, [type]));
        body.appendChild(jsonView(op.requestBody.content[type].schema || {}));
      });
    }
    body.appendChild(el('h4', {}, ['Responses']));
    body.appendChild(responsesTable(spec, op.responses || {}));
    var details = el('details', { class: 'op', id: op.operationId || (method + path) }, [
      el('summary', {}, [
        el('span', { class: 'method ' + method }, [method]),
        el('span', { class: 'path' }, [path]),
        el('span', { class: 'summary' }, [op.summary || '']),
      ]),
      body,
    ]);
    details.setAttribute('data-search', (method + ' ' + path + ' ' + (op.summary || '')).toLowerCase());
    return details;
  }

  function render(spec) {
    root.textContent = '';
    var info = spec.info || {};
    document.title = (info.title || 'API') + ' ' + (info.version || '');
    document.getElementById('title').textContent = (info.title || 'API') + ' ' + (info.version || '');
    if (info.description) root.appendChild(el('p', { class: 'intro' }, [info.description]));

    var byTag = {};
    var tagOrder = (spec.tags || []).map(function (t) { return t.name; });
    Object.keys(spec.paths || {}).forEach(function (path) {
      METHODS.forEach(function (method) {
        var op = spec.paths[path][method];
        if (!op) return;
        var tag = (op.tags && op.tags[0]) || 'Other';
        if (tagOrder.indexOf(tag) < 0) tagOrder.push(tag);
        (byTag[tag] = byTag[tag] || []).push(operationView(spec, path, method, op));
      });
    });
    tagOrder.forEach(function (tag) {
      if (!byTag[tag]) return;
      var meta = (spec.tags || []).filter(function (t) { return t.name === tag; })[0];
      var section = el('section', { class: 'tag' }, [el('h2', {}, [tag])]);
      if (meta && meta.description) section.appendChild(el('p', {}, [meta.description]));
      byTag[tag].forEach(function (node) { section.appendChild(node); });
      root.appendChild(section);
    });

    var schemas = (spec.components && spec.components.schemas) || {};
    var models = el('section', {}, [el('h2', {}, ['Schemas'])]);
    Object.keys(schemas).forEach(function (name) {
      models.appendChild(el('h3', { id: schemaAnchor(name) }, [name]));
      models.appendChild(jsonView(schemas[name]));
    });
    root.appendChild(models);
  }

  document.getElementById('filter').addEventListener('input', function (e) {
    var q = String(e.target.value || '').toLowerCase();
    Array.prototype.forEach.call(document.querySelectorAll('details.op'), function (d) {
      d.style.display = d.getAttribute('data-search').indexOf(q) >= 0 ? '' : 'none';
    });
  });

  fetch(specUrl, { headers: { Accept: 'application/json' } })
    .then(function (res) {
      if (!res.ok) throw new Error('HTTP ' + res.status);
      return res.json();
    })
    .then(render)
    .catch(function (err) {
      root.textContent = '';
      root.appendChild(el('p', { class: 'error' }, ['Could not load ' + specUrl + ': ' + err.message]));
    });
})();
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');
/** Only this page's own inline script and style may run; data may come only from this origin. */
const CSP = [
  "default-src 'none'",
  `script-src 'sha256-${sha256(SCRIPT)}'`,
  `style-src 'sha256-${sha256(STYLE)}'`,
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function docsPage(specUrl: string): string {
  const url = escapeHtml(specUrl);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(CSP)}">
<title>Tally API reference</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1 id="title">Tally API</h1>
<a href="${url}">OpenAPI document (${url})</a>
<input id="filter" type="search" placeholder="Filter operations" aria-label="Filter operations">
</header>
<main id="app" data-spec-url="${url}"><p>Loading <a href="${url}">${url}</a> …</p></main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
