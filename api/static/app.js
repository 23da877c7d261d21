// The Mahjong Lens page: photo -> recognised tiles -> corrections -> score.
//
// The server does all the reading and scoring; the page keeps the user's
// corrected copy of the recognition (tile codes, groups, winning tile) and
// sends it back to POST /api/v1/score after every change, so what is shown is
// always what the server scored. No framework and no build step: the DOM is
// re-rendered from `state` by small functions.

import { TILES } from "./tiles.js";
import { has, initialLanguage, language, setLanguage, t } from "./i18n.js";
import { NotationError, parseHand, parseTiles, tileByCode } from "./notation.js";

const WINDS = ["east", "south", "west", "north"];
const KINDS = ["concealed", "meld", "bonus"];
const SCORE_DELAY_MS = 120;
const UPLOAD_MAX_SIDE = 3000; // the server reads photos at 2000 px at most: send no more than this
const $ = (id) => document.getElementById(id);

const state = {
  photoUrl: null,
  image: null, // {width, height} of the recognised photo, the outlines' coordinate space
  tiles: new Map(), // id -> {id, code, read, confidence, alternatives, outline, low}
  groups: [], // [{key, kind, tiles: [ids]}], left to right
  warnings: [],
  winning: null, // id of the tile the user marked as the winning tile
  nextId: 0,
  nextKey: 0,
  presets: [],
  score: null,
  scoreSeq: 0,
  photoSeq: 0,
  dialog: null, // {mode: "edit", id} | {mode: "add", key}
  flagged: new Set(), // ids of the tiles the server's last error named
  zoomed: true, // the photo is shown zoomed to the tiles
  others: {}, // Italian rules: seat -> the score of that player's hand, as typed
};

class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// ---------------------------------------------------------------- server calls

async function api(path, options = {}) {
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError("network", t("err_network"));
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const error = body?.error;
    const detail = Array.isArray(body?.detail) ? body.detail.map((d) => d.msg).join("; ") : body?.detail;
    const failure = new ApiError(
      error?.code ?? "server",
      error?.message ?? detail ?? t("err_server", { status: response.status }),
      response.status,
    );
    failure.tiles = Array.isArray(error?.tiles) ? error.tiles : [];
    throw failure;
  }
  return body;
}

function errorText(error) {
  if (error instanceof NotationError) return t("err_manual", { message: t("bad_token", { token: error.token }) });
  const key = `err_${error.code}`;
  if (error.code && has(key)) return t(key, { message: error.message, status: error.status });
  return error.message || String(error);
}

function showError(error) {
  const box = $("error");
  if (!error) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = errorText(error);
  box.dataset.code = error.code ?? "";
  box.hidden = false;
}

function setStatus(text) {
  $("status").textContent = text;
}

// ---------------------------------------------------------------- hand state

function tileInfo(code) {
  // "none": something the classifier saw but could not name; the player picks its face
  return tileByCode(code) ?? { code, name: code, name_it: code, glyph: "?" };
}

function tileName(code) {
  const info = tileInfo(code);
  return language() === "it" ? info.name_it : info.name;
}

function newTile(code, extra = {}) {
  const id = state.nextId++;
  state.tiles.set(id, { id, code, read: null, confidence: null, alternatives: [], outline: null, low: false, ...extra });
  return id;
}

function newGroup(kind, ids = []) {
  const group = { key: state.nextKey++, kind, tiles: ids };
  return group;
}

function resetHand() {
  state.tiles = new Map();
  state.groups = [];
  state.warnings = [];
  state.winning = null;
  state.flagged = new Set();
  state.image = null;
  state.score = null;
  state.nextId = 0;
}

/** Adopt a recognition (D's Recognition.to_dict(), possibly wrapped) as the editable hand. */
function loadRecognition(data) {
  const rec = data?.recognition ?? data;
  resetHand();
  state.image = rec.image ?? null;
  state.warnings = rec.warnings ?? [];
  const byIndex = new Map();
  for (const tile of rec.tiles ?? []) {
    const code = tile.face_down ? "back" : tile.code;
    const id = newTile(code, {
      read: code,
      confidence: tile.confidence ?? null,
      alternatives: tile.alternatives ?? [],
      outline: tile.outline ?? null,
      low: Boolean(tile.low_confidence),
    });
    byIndex.set(tile.index, id);
  }
  const grouped = new Set();
  for (const group of rec.groups ?? []) {
    const ids = group.tiles.filter((i) => byIndex.has(i)).map((i) => byIndex.get(i));
    ids.forEach((id) => grouped.add(id));
    state.groups.push(newGroup(KINDS.includes(group.kind) ? group.kind : "concealed", ids));
  }
  const loose = [...state.tiles.keys()].filter((id) => !grouped.has(id));
  if (loose.length) state.groups.unshift(newGroup("concealed", loose));
}

