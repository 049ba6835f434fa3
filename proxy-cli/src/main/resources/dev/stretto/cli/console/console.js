// stretto console: one small script, inline in every page, no library. Everything is
// delegated from the document, so a live page's new body needs no wiring. It never builds
// markup from data: the server sends HTML it escaped, and the script only moves it in.
(function () {
  'use strict';

  // Filters: a chosen domain or mode applies at once; dates and words apply with Enter or
  // the button (a date being typed changes with every digit).
  document.addEventListener('change', function (e) {
    var t = e.target;
    if (t.form && t.form.classList.contains('filters') && t.tagName === 'SELECT') {
      t.form.submit();
    }
  });

  // A session row opens its session, wherever it is clicked (the id is also a real link).
  document.addEventListener('click', function (e) {
    var row = e.target.closest('tr[data-href]');
    if (row && !e.target.closest('a') && !e.defaultPrevented && e.button === 0) {
      if (e.ctrlKey || e.metaKey) {
        window.open(row.getAttribute('data-href'), '_blank', 'noopener');
      } else {
        window.location.href = row.getAttribute('data-href');
      }
    }
  });

  document.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) {
      return;
    }
    if (b.classList.contains('unclip')) {
      var clip = b.closest('.clip');
      var open = clip.classList.toggle('open');
      b.textContent = open ? 'Show less' : 'Show all ' + clip.getAttribute('data-lines') + ' lines';
    } else if (b.hasAttribute('data-expand')) {
      var all = b.getAttribute('data-expand') === 'all';
      document.querySelectorAll('details.call').forEach(function (d) { d.open = all; });
    } else if (b.classList.contains('copy')) {
      var pre = b.parentNode.querySelector('pre');
      if (navigator.clipboard && pre) {
        navigator.clipboard.writeText(pre.textContent).then(function () {
          b.textContent = 'Copied';
          setTimeout(function () { b.textContent = 'Copy'; }, 1200);
        }, function () { b.textContent = 'Select it'; });
      }
    }
  });

  // A link to a call (the waterfall, another page's #cN) opens the call and its parents.
  function openCall(id) {
    var d = document.getElementById(id);
    if (!d) {
      return;
    }
    for (var p = d; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') {
        p.open = true;
      }
    }
    d.scrollIntoView({ block: 'center' });
    d.classList.add('flash');
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest('a[data-open]');
    if (a) {
      e.preventDefault();
      history.replaceState(null, '', '#' + a.getAttribute('data-open'));
      openCall(a.getAttribute('data-open'));
    }
  });
  if (location.hash.length > 1) {
    openCall(decodeURIComponent(location.hash.substring(1)));
  }

  // A session still being recorded: its body is replaced as the log grows, keeping what was
  // open and, when the reader was at the bottom, following the end.
  var main = document.querySelector('main[data-live]');
  if (main && window.EventSource) {
    var source = new EventSource(main.getAttribute('data-live'));
    source.addEventListener('timeline', function (e) {
      var body = document.getElementById('session-body');
      var atEnd = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
      var open = {};
      body.querySelectorAll('details[id]').forEach(function (d) { if (d.open) { open[d.id] = true; } });
      var clips = {};
      body.querySelectorAll('details[id] .clip.open').forEach(function (c) {
        clips[c.closest('details[id]').id] = true;
      });
      var ended = document.getElementById('live-state');
      var endedText = ended && ended.classList.contains('ended') ? ended.textContent : null;
      body.innerHTML = e.data;
      body.querySelectorAll('details[id]').forEach(function (d) {
        if (open[d.id]) { d.open = true; }
        if (clips[d.id]) {
          d.querySelectorAll('.clip').forEach(function (c) {
            c.classList.add('open');
            var b = c.querySelector('button.unclip');
            if (b) { b.textContent = 'Show less'; }
          });
        }
      });
      if (endedText) {
        showEnded(endedText);
      }
      if (atEnd) {
        window.scrollTo(0, document.body.scrollHeight);
      }
    });
    source.addEventListener('ended', function (e) {
      source.close();
      main.removeAttribute('data-live');
      showEnded(e.data);
    });
  }

  function showEnded(text) {
    var state = document.getElementById('live-state');
    if (state) {
      state.textContent = text;
      state.className = 'live-state ended';
      state.id = 'live-state';
    }
  }
})();
