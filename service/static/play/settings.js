// The AI's settings as the search request takes them: the algorithm chosen, its depth, auto's level (a
// difficulty for people: 1, a beginner, to 10, full strength) and the settings typed as JSON.

const LEVEL_NAMES = ["beginner", "novice", "casual", "club player", "improving", "good", "strong", "expert",
                     "master", "full strength"];

/** "3 · casual": a level as the control shows it. */
export function levelName(level) {
  return `${level} · ${LEVEL_NAMES[level - 1] || ""}`;
}

/**
 * The request's `algorithm`: {name, depth?, level? (auto below 10)}, then the JSON typed (which wins).
 * Throws a SyntaxError or TypeError when the JSON typed is not an object.
 */
export function searchAlgorithm(name, depth, level, extraText) {
  const algorithm = { name };
  if (depth.trim()) algorithm.depth = Number(depth);
  if (name === "auto" && level >= 1 && level < 10) algorithm.level = level;
  const extra = extraText.trim() ? JSON.parse(extraText) : {};
  if (!extra || typeof extra !== "object" || Array.isArray(extra)) throw new TypeError("not an object");
  return Object.assign(algorithm, extra);
}