function groupOf(id) {
  return state.groups.find((g) => g.tiles.includes(id));
}

function removeTile(id) {
  const group = groupOf(id);
  if (group) group.tiles.splice(group.tiles.indexOf(id), 1);
  state.tiles.delete(id);
  if (state.winning === id) state.winning = null;
}

/** Move a tile one place along the row, crossing into the neighbouring group at an edge. */
function moveTile(id, step) {
  const gi = state.groups.findIndex((g) => g.tiles.includes(id));
  const group = state.groups[gi];
  const pos = group.tiles.indexOf(id);
  const target = pos + step;
  if (target >= 0 && target < group.tiles.length) {
    group.tiles.splice(pos, 1);
    group.tiles.splice(target, 0, id);
    return;
  }
  const neighbour = state.groups[gi + step];
  if (!neighbour) return;
  group.tiles.splice(pos, 1);
  if (step < 0) neighbour.tiles.push(id);
  else neighbour.tiles.unshift(id);
}

/** Start a new group at this tile: it and the tiles after it leave their group. */
function splitAt(id) {
  const gi = state.groups.findIndex((g) => g.tiles.includes(id));
  const group = state.groups[gi];
  const pos = group.tiles.indexOf(id);
  const rest = group.tiles.splice(pos);
  const kind = group.kind === "concealed" ? "meld" : group.kind;
  state.groups.splice(gi + 1, 0, newGroup(kind, rest));
}

function mergeWithNext(key) {
  const gi = state.groups.findIndex((g) => g.key === key);
  const next = state.groups[gi + 1];
  if (!next) return;
  state.groups[gi].tiles.push(...next.tiles);
  state.groups.splice(gi + 1, 1);
}

function tileCount() {
  return state.groups.reduce((n, g) => n + g.tiles.length, 0);
}

// ---------------------------------------------------------------- context

function fillWindSelects() {
  for (const select of document.querySelectorAll("select[data-winds]")) {
    const value = select.value;
    select.replaceChildren(...WINDS.map((w) => new Option(t(`wind_${w}`), w)));
    if (value) select.value = value;
  }
}

function context() {
  const form = $("context");
  const selfDrawn = form.elements.win.value === "self";
  const flag = (name) => form.elements[name].checked;
  return {
    seat_wind: $("seat_wind").value,
    round_wind: $("round_wind").value,
    self_drawn: selfDrawn,
    discarder: selfDrawn ? null : $("discarder").value,
    last_tile: flag("last_tile"),
    kong_replacement: flag("kong_replacement"),
    robbing_kong: flag("robbing_kong"),
    heavenly: flag("heavenly"),
    earthly: flag("earthly"),
  };
}

/** Keep the discarder a seat other than the winner's, and disabled for a self-drawn win. */
function syncDiscarder() {
  const seat = $("seat_wind").value;
  const select = $("discarder");
  for (const option of select.options) option.disabled = option.value === seat;
  if (select.value === seat) select.value = WINDS[(WINDS.indexOf(seat) + 3) % 4];
  const selfDrawn = $("context").elements.win.value === "self";
  select.disabled = selfDrawn;
  select.closest("label").classList.toggle("off", selfDrawn);
}

function isItalian() {
  const name = $("rules").value;
  const preset = state.presets.find((p) => p.name === name);
  return preset ? preset.model === "italian" : name === "italian";
}

/** Italian rules settle every player with every other: one score field per other seat. */
function renderOthers() {
  const box = $("others");
  box.hidden = !isItalian();
  const seat = $("seat_wind").value;
  const fields = WINDS.filter((w) => w !== seat).map((w) => {
    const id = `other-${w}`;
    const input = el("input", { id, type: "number", inputmode: "numeric", min: "0", step: "1",
      "data-seat": w, value: state.others[w] ?? "" });
    input.addEventListener("input", () => { state.others[w] = input.value; });
    return el("label", { for: id }, el("span", {}, t("other_score", { seat: seatName(w) })), input);
  });
  $("others-fields").replaceChildren(...fields);
}

/** `players` for the Italian request when every other seat has a score, else nothing. */
function otherPlayers() {
  if (!isItalian()) return null;
  const seat = $("seat_wind").value;
  const seats = WINDS.filter((w) => w !== seat);
  const values = seats.map((w) => state.others[w]);
  if (!values.every((v) => v !== undefined && v !== "" && Number.isInteger(Number(v)))) return null;
  return Object.fromEntries(seats.map((w, i) => [w, { score: Number(values[i]) }]));
}

