// The depth limit against the evaluation (issue 54 #3): the sentence under a game position's run that
// compares its choice with the same search's last run at another depth, so that a student who changes
// the depth sees whether, and how, the choice changes.
import { outcomeText } from "./notation.js";
import { formatNumber } from "./svg.js";

const depthText = (depth) => (depth === null ? "no depth limit" : `depth ${depth}`);

/** The sentence for `runs` ({algorithm, depth, move, value}, oldest first; the last is the run shown). */
export function depthSentence(runs) {
  const now = runs[runs.length - 1];
  const before = runs.slice(0, -1).reverse().find((r) => r.algorithm === now.algorithm && r.depth !== now.depth);
  if (!before) return `At ${depthText(now.depth)} the search chooses ${outcomeText(now.move)}: change the depth and `
    + "run it again to see whether looking further, or less far, changes the choice.";
  const [shallow, deep] = before.depth !== null && (now.depth === null || before.depth < now.depth)
    ? [before, now] : [now, before];
  const both = `${depthText(shallow.depth)} values it ${formatNumber(shallow.value)}, ${depthText(deep.depth)} `
    + `${formatNumber(deep.value)}`;
  if (JSON.stringify(shallow.move) === JSON.stringify(deep.move)) {
    return `At ${depthText(shallow.depth)} and at ${depthText(deep.depth)} the search chooses the same move, `
      + `${outcomeText(now.move)} (${both}).`;
  }
  return `At ${depthText(shallow.depth)} the search chooses ${outcomeText(shallow.move)}, which the evaluation at its `
    + `depth limit rates ${formatNumber(shallow.value)}; at ${depthText(deep.depth)} it chooses `
    + `${outcomeText(deep.move)}, worth ${formatNumber(deep.value)}: looking further changed the choice.`;
}
