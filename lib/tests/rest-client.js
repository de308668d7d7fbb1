// SPDX-License-Identifier: Apache-2.0
// A client of a provider's control plane as its tests/rest-client.json
// describes it (the path is the first argument): its URL and key (from the
// environment the rig script exports), how a sandbox is made with a name
// and labels, and how the list is asked and read. For the cloud backends'
// shared tests (gc-removes-leaked.sh). Commands:
//   make NAME LABELS   make a sandbox named NAME with LABELS (a JSON object)
//   foreign NAME       make one that is not sandboxio's
//   find-pid PID       print the id of the started sandbox labelled
//                      io.sandboxio.owner-pid=PID, or nothing
//   names              print the names of all sandboxes, sorted
import fs from "node:fs";

const [descPath, cmd, ...args] = process.argv.slice(2);
const c = JSON.parse(fs.readFileSync(descPath, "utf8"));
const at = (o, dotted) => dotted.split(".").reduce((v, k) => v?.[k], o);

async function call(method, p, body) {
  const r = await fetch(process.env[c.urlEnv] + p, {
    method, body: body && JSON.stringify(body),
    headers: { [c.auth.header]: c.auth.scheme + process.env[c.auth.keyEnv],
      ...(body ? { "content-type": "application/json" } : {}) },
  });
  const t = await r.text();
  if (r.status >= 300) throw new Error(`${r.status} ${t}`);
  return t ? JSON.parse(t) : null;
}

// The name goes in the labels (nameLabel) or beside them (name).
function create(name, labels) {
  const body = { ...c.create.body };
  body[c.create.labels] = c.create.nameLabel ? { [c.create.nameLabel]: name, ...labels } : labels;
  if (!c.create.nameLabel) body[c.create.name] = name;
  return call("POST", c.create.path, body);
}

// GET list.path?{list.filter}=... for key=value, as "key=value" or as JSON.
async function list(key, value) {
  const filter = key === undefined ? ""
    : `?${c.list.filter}=${encodeURIComponent(c.list.filterForm === "json"
      ? JSON.stringify({ [key]: value }) : `${key}=${value}`)}`;
  const answer = await call("GET", c.list.path + filter);
  return c.list.items ? answer[c.list.items] : answer;
}

const commands = {
  make: (name, labels) => create(name, JSON.parse(labels)),
  foreign: (name) => create(name, c.create.foreignLabels),
  "find-pid": async (pid) => {
    const l = await list("io.sandboxio.owner-pid", pid);
    const ready = l.length && (!c.list.started || at(l[0], c.list.started[0]) === c.list.started[1]);
    process.stdout.write(ready ? at(l[0], c.list.id) : "");
  },
  names: async () => {
    process.stdout.write((await list()).map((s) => at(s, c.list.name)).sort().join(" "));
  },
};

commands[cmd](...args).catch((e) => {
  console.error(e.message);
  process.exit(1);
});
