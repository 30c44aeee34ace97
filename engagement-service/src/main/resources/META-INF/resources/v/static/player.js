// The share page's player (docs/sharing.md, docs/privacy.md): reports what this page view does with
// navigator.sendBeacon to /v/<id>/events: view, play, progress at 25/50/75 %, complete (95 % watched), cta-click,
// first-frame (on a page rendered on view), each once, with this page view's token (issued with the page: its
// page-view id and signature) and the seconds played. No cookie, no storage, nothing when the browser says Do Not
// Track or Global Privacy Control.
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
    if (extra && extra.source) { body.ms = extra.ms; body.source = extra.source; }
    var data = JSON.stringify(body);
    if (!(navigator.sendBeacon && navigator.sendBeacon(url, data))) {
      fetch(url, { method: 'POST', body: data, keepalive: true, credentials: 'omit',
        headers: { 'Content-Type': 'text/plain' } }).catch(function () {});
    }
  }

  send('view');
  // Time to first frame, on a page that starts its video itself (one rendered on view): the milliseconds from the
  // page's navigation start to the first frame shown, and whether it came from the stream or the MP4. Not sent when
  // the page was hidden meanwhile: a background tab would measure the tab, not the delivery.
  var hidden = document.visibilityState === 'hidden';
  document.addEventListener('visibilitychange', function () {
    hidden = hidden || document.visibilityState === 'hidden';
  });
  function firstFrame(v, source) {
    function shown(at) {
      if (!hidden) { send('first-frame', { ms: Math.min(600000, Math.round(at)), source: source }); }
    }
    if (v.requestVideoFrameCallback) {
      v.requestVideoFrameCallback(function (now, frame) { shown(frame.presentationTime || now); });
    } else {
      v.addEventListener('playing', function () { shown(performance.now()); }, { once: true });
    }
  }
  var video = document.getElementById('player');
  var stage = document.getElementById('stage');
  if (stage) { prepare(stage); }
  if (video) { watch(video); }

  // A video rendered on first view (docs/sharing.md): the page plays the stream its render writes while it runs (the
  // template's cached opening first, then the personal seconds as they are encoded) with hls.js, or the browser's own
  // HLS player; meanwhile it asks where the render stands until it is ready, then plays the MP4 if no stream played.
  // A render that failed shows the error and a retry, which asks for the render again.
  function prepare(stage) {
    var status = stage.querySelector('.preparing');
    var retry = stage.querySelector('[data-retry]');
    var base = '/v/' + encodeURIComponent(share);
    var streamUrl = stage.getAttribute('data-stream');
    // The playlist this page's own open wrote into the stream (the template's cached opening), when it did: handed to
    // hls.js as its first read of the stream, which then starts on the opening's first segment at once.
    var opening = streamUrl && stage.getAttribute('data-opening');
    var streaming = null;
    var settled = false; // ready or failed: no stream is started any more
    var ready = false;
    var wait = 1000;
    function show(state) {
      stage.setAttribute('data-state', state);
      retry.hidden = state !== 'failed';
      status.hidden = false;
      status.textContent = state === 'failed' ? 'This video could not be prepared.' :
        'This video is being prepared. It starts here as soon as it is ready.';
    }
    function player() {
      var v = document.createElement('video');
      v.id = 'player';
      v.controls = true;
      v.setAttribute('playsinline', '');
      v.preload = 'auto';
      v.setAttribute('aria-label', stage.getAttribute('data-title') || 'Video');
      if (stage.getAttribute('data-width')) {
        v.width = Number(stage.getAttribute('data-width'));
        v.height = Number(stage.getAttribute('data-height'));
      }
      return v;
    }
    function start(v, source) {
      video = v;
      watch(v);
      firstFrame(v, source);
      var started = v.play();
      if (started && started.catch) { started.catch(function () {}); }
    }
    var played = false;
    function play() {
      if (streaming || played) { return; }
      played = true;
      var v = player();
      v.poster = stage.getAttribute('data-poster');
      v.src = stage.getAttribute('data-video');
      stage.replaceWith(v);
      start(v, 'video');
    }
    // The stream's playlist, read until it names a segment (a render waiting for its turn has written none yet, and a
    // player handed an empty playlist for long gives up on it): every 0.3 s for the first 10 s (a render admitted at
    // once writes its opening within a second or two), then every second, every 2 s after 30 s; then it plays.
    function awaitStream(since) {
      if (!streamUrl || streaming || settled) { return; }
      fetch(streamUrl, { credentials: 'omit', cache: 'no-store' })
        .then(function (r) { return r.status === 404 ? null : r.ok ? r.text() : ''; })
        .catch(function () { return ''; })
        .then(function (playlist) {
          if (streaming || settled || playlist === null) { return; } // 404: the link is gone (or has no stream)
          if (/^[^#\s]/m.test(playlist)) { stream(); return; }
          var waited = Date.now() - since;
          setTimeout(function () { awaitStream(since); }, waited < 10000 ? 300 : waited < 30000 ? 1000 : 2000);
        });
    }
    // The stream, in the stage: shown once its first frame is there, dropped (the MP4 then plays when it is ready)
    // if the player gives up on it.
    function stream() {
      if (!streamUrl || streaming || settled) { return; }
      var v = player();
      v.hidden = true;
      var current = { video: v, hls: null };
      streaming = current;
      function drop(why) {
        if (streaming !== current) { return; }
        // said on the console (never to the viewer): a page that played the MP4 instead tells its support why
        if (window.console && console.info) { console.info('pmedia: the stream gave way to the video: ' + why); }
        streaming = null;
        if (current.hls) { current.hls.destroy(); }
        v.removeAttribute('src');
        v.remove();
        if (ready) { play(); } // the player gave up after the video came: the MP4 plays
      }
      current.drop = drop;
      v.addEventListener('loadeddata', function () {
        if (streaming !== current) { return; }
        v.hidden = false;
        status.hidden = true;
      });
      v.addEventListener('error', function () { drop('the video element failed (' + (v.error && v.error.code) + ')'); });
      stage.insertBefore(v, status);
      withHls(function (Hls) {
        if (streaming !== current) { return; }
        if (Hls && Hls.isSupported()) {
          // From its first second, not near its live edge: the stream is the viewer's video, still growing.
          var config = { enableWorker: false, startPosition: 0 };
          if (opening) { config.pLoader = openingLoader(Hls, opening); opening = null; }
          var hls = new Hls(config);
          current.hls = hls;
          v.setAttribute('data-player', 'hls.js');
          hls.on(Hls.Events.ERROR, function (event, data) {
            if (data.fatal) { drop('hls.js ' + data.type + ' ' + data.details + (data.response ? ' ' + data.response.code : '')); }
          });
          hls.loadSource(streamUrl);
          hls.attachMedia(v);
        } else if (v.canPlayType('application/vnd.apple.mpegurl')) {
          v.setAttribute('data-player', 'native');
          v.addEventListener('loadedmetadata', function () { if (v.currentTime > 0) { v.currentTime = 0; } });
          v.src = streamUrl;
        } else {
          drop('no HLS player');
          return;
        }
        start(v, 'stream');
      });
    }
    function poll() {
      fetch(base + '/state', { credentials: 'omit', cache: 'no-store' })
        .then(function (r) { return r.ok ? r.json() : { state: 'preparing' }; })
        .catch(function () { return { state: 'preparing' }; })
        .then(function (answer) {
          if (answer.state === 'ready') {
            settled = true;
            ready = true;
            // A stream playing goes on to its end. One started that has not shown its first frame yet goes on too
            // (on a busy device its first segments are nearer than the MP4, which starts from its own download)
            // unless that frame is not there 4 s later; then the MP4 plays. No stream started: the MP4 plays now.
            var waiting = streaming;
            if (waiting && waiting.video.hidden) {
              setTimeout(function () {
                if (waiting.video.hidden) { waiting.drop('the stream showed no frame 4 s after the video was ready'); }
              }, 4000);
            }
            play();
            return;
          }
          if (answer.state === 'failed') { settled = true; if (streaming) { streaming.drop('the render failed'); } }
          if (!streaming || answer.state === 'failed') { show(answer.state === 'failed' ? 'failed' : 'preparing'); }
          if (answer.state !== 'failed') {
            // while the stream shows, asking is only for a failure or a later fallback: every 5 s (a burst of pages
            // then asks a fifth as often; each ask reads the link from the database)
            setTimeout(poll, streaming && !streaming.video.hidden ? 5000 : wait);
            wait = Math.min(wait * 1.5, 5000);
          }
        });
    }
    retry.addEventListener('click', function () {
      show('preparing');
      wait = 1000;
      settled = false;
      fetch(base + '/render', { method: 'POST', credentials: 'omit' }).catch(function () {})
        .then(function () { awaitStream(Date.now()); poll(); });
    });
    if (stage.getAttribute('data-state') !== 'failed') {
      if (streamUrl) { withHls(function () {}); } // loaded while the render starts, not once its first segment is there
      if (opening) { stream(); } else { awaitStream(Date.now()); }
      poll();
    }
  }

  // hls.js's playlist loader, answering its first load of the stream with text (the playlist the page came
  // with, exactly what the store holds), every later one (the live reloads) from the network as usual.
  function openingLoader(Hls, text) {
    var Network = Hls.DefaultConfig.loader;
    function Loader(config) {
      this.inner = new Network(config);
      this.context = null;
      this.stats = this.inner.stats;
      this.timer = null;
    }
    Loader.prototype.load = function (context, config, callbacks) {
      if (text === null) {
        this.inner.load(context, config, callbacks);
        this.context = this.inner.context;
        this.stats = this.inner.stats;
        return;
      }
      var data = text;
      text = null;
      var stats = this.stats;
      var now = performance.now();
      stats.loading.start = stats.loading.first = stats.loading.end = now;
      stats.loaded = stats.total = data.length;
      this.context = context;
      this.timer = setTimeout(function () {
        callbacks.onSuccess({ url: context.url, data: data, code: 200 }, stats, context, null);
      }, 0);
    };
    Loader.prototype.abort = function () {
      clearTimeout(this.timer);
      this.stats.aborted = true;
      this.inner.abort();
    };
    Loader.prototype.destroy = function () {
      clearTimeout(this.timer);
      this.inner.destroy();
    };
    return Loader;
  }

  // hls.js (served beside this script) where the browser has Media Source Extensions; null where it has not.
  // No initializer: prepare() runs above this line and may already wait for hls.js (an initializer here would drop it).
  var hlsWaiting;
  function withHls(then) {
    if (window.Hls) { then(window.Hls); return; }
    if (!window.MediaSource && !window.ManagedMediaSource) { then(null); return; }
    if (hlsWaiting) { hlsWaiting.push(then); return; }
    hlsWaiting = [then];
    function done() {
      var waiting = hlsWaiting || [];
      hlsWaiting = null;
      waiting.forEach(function (callback) { callback(window.Hls || null); });
    }
    var script = document.createElement('script');
    script.src = '/v/static/vendor/hls.light.min.js';
    script.onload = done;
    script.onerror = done;
    document.head.appendChild(script);
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
