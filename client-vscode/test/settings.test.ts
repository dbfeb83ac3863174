import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultServerSettings, restrictedConfigurationValue } from '../src/settings';

const properties = {
  'scorelens.metrics': { default: ['bleu', 'wer'] },
  'scorelens.bleu.tokenize': { default: 'auto' },
  'scorelens.bleu.smoothValue': { default: null },
  'scorelens.inlayHints.lineScores': { default: true },
  'scorelens.interpreter': { default: '' },
  'scorelens.server.path': { default: '' },
  'scorelens.trace.server': { default: 'off' },
  'other.setting': { default: 1 },
};

describe('Restricted Mode settings', () => {
  const defaults = defaultServerSettings(properties);

  it('nests the contributed defaults like a configuration section, without client-only settings', () => {
    assert.deepEqual(defaults, {
      metrics: ['bleu', 'wer'],
      bleu: { tokenize: 'auto', smoothValue: null },
      inlayHints: { lineScores: true },
    });
  });
  it('does not share arrays with the manifest', () => {
    assert.notEqual(defaults.metrics, properties['scorelens.metrics'].default);
  });
  it('answers the section, sub-sections and single settings', () => {
    assert.equal(restrictedConfigurationValue('scorelens', defaults), defaults);
    assert.deepEqual(restrictedConfigurationValue('scorelens.bleu', defaults), { tokenize: 'auto', smoothValue: null });
    assert.equal(restrictedConfigurationValue('scorelens.bleu.tokenize', defaults), 'auto');
    assert.equal(restrictedConfigurationValue('scorelens.nope.deeper', defaults), null);
  });
  it('answers null for anything outside scorelens', () => {
    assert.equal(restrictedConfigurationValue('files.encoding', defaults), null);
    assert.equal(restrictedConfigurationValue(undefined, defaults), null);
    assert.equal(restrictedConfigurationValue('scorelensX', defaults), null);
  });
});
