/**
 * Model-written Python trying every way out of the sandbox (the app's storage, its service
 * worker, `/v1`, the network, the page): written once for every browser the end-to-end
 * tests drive (test/e2e/builtin-tools.test.ts, test/e2e/firefox/python.test.ts).
 */
import { expect } from 'vitest';

/** The Python code: prints one JSON object, attempt name → "ok: …" or the error it met. */
export function sandboxEscapeCode({ app, web }: { app: string; web: string }): string {
  return `
import js, json
from pyodide.code import run_js
from pyodide.ffi import to_js
APP = ${JSON.stringify(app)}
WEB = ${JSON.stringify(web)}
results = {}
async def attempt(name, action):
    try:
        value = action()
        if hasattr(value, "then"):
            value = await value
        results[name] = "ok: " + str(value)
    except BaseException as error:
        results[name] = f"{type(error).__name__}: {error}"
def sync_xhr():
    xhr = js.XMLHttpRequest.new()
    xhr.open("GET", APP + "/v1/models", False)
    xhr.send()
    return xhr.status
def idb_open():
    request = js.indexedDB.open("local-responses")
    return run_js("(r) => new Promise((ok, no) => { r.onsuccess = () => ok('opened ' + r.result.name); r.onerror = () => no(r.error); })")(request)
post = to_js({"method": "POST", "mode": "no-cors", "body": "{}"}, dict_converter=js.Object.fromEntries)
await attempt("origin", lambda: js.self.origin)
await attempt("indexedDB.open", idb_open)
await attempt("indexedDB.databases", lambda: js.indexedDB.databases())
await attempt("caches.keys", lambda: js.caches.keys())
await attempt("serviceWorker", lambda: js.navigator.serviceWorker.getRegistrations())
await attempt("fetch /v1/models", lambda: js.fetch(APP + "/v1/models"))
await attempt("fetch /v1/responses no-cors POST", lambda: js.fetch(APP + "/v1/responses", post))
await attempt("sync XHR /v1/models", sync_xhr)
await attempt("fetch CORS-enabled site", lambda: js.fetch(WEB + "/pages/paris.html"))
await attempt("parent", lambda: js.parent)
await attempt("top", lambda: js.top)
await attempt("run_js fetch /v1", lambda: run_js(f"fetch('{APP}/v1/models').then(r => r.status)"))
await attempt("run_js import app script", lambda: run_js(f"import('{APP}/sw.js')"))
await attempt("run_js localStorage", lambda: run_js("localStorage.length"))
await attempt("run_js document.cookie", lambda: run_js("document.cookie"))
print(json.dumps(results))
`;
}

/** Every attempt failed, each the way the sandbox makes it fail; the origin is opaque. */
export function expectEveryEscapeFailed(results: Record<string, string>): void {
  expect(results.origin).toBe('ok: null'); // an opaque origin
  for (const [name, outcome] of Object.entries(results)) {
    if (name === 'origin') continue;
    expect(outcome, name).not.toMatch(/^ok: /);
  }
  expect(results['indexedDB.open']).toMatch(/SecurityError/);
  // Firefox fails the `caches` getter itself in an opaque origin (NS_ERROR_FAILURE).
  expect(results['caches.keys']).toMatch(/SecurityError|AttributeError|NS_ERROR_FAILURE/);
  expect(results['fetch /v1/models']).toMatch(/TypeError|NetworkError/);
  expect(results['parent']).toMatch(/AttributeError/);
  expect(results['top']).toMatch(/AttributeError/);
}
