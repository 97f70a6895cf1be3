import { input, realisticSnapshot } from '../../../../test/fixtures/snapshots';
import type { AccountIntegration } from '../../accounts/entities/account-integration.entity';
import { findExportType } from '../export-types/export-types.registry';
import { audioOverviewRequest, notebookIntegrationError, parseNotebookLmEnterpriseConfig, podcastRequest } from './notebooklm-enterprise';

const notebookIntegration = (config: Record<string, unknown>) => [{ integration: 'notebook', config } as AccountIntegration];

describe('NotebookLM Enterprise option mapping', () => {
  it.each([
    ['SHORT', 'SHORT'],
    ['DEFAULT', 'STANDARD'],
    ['LONG', 'STANDARD'],
    [undefined, 'STANDARD'],
  ])('audio_length %s -> podcast length %s', (audioLength, length) => {
    const options: Record<string, string> = audioLength ? { audio_length: audioLength } : {};
    expect(podcastRequest(input(realisticSnapshot(), options)).podcastConfig.length).toBe(length);
  });

  it.each([
    ['DEEP_DIVE', /deep dive/],
    ['BRIEF', /brief/],
    ['CRITIQUE', /critique/],
    ['DEBATE', /debate/],
  ])('audio_format %s is asked for in the focus', (format, pattern) => {
    const request = podcastRequest(input(realisticSnapshot(), { audio_format: format, instructions: 'Lead with MiCA' }));
    expect(request.podcastConfig.focus).toMatch(pattern);
    expect(request.podcastConfig.focus).toMatch(/\nLead with MiCA$/);
  });

  it('takes the language from the export locale, English for DEBATE and for the simple register', () => {
    expect(podcastRequest(input(realisticSnapshot(), {}, 'de')).podcastConfig.languageCode).toBe('de');
    expect(podcastRequest(input(realisticSnapshot(), { audio_format: 'DEBATE' }, 'de')).podcastConfig.languageCode).toBe('en');
    expect(podcastRequest(input(realisticSnapshot(), {}, 'simple')).podcastConfig.languageCode).toBe('en');
    expect(audioOverviewRequest(input(realisticSnapshot(), {}, 'ja')).languageCode).toBe('ja');
  });

  it('sends the snapshot as the source text and its title as the podcast and notebook title', () => {
    const snapshot = realisticSnapshot();
    const request = podcastRequest(input(snapshot));
    expect(request.contexts).toHaveLength(1);
    expect(request.contexts[0]!.text).toMatch(/^# EU and UK AML/);
    expect(request.title).toBe(snapshot.title);
    const overview = audioOverviewRequest(input(snapshot, { audio_format: 'BRIEF' }));
    expect(overview).toMatchObject({
      notebookTitle: snapshot.title,
      sourceName: snapshot.title,
      episodeFocus: expect.stringMatching(/brief/),
    });
    expect(overview.sourceText).toBe(request.contexts[0]!.text);
  });
});

describe('notebook types against the integration kind', () => {
  const enterprise = notebookIntegration({ kind: 'notebooklm-enterprise', project: '1', accessToken: 't' });
  it.each(['infographic', 'slide-detailed', 'video-explainer', 'video'])('refuses %s for a NotebookLM Enterprise integration', (type) => {
    expect(notebookIntegrationError(findExportType('notebook', type)!, enterprise)).toMatchObject({
      path: 'provider',
      code: 'incompatible',
    });
  });
  it('accepts audio there, and every type for the job protocol or other providers', () => {
    expect(notebookIntegrationError(findExportType('notebook', 'audio')!, enterprise)).toBeUndefined();
    const jobs = notebookIntegration({ apiKey: 'k', baseUrl: 'http://x' });
    expect(notebookIntegrationError(findExportType('notebook', 'video')!, jobs)).toBeUndefined();
    expect(notebookIntegrationError(findExportType('internal-pdf', 'pdf')!, enterprise)).toBeUndefined();
  });
});

describe('NotebookLM Enterprise integration config', () => {
  it('defaults the location, the endpoints and the audio route', () => {
    const settings = parseNotebookLmEnterpriseConfig({ project: '42', location: 'eu', accessToken: 'ya29.x' });
    expect(settings).toMatchObject({
      project: '42',
      location: 'eu',
      audioVia: 'podcast',
      credentials: { accessToken: 'ya29.x' },
      discoveryEngineBaseUrl: 'https://eu-discoveryengine.googleapis.com',
      podcastBaseUrl: 'https://discoveryengine.googleapis.com',
    });
    expect(parseNotebookLmEnterpriseConfig({ project: '42', accessToken: 't' }).discoveryEngineBaseUrl).toBe(
      'https://global-discoveryengine.googleapis.com',
    );
  });
  it.each([
    [{ accessToken: 't' }, /no project/],
    [{ project: '1' }, /serviceAccountKey or accessToken/],
    [{ project: '1', accessToken: 't', audioVia: 'fax' }, /audioVia/],
    [{ project: '1', accessToken: 't', location: 'us/../x' }, /invalid location/],
    [{ project: '1', accessToken: 't', podcastBaseUrl: 'ftp://x' }, /http or https/],
  ])('refuses %j', (config, message) => {
    expect(() => parseNotebookLmEnterpriseConfig(config)).toThrow(message);
  });
});