function saveContext() {
  const ctx = { rules: $("rules").value, ...context() };
  localStorage.setItem("mjlens.context", JSON.stringify(ctx));
}

function restoreContext() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem("mjlens.context") ?? "null");
  } catch {
    saved = null;
  }
  $("seat_wind").value = saved?.seat_wind ?? "east";
  $("round_wind").value = saved?.round_wind ?? "east";
  $("discarder").value = saved?.discarder ?? "north";
  if (saved?.rules) $("rules").value = saved.rules;
  const form = $("context");
  form.elements.win.value = saved?.self_drawn ? "self" : "discard";
  for (const name of ["last_tile", "kong_replacement", "robbing_kong", "heavenly", "earthly"]) {
    form.elements[name].checked = Boolean(saved?.[name]);
  }
  syncDiscarder();
}

async function loadRules() {
  let data;
  try {
    data = await api("/api/v1/rules");
  } catch {
    return; // the built-in four names stay; scoring will report a real problem
  }
  const list = Array.isArray(data) ? data : data?.presets ?? Object.entries(data ?? {}).map(([name, p]) => ({ name, ...p }));
  state.presets = list.filter((p) => p && typeof p.name === "string");
  renderRules();
  renderOthers();
}

function presetTitle(preset) {
  const it = language() === "it";
  const title = it
    ? preset.title_it ?? preset.name_it ?? preset.title ?? preset.name_en
    : preset.title ?? preset.title_en ?? preset.name_en;
  return title && title !== preset.name ? `${title} (${preset.name})` : preset.name;
}

function renderRules() {
  if (!state.presets.length) return;
  const select = $("rules");
  const value = select.value;
  select.replaceChildren(...state.presets.map((p) => new Option(presetTitle(p), p.name)));
  if (state.presets.some((p) => p.name === value)) select.value = value;
}

// ---------------------------------------------------------------- scoring

/**
 * The scoring request for the hand as corrected. Tiles and groups are numbered
 * from 1 in the order shown, so that the server's messages ("Group 2 ...",
 * "Tile 5 ...") name them as the page does; `sentIds[i]` is the tile sent as i.
 */
function scoreRequest() {
  const tiles = [];
  const groups = [];
  const sentIds = [null];
  let winningTile = null;
  for (const group of state.groups) {
    if (!group.tiles.length) continue;
    const indices = [];
    const groupId = groups.length + 1;
    for (const id of group.tiles) {
      const tile = state.tiles.get(id);
      const index = sentIds.length;
      sentIds.push(id);
      indices.push(index);
      tiles.push({ index, code: tile.code, face_down: tile.code === "back", group: groupId, row: 0 });
      if (id === state.winning) winningTile = tile.code;
    }
    groups.push({ id: groupId, row: 0, kind: group.kind, tiles: indices });
  }
  const body = {
    rules: $("rules").value,
    options: {},
    recognition: { tiles, groups },
    winning_tile: winningTile,
    context: context(),
  };
  const players = otherPlayers();
  if (players) body.players = players;
  return { sentIds, body };
}

let scoreTimer = null;

/** Score soon (corrections come in bursts); the score is marked pending at once. */
function scheduleScore() {
  clearTimeout(scoreTimer);
  $("score").dataset.state = "pending";
  scoreTimer = setTimeout(scoreNow, SCORE_DELAY_MS);
}

async function scoreNow() {
  clearTimeout(scoreTimer);
  const seq = ++state.scoreSeq;
  if (!tileCount()) {
    state.score = null;
    renderScore();
    return;
  }
  $("score").dataset.state = "pending";
  $("score").setAttribute("aria-busy", "true");
  try {
    const request = scoreRequest();
    state.flagged = new Set();
    const result = await api("/api/v1/score", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request.body),
    }).catch((error) => {
      // an illegal grouping names the tiles concerned: outline them on the page
      state.flagged = new Set((error.tiles ?? []).map((i) => request.sentIds[i]).filter((id) => id != null));
      throw error;
    });
    if (seq !== state.scoreSeq) return; // a newer correction is on its way
    state.score = result;
    $("score").removeAttribute("aria-busy");
    if (!state.score?.valid && Array.isArray(state.score?.tiles)) {
      // a grouping that is not a set: the answer names the tiles concerned
      state.flagged = new Set(state.score.tiles.map((i) => request.sentIds[i]).filter((id) => id != null));
    }
    showError(null);
  } catch (error) {
    if (seq !== state.scoreSeq) return;
    state.score = null;
    $("score").removeAttribute("aria-busy");
    showError(error);
    renderGroups();
    renderOverlay();
    $("score").dataset.state = "error";
    $("score").hidden = true;
    return;
  }
  renderGroups();
  renderOverlay();
  renderScore();
}

