// The pages: play against the engine, a game (played or watched), analysis, watch.
import { BoardView, parseFen, pieceSvg } from "/static/board.js";

const main = document.getElementById("main");
let figures = {};
let variants = {};
let leave = () => {};  // closes the current page's sockets and timers

// --- helpers ---------------------------------------------------------------------------------

async function api(path, body = undefined, method = undefined) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error((data && data.detail) || `${response.status}`);
  return data;
}

function toast(text) {
  const box = document.getElementById("toast");
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 3500);
}

function html(strings, ...values) {
  const escape = (v) => String(v).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return strings.reduce((out, s, i) => out + s + (i < values.length ? escape(values[i]) : ""), "");
}

function socketUrl(path) {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
}

function clockText(seconds) {
  seconds = Math.max(0, seconds);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds - minutes * 60;
  if (seconds < 10) return `${minutes}:${rest.toFixed(1).padStart(4, "0")}`;
  return `${minutes}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

function variantOptions(selected) {
  return Object.values(variants).map((v) =>
    html`<option value="${v.name}" ${v.name === selected ? "selected" : ""}>${v.name} — ${v.title}</option>`,
  ).join("");
}

function moveListHtml(sans, startFen, current) {
  const start = parseFen(startFen);
  const fullmove = parseInt(startFen.trim().split(/\s+/)[5] || "1", 10);
  const ply = start.turn === "black" ? 1 : 0;
  let out = "";
  sans.forEach((san, index) => {
    const number = fullmove + Math.floor((ply + index) / 2);
    const white = (ply + index) % 2 === 0;
    if (white) out += `<span class="num">${number}.</span>`;
    else if (index === 0) out += `<span class="num">${number}.</span><span>…</span>`;
    const cls = index + 1 === current ? "mv current" : "mv";
    out += `<span class="${cls}" data-ply="${index + 1}">${html`${san}`}</span>`;
  });
  return out;
}

// The step buttons of a board; connectStepper makes them (and the arrow keys) move the ply.
const STEP_BUTTONS = `
  <button class="action" id="first" title="start">|◀</button>
  <button class="action" id="back" title="back (←)">◀</button>
  <button class="action" id="forward" title="forward (→)">▶</button>
  <button class="action" id="last" title="end">▶|</button>`;

// count(): the number of moves; ply(): the one shown; show(ply): show another. Returns the
// function that lets the arrow keys go.
function connectStepper(count, ply, show) {
  const $ = (id) => document.getElementById(id);
  $("first").onclick = () => show(0);
  $("back").onclick = () => show(Math.max(0, ply() - 1));
  $("forward").onclick = () => show(Math.min(count(), ply() + 1));
  $("last").onclick = () => show(count());
  const keys = (event) => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "TEXTAREA") return;
    if (event.key === "ArrowLeft") $("back").click();
    if (event.key === "ArrowRight") $("forward").click();
  };
  document.addEventListener("keydown", keys);
  return () => document.removeEventListener("keydown", keys);
}

// The players with their clocks, around the game's status and its moves.
const PLAYERS_CARD = `
  <div class="card">
    <div class="player" id="top-player"><span class="name"></span><span class="clock"></span></div>
    <div class="status" id="status"></div>
    <div class="moves" id="moves"></div>
    <div class="player" id="bottom-player"><span class="name"></span><span class="clock"></span></div>
  </div>`;

// Both clock boxes of PLAYERS_CARD, the board seen from `orientation`'s side.
function showClocks(clock, orientation, since) {
  for (const [where, color] of [["top", orientation === "white" ? "black" : "white"],
                                ["bottom", orientation]]) {
    showClock(document.querySelector(`#${where}-player .clock`), clock, color, since);
  }
}

// A clock box: clock is {white, black, running} in seconds (the running side's as of `since`,
// a performance.now() time), or null for a game without clocks.
function showClock(box, clock, color, since) {
  box.dataset.color = color;
  if (!clock) { box.hidden = true; return; }
  box.hidden = false;
  const running = clock.running === color;
  const seconds = clock[color] - (running ? (performance.now() - since) / 1000 : 0);
  box.textContent = clockText(seconds);
  box.classList.toggle("running", running);
  box.classList.toggle("low", running && seconds < 10);
}

function outcomeText(view) {
  if (!view.outcome) return "";
  return `${view.result} — ${view.outcome.text}`;
}

// --- play: the start page ----------------------------------------------------------------------

