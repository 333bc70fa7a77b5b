// The step-through viewer of `ludotrace explain --format html` and of the site's sample
// games. GAMES holds one or two explained games (the second: the same game under another
// reading); each becomes a viewer with its own controls. (No less-than sign or ampersand is
// written here: the pages are well-formed XML too.) Positions are stored as changes
// from the step before and rebuilt once, at load. No request leaves the page.
'use strict';
var SEAT_FILL = ['#fafafa', '#dbe8ff', '#ffe1bf', '#d9f2dc', '#f0dcf5'];
var SVGNS = 'http://www.w3.org/2000/svg';

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) { e.className = cls; }
  if (text !== undefined) { e.textContent = text; }
  return e;
}

function positions(g) {
  var out = [];
  var cur = { s: g.start.s.map(function (r) { return r.slice(); }),
              o: g.start.o.map(function (r) { return r.slice(); }),
              m: g.start.m.slice(), n: g.start.n.slice(), x: g.start.x, changed: [] };
  out.push(cur);
  g.steps.forEach(function (st) {
    var next = { s: cur.s.map(function (r) { return r.slice(); }),
                 o: cur.o.map(function (r) { return r.slice(); }),
                 m: st.mk ? st.mk.slice() : cur.m, n: st.n ? st.n.slice() : cur.n, x: st.x,
                 changed: [] };
    (st.d || []).forEach(function (d) {
      next.s[d[0]][d[1]] = d[2];
      next.o[d[0]][d[1]] = d[3];
      next.changed.push(d[0] + ',' + d[1]);
    });
    out.push(next);
    cur = next;
  });
  return out;
}

function board(g, pos, heading) {
  var rows = g.layout.length, cols = rows ? g.layout[0].length : 0, cell = 48;
  var svg = document.createElementNS(SVGNS, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + (cols * cell + 2) + ' ' + (rows * cell + 2));
  svg.setAttribute('role', 'img');
  var words = [];
  var title = document.createElementNS(SVGNS, 'title');
  svg.appendChild(title);
  for (var r = 0; rows > r; r++) {
    for (var c = 0; cols > c; c++) {
      var name = g.layout[r][c];
      if (name === '') { continue; }
      var text = pos.s[r][c], seat = pos.o[r][c];
      var marked = pos.m.indexOf(name) !== -1;
      var changed = pos.changed.indexOf(r + ',' + c) !== -1;
      var x = 1 + c * cell, y = 1 + r * cell;
      var rect = document.createElementNS(SVGNS, 'rect');
      rect.setAttribute('x', x + 2); rect.setAttribute('y', y + 2);
      rect.setAttribute('width', cell - 4); rect.setAttribute('height', cell - 4);
      rect.setAttribute('rx', 8);
      rect.setAttribute('fill', SEAT_FILL[seat] || SEAT_FILL[0]);
      rect.setAttribute('stroke', changed ? '#b03a2e' : '#888');
      rect.setAttribute('stroke-width', changed ? 3 : 1);
      if (marked) { rect.setAttribute('stroke-dasharray', '4 3'); }
      svg.appendChild(rect);
      var label = document.createElementNS(SVGNS, 'text');
      label.setAttribute('x', x + 6); label.setAttribute('y', y + 14);
      label.setAttribute('class', 'site');
      label.textContent = name;
      svg.appendChild(label);
      var held = document.createElementNS(SVGNS, 'text');
      held.setAttribute('x', x + cell / 2); held.setAttribute('y', y + cell / 2 + 10);
      held.setAttribute('text-anchor', 'middle');
      held.setAttribute('class', 'held');
      held.textContent = text + (marked ? '*' : '');
      svg.appendChild(held);
      if (text !== '') { words.push(name + ' ' + text + (marked ? ' (marked)' : '')); }
    }
  }
  var notes = pos.n.map(function (kv) { return kv[0] + ' ' + kv[1]; }).join(', ');
  title.textContent = heading + '. ' + (words.length ? words.join(', ') : 'The board is empty') +
    (notes ? '. ' + notes : '') + '.';
  return { svg: svg, notes: notes };
}

// A step's heading, as `explain` writes it in text.
function stepTitle(st) {
  var mark = st.r === 1 ? ' [replayed]' : st.r === 0 ? ' [its own]' : '';
  if (st.k === 's') { return 'Before any decision'; }
  if (st.k === 'c') { return 'Chance before ply ' + st.p + ': ' + st.c + mark; }
  return 'Ply ' + st.p + ' \u00b7 seat ' + st.s + ' plays ' + st.m + ' (' +
    (st.l === 1 ? 'its only legal move' : 'one of ' + st.l + ' legal moves') + ')' + mark;
}

