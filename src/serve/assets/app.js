// The workbench page. The URL's query is the whole state (seed, options, edits); every change
// asks the server to rebuild the scenario from it and draws what comes back. No framework.
'use strict';

const $ = (sel) => document.querySelector(sel);
let view = null;      // the server's answer for the current query
let selected = null;  // the path of the selected part (`map1/B2`, `area5`, `frame`)
let sheetIndex = 0;   // which sheet tab is shown

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function showMessage(text) {
  $('#message-text').textContent = text;
  $('#message').hidden = false;
}

function hideMessage() {
  $('#message').hidden = true;
}

function randomSeed() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  // 48 bits, like the command line's own random seeds.
  return String((a[0] % 65536) * 4294967296 + a[1]);
}

// Asks for the scenario of `query`; on success draws it and puts its permalink in the address bar.
async function load(query, how) {
  document.body.dataset.state = 'busy';
  try {
    const r = await fetch('/api/scenario?' + query);
    const text = await r.text();
    if (!r.ok) {
      showMessage(text.trim() || ('the server answered ' + r.status));
      return false;
    }
    view = JSON.parse(text);
    // An edit that changed nothing says why (a reroll the limits hold back, a lock already set).
    if (view.note) showMessage(view.note);
    else hideMessage();
    const url = location.pathname + '?' + view.query;
    if (how === 'push') history.pushState(null, '', url);
    else if (how === 'replace') history.replaceState(null, '', url);
    draw();
    return true;
  } catch (e) {
    showMessage('the workbench server did not answer (' + e.message + '); is `dungeonsmith serve` still running?');
    return false;
  } finally {
    document.body.dataset.state = 'ready';
  }
}

// Appends an edit to the history; the server refuses (and the page says why) or redraws.
function edit(op) {
  const p = new URLSearchParams(view.query);
  p.append('op', op);
  return load(p.toString(), 'push');
}

function undo() {
  const p = new URLSearchParams(view.query);
  const ops = p.getAll('op');
  if (!ops.length) return;
  p.delete('op');
  ops.slice(0, -1).forEach((o) => p.append('op', o));
  load(p.toString(), 'push');
}

// The form's fields: the seed and paper, and each game's options in its `data-game` block, which
// the server writes from the one declaration of the options (so this script names none of them).
function fields(game) {
  return [...document.querySelectorAll('#options [name]')].filter((f) => {
    const block = f.closest('[data-game]');
    return f.name !== 'game' && (!block || !game || block.dataset.game === game);
  });
}

function fillForm(query) {
  const p = new URLSearchParams(query);
  // `nw3` is the game's name in permalinks from before it was called `fortress` everywhere.
  const game = p.get('game') === 'nw3' ? 'fortress' : p.get('game') || 'myk';
  document.querySelector(`input[name=game][value=${game}]`).checked = true;
  document.body.dataset.game = game;
  for (const field of fields(null)) {
    if (p.has(field.name)) field.value = p.get(field.name);
    // A field the permalink leaves out is at its default: blank (the server's default applies), or
    // "any" objective kind.
    else if (field.closest('[data-game]')) field.value = '';
  }
}

function formQuery() {
  const game = document.querySelector('input[name=game]:checked').value;
  const p = new URLSearchParams();
  p.set('game', game);
  for (const field of fields(game)) {
    const v = field.value.trim();
    if (v !== '') p.set(field.name, v);
  }
  // A field that stands for others (a mixed court's levels) drops them.
  for (const field of fields(game)) {
    if (p.has(field.name) && field.dataset.replaces) field.dataset.replaces.split(' ').forEach((n) => p.delete(n));
  }
  return p.toString();
}

function part(path) {
  return view && view.parts.find((x) => x.path === path);
}

function draw() {
  document.title = view.title + ' \u2014 dungeonsmith workbench';
  $('#title').textContent = view.title;
  const first = new URLSearchParams(view.query).get('seed');
  $('#seedinfo').textContent = 'seed ' + view.seed + (first !== String(view.seed) ? ' (regenerated from ' + first + ')' : '');
  fillForm(view.query);
  if (!$('#regen-seed').value) $('#regen-seed').value = randomSeed();
  if (sheetIndex >= view.sheets.length) sheetIndex = 0;
  if (selected && !part(selected)) selected = null;
  drawTabs();
  drawSheet();
  drawSelection();
  drawParts();
  drawCheck();
  drawLimits();
  drawHistory();
  drawDownloads();
  document.body.dataset.query = view.query;
}

function drawTabs() {
  const tabs = $('#tabs');
  tabs.replaceChildren(...view.sheets.map((s, i) => el('button', {
    type: 'button',
    class: i === sheetIndex ? 'current' : '',
    'data-sheet': String(i),
    onclick: () => { sheetIndex = i; drawTabs(); drawSheet(); },
  }, s.label)));
}

function drawSheet() {
  const svg = view.sheets[sheetIndex].svg;
  // The server's own SVG (user text escaped there); the XML prolog is not needed inline.
  $('#sheet').innerHTML = svg.slice(Math.max(0, svg.indexOf('<svg')));
  markSelected();
}

function markSelected() {
  for (const h of document.querySelectorAll('#sheet .ds-hook')) {
    const path = h.dataset.room || (h.dataset.area && 'area' + h.dataset.area);
    h.classList.toggle('ds-selected', path === selected);
  }
}

function select(path) {
  selected = path;
  markSelected();
  drawSelection();
}

