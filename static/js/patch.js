// RFC 6902 JSON Patch, through the vendored fast-json-patch (see static/vendor/README.md).

import { applyPatch } from "../vendor/fast-json-patch/index.mjs";

/**
 * Returns a new document with `ops` applied; `doc` is left untouched. Throws when an
 * operation does not fit the document (the caller then asks the server for a snapshot).
 */
export function patched(doc, ops) {
  if (!ops || !ops.length) return doc;
  // validate=true makes a "test" op or a missing path throw instead of silently diverging.
  return applyPatch(doc, ops, true, false).newDocument;
}
