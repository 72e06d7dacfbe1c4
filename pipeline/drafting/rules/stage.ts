// stage: the product's current stage as the site states it: a badge ("Now in public beta",
// "Early access") or a present-tense sentence ("SendPilot is in early access"). Never a stage
// in passing: thanks to beta testers, a past stage ("during our private beta", "the alpha
// ended"), or a release note.
import { sentences } from '../normalise.ts';
import { STAGES } from '../vocabulary.ts';

const PAST =
  /\b(?:thanks?|thank-you|grateful|was|were|had|during|after|ended|exited|left|graduated|out of|previous(?:ly)?|former(?:ly)?|back in|entered|last (?:year|month|week|spring|summer|fall|autumn|winter)|ago|testers?|helped)\b/i;
const PRESENT = /\b(?:now|currently|today|is|are|we're|join|sign up|signup|request|apply|get|try|available|open)\b/i;

/** The stage label a text names, by the shared vocabulary. */
export function stageOf(text: string): string | null {
  for (const [pattern, label] of STAGES) if (pattern.test(text)) return label;
  return null;
}

/** Whether the quote states `label` as the product's current stage. */
export function statesCurrentStage(quote: string, label: string): boolean {
  return sentences(quote).some((s) => {
    if (stageOf(s) !== label || PAST.test(s) || s.includes('?')) return false;
    const words = s.split(/\s+/).length;
    return words <= 4 || PRESENT.test(s);
  });
}
