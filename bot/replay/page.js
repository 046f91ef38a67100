// The replay page's script: it shows the states the engine computed when the page was made
// (the JSON in #data, see bot/replay/states.py) and moves between them. It judges nothing:
// no rule of the game is here, only display and navigation.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var T = D.t;
  var SPEEDS = [0.5, 1, 2, 4];
  var state = { d: 0, m: 0, view: D.view, speed: 1, timer: null };

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function svgUse(id) {
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(ns, "use");
    use.setAttribute("href", "#" + id);
    svg.appendChild(use);
    return svg;
  }

  // Text with the catalogue's Markdown: **bold** and `code`, anything else as plain text.
  function rich(tag, text) {
    var node = el(tag);
    String(text).split(/(\*\*[^*]+\*\*|`[^`]+`)/).forEach(function (piece) {
      if (piece.slice(0, 2) === "**" && piece.length > 4) {
        node.appendChild(el("strong", null, piece.slice(2, -2)));
      } else if (piece.charAt(0) === "`" && piece.length > 2) {
        node.appendChild(el("code", null, piece.slice(1, -1)));
      } else if (piece) {
        node.appendChild(document.createTextNode(piece));
      }
    });
    return node;
  }

  function deal() { return D.deals[state.d]; }
  function step() { return deal().steps[state.m]; }
  function atEnd() { return state.m === deal().steps.length - 1; }

  // A card face from its code ("10H", "QS", "JK"); the wild marker comes from the deal's
  // list of wild faces, worked out by the engine (the indicator, out of play, has none).
  function card(code, big, outOfPlay) {
    var suit = code.slice(-1);
    var joker = code === "JK";
    var cls = "card" + (big ? " big" : "");
    if (joker) { cls += " joker"; } else if (suit === "H" || suit === "D") { cls += " red"; }
    if (!outOfPlay && deal().wc.indexOf(code) >= 0) { cls += " wild"; }
    var node = el("span", cls);
    node.setAttribute("data-code", code);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", code);
    node.appendChild(el("b", null, joker ? "JK" : code.slice(0, -1)));
    node.appendChild(svgUse(joker ? "s-J" : "s-" + suit));
    return node;
  }

  function back() {
    var node = el("span", "card back");
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function hidden(seat) {
    // A seat's own view hides the other hands until the deal's end, as at the table.
    return state.view !== null && seat !== state.view && !atEnd();
  }

  function renderCentre() {
    var dl = deal(), st = step();
    var ind = $("indicator");
    ind.textContent = "";
    ind.appendChild(el("span", "label", T.indicator));
    var row = el("div", "row");
    row.appendChild(dl.ind ? card(dl.ind, true, true) : el("span", null, T["indicator-none"]));
    row.appendChild(el("span", "wildwords", dl.wild));
    ind.appendChild(row);

    var stock = $("stock");
    stock.textContent = "";
    stock.setAttribute("data-count", String(st.stock));
    stock.appendChild(el("span", "label", T.stock));
    var srow = el("div", "row");
    if (st.stock > 0) { srow.appendChild(back()); }
    srow.appendChild(el("span", "count", T["stock-count"][st.stock]));
    stock.appendChild(srow);

    var pile = $("pile");
    pile.textContent = "";
    pile.appendChild(el("span", "label", T.pile + " · " + T["pile-size"][st.pn]));
    var throws = el("div", "throws");
    if (!st.pile.length) { throws.appendChild(el("span", null, T["pile-empty"])); }
    st.pile.forEach(function (entry, i) {
      var top = i === st.pile.length - 1;
      var box = el("div", "throw");
      var face = card(entry[0], top);
      if (top) { face.classList.add("top"); }
      box.appendChild(face);
      // Under each card its thrower's name; the whole phrase as its tooltip.
      var by = el("span", "by", entry[1] === null ? T.opening : D.players[entry[1]]);
      if (entry[1] !== null) { box.setAttribute("title", T["thrown-by"][entry[1]]); }
      box.appendChild(by);
      throws.appendChild(box);
    });
    pile.appendChild(throws);
  }

  function renderMove() {
    var st = step();
    var turn = $("turn");
    turn.removeAttribute("data-seat");
    if (st.turn === null) {
      turn.textContent = T.over;
    } else {
      turn.setAttribute("data-seat", String(st.turn));
      turn.textContent = T["turn-" + st.ph][st.turn];
    }
    var lines = st.w;
    if (st.wp && state.view !== null && st.a !== state.view) { lines = st.wp; }
    var words = $("words");
    words.textContent = "";
    lines.forEach(function (line) { words.appendChild(rich("p", line)); });
  }

  function renderHand(box, seat, index, newCode) {
    var hand = el("div", "hand");
    if (index < 0) { box.appendChild(hand); return; }
    var arranged = deal().A[index];
    if (hidden(seat)) {
      hand.classList.add("hidden");
      var count = 0;
      arranged.p.forEach(function (p) { p[1].forEach(function (c) { count += c.length; }); });
      for (var i = 0; i < count; i++) { hand.appendChild(back()); }
      box.appendChild(hand);
      box.appendChild(el("div", "hiddenhand", T.hidden[count]));
      return;
    }
    var marked = false;
    arranged.p.forEach(function (p) {
      var part = el("div", "part");
      part.setAttribute("data-kind", p[0]);
      part.appendChild(el("span", "label", T.parts[p[0]]));
      var cards = el("div", "cards");
      var flat = 0;
      p[1].forEach(function (cluster) {
        var group = el("span", "cluster");
        cluster.forEach(function (code) {
          var face = card(code, false);
          if (!marked && newCode && code === newCode) {
            face.classList.add("new");
            face.setAttribute("title", T["new"]);
            marked = true;
          }
          var role = p[2][String(flat)];
          if (role) {
            var wrap = el("span", "withrole");
            wrap.appendChild(face);
            wrap.appendChild(el("span", "role", role));
            group.appendChild(wrap);
          } else {
            group.appendChild(face);
          }
          flat += 1;
        });
        cards.appendChild(group);
      });
      part.appendChild(cards);
      hand.appendChild(part);
    });
    box.appendChild(hand);
    if (arranged.d !== null && arranged.d !== undefined) {
      box.appendChild(el("div", "deadwood", T.deadwood[arranged.d]));
    }
  }

  function renderSeats() {
    var dl = deal(), st = step(), end = atEnd();
    var seats = $("seats");
    seats.textContent = "";
    var scores = end ? dl.after : dl.before;
    var shown = end ? dl.shown.after : dl.shown.before;
    dl.seats.forEach(function (seat, i) {
      var box = el("article", "seat");
      box.setAttribute("data-seat", String(seat));
      if (st.turn === seat) { box.classList.add("turn"); }
      var status = st.o && st.o[seat];
      if (status) { box.classList.add("out"); }
      var head = el("header");
      head.appendChild(el("span", "name", D.players[seat]));
      if (seat === dl.dealer) { head.appendChild(el("span", "badge", T.dealer)); }
      if (status) { head.appendChild(el("span", "status", T.status[status])); }
      var score = el("span", "score", shown[seat]);
      score.setAttribute("data-score", scores[seat]);
      score.setAttribute("title", end ? T["scores-after"][dl.n] : T["scores-before"]);
      head.appendChild(score);
      box.appendChild(head);
      renderHand(box, seat, st.h[i], st.a === seat ? st["new"] : null);
      if (end) {
        var result = dl.end.seats[seat];
        box.appendChild(el("div", "endtitle", result.title));
        var lines = el("div", "lines");
        result.lines.forEach(function (line) { lines.appendChild(rich("p", line)); });
        box.appendChild(lines);
      }
      seats.appendChild(box);
    });
  }

  function renderResults() {
    var box = $("results");
    box.textContent = "";
    var dl = deal();
    if (!atEnd()) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("h2", null, dl.end.title));
    box.appendChild(rich("p", dl.end.head));
    dl.end.out.forEach(function (line) { box.appendChild(rich("p", line)); });
    box.appendChild(el("h2", null, T["scores-after"][dl.n]));
    dl.end.standings.forEach(function (line) { box.appendChild(rich("p", line)); });
  }

  function renderControls() {
    var dl = deal();
    var last = dl.steps.length - 1;
    $("moveno").textContent = state.m === 0
      ? T.dealt
      : T["move-count"].replace("{m}", String(state.m)).replace("{n}", String(last));
    var slider = $("slider");
    slider.max = String(last);
    slider.value = String(state.m);
    $("dealpick").value = String(state.d);
    var playing = state.timer !== null;
    var play = $("play");
    play.textContent = "";
    play.appendChild(svgUse(playing ? "i-pause" : "i-play"));
    play.setAttribute("aria-label", playing ? T.pause : T.play);
    play.setAttribute("title", playing ? T.pause : T.play);
  }

  function render() {
    document.body.setAttribute("data-deal", String(deal().n));
    document.body.setAttribute("data-move", String(state.m));
    renderCentre();
    renderMove();
    renderSeats();
    renderResults();
    renderControls();
  }

  function link() { return "#d" + deal().n + "m" + state.m; }

  function go(d, m) {
    state.d = Math.max(0, Math.min(D.deals.length - 1, d));
    state.m = Math.max(0, Math.min(deal().steps.length - 1, m));
    render();
    if (location.hash !== link()) {
      try { history.replaceState(null, "", link()); } catch (e) { location.replace(link()); }
    }
  }

  function forward() {
    if (!atEnd()) { go(state.d, state.m + 1); return true; }
    if (state.d < D.deals.length - 1) { go(state.d + 1, 0); return true; }
    return false;
  }

  function backward() {
    if (state.m > 0) { go(state.d, state.m - 1); return; }
    if (state.d > 0) { go(state.d - 1, D.deals[state.d - 1].steps.length - 1); }
  }

  function stop() {
    if (state.timer !== null) { clearInterval(state.timer); state.timer = null; }
    renderControls();
  }

  function play() {
    if (state.timer !== null) { stop(); return; }
    if (atEnd() && state.d === D.deals.length - 1) { go(0, 0); }
    state.timer = setInterval(function () { if (!forward()) { stop(); } }, 1000 / state.speed);
    renderControls();
  }

  function fromHash() {
    var found = /^#d(\d+)m(\d+)$/.exec(location.hash);
    if (!found) { return false; }
    var n = Number(found[1]);
    for (var i = 0; i < D.deals.length; i++) {
      if (D.deals[i].n === n) { go(i, Number(found[2])); return true; }
    }
    return false;
  }

  function button(id, icon, label, action) {
    var b = el("button");
    b.id = id;
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.setAttribute("title", label);
    b.appendChild(svgUse(icon));
    b.addEventListener("click", function () { stop(); action(); });
    return b;
  }

  function labelled(text, control) {
    var label = el("label", null, text + " ");
    label.appendChild(control);
    return label;
  }

  function buildControls() {
    var nav = $("controls");
    nav.appendChild(button("start", "i-start", T.start, function () { go(state.d, 0); }));
    nav.appendChild(button("back", "i-back", T.back, backward));
    var playButton = el("button");
    playButton.id = "play";
    playButton.type = "button";
    playButton.addEventListener("click", play);
    nav.appendChild(playButton);
    nav.appendChild(button("forward", "i-forward", T.forward, forward));
    nav.appendChild(button("end", "i-end", T.end, function () {
      go(state.d, deal().steps.length - 1);
    }));
    var slider = el("input");
    slider.id = "slider";
    slider.type = "range";
    slider.min = "0";
    slider.setAttribute("aria-label", T.move);
    // Read the control before stop(): stopping redraws the controls from the current step.
    slider.addEventListener("input", function () {
      var m = Number(slider.value);
      stop();
      go(state.d, m);
    });
    nav.appendChild(slider);
    var moveno = el("span");
    moveno.id = "moveno";
    nav.appendChild(moveno);
    var deals = el("select");
    deals.id = "dealpick";
    D.deals.forEach(function (dl, i) {
      var option = el("option", null, T["deal-option"][dl.n]);
      option.value = String(i);
      deals.appendChild(option);
    });
    deals.addEventListener("change", function () {
      var d = Number(deals.value);
      stop();
      go(d, 0);
    });
    nav.appendChild(labelled(T.deal, deals));
    var speed = el("select");
    speed.id = "speed";
    SPEEDS.forEach(function (s) {
      var option = el("option", null, s + "×");
      option.value = String(s);
      speed.appendChild(option);
    });
    speed.value = "1";
    speed.addEventListener("change", function () {
      state.speed = Number(speed.value);
      if (state.timer !== null) { stop(); play(); }
    });
    nav.appendChild(labelled(T.speed, speed));
    var view = el("select");
    view.id = "view";
    var all = el("option", null, T["view-all"]);
    all.value = "";
    view.appendChild(all);
    D.players.forEach(function (name, seat) {
      var option = el("option", null, T["view-seat"][seat]);
      option.value = String(seat);
      view.appendChild(option);
    });
    view.value = state.view === null ? "" : String(state.view);
    view.addEventListener("change", function () {
      state.view = view.value === "" ? null : Number(view.value);
      render();
    });
    nav.appendChild(labelled(T.view, view));
  }

  function keys() {
    document.addEventListener("keydown", function (event) {
      var target = event.target;
      if (target && (target.tagName === "SELECT" || target.tagName === "INPUT")) {
        if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") { return; }
        if (target.tagName === "SELECT") { return; }
      }
      var done = true;
      switch (event.key) {
        case "ArrowRight": stop(); forward(); break;
        case "ArrowLeft": stop(); backward(); break;
        case "Home": stop(); go(state.d, 0); break;
        case "End": stop(); go(state.d, deal().steps.length - 1); break;
        case "PageDown": stop(); go(state.d + 1, 0); break;
        case "PageUp": stop(); go(state.d - 1, 0); break;
        case " ":
          if (target && target.tagName === "BUTTON") { done = false; } else { play(); }
          break;
        default: done = false;
      }
      if (done) { event.preventDefault(); }
    });
  }

  // A horizontal swipe steps: to the left is forward (the next card), to the right back.
  function swipes() {
    var start = null;
    var table = $("table");
    table.addEventListener("touchstart", function (event) {
      if (event.touches.length !== 1) { start = null; return; }
      start = { x: event.touches[0].clientX, y: event.touches[0].clientY };
    }, { passive: true });
    table.addEventListener("touchend", function (event) {
      if (start === null || !event.changedTouches.length) { return; }
      var dx = event.changedTouches[0].clientX - start.x;
      var dy = event.changedTouches[0].clientY - start.y;
      start = null;
      if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) { return; }
      stop();
      if (dx < 0) { forward(); } else { backward(); }
    });
  }

  $("made").textContent = T.made;
  $("keys").textContent = T.keys;
  buildControls();
  keys();
  swipes();
  window.addEventListener("hashchange", fromHash);
  if (!fromHash()) { go(0, 0); }
})();
