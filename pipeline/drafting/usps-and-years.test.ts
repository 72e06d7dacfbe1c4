// Selling points laid out as a grid of div cards (an icon, a title, a line) under a heading a
// builder styled from a div, or as bare title blocks; founding years said in German or as
// "started in 2019 by ...".
import { describe, expect, test } from 'bun:test';
import { ExtractiveDrafter } from './extractive.ts';
import { fixturePage } from '../../test/fixtures/sites/sites.ts';
import type { CrawledPage } from './types.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const drafter = new ExtractiveDrafter({ now: NOW });
const draft = (pages: CrawledPage[]) => drafter.draft({ pages, categoryNames: [] });
const page = (path: string, body: string, title = 'Steamly — rotas for cafés') =>
  fixturePage(`https://steamly.test${path}`, `<html><head><title>${title}</title></head><body>${body}</body></html>`);
const hero =
  '<div class="hero"><div class="hero-title">Rotas for cafés</div><p>Steamly plans the rota for your café and sends timesheets to payroll.</p></div>';

describe('selling points from card grids', () => {
  test('icon cards under a div heading: the titles are the USPs, never the icon words', async () => {
    const grid =
      '<section><div class="section-title">Why cafés choose Steamly</div><div class="grid">' +
      '<div class="card"><span class="material-icons">bolt</span><div class="card-title">A rota in five minutes</div><div class="card-text">Drag your regulars in and the gaps fill themselves.</div></div>' +
      '<div class="card"><i class="fa-solid fa-right-left"></i><div class="card-title">Swaps without the group chat</div><div class="card-text">Offer a shift, a colleague takes it, you approve.</div></div>' +
      '<div class="card"><span class="icon icon-clock" role="img"></span><div class="card-title">Timesheets that match the till</div><div class="card-text">Clock-ins become timesheets every Friday.</div></div>' +
      '</div></section>';
    const d = await draft([page('/', hero + grid)]);
    expect(d.fields.usps?.value).toEqual(['A rota in five minutes', 'Swaps without the group chat', 'Timesheets that match the till']);
    expect(d.fields.usps!.evidence.every((e) => e.url === 'https://steamly.test/')).toBe(true);
    expect(JSON.stringify(d)).not.toContain('bolt');
  });

  test('bare title blocks count only under a heading that announces selling points, and never links', async () => {
    const bare = (heading: string, item: (t: string) => string) =>
      `<div class="group"><div class="text">${heading}</div><div class="repeating">${['Fair rotas that balance themselves', 'Points kids care about', 'Works on every phone'].map((t) => `<div class="item">${item(t)}</div>`).join('')}</div></div>`;
    const said = await draft([page('/', hero + bare('Why parents love Steamly', (t) => `<div class="content">${t}</div>`))]);
    expect(said.fields.usps?.value).toEqual(['Fair rotas that balance themselves', 'Points kids care about', 'Works on every phone']);
    const unsaid = await draft([page('/', hero + bare('Made for busy homes', (t) => `<div class="content">${t}</div>`))]);
    expect(unsaid.fields.usps).toBeUndefined();
    expect(unsaid.fields.features).toBeUndefined();
    const links = await draft([page('/', hero + bare('Why parents love Steamly', (t) => `<a href="/${t.length}">${t}</a>`))]);
    expect(links.fields.usps).toBeUndefined();
  });

  test('a heading wrapped by a site builder: its list is a sibling of the outermost wrapper', async () => {
    const widget = (inner: string) => `<div class="widget"><div class="widget-container">${inner}</div></div>`;
    const items = ['Rotas built from last year’s covers', 'Shift swaps approved in one tap', 'Timesheets that match the till'];
    const section = (list: string) =>
      `<div class="container"><div class="inner">${widget('<h2>Why cafés switch to Steamly</h2>')}${list}</div></div>` +
      `<div class="container"><div class="inner">${widget('<h2>Our newsletter</h2>')}${widget('<ul><li>Monthly tips</li></ul>')}</div></div>`;
    const d = await draft([page('/', hero + section(widget(`<ul>${items.map((t) => `<li><span>${t}</span></li>`).join('')}</ul>`)))]);
    expect(d.fields.usps?.value).toEqual(items);
    // What the heading's own wrapper holds is its section: nothing further up is read as well.
    const own = widget(`<h2>Why cafés switch to Steamly</h2><ul><li>${items[0]}</li></ul>`);
    const near = await draft([page('/', hero + `<div class="container"><div class="inner">${own}${widget(`<ul><li>${items[1]}</li></ul>`)}</div></div>`)]);
    expect(near.fields.usps?.value).toEqual([items[0]]);
  });

  test('cards a builder numbers one per column, each with an icon-font glyph: their titles, never the glyph', async () => {
    const column = (n: number, title: string, text: string) =>
      `<div class="et_pb_column et_pb_column_1_3 et_pb_column_${n}${n === 5 ? ' et-last-child' : ''}"><div class="et_pb_module et_pb_blurb et_pb_blurb_${n}">` +
      `<div class="et_pb_main_blurb_image"><span class="et-pb-icon">\ue0f3</span></div>` +
      `<h4 class="et_pb_module_header"><span>${title}</span></h4><div class="et_pb_blurb_description"><p>${text}</p></div></div></div>`;
    const row =
      '<div class="et_pb_row"><div class="et_pb_column"><div class="et_pb_text"><div class="et_pb_text_inner"><h2>What Steamly does for your café</h2></div></div></div></div>' +
      `<div class="et_pb_row">${column(3, 'Rotas in five minutes', 'Drag your regulars in.')}${column(4, 'Swaps without the group chat', 'Offer a shift, approve it.')}${column(5, 'Timesheets that match the till', 'Every Friday.')}</div>`;
    const d = await draft([page('/', hero + row)]);
    expect(d.fields.features?.value).toEqual(['Rotas in five minutes', 'Swaps without the group chat', 'Timesheets that match the till']);
    expect(JSON.stringify(d)).not.toContain('\ue0f3');
  });

  test('a German grid under "Warum ...?" is read the same way', async () => {
    const grid =
      '<h2>Warum Steamly?</h2><div class="hgrid">' +
      ['GoBD-konform ab dem ersten Bon', 'Rechnungen in zwei Minuten', 'Direkter Draht zur Steuerberatung']
        .map((t) => `<div class="col"><div class="j-text"><i class="fa-solid fa-check"></i><h3>${t}</h3><p>Ein Satz dazu.</p></div></div>`)
        .join('') +
      '</div>';
    const d = await draft([page('/', hero + grid)]);
    expect(d.fields.usps?.value).toEqual(['GoBD-konform ab dem ersten Bon', 'Rechnungen in zwei Minuten', 'Direkter Draht zur Steuerberatung']);
  });
});

