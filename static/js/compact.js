// The compact patch frames of the match socket (docs/protocol.md, "Compact frames"): asked for
// with {"type": "hello", "compact": 1} (or 2), they say what a `patch` frame says with a dictionary
// of values sent once per connection and objects without their key names. This file turns
// each one back into the full frame's ops and events, so pages see exactly what they saw
// before. app/realtime/compact.py builds them (its Reader class is this file in Python).

const isNumber = (value) => typeof value === "number";

export class CompactReader {
  constructor() {
    this.dictionary = new Map(); // entry number -> packed value, for this connection only
  }

  /**
   * A packed value as plain JSON: "#<n>" is entry n (unpacked in turn), "##..." a literal
   * string starting with "#", {"<n>": [values]} an object with entry n's keys
   * ({"": [keys, values]} with its keys inline).
   */
  unpack(packed) {
    if (typeof packed === "string") {
      if (!packed.startsWith("#")) return packed;
      const rest = packed.slice(1);
      return /^[0-9]+$/.test(rest) ? this.unpack(this._defined(Number(rest))) : rest;
    }
    if (Array.isArray(packed)) return packed.map((value) => this.unpack(value));
    if (packed !== null && typeof packed === "object") {
      const [shape, values] = Object.entries(packed)[0];
      const keys = shape === "" ? values[0] : this._defined(Number(shape));
      const own = shape === "" ? values[1] : values;
      if (!Array.isArray(keys) || !Array.isArray(own) || keys.length !== own.length) {
        throw new Error("a packed object does not fit its keys");
      }
      // fromEntries makes own properties, whatever the key ("__proto__" included).
      return Object.fromEntries(keys.map((key, i) => [key, this.unpack(own[i])]));
    }
    return packed;
  }

  _defined(number) {
    if (!this.dictionary.has(number)) throw new Error(`no dictionary entry ${number}`);
    return this.dictionary.get(number);
  }

  /** A frame's item: an entry number, or the packed value itself. */
  _entry(ref) {
    return this.unpack(isNumber(ref) ? this._defined(ref) : ref);
  }

  /**
   * {ops, events} of a compact frame: RFC 6902 ops (with the /version replace, and the
   * /legal_moves replace when `l` is there) and the events, sentences included. Throws on a
   * frame that does not fit this connection's dictionary (the caller then asks for a sync).
   */
  expand(frame) {
    if (frame.f) this.dictionary.clear(); // a new dictionary: the entries held are not used again
    for (const [number, packed] of Object.entries(frame.d || {})) {
      this.dictionary.set(Number(number), packed);
    }
    const ops = [{ op: "replace", path: "/version", value: frame.v }];
    for (const ref of frame.o || []) {
      const [key, value] = this._entry(ref);
      if (key.startsWith("+")) ops.push({ op: "add", path: key.slice(1), value });
      else if (key.startsWith("-")) ops.push({ op: "remove", path: key.slice(1) });
      else ops.push({ op: "replace", path: key, value });
    }
    if (frame.l) {
      ops.push({ op: "replace", path: "/legal_moves", value: frame.l.map((ref) => this._entry(ref)) });
    }
    const events = (frame.e || []).map((ref) => this._entry(ref));
    return { ops, events };
  }
}
