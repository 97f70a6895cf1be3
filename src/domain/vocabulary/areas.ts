export interface RegulatoryArea {
  id: string;
  label: string;
  /** Other names clients use for the same area (matched case-insensitively). */
  aliases: string[];
}

export const AREAS: readonly RegulatoryArea[] = [
  { id: 'Banking / Prudential', label: 'Banking / Prudential', aliases: ['Banking', 'Prudential', 'Capital', 'Basel', 'Banking/Prudential'] },
  { id: 'Capital Markets', label: 'Capital Markets', aliases: ['Securities', 'Markets', 'Trading', 'Market Structure'] },
  { id: 'Digital Assets / Crypto', label: 'Digital Assets / Crypto', aliases: ['Crypto', 'Digital Assets', 'Crypto-assets', 'Stablecoins', 'Digital Assets/Crypto'] },
  { id: 'AML / KYC', label: 'AML / KYC', aliases: ['AML', 'KYC', 'AML/KYC', 'Anti-Money Laundering', 'AML/CFT', 'Financial Crime'] },
  { id: 'Payments', label: 'Payments', aliases: ['Payment Services', 'Open Banking', 'Instant Payments'] },
  { id: 'Data Privacy', label: 'Data Privacy', aliases: ['Privacy', 'Data Protection', 'GDPR'] },
  { id: 'Operational Resilience', label: 'Operational Resilience', aliases: ['Resilience', 'Cyber', 'ICT Risk', 'Third-Party Risk', 'Outsourcing'] },
  { id: 'ESG / Sustainable Finance', label: 'ESG / Sustainable Finance', aliases: ['ESG', 'Sustainable Finance', 'Climate', 'Sustainability', 'ESG/Sustainable Finance'] },
  { id: 'Sanctions', label: 'Sanctions', aliases: ['Export Controls', 'Economic Sanctions'] },
  { id: 'Research Bundling / Unbundling', label: 'Research Bundling / Unbundling', aliases: ['Research Unbundling', 'Research Bundling', 'Investment Research', 'Research Payments'] },
  { id: 'Consumer Protection', label: 'Consumer Protection', aliases: ['Consumer Duty', 'Conduct', 'Retail Conduct', 'Consumer'] },
];
