// The share page's player (docs/sharing.md, docs/privacy.md): reports what this page view does with
// navigator.sendBeacon to /v/<id>/events: view, play, progress at 25/50/75 %, complete (95 % watched), cta-click,
// each once, with this page view's token (issued with the page: its page-view id and signature) and the seconds
// played. No cookie, no storage, nothing when the browser says Do Not Track or Global Privacy Control.
(function () {
  'use strict';
  var main = document.querySelector('main[data-share]');
  if (!main) { return; }
  var share = main.getAttribute('data-share');
  var optedOut = navigator.doNotTrack === '1' || window.doNotTrack === '1' || navigator.globalPrivacyControl === true;
  var token = main.getAttribute('data-view-token') || '';
  // The page view's id is the token's first part; the server counts the beacon under the token's, whatever this says.
  var session = token.split('.')[0] || (window.crypto && crypto.randomUUID ? crypto.randomUUID() :
    String(Math.random()).slice(2) + String(Date.now())).replace(/-/g, '');
  var url = '/v/' + encodeURIComponent(share) + '/events';
  var sent = {};
  var watched = 0;
  var last = null;

  function send(type, extra) {
    if (optedOut || sent[type + (extra && extra.percent ? extra.percent : '')]) { return; }
    sent[type + (extra && extra.percent ? extra.percent : '')] = true;
    var body = { type: type, session: session, token: token, seconds: Math.round(watched * 10) / 10 };
    if (extra && extra.percent) { body.percent = extra.percent; }
    var data = JSON.stringify(body);
    if (!(navigator.sendBeacon && navigator.sendBeacon(url, data))) {
      fetch(url, { method: 'POST', body: data, keepalive: true, credentials: 'omit',
        headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
    }
  }

  send('view');
  var video = document.getElementById('player');
  if (video) {
    video.addEventListener('play', function () { send('play'); });
    video.addEventListener('seeking', function () { last = null; });
    video.addEventListener('timeupdate', function () {
      var t = video.currentTime;
      if (last !== null && t > last && t - last < 1.5) { watched += t - last; }
      last = t;
      var d = video.duration;
      if (!d || !isFinite(d)) { return; }
      var p = t / d * 100;
      [25, 50, 75].forEach(function (step) { if (p >= step) { send('progress', { percent: step }); } });
      if (p >= 95) { send('complete'); }
    });
    video.addEventListener('ended', function () {
      [25, 50, 75].forEach(function (step) { send('progress', { percent: step }); });
      send('complete');
    });
  }
  var cta = document.querySelector('[data-cta]');
  if (cta) { cta.addEventListener('click', function () { send('cta-click'); }); }
}());