// ---------------------------------------------------------------- photo

/**
 * A phone photo made smaller before upload (upright, longest side UPLOAD_MAX_SIDE):
 * 12-48 megapixel photos upload in a fraction of the time on a mobile network and
 * never hit the server's size limit. Anything the browser cannot decode (HEIC
 * outside Safari, a file that is not an image) is sent as it is, for the server
 * to read or to explain.
 */
async function shrinkPhoto(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  const scale = UPLOAD_MAX_SIDE / Math.max(bitmap.width, bitmap.height);
  if (scale >= 1) {
    bitmap.close();
    return file;
  }
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.92));
  return blob ? new File([blob], "photo.jpg", { type: "image/jpeg" }) : file;
}

async function onPhoto(event) {
  const chosen = event.target.files?.[0];
  event.target.value = "";
  if (!chosen) return;
  closeManual();
  showError(null);
  resetHand();
  render();
  setStatus(t("reading"));
  const file = await shrinkPhoto(chosen);
  if (state.photoUrl) URL.revokeObjectURL(state.photoUrl);
  state.photoUrl = URL.createObjectURL(file);
  const img = $("photo-img");
  img.hidden = false;
  img.src = state.photoUrl;
  $("photo-view").hidden = false;
  $("overlay").replaceChildren();
  const seq = ++state.photoSeq;
  const form = new FormData();
  form.append("photo", file, file.name || "photo.jpg");
  try {
    const data = await api("/api/v1/recognize", { method: "POST", body: form });
    if (seq !== state.photoSeq) return; // another photo was chosen meanwhile
    loadRecognition(data);
  } catch (error) {
    if (seq !== state.photoSeq) return;
    setStatus("");
    showError(error);
    $("photo-view").hidden = !state.photoUrl || error.code === "not_an_image" || error.code === "unsupported_format";
    return;
  }
  setStatus(t("found_tiles", { count: tileCount() }));
  render();
  scoreNow();
}

// ---------------------------------------------------------------- manual entry

function openManual() {
  const form = $("manual");
  form.hidden = false;
  $("manual-open").setAttribute("aria-expanded", "true");
  $("manual-text").focus();
}

function closeManual() {
  $("manual").hidden = true;
  $("manual-open").setAttribute("aria-expanded", "false");
}

function startManual(groups) {
  state.photoSeq += 1; // a recognition still on its way is no longer wanted
  showError(null);
  resetHand();
  if (state.photoUrl) URL.revokeObjectURL(state.photoUrl);
  state.photoUrl = null;
  $("photo-view").hidden = true;
  for (const g of groups) state.groups.push(newGroup(g.kind, g.codes.map((code) => newTile(code))));
  setStatus("");
  render();
  scoreNow();
}

function onManualSubmit(event) {
  event.preventDefault();
  let groups;
  try {
    groups = parseHand($("manual-text").value);
  } catch (error) {
    showError(error);
    $("manual-text").setAttribute("aria-invalid", "true");
    return;
  }
  $("manual-text").removeAttribute("aria-invalid");
  startManual(groups);
}

function onManualEmpty() {
  startManual([{ kind: "concealed", codes: [] }]);
  openAdd(state.groups[0].key);
}

// ---------------------------------------------------------------- rendering

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function tileFace(code, extraClass = "") {
  const info = tileInfo(code);
  return [
    el("span", { class: `glyph ${extraClass}`, "aria-hidden": "true" }, info.glyph),
    el("span", { class: "code", "aria-hidden": "true" }, code),
  ];
}

function render() {
  renderGroups();
  renderOverlay();
  renderWarnings();
  renderScore();
}

function tileLabel(tile, n) {
  const parts = [t("tile_label", { n, name: tileName(tile.code) })];
  if (tile.read !== null && tile.code !== tile.read) parts.push(t("corrected"));
  else if (tile.low) parts.push(t("low_confidence"));
  if (state.winning === tile.id) parts.push(t("winning"));
  return parts.join(", ");
}

