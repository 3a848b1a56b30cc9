// Loads dungeonsmith's Udonarium rooms in a real Udonarium build, in headless Chromium, as a user
// does (the zip through the menu's "ZIP読込" file input), and reports what the GM sees on each
// table: every text note's title hit-tested where Udonarium draws it (notes stand upright on the
// tilted table, so a note in front can hide the title of one behind), names cut short, notes
// taller than the view, pieces on the table and in the inventory against what the zip holds, and
// whether Udonarium's own save gives back the same room. See README.md.
//
//   node check.mjs --dist DIR [--shots DIR] [--chromium PATH] ROOM.zip...
//
// Exit 0 when every room loads whole and every title reads; 1 when any defect is counted; 2 on a
// usage error.

import { createServer } from 'node:http';
import { readFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join, extname, basename, resolve } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const VIEW = { width: 1600, height: 1000 };

function usage(msg) {
  console.error(`check.mjs: ${msg}`);
  console.error('usage: node check.mjs --dist DIR [--shots DIR] [--chromium PATH] [--every-note] ROOM.zip...');
  process.exit(2);
}

function args(argv) {
  const o = { dist: null, shots: 'shots', chromium: process.env.CHROMIUM || '/usr/bin/chromium', zips: [], every: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist' || a === '--shots' || a === '--chromium') {
      if (i + 1 >= argv.length) usage(`\`${a}\` needs a value`);
      o[a.slice(2)] = argv[++i];
    } else if (a === '--every-note') o.every = true;
    else if (a.startsWith('--')) usage(`unknown option \`${a}\``);
    else o.zips.push(a);
  }
  if (!o.dist) usage('`--dist` (the built Udonarium folder holding index.html) is required');
  if (!existsSync(join(o.dist, 'index.html'))) usage(`\`${o.dist}\` holds no index.html (the build's output folder)`);
  if (!existsSync(o.chromium)) usage(`no Chromium at \`${o.chromium}\` (set --chromium or CHROMIUM)`);
  if (o.zips.length === 0) usage('name at least one room zip');
  for (const z of o.zips) if (!existsSync(z)) usage(`no file \`${z}\``);
  return o;
}

// A zip's entries by name (stored or deflated), enough for Udonarium's and our zips.
function unzip(buf) {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip (no end of central directory)');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map();
  for (let i = 0; i < count; i++) {
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extra = buf.readUInt16LE(p + 30);
    const comment = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + size);
    out.set(name, method === 0 ? raw : inflateRawSync(raw));
    p += 46 + nameLen + extra + comment;
  }
  return out;
}

// The built Udonarium, served on loopback only.
function serve(dist) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.yaml': 'text/yaml',
    '.png': 'image/png', '.gif': 'image/gif', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.mp3': 'audio/mpeg',
    '.ico': 'image/x-icon', '.json': 'application/json', '.woff2': 'font/woff2' };
  const root = resolve(dist);
  const server = createServer((req, res) => {
    let path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = resolve(join(root, path));
    if (!file.startsWith(root)) { res.writeHead(403); res.end(); return; }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise(ok => server.listen(0, '127.0.0.1', () => ok(server)));
}

// What a room's data.xml holds, read by the browser's XML parser (Udonarium's own reader is the
// same DOMParser): tables, notes and pieces.
async function roomOf(page, xml) {
  return page.evaluate(xml => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const data = (el, name) => {
      const d = [...el.querySelectorAll('data')].find(e => e.getAttribute('name') === name);
      return d ? d.textContent : '';
    };
    const num = (el, a) => Number(el.getAttribute(a));
    return {
      tables: [...doc.querySelectorAll('game-table')].map(t => ({
        name: t.getAttribute('name'), w: num(t, 'width'), h: num(t, 'height'), grid: num(t, 'gridSize'),
        masks: t.querySelectorAll('table-mask').length, terrains: t.querySelectorAll('terrain').length,
      })),
      notes: [...doc.querySelectorAll('text-note')].map(n => ({
        title: data(n, 'title'), x: num(n, 'location.x'), y: num(n, 'location.y'),
        w: Number(data(n, 'width')), h: Number(data(n, 'height')), text: data(n, 'text'),
      })),
      pieces: [...doc.querySelectorAll('character')].map(c => ({
        name: data(c, 'name'), where: c.getAttribute('location.name'), x: num(c, 'location.x'), y: num(c, 'location.y'),
      })),
    };
  }, xml);
}

