import { EventEmitter } from "events";
import type { Options } from "./options";

export const API_VERSION = "v2";

/** Shape of a response. */
export interface Response {
  status: number;
  body: string;
}

export type Handler = (r: Response) => void;

export enum Method {
  Get = "GET",
  Post = "POST",
}

/** HTTP client with retries. */
export class Client extends EventEmitter {
  private retries: number;

  constructor(opts: Options) {
    super();
    this.retries = opts.retries ?? 3;
  }

  /** Send one request. */
  async send(method: Method, url: string): Promise<Response> {
    const res = await fetchOnce(method, url);
    this.emit("response", res);
    return res;
  }
}

function fetchOnce(method: Method, url: string): Promise<Response> {
  return Promise.resolve({ status: 200, body: `${method} ${url}` });
}
