/*
 * svc-assistant browser widget (spec section 4 "Widget"): a chat panel that talks to the assistant.
 * No framework; include it and mount it:
 *
 *   <script src="https://api.example/widget.js"></script>
 *   <script>
 *     SvcWidget.mount({
 *       publishableKey: 'svc_pk_live_…',            // required: a publishable key (never a secret one)
 *       apiBase: 'https://api.example',              // default: where this script came from
 *       identity: { user_id: 'u_42', user_hash: '…' } // optional: HMAC-SHA256(identity secret, user_id), from your server
 *     });
 *   </script>
 *
 * or, without code: <script src=".../widget.js" data-publishable-key="svc_pk_…"></script>
 *
 * What it does: opens a widget session (POST /v1/widget/session, the visitor id kept in localStorage),
 * shows the conversation from the server-sent event stream (GET /v1/widget/stream; EventSource resumes
 * with Last-Event-ID after a drop, and a new session resumes from the last event seen), and sends the
 * visitor's messages (POST /v1/widget/messages with an Idempotency-Key, retried with the same key).
 * The panel opens with the agent's greeting (the session's `greeting`, its `first_message`): shown at
 * once, first, without asking the model anything.
 *
 * Voice (the header's Call button; `voice: false` hides it): POST /v1/widget/voice, then, on a service
 * with LiveKit, joins the room with LiveKit's browser SDK (loaded from /widget/livekit-client.js on the
 * first call), publishes the microphone and plays the assistant; Hang up leaves (the call ends). Without
 * LiveKit (test mode) the call is simulated and the panel says so. The handle's `state.voice` says where
 * the call is (`status`: idle, connecting, in_call, simulated, ended) and how many times the assistant
 * started speaking (`assistantSpoke`), also as the panel's `data-voice` and `data-assistant-spoke`.
 */
