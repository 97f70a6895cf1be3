import { AREAS } from '../../domain/vocabulary/areas';
import { JURISDICTIONS } from '../../domain/vocabulary/jurisdictions';
import { normalizeName, resolveArea, resolveAreas, resolveJurisdiction, resolveJurisdictions } from './matching';

describe('offline matching', () => {
  describe('resolveJurisdiction', () => {
    it.each([
      ['EU', 'EU'],
      ['eu', 'EU'],
      ['European Union', 'EU'],
      ['european union', 'EU'],
      ['  EUROPEAN   UNION ', 'EU'],
      ['E.U.', 'EU'],
      ['the EU', 'EU'],
      ['UK', 'UK'],
      ['U.K.', 'UK'],
      ['united kingdom', 'UK'],
      ['Great Britain', 'UK'],
      ['U.S.', 'US'],
      ['USA', 'US'],
      ['United States of America', 'US'],
      ['hong kong', 'Hong Kong'],
      ['HongKong', 'Hong Kong'],
      ['Hong-Kong SAR', 'Hong Kong'],
      ['Korea', 'South Korea'],
      ['south korea', 'South Korea'],
      ['Brasil', 'Brazil'],
      ['Swiss', 'Switzerland'],
      ["People's Republic of China", 'China'],
    ])('%p -> %p', (name, id) => {
      expect(resolveJurisdiction(name)).toBe(id);
    });

    it('resolves every vocabulary id, label and alias to its own id', () => {
      for (const j of JURISDICTIONS) {
        for (const name of [j.id, j.label, ...j.aliases]) expect(resolveJurisdiction(name)).toBe(j.id);
      }
    });

    it.each(['Narnia', '', '   ', '...', 'Germany', 'EUR'])('unrecognised %p -> null, without throwing', (name) => {
      expect(resolveJurisdiction(name)).toBeNull();
    });

    it('does not throw on non-string input', () => {
      expect(resolveJurisdiction(undefined as unknown as string)).toBeNull();
      expect(resolveJurisdiction(42 as unknown as string)).toBeNull();
    });
  });

  describe('resolveArea', () => {
    it.each([
      ['AML / KYC', 'AML / KYC'],
      ['AML/KYC', 'AML / KYC'],
      ['aml / kyc', 'AML / KYC'],
      ['aml-kyc', 'AML / KYC'],
      ['Anti-Money Laundering', 'AML / KYC'],
      ['anti money laundering', 'AML / KYC'],
      ['ANTI-MONEY-LAUNDERING', 'AML / KYC'],
      ['kyc', 'AML / KYC'],
      ['Know Your Customer', 'AML / KYC'],
      ['crypto', 'Digital Assets / Crypto'],
      ['Crypto-assets', 'Digital Assets / Crypto'],
      ['stablecoins', 'Digital Assets / Crypto'],
      ['privacy', 'Data Privacy'],
      ['GDPR', 'Data Privacy'],
      ['esg', 'ESG / Sustainable Finance'],
      ['Climate', 'ESG / Sustainable Finance'],
      ['payments', 'Payments'],
      ['Payment', 'Payments'],
      ['market structure', 'Capital Markets'],
      ['Capital Markets', 'Capital Markets'],
      ['capital', 'Banking / Prudential'],
      ['Banking/Prudential', 'Banking / Prudential'],
      ['sanction', 'Sanctions'],
      ['research unbundling', 'Research Bundling / Unbundling'],
      ['Consumer Duty', 'Consumer Protection'],
      ['Cyber', 'Operational Resilience'],
    ])('%p -> %p', (name, id) => {
      expect(resolveArea(name)).toBe(id);
    });

    it('resolves every vocabulary id, label and alias to its own id', () => {
      for (const a of AREAS) {
        for (const name of [a.id, a.label, ...a.aliases]) expect(resolveArea(name)).toBe(a.id);
      }
    });

    it.each(['Widgets', '', 'x', 'Quantum Finance'])('unrecognised %p -> null', (name) => {
      expect(resolveArea(name)).toBeNull();
    });
  });

  it('normalizeName folds case, punctuation, whitespace and diacritics', () => {
    expect(normalizeName(' AML / KYC ')).toBe('amlkyc');
    expect(normalizeName('Anti-Money Laundering')).toBe('antimoneylaundering');
    expect(normalizeName('U.K.')).toBe('uk');
    expect(normalizeName('Zürich')).toBe('zurich');
    expect(normalizeName('Sustainability & ESG')).toBe('sustainabilityandesg');
  });

  it('resolveJurisdictions / resolveAreas deduplicate ids and keep unmatched names in order', () => {
    expect(resolveJurisdictions(['EU', 'Narnia', 'European Union', 'uk', 'Narnia', 'Atlantis'])).toEqual({
      ids: ['EU', 'UK'],
      unmatched: ['Narnia', 'Atlantis'],
    });
    expect(resolveAreas(['AML/KYC', 'anti-money laundering', 'Widgets', 'payments'])).toEqual({
      ids: ['AML / KYC', 'Payments'],
      unmatched: ['Widgets'],
    });
    expect(resolveAreas([])).toEqual({ ids: [], unmatched: [] });
  });
});
