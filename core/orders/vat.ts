// VAT of an order, decided by the buyer's billing country and business VAT number. Rates and the
// list of EU member states come from `sales-tax` (kept up to date by its maintainers, offline
// data), VAT number checksums from `jsvat`: no hand-typed tables here.
import SalesTax from 'sales-tax';
import regions from 'sales-tax/res/region_countries.json' with { type: 'json' };
import rates from 'sales-tax/res/sales_tax_rates.json' with { type: 'json' };
import { checkVAT, countries } from 'jsvat';
import type { ViesCheck } from './vies.ts';

// Offline only: the package would otherwise call VIES for every number it sees.
SalesTax.toggleEnabledTaxNumberValidation(false);
SalesTax.toggleEnabledTaxNumberFraudCheck(false);

export const EU_COUNTRIES: readonly string[] = (regions as { EU: string[] }).EU;

const KNOWN_COUNTRIES = new Set(Object.keys(rates as Record<string, unknown>));
/** Whether a two-letter code is a country sales-tax knows (every ISO 3166-1 country). */
export const isKnownCountry = (code: string) => KNOWN_COUNTRIES.has(code);

export type VatRule = 'no_country' | 'domestic' | 'eu_standard_rate' | 'reverse_charge' | 'outside_eu' | 'seller_outside_eu';

export interface VatDecision {
  rule: VatRule;
  /** The rate in basis points (1900 = 19%). */
  rate_basis_points: number;
  rate_percent: string;
  country: string | null;
  vat_number: string | null;
  /** Whether vat_number passed the country's checksum (null when none was given). */
  vat_number_valid: boolean | null;
  note: string;
}

export const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).';

/** The VAT number as written on invoices: upper case, without spaces, dots or dashes. */
export const normaliseVatNumber = (raw: string) => raw.toUpperCase().replace(/[\s.-]/g, '');

/** jsvat knows Greece as EL (its VAT prefix) but reports the ISO code GR. */
function vatNumberCountry(vatNumber: string): string | null {
  const r = checkVAT(vatNumber, countries);
  return r.isValid && r.country ? r.country.isoCode.short : null;
}

async function standardRate(country: string): Promise<number> {
  const tax = await SalesTax.getSalesTax(country);
  return tax.type === 'vat' ? Math.round(tax.rate * 10000) : 0;
}

const percent = (bp: number) => (bp / 100).toFixed(2).replace(/\.?0+$/, '');

/**
 * The VAT rule for a sale from `sellerCountry` to a buyer in `country` (null when not given yet):
 * domestic sales pay the seller country's rate; EU buyers without a valid business number pay their
 * own country's standard rate (B2C place of supply for electronic services); EU buyers with a
 * checksum-valid number of their own member state (other than the seller's) get reverse charge at
 * 0%; buyers outside the EU pay no VAT.
 */
export async function decideVat(sellerCountry: string, country: string | null, rawVatNumber: string | null, vies?: ViesCheck): Promise<VatDecision> {
  const vatNumber = rawVatNumber ? normaliseVatNumber(rawVatNumber) : null;
  let numberCountry = vatNumber ? vatNumberCountry(vatNumber) : null;
  // Online confirmation only where it changes the outcome: a cross-border EU number that passed its checksum.
  let viesNote = '';
  if (vies && vatNumber && numberCountry && country && numberCountry === country && country !== sellerCountry && EU_COUNTRIES.includes(sellerCountry)) {
    const registered = await vies(vatNumber.slice(0, 2), vatNumber.slice(2));
    if (registered === false) {
      numberCountry = null;
      viesNote = ' VIES reports the number as not registered.';
    } else if (registered === null) viesNote = ' (VIES could not be reached; checked by checksum only.)';
    else viesNote = ' (Confirmed by VIES.)';
  }
  const base = { country, vat_number: vatNumber, vat_number_valid: vatNumber ? numberCountry !== null : null };
  const make = (rule: VatRule, bp: number, note: string): VatDecision => ({ ...base, rule, rate_basis_points: bp, rate_percent: percent(bp), note });
  if (!EU_COUNTRIES.includes(sellerCountry)) return make('seller_outside_eu', 0, 'The seller is outside the EU: no VAT is charged.');
  if (!country) return make('no_country', 0, 'No billing country yet: VAT is added once the billing country is known (on the checkout page).');
  if (country === sellerCountry) {
    const bp = await standardRate(country);
    return make('domestic', bp, `Domestic sale in ${country}: ${percent(bp)}% VAT.`);
  }
  if (!EU_COUNTRIES.includes(country)) return make('outside_eu', 0, `Billing country ${country} is outside the EU: no VAT is charged.`);
  if (numberCountry === country) return make('reverse_charge', 0, REVERSE_CHARGE_NOTE + viesNote);
  const bp = await standardRate(country);
  const why = !vatNumber
    ? 'no business VAT number'
    : viesNote
      ? `VAT number ${vatNumber} not registered in VIES`
      : numberCountry === null
        ? `VAT number ${vatNumber} is not a valid EU VAT number`
        : `VAT number ${vatNumber} is not from ${country}`;
  return make('eu_standard_rate', bp, `EU buyer in ${country} with ${why}: ${country}'s standard rate of ${percent(bp)}% applies.`);
}

/** VAT of one amount at a rate in basis points, rounded half up to the cent (integer arithmetic). */
export const vatOf = (amountCents: number, basisPoints: number) => Math.floor((amountCents * basisPoints + 5000) / 10000);