async function playPage() {
  main.innerHTML = `
    <div class="layout">
      <div class="card" style="flex: 1 1 360px">
        <h2>Play against the engine</h2>
        <form class="setup" id="new-game">
          <label for="variant">Variant</label><select id="variant" name="variant">${variantOptions("minitchess")}</select>
          <label for="color">Your colour</label>
          <select id="color" name="color"><option value="white">White</option><option value="black">Black</option><option value="random">Random</option></select>
          <label for="level">Level</label><select id="level" name="level">${[...Array(10)].map((_, i) => `<option ${i === 2 ? "selected" : ""}>${i + 1}</option>`).join("")}</select>
          <label for="clock">Clock</label>
          <select id="clock" name="clock">
            <option value="">none</option><option value="60+0">1 min</option><option value="180+2">3 + 2</option>
            <option value="300+0">5 min</option><option value="600+5">10 + 5</option><option value="1800+0">30 min</option>
          </select>
          <label for="fen">From FEN</label><input type="text" id="fen" name="fen" placeholder="(the start position)">
          <span></span><button class="action primary" type="submit" id="start">Start the game</button>
        </form>
      </div>
      <div class="card" style="flex: 1 1 360px">
        <h2>Your games</h2>
        <ul class="list" id="my-games"><li class="muted">loading…</li></ul>
      </div>
    </div>`;
  const form = document.getElementById("new-game");
  form.variant.addEventListener("change", () => {
    const clock = variants[form.variant.value].default_clock;
    form.clock.value = clock ? `${clock}+0` : "";
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { variant: form.variant.value, color: form.color.value,
                   level: parseInt(form.level.value, 10) };
    if (form.fen.value.trim()) body.fen = form.fen.value.trim();
    if (form.clock.value) {
      const [initial, increment] = form.clock.value.split("+").map(Number);
      body.clock = { initial, increment };
    }
    try {
      const game = await api("/api/games", body);
      location.hash = `#/game/${game.id}`;
    } catch (error) { toast(error.message); }
  });
  const games = await api("/api/games");
  document.getElementById("my-games").innerHTML = games.length ? games.map((g) =>
    html`<li><a href="#/game/${g.id}">${g.variant}: ${g.white} – ${g.black}</a> ${g.result === "*" ? "(in play)" : g.result}</li>`,
  ).join("") : `<li class="muted">none yet</li>`;
}

// --- a game: played or watched -------------------------------------------------------------------

async function gamePage(id) {
  main.innerHTML = `
    <div class="layout">
      <div class="board-area"><div id="board"></div></div>
      <div class="side">
        ${PLAYERS_CARD}
        <div class="card buttons">
          <button class="action" id="undo">Undo</button>
          <button class="action" id="resign">Resign</button>
          <button class="action" id="flip">Flip</button>
          <button class="action" id="new">New game</button>
          <button class="action" id="analyse">Analyse</button>
          <a class="action" id="pgn" href="/api/games/${id}/pgn" download="game-${id}.pgn"><button class="action">PGN</button></a>
          <button class="action" id="share">Copy link</button>
        </div>
        <div class="muted" id="about"></div>
      </div>
    </div>`;
  let view = null;
  let orientation = null;
  let received = 0;
  const board = new BoardView(document.getElementById("board"), figures, async (move) => {
    try {
      show(await api(`/api/games/${id}/move`, { move }));
    } catch (error) {
      toast(error.message);
      show(view);
    }
  });
  board.onRefused = () => toast("That move is not legal.");

  function show(next) {
    if (view && next.version < view.version) return;
    view = next;
    received = performance.now();
    const variant = variants[view.variant];
    if (orientation === null) orientation = view.people.length === 1 ? view.people[0] : "white";
    board.set({ files: variant.files, ranks: variant.ranks, reserves: variant.reserves,
                fen: view.fen, orientation, legal: view.legal, lastmove: view.lastmove,
                check: view.check });
    const top = orientation === "white" ? "black" : "white";
    const bottom = orientation;
    document.querySelector("#top-player .name").textContent = playerName(top);
    document.querySelector("#bottom-player .name").textContent = playerName(bottom);
    const moves = document.getElementById("moves");
    moves.innerHTML = moveListHtml(view.sans, view.start_fen, view.sans.length);
    moves.scrollTop = moves.scrollHeight;
    const status = document.getElementById("status");
    if (view.outcome) {
      status.innerHTML = `<span class="result" id="result">${html`${outcomeText(view)}`}</span>`;
    } else if (view.thinking) {
      status.textContent = `${view.turn === "white" ? "White" : "Black"} (engine) is thinking…`;
    } else {
      const yours = view.legal.length > 0;
      status.textContent = yours ? "Your move" : `${view.turn === "white" ? "White" : "Black"} to move`;
    }
    document.getElementById("undo").hidden = !(view.owner && view.kind === "play");
    document.getElementById("resign").hidden = !(view.owner && view.kind === "play") || !!view.outcome;
    document.getElementById("about").textContent =
      `${variant.title} · ${view.owner ? "your game" : "watching"} · ${view.kind === "watch" ? "engine against engine" : ""}`;
    tick();
  }

  function playerName(color) {
    const player = view.players[color];
    const you = view.owner && player.level === null;
    return `${color === "white" ? "○" : "●"} ${you ? "You" : player.name}`;
  }

  function tick() {
    if (view) showClocks(view.clock, orientation, received);
  }

  const timer = setInterval(tick, 100);
  let socket = null;
  let closed = false;
  function connect() {
    socket = new WebSocket(socketUrl(`/api/games/${id}/ws`));
    socket.onmessage = (event) => show(JSON.parse(event.data));
    socket.onclose = () => { if (!closed) setTimeout(connect, 1000); };
  }
  leave = () => { closed = true; clearInterval(timer); if (socket) socket.close(); };
  try {
    show(await api(`/api/games/${id}`));
  } catch (error) {
    main.innerHTML = html`<div class="card">${error.message}</div>`;
    clearInterval(timer);
    return;
  }
  connect();

  const act = (name) => async () => {
    try { show(await api(`/api/games/${id}/${name}`, {})); } catch (error) { toast(error.message); }
  };
  document.getElementById("undo").onclick = act("undo");
  document.getElementById("resign").onclick = async () => {
    if (confirm("Resign this game?")) await act("resign")();
  };
  document.getElementById("flip").onclick = () => {
    orientation = orientation === "white" ? "black" : "white";
    show({ ...view });
  };
  document.getElementById("new").onclick = () => { location.hash = view.kind === "watch" ? "#/watch" : "#/"; };
  document.getElementById("analyse").onclick = () => {
    const params = new URLSearchParams({ variant: view.variant, fen: view.start_fen,
                                         moves: view.moves.join(" ") });
    location.hash = `#/analysis?${params}`;
  };
  document.getElementById("share").onclick = async () => {
    const link = `${location.origin}/#/game/${id}`;
    try { await navigator.clipboard.writeText(link); toast("Link copied: anyone with it can watch."); }
    catch (error) { toast(link); }
  };
}

