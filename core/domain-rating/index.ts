// Domain Rating sources, chosen by configuration: the HTTP provider when DR_PROVIDER_KEY is set;
// otherwise only the embedded one, operators' CSV imports (import.ts).
import type { Config } from '../config.ts';
import { type DomainRatingProvider, httpDomainRatingProvider } from './provider.ts';

export type { DomainRatingProvider } from './provider.ts';

export function domainRatingProvider(config: Config): DomainRatingProvider | null {
  return config.domainRating ? httpDomainRatingProvider(config.domainRating) : null;
}
