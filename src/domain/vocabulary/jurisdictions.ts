export interface Jurisdiction {
  id: string;
  label: string;
  /** Principal financial regulators, rule-makers and legislatures, by the abbreviation they publish under. */
  regulators: string[];
  /** Other names clients use for the same jurisdiction (matched case-insensitively). */
  aliases: string[];
}

export const JURISDICTIONS: readonly Jurisdiction[] = [
  { id: 'US', label: 'United States', regulators: ['SEC', 'CFTC', 'Federal Reserve', 'OCC', 'FDIC', 'CFPB', 'FinCEN', 'OFAC', 'FINRA', 'Treasury', 'Congress', 'PCAOB', 'NYDFS', 'BIS (Commerce)', 'CPPA', 'CARB'], aliases: ['United States', 'USA', 'U.S.', 'America'] },
  { id: 'EU', label: 'European Union', regulators: ['European Commission', 'EBA', 'ESMA', 'EIOPA', 'ECB', 'AMLA', 'Council of the EU', 'SRB', 'EDPB'], aliases: ['European Union', 'Europe', 'EEA'] },
  { id: 'UK', label: 'United Kingdom', regulators: ['FCA', 'PRA', 'Bank of England', 'PSR', 'HM Treasury', 'OFSI', 'ICO', 'OTSI', 'DSIT'], aliases: ['United Kingdom', 'GB', 'Great Britain', 'Britain'] },
  { id: 'Singapore', label: 'Singapore', regulators: ['MAS', 'PDPC', 'ACRA', 'SGX RegCo', 'MOH', 'NEA', 'MHA'], aliases: ['SG', 'SGP'] },
  { id: 'Hong Kong', label: 'Hong Kong', regulators: ['HKMA', 'SFC', 'PCPD', 'IA', 'FSTB', 'HKEX', 'MPFA'], aliases: ['HK', 'HKSAR', 'Hong Kong SAR'] },
  { id: 'Japan', label: 'Japan', regulators: ['FSA', 'Bank of Japan', 'PPC', 'MOF', 'METI', 'SSBJ', 'JPX'], aliases: ['JP', 'JPN'] },
  { id: 'Australia', label: 'Australia', regulators: ['ASIC', 'APRA', 'AUSTRAC', 'RBA', 'Treasury', 'OAIC', 'DFAT', 'ACCC', 'AASB', 'Home Affairs'], aliases: ['AU', 'AUS'] },
  { id: 'Switzerland', label: 'Switzerland', regulators: ['FINMA', 'SNB', 'SECO', 'FDPIC', 'Federal Council', 'SIF'], aliases: ['CH', 'Swiss'] },
  { id: 'Canada', label: 'Canada', regulators: ['OSFI', 'CSA', 'FINTRAC', 'Bank of Canada', 'FCAC', 'CIRO', 'Global Affairs Canada', 'Finance Canada', 'OPC', 'Payments Canada', 'CSSB'], aliases: ['CA', 'CAN'] },
  { id: 'Brazil', label: 'Brazil', regulators: ['BCB', 'CVM', 'COAF', 'ANPD', 'CMN', 'National Congress', 'SUSEP', 'Receita Federal'], aliases: ['BR', 'Brasil'] },
  { id: 'India', label: 'India', regulators: ['RBI', 'SEBI', 'IRDAI', 'FIU-IND', 'MeitY', 'IFSCA', 'PFRDA', 'MCA', 'NPCI', 'CERT-In'], aliases: ['IN', 'IND'] },
  { id: 'China', label: 'China', regulators: ['PBOC', 'NFRA', 'CSRC', 'CAC', 'SAFE', 'NPCSC', 'State Council', 'MOFCOM', 'MOF'], aliases: ['CN', 'PRC', "People's Republic of China", 'Mainland China'] },
  { id: 'South Korea', label: 'South Korea', regulators: ['FSC', 'FSS', 'Bank of Korea', 'KoFIU', 'PIPC', 'MOEF', 'National Assembly', 'KSSB'], aliases: ['KR', 'Korea', 'Republic of Korea'] },
];