// --- analysis ----------------------------------------------------------------------------------

async function analysisPage(params) {
  const state = {
    variant: params.get("variant") || "minitchess",
    fen: params.get("fen") || null,
    moves: (params.get("moves") || "").split(/\s+/).filter(Boolean),
    ply: null, orientation: "white", history: [], engine: true, editing: null,
  };
  main.innerHTML = `
    <div class="layout">
      <div class="board-area"><div id="board"></div>
        <div class="buttons" style="margin-top:.5rem">${STEP_BUTTONS}
          <button class="action" id="flip">Flip</button>
          <button class="action" id="edit">Set up a position</button>
        </div>
        <div class="card" id="editor" hidden>
          <div class="palette" id="palette"></div>
          <div class="buttons" style="margin-top:.4rem">
            <select id="edit-turn"><option value="w">White to move</option><option value="b">Black to move</option></select>
            <button class="action" id="edit-clear">Clear</button>
            <button class="action" id="edit-start">Start position</button>
            <button class="action primary" id="edit-done">Done</button>
          </div>
        </div>
      </div>
      <div class="side">
        <div class="card">
          <div class="buttons"><select id="variant">${variantOptions(state.variant)}</select>
          <label><input type="checkbox" id="engine-on" checked> engine</label></div>
          <div><span class="eval" id="eval">…</span> <span class="muted" id="depth"></span></div>
          <div class="pv" id="pv"></div>
          <div class="engine-lines muted" id="lines"></div>
        </div>
        <div class="card"><div class="status" id="status"></div><div class="moves" id="moves"></div></div>
        <div class="card">
          <label for="fen-input">FEN</label>
          <div class="buttons"><input type="text" id="fen-input"><button class="action" id="fen-load">Load</button></div>
          <label for="pgn-input">PGN</label>
          <textarea id="pgn-input" placeholder="Paste a PGN game here"></textarea>
          <div class="buttons"><button class="action" id="pgn-import">Import PGN</button>
          <button class="action" id="pgn-export">Export PGN</button></div>
        </div>
      </div>
    </div>`;
  const $ = (id) => document.getElementById(id);
  const board = new BoardView($("board"), figures, (move) => {
    state.moves = state.moves.slice(0, state.ply).concat([move]);
    state.ply = state.moves.length;
    refresh();
  });
  board.onRefused = () => toast("That move is not legal.");
  let socket = null;
  let current = null;

  function startFen() { return state.fen || variants[state.variant].start_fen; }

  function connect() {
    socket = new WebSocket(socketUrl("/api/analysis"));
    socket.onmessage = (event) => showInfo(JSON.parse(event.data));
    socket.onopen = () => analyse();
  }

  function analyse() {
    $("lines").innerHTML = "";
    $("pv").textContent = "";
    if (!socket || socket.readyState !== 1) return;
    if (!state.engine || !current || current.outcome || state.editing) {
      socket.send(JSON.stringify({ stop: true }));
      $("eval").textContent = current && current.outcome ? current.result : "–";
      $("depth").textContent = "";
      return;
    }
    $("eval").textContent = "…";
    socket.send(JSON.stringify({ variant: state.variant, fen: startFen(),
                                 moves: state.moves.slice(0, state.ply), seconds: 60 }));
  }

  function showInfo(info) {
    if (info.type === "error") { toast(info.detail); return; }
    if (!current || info.fen !== current.fen) return;
    if (info.type === "done") { $("depth").textContent += " (done)"; return; }
    const text = info.white_mate !== null ? `#${info.white_mate}`
      : `${info.white_score >= 0 ? "+" : ""}${(info.white_score / 100).toFixed(2)}`;
    $("eval").textContent = text;
    $("depth").textContent = `depth ${info.depth} · ${info.nodes.toLocaleString()} nodes · ${info.time}s`;
    $("pv").textContent = pvText(info.pv_san);
    $("lines").insertAdjacentHTML("afterbegin",
      html`<div data-depth="${info.depth}">${info.depth}: ${text} ${pvText(info.pv_san)}</div>`);
  }

  function pvText(sans) {
    const parsed = parseFen(current.fen);
    let number = parseInt(current.fen.split(/\s+/)[5] || "1", 10);
    let white = parsed.turn === "white";
    let out = white ? "" : `${number}… `;
    for (const san of sans) {
      if (white) out += `${number}. `;
      out += `${san} `;
      if (!white) number += 1;
      white = !white;
    }
    return out.trim();
  }

  async function refresh() {
    try {
      const full = await api("/api/position", { variant: state.variant, fen: startFen(),
                                                moves: state.moves });
      state.history = full.history;
      if (state.ply === null || state.ply > state.moves.length) state.ply = state.moves.length;
      current = state.ply === state.moves.length ? full
        : await api("/api/position", { variant: state.variant, fen: startFen(),
                                       moves: state.moves.slice(0, state.ply) });
    } catch (error) {
      toast(error.message);
      if (state.moves.length) { state.moves = []; state.ply = 0; refresh(); }
      return;
    }
    draw();
    analyse();
  }

  function draw() {
    const variant = variants[state.variant];
    board.set({ files: variant.files, ranks: variant.ranks, reserves: variant.reserves,
                fen: current.fen, orientation: state.orientation,
                legal: state.editing ? [] : current.legal, lastmove: current.lastmove,
                check: current.check, onSquare: state.editing ? placePiece : null });
    $("fen-input").value = current.fen;
    $("moves").innerHTML = moveListHtml(state.history.map((h) => h.san), startFen(), state.ply);
    for (const node of document.querySelectorAll("#moves .mv")) {
      node.onclick = () => { state.ply = parseInt(node.dataset.ply, 10); refresh(); };
    }
    $("status").textContent = current.outcome ? outcomeText(current)
      : `${current.turn === "white" ? "White" : "Black"} to move`;
  }

  // --- setting up a position by placing pieces
  function placePiece(square, event) {
    const position = parseFen(state.editing.fen);
    const letter = state.editing.piece;
    if (!letter || event.button === 2 || position.pieces[square] === letter) delete position.pieces[square];
    else position.pieces[square] = letter;
    state.editing.fen = buildFen(position.pieces, position.reserve, $("edit-turn").value);
    current = { ...current, fen: state.editing.fen, legal: [], lastmove: null, check: null };
    draw();
  }

  function buildFen(pieces, reserve, turn) {
    const variant = variants[state.variant];
    const rows = [];
    for (let rank = variant.ranks; rank >= 1; rank--) {
      let row = "";
      let empty = 0;
      for (let file = 0; file < variant.files; file++) {
        const letter = pieces["abcdefgh"[file] + rank];
        if (letter) { row += (empty || "") + letter; empty = 0; } else empty += 1;
      }
      rows.push(row + (empty || ""));
    }
    const stock = variant.reserves ? `[${Object.entries(reserve).map(([l, n]) => l.repeat(n)).join("")}]` : "";
    return `${rows.join("/")}${stock} ${turn} - - 0 1`;
  }

  function openEditor() {
    const variant = variants[state.variant];
    state.editing = { fen: current.fen, piece: variant.pieces[0] };
    $("editor").hidden = false;
    $("edit-turn").value = current.turn === "white" ? "w" : "b";
    const letters = [...variant.pieces, ...variant.pieces.map((l) => l.toLowerCase())];
    $("palette").innerHTML = letters.map((l) =>
      `<button type="button" data-piece="${l}">${pieceSvg(figures, l, 40)}</button>`).join("") +
      `<button type="button" data-piece="" title="eraser" style="width:44px">✕</button>`;
    for (const button of $("palette").querySelectorAll("button")) {
      button.onclick = () => {
        state.editing.piece = button.dataset.piece;
        for (const other of $("palette").querySelectorAll("button")) other.classList.toggle("chosen", other === button);
      };
    }
    $("palette").querySelector("button").classList.add("chosen");
    analyse();
    draw();
  }

  async function closeEditor() {
    const fen = buildFen(parseFen(state.editing.fen).pieces, parseFen(state.editing.fen).reserve,
                         $("edit-turn").value);
    try {
      await api("/api/position", { variant: state.variant, fen, moves: [] });
    } catch (error) { toast(error.message); return; }
    state.editing = null;
    $("editor").hidden = true;
    setStart(fen, []);
  }

  function setStart(fen, moves) {
    state.fen = fen;
    state.moves = moves;
    state.ply = moves.length;
    refresh();
  }

  $("edit").onclick = openEditor;
  $("edit-done").onclick = closeEditor;
  $("edit-clear").onclick = () => {
    const kings = Object.fromEntries(Object.entries(parseFen(state.editing.fen).pieces)
      .filter(([, l]) => l.toLowerCase() === "k"));
    state.editing.fen = buildFen(kings, {}, $("edit-turn").value);
    current = { ...current, fen: state.editing.fen };
    draw();
  };
  $("edit-start").onclick = () => {
    state.editing.fen = variants[state.variant].start_fen;
    current = { ...current, fen: state.editing.fen };
    draw();
  };
  const releaseKeys = connectStepper(() => state.moves.length, () => state.ply,
                                    (ply) => { state.ply = ply; refresh(); });
  $("flip").onclick = () => { state.orientation = state.orientation === "white" ? "black" : "white"; draw(); };
  $("variant").onchange = () => { state.variant = $("variant").value; setStart(null, []); };
  $("engine-on").onchange = () => { state.engine = $("engine-on").checked; analyse(); };
  $("fen-load").onclick = async () => {
    const fen = $("fen-input").value.trim();
    try { await api("/api/position", { variant: state.variant, fen, moves: [] }); }
    catch (error) { toast(error.message); return; }
    setStart(fen, []);
  };
  $("pgn-import").onclick = async () => {
    try {
      const games = await api("/api/pgn/read", { pgn: $("pgn-input").value });
      if (!games.length) { toast("no game in that PGN"); return; }
      const game = games[0];
      state.variant = game.variant;
      $("variant").value = game.variant;
      setStart(game.start_fen, game.moves);
      toast(`Imported ${game.moves.length} moves (${game.result}).`);
    } catch (error) { toast(error.message); }
  };
  $("pgn-export").onclick = async () => {
    try {
      const out = await api("/api/pgn/write", { variant: state.variant, fen: startFen(),
                                                moves: state.moves, headers: { Event: "minichess analysis" } });
      $("pgn-input").value = out.pgn;
    } catch (error) { toast(error.message); }
  };
  leave = () => { releaseKeys(); if (socket) socket.close(); };
  await refresh();
  connect();
}