function renderGroups() {
  const box = $("groups");
  $("hand").hidden = state.groups.length === 0;
  $("tips").hidden = state.groups.length > 0;
  let n = 0;
  const sections = state.groups.map((group, gi) => {
    const kindId = `kind-${group.key}`;
    const kindSelect = el(
      "select",
      { id: kindId, "data-key": group.key, onchange: (e) => { group.kind = e.target.value; render(); scheduleScore(); } },
      ...KINDS.map((k) => new Option(t(`group_${k}`), k, false, k === group.kind)),
    );
    const header = el(
      "div",
      { class: "group-head" },
      el("label", { class: "visually-hidden", for: kindId }, t("kind_label", { n: gi + 1 })),
      kindSelect,
      gi < state.groups.length - 1
        ? el("button", { type: "button", class: "small", title: t("merge_next"), "aria-label": t("merge_next"),
          onclick: () => { mergeWithNext(group.key); render(); scheduleScore(); } },
        t("join_short"), el("span", { "aria-hidden": "true" }, " →"))
        : null,
      group.tiles.length === 0
        ? el("button", { type: "button", class: "small", title: t("delete_group"), "aria-label": t("delete_group"),
          onclick: () => { state.groups = state.groups.filter((g) => g !== group); render(); } }, "✕")
        : null,
    );
    const items = group.tiles.map((id) => {
      const tile = state.tiles.get(id);
      n += 1;
      const corrected = tile.read !== null && tile.code !== tile.read;
      const classes = ["tile", tile.low && !corrected ? "low" : "", corrected ? "corrected" : "",
        state.winning === id ? "winning" : "", tile.code === "back" ? "back" : "",
        state.flagged.has(id) ? "flagged" : ""].filter(Boolean).join(" ");
      return el("li", {},
        el("button", { type: "button", class: classes, "data-id": id, "data-code": tile.code,
          "aria-label": tileLabel(tile, n), onclick: () => openEdit(id) }, ...tileFace(tile.code)));
    });
    items.push(el("li", {}, el("button", { type: "button", class: "tile add", "aria-label": t("add_tile"),
      title: t("add_tile"), onclick: () => openAdd(group.key) }, "+")));
    return el("section", { class: `group ${group.kind}`, "data-kind": group.kind, "aria-label": t(`group_${group.kind}`) },
      header, el("ol", { class: "tiles" }, ...items));
  });
  box.replaceChildren(...sections);
}

const SVG = "http://www.w3.org/2000/svg";

function renderOverlay() {
  const svg = $("overlay");
  if (!state.image || !state.photoUrl) {
    svg.replaceChildren();
    applyZoom();
    return;
  }
  const { width, height } = state.image;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const shapes = [];
  let n = 0;
  for (const group of state.groups) {
    for (const id of group.tiles) {
      n += 1;
      const tile = state.tiles.get(id);
      if (!tile.outline) continue;
      const corrected = tile.read !== null && tile.code !== tile.read;
      const cls = ["outline", tile.low && !corrected ? "low" : "", corrected ? "corrected" : "",
        state.winning === id ? "winning" : "", state.flagged.has(id) ? "flagged" : ""].filter(Boolean).join(" ");
      const poly = document.createElementNS(SVG, "polygon");
      poly.setAttribute("points", tile.outline.map(([x, y]) => `${x},${y}`).join(" "));
      poly.setAttribute("class", cls);
      poly.dataset.id = id;
      poly.addEventListener("click", () => openEdit(id));
      const xs = tile.outline.map((p) => p[0]);
      const ys = tile.outline.map((p) => p[1]);
      const h = Math.max(...ys) - Math.min(...ys);
      const w = Math.max(...xs) - Math.min(...xs);
      const size = Math.max(12, Math.min(w * 0.42, h * 0.3));
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("x", String((Math.min(...xs) + Math.max(...xs)) / 2));
      label.setAttribute("y", String(Math.min(...ys) - size * 0.25));
      label.setAttribute("font-size", String(size));
      label.setAttribute("class", cls);
      label.textContent = tile.code;
      shapes.push(poly, label);
    }
  }
  svg.replaceChildren(...shapes);
  // a format this browser cannot show (HEIC outside Safari): outlines on a blank photo-sized frame
  const shown = !$("photo-img").hidden;
  $("photo-frame").style.aspectRatio = shown ? "" : `${width} / ${height}`;
  $("photo-caption").textContent = t(shown ? "photo_caption" : "photo_not_shown");
  applyZoom();
}

/** The tiles' bounding box with a margin, in photo pixels, or null when there is nothing to zoom to. */
function tilesBox() {
  const points = [...state.tiles.values()].flatMap((tile) => tile.outline ?? []);
  if (!points.length || !state.image) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const { width, height } = state.image;
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 0.08 * Math.max(x1 - x0, y1 - y0);
  x0 = Math.max(0, x0 - margin);
  y0 = Math.max(0, y0 - margin * 1.5); // room for the labels above the tiles
  x1 = Math.min(width, x1 + margin);
  y1 = Math.min(height, y1 + margin);
  // never narrower than a third of the photo, and not so flat that tiles are tiny on a phone
  const minW = width / 3;
  if (x1 - x0 < minW) {
    const cx = (x0 + x1) / 2;
    x0 = Math.max(0, Math.min(width - minW, cx - minW / 2));
    x1 = x0 + minW;
  }
  const minH = (x1 - x0) / 3;
  if (y1 - y0 < minH) {
    const cy = (y0 + y1) / 2;
    y0 = Math.max(0, Math.min(height - minH, cy - minH / 2));
    y1 = y0 + minH;
  }
  const box = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  return box.w < width * 0.95 || box.h < height * 0.95 ? box : null;
}

