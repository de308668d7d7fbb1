// SPDX-License-Identifier: Apache-2.0
// The local backend's own listing of its sandboxes: the init processes
// (sandboxio-local-init) descending from a given process.
import { readdirSync, readFileSync } from 'node:fs';

function stat(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = s.lastIndexOf(')');
    return { comm: s.slice(s.indexOf('(') + 1, close), ppid: Number(s.slice(close + 2).split(' ')[1]) };
  } catch {
    return null;
  }
}

export function localInits(ancestor) {
  const all = new Map();
  for (const e of readdirSync('/proc')) {
    if (/^\d+$/.test(e)) {
      const st = stat(e);
      if (st) all.set(Number(e), st);
    }
  }
  const inits = [];
  for (const [pid, st] of all) {
    if (!st.comm.startsWith('sandboxio-loca')) continue;
    for (let p = st.ppid; p > 1; p = all.get(p)?.ppid ?? 0) {
      if (p === ancestor) {
        inits.push(pid);
        break;
      }
    }
  }
  return inits;
}

export function alive(pid) {
  return stat(pid) !== null;
}

export async function waitGone(pids, ms = 5000) {
  const until = Date.now() + ms;
  while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return pids.filter(alive);
}