// --- watch -------------------------------------------------------------------------------------

async function watchPage() {
  const levels = (selected) => [...Array(10)].map((_, i) =>
    `<option ${i + 1 === selected ? "selected" : ""}>${i + 1}</option>`).join("");
  main.innerHTML = `
    <div class="layout">
      <div class="card" style="flex: 1 1 360px">
        <h2>Engine against engine</h2>
        <form class="setup" id="new-watch">
          <label for="variant">Variant</label><select id="variant" name="variant">${variantOptions("minitchess")}</select>
          <label for="white">White level</label><select id="white" name="white">${levels(5)}</select>
          <label for="black">Black level</label><select id="black" name="black">${levels(5)}</select>
          <label for="movetime">Seconds a move</label><input type="text" id="movetime" name="movetime" value="0.5">
          <span></span><button class="action primary" type="submit">Start</button>
        </form>
      </div>
      <div class="card" style="flex: 1 1 360px">
        <h2>Your engine games</h2><ul class="list" id="engine-games"></ul>
      </div>
    </div>
    <div id="feeds"></div>`;
  const form = document.getElementById("new-watch");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const game = await api("/api/watch", {
        variant: form.variant.value, white_level: parseInt(form.white.value, 10),
        black_level: parseInt(form.black.value, 10), move_time: parseFloat(form.movetime.value) });
      location.hash = `#/game/${game.id}`;
    } catch (error) { toast(error.message); }
  });
  const list = await api("/api/watch");
  document.getElementById("engine-games").innerHTML = list.engine_games.length
    ? list.engine_games.map((g) => html`<li><a href="#/game/${g.id}">${g.variant}: ${g.white} – ${g.black}</a> ${g.result === "*" ? "(in play)" : g.result}</li>`).join("")
    : `<li class="muted">none yet</li>`;
  const closers = list.feeds.map((feed) => followFeed(feed));
  leave = () => closers.forEach((close) => close());
}

