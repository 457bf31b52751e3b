import Crypto
import Foundation

/// The page's one inline script: it builds the `cairn-gate` command line from the ticked boxes.
/// It reads and writes only the page itself; the Content-Security-Policy allows exactly this
/// script (by its SHA-256) and nothing from the network.
enum ReviewScript {
  /// `'sha256-…'` for the policy's `script-src`, computed from the text the page carries.
  static var cspSource: String {
    "'sha256-" + Data(SHA256.hash(data: Data(source.utf8))).base64EncodedString() + "'"
  }

  /// What the script does:
  /// - a tile's approve and exclude boxes exclude each other;
  /// - a group's box ticks or clears that kind of box on every tile of the group;
  /// - the command is `cairn-gate --plan DIGEST` plus one `--approve` or `--exclude` per ticked
  ///   tile, in page order (two for a Live Photo whose video is a candidate too), and
  ///   `--override-threshold DIGEST` when the override box (shown only when the threshold rail
  ///   refused) is ticked;
  /// - a selection can be given in the address's fragment (`#approve=ID,ID&exclude=ID&group=
  ///   GROUP:approve&override=yes`), which never leaves the machine: tests use it, and a person can keep a
  ///   selection in a bookmark;
  /// - the tiles the page keeps in templates (`LaterTiles`) are put in place one template per
  ///   step after the first frame, and every one at once before any of the above reads or
  ///   writes a box, so a selection always covers every tile; once all are in place the
  ///   command is built again (a reload may have restored ticks) and the document is marked
  ///   `data-tiles="all"`;
  /// - pictures wait in `data-src` until their tile is within 800 pixels of the view, so only
  ///   those are decoded; each is marked `data-decoded="yes"` (or `"no"`) once it has loaded;
  /// - every `<time>` is shown in the reader's local time, the UTC kept in its title;
  /// - the copy button copies the command (or selects it where the clipboard is not allowed);
  /// - once the page is ready it marks the document `data-ready`.
  static let source = """
    (function () {
      'use strict';
      var plan = document.body.getAttribute('data-plan');
      var watcher = null, local = null;
      function all(selector, root) {
        return Array.prototype.slice.call((root || document).querySelectorAll(selector));
      }
      // One template's tiles into its place, their dates and pictures handled like the others'.
      function arrive(template) {
        if (!template.isConnected) { return; }
        var tiles = all('figure.tile', template.content);
        template.replaceWith(template.content);
        tiles.forEach(function (tile) { localTimes(tile); watch(tile); });
      }
      // Whatever reads or writes the boxes calls this first: a box still in a template is not in
      // the document, and a selection that missed it would build a command that misses it.
      function everything() { all('template.later').forEach(arrive); }
      function tick(box, on) {
        box.checked = on;
        if (!on) { return; }
        all('input.pick', box.closest('.tile')).forEach(function (other) {
          if (other !== box) { other.checked = false; }
        });
      }
      function build() {
        everything();
        var words = ['cairn-gate', '--plan', plan];
        var override = document.getElementById('override');
        if (override && override.checked) { words.push('--override-threshold', plan); }
        var approve = 0, exclude = 0;
        all('input.pick').forEach(function (box) {
          if (!box.checked) { return; }
          var kind = box.getAttribute('data-kind');
          words.push('--' + kind, box.getAttribute('data-id'));
          if (box.hasAttribute('data-also')) { words.push('--' + kind, box.getAttribute('data-also')); }
          if (kind === 'approve') { approve += 1; } else { exclude += 1; }
        });
        document.getElementById('command').textContent = words.join(' ');
        document.getElementById('selection').textContent =
          approve + ' to approve, ' + exclude + ' to exclude';
      }
      function group(box) {
        everything();
        var kind = box.getAttribute('data-kind');
        all('input.pick[data-kind="' + kind + '"]', box.closest('.group')).forEach(function (pick) {
          tick(pick, box.checked);
        });
      }
      document.addEventListener('change', function (event) {
        var box = event.target;
        if (box.classList.contains('pick')) { tick(box, box.checked); }
        if (box.classList.contains('group-pick')) { group(box); }
        build();
      });
      function pick(kind, value) {
        if (kind === 'override') {
          var box = document.getElementById('override');
          if (box) { box.checked = value === 'yes'; }
        } else if (kind === 'group') {
          var bits = value.split(':');
          var section = document.getElementById(bits[0]);
          if (!section || !section.classList.contains('group')) { return; }
          all('input.group-pick', section).forEach(function (box) {
            if (box.closest('.group') === section && box.getAttribute('data-kind') === bits[1]) {
              box.checked = true;
              group(box);
            }
          });
        } else {
          all('input.pick').forEach(function (box) {
            if (box.getAttribute('data-kind') === kind && box.getAttribute('data-id') === value) {
              tick(box, true);
            }
          });
        }
      }
      // True when the address named a selection; then every tile is in place first.
      function fromFragment() {
        var fragment = decodeURIComponent(window.location.hash.replace(/^#/, ''));
        if (fragment === '') { return false; }
        everything();
        fragment.split('&').forEach(function (part) {
          var pair = part.split('=');
          (pair[1] || '').split(',').forEach(function (value) {
            if (value !== '') { pick(pair[0], value); }
          });
        });
        return true;
      }
      function show(image) {
        if (!image.hasAttribute('data-src')) { return; }
        image.addEventListener('load', function () { image.setAttribute('data-decoded', 'yes'); });
        image.addEventListener('error', function () { image.setAttribute('data-decoded', 'no'); });
        image.src = image.getAttribute('data-src');
        image.removeAttribute('data-src');
      }
      function watch(root) {
        all('img[data-src]', root).forEach(function (image) {
          if (watcher) { watcher.observe(image); } else { show(image); }
        });
      }
      function pictures() {
        var images = all('img[data-src]');
        if (!('IntersectionObserver' in window)) { images.forEach(show); return; }
        watcher = new IntersectionObserver(function (entries) {
          entries.forEach(function (entry) {
            if (entry.isIntersecting) { watcher.unobserve(entry.target); show(entry.target); }
          });
        }, { rootMargin: '800px 0px' });
        // Those in or near the view at once, the rest when they come near. Every position is
        // read before any picture is set: a read after a write would lay the page out again,
        // once per picture.
        var near = window.innerHeight + 800;
        var tops = images.map(function (image) { return image.getBoundingClientRect().top; });
        images.forEach(function (image, i) {
          if (tops[i] < near) { show(image); } else { watcher.observe(image); }
        });
      }
      function localTimes(root) {
        // One formatter for every date: making one per date costs seconds at thousands.
        local = local || new Intl.DateTimeFormat(undefined, {
          year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit',
          timeZoneName: 'short' });
        all('time[datetime]', root).forEach(function (time) {
          var when = new Date(time.getAttribute('datetime'));
          if (isNaN(when.getTime())) { return; }
          time.textContent = local.format(when);
          time.title = time.getAttribute('datetime') + ' (UTC)';
          time.setAttribute('data-local', 'yes');
        });
      }
      function copied(words) { document.getElementById('copied').textContent = words; }
      function selectCommand() {
        var range = document.createRange();
        range.selectNodeContents(document.getElementById('command'));
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
        var done = false;
        try { done = document.execCommand('copy'); } catch (e) { done = false; }
        copied(done ? 'copied' : 'selected: press Ctrl+C (or Cmd+C) to copy');
      }
      document.getElementById('copy').addEventListener('click', function () {
        var text = document.getElementById('command').textContent;
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(function () { copied('copied'); }, selectCommand);
        } else {
          selectCommand();
        }
      });
      // One template per task, so the browser draws, scrolls and answers clicks in between.
      function unfold(queue, next) {
        if (next < queue.length) {
          arrive(queue[next]);
          setTimeout(function () { unfold(queue, next + 1); }, 0);
          return;
        }
        build();
        document.documentElement.setAttribute('data-tiles', 'all');
      }
      window.addEventListener('load', function () {
        var queue = all('template.later');
        localTimes(document);
        pictures();
        if (fromFragment()) { build(); }
        document.documentElement.setAttribute('data-ready', 'yes');
        setTimeout(function () { unfold(queue, 0); }, 0);
      });
    })();
    """
}
