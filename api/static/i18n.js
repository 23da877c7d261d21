// English and Italian strings of the page. Keys in the HTML are attributes
// (data-i18n = text, data-i18n-label = aria-label); the rest are used by app.js.
// "{name}" placeholders are filled by t(key, {name: value}).

export const STRINGS = {
  en: {
    skip_to_hand: "Skip to the hand",
    language: "Language",
    intro: "Photograph a winning hand: the tiles are read, checked and scored. Tap any tile to correct it.",
    photo_heading: "1. The hand",
    take_photo: "Take a photo",
    choose_photo: "Choose a photo",
    no_photo: "Enter without a photo",
    manual_label: "Tiles (concealed first; each exposed meld after a |)",
    manual_use: "Use these tiles",
    manual_help: "m characters, p dots, s bamboo, z honours (1-4 E S W N, 5-7 white green red), f flowers, g seasons, back = face down. Or start empty and add tiles one by one.",
    manual_empty: "Start with an empty hand",
    tiles_heading: "2. The tiles",
    tiles_help: "Tap a tile to correct it, mark the winning tile or move it to another group.",
    add_meld: "Add an exposed meld",
    add_bonus: "Add flowers/seasons",
    context_heading: "3. The game",
    rules: "Rules",
    seat_wind: "Your seat",
    round_wind: "Round wind",
    win_by: "Won by",
    discard: "a discard",
    self_drawn: "self-drawn",
    discarder: "Discarded by",
    flags: "Special wins",
    last_tile: "last tile of the wall",
    kong_replacement: "on a kong replacement",
    robbing_kong: "robbing a kong",
    heavenly: "heavenly hand (East's deal)",
    earthly: "earthly hand (first discard)",
    score_heading: "4. The score",
    close: "Close",
    all_tiles: "All tiles",
    api_docs: "API documentation",
    // dynamic
    wind_east: "East", wind_south: "South", wind_west: "West", wind_north: "North",
    reading: "Reading the tiles…",
    scoring: "Scoring…",
    found_tiles: "{count} tiles found.",
    photo_caption: "The photo with the tiles found. Orange outlines: tiles the reader is unsure of.",
    zoom_in: "Zoom to the tiles",
    zoom_out: "Show the whole photo",
    group_concealed: "Concealed hand",
    group_meld: "Exposed meld",
    group_bonus: "Flowers and seasons",
    kind_label: "Kind of group {n}",
    merge_next: "Join with the next group",
    delete_group: "Remove this group",
    add_tile: "Add a tile",
    tile_label: "Tile {n}: {name}",
    low_confidence: "unsure, please check",
    confidence: "Read as {name} ({pct}% sure).",
    corrected: "corrected",
    winning: "winning tile",
    edit_tile: "Tile {n}: {name}",
    add_tile_to: "Add a tile to group {n}",
    maybe: "Perhaps:",
    mark_winning: "This is the winning tile",
    unmark_winning: "Not the winning tile",
    move_left: "Move left",
    move_right: "Move right",
    split_here: "New group from here",
    remove_tile: "Remove tile",
    valid: "Mahjong!",
    invalid: "Not a winning hand",
    waits_on: "The hand waits on:",
    total_fan: "{fan} fan",
    total_points: "{points} points",
    limit: "limit hand",
    patterns: "Patterns",
    pattern_col: "Pattern",
    fan_col: "Fan",
    points_col: "Points",
    payments: "Who pays whom",
    pays: "{payer} pays {winner}",
    settlement: "Settlement",
    receives: "receives",
    player: "Player",
    assumed_winning: "No winning tile marked: scored with {tile} as the winning tile (the best reading). Tap a tile to mark the real one.",
    winning_tile_is: "Winning tile: {tile}.",
    empty_hand: "The hand is empty: add tiles or take a photo.",
    net: "Net",
    payer_payee: "Pays ↓ to →",
    doubles_col: "Multiplier",
    italian_total: "{points} base points, {doubles} doubles.",
    doubles: "Doubles",
    base_points: "Base points",
    score_col: "Score",
    // errors
    err_not_an_image: "That file is not a picture. Choose a photo (JPEG, PNG, WebP or HEIC).",
    err_unsupported_format: "This picture format is not supported. Use JPEG, PNG or WebP.",
    err_image_too_large: "The photo is too large. Use a smaller photo.",
    err_truncated_image: "The photo is damaged or incomplete. Take it again.",
    err_no_tiles_found: "No tiles were found in the photo. Photograph the hand from above, in good light, filling the frame.",
    err_bad_request: "The hand could not be read: {message}",
    err_bad_rule_option: "Rule option not accepted: {message}",
    err_unknown_rules: "Unknown rules: {message}",
    err_network: "The server could not be reached. Check the connection and try again.",
    err_server: "The server answered with an error ({status}).",
    err_manual: "Could not read the tiles: {message}",
    bad_token: "'{token}' is not a tile",
  },
  it: {
    skip_to_hand: "Vai alla mano",
    language: "Lingua",
    intro: "Fotografa una mano vincente: le tessere vengono lette, controllate e contate. Tocca una tessera per correggerla.",
    photo_heading: "1. La mano",
    take_photo: "Scatta una foto",
    choose_photo: "Scegli una foto",
    no_photo: "Inserisci senza foto",
    manual_label: "Tessere (prima le coperte; ogni combinazione esposta dopo una |)",
    manual_use: "Usa queste tessere",
    manual_help: "m caratteri, p cerchi, s bambù, z onori (1-4 E S O N, 5-7 drago bianco verde rosso), f fiori, g stagioni, back = coperta. Oppure parti da una mano vuota e aggiungi le tessere una per una.",
    manual_empty: "Parti da una mano vuota",
    tiles_heading: "2. Le tessere",
    tiles_help: "Tocca una tessera per correggerla, indicarla come tessera vincente o spostarla in un altro gruppo.",
    add_meld: "Aggiungi una combinazione esposta",
    add_bonus: "Aggiungi fiori/stagioni",
    context_heading: "3. La partita",
    rules: "Regole",
    seat_wind: "Il tuo posto",
    round_wind: "Vento del giro",
    win_by: "Vinto con",
    discard: "uno scarto",
    self_drawn: "pescata propria",
    discarder: "Scartata da",
    flags: "Vittorie speciali",
    last_tile: "ultima tessera del muro",
    kong_replacement: "tessera di rimpiazzo del poker",
    robbing_kong: "rubando un poker",
    heavenly: "mano celeste (distribuzione di Est)",
    earthly: "mano terrestre (primo scarto)",
    score_heading: "4. Il punteggio",
    close: "Chiudi",
    all_tiles: "Tutte le tessere",
    api_docs: "Documentazione dell'API",
    wind_east: "Est", wind_south: "Sud", wind_west: "Ovest", wind_north: "Nord",
    reading: "Lettura delle tessere…",
    scoring: "Calcolo del punteggio…",
    found_tiles: "{count} tessere trovate.",
    photo_caption: "La foto con le tessere trovate. Bordo arancione: tessere incerte.",
    zoom_in: "Ingrandisci le tessere",
    zoom_out: "Mostra tutta la foto",
    group_concealed: "Mano coperta",
    group_meld: "Combinazione esposta",
    group_bonus: "Fiori e stagioni",
    kind_label: "Tipo del gruppo {n}",
    merge_next: "Unisci al gruppo seguente",
    delete_group: "Togli questo gruppo",
    add_tile: "Aggiungi una tessera",
    tile_label: "Tessera {n}: {name}",
    low_confidence: "incerta, controllala",
    confidence: "Letta come {name} (sicura al {pct}%).",
    corrected: "corretta",
    winning: "tessera vincente",
    edit_tile: "Tessera {n}: {name}",
    add_tile_to: "Aggiungi una tessera al gruppo {n}",
    maybe: "Forse:",
    mark_winning: "È la tessera vincente",
    unmark_winning: "Non è la tessera vincente",
    move_left: "Sposta a sinistra",
    move_right: "Sposta a destra",
    split_here: "Nuovo gruppo da qui",
    remove_tile: "Togli la tessera",
    valid: "Mahjong!",
    invalid: "Non è una mano vincente",
    waits_on: "La mano aspetta:",
    total_fan: "{fan} fan",
    total_points: "{points} punti",
    limit: "mano limite",
    patterns: "Combinazioni",
    pattern_col: "Combinazione",
    fan_col: "Fan",
    points_col: "Punti",
    payments: "Chi paga chi",
    pays: "{payer} paga {winner}",
    settlement: "Saldo",
    receives: "riceve",
    player: "Giocatore",
    assumed_winning: "Nessuna tessera vincente indicata: contata con {tile} come tessera vincente (la lettura migliore). Tocca una tessera per indicare quella vera.",
    winning_tile_is: "Tessera vincente: {tile}.",
    empty_hand: "La mano è vuota: aggiungi tessere o scatta una foto.",
    net: "Netto",
    payer_payee: "Paga ↓ a →",
    doubles_col: "Moltiplicatore",
    italian_total: "{points} punti base, {doubles} raddoppi.",
    doubles: "Raddoppi",
    base_points: "Punti base",
    score_col: "Punteggio",
    err_not_an_image: "Questo file non è un'immagine. Scegli una foto (JPEG, PNG, WebP o HEIC).",
    err_unsupported_format: "Formato dell'immagine non supportato. Usa JPEG, PNG o WebP.",
    err_image_too_large: "La foto è troppo grande. Usa una foto più piccola.",
    err_truncated_image: "La foto è danneggiata o incompleta. Scattala di nuovo.",
    err_no_tiles_found: "Nessuna tessera trovata nella foto. Fotografa la mano dall'alto, con buona luce, riempiendo l'inquadratura.",
    err_bad_request: "Impossibile leggere la mano: {message}",
    err_bad_rule_option: "Opzione delle regole non accettata: {message}",
    err_unknown_rules: "Regole sconosciute: {message}",
    err_network: "Il server non risponde. Controlla la connessione e riprova.",
    err_server: "Il server ha risposto con un errore ({status}).",
    err_manual: "Impossibile leggere le tessere: {message}",
    bad_token: "'{token}' non è una tessera",
  },
};

export const LANGUAGES = Object.keys(STRINGS);

let current = "en";

export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : "en";
  document.documentElement.lang = current;
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of document.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  return current;
}

export function language() {
  return current;
}

/** The string for key in the current language (English when missing), placeholders filled. */
export function t(key, values = {}) {
  const text = STRINGS[current][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

/** Whether a key exists (used to translate known error codes and fall back to the server's message). */
export function has(key) {
  return key in STRINGS[current] || key in STRINGS.en;
}

/** The language to start in: the saved choice, else the browser's, else English. */
export function initialLanguage() {
  const saved = localStorage.getItem("mjlens.lang");
  if (saved && STRINGS[saved]) return saved;
  const browser = (navigator.language || "en").slice(0, 2).toLowerCase();
  return STRINGS[browser] ? browser : "en";
}
