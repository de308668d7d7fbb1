// SPDX-License-Identifier: Apache-2.0
// The state the HTTP layer hands the Connect services for one request
// (which sandbox it addresses, the fault hooks armed for it), carried by
// AsyncLocalStorage because the Connect handler context has no room for it.
import { AsyncLocalStorage } from "node:async_hooks";

export const requestStorage = new AsyncLocalStorage();

export function requestState() {
  return requestStorage.getStore();
}