// --- the outside feeds (the IMCS server): their games and ratings -------------------------------

function ratingText(rating, change) {
  if (rating === null || rating === undefined) return "";
  if (change === null || change === undefined) return ` (${rating})`;
  return ` (${rating + change}, ${change >= 0 ? "+" : ""}${change})`;
}

function dateText(seconds) {
  return seconds ? new Date(seconds * 1000).toLocaleString() : "";
}

function feedGameItem(feed, game) {
  const players = `${game.white}${ratingText(game.white_rating, game.white_change)} – ` +
    `${game.black}${ratingText(game.black_rating, game.black_change)}`;
  const moves = Math.ceil(game.plies / 2);
  const about = game.live
    ? `${game.variant} · move ${Math.floor(game.plies / 2) + 1}`
    : `${game.reason || game.termination || ""} · ${moves} move${moves === 1 ? "" : "s"} · ${game.variant} · ${dateText(game.ended)}`;
  return html`<li data-game="${game.id}"><a href="#/watch/${feed}/game/${game.id}">${players}</a> ` +
    (game.live ? "" : html`<b class="game-result">${game.result}</b> `) +
    html`<span class="muted">${about}</span></li>`;
}

function ratingsRows(feed, ratings) {
  return ratings.map((r, index) => html`<tr data-name="${r.name}"><td>${index + 1}</td>` +
    html`<td><a href="#/watch/${feed}/games?player=${encodeURIComponent(r.name)}">${r.name}</a></td>` +
    html`<td class="rating">${r.rating}</td><td>${r.games}</td></tr>`).join("");
}

