// SPDX-License-Identifier: Apache-2.0
// Whether a backend's doc page gives a dated source for its tier and for
// each capability it declares: the rows of its table "Sources of the tier
// and of each declared capability" (| declared | rests on | checked |).
//   node cap-sources.js DOC TIER|- CAP...
// Prints each declaration without a row, a document or a YYYY-MM-DD date;
// exits 1 when there is any. TIER "-" when the plugin is not built (a
// tier row is still required).
import fs from "node:fs";

const [doc, tier, ...caps] = process.argv.slice(2);
const text = fs.readFileSync(doc, "utf8");
const at = text.indexOf("## Sources of the tier and of each declared capability");
const bad = [];
if (at < 0) {
  console.log(`${doc}: no section "Sources of the tier and of each declared capability"`);
  process.exit(1);
}
const rows = new Map();
for (const line of text.slice(at).split("\n").slice(1)) {
  if (line.startsWith("## ")) break;
  const m = /^\|([^|]+)\|(.*)\|([^|]*)\|\s*$/.exec(line);
  if (!m || /^\s*(declared|---)/.test(m[1])) continue;
  rows.set(m[1].trim(), { source: m[2].trim(), date: m[3].trim() });
}
const want = caps.slice();
if (tier !== "-") want.unshift(`tier ${tier}`);
else if (![...rows.keys()].some((k) => k.startsWith("tier "))) bad.push("tier: no row");
for (const w of want) {
  const r = rows.get(w);
  if (!r) bad.push(`${w}: declared, but no row gives its source`);
  else if (!r.source || r.source === "-") bad.push(`${w}: the row names no document`);
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(r.date)) bad.push(`${w}: the row has no date it was checked (YYYY-MM-DD)`);
}
for (const b of bad) console.log(`${doc}: ${b}`);
process.exit(bad.length ? 1 : 0);