/** Zoom the photo to the tiles (or show it whole) by scaling the frame inside its window. */
function applyZoom() {
  const windowEl = $("photo-window");
  const frame = $("photo-frame");
  const button = $("zoom");
  const box = tilesBox();
  button.hidden = !box;
  const zoomed = Boolean(box) && state.zoomed;
  windowEl.classList.toggle("zoomed", zoomed);
  if (!zoomed) {
    windowEl.style.aspectRatio = "";
    frame.style.width = frame.style.left = frame.style.top = "";
  } else {
    const { width } = state.image;
    windowEl.style.aspectRatio = `${box.w} / ${box.h}`;
    frame.style.width = `${(100 * width) / box.w}%`;
    frame.style.left = `${(-100 * box.x) / box.w}%`;
    frame.style.top = `${(-100 * box.y) / box.h}%`;
  }
  button.textContent = t(zoomed ? "zoom_out" : "zoom_in");
  button.setAttribute("aria-pressed", String(zoomed));
}

/** The pipeline's warnings, in the page's language; "hard to read" counts only tiles not yet checked. */
function renderWarnings() {
  const items = [];
  for (const warning of state.photoUrl ? state.warnings : []) {
    let count = warning.tiles?.length ?? 0;
    if (warning.code === "low_confidence") count = [...state.tiles.values()].filter((tile) => tile.low).length;
    if (warning.code === "low_confidence" && count === 0) continue;
    const key = `warn_${warning.code}`;
    const text = has(key) ? t(key, { count }) : warning.message ?? warning.code;
    items.push(el("li", { "data-code": warning.code }, text));
  }
  $("warnings").replaceChildren(...items);
}

function seatName(seat) {
  return WINDS.includes(seat) ? t(`wind_${seat}`) : String(seat);
}

function localName(item) {
  return language() === "it" ? item.name_it ?? item.name : item.name ?? item.name_it;
}

/** A two-column table of scored lines (Hong Kong patterns and fan, Italian points or doubles). */
function linesTable(caption, header, lines, value) {
  if (!lines?.length) return null;
  const rows = lines.map((line) =>
    el("tr", {}, el("th", { scope: "row" }, localName(line)), el("td", {}, String(value(line)))));
  return el("table", { class: "patterns" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("pattern_col")), el("th", { scope: "col" }, header))),
    el("tbody", {}, ...rows));
}

function renderPayments(score) {
  const payments = score.payments;
  if (!payments || typeof payments !== "object") return null;
  const winner = score.winner ?? context().seat_wind;
  const items = Object.entries(payments).map(([payer, amount]) =>
    el("li", { "data-payer": payer },
      el("span", {}, t("pays", { payer: seatName(payer), winner: seatName(winner) })),
      el("strong", {}, String(amount))));
  return el("div", { class: "payments" }, el("h3", {}, t("payments")), el("ul", {}, ...items));
}

/** Italian settlement among the four players: matrix[payer][payee] and each seat's net. */
function renderSettlement(score) {
  const matrix = score.settlement?.matrix;
  if (!matrix || typeof matrix !== "object" || !score.settlement.losers_settled) return null;
  const seats = (score.settlement.seats ?? WINDS).filter((s) => s in matrix);
  const net = score.settlement.net ?? {};
  const head = el("tr", {}, el("th", { scope: "col" }, t("payer_payee")),
    ...seats.map((s) => el("th", { scope: "col" }, seatName(s))));
  const rows = seats.map((payer) => el("tr", {}, el("th", { scope: "row" }, seatName(payer)),
    ...seats.map((payee) => el("td", {}, payer === payee ? "–" : String(matrix[payer]?.[payee] ?? 0)))));
  rows.push(el("tr", { class: "net" }, el("th", { scope: "row" }, t("net")),
    ...seats.map((s) => el("td", {}, String(net[s] ?? "")))));
  return el("table", { class: "settlement" }, el("caption", {}, t("settlement")),
    el("thead", {}, head), el("tbody", {}, ...rows));
}

