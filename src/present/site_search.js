
function fold(s) {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(/['\u2019\u2018\u02BF\u02BE`]/g, '')
    .toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
}
function rank(e, q) {
  var best = 9;
  e.keys.forEach(function (k) {
    var r = k === q ? 0 : k.indexOf(q) === 0 ? 1 : k.indexOf(q) !== -1 ? 2 : 9;
    best = Math.min(best, r);
  });
  return best;
}
function search(text) {
  var results = document.getElementById('results');
  var status = document.getElementById('status');
  results.textContent = '';
  var q = fold(text);
  if (q === '') { status.textContent = ''; return; }
  var hits = [];
  ENTRIES.forEach(function (e, i) {
    var r = rank(e, q);
    if (r !== 9) { hits.push([r, e.kind === 'game' ? 0 : 1, i, e]); }
  });
  hits.sort(function (a, b) { return (a[0] - b[0]) || (a[1] - b[1]) || (a[2] - b[2]); });
  hits.slice(0, 50).forEach(function (h) {
    var e = h[3];
    var li = document.createElement('li');
    li.className = 'hit ' + e.kind;
    var a = document.createElement('a');
    a.href = e.href;
    a.textContent = e.label;
    li.appendChild(a);
    if (e.note) { li.appendChild(document.createTextNode(' (' + e.note + ')')); }
    results.appendChild(li);
  });
  status.setAttribute('data-count', String(hits.length));
  status.textContent = hits.length === 0 ? 'Nothing found for \u201c' + text + '\u201d.'
    : hits.length + (hits.length === 1 ? ' result' : ' results') + ' for \u201c' + text + '\u201d:';
}
(function () {
  var box = document.getElementById('q');
  box.addEventListener('input', function () { search(box.value); });
  var params = new URLSearchParams(location.search);
  var q = params.get('q');
  if (q === null) {
    var m = /^#q=(.*)$/.exec(location.hash);
    if (m) { q = decodeURIComponent(m[1].replace(/\+/g, ' ')); }
  }
  if (q !== null) { box.value = q; search(q); }
})();
