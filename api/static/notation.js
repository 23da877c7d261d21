// Typed hands for the no-photo entry: the compact notation of scoring/tiles.py
// ("123m456p11z", "back", English names of honours and bonus tiles), read in the
// browser so that the typed tiles appear at once as tile pictures to correct.
// The server still validates everything it is sent.

import { TILES } from "./tiles.js";

const BY_CODE = new Map(TILES.map((tile) => [tile.code, tile]));
const LIMIT = { m: 9, p: 9, s: 9, z: 7, f: 4, g: 4 };
const NAMES = {
  east: "1z", south: "2z", west: "3z", north: "4z", white: "5z", green: "6z", red: "7z",
  plum: "1f", orchid: "2f", chrysanthemum: "3f", spring: "1g", summer: "2g",
  autumn: "3g", winter: "4g", back: "back",
};

export class NotationError extends Error {
  constructor(token) {
    super(token);
    this.token = token;
  }
}

export function tileByCode(code) {
  return BY_CODE.get(code);
}

/** One token (no spaces) as tile codes, or a NotationError naming the bad part. */
function parseToken(token) {
  const key = token.toLowerCase();
  if (NAMES[key]) return [NAMES[key]];
  if (BY_CODE.has(key)) return [key];
  const codes = [];
  const group = /([0-9]+)([mpszfg])/y;
  let match;
  let pos = 0;
  while ((match = group.exec(key)) !== null) {
    pos = group.lastIndex;
    const [, digits, suit] = match;
    for (const d of digits) {
      let rank = Number(d);
      if (rank === 0 && "mps".includes(suit)) rank = 5; // red five
      if (rank < 1 || rank > LIMIT[suit]) throw new NotationError(`${d}${suit}`);
      codes.push(`${rank}${suit}`);
    }
    if (pos === key.length) return codes;
  }
  throw new NotationError(key.slice(pos) || key);
}

/** Tile codes of a whole text ("123m 456p, east east"). */
export function parseTiles(text) {
  return text.split(/[\s,;]+/).filter(Boolean).flatMap(parseToken);
}

/**
 * A typed hand as groups: the part before the first "|" is the concealed hand,
 * each later part an exposed meld; flowers and seasons go to their own group.
 */
export function parseHand(text) {
  const parts = text.split("|");
  const groups = [];
  const bonus = [];
  parts.forEach((part, i) => {
    const codes = parseTiles(part);
    const playing = codes.filter((code) => !/[fg]$/.test(code));
    bonus.push(...codes.filter((code) => /[fg]$/.test(code)));
    if (playing.length || i === 0) {
      groups.push({ kind: i === 0 ? "concealed" : "meld", codes: playing });
    }
  });
  if (bonus.length) groups.push({ kind: "bonus", codes: bonus });
  return groups;
}
