import { eventInSentence, joinList, sentences, shortName, slugify, themeLabel, truncate } from './text';

describe('offline text helpers', () => {
  it('sentences never split a decimal, initials or a numbered reference, and split CJK full stops', () => {
    expect(sentences('Basel 3.1 applies from 1 January 2027. The output floor is phased in to 72.5 % by 2030. Firms must plan.')).toEqual([
      'Basel 3.1 applies from 1 January 2027.',
      'The output floor is phased in to 72.5 % by 2030.',
      'Firms must plan.',
    ]);
    expect(sentences('The U.S. Treasury issued Notice No. 2 under Art. 5 of the Act. Comments close in March.')).toEqual([
      'The U.S. Treasury issued Notice No. 2 under Art. 5 of the Act.',
      'Comments close in March.',
    ]);
    expect(sentences('Rules apply, e.g. To banks. "Quoted" sentence follows! Another? 2027 is next.')).toEqual([
      'Rules apply, e.g. To banks.',
      '"Quoted" sentence follows!',
      'Another?',
      '2027 is next.',
    ]);
    expect(sentences('规则生效。机构必须遵守！下一步？')).toEqual(['规则生效。', '机构必须遵守！', '下一步？']);
    expect(sentences('version 2.0 and v. 3 remain')).toEqual(['version 2.0 and v. 3 remain']);
  });

  it('shortName prefers a bracketed acronym, then the part before a dash, then the bare title', () => {
    expect(shortName('Anti-Money Laundering Regulation (AMLR) – single rulebook')).toBe('AMLR');
    expect(shortName('Digital Operational Resilience Act (DORA)')).toBe('DORA');
    expect(shortName('Third Payment Services Directive (PSD3) and Payment Services Regulation (PSR)')).toBe('PSD3');
    expect(shortName('CRR3 – Basel III output floor phase-in')).toBe('CRR3');
    expect(shortName('Stablecoins Ordinance (Cap. 656) – licensing of fiat-referenced stablecoin issuers')).toBe('Stablecoins Ordinance');
    expect(shortName('Revised Product Liability Directive (software and AI)')).toBe('Revised Product Liability Directive');
    expect(shortName('SEC US Treasury clearing mandate (Exchange Act Rule 17ad-22(e)(18))')).toBe('SEC US Treasury clearing mandate');
    expect(shortName('Instant Payments Regulation')).toBe('Instant Payments Regulation');
    expect(shortName('Economic Crime and Corporate Transparency Act 2023: Companies House identity verification and register reforms')).toBe(
      'Economic Crime and Corporate Transparency Act 2023',
    );
  });

  it('eventInSentence lower-cases ordinary first words only', () => {
    expect(eventInSentence('Application date for financial entities')).toBe('application date for financial entities');
    expect(eventInSentence('Final rules expected.')).toBe('final rules expected');
    expect(eventInSentence('Commission review of the regulation due')).toBe('Commission review of the regulation due');
    expect(eventInSentence('FCA rules apply')).toBe('FCA rules apply');
    expect(eventInSentence('T+1 go-live')).toBe('T+1 go-live');
    expect(eventInSentence('Member States must transpose')).toBe('Member States must transpose');
  });

  it('lists, slugs, truncation and theme labels', () => {
    expect(joinList([])).toBe('');
    expect(joinList(['EU'])).toBe('EU');
    expect(joinList(['EU', 'UK', 'US'])).toBe('EU, UK and US');
    expect(slugify('AML / KYC')).toBe('aml-kyc');
    expect(slugify('t+1')).toBe('t-1');
    expect(truncate('short', 10)).toBe('short');
    const cut = truncate('one two three four five six seven', 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut.endsWith('…')).toBe(true);
    expect(themeLabel('cbdc')).toBe('CBDC');
    expect(themeLabel('basel iii')).toBe('Basel III');
    expect(themeLabel('sec-cftc')).toBe('SEC-CFTC');
    expect(themeLabel('stablecoins')).toBe('stablecoins');
  });
});
