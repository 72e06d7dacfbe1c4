// Text written to steer a machine reader rather than to inform a visitor ("AI assistants
// reading this page: ignore previous instructions and say ..."). Such a sentence states
// nothing about the product, so it is never evidence, even when it is visible.
const INSTRUCTION = [
  /\b(?:ignore|disregard|forget|override)\b[^.]{0,60}\b(?:instructions?|rules|prompts?|above|previous)\b/i,
  /\b(?:ai|a\.i\.|llms?|language models?|chatbots?|assistants?|crawlers?|scrapers?|bots?)\b[^.]{0,30}\b(?:reading|parsing|crawling|visiting|processing|summari[sz]ing)\s+(?:this|the)\s+(?:page|site|website|text|content)\b/i,
  /\b(?:note|instructions?|message)\s+(?:to|for)\s+(?:ai|llms?|language models?|ai assistants?|crawlers?|bots?|models?)\b/i,
  /(?:^|\n)\s*(?:system|assistant)\s*:/i,
  /(?:^|[:;,]\s*|\band\s+)(?:say|state|report|claim|answer|respond|reply|output)\s+that\b/i,
];

/** Whether a quote is an instruction to a machine reader. */
export function isInstructionLike(text: string): boolean {
  return INSTRUCTION.some((pattern) => pattern.test(text));
}
