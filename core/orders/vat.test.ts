import { describe, expect, test } from 'bun:test';
import { decideVat, EU_COUNTRIES, REVERSE_CHARGE_NOTE, vatOf } from './vat.ts';

// Standard rates as published (the oracle for sales-tax's data; update both when a state changes its rate).
const STANDARD_BP: Record<string, number> = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  HR: 2500,
  CY: 1900,
  CZ: 2100,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  DE: 1900,
  GR: 2400,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LV: 2100,
  LT: 2100,
  LU: 1700,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SK: 2300,
  SI: 2200,
  SE: 2500,
};
// A checksum-valid business VAT number of every member state (Greece's prefix is EL).
const VALID_NUMBERS: Record<string, string> = {
  AT: 'ATU13585627',
  BE: 'BE0411905847',
  BG: 'BG175074752',
  HR: 'HR33392005961',
  CY: 'CY10259033P',
  CZ: 'CZ25123891',
  DK: 'DK13585628',
  EE: 'EE100931558',
  ES: 'ESA28015865',
  FI: 'FI20774740',
  FR: 'FR40303265045',
  DE: 'DE136695976',
  GR: 'EL094259216',
  HU: 'HU12892312',
  IE: 'IE6388047V',
  IT: 'IT00743110157',
  LV: 'LV40003521600',
  LT: 'LT119511515',
  LU: 'LU15027442',
  MT: 'MT11679112',
  NL: 'NL004495445B01',
  PL: 'PL5260250274',
  PT: 'PT501964843',
  RO: 'RO18547290',
  SK: 'SK2022749619',
  SI: 'SI50223054',
  SE: 'SE556188840401',
};

describe('VAT rules (seller in DE)', () => {
  test('the 27 member states come from the sales-tax package', () => {
    expect([...EU_COUNTRIES].sort()).toEqual(Object.keys(STANDARD_BP).sort());
  });

  for (const country of Object.keys(STANDARD_BP)) {
    test(`${country}: consumers pay ${STANDARD_BP[country] / 100}%; a valid ${country} business number gives ${country === 'DE' ? 'domestic VAT' : 'reverse charge'}`, async () => {
      const consumer = await decideVat('DE', country, null);
      expect(consumer.rate_basis_points).toBe(STANDARD_BP[country]);
      expect(consumer.rule).toBe(country === 'DE' ? 'domestic' : 'eu_standard_rate');
      const business = await decideVat('DE', country, VALID_NUMBERS[country]);
      expect(business.vat_number_valid).toBe(true);
      if (country === 'DE') expect(business).toMatchObject({ rule: 'domestic', rate_basis_points: 1900 });
      else expect(business).toMatchObject({ rule: 'reverse_charge', rate_basis_points: 0, note: REVERSE_CHARGE_NOTE });
    });
  }

  test("a number from another state than the billing country, or a bad checksum, pays the buyer's rate", async () => {
    expect(await decideVat('DE', 'FR', 'BE0411905847')).toMatchObject({ rule: 'eu_standard_rate', rate_basis_points: 2000, vat_number_valid: true });
    expect(await decideVat('DE', 'FR', 'FR40303265046')).toMatchObject({ rule: 'eu_standard_rate', vat_number_valid: false });
  });

  test('outside the EU: no VAT, with or without a number; no country yet: none until known', async () => {
    for (const c of ['US', 'CH', 'GB', 'NO', 'JP']) expect(await decideVat('DE', c, null)).toMatchObject({ rule: 'outside_eu', rate_basis_points: 0 });
    expect(await decideVat('DE', 'US', 'BE0411905847')).toMatchObject({ rule: 'outside_eu' });
    expect(await decideVat('DE', null, null)).toMatchObject({ rule: 'no_country', rate_basis_points: 0 });
  });

  test('a seller outside the EU charges no VAT; another EU seller country makes its own sales domestic', async () => {
    expect(await decideVat('US', 'FR', null)).toMatchObject({ rule: 'seller_outside_eu', rate_basis_points: 0 });
    expect(await decideVat('FR', 'FR', null)).toMatchObject({ rule: 'domestic', rate_basis_points: 2000 });
    expect(await decideVat('FR', 'DE', null)).toMatchObject({ rule: 'eu_standard_rate', rate_basis_points: 1900 });
  });

  test('VAT of an amount is integer cents, rounded half up', () => {
    expect(vatOf(900, 1900)).toBe(171);
    expect(vatOf(4900, 2550)).toBe(1250); // 1249.5 -> 1250
    expect(vatOf(1, 1900)).toBe(0);
    expect(vatOf(100000000, 2700)).toBe(27000000);
  });
});
