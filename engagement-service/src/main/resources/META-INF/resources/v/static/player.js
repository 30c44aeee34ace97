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
  var stage = document.getElementById('stage');
  if (stage) { prepare(stage); }
  if (video) { watch(video); }

  // A video rendered on first view (docs/sharing.md): the page asks where its render stands until it is ready, then
  // plays it here; a render that failed shows the error and a retry, which asks for the render again.
  function prepare(stage) {
    var status = stage.querySelector('.preparing');
    var retry = stage.querySelector('[data-retry]');
    var base = '/v/' + encodeURIComponent(share);
    var wait = 1000;
    function show(state) {
      stage.setAttribute('data-state', state);
      retry.hidden = state !== 'failed';
      status.textContent = state === 'failed' ? 'This video could not be prepared.' :
        'This video is being prepared. It starts here as soon as it is ready.';
    }
    function play() {
      var v = document.createElement('video');
      v.id = 'player';
      v.controls = true;
      v.setAttribute('playsinline', '');
      v.preload = 'auto';
      v.poster = stage.getAttribute('data-poster');
      v.src = stage.getAttribute('data-video');
      v.setAttribute('aria-label', stage.getAttribute('data-title') || 'Video');
      if (stage.getAttribute('data-width')) {
        v.width = Number(stage.getAttribute('data-width'));
        v.height = Number(stage.getAttribute('data-height'));
      }
      stage.replaceWith(v);
      video = v;
      watch(v);
      var started = v.play();
      if (started && started.catch) { started.catch(function () {}); }
    }
    function poll() {
      fetch(base + '/state', { credentials: 'omit', cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : { state: 'preparing' }; })
        .catch(function () { return { state: 'preparing' }; })
        .then(function (answer) {
          if (answer.state === 'ready') { play(); return; }
          show(answer.state === 'failed' ? 'failed' : 'preparing');
          if (answer.state !== 'failed') {
            setTimeout(poll, wait);
            wait = Math.min(wait * 1.5, 5000);
          }
        });
    }
    retry.addEventListener('click', function () {
      show('preparing');
      wait = 1000;
      fetch(base + '/render', { method: 'POST', credentials: 'omit' }).catch(function () {}).then(poll);
    });
    if (stage.getAttribute('data-state') !== 'failed') { poll(); }
  }

  function watch(video) {
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