/** How the server read the hand into sets (the reading that scored best), as small tile pictures. */
function renderReading(decomposition) {
  if (!Array.isArray(decomposition) || !decomposition.length) return null;
  const sets = [];
  for (const set of decomposition) {
    let codes;
    try {
      codes = parseTiles(String(set.tiles ?? ""));
    } catch {
      continue;
    }
    const kind = has(`set_${set.kind}`) ? t(`set_${set.kind}`) : String(set.kind ?? "");
    const label = `${kind}: ${codes.map(tileName).join(", ")}`;
    sets.push(el("li", { class: `set ${set.concealed === false ? "exposed" : ""}`, "aria-label": label, title: label },
      ...codes.map((code) => el("span", { class: "mini", "aria-hidden": "true" }, tileInfo(code).glyph))));
  }
  return sets.length ? el("div", { class: "reading" }, el("span", { class: "help" }, t("read_as")), el("ul", {}, ...sets)) : null;
}

function renderValid(score) {
  const parts = [];
  const italian = score.model === "italian" || (typeof score.fan !== "number" && typeof score.score === "number");
  const total = italian ? t("total_points", { points: score.score }) : t("total_fan", { fan: score.fan });
  parts.push(el("p", { class: "verdict good" }, el("span", {}, t("valid")), " ",
    el("strong", { id: "total" }, total), score.limit ? el("span", { class: "badge" }, t("limit")) : null));
  if (italian && typeof score.points === "number") {
    parts.push(el("p", { class: "help" }, t("italian_total", { points: score.points, doubles: score.doubles ?? 0 })));
  }
  if (score.winning_tile) {
    const key = score.winning_tile_assumed ? "assumed_winning" : "winning_tile_is";
    parts.push(el("p", { class: "help" }, t(key, { tile: `${tileInfo(score.winning_tile).glyph} ${tileName(score.winning_tile)}` })));
  }
  parts.push(renderReading(score.decomposition));
  if (italian) {
    const winner = score.players?.[score.winner] ?? {};
    const special = (score.patterns ?? []).filter((p) => typeof p.points === "number");
    parts.push(
      linesTable(t("base_points"), t("points_col"), [...special, ...(winner.point_lines ?? [])], (l) => l.points ?? l.value),
      linesTable(t("doubles"), t("doubles_col"), (score.patterns ?? []).filter((p) => typeof p.doubles === "number"),
        (l) => `×${2 ** l.doubles}`),
    );
  } else {
    parts.push(linesTable(t("patterns"), t("fan_col"), score.patterns, (l) => l.fan));
  }
  parts.push(renderPayments(score), renderSettlement(score));
  return parts;
}

function renderScore() {
  const section = $("score");
  const body = $("score-body");
  const score = state.score;
  if (!score) {
    section.hidden = true;
    body.replaceChildren();
    return;
  }
  section.hidden = false;
  section.dataset.state = score.valid ? "valid" : "invalid";
  let parts;
  if (score.valid) {
    parts = renderValid(score);
  } else {
    parts = [el("p", { class: "verdict bad" }, el("strong", {}, t("invalid")))];
    const reason = language() === "it" ? score.reason_it ?? score.reason : score.reason;
    if (reason) parts.push(el("p", { class: "reason" }, reason));
    if (score.waits?.length) {
      parts.push(el("p", {}, t("waits_on")),
        el("ul", { class: "waits" }, ...score.waits.map((code) =>
          el("li", { class: "tile static", "aria-label": tileName(code) }, ...tileFace(code)))));
    }
  }
  body.replaceChildren(...parts.filter(Boolean));
}

// ---------------------------------------------------------------- tile dialog

function paletteButton(code, onPick, extra = "") {
  return el("button", { type: "button", class: `tile pick ${extra}`, "data-code": code, "aria-label": tileName(code),
    title: tileName(code), onclick: () => onPick(code) }, ...tileFace(code));
}

function fillPalette(onPick, current) {
  const rows = [["m"], ["p"], ["s"], ["z"], ["f", "g", "x"]].map((suits) =>
    el("div", { class: "palette-row" }, ...TILES.filter((tile) => suits.includes(tile.suit))
      .map((tile) => paletteButton(tile.code, onPick, tile.code === current ? "current" : ""))));
  $("palette").replaceChildren(...rows);
}

function tilePosition(id) {
  let n = 0;
  for (const group of state.groups) {
    for (const other of group.tiles) {
      n += 1;
      if (other === id) return n;
    }
  }
  return n;
}

