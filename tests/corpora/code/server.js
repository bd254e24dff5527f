// A small request router.
import { readFile } from "node:fs/promises";
const path = require("path");

const DEFAULT_PORT = 8080;

/**
 * Routes requests to handlers. Holds the route table.
 */
export class Router {
  constructor(prefix) {
    this.prefix = prefix;
    this.routes = new Map();
  }

  /** Register a handler for a path. */
  add(route, handler) {
    this.routes.set(normalize(route), handler);
  }

  async dispatch(req) {
    const handler = this.routes.get(normalize(req.url));
    return handler ? handler(req) : notFound(req);
  }
}

/** Normalise a route. Strips trailing slashes. */
function normalize(route) {
  return path.posix.normalize(route).replace(/\/+$/, "");
}

const notFound = (req) => {
  return { status: 404, body: `no route ${req.url}` };
};

export async function loadConfig(file) {
  const text = await readFile(file, "utf8");
  return JSON.parse(text);
}
