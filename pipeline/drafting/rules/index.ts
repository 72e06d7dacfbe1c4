// The per-field rules that tie a quote to this product, shared by both drafters' evidence check
// (evidence.ts) and used by the extractive drafter to choose what it proposes.
export { inThirdPartyBlock, isThirdPartyBlock, thirdPartyPage } from './attribution.ts';
export { addressLine, datedPage, linkLabel, ownWords, productNames, type PageOf, type RuleContext } from './context.ts';
export { foundedHere, personName, roleIsHere, ROLE } from './founders.ts';
export { quoteStatesFounding, statesFounding } from './founding.ts';
export { isInstructionLike } from './instructions.ts';
export { addressStates, locatedSentence, POSTCODE, postalTown, STREET, statesLocation } from './location.ts';
export { stageOf, statesCurrentStage } from './stage.ts';
export { namesProduct, type ProductContext } from './subject.ts';
export { declaredOnly, declaresCity, declaresCountry, declaresFounder, declaresFounding, jsonBlockMember, jsonMember } from './declared.ts';
