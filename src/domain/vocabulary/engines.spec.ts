import { DEFAULT_ENGINE, ENGINES, findEngine, HORIZONS, isHorizon, isRetiredEngine, isVerifierAwareConfig, listPublicEngines, RETIRED_ENGINES } from './engines';

describe('engines vocabulary', () => {
  it('knows the four engines with v4 as the default', () => {
    expect(ENGINES.map((engine) => engine.id)).toEqual(['v4', 'v4.5-alpha', 'v4.5-beta', 'council']);
    expect(DEFAULT_ENGINE).toBe('v4');
    expect(findEngine(DEFAULT_ENGINE)?.id).toBe('v4');
    expect(findEngine('v3')).toBeUndefined();
  });

  it('lists only v4, v4.5-alpha and v4.5-beta on GET /v1/meta/engines (C4)', () => {
    const body = listPublicEngines();
    expect(body.data.map((engine) => engine.id)).toEqual(['v4', 'v4.5-alpha', 'v4.5-beta']);
    expect(Object.keys(body.data[0]).sort()).toEqual(['description', 'id', 'label']);
    expect(body.horizons).toEqual([3, 6, 12, 18, 24, 36]);
  });

  it('marks v4.5-alpha and v4.5-beta as verifier-aware', () => {
    expect(ENGINES.filter((engine) => engine.verifierAware).map((engine) => engine.id)).toEqual(['v4.5-alpha', 'v4.5-beta']);
  });

  it('allows verification flags on every engine but council, provider selection only on v4.5-beta', () => {
    expect(ENGINES.filter((engine) => engine.acceptsVerificationFlags).map((engine) => engine.id)).toEqual(['v4', 'v4.5-alpha', 'v4.5-beta']);
    expect(ENGINES.filter((engine) => engine.acceptsProviderSelection).map((engine) => engine.id)).toEqual(['v4.5-beta']);
    expect(findEngine('council')?.fixedModel).toBe('large');
  });

  it('describes the passes each engine runs', () => {
    const phases = (id: string) => findEngine(id)?.passes.map((pass) => pass.id);
    expect(phases('v4')).toEqual(['plan', 'search', 'read', 'analyse', 'realist', 'auditor', 'sub-edit', 'translate', 'finalise']);
    expect(findEngine('v4')?.passes.filter((pass) => pass.optional).map((pass) => pass.id)).toEqual(['realist', 'auditor', 'translate']);
    expect(phases('council')).toEqual(['plan', 'search', 'read', 'seat-a', 'seat-b', 'merge', 'write', 'translate', 'finalise']);
    for (const engine of ENGINES) {
      expect(new Set(engine.passes.map((pass) => pass.id)).size).toBe(engine.passes.length);
      for (const pass of engine.passes) expect(pass.description.length).toBeGreaterThan(0);
    }
  });

  it('recognises retired engines and horizons', () => {
    expect(RETIRED_ENGINES).toEqual(['v1', 'v2', 'v3', 'admiral']);
    expect(isRetiredEngine('admiral')).toBe(true);
    expect(isRetiredEngine('v4')).toBe(false);
    expect(HORIZONS).toEqual([3, 6, 12, 18, 24, 36]);
    expect(isHorizon(12)).toBe(true);
    expect(isHorizon(9)).toBe(false);
    expect(isHorizon('12')).toBe(false);
  });

  it('derives verifier-awareness of a config (spec rule 2)', () => {
    expect(isVerifierAwareConfig({})).toBe(false);
    expect(isVerifierAwareConfig({ engine: 'v4.5-alpha' })).toBe(true);
    expect(isVerifierAwareConfig({ engine: 'v4.5-beta', realist: false })).toBe(true);
    expect(isVerifierAwareConfig({ engine: 'v4', auditor: true })).toBe(true);
    expect(isVerifierAwareConfig({ engine: 'v4', realist: true })).toBe(true);
    expect(isVerifierAwareConfig({ engine: 'v4', verificationMode: 'in-analyst' })).toBe(true);
    expect(isVerifierAwareConfig({ engine: 'v4', verificationMode: 'in-analyst', realist: false, auditor: false })).toBe(false);
    expect(isVerifierAwareConfig({ engine: 'council' })).toBe(false);
    expect(isVerifierAwareConfig({ engine: 'nope', realist: true })).toBe(false);
  });
});