const RATINGS_HEAD = "<thead><tr><th>#</th><th>player</th><th>rating</th><th>games</th></tr></thead>";

// The feed's card on the watch page, kept up to date by its WebSocket; returns its closer.
function followFeed(first) {
  const name = first.name;
  document.getElementById("feeds").insertAdjacentHTML("beforeend", html`
    <section class="card feed" id="feed-${name}" data-feed="${name}">
      <h2 class="feed-title"></h2>
      <div class="feed-columns">
        <div><h3>Live games</h3><ul class="list live"></ul></div>
        <div><h3>Finished games</h3><ul class="list finished"></ul>
          <a class="more" href="#/watch/${name}/games">more finished games</a></div>
        <div><h3>Ratings</h3><table class="ratings top"></table>
          <a class="more ratings-link" href="#/watch/${name}/ratings">all ratings</a></div>
      </div>
    </section>`);
  document.querySelector(`#feed-${name} table.ratings`).innerHTML = `${RATINGS_HEAD}<tbody></tbody>`;
  const card = document.getElementById(`feed-${name}`);
  let state = first;
  let refreshing = null;
  let closed = false;
  let socket = null;

  function render() {
    card.querySelector(".feed-title").textContent = state.title;
    const none = `<li class="muted">none</li>`;
    card.querySelector(".live").innerHTML = state.live.map((g) => feedGameItem(name, g)).join("") || none;
    card.querySelector(".finished").innerHTML = state.finished.map((g) => feedGameItem(name, g)).join("") || none;
    card.querySelector(".ratings tbody").innerHTML = ratingsRows(name, state.ratings);
  }

  function refreshSoon() {  // the finished games and the ratings, after an end
    if (refreshing) return;
    refreshing = setTimeout(async () => {
      refreshing = null;
      try { state = { ...state, ...(await api(`/api/watch/feeds/${name}`)) }; render(); }
      catch (error) { /* the next change tries again */ }
    }, 250);
  }

  function update(message) {
    if (message.type === "state") {
      state = { name, ...message };
    } else if (message.type === "start") {
      state.live = state.live.filter((g) => g.id !== message.game.id).concat([message.game]);
    } else if (message.type === "move") {
      const game = state.live.find((g) => g.id === message.game_id);
      if (!game) return;
      game.plies = message.ply;
      const item = card.querySelector(`.live li[data-game="${message.game_id}"]`);
      if (item) item.outerHTML = feedGameItem(name, game);
      return;
    } else if (message.type === "end") {
      state.live = state.live.filter((g) => g.id !== message.game_id);
      state.finished = [message.game, ...state.finished.filter((g) => g.id !== message.game_id)];
      refreshSoon();
    } else if (message.type === "ratings") {
      refreshSoon();
      return;
    }
    render();
  }

  function connect() {
    socket = new WebSocket(socketUrl(`/api/watch/feeds/${name}/ws`));
    socket.onmessage = (event) => update(JSON.parse(event.data));
    socket.onclose = () => { if (!closed) setTimeout(connect, 1000); };
  }
  render();
  connect();
  return () => { closed = true; clearTimeout(refreshing); if (socket) socket.close(); };
}

