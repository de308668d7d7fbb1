// SPDX-License-Identifier: Apache-2.0
// An agent's allow_hosts tighten the operator's --allow-host list only where
// the egress proxy would allow no more: every (host, port) an entry allows
// must be allowed by one operator entry. An entry without :PORT means ports
// 80 and 443, for the operator's list and the agent's alike; a name is
// covered by itself or a *.domain above it; a block by a block holding it.
// The fake cannot enforce an allowlist: an entry that passes the check
// reaches the core's refusal, SBX_E3003; a wider one is SBX_E3020, a
// malformed one SBX_E1030.
import assert from 'node:assert/strict';
import { stdioClient, fails } from './client.mjs';

const { client } = await stdioClient(['--dsn', 'fake://', '--network', 'allowlist',
  '--allow-host', 'a.example', '--allow-host', 'b.example:443', '--allow-host', '*.wild.example',
  '--allow-host', '10.0.0.0/8', '--allow-host', '192.168.1.0/24:5432', '--allow-host', '[fc00::/7]:8443',
  '--allow-host', 'split.example:80', '--allow-host', 'split.example:443']);

const wider = async (entry) => {
  const e = await fails(client, 'run', { argv: ['true'], allow_hosts: [entry] }, 'SBX_E3020');
  assert.match(e.message, /allows more than the server's --allow-host list/, entry);
  await fails(client, 'sandbox_create', { allow_hosts: ['a.example', entry] }, 'SBX_E3020');
};
const within = (entry) => fails(client, 'run', { argv: ['true'], allow_hosts: [entry] }, 'SBX_E3003');

// A name: its port must be one the operator's entry allows.
for (const e of ['a.example:22', 'a.example:8080', 'b.example', 'b.example:80', 'c.example', 'c.example:443'])
  await wider(e);
for (const e of ['a.example', 'A.example', 'a.example:80', 'a.example:443', 'a.example.', 'b.example:443',
                 'split.example', 'split.example:80'])
  await within(e);
// A wildcard: inside the operator's, on its ports.
for (const e of ['*.wild.example:5432', 'x.wild.example:22', '*.example', 'wild.example', '*.wild.example:8443'])
  await wider(e);
for (const e of ['*.wild.example', 'x.wild.example', '*.deep.wild.example:443', 'x.y.wild.example:80'])
  await within(e);
// A block: inside one of the operator's, on its ports.
for (const e of ['10.0.0.0/8:22', '10.1.0.0/16:22', '10.0.0.0/7', '10.1.2.3:5432', '0.0.0.0/0', '11.0.0.1',
                 '192.168.1.0/24', '192.168.1.7', '192.168.0.0/16:5432', '192.168.1.0/23:5432',
                 'fc00::/7', '[fc00::/7]', '[fc00::1]', '[fc00::/6]:8443', '[fe80::1]:8443'])
  await wider(e);
for (const e of ['10.0.0.0/8', '10.1.2.3', '10.255.255.255:443', '10.1.0.0/16:80', '10.1.2.3/8',
                 '192.168.1.7:5432', '192.168.1.128/25:5432', '[fc00::1]:8443', '[fd00::/8]:8443'])
  await within(e);
// Not an entry the proxy could enforce at all.
for (const e of ['a.example:0', 'a.example:x', 'a.example:65536', '*.a*.example', '[fc00::1', 'a b'])
  await fails(client, 'run', { argv: ['true'], allow_hosts: [e] }, 'SBX_E1030');
await client.close();
console.log('ok: allow_hosts are held to the hosts and ports the operator\'s --allow-host allows');
