// Building SVG and HTML elements without a library, and the page's shared bits of display.

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, value);
  }
  if (text !== undefined) element.textContent = text;
  return element;
}

export function html(tag, attributes = {}, text) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(name, value);
  }
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Make an SVG element act as a button: focusable, announced, activated by click, Enter or Space. */
export function clickable(element, label, action) {
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  element.classList.add("clickable");
  element.addEventListener("click", action);
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
}

/** A number for display: integers as they are, others to 3 significant decimals. */
export function formatNumber(x, digits = 3) {
  if (x === null || x === undefined) return "–";
  if (typeof x !== "number") return String(x);
  x += 0;  // -0 (a level value seen from the other side) reads 0
  if (Number.isInteger(x)) return x.toLocaleString("en");
  if (Math.abs(x) >= 1e6) return x.toExponential(digits);
  return String(Number(x.toFixed(digits)));
}

/**
 * Numbers for display side by side (the values of the root moves): to 3 decimals, or as many more as it
 * takes to tell apart the values that differ (0.99957 and 0.99962 are both 1 to 3 decimals).
 */
export function formatDistinct(values) {
  const distinct = new Set(values.filter((x) => typeof x === "number")).size;
  for (let digits = 3; digits <= 12; digits++) {
    const texts = values.map((x) => formatNumber(x, digits));
    if (new Set(texts.filter((t, i) => typeof values[i] === "number")).size >= distinct) return texts;
  }
  return values.map((x) => (typeof x === "number" ? String(x) : formatNumber(x)));
}

/** A move as text: strings and numbers as they are, anything else as JSON. */
export function moveText(move) {
  return typeof move === "string" || typeof move === "number" ? String(move) : JSON.stringify(move);
}

/** Fill a <dl> with [name, value] rows; each value's <dd> carries data-stat="name". */
export function fillStats(list, rows, kind = "") {
  list.dataset.kind = kind;
  list.replaceChildren(...rows.flatMap(([name, value]) => [
    html("dt", {}, name),
    html("dd", { "data-stat": name }, typeof value === "number" ? formatNumber(value) : String(value)),
  ]));
}

/** Show `text` in the error box `box` (an element with role=alert); an empty text hides it. */
export function showError(box, text = "") {
  box.textContent = text;
  box.hidden = !text;
}