// Sets Udonarium's camera as its game-table component writes it (the opening tilt, 50 degrees
// about x and 10 about z), moved by (dx, dy, dz).
async function camera(page, dx, dy, dz = 0) {
  await page.evaluate(([dx, dy, dz]) => {
    const el = document.querySelector('game-table .component-content');
    el.style.transform = `translateZ(${dz}px) translateY(${dy}px) translateX(${100 + dx}px) rotateY(0deg) rotateX(50deg) rotateZ(10deg)`;
  }, [dx, dy, dz]);
  await page.waitForTimeout(50);
}

// Every note as drawn: its title, its foot and size in table pixels, its title's sample points on
// screen and what stands topmost at each (the note itself, or what hides it).
async function readNotes(page) {
  return page.evaluate(() => {
    const notes = [...document.querySelectorAll('text-note')];
    return notes.map((host, i) => {
      const front = host.querySelector('.upright-transform.is-front');
      const title = host.querySelector('.title');
      const move = host.querySelector('.component');
      const m = /translate3d\(([-\d.]+)px, ([-\d.]+)px/.exec(move.style.transform) || [0, 0, 0];
      const face = front.getBoundingClientRect();
      const r = { i, title: title ? title.textContent : '', x: Number(m[1]), y: Number(m[2]),
        wPx: front.offsetWidth, hPx: front.offsetHeight, cut: title ? title.scrollWidth > title.clientWidth : false,
        face: { left: face.left, top: face.top, right: face.right, bottom: face.bottom }, samples: [], body: [] };
      const mark = (left, top) => {
        const dot = document.createElement('span');
        dot.style.cssText = `position:absolute;width:1px;height:1px;pointer-events:none;left:${left}px;top:${top}px`;
        front.appendChild(dot);
        const b = dot.getBoundingClientRect();
        dot.remove();
        return { x: b.left, y: b.top };
      };
      for (const fy of [0.2, 0.4, 0.6, 0.8, 0.95])
        for (const fx of [0.05, 0.25, 0.5, 0.75, 0.95]) r.body.push(mark(fx * front.offsetWidth, fy * front.offsetHeight));
      if (!title) return r;
      for (const fx of [0.04, 0.2, 0.35, 0.5, 0.65, 0.8, 0.96]) {
        const width = Math.min(title.offsetWidth, title.scrollWidth);
        r.samples.push(mark(title.offsetLeft + fx * width, title.offsetTop + title.offsetHeight / 2));
      }
      return r;
    });
  });
}

// What stands topmost at each sample point of note `i` (null: off the screen).
async function hits(page, i, samples) {
  return page.evaluate(([i, samples]) => {
    const host = document.querySelectorAll('text-note')[i];
    return samples.map(({ x, y }) => {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'off';
      const top = document.elementFromPoint(x, y);
      if (!top) return 'off';
      if (host.contains(top)) return 'self';
      const note = top.closest('text-note');
      if (note) {
        const t = note.querySelector('.title');
        return 'note:' + (t ? t.textContent : '?');
      }
      const piece = top.closest('game-character');
      if (piece) return 'piece:' + (piece.querySelector('.name-tag')?.textContent.trim() ?? '?');
      if (top.closest('ui-panel')) return 'panel';
      return 'other:' + top.tagName.toLowerCase();
    });
  }, [i, samples]);
}

// How far the camera must come (translateZ) to bring table pixel (x, y) to the depth of the
// opening view's middle, as a user zooms with the wheel: far down the tilted table a point stands
// nearer than the eye, out of any view, until the table is pushed back.
async function depth(page, x, y) {
  return page.evaluate(([x, y]) => {
    const el = document.querySelector('game-table .component-content');
    const m = new DOMMatrix(getComputedStyle(el).transform);
    // The transform turns about the middle of the 2000 px square the table hangs from.
    return -m.transformPoint(new DOMPoint(x - 1000, y - 1000, 0)).z;
  }, [x, y]);
}

// Moves the camera until the screen point `get()` returns stands at the view's middle, the table
// first brought to the depth of table pixel (x, y).
async function centre(page, x, y, get) {
  await camera(page, 0, 0, 0);
  const dz = await depth(page, x, y);
  let d = { x: 0, y: 0, z: dz };
  for (let k = 0; k < 6; k++) {
    await camera(page, d.x, d.y, d.z);
    const p = await get();
    const ex = VIEW.width / 2 - p.x, ey = VIEW.height / 2 - p.y;
    if (Math.abs(ex) < 4 && Math.abs(ey) < 4) break;
    d = { x: d.x + ex, y: d.y + ey, z: dz };
  }
  return d;
}

// Each note's title read from the view centred on it: 'ok', or the share of its title hidden and
// by what.
async function judgeNotes(page, shotEach) {
  const first = await readNotes(page);
  const out = [];
  for (const n of first) {
    const d = await centre(page, n.x, n.y, async () => {
      const all = await readNotes(page);
      const s = all[n.i].samples;
      return s.length ? s[Math.floor(s.length / 2)] : { x: VIEW.width / 2, y: VIEW.height / 2 };
    });
    const now = (await readNotes(page))[n.i];
    const seen = await hits(page, n.i, now.samples);
    if (shotEach) await page.screenshot({ path: `${shotEach}-note${n.i}.png` });
    const hidden = seen.filter(s => s !== 'self');
    // The note's text below its title: covered where another note or a piece stands on top.
    const under = (await hits(page, n.i, now.body)).filter(s => s.startsWith('note:') || s.startsWith('piece:'));
    const tall = now.face.bottom - now.face.top > VIEW.height;
    out.push({ ...now, camera: d, seen, hiddenShare: seen.length ? hidden.length / seen.length : 1,
      by: [...new Set(hidden)], tall, covered: under.length / now.body.length, coveredBy: [...new Set(under)] });
  }
  await camera(page, 0, 0);
  return out;
}

// Pieces on the table as drawn: name tag text, foot, whether the tag is cut short, and sample
// points on screen along the tag and over the token.
async function readPieces(page) {
  return page.evaluate(() => [...document.querySelectorAll('game-character')].map((c, i) => {
    const tag = c.querySelector('.name-tag');
    const text = tag ? tag.querySelector('.has-length-limit') : null;
    // The token's square frame: an <img> draws no child, so the points hang from its frame.
    const img = c.querySelector('.rotate-frame');
    const move = c.querySelector('.component');
    const m = /translate3d\(([-\d.]+)px, ([-\d.]+)px/.exec(move.style.transform) || [0, 0, 0];
    const at = (el, fx, fy) => {
      const dot = document.createElement('span');
      dot.style.cssText = `position:absolute;width:1px;height:1px;pointer-events:none;left:${fx * el.offsetWidth}px;top:${fy * el.offsetHeight}px`;
      el.appendChild(dot);
      const b = dot.getBoundingClientRect();
      dot.remove();
      return { x: b.left, y: b.top };
    };
    return { i, name: text ? text.textContent.trim() : '', x: Number(m[1]), y: Number(m[2]),
      cut: text ? text.scrollWidth > text.clientWidth : true,
      tag: tag ? [0.15, 0.5, 0.85].map(fx => at(tag, fx, 0.5)) : [],
      token: img ? [[0.5, 0.3], [0.3, 0.6], [0.7, 0.6], [0.5, 0.85]].map(([fx, fy]) => at(img, fx, fy)) : [] };
  }));
}

// What stands topmost at each point, for piece `i`: itself, or what hides it.
async function pieceHits(page, i, points) {
  return page.evaluate(([i, points]) => {
    const host = document.querySelectorAll('game-character')[i];
    return points.map(({ x, y }) => {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return 'off';
      const top = document.elementFromPoint(x, y);
      if (!top) return 'off';
      if (host.contains(top)) return 'self';
      const note = top.closest('text-note');
      if (note) return 'note:' + (note.querySelector('.title')?.textContent ?? '?');
      const piece = top.closest('game-character');
      if (piece) return 'piece:' + (piece.querySelector('.name-tag')?.textContent.trim() ?? '?');
      if (top.closest('ui-panel')) return 'panel';
      return 'table';
    });
  }, [i, points]);
}

// Each piece seen from a view centred on it: the share of its name tag and of its token that
// another piece or a note hides (the token's own tag pointer-transparent parts read as 'table').
async function judgePieces(page) {
  const first = await readPieces(page);
  const out = [];
  for (const p of first) {
    const d = await centre(page, p.x, p.y, async () => (await readPieces(page))[p.i].token[0] || { x: VIEW.width / 2, y: VIEW.height / 2 });
    const now = (await readPieces(page))[p.i];
    const tagSeen = await pieceHits(page, p.i, now.tag);
    const tokenSeen = await pieceHits(page, p.i, now.token);
    const by = s => s.startsWith('note:') || s.startsWith('piece:');
    out.push({ ...now, camera: d, tagHidden: tagSeen.filter(by), tokenHidden: tokenSeen.filter(by) });
  }
  await camera(page, 0, 0);
  return out;
}

async function openMenu(page, label) {
  await page.locator('nav li', { hasText: label }).first().click();
  await page.waitForTimeout(300);
}

// Closes Udonarium's panels, so the table stands clear.
async function closePanels(page) {
  for (let k = 0; k < 40; k++) {
    const panel = page.locator('ui-panel .title-button button:has(i:text("close"))');
    if ((await panel.count()) === 0) return;
    await panel.first().click({ timeout: 3000 }).catch(() => {});
    await page.waitForTimeout(300);
  }
}

// The tables Udonarium lists in its table settings, by name and option value.
async function tables(page) {
  await openMenu(page, 'テーブル設定');
  const opts = await page.locator('game-table-setting select[size="10"] option').evaluateAll(os =>
    os.map(o => ({ id: o.value, name: o.textContent.trim() })));
  return opts;
}

async function showTable(page, id) {
  await page.locator('game-table-setting select[size="10"]').selectOption(id);
  await page.waitForTimeout(500);
}

// The inventory's shared ("共有インベントリ") list: every piece's name.
async function inventory(page) {
  await openMenu(page, 'インベントリ');
  const tab = page.locator('game-object-inventory').getByText('共有', { exact: false }).first();
  if (await tab.count()) await tab.click();
  await page.waitForTimeout(300);
  const names = await page.locator('game-object-inventory .object-name, game-object-inventory .inventory-object .name')
    .allTextContents().catch(() => []);
  return names.map(s => s.trim()).filter(Boolean);
}

function overlaps(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

async function loadZip(page, zip) {
  await page.locator('nav input[type=file]').setInputFiles(zip);
}

async function settle(page, want) {
  for (let k = 0; k < 120; k++) {
    const n = await page.evaluate(() => document.querySelectorAll('text-note').length);
    if (n === want) break;
    await page.waitForTimeout(250);
  }
  await page.waitForTimeout(1500);
}

function sameRoom(a, b) {
  const key = o => JSON.stringify(o);
  const diff = [];
  const cmp = (what, xs, ys) => {
    const sx = xs.map(key).sort(), sy = ys.map(key).sort();
    if (sx.length !== sy.length || sx.some((v, i) => v !== sy[i])) diff.push(`${what}: ${sx.length} in the zip, ${sy.length} re-saved, differing`);
  };
  cmp('tables', a.tables.map(t => [t.name, t.w, t.h, t.grid]), b.tables.map(t => [t.name, t.w, t.h, t.grid]));
  cmp('notes', a.notes.map(n => [n.title, n.x, n.y, n.w, n.text]), b.notes.map(n => [n.title, n.x, n.y, n.w, n.text]));
  cmp('pieces', a.pieces.map(p => [p.name, p.where, p.x, p.y]), b.pieces.map(p => [p.name, p.where, p.x, p.y]));
  return diff;
}

async function checkRoom(browser, base, zip, shots, every) {
  const stem = basename(zip, '.zip');
  const context = await browser.newContext({ viewport: VIEW, acceptDownloads: true });
  // Udonarium tries its peer-to-peer backend and Google's icon font: nothing leaves loopback.
  await context.route(url => !/^https?:\/\/127\.0\.0\.1[:/]/.test(url.href) && !url.href.startsWith('blob:') && !url.href.startsWith('data:'),
    r => r.abort());
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'warning' && !/SkyWay|backend|network/i.test(m.text())) errors.push(m.text()); });
  await page.goto(base, { waitUntil: 'load' });
  await page.waitForSelector('game-table #app-game-table', { state: 'attached', timeout: 60000 });
  // Without a backend Udonarium says so in a modal, and closing it retries the connection and
  // opens the next: the modal is left open, unseen (its text goes to the report).
  await page.addStyleTag({ content: 'modal { display: none !important; }' });
  await page.waitForSelector('modal', { state: 'attached', timeout: 20000 }).catch(() => {});
  const modal = (await page.locator('modal').allTextContents()).join(' | ');
  if (modal) console.log(`(Udonarium's modal, left unseen: ${modal.slice(0, 120)})`);
  await closePanels(page);

  const want = await roomOf(page, unzip(readFileSync(zip)).get('data.xml').toString('utf8'));
  await loadZip(page, zip);
  await settle(page, want.notes.length);
  await closePanels(page);

  const report = { zip, tables: [], defects: 0 };
  const listed = await tables(page);
  const inv = await inventory(page);
  await closePanels(page);
  const onTable = want.pieces.filter(p => p.where === 'table');
  const inCommon = want.pieces.filter(p => p.where === 'common');
  console.log(`\n== ${stem}: ${want.tables.length} tables, ${want.notes.length} notes, ${onTable.length} pieces on the table, ${inCommon.length} in the inventory (zip)`);
  console.log(`   Udonarium lists ${listed.length} tables: ${listed.map(t => JSON.stringify(t.name)).join(', ')}; inventory lists ${inv.length}`);
  const missingTables = want.tables.filter(t => !listed.some(l => l.name === t.name));
  if (missingTables.length || listed.length !== want.tables.length) {
    report.defects++;
    console.log(`   DEFECT tables: zip ${want.tables.map(t => t.name).join(' | ')}; shown ${listed.map(t => t.name).join(' | ')}`);
  }
  if (inCommon.length && inv.length && inv.length !== inCommon.length) {
    report.defects++;
    console.log(`   DEFECT inventory: ${inCommon.length} pieces in the zip's common inventory, ${inv.length} listed`);
  }

  for (const [k, t] of listed.entries()) {
    await openMenu(page, 'テーブル設定');
    await showTable(page, t.id);
    await closePanels(page);
    await camera(page, 0, 0);
    const shot = join(shots, `${stem}-table${k + 1}.png`);
    await page.screenshot({ path: shot });
    const notes = await judgeNotes(page, every ? join(shots, `${stem}-table${k + 1}`) : null);
    const pieces = await judgePieces(page);
    const tagsHidden = pieces.filter(p => p.tagHidden.length);
    const tokensHidden = pieces.filter(p => p.tokenHidden.length);
    const drawn = { notes: notes.length, pieces: pieces.length };
    const hidden = notes.filter(n => n.hiddenShare > 0);
    const overHalf = hidden.filter(n => n.hiddenShare > 0.5);
    const cut = notes.filter(n => n.cut);
    const tall = notes.filter(n => n.tall);
    const nameless = pieces.filter(p => !p.name || p.cut);
    const covered = notes.filter(n => n.covered > 0);
    const faceOverlaps = [];
    for (let a = 0; a < notes.length; a++)
      for (let b = a + 1; b < notes.length; b++) {
        const A = notes[a], B = notes[b];
        // On the table plane: the two notes' feet (a note is a board standing on a line).
        if (A.y === B.y && Math.abs(A.x - B.x) < (A.wPx + B.wPx) / 2) faceOverlaps.push([A.title, B.title]);
      }
    const tname = want.tables[k] ? want.tables[k].name : t.name;
    console.log(`-- table ${k + 1} ${JSON.stringify(t.name)} (${shot})`);
    console.log(`   drawn: ${drawn.notes} notes (zip ${want.notes.length}), ${drawn.pieces} pieces on the table (zip ${onTable.length})`);
    console.log(`   titles hidden in part: ${hidden.length}, more than half: ${overHalf.length}; titles cut short: ${cut.length}; notes taller than the view: ${tall.length}; pieces without a readable name: ${nameless.length}; notes on one line over each other: ${faceOverlaps.length}; notes whose text another note or a piece covers: ${covered.length}`);
    console.log(`   pieces: name tag hidden in part: ${tagsHidden.length}; token hidden in part: ${tokensHidden.length}`);
    for (const n of notes) {
      const flag = n.hiddenShare > 0 ? ` HIDDEN ${Math.round(n.hiddenShare * 100)}% by ${n.by.join(', ')}` : '';
      const more = `${n.cut ? ' CUT' : ''}${n.tall ? ' TALL' : ''}${n.covered > 0 ? ` COVERED ${Math.round(n.covered * 100)}% by ${n.coveredBy.join(', ')}` : ''}`;
      console.log(`   note (${n.x},${n.y}) ${n.wPx}x${n.hPx}px ${JSON.stringify(n.title)}${flag}${more}`);
    }
    for (const p of nameless) console.log(`   piece at (${p.x},${p.y}) name ${JSON.stringify(p.name)} unreadable`);
    for (const p of pieces) if (p.tagHidden.length || p.tokenHidden.length)
      console.log(`   piece (${p.x},${p.y}) ${JSON.stringify(p.name)}:${p.tagHidden.length ? ` tag ${p.tagHidden.length}/${p.tag.length} hidden by ${[...new Set(p.tagHidden)].join(', ')}` : ''}${p.tokenHidden.length ? ` token ${p.tokenHidden.length}/${p.token.length} hidden by ${[...new Set(p.tokenHidden)].join(', ')}` : ''}`);
    for (const [a, b] of faceOverlaps) console.log(`   OVERLAP ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    if (drawn.notes !== want.notes.length || drawn.pieces !== onTable.length) report.defects++;
    report.defects += hidden.length + cut.length + tall.length + nameless.length + faceOverlaps.length + covered.length + tagsHidden.length + tokensHidden.length;
    // A shot centred on each hidden title, for the eye.
    for (const n of [...new Set([...hidden, ...covered])].slice(0, 5)) {
      await camera(page, n.camera.x, n.camera.y, n.camera.z);
      await page.screenshot({ path: join(shots, `${stem}-table${k + 1}-hidden-${n.i}.png`) });
    }
    await camera(page, 0, 0);
    report.tables.push({ name: tname, notes: notes.length, hidden: hidden.length, overHalf: overHalf.length, cut: cut.length, tall: tall.length, nameless: nameless.length, covered: covered.length, tagsHidden: tagsHidden.length, tokensHidden: tokensHidden.length });
  }

  // Udonarium's own save (the menu's 保存): the room it writes must be the room it read.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), openMenu(page, '保存')]);
  const saved = join(shots, `${stem}-resaved.zip`);
  await download.saveAs(saved);
  const back = await roomOf(page, unzip(readFileSync(saved)).get('data.xml').toString('utf8'));
  const diff = sameRoom(want, back);
  console.log(`-- re-saved by Udonarium (${saved}): ${diff.length ? 'DIFFERS: ' + diff.join('; ') : 'same tables, notes and pieces'}`);
  report.defects += diff.length;
  if (errors.length) console.log(`   page errors: ${errors.slice(0, 3).join(' | ')}`);
  await context.close();
  return report;
}

async function main() {
  const o = args(process.argv.slice(2));
  mkdirSync(o.shots, { recursive: true });
  const server = await serve(o.dist);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: o.chromium, args: ['--no-sandbox', '--disable-gpu'] });
  let defects = 0;
  try {
    for (const zip of o.zips) defects += (await checkRoom(browser, base, zip, o.shots, o.every)).defects;
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`\n${defects} defect(s) counted over ${o.zips.length} room(s)`);
  process.exit(defects ? 1 : 0);
}

main().catch(e => { console.error(`check.mjs: ${e.stack || e}`); process.exit(1); });