describe('founding years', () => {
  test('German: "wurde 2019 in Leipzig gegründet", quoted; a customer\'s "seit 2016" and another firm\'s "gegründet 1952" are not', async () => {
    const d = await draft([
      page('/', `${hero}<blockquote><p>„Seit 2016 backen wir mit Sauerteig.“ – Bäckerei Hansen, Kiel</p></blockquote>`),
      page(
        '/ueber-uns',
        '<h1>Über uns</h1><p>Unsere Großeltern führten eine Bäckerei, gegründet 1952 in Halle.</p><p>Steamly wurde 2019 in Leipzig gegründet, von Jana Voigt und Lukas Brenner.</p>',
        'Über uns – Steamly',
      ),
    ]);
    expect(d.fields.founded_year?.value).toBe('2019');
    expect(d.fields.founded_year!.evidence[0]!.quote).toContain('wurde 2019 in Leipzig gegründet');
  });

  test('German badge "Seit 2019" and "Seit 2019 helfen wir ..."', async () => {
    const badge = await draft([page('/', `${hero}<div class="badge">Seit 2019</div>`)]);
    expect(badge.fields.founded_year?.value).toBe('2019');
    const we = await draft([page('/', `${hero}<p>Seit 2021 helfen wir Handwerksbäckereien beim Kassenbuch.</p>`)]);
    expect(we.fields.founded_year?.value).toBe('2021');
  });

  test('"was started in 2019 by ..." is the founding; another company started by someone is not', async () => {
    const d = await draft([
      page('/', hero),
      page(
        '/about',
        '<h1>About</h1><p>Before this, Mara ran Beanhouse, which was started in 2009 by her father.</p><p>Steamly was started in 2019 by Mara Quinn and Tom Ede, two former baristas.</p>',
        'About — Steamly',
      ),
    ]);
    expect(d.fields.founded_year?.value).toBe('2019');
    expect(d.fields.founded_year!.evidence[0]!.quote).toContain('started in 2019 by Mara Quinn');
  });
});