function ruleCard(rule) {
  var li = el('li', 'rule');
  var head = el('p');
  head.appendChild(el('strong', null, rule.id));
  head.appendChild(el('span', 'tag tag-' + rule.cls, ' ' + rule.tag));
  li.appendChild(head);
  li.appendChild(el('p', null, rule.says));
  if (rule.sets) { li.appendChild(el('p', 'meta', 'sets ' + rule.sets)); }
  rule.cites.forEach(function (q) {
    var bq = el('blockquote');
    bq.appendChild(document.createTextNode('\u201c' + q.q + '\u201d '));
    var where = q.href ? el('a', null, q.loc) : el('span', 'meta', q.loc);
    if (q.href) {
      where.setAttribute('href', q.href);
      where.setAttribute('aria-label', 'the words in the source: ' + q.loc);
    }
    bq.appendChild(where);
    if (q.note) { bq.appendChild(el('span', 'meta', ' (' + q.note + ')')); }
    li.appendChild(bq);
  });
  if (rule.point) {
    var p = el('div', 'point');
    p.appendChild(el('p', null, 'Open point ' + rule.point.id + ': ' + rule.point.question));
    var ul = el('ul');
    rule.point.options.forEach(function (o) {
      var item = el('li', o[0] === rule.point.taken ? 'taken' : null,
        o[0] + (o[0] === rule.point.taken ? ' (taken)' : '') + ': ' + o[1] +
        (o[2] ? ' (by ' + o[2] + ')' : ''));
      ul.appendChild(item);
    });
    p.appendChild(ul);
    li.appendChild(p);
  }
  return li;
}

function viewer(root, g, label) {
  var pos = positions(g);
  var at = 0;
  var box = el('section', 'viewer');
  box.setAttribute('aria-label', label);
  box.appendChild(el('h2', null, g.title));
  box.appendChild(el('p', 'meta', g.sub));
  var controls = el('div', 'controls');
  function button(text, aria, fn) {
    var b = el('button', null, text);
    b.setAttribute('type', 'button');
    b.setAttribute('aria-label', aria);
    b.addEventListener('click', fn);
    controls.appendChild(b);
    return b;
  }
  var first = button('\u00ab first', 'first step', function () { show(0); });
  var prev = button('\u25c0 previous', 'previous step', function () { show(at - 1); });
  var next = button('next \u25b6', 'next step', function () { show(at + 1); });
  var last = button('last \u00bb', 'last step', function () { show(pos.length - 1); });
  var slider = el('input');
  slider.type = 'range'; slider.min = 0; slider.max = pos.length - 1; slider.value = 0;
  slider.setAttribute('aria-label', 'step');
  slider.addEventListener('input', function () { show(parseInt(slider.value, 10)); });
  controls.appendChild(slider);
  box.appendChild(controls);
  var heading = el('h3', 'step');
  heading.setAttribute('aria-live', 'polite');
  box.appendChild(heading);
  var body = el('div', 'body');
  var left = el('div', 'board');
  var right = el('div', 'applies');
  body.appendChild(left); body.appendChild(right);
  box.appendChild(body);
  var end = el('p', 'result');
  box.appendChild(end);
  root.appendChild(box);

  function show(i) {
    at = Math.max(0, Math.min(pos.length - 1, i));
    slider.value = at;
    first.disabled = prev.disabled = at === 0;
    next.disabled = last.disabled = at === pos.length - 1;
    var st = at === 0 ? null : g.steps[at - 1];
    var title = st ? stepTitle(st) : g.startTitle;
    heading.textContent = 'Step ' + at + ' of ' + (pos.length - 1) + ': ' + title;
    left.textContent = '';
    var drawn = board(g, pos[at], title);
    left.appendChild(drawn.svg);
    left.appendChild(el('p', 'notes', drawn.notes));
    // The position in the notation `--position` reads, to copy into another command.
    var where = el('p', 'notes', 'Position: ');
    where.appendChild(el('code', 'position', pos[at].x));
    left.appendChild(where);
    right.textContent = '';
    if (!st) {
      right.appendChild(el('p', 'meta', 'The position before the steps shown. Step on with ' +
        'the buttons or the arrow keys to see each move and the words that decide it.'));
    } else {
      st.a.forEach(function (app) {
        var kind = g.kinds[app[0]];
        var div = el('div', 'app');
        div.appendChild(el('h4', null, app[1]));
        var ul = el('ul', 'rules');
        kind[0].forEach(function (ri) { ul.appendChild(ruleCard(g.rules[ri])); });
        div.appendChild(ul);
        kind[1].forEach(function (gi) { div.appendChild(el('p', 'gap', g.gaps[gi])); });
        right.appendChild(div);
      });
    }
    end.textContent = at === pos.length - 1 ? (g.complete ? g.result.join(' ') : '') : '';
  }
  show(0);
  return {
    step: function (d) { show(at + d); },
    home: function () { show(0); },
    end: function () { show(pos.length - 1); },
    ply: function (p) {
      var k = 0;
      for (var j = 0; g.steps.length > j; j++) { if (p >= g.steps[j].p) { k = j + 1; } }
      show(k);
    },
    box: box
  };
}

(function () {
  var root = document.getElementById('viewers');
  var views = GAMES.map(function (g, i) {
    return viewer(root, g, i === 0 ? 'the game' : 'the same game under ' + g.reading);
  });
  var current = views[0];
  views.forEach(function (v) {
    v.box.addEventListener('focusin', function () { current = v; });
    v.box.addEventListener('click', function () { current = v; });
  });
  document.querySelectorAll('button[data-ply]').forEach(function (b) {
    b.addEventListener('click', function () {
      var p = parseInt(b.getAttribute('data-ply'), 10);
      views.forEach(function (v) { v.ply(p); });
    });
  });
  document.addEventListener('keydown', function (e) {
    var t = e.target ? e.target.tagName : '';
    if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) {
      return;
    }
    if (e.key === 'ArrowRight') { current.step(1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { current.step(-1); e.preventDefault(); }
    else if (e.key === 'Home') { current.home(); e.preventDefault(); }
    else if (e.key === 'End') { current.end(); e.preventDefault(); }
  });
})();