// A feed's game: followed move by move while it is played, stepped through once it is over.
async function feedGamePage(feed, id) {
  const base = `/api/watch/feeds/${feed}/games/${id}`;
  main.innerHTML = `
    <div class="layout">
      <div class="board-area"><div id="board"></div>
        <div class="buttons" style="margin-top:.5rem">${STEP_BUTTONS}
          <button class="action" id="flip">Flip</button>
          <button class="action" id="analyse">Analyse</button>
          <a id="pgn" href="${base}/pgn" download="${feed}-${id}.pgn"><button class="action">PGN</button></a>
        </div>
      </div>
      <div class="side">
        ${PLAYERS_CARD}
        <div class="muted" id="about"></div>
        <div><a href="#/watch">← all games to watch</a></div>
      </div>
    </div>`;
  const $ = (name) => document.getElementById(name);
  const board = new BoardView($("board"), figures, () => {});
  let view = null;
  let ply = null;  // the move shown; null: the latest, following the game
  let orientation = "white";
  let received = 0;
  let closed = false;
  let socket = null;

  function shown() { return ply === null ? view.history.length : ply; }

  function draw() {
    const variant = variants[view.variant];
    const at = shown();
    const latest = at === view.history.length;
    const entry = at > 0 ? view.history[at - 1] : null;
    board.set({ files: variant.files, ranks: variant.ranks, reserves: variant.reserves,
                fen: entry ? entry.fen : view.start_fen, orientation, legal: [],
                lastmove: entry ? entry.uci : null, check: latest ? view.check : null });
    const top = orientation === "white" ? "black" : "white";
    $("top-player").querySelector(".name").textContent = playerName(top);
    $("bottom-player").querySelector(".name").textContent = playerName(orientation);
    const moves = $("moves");
    moves.innerHTML = moveListHtml(view.history.map((h) => h.san), view.start_fen, at);
    for (const node of moves.querySelectorAll(".mv")) {
      node.onclick = () => step(parseInt(node.dataset.ply, 10));
    }
    if (latest) moves.scrollTop = moves.scrollHeight;
    if (!view.live) {
      const text = view.result === "*" ? (view.reason || "not finished") : `${view.result} — ${view.reason || view.termination}`;
      $("status").innerHTML = `<span class="result" id="result">${html`${text}`}</span>`;
    } else {
      $("status").textContent = `${view.turn === "white" ? "White" : "Black"} to move`;
    }
    $("about").textContent = `${variant.title} · ${view.live ? "live" : "finished"} · game ${view.id}` +
      (view.tournament ? ` · tournament ${view.tournament}, round ${view.round}` : "") +
      ` · ${dateText(view.started)}`;
    tick();
  }

  function playerName(color) {
    const change = view[`${color}_change`];
    return `${color === "white" ? "○" : "●"} ${view[color]}${ratingText(view[`${color}_rating`], change)}`;
  }

  function clockAt() {
    const at = shown();
    if (at === view.history.length) return view.clock;
    const entry = at > 0 ? view.history[at - 1].clock : view.initial;
    return entry ? { ...entry, running: null } : null;
  }

  function tick() {
    if (view) showClocks(clockAt(), orientation, received);
  }

  function step(next) {
    ply = view.live && next >= view.history.length ? null : next;
    draw();
  }

  function update(message) {
    if (message.type === "state") {
      view = message.game;
    } else if (message.type === "move") {
      if (!view || message.ply !== view.history.length + 1) return;
      view.history.push({ uci: message.uci, san: message.san, fen: message.fen,
                          clock: { white: message.clock.white, black: message.clock.black } });
      view = { ...view, fen: message.fen, turn: message.turn, check: message.check,
               lastmove: message.lastmove, clock: message.clock, plies: message.ply };
    } else if (message.type === "end") {
      const { fen, clock, ...summary } = message.game;  // (a summary's: not the board's)
      view = { ...view, ...summary, clock: view.clock && { ...view.clock, running: null } };
    }
    received = performance.now();
    draw();
  }

  function connect() {
    socket = new WebSocket(socketUrl(`${base}/ws`));
    socket.onmessage = (event) => update(JSON.parse(event.data));
    socket.onclose = () => { if (!closed && view && view.live) setTimeout(connect, 1000); };
  }

  try {
    view = await api(base);
  } catch (error) {
    main.innerHTML = html`<div class="card">${error.message}</div>`;
    return;
  }
  received = performance.now();
  if (!view.live) ply = view.history.length;
  const timer = setInterval(tick, 100);
  const releaseKeys = connectStepper(() => view.history.length, shown, step);
  leave = () => { closed = true; clearInterval(timer); releaseKeys(); if (socket) socket.close(); };
  draw();
  if (view.live) connect();
  $("flip").onclick = () => { orientation = orientation === "white" ? "black" : "white"; draw(); };
  $("analyse").onclick = () => {
    const params = new URLSearchParams({ variant: view.variant, fen: view.start_fen,
                                         moves: view.history.slice(0, shown()).map((h) => h.uci).join(" ") });
    location.hash = `#/analysis?${params}`;
  };
}