function openEdit(id) {
  const tile = state.tiles.get(id);
  state.dialog = { mode: "edit", id };
  const n = tilePosition(id);
  $("tile-dialog-h").textContent = t("edit_tile", { n, name: `${tileInfo(tile.code).glyph} ${tileName(tile.code)}` });
  $("tile-dialog-info").textContent = tile.confidence !== null && tile.read
    ? t("confidence", { name: tileName(tile.read), pct: Math.round(tile.confidence * 100) }) : "";
  const act = (label, fn) => el("button", { type: "button", class: "button", onclick: () => { fn(); closeDialog(); render(); scheduleScore(); } }, label);
  const group = groupOf(id);
  $("tile-actions").replaceChildren(...[
    act(state.winning === id ? t("unmark_winning") : t("mark_winning"), () => { state.winning = state.winning === id ? null : id; }),
    act(t("move_left"), () => moveTile(id, -1)),
    act(t("move_right"), () => moveTile(id, 1)),
    group.tiles.indexOf(id) > 0 ? act(t("split_here"), () => splitAt(id)) : null,
    act(t("remove_tile"), () => removeTile(id)),
  ].filter(Boolean));
  // the faces that would also make a winning hand come first: they are the likely corrections
  const offered = (tile.alternatives ?? []).filter((a) => a.code && a.code !== tile.code && tileByCode(a.code));
  const winning = offered.filter((a) => a.wins).map((a) => a.code);
  const alternatives = offered.filter((a) => !a.wins).map((a) => a.code);
  if (tile.read && tile.read !== tile.code && !winning.includes(tile.read)) alternatives.unshift(tile.read);
  // picking a face, even the one read, means the player has checked the tile
  const pick = (code) => { tile.code = code; tile.low = false; closeDialog(); render(); scheduleScore(); };
  // every face that wins (a flower's are the other seven bonus tiles at most); four guesses
  const offer = (label, codes, extra) => (codes.length
    ? [el("span", { class: "offer" }, el("span", { class: "maybe" }, t(label)),
      ...codes.map((code) => paletteButton(code, pick, extra)))] : []);
  $("alternatives").replaceChildren(...offer("also_wins", winning, "wins"), ...offer("maybe", alternatives.slice(0, 4), ""));
  fillPalette(pick, tile.code);
  showDialog();
}

function openAdd(key) {
  state.dialog = { mode: "add", key };
  const group = state.groups.find((g) => g.key === key);
  const gi = state.groups.indexOf(group);
  $("tile-dialog-h").textContent = t("add_tile_to", { n: gi + 1 });
  const summary = () => group.tiles.map((id) => tileInfo(state.tiles.get(id).code).glyph).join(" ");
  $("tile-dialog-info").textContent = summary();
  $("tile-actions").replaceChildren();
  $("alternatives").replaceChildren();
  fillPalette((code) => {
    group.tiles.push(newTile(code));
    $("tile-dialog-info").textContent = summary();
    render();
    scheduleScore();
  }, null);
  showDialog();
}

function showDialog() {
  const dialog = $("tile-dialog");
  if (!dialog.open) dialog.showModal();
}

function closeDialog() {
  const dialog = $("tile-dialog");
  if (dialog.open) dialog.close();
}

// ---------------------------------------------------------------- start

function applyLanguage(lang) {
  setLanguage(lang);
  $("lang").value = language();
  localStorage.setItem("mjlens.lang", language());
  fillWindSelects();
  syncDiscarder();
  renderRules();
  renderOthers();
  render();
  if (state.dialog && $("tile-dialog").open) {
    if (state.dialog.mode === "edit") openEdit(state.dialog.id);
    else openAdd(state.dialog.key);
  }
}

function start() {
  fillWindSelects();
  restoreContext();
  applyLanguage(initialLanguage());
  $("lang").addEventListener("change", (e) => applyLanguage(e.target.value));
  $("photo-camera").addEventListener("change", onPhoto);
  $("photo-file").addEventListener("change", onPhoto);
  $("manual-open").addEventListener("click", () => ($("manual").hidden ? openManual() : closeManual()));
  $("manual").addEventListener("submit", onManualSubmit);
  $("manual-empty").addEventListener("click", onManualEmpty);
  $("add-meld").addEventListener("click", () => { const g = newGroup("meld"); state.groups.push(g); render(); openAdd(g.key); });
  $("add-bonus").addEventListener("click", () => { const g = newGroup("bonus"); state.groups.push(g); render(); openAdd(g.key); });
  $("context").addEventListener("change", (event) => {
    syncDiscarder();
    if (event.target.id === "rules" || event.target.id === "seat_wind") renderOthers();
    saveContext();
    scheduleScore();
  });
  $("context").addEventListener("submit", (e) => e.preventDefault());
  $("tile-dialog").addEventListener("close", () => { state.dialog = null; });
  $("zoom").addEventListener("click", () => { state.zoomed = !state.zoomed; applyZoom(); });
  $("photo-img").addEventListener("error", () => {
    if (!state.photoUrl) return;
    $("photo-img").hidden = true;
    renderOverlay();
  });
  loadRules();
  document.body.dataset.ready = "true";
}

start();
