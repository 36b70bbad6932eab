// Applies the box's state patches (docs/protocol.md, "Patches"), exactly as
// hostd/protocol/patch.py does: ["set", path, value], ["del", path], ["push", path, items].
// It never changes the state it is given (it copies along the paths it writes), and throws
// PatchError on an operation that does not fit, so the shell asks for a full state instead.
// It knows no game and decides nothing.

export class PatchError extends Error {}

function isObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

function child(parent, key) {
  if (isObject(parent) && typeof key === "string") {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new PatchError(`no key ${key}`);
    return parent[key];
  }
  if (Array.isArray(parent) && Number.isInteger(key) && key >= 0 && key < parent.length) {
    return parent[key];
  }
  throw new PatchError(`no element ${key}`);
}

function put(parent, key, value) {
  if (isObject(parent) && typeof key === "string") {
    parent[key] = value;
  } else if (Array.isArray(parent) && Number.isInteger(key) && key >= 0 && key < parent.length) {
    parent[key] = value;
  } else {
    throw new PatchError(`cannot set ${key}`);
  }
}

export function applyPatch(doc, ops) {
  const root = { ...doc };
  const copied = new Set([root]); // containers this patch owns (safe to write into)
  for (const op of ops) {
    if (!Array.isArray(op) || (op.length !== 2 && op.length !== 3) || typeof op[0] !== "string") {
      throw new PatchError("not an operation");
    }
    const [kind, path] = op;
    if (!Array.isArray(path) || path.length === 0) throw new PatchError("bad path");
    if ((kind === "del") !== (op.length === 2)) throw new PatchError("bad operation");
    let node = root;
    for (const key of path.slice(0, -1)) {
      let next = child(node, key);
      if (next !== null && typeof next === "object" && !copied.has(next)) {
        next = Array.isArray(next) ? [...next] : { ...next };
        copied.add(next);
        node[key] = next;
      }
      node = next;
    }
    const last = path[path.length - 1];
    if (kind === "set") {
      put(node, last, op[2]);
    } else if (kind === "del") {
      if (!isObject(node) || typeof last !== "string"
          || !Object.prototype.hasOwnProperty.call(node, last)) {
        throw new PatchError("nothing to delete");
      }
      delete node[last];
    } else if (kind === "push") {
      const target = child(node, last);
      if (!Array.isArray(target) || !Array.isArray(op[2])) throw new PatchError("not a list");
      put(node, last, [...target, ...op[2]]);
    } else {
      throw new PatchError(`unknown operation ${kind}`);
    }
  }
  return root;
}

// The latest state of each table, kept from full states and patches. `patch` returns the
// state a patch leads to, or null; `sync` true once when the shell must send
// {type: "sync", table} (the patch's base is not the version held, or it did not apply):
// patches are then ignored until the full state comes.
export class Follower {
  constructor() {
    this.held = new Map();
    this.behind = new Set();
  }

  state(msg) {
    this.held.set(msg.table, msg);
    this.behind.delete(msg.table);
    return msg;
  }

  patch(msg) {
    if (this.behind.has(msg.table)) return { state: null, sync: false };
    const held = this.held.get(msg.table);
    if (held && held.version === msg.base) {
      try {
        const next = { ...applyPatch(held, msg.ops), type: "state", re: msg.re,
          version: msg.version, presentation: null };
        this.held.set(msg.table, next);
        return { state: next, sync: false };
      } catch (e) {
        if (!(e instanceof PatchError)) throw e;
      }
    }
    this.held.delete(msg.table);
    this.behind.add(msg.table);
    return { state: null, sync: true };
  }
}
