// SPDX-License-Identifier: Apache-2.0
// How long the doubles took to answer: a benchmark takes it from a round's
// wall time, so what is left is the client's own.

// Adds the time from now until res's answer is done (or its connection
// gone) to served[key].
export function timeServed(served, key, res) {
  const t0 = performance.now();
  res.once("close", () => { served[key] += performance.now() - t0; });
}