// A feed's ratings, by variant.
async function feedRatingsPage(feed, params) {
  let state;
  try { state = await api(`/api/watch/feeds/${feed}`); }
  catch (error) { main.innerHTML = html`<div class="card">${error.message}</div>`; return; }
  const variant = params.get("variant") || "minitchess";
  const choices = [...new Set(["minitchess", ...state.variants])];
  main.innerHTML = `
    <div class="card">
      <h2>${html`Ratings — ${state.title}`}</h2>
      <div class="buttons"><label for="rating-variant">Variant</label>
        <select id="rating-variant">${choices.map((v) => html`<option ${v === variant ? "selected" : ""}>${v}</option>`).join("")}</select>
        <a href="#/watch">← all games to watch</a></div>
      <table class="ratings" id="ratings-table">${RATINGS_HEAD}<tbody><tr><td colspan="4" class="muted">loading…</td></tr></tbody></table>
    </div>`;
  document.getElementById("rating-variant").onchange = (event) => {
    location.hash = `#/watch/${feed}/ratings?variant=${event.target.value}`;
  };
  try {
    const ratings = await api(`/api/watch/feeds/${feed}/ratings?variant=${encodeURIComponent(variant)}`);
    document.querySelector("#ratings-table tbody").innerHTML = ratingsRows(feed, ratings) ||
      `<tr><td colspan="4" class="muted">no rated games yet</td></tr>`;
  } catch (error) { toast(error.message); }
}

// A feed's finished games (a player's, with ?player=NAME).
async function feedGamesPage(feed, params) {
  const player = params.get("player");
  const query = new URLSearchParams({ limit: "200", ...(player ? { player } : {}) });
  let games;
  try { games = await api(`/api/watch/feeds/${feed}/games?${query}`); }
  catch (error) { main.innerHTML = html`<div class="card">${error.message}</div>`; return; }
  main.innerHTML = html`
    <div class="card">
      <h2>Finished games${player ? ` of ${player}` : ""}</h2>
      <div class="buttons"><a href="#/watch/${feed}/ratings">ratings</a> <a href="#/watch">← all games to watch</a></div>
      <ul class="list" id="feed-games"></ul>
    </div>`;
  document.getElementById("feed-games").innerHTML =
    games.map((g) => feedGameItem(feed, g)).join("") || `<li class="muted">none yet</li>`;
}

// --- routing -----------------------------------------------------------------------------------

async function route() {
  leave();
  leave = () => {};
  const [path, query = ""] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const page = parts[0] || "play";
  for (const link of document.querySelectorAll("nav a[data-nav]")) {
    link.classList.toggle("active", link.dataset.nav === (page === "game" ? "play" : page));
  }
  if (page === "game" && parts[1]) await gamePage(parts[1]);
  else if (page === "analysis") await analysisPage(new URLSearchParams(query));
  else if (page === "watch" && parts[2] === "game" && parts[3]) await feedGamePage(parts[1], parts[3]);
  else if (page === "watch" && parts[2] === "ratings") await feedRatingsPage(parts[1], new URLSearchParams(query));
  else if (page === "watch" && parts[2] === "games") await feedGamesPage(parts[1], new URLSearchParams(query));
  else if (page === "watch") await watchPage();
  else await playPage();
  document.body.dataset.page = page;
}

async function start() {
  [figures, variants] = await Promise.all([
    api("/api/pieces"),
    api("/api/variants").then((list) => Object.fromEntries(list.map((v) => [v.name, v]))),
  ]);
  window.addEventListener("hashchange", route);
  await route();
}

start();