(function () {
  'use strict';
  var currentScript = document.currentScript;
  var VISITOR_KEY = 'svc_widget_visitor_id';
  var TOKEN_KEY = 'svc_widget_session_token';

  /**
   * A random id from the browser's cryptographic generator: crypto.randomUUID, or (pages served over
   * plain HTTP, where it is missing) a version 4 UUID from crypto.getRandomValues; never a
   * non-cryptographic one: the visitor id and Idempotency-Keys must not be guessable.
   */
  function randomId() {
    if (typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    var b = window.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map
      .call(b, function (x) {
        return (x + 0x100).toString(16).slice(1);
      })
      .join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  /** The last session token this browser held (the proof that its visitor's conversation is its own). */
  function storedToken() {
    try {
      return window.localStorage.getItem(TOKEN_KEY);
    } catch (e) {
      return null;
    }
  }

  function storeToken(token) {
    try {
      window.localStorage.setItem(TOKEN_KEY, token);
    } catch (e) {
      /* storage blocked: the session lasts as long as the page */
    }
  }

  function visitorId() {
    try {
      var id = window.localStorage.getItem(VISITOR_KEY);
      if (!id) {
        id = randomId();
        window.localStorage.setItem(VISITOR_KEY, id);
      }
      return id;
    } catch (e) {
      return randomId(); // storage blocked: a visitor per page load
    }
  }

  function sleep(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms);
    });
  }

  var STYLE =
    '.svc-widget{position:fixed;right:16px;bottom:16px;width:320px;max-height:480px;display:flex;flex-direction:column;' +
    'font:14px/1.4 system-ui,sans-serif;background:#fff;border:1px solid #ccd;border-radius:10px;box-shadow:0 4px 18px rgba(0,0,0,.15);z-index:2147483000}' +
    '.svc-widget header{display:flex;align-items:center;padding:10px 12px;font-weight:600;border-bottom:1px solid #eef}' +
    '.svc-widget header span{flex:1}' +
    '.svc-widget header button{padding:4px 10px;border-radius:6px;font-weight:400}' +
    '.svc-widget[data-voice=in_call] header button,.svc-widget[data-voice=connecting] header button{background:#c62828}' +
    '.svc-widget ol{list-style:none;margin:0;padding:8px 12px;overflow-y:auto;flex:1;min-height:160px}' +
    '.svc-widget li{margin:6px 0;padding:6px 9px;border-radius:8px;max-width:85%;white-space:pre-wrap;word-wrap:break-word}' +
    '.svc-widget li[data-author=customer]{background:#2557d6;color:#fff;margin-left:auto}' +
    '.svc-widget li[data-author=assistant],.svc-widget li[data-author=person],.svc-widget li[data-author=api]{background:#f0f2f7;color:#111}' +
    '.svc-widget form{display:flex;border-top:1px solid #eef}' +
    '.svc-widget input{flex:1;border:0;padding:10px 12px;font:inherit;outline:none}' +
    '.svc-widget button{border:0;background:#2557d6;color:#fff;padding:0 14px;font:inherit;border-bottom-right-radius:10px;cursor:pointer}' +
    '.svc-widget .svc-status{font-size:12px;color:#777;padding:0 12px 6px}';

  /**
   * Mounts a chat panel. Returns the widget's handle: {send(text), call(), hangUp(), close(), state};
   * `state` holds the session, the id of the last event shown, the connection status and the voice call
   * (for pages and tests).
   */
  function mount(opts) {
    if (!opts || !opts.publishableKey) throw new Error('SvcWidget.mount: publishableKey is required');
    var apiBase = (opts.apiBase || (currentScript ? new URL(currentScript.src).origin : location.origin)).replace(
      /\/+$/,
      '',
    );
    var state = {
      session: null,
      lastEventId: 0,
      connected: false,
      shown: {},
      voice: { status: 'idle', callId: null, assistantSpoke: 0 },
    };
    var voiceCall = null; // {room, cleanups} while a LiveKit call is open
    var source = null;
    var closed = false;

    if (!document.getElementById('svc-widget-style')) {
      var style = document.createElement('style');
      style.id = 'svc-widget-style';
      style.textContent = STYLE;
      document.head.appendChild(style);
    }
    var root = document.createElement('section');
    root.className = 'svc-widget';
    root.setAttribute('aria-label', 'Chat');
    root.innerHTML =
      '<header><span></span>' +
      (opts.voice === false ? '' : '<button type="button" class="svc-call" aria-label="Voice call">Call</button>') +
      '</header><ol aria-live="polite"></ol><div class="svc-status"></div>' +
      '<form><input name="text" autocomplete="off" placeholder="Write a message…" maxlength="1600"><button type="submit">Send</button></form>';
    root.querySelector('header span').textContent = opts.title || 'Chat with us';
    var callButton = root.querySelector('.svc-call');
    var list = root.querySelector('ol');
    var status = root.querySelector('.svc-status');
    var form = root.querySelector('form');
    var input = form.querySelector('input');
    (opts.container || document.body).appendChild(root);

    function setStatus(text) {
      status.textContent = text || '';
    }

    function render(message) {
      if (state.shown[message.id]) return; // each message once, whatever the reconnects
      state.shown[message.id] = true;
      var li = document.createElement('li');
      li.setAttribute('data-message-id', message.id);
      li.setAttribute('data-author', message.author);
      li.textContent = message.text;
      list.appendChild(li);
      list.scrollTop = list.scrollHeight;
    }

    /** Shows the session's `greeting` (the agent's first_message) first in the panel, once. */
    function greet(session) {
      if (!session.greeting || list.querySelector('li[data-greeting]')) return;
      var li = document.createElement('li');
      li.setAttribute('data-author', 'assistant');
      li.setAttribute('data-greeting', '');
      li.textContent = session.greeting;
      list.insertBefore(li, list.firstChild);
    }

    function request(method, path, body, headers) {
      return fetch(apiBase + path, {
        method: method,
        headers: Object.assign({ 'Content-Type': 'application/json' }, headers || {}),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    }

    function openSession() {
      var body = { visitor_id: opts.visitorId || visitorId() };
      if (opts.identity) body.identity = opts.identity;
      else {
        // Without it the server opens a new conversation: the visitor id alone shows no one the history.
        var previous = (state.session && state.session.token) || storedToken();
        if (previous) body.previous_token = previous;
      }
      return request('POST', '/v1/widget/session', body, { Authorization: 'Bearer ' + opts.publishableKey }).then(
        function (res) {
          return res.json().then(function (json) {
            if (!res.ok) throw new Error((json.error && json.error.message) || 'session refused (' + res.status + ')');
            state.session = json;
            if (!opts.identity) storeToken(json.token);
            greet(json);
            return json;
          });
        },
      );
    }

    function connect() {
      if (closed) return;
      var url =
        apiBase +
        '/v1/widget/stream?token=' +
        encodeURIComponent(state.session.token) +
        '&last_event_id=' +
        state.lastEventId;
      source = new EventSource(url);
      source.addEventListener('open', function () {
        state.connected = true;
        setStatus('');
      });
      source.addEventListener('message', function (e) {
        var id = Number(e.lastEventId);
        if (id <= state.lastEventId) return;
        state.lastEventId = id;
        render(JSON.parse(e.data));
      });
      source.addEventListener('error', function () {
        state.connected = false;
        // EventSource reconnects by itself (with Last-Event-ID) unless the server refused the stream
        // (an expired session): then open a new session and resume from the last event shown.
        if (source.readyState === EventSource.CLOSED) {
          setStatus('Reconnecting…');
          source.close();
          sleep(1000)
            .then(openSession)
            .then(connect)
            .catch(function () {
              setTimeout(function () {
                source.dispatchEvent(new Event('error'));
              }, 3000);
            });
        } else setStatus('Reconnecting…');
      });
    }

    /** Sends the visitor's message; retries network errors, 429 and 5xx with the same Idempotency-Key. */
    function send(text) {
      var key = randomId();
      var attempt = 0;
      function tryOnce() {
        attempt++;
        return request(
          'POST',
          '/v1/widget/messages',
          { text: text },
          {
            Authorization: 'Bearer ' + state.session.token,
            'Idempotency-Key': key,
          },
        ).then(
          function (res) {
            if (res.ok) return res.json();
            if ((res.status === 429 || res.status >= 500 || res.status === 409) && attempt < 6) {
              var wait = Number(res.headers.get('Retry-After')) * 1000 || 500 * attempt;
              return sleep(wait).then(tryOnce);
            }
            return res.json().then(function (json) {
              throw new Error((json.error && json.error.message) || 'message refused (' + res.status + ')');
            });
          },
          function (err) {
            if (attempt < 6) return sleep(500 * attempt).then(tryOnce);
            throw err;
          },
        );
      }
      return tryOnce();
    }

    function setVoice(status) {
      state.voice.status = status;
      root.setAttribute('data-voice', status);
      if (callButton) callButton.textContent = status === 'connecting' || status === 'in_call' ? 'Hang up' : 'Call';
    }

    var livekitLoading = null;
    /** LiveKit's browser SDK (global LivekitClient), loaded from the service once. */
    function loadLivekit() {
      if (window.LivekitClient) return Promise.resolve(window.LivekitClient);
      if (!livekitLoading)
        livekitLoading = new Promise(function (resolve, reject) {
          var script = document.createElement('script');
          script.src = apiBase + '/widget/livekit-client.js';
          script.onload = function () {
            resolve(window.LivekitClient);
          };
          script.onerror = function () {
            livekitLoading = null;
            reject(new Error('The voice client could not be loaded.'));
          };
          document.head.appendChild(script);
        });
      return livekitLoading;
    }

    /** Counts the times the assistant starts speaking, from the level of its audio (50 ms steps, 300 ms pauses). */
    function watchAssistant(LK, track) {
      var analyser = LK.createAudioAnalyser(track);
      var speaking = false;
      var quiet = 0;
      var timer = setInterval(function () {
        if (analyser.calculateVolume() > 0.02) {
          quiet = 0;
          if (!speaking) {
            speaking = true;
            state.voice.assistantSpoke++;
            root.setAttribute('data-assistant-spoke', String(state.voice.assistantSpoke));
          }
        } else if (speaking && ++quiet >= 6) speaking = false;
      }, 50);
      voiceCall.cleanups.push(function () {
        clearInterval(timer);
        analyser.cleanup();
      });
    }

    /** Starts a voice call: POST /v1/widget/voice, then the LiveKit room with the microphone on. */
    function startCall() {
      if (!state.session || voiceCall || state.voice.status === 'connecting') return Promise.resolve();
      setVoice('connecting');
      setStatus('Calling…');
      return request(
        'POST',
        '/v1/widget/voice',
        {},
        {
          Authorization: 'Bearer ' + state.session.token,
          'Idempotency-Key': randomId(),
        },
      )
        .then(function (res) {
          return res.json().then(function (json) {
            if (!res.ok) throw new Error((json.error && json.error.message) || 'call refused (' + res.status + ')');
            return json;
          });
        })
        .then(function (voice) {
          state.voice.callId = voice.call_id;
          if (voice.simulated) {
            setVoice('simulated');
            setStatus('Test mode without LiveKit: call ' + voice.call_id + ' runs as a simulated call.');
            return;
          }
          return loadLivekit().then(function (LK) {
            var room = new LK.Room();
            voiceCall = { room: room, cleanups: [] };
            room.on(LK.RoomEvent.TrackSubscribed, function (track, publication, participant) {
              if (track.kind !== 'audio' || !voiceCall) return;
              var el = track.attach();
              el.setAttribute('data-svc-voice', participant.identity);
              root.appendChild(el);
              watchAssistant(LK, track);
            });
            room.on(LK.RoomEvent.Disconnected, function () {
              endCall();
            });
            return room
              .connect(voice.url, voice.token)
              .then(function () {
                return room.localParticipant.setMicrophoneEnabled(true);
              })
              .then(function () {
                setVoice('in_call');
                setStatus('In a call: speak, the assistant listens.');
              });
          });
        })
        .catch(function (err) {
          endCall();
          setStatus(err.message);
        });
    }

    /** Ends the voice call: leaves the room (the service then ends the call). */
    function endCall() {
      var open = voiceCall;
      voiceCall = null;
      if (open) {
        open.cleanups.forEach(function (cleanup) {
          cleanup();
        });
        open.room.disconnect();
        Array.prototype.forEach.call(root.querySelectorAll('audio[data-svc-voice]'), function (el) {
          el.remove();
        });
        setStatus('Call ended.');
      }
      setVoice(open || state.voice.status !== 'connecting' ? 'ended' : 'idle');
    }

    if (callButton)
      callButton.addEventListener('click', function () {
        if (voiceCall) endCall();
        else startCall();
      });

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var text = input.value.trim();
      if (!text || !state.session) return;
      input.value = '';
      send(text).catch(function (err) {
        setStatus(err.message);
      });
    });

    var ready = openSession()
      .then(connect)
      .catch(function (err) {
        setStatus(err.message);
        throw err;
      });

    return {
      state: state,
      ready: ready,
      send: send,
      call: startCall,
      hangUp: endCall,
      close: function () {
        closed = true;
        if (source) source.close();
        if (voiceCall) endCall();
        root.remove();
      },
    };
  }

  window.SvcWidget = { mount: mount };
  if (currentScript && currentScript.getAttribute('data-publishable-key')) {
    window.SvcWidget.instance = mount({ publishableKey: currentScript.getAttribute('data-publishable-key') });
  }
})();