function drawSelection() {
  const box = $('#selection');
  const p = selected && part(selected);
  if (!p) {
    box.replaceChildren(el('p', { class: 'hint' }, 'Click a room or area on the GM sheet to reroll, lock or rename it.'));
    return;
  }
  const head = el('h3', {}, p.label + (p.kind === 'room' || p.kind === 'area' ? ': ' : ''));
  if (p.kind === 'room' || p.kind === 'area') head.append(p.name || '(unused)');
  if (p.locked) head.append(el('span', { class: 'locked-badge' }, 'locked'));
  const children = [head];
  if (p.used) {
    const input = el('input', { id: 'rename', value: p.name, 'aria-label': 'name' });
    const rename = () => {
      const name = input.value.trim();
      if (name && name !== p.name) edit('rename:' + p.path + ':' + name);
    };
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') rename(); });
    children.push(el('div', { class: 'row' }, input, el('button', { type: 'button', id: 'rename-button', onclick: rename }, 'Rename')));
  }
  if (p.lines.length) children.push(el('ul', {}, ...p.lines.map((l) => el('li', {}, l))));
  const buttons = el('div', { class: 'buttons' });
  if (p.used) {
    buttons.append(el('button', { type: 'button', id: 'reroll-all', onclick: () => edit('reroll:' + p.path) },
      p.kind !== 'frame' ? 'Reroll ' + p.label
        : view.game === 'myk' ? 'Reroll title, hooks and clues' : 'Reroll title, trailer, ruler and logic'));
    for (const what of p.rerolls) {
      buttons.append(el('button', { type: 'button', 'data-reroll': what, onclick: () => edit('reroll:' + p.path + '/' + what) }, 'Reroll ' + what));
    }
    buttons.append(el('button', { type: 'button', id: 'lock', onclick: () => edit((p.locked ? 'unlock:' : 'lock:') + p.path) },
      p.locked ? 'Unlock' : 'Lock'));
  }
  children.push(buttons);
  box.replaceChildren(...children);
}

function drawParts() {
  $('#parts').replaceChildren(...view.parts.map((p) => {
    const a = el('a', { 'data-part': p.path, class: p.used ? '' : 'unused', onclick: () => select(p.path) },
      p.label + (p.name && p.kind !== 'frame' ? ' ' + p.name : p.kind === 'frame' ? ' (title, hooks)' : ''));
    const li = el('li', {}, a);
    if (p.locked) li.append(el('span', { class: 'locked-badge' }, 'locked'));
    return li;
  }));
}

function drawCheck() {
  $('#check').replaceChildren(view.check.length
    ? el('ul', {}, ...view.check.map((c) => el('li', {}, c)))
    : el('span', { class: 'ok' }, 'ok: every rule and limit holds'));
}

function drawLimits() {
  $('#limits').replaceChildren(
    el('tr', {}, el('th', {}, 'limit'), el('th', { class: 'num' }, 'max'), el('th', { class: 'num' }, 'used')),
    ...view.limits.map((l) => el('tr', {}, el('td', {}, l.what), el('td', { class: 'num' }, l.limit), el('td', { class: 'num' }, l.used))));
}

function drawHistory() {
  $('#history').replaceChildren(...view.ops.map((o) => el('li', {}, o)));
  $('#undo').disabled = view.ops.length === 0;
}

function drawDownloads() {
  const link = (name, id) => el('li', {}, el('a', { href: '/download/' + encodeURIComponent(name) + '?' + view.query, download: name, id }, name));
  const items = view.files.map((f) => link(f, f.endsWith('.json') ? 'download-json' : ''));
  items.push(link(view.zip, 'download-zip'));
  for (const i of items) if (!i.firstChild.id) i.firstChild.removeAttribute('id');
  $('#downloads').replaceChildren(...items);
  // Part two has a page of its own only when the permalink writes it apart.
  $('#print-reference').hidden = new URLSearchParams(view.query).get('reference') !== 'separate';
}

function printPage(path) {
  const w = window.open(path + '?' + view.query, '_blank');
  if (w) w.addEventListener('load', () => w.print());
}

$('#options').addEventListener('submit', (e) => {
  e.preventDefault();
  if (!$('#seed').value.trim()) $('#seed').value = randomSeed();
  load(formQuery(), 'push');
});
for (const r of document.querySelectorAll('input[name=game]')) {
  r.addEventListener('change', () => { document.body.dataset.game = r.value; });
}
$('#random-seed').addEventListener('click', () => { $('#seed').value = randomSeed(); });
$('#regenerate').addEventListener('click', () => {
  const seed = $('#regen-seed').value.trim();
  edit('regen:' + seed).then((ok) => { if (ok) $('#regen-seed').value = randomSeed(); });
});
$('#undo').addEventListener('click', undo);
$('#print').addEventListener('click', () => printPage('/booklet'));
$('#print-reference').addEventListener('click', () => printPage('/reference'));
$('#message-close').addEventListener('click', hideMessage);
$('#sheet').addEventListener('click', (e) => {
  const hook = e.target.closest('[data-room], [data-area]');
  if (hook) select(hook.dataset.room || 'area' + hook.dataset.area);
});
window.addEventListener('popstate', () => load(location.search.slice(1), 'none'));

// First visit without a seed: a random one, so the address bar holds a permalink at once.
(function start() {
  const p = new URLSearchParams(location.search);
  if (!p.has('seed')) p.set('seed', randomSeed());
  fillForm(p.toString());
  load(p.toString(), 'replace');
})();
