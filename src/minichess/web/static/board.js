// The board: squares, pieces (the same figures as minichess.svg), legal targets, moves by click
// or by drag, the promotion choice and drops from a reserve. No rules here: the legal moves come
// from the server as coordinate strings ("b2b3", "a5a6q", "Q@d6").

const SQ = 45;
const NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";

export function parseFen(fen) {
  const [placement, turn = "w"] = fen.trim().split(/\s+/);
  const match = placement.match(/^([^\[]*)(?:\[([^\]]*)\])?$/);
  const rows = match[1].split("/");
  const pieces = {};
  rows.forEach((row, index) => {
    const rank = rows.length - index;
    let file = 0;
    for (const token of row.match(/\d+|./g) || []) {
      if (/\d/.test(token)) file += parseInt(token, 10);
      else pieces[FILES[file++] + rank] = token;
    }
  });
  const reserve = {};
  for (const letter of match[2] || "") reserve[letter] = (reserve[letter] || 0) + 1;
  return { pieces, reserve, turn: turn === "b" ? "black" : "white" };
}

export function pieceSvg(figures, letter, size) {
  return `<svg xmlns="${NS}" viewBox="0 0 45 45" width="${size}" height="${size}">` +
    `${figures[letter]}</svg>`;
}

function el(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  // element: a container; figures: {letter: svg markup}; onMove(uci): called with a legal move.
  constructor(element, figures, onMove) {
    this.element = element;
    this.figures = figures;
    this.onMove = onMove;
    this.state = null;
    this.selected = null; // a square name, or "Q@" for a reserve piece
    this.drag = null;
    element.classList.add("board-wrap");
    this.svg = el("svg", { class: "board", xmlns: NS });
    element.appendChild(this.svg);
    this.reserves = document.createElement("div");
    this.reserves.className = "reserves";
    element.appendChild(this.reserves);
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  // state: {files, ranks, reserves: bool, fen, orientation, legal, lastmove, check, editing}
  set(state) {
    this.state = { legal: [], orientation: "white", ...state };
    this.position = parseFen(this.state.fen);
    if (this.selected && !this.targetsFrom(this.selected).length) this.selected = null;
    this.closePromotion();
    this.render();
  }

  squareName(column, row) {
    const { files, ranks, orientation } = this.state;
    const file = orientation === "white" ? column : files - 1 - column;
    const rank = orientation === "white" ? ranks - row : row + 1;
    return FILES[file] + rank;
  }

  corner(name) {
    const { files, ranks, orientation } = this.state;
    const file = FILES.indexOf(name[0]);
    const rank = parseInt(name.slice(1), 10);
    const column = orientation === "white" ? file : files - 1 - file;
    const row = orientation === "white" ? ranks - rank : rank - 1;
    return [column * SQ, row * SQ];
  }

  targetsFrom(origin) {
    if (!origin) return [];
    if (origin.endsWith("@")) {
      return this.state.legal.filter((m) => m.startsWith(origin)).map((m) => m.slice(2, 4));
    }
    return this.state.legal.filter((m) => m.slice(0, 2) === origin && m[2] !== "@")
      .map((m) => m.slice(2, 4));
  }

  render() {
    const { files, ranks, check, lastmove } = this.state;
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${files * SQ} ${ranks * SQ}`);
    svg.style.aspectRatio = `${files} / ${ranks}`;
    svg.style.maxWidth = `calc(80vh * ${files} / ${ranks})`;
    svg.dataset.fen = this.state.fen;
    svg.dataset.orientation = this.state.orientation;
    svg.replaceChildren();
    svg.insertAdjacentHTML("afterbegin", '<defs><radialGradient id="check-glow" r="0.5">' +
      '<stop offset="0%" stop-color="#ff0000"/><stop offset="50%" stop-color="#e70000"/>' +
      '<stop offset="100%" stop-color="#9e0000" stop-opacity="0"/></radialGradient></defs>');
    const marked = new Set();
    if (lastmove) {
      if (lastmove[1] === "@") marked.add(lastmove.slice(2, 4));
      else { marked.add(lastmove.slice(0, 2)); marked.add(lastmove.slice(2, 4)); }
    }
    const targets = new Set(this.targetsFrom(this.selected));
    for (let row = 0; row < ranks; row++) {
      for (let column = 0; column < files; column++) {
        const name = this.squareName(column, row);
        const light = (FILES.indexOf(name[0]) + parseInt(name.slice(1), 10)) % 2 === 0;
        const classes = ["sq", light ? "light" : "dark"];
        if (marked.has(name)) classes.push("lastmove");
        if (name === this.selected) classes.push("selected");
        el("rect", { x: column * SQ, y: row * SQ, width: SQ, height: SQ,
                     class: classes.join(" "), "data-square": name }, svg);
        if (name === check) {
          el("circle", { cx: column * SQ + SQ / 2, cy: row * SQ + SQ / 2, r: SQ / 2,
                         class: "check", "data-square": name }, svg);
        }
        const textClass = `coord ${light ? "on-light" : "on-dark"}`;
        if (row === ranks - 1) {
          const text = el("text", { x: column * SQ + SQ - 2, y: row * SQ + SQ - 2,
                                    class: textClass, "text-anchor": "end" }, svg);
          text.textContent = name[0];
        }
        if (column === 0) {
          const text = el("text", { x: 2, y: row * SQ + 10, class: textClass }, svg);
          text.textContent = name.slice(1);
        }
      }
    }
    for (const [name, letter] of Object.entries(this.position.pieces)) {
      const [x, y] = this.corner(name);
      const group = el("g", { class: "piece", "data-square": name, "data-piece": letter,
                              transform: `translate(${x},${y})` }, svg);
      group.innerHTML = this.figures[letter];
    }
    for (const name of targets) {
      const [x, y] = this.corner(name);
      const occupied = name in this.position.pieces;
      el("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: occupied ? SQ / 2 - 2 : SQ / 7,
                     class: occupied ? "target capture" : "target", "data-square": name }, svg);
    }
    if (this.drag) {  // redrawn by news from the server in the middle of a drag
      const lifted = svg.querySelector(`g.piece[data-square="${this.drag.origin}"]`);
      if (lifted) lifted.classList.add("lifted");
      svg.appendChild(this.drag.ghost);
    }
    this.renderReserves();
  }

  renderReserves() {
    const box = this.reserves;
    box.replaceChildren();
    box.hidden = !this.state.reserves;
    if (!this.state.reserves) return;
    const top = this.state.orientation === "white" ? "black" : "white";
    for (const color of [top, top === "white" ? "black" : "white"]) {
      const row = document.createElement("div");
      row.className = `reserve ${color}`;
      row.dataset.color = color;
      for (const kind of "QRBN") {
        const letter = color === "white" ? kind : kind.toLowerCase();
        const count = this.position.reserve[letter] || 0;
        if (!count) continue;
        const item = document.createElement("button");
        item.type = "button";
        item.className = "reserve-piece";
        item.dataset.piece = letter;
        item.dataset.count = count;
        const droppable = this.state.legal.some((m) => m.startsWith(kind + "@"));
        if (droppable) item.classList.add("droppable");
        if (this.selected === kind + "@") item.classList.add("selected");
        item.innerHTML = pieceSvg(this.figures, letter, 40) + (count > 1 ? `<span>${count}</span>` : "");
        item.addEventListener("pointerdown", (e) => {
          if (!droppable) return;
          e.preventDefault();
          this.selected = kind + "@";
          this.render();
          this.startDrag(e, letter, kind + "@");
        });
        row.appendChild(item);
      }
      box.appendChild(row);
    }
  }

  pointToSquare(event) {
    const box = this.svg.getBoundingClientRect();
    const { files, ranks } = this.state;
    const column = Math.floor((event.clientX - box.left) / box.width * files);
    const row = Math.floor((event.clientY - box.top) / box.height * ranks);
    if (column < 0 || row < 0 || column >= files || row >= ranks) return null;
    return this.squareName(column, row);
  }

  pointerDown(event) {
    if (!this.state || event.button > 0) return;
    const name = this.pointToSquare(event);
    if (!name) return;
    if (this.state.onSquare) { this.state.onSquare(name, event); return; }  // editing
    if (this.selected && this.targetsFrom(this.selected).includes(name)) {
      this.tryMove(this.selected, name);
      return;
    }
    if (this.targetsFrom(name).length) {
      this.selected = name;
      this.render();
      this.startDrag(event, this.position.pieces[name], name);
    } else if (this.selected) {
      this.selected = null;
      this.render();
    }
  }

  startDrag(event, letter, origin) {
    const ghost = el("g", { class: "piece dragging", "data-piece": letter }, this.svg);
    ghost.innerHTML = this.figures[letter];
    this.drag = { origin, ghost, moved: false, startX: event.clientX, startY: event.clientY };
    const original = this.svg.querySelector(`g.piece[data-square="${origin}"]`);
    if (original) original.classList.add("lifted");
    this.moveGhost(event);
    try { this.svg.setPointerCapture(event.pointerId); } catch (error) { /* reserve piece */ }
    if (origin.endsWith("@")) {
      const up = (e) => { window.removeEventListener("pointerup", up);
                          window.removeEventListener("pointermove", move); this.pointerUp(e); };
      const move = (e) => this.pointerMove(e);
      window.addEventListener("pointerup", up);
      window.addEventListener("pointermove", move);
    }
  }

  moveGhost(event) {
    const box = this.svg.getBoundingClientRect();
    const scale = this.state.files * SQ / box.width;
    const x = (event.clientX - box.left) * scale - SQ / 2;
    const y = (event.clientY - box.top) * scale - SQ / 2;
    this.drag.ghost.setAttribute("transform", `translate(${x},${y})`);
  }

  pointerMove(event) {
    if (!this.drag) return;
    if (Math.hypot(event.clientX - this.drag.startX, event.clientY - this.drag.startY) > 4) {
      this.drag.moved = true;
    }
    this.moveGhost(event);
  }

  pointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    this.drag = null;
    drag.ghost.remove();
    const name = this.pointToSquare(event);
    if (!drag.moved || name === drag.origin) {  // a click: the piece stays selected
      this.render();
      return;
    }
    if (name && this.targetsFrom(drag.origin).includes(name)) {
      this.tryMove(drag.origin, name);
      return;
    }
    this.selected = null;  // an illegal drop: the piece goes back where it was
    this.render();
    if (this.onRefused) this.onRefused(drag.origin, name);
  }

  tryMove(origin, target) {
    const prefix = origin + target;  // "b2b3" or "Q@d6"
    const candidates = this.state.legal.filter((m) => m.slice(0, 4) === prefix);
    this.selected = null;
    if (candidates.length > 1) {
      this.choosePromotion(target, candidates);
      return;
    }
    // show the move at once; the server's answer redraws the board
    const pieces = this.position.pieces;
    if (origin.endsWith("@")) {
      const white = this.position.turn === "white";
      pieces[target] = white ? origin[0] : origin[0].toLowerCase();
    } else {
      pieces[target] = pieces[origin];
      delete pieces[origin];
    }
    this.state.legal = [];
    this.render();
    this.onMove(candidates[0]);
  }

  choosePromotion(target, candidates) {
    this.closePromotion();
    const white = this.position.turn === "white";
    const menu = document.createElement("div");
    menu.className = "promotion";
    const title = document.createElement("div");
    title.textContent = "Promote to";
    menu.appendChild(title);
    for (const move of candidates) {
      const letter = white ? move[4].toUpperCase() : move[4];
      const button = document.createElement("button");
      button.type = "button";
      button.className = "promo-choice";
      button.dataset.piece = letter.toUpperCase();
      button.title = move;
      button.innerHTML = pieceSvg(this.figures, letter, 56);
      button.addEventListener("click", () => { this.closePromotion(); this.onMove(move); });
      menu.appendChild(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "promo-cancel";
    cancel.textContent = "✕";
    cancel.addEventListener("click", () => { this.closePromotion(); this.render(); });
    menu.appendChild(cancel);
    this.element.appendChild(menu);
    this.promotion = menu;
  }

  closePromotion() {
    if (this.promotion) this.promotion.remove();
    this.promotion = null;
  }
}
