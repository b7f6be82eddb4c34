// The service's API as the page uses it: JSON in, JSON out, and every error as the API's problem+json.

// The longest a refused request waits before it is sent again, whatever the server's Retry-After says.
const MAX_RETRY_AFTER_S = 60;

/**
 * An error answered by the API (or by the network), carrying the problem+json object; `retryAfter` is set
 * (in seconds) when the server was busy (429, 503) and said when to ask again.
 */
export class ApiError extends Error {
  constructor(problem, retryAfter = null) {
    super(problem.detail || problem.title || "request failed");
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** The seconds a busy server's answer asks the client to wait (at least one), or null. */
function retryAfter(response) {
  const seconds = Number.parseInt(response.headers.get("Retry-After"), 10);
  if (![429, 503].includes(response.status) || !(seconds >= 0)) return null;
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_S);
}

/** The problem's detail, followed by each field's messages ("state.board: ..."). */
export function describeError(error) {
  const problem = error.problem || { detail: String(error.message || error) };
  const lines = [problem.detail || problem.title || "request failed"];
  for (const [field, messages] of Object.entries(problem.errors || {})) {
    lines.push(`${field}: ${[].concat(messages).join(" ")}`);
  }
  return lines.join("\n");
}

async function answer(response) {
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ApiError({ status: response.status, detail: `HTTP ${response.status}: ${text.slice(0, 200)}` });
  }
  if (!response.ok) throw new ApiError(data, retryAfter(response));
  return data;
}

async function send(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError({ detail: `the server could not be reached (${error.message})` });
  }
  return answer(response);
}

export function getJSON(url) {
  return send(url, { headers: { Accept: "application/json" } });
}

export function postJSON(url, body, signal) {
  return send(url, {
    method: "POST", signal, body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", Accept: "application/json" },
  });
}

/** One server-sent event block ("event: x\ndata: {...}") as {event, data}; null for comments. */
function parseEvent(block) {
  let event = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":") || !line) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return data.length ? { event, data: JSON.parse(data.join("\n")) } : null;
}

/**
 * POST a request to a server-sent-events route of the API (/v1/search/stream, /v1/review/stream): calls
 * onEvent(name, data) for every event before the `result` one and resolves with the result's data (the
 * body the route's plain twin would answer); an `error` event rejects with its problem. Aborting `signal`
 * closes the connection, which stops the work on the server.
 */
export async function streamEvents(url, body, onEvent, signal) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST", signal, body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError({ detail: `the server could not be reached (${error.message})` });
  }
  if (!response.ok) return answer(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const parsed = parseEvent(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!parsed) continue;
      if (parsed.event === "result") {
        reader.cancel().catch(() => {});
        return parsed.data;
      }
      if (parsed.event === "error") throw new ApiError(parsed.data);
      onEvent(parsed.event, parsed.data);
    }
  }
  throw new ApiError({ detail: "the stream ended without a result" });
}

/** POST /v1/search/stream: onInfo(info) for every progress event; resolves with the search's answer. */
export function streamSearch(body, onInfo, signal) {
  return streamEvents("/v1/search/stream", body, (name, data) => { if (name === "info") onInfo(data); }, signal);
}
